/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files a run creates: never through a symbolic link, never over a file
 * that is already there, private where they must be.
 */
#ifndef IRQSTORM_FILES_H
#define IRQSTORM_FILES_H

#include <glib.h>

int irqstorm_create_private_file(const char *path, GError **error);
int irqstorm_create_output_file(const char *path, GError **error);

#endif /* IRQSTORM_FILES_H */
