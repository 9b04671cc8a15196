/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names a run's results are written with and read back by: one
 * place for the writer (results) and the reader (summary.c).
 */
#ifndef IRQSTORM_SUMMARY_KEYS_H
#define IRQSTORM_SUMMARY_KEYS_H

#include <glib.h>

G_BEGIN_DECLS

#define IRQSTORM_SUMMARY_FILE	"summary.json"
#define IRQSTORM_MARKER_FILE	"INCOMPLETE"	/* marker.h */

G_END_DECLS

#endif /* IRQSTORM_SUMMARY_KEYS_H */
