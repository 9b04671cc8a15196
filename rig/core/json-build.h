/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building JSON: the members every document of the rig is made of, null
 * where a value is missing, and the text of a document as the rig writes
 * and prints it (pretty, two spaces, a final newline). summary.json,
 * compare --json and matrix.json are all built with these.
 */
#ifndef IRQSTORM_JSON_BUILD_H
#define IRQSTORM_JSON_BUILD_H

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void irqstorm_json_add_int(JsonBuilder *b, const char *name, gint64 v);
void irqstorm_json_add_bool(JsonBuilder *b, const char *name, gboolean v);

/* A string, or null for NULL. */
void irqstorm_json_add_string(JsonBuilder *b, const char *name, const char *v);

/* A number, or null for NAN. */
void irqstorm_json_add_double(JsonBuilder *b, const char *name, double v);

/* A number rounded to an integer (ns), or null for NAN. */
void irqstorm_json_add_rounded(JsonBuilder *b, const char *name, double v);

/* An array of strings: v NULL-terminated (NULL: empty), or a's. */
void irqstorm_json_add_strv(JsonBuilder *b, const char *name,
			    const char *const *v);
void irqstorm_json_add_strings(JsonBuilder *b, const char *name,
			       const GPtrArray *a);

/* The document as text: pretty-printed, indented by two, a newline. */
char *irqstorm_json_text(JsonNode *root);

G_END_DECLS

#endif /* IRQSTORM_JSON_BUILD_H */
