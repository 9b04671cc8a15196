// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest parts built on first use (core/guest-build.c): what a run finds
 * missing, in words; the builder's command line, its failure and its
 * output kept off stdout. A stand-in scripts/build-guest.sh records what it
 * was given: nothing here builds QEMU or a kernel.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/guest-build.h"
#include "core/scenario.h"
#include "testutil.h"

typedef struct {
	char *dir;		/* qemu, kernel and initrd parts together */
	char *src;		/* a fake checkout: scripts/build-guest.sh */
	IrqstormScenario *sc;
	IrqstormRunSettings set;
} Fixture;

static void fixture_set_up(Fixture *f, gconstpointer data)
{
	const char *ini = data ? data : "[kernel]\nflavour = dyn\n";
	g_autoptr(GError) err = NULL;

	f->dir = tu_make_dir();
	f->src = tu_make_dir();
	f->sc = irqstorm_scenario_load_data("t.ini", ini, &err);
	g_assert_no_error(err);
	f->set = (IrqstormRunSettings) {
		.scenario = f->sc, .qemu_dir = f->dir, .kernel_dir = f->dir,
		.initrd_dir = f->dir,
	};
}

static void fixture_tear_down(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->dir);
	tu_rmtree(f->src);
	g_free(f->dir);
	g_free(f->src);
	irqstorm_scenario_free(f->sc);
}

static void touch(const Fixture *f, const char *name)
{
	g_autofree char *path = g_build_filename(f->dir, name, NULL);

	tu_write(path, "");
}

static void unlink_in(const Fixture *f, const char *name)
{
	g_autofree char *path = g_build_filename(f->dir, name, NULL);

	g_assert_cmpint(unlink(path), ==, 0);
}

static void fake_builder(const Fixture *f, const char *body)
{
	g_autofree char *scripts = g_build_filename(f->src, "scripts", NULL);
	g_autofree char *path = g_build_filename(scripts, "build-guest.sh", NULL);
	g_autofree char *text = g_strdup_printf("#!/bin/sh\n%s\n", body);

	g_assert_cmpint(g_mkdir_with_parents(scripts, 0755), ==, 0);
	tu_write(path, text);
	g_assert_cmpint(chmod(path, 0755), ==, 0);
}

/* Each missing part named; nothing missing is NULL; a dangling link (a
 * build directory whose cache was removed) is missing too. */
static void test_missing(Fixture *f, gconstpointer data)
{
	g_autofree char *all = NULL, *kernel = NULL, *qemu = NULL, *none = NULL;
	g_autofree char *dangling = g_build_filename(f->dir, "initramfs-dyn.cpio.gz", NULL);
	g_autofree char *qemu_path = g_build_filename(f->dir, "qemu-system-x86_64", NULL);

	g_autofree char *plugin = NULL, *map = NULL;

	all = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(all, ==, "QEMU and the dyn kernel");
	touch(f, "qemu-system-x86_64");
	touch(f, "irqstorm-explain.so");
	touch(f, "bzImage-dyn");
	touch(f, "System.map-dyn");
	g_assert_cmpint(symlink("/nonexistent/initramfs", dangling), ==, 0);
	kernel = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(kernel, ==, "the dyn kernel");
	g_assert_cmpint(unlink(dangling), ==, 0);
	touch(f, "initramfs-dyn.cpio.gz");
	none = irqstorm_guest_missing(&f->set);
	g_assert_null(none);
	g_assert_cmpint(unlink(qemu_path), ==, 0);
	qemu = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(qemu, ==, "QEMU");
	/* A build directory from before explain: no plugin, no System.map. */
	touch(f, "qemu-system-x86_64");
	unlink_in(f, "irqstorm-explain.so");
	plugin = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(plugin, ==, "QEMU");
	touch(f, "irqstorm-explain.so");
	unlink_in(f, "System.map-dyn");
	map = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(map, ==, "the dyn kernel");
}

/* A run with cyclictest needs that initramfs, not the plain one. */
static void test_missing_cyclictest(Fixture *f, gconstpointer data)
{
	g_autofree char *a = NULL, *b = NULL;

	touch(f, "qemu-system-x86_64");
	touch(f, "irqstorm-explain.so");
	touch(f, "bzImage-rt");
	touch(f, "System.map-rt");
	touch(f, "initramfs-rt.cpio.gz");
	a = irqstorm_guest_missing(&f->set);
	g_assert_cmpstr(a, ==, "the rt kernel");
	touch(f, "initramfs-rt-cyclictest.cpio.gz");
	b = irqstorm_guest_missing(&f->set);
	g_assert_null(b);
}

/* The builder gets the build directory and the flavours, in order; its
 * stdout goes to our stderr (stdout may be a summary being piped). */
static void test_build_args(Fixture *f, gconstpointer data)
{
	g_autofree char *args = g_build_filename(f->dir, "args", NULL);
	/* Both of its outputs must be open: a builder whose stderr is closed
	 * fails at its first message, saying nothing. */
	g_autofree char *body = g_strdup_printf("echo \"$*\" >%s\n"
						"echo progress || exit 3\n"
						"echo progress >&2 || exit 4", args);
	const char *const flavours[] = { "rt", "dyn", NULL };
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = "/some/build" };
	g_autoptr(GError) err = NULL;
	g_autofree char *got = NULL;
	int saved = dup(STDOUT_FILENO);
	int null = open("/dev/null", O_WRONLY);
	gboolean ok;

	fake_builder(f, body);
	/* Our stdout closed to the builder: were it written there, this
	 * test's TAP stream would show "progress". */
	fflush(stdout);
	dup2(null, STDOUT_FILENO);
	ok = irqstorm_guest_build(&b, flavours, &err);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	g_assert_no_error(err);
	g_assert_true(ok);
	got = tu_slurp(args);
	g_assert_cmpstr(got, ==, "/some/build rt dyn\n");
}

/* A failed build is an error that says where to look. */
static void test_build_fails(Fixture *f, gconstpointer data)
{
	const char *const flavours[] = { "rt", NULL };
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = f->dir };
	g_autoptr(GError) err = NULL;

	fake_builder(f, "exit 1");
	g_assert_false(irqstorm_guest_build(&b, flavours, &err));
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err->message, "building the guest parts failed"));
	g_assert_nonnull(strstr(err->message, "build-guest.sh"));
}

/* A builder that cannot be run (a checkout moved away) is an error too. */
static void test_build_no_script(Fixture *f, gconstpointer data)
{
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = f->dir };
	g_autoptr(GError) err = NULL;

	g_assert_false(irqstorm_guest_build(&b, NULL, &err));
	g_assert_nonnull(err);
}

/* ensure: nothing runs when nothing is missing. */
static void test_ensure_present(Fixture *f, gconstpointer data)
{
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = f->dir };
	g_autoptr(GError) err = NULL;

	fake_builder(f, "exit 1");
	touch(f, "qemu-system-x86_64");
	touch(f, "irqstorm-explain.so");
	touch(f, "bzImage-dyn");
	touch(f, "System.map-dyn");
	touch(f, "initramfs-dyn.cpio.gz");
	g_assert_true(irqstorm_guest_ensure(&b, &f->set, &err));
	g_assert_no_error(err);
}

/* ensure: a user's tree is handed to the builder every time, as
 * NAME=TREE, even with every part present (the tree may have changed). */
static void test_ensure_tree(Fixture *f, gconstpointer data)
{
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = f->dir };
	g_autofree char *args = g_build_filename(f->dir, "args", NULL);
	g_autofree char *body = g_strdup_printf("echo \"$*\" >%s", args);
	g_autofree char *k = irqstorm_scenario_kernel_name(f->sc);
	g_autofree char *want = g_strdup_printf("%s %s=/src/linux\n", f->dir, k);
	g_autoptr(GError) err = NULL;
	g_autofree char *got = NULL;
	const char *const parts[] = {
		"qemu-system-x86_64", "irqstorm-explain.so", "bzImage-", "System.map-",
		"initramfs-",
	};

	g_assert_true(g_str_has_prefix(k, "dyn-tree-"));
	for (gsize i = 0; i < G_N_ELEMENTS(parts); i++) {
		g_autofree char *name = g_str_has_suffix(parts[i], "-") ?
			g_strconcat(parts[i], k, !strcmp(parts[i], "initramfs-") ?
				    ".cpio.gz" : "", NULL) : g_strdup(parts[i]);

		touch(f, name);
	}
	g_assert_null(irqstorm_guest_missing(&f->set));
	fake_builder(f, body);
	g_assert_true(irqstorm_guest_ensure(&b, &f->set, &err));
	g_assert_no_error(err);
	g_assert_true(g_file_get_contents(args, &got, NULL, NULL));
	g_assert_cmpstr(got, ==, want);
}

/*
 * ensure: a scenario the kernel would refuse (preempt=voluntary on
 * Linux 7.3's dyn, which takes full and lazy only; thread_cpu on 7.3,
 * whose IRQ threads follow their interrupt) is refused before the first
 * build, by what the source's identity will say, and nothing is built.
 */
static void test_ensure_refused(Fixture *f, gconstpointer data)
{
	const IrqstormGuestBuilder b = { .source_dir = f->src, .build_dir = f->dir };
	g_autofree char *args = g_build_filename(f->dir, "args", NULL);
	g_autofree char *body = g_strdup_printf("echo \"$*\" >%s", args);
	g_autoptr(GError) err = NULL;

	fake_builder(f, body);
	g_assert_false(irqstorm_guest_ensure(&b, &f->set, &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT);
	g_assert_nonnull(strstr(err->message, g_str_has_suffix(data, "voluntary\n") ?
				"takes only preempt=full,lazy" : "binds IRQ threads"));
	g_assert_nonnull(strstr(err->message, "debian-7.3, not built yet"));
	g_assert_false(g_file_test(args, G_FILE_TEST_EXISTS));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn, data) \
	g_test_add(path, Fixture, data, fixture_set_up, fn, fixture_tear_down)
	ADD("/guest-build/missing", test_missing, NULL);
	ADD("/guest-build/missing-cyclictest", test_missing_cyclictest,
	    "[kernel]\nflavour = rt\n[guest]\ncyclictest = true\n");
	ADD("/guest-build/args", test_build_args, NULL);
	ADD("/guest-build/fails", test_build_fails, NULL);
	ADD("/guest-build/no-script", test_build_no_script, NULL);
	ADD("/guest-build/ensure-present", test_ensure_present, NULL);
	ADD("/guest-build/ensure-tree", test_ensure_tree,
	    "[kernel]\nflavour = dyn\nsource = /src/linux\n");
	ADD("/guest-build/ensure-refused/preempt", test_ensure_refused,
	    "[kernel]\nflavour = dyn\nsource = debian-7.3\ncmdline = preempt=voluntary\n");
	ADD("/guest-build/ensure-refused/thread-cpu", test_ensure_refused,
	    "[kernel]\nflavour = rt\nsource = debian-7.3\n[channel0]\nthread_cpu = 0\n");
	return g_test_run();
}
