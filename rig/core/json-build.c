// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building JSON: see json-build.h.
 */
#include "json-build.h"

#include <math.h>

void irqstorm_json_add_int(JsonBuilder *b, const char *name, gint64 v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, v);
}

void irqstorm_json_add_bool(JsonBuilder *b, const char *name, gboolean v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, v);
}

void irqstorm_json_add_string(JsonBuilder *b, const char *name, const char *v)
{
	json_builder_set_member_name(b, name);
	if (v)
		json_builder_add_string_value(b, v);
	else
		json_builder_add_null_value(b);
}

void irqstorm_json_add_double(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	if (isnan(v))
		json_builder_add_null_value(b);
	else
		json_builder_add_double_value(b, v);
}

void irqstorm_json_add_rounded(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	if (isnan(v))
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, (gint64)llround(v));
}

void irqstorm_json_add_strv(JsonBuilder *b, const char *name,
			    const char *const *v)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (gsize i = 0; v && v[i]; i++)
		json_builder_add_string_value(b, v[i]);
	json_builder_end_array(b);
}

void irqstorm_json_add_strings(JsonBuilder *b, const char *name,
			       const GPtrArray *a)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < a->len; i++)
		json_builder_add_string_value(b, a->pdata[i]);
	json_builder_end_array(b);
}

char *irqstorm_json_text(JsonNode *root)
{
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autofree char *text = NULL;

	json_generator_set_pretty(gen, TRUE);
	json_generator_set_indent(gen, 2);
	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, NULL);
	return g_strconcat(text, "\n", NULL);
}
