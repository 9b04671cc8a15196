// SPDX-License-Identifier: GPL-2.0-or-later
/* QEMU's trace of the interrupts held to a window's end, read back (held.h). */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "core/held.h"

static char *write_tmp(const char *text)
{
	g_autoptr(GError) err = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("held-XXXXXX.log", &path, &err);

	g_assert_no_error(err);
	close(fd);
	g_assert_true(g_file_set_contents(path, text, -1, &err));
	return path;
}

/* Every delay counted, min and max, those outside [0, Q] counted, other
 * events' lines and QEMU's -msg timestamp prefix taken as they come. */
static void test_read(void)
{
	g_autofree char *path = write_tmp(
		"icount_window_irq cpu 1 vector 0xfd sent at 1000 ns raised at 9000 ns\n"
		"irqstorm_raise ch 0 seq 1 at 5 ns\n"
		"1234@1700000000.000001:icount_window_irq cpu 0 mask 0x2 sent at 20000 ns "
		"raised at 20000 ns\n"
		"icount_window_irq cpu 1 vector 0xec sent at 30000 ns raised at 40000 ns\n");
	g_autoptr(GError) err = NULL;
	IrqstormHeldIrqs h;

	g_assert_true(irqstorm_held_irqs_read(path, 10000, &h, &err));
	g_assert_no_error(err);
	g_assert_cmpuint(h.count, ==, 3);
	g_assert_cmpint(h.min_ns, ==, 0);
	g_assert_cmpint(h.max_ns, ==, 10000);
	g_assert_cmpint(h.outside, ==, 0);
	/* a smaller quantum: the 10 us one is outside it */
	g_assert_true(irqstorm_held_irqs_read(path, 9999, &h, &err));
	g_assert_cmpint(h.outside, ==, 1);
	g_unlink(path);
}

/* Raised before it was sent: outside; an empty trace: none held. */
static void test_outside(void)
{
	g_autofree char *early = write_tmp(
		"icount_window_irq cpu 1 vector 0xfd sent at 9000 ns raised at 8999 ns\n");
	g_autofree char *empty = write_tmp("");
	IrqstormHeldIrqs h;

	g_assert_true(irqstorm_held_irqs_read(early, 10000, &h, NULL));
	g_assert_cmpint(h.outside, ==, 1);
	g_assert_cmpint(h.min_ns, ==, -1);
	g_assert_true(irqstorm_held_irqs_read(empty, 10000, &h, NULL));
	g_assert_cmpuint(h.count, ==, 0);
	g_unlink(early);
	g_unlink(empty);
}

/* A line of the event that does not parse, or no file: an error naming it. */
static void test_errors(void)
{
	g_autofree char *bad = write_tmp(
		"icount_window_irq cpu 1 vector 0xfd sent at 9000 ns\n");
	g_autoptr(GError) err = NULL;
	IrqstormHeldIrqs h;

	g_assert_false(irqstorm_held_irqs_read(bad, 10000, &h, &err));
	g_assert_nonnull(strstr(err->message, ":1: not a icount_window_irq line"));
	g_clear_error(&err);
	g_unlink(bad);
	g_assert_false(irqstorm_held_irqs_read(bad, 10000, &h, &err));
	g_assert_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/held/read", test_read);
	g_test_add_func("/held/outside", test_outside);
	g_test_add_func("/held/errors", test_errors);
	return g_test_run();
}
