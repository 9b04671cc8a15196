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

/*
 * Write a whole file (len -1: a string), through a temporary file renamed
 * into place, so that no reader sees half of it; 0644. An error names
 * path, never the temporary file: "cannot write DIR/summary.json: ...".
 */
gboolean irqstorm_write_file(const char *path, const char *contents, gssize len,
			     GError **error);

#endif /* IRQSTORM_FILES_H */
