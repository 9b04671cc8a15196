// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm run and the command line around it, through the executable:
 * help in the user's characters and under the command's full name, the
 * options a message blames, a QEMU that cannot be used or that fails at
 * start (its own last lines on the terminal), the summary's first lines,
 * and when a run is called deterministic. A fake QEMU stands in: nothing
 * here boots a guest.
 */
#include "testutil.h"

/* `irqstorm run --help` in a UTF-8 locale: GLib's ellipsis, the full name. */
static void test_help_utf8(void)
{
	const char *const args[] = { "run", "--help", NULL };
	const char *const env[] = { "LC_ALL=C.UTF-8", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, env, &out, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(out, "Usage:\n  irqstorm run [OPTION\u2026] "
				       "SCENARIO - one run\n"));
}

/* In a locale without those characters: ASCII, not '?'. */
static void test_help_ascii(void)
{
	const char *const args[] = { "run", "--help", NULL };
	const char *const env[] = { "LC_ALL=C", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, env, &out, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(out, "Usage:\n  irqstorm run [OPTION...] "
				       "SCENARIO - one run\n"));
}

/* irqstorm help COMMAND is the command's help; help alone the global one. */
static void test_help_command(void)
{
	const char *const help_run[] = { "help", "run", NULL };
	const char *const run_help[] = { "run", "--help", NULL };
	const char *const help_matrix[] = { "help", "matrix", NULL };
	const char *const help_bogus[] = { "help", "bogus", NULL };
	const char *const help[] = { "help", NULL };
	g_autofree char *a = NULL, *b = NULL, *m = NULL, *err = NULL, *top = NULL;

	g_assert_cmpint(tu_run(NULL, help_run, NULL, &a, NULL), ==, 0);
	g_assert_cmpint(tu_run(NULL, run_help, NULL, &b, NULL), ==, 0);
	g_assert_cmpstr(a, ==, b);
	g_assert_cmpint(tu_run(NULL, help_matrix, NULL, &m, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(m, "Usage:\n  irqstorm matrix "));
	g_assert_cmpint(tu_run(NULL, help_bogus, NULL, NULL, &err), ==, 1);
	g_assert_true(g_str_has_prefix(err, "irqstorm: help: unknown command 'bogus'\n"));
	g_assert_cmpint(tu_run(NULL, help, NULL, &top, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(top, "Usage: irqstorm COMMAND [OPTION...]\n"));
}

/* A scenario, and the directories a run takes its QEMU, kernel and
 * initramfs from. */
typedef struct {
	char *root;
	char *scenario;
	char *qemu_dir, *qemu;
	char *kernel_dir, *initrd_dir;
	char *out;
} Fixture;

static void fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = tu_make_dir();
	f->scenario = g_build_filename(f->root, "test.ini", NULL);
	f->qemu_dir = g_build_filename(f->root, "qemu", NULL);
	f->qemu = g_build_filename(f->qemu_dir, "qemu-system-x86_64", NULL);
	f->kernel_dir = g_build_filename(f->root, "kernel", NULL);
	f->initrd_dir = g_build_filename(f->root, "initrd", NULL);
	f->out = g_build_filename(f->root, "out", NULL);
	tu_write(f->scenario, "[channel0]\nrate = 1000\n[run]\nduration = 0.5\n"
		 "[profile.fast]\nchannel0.rate = 5000\n");
	g_assert_cmpint(g_mkdir(f->qemu_dir, 0755), ==, 0);
	g_assert_cmpint(g_mkdir(f->kernel_dir, 0755), ==, 0);
	g_assert_cmpint(g_mkdir(f->initrd_dir, 0755), ==, 0);
	tu_write(f->qemu, "#!/bin/sh\n"
		 "echo 'qemu-system-x86_64: a warning first' >&2\n"
		 "echo 'qemu-system-x86_64: -accel kvm: failed to initialize kvm: "
		 "No such file or directory' >&2\n"
		 "exit 1\n");
	g_assert_cmpint(g_chmod(f->qemu, 0755), ==, 0);
	{
		g_autofree char *k = g_build_filename(f->kernel_dir, "bzImage-rt", NULL);
		g_autofree char *i = g_build_filename(f->initrd_dir, "initramfs-rt.cpio.gz",
						      NULL);

		tu_write(k, "not a kernel");
		tu_write(i, "not an initramfs");
	}
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->root);
	g_free(f->root);
	g_free(f->scenario);
	g_free(f->qemu_dir);
	g_free(f->qemu);
	g_free(f->kernel_dir);
	g_free(f->initrd_dir);
	g_free(f->out);
}

/* irqstorm run SCENARIO with the fixture's directories, then args. */
static int run(Fixture *f, const char *const *args, char **out, char **err)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, "run");
	g_ptr_array_add(argv, f->scenario);
	g_ptr_array_add(argv, "--out");
	g_ptr_array_add(argv, f->out);
	g_ptr_array_add(argv, "--qemu-dir");
	g_ptr_array_add(argv, f->qemu_dir);
	g_ptr_array_add(argv, "--kernel-dir");
	g_ptr_array_add(argv, f->kernel_dir);
	g_ptr_array_add(argv, "--initrd-dir");
	g_ptr_array_add(argv, f->initrd_dir);
	for (gsize i = 0; args && args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	return tu_run(NULL, (const char *const *)argv->pdata, NULL, out, err);
}

/* Each option a message is about is the one it names. */
static void test_option_messages(Fixture *f, gconstpointer data)
{
	const char *const duration[] = { "--duration", "-1", "--dry-run", NULL };
	const char *const accel[] = { "--accel", "kvm", "--set", "run.duration=1",
				      "--dry-run", NULL };
	g_autofree char *err = NULL, *err2 = NULL;

	g_assert_cmpint(run(f, duration, NULL, &err), ==, 1);
	g_assert_cmpstr(err, ==, "irqstorm: --duration: [run] duration = '-1': expected "
			"a number of seconds from 0.001 to 3600\n");
	g_assert_cmpint(run(f, accel, NULL, &err2), ==, 1);
	g_assert_true(g_str_has_prefix(err2, "irqstorm: --accel, --set: [machine] icount "
				       "needs accel = tcg: "));
}

/* An empty scenario file is refused, not run with every default. */
static void test_empty_scenario(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--dry-run", NULL };
	g_autofree char *err = NULL;
	g_autofree char *expected = g_strdup_printf("irqstorm: %s: no groups: the file "
		"is empty or only comments. For every default, say so with one group, "
		"e.g. [run]\n", f->scenario);

	tu_write(f->scenario, "");
	g_assert_cmpint(run(f, args, NULL, &err), ==, 1);
	g_assert_cmpstr(err, ==, expected);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/run/help/utf8", test_help_utf8);
	g_test_add_func("/run/help/ascii", test_help_ascii);
	g_test_add_func("/run/help/command", test_help_command);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/run/option-messages", test_option_messages);
	ADD("/run/empty-scenario", test_empty_scenario);
#undef ADD
	return g_test_run();
}
