// SPDX-License-Identifier: GPL-2.0-or-later
/* Columns of text: see table.h. */
#include "table.h"

#include <string.h>

typedef struct {
	guint col, n;
	char *title;
} Heading;

struct IrqstormTable {
	guint ncols;
	gboolean *right;	/* each column right-aligned? */
	guint indent;		/* spaces before every line */
	guint *gap;		/* spaces before each column */
	gsize *width;		/* of each column, once laid out */
	GPtrArray *rows;	/* of GStrv */
	GArray *headings;	/* of Heading */
};

IrqstormTable *irqstorm_table_new(guint ncols)
{
	IrqstormTable *t = g_new0(IrqstormTable, 1);

	t->ncols = ncols;
	t->right = g_new0(gboolean, ncols);
	t->gap = g_new(guint, ncols);
	for (guint c = 0; c < ncols; c++)
		t->gap[c] = 2;
	t->width = g_new0(gsize, ncols);
	t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	t->headings = g_array_new(FALSE, TRUE, sizeof(Heading));
	return t;
}

void irqstorm_table_free(IrqstormTable *t)
{
	if (!t)
		return;
	for (guint i = 0; i < t->headings->len; i++)
		g_free(g_array_index(t->headings, Heading, i).title);
	g_array_unref(t->headings);
	g_ptr_array_unref(t->rows);
	g_free(t->gap);
	g_free(t->right);
	g_free(t->width);
	g_free(t);
}

void irqstorm_table_align_right(IrqstormTable *t, guint first)
{
	for (guint c = first; c < t->ncols; c++)
		t->right[c] = TRUE;
}

void irqstorm_table_align_left(IrqstormTable *t, guint first)
{
	for (guint c = first; c < t->ncols; c++)
		t->right[c] = FALSE;
}

void irqstorm_table_set_indent(IrqstormTable *t, guint spaces)
{
	t->indent = spaces;
}

void irqstorm_table_set_gap(IrqstormTable *t, guint col, guint spaces)
{
	g_return_if_fail(col < t->ncols);
	t->gap[col] = spaces;
}

void irqstorm_table_add_heading(IrqstormTable *t, guint col, guint n,
				const char *title)
{
	Heading h = { .col = col, .n = n, .title = g_strdup(title) };

	g_return_if_fail(n > 0 && col + n <= t->ncols);
	g_array_append_val(t->headings, h);
}

guint irqstorm_table_add_row(IrqstormTable *t, char **cells)
{
	g_return_val_if_fail(g_strv_length(cells) == t->ncols, t->rows->len);
	g_ptr_array_add(t->rows, cells);
	return t->rows->len - 1;
}

/* Display width of s: characters if it is UTF-8, else bytes. */
static gsize text_width(const char *s)
{
	return g_utf8_validate(s, -1, NULL) ? (gsize)g_utf8_strlen(s, -1) : strlen(s);
}

/* The width a heading has: its columns and the gaps between them. */
static gsize heading_span(const IrqstormTable *t, const Heading *h)
{
	gsize span = 0;

	for (guint c = h->col; c < h->col + h->n; c++)
		span += (c > h->col ? t->gap[c] : 0) + t->width[c];
	return span;
}

/* Each column as wide as its widest cell, or as its heading needs. */
static void lay_out(IrqstormTable *t)
{
	memset(t->width, 0, t->ncols * sizeof(*t->width));
	for (guint r = 0; r < t->rows->len; r++) {
		char **row = t->rows->pdata[r];

		for (guint c = 0; c < t->ncols; c++)
			t->width[c] = MAX(t->width[c], text_width(row[c]));
	}
	for (guint i = 0; i < t->headings->len; i++) {
		const Heading *h = &g_array_index(t->headings, Heading, i);
		gsize need = text_width(h->title), have = heading_span(t, h);

		if (need > have)
			t->width[h->col + h->n - 1] += need - have;
	}
}

static void append_padded(GString *out, const char *s, gsize width, gboolean right)
{
	gsize w = text_width(s);

	if (right)
		for (; w < width; w++)
			g_string_append_c(out, ' ');
	g_string_append(out, s);
	if (!right)
		for (; w < width; w++)
			g_string_append_c(out, ' ');
}

/* The gap before column c, or the indent before the first. */
static void append_gap(const IrqstormTable *t, GString *out, guint c)
{
	for (guint i = 0; i < (c ? t->gap[c] : t->indent); i++)
		g_string_append_c(out, ' ');
}

/* End a line begun at start: no trailing blanks, a newline. */
static void end_line(GString *out, gsize start)
{
	while (out->len > start && out->str[out->len - 1] == ' ')
		g_string_truncate(out, out->len - 1);
	g_string_append_c(out, '\n');
}

/* The heading starting at column c, or NULL. */
static const Heading *heading_at(const IrqstormTable *t, guint c)
{
	for (guint i = 0; i < t->headings->len; i++)
		if (g_array_index(t->headings, Heading, i).col == c)
			return &g_array_index(t->headings, Heading, i);
	return NULL;
}

static void render_headings(const IrqstormTable *t, GString *out)
{
	gsize start = out->len;

	for (guint c = 0; c < t->ncols; c++) {
		const Heading *h = heading_at(t, c);

		append_gap(t, out, c);
		if (h) {
			append_padded(out, h->title, heading_span(t, h), FALSE);
			c += h->n - 1;
		} else {
			append_padded(out, "", t->width[c], FALSE);
		}
	}
	end_line(out, start);
}

static void render_row(const IrqstormTable *t, guint i, GString *out)
{
	char **row = t->rows->pdata[i];
	gsize start = out->len;

	for (guint c = 0; c < t->ncols; c++) {
		append_gap(t, out, c);
		append_padded(out, row[c], t->width[c], t->right[c]);
	}
	end_line(out, start);
}

void irqstorm_table_render(IrqstormTable *t, GString *out)
{
	lay_out(t);
	if (t->headings->len)
		render_headings(t, out);
	for (guint i = 0; i < t->rows->len; i++)
		render_row(t, i, out);
}

void irqstorm_table_render_row(IrqstormTable *t, guint i, GString *out)
{
	g_return_if_fail(i < t->rows->len);
	lay_out(t);
	render_row(t, i, out);
}
