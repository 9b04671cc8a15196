// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files of a run: private files are new, 0600, and refuse anything already
 * at their name, symbolic links included; output files replace what was
 * there without following a symbolic link. The run's files (runfiles.h):
 * a run that begins removes an earlier run's, each channel's and each
 * figure's, and keeps the marker and what later commands added.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "core/files.h"
#include "core/runfiles.h"

typedef struct {
	char *dir;
	char *target;		/* a file a symbolic link points at */
} Fixture;

static void setup(Fixture *f, gconstpointer data)
{
	f->dir = g_dir_make_tmp("irqstorm-files-XXXXXX", NULL);
	g_assert_nonnull(f->dir);
	f->target = g_build_filename(f->dir, "target", NULL);
	g_assert_true(g_file_set_contents(f->target, "precious", -1, NULL));
}

static void teardown(Fixture *f, gconstpointer data)
{
	g_autoptr(GDir) d = g_dir_open(f->dir, 0, NULL);
	const char *name;

	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(f->dir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->target);
}

static char *contents(const char *path)
{
	char *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

static void test_private_new(Fixture *f, gconstpointer data)
{
	g_autofree char *path = g_build_filename(f->dir, "log", NULL);
	g_autoptr(GError) err = NULL;
	struct stat st;
	int fd = irqstorm_create_private_file(path, &err);

	g_assert_no_error(err);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(fstat(fd, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0600);
	close(fd);
	/* A second time: the file exists, refused. */
	g_assert_cmpint(irqstorm_create_private_file(path, &err), <, 0);
	g_assert_error(err, G_FILE_ERROR, G_FILE_ERROR_EXIST);
}

static void test_private_symlink(Fixture *f, gconstpointer data)
{
	g_autofree char *path = g_build_filename(f->dir, "log", NULL);
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;

	g_assert_cmpint(symlink(f->target, path), ==, 0);
	g_assert_cmpint(irqstorm_create_private_file(path, &err), <, 0);
	g_assert_nonnull(err);
	text = contents(f->target);
	g_assert_cmpstr(text, ==, "precious");
}

static void test_output_symlink(Fixture *f, gconstpointer data)
{
	g_autofree char *path = g_build_filename(f->dir, "console.log", NULL);
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	struct stat st;
	int fd;

	g_assert_cmpint(symlink(f->target, path), ==, 0);
	fd = irqstorm_create_output_file(path, &err);
	g_assert_no_error(err);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(write(fd, "run", 3), ==, 3);
	close(fd);
	/* The link was replaced by a file; its target is untouched. */
	g_assert_cmpint(lstat(path, &st), ==, 0);
	g_assert_true(S_ISREG(st.st_mode));
	text = contents(f->target);
	g_assert_cmpstr(text, ==, "precious");
}

static void test_output_replaces(Fixture *f, gconstpointer data)
{
	g_autofree char *path = g_build_filename(f->dir, "qemu.log", NULL);
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	int fd;

	g_assert_true(g_file_set_contents(path, "an older run's output", -1, NULL));
	fd = irqstorm_create_output_file(path, &err);
	g_assert_no_error(err);
	g_assert_cmpint(write(fd, "new", 3), ==, 3);
	close(fd);
	text = contents(path);
	g_assert_cmpstr(text, ==, "new");
}

static void test_run_files_stale(Fixture *f, gconstpointer data)
{
	static const char *const stale[] = {
		"records.csv", "summary.json", "histogram.txt", "histogram-ch0.txt",
		"histogram-ch3.txt", "timeline.png", "breakdown.svg", "scenario.ini",
		"console.log", "qemu.log", "qemu-cmdline.txt", "rt-tests.json", "rtla-hist.txt",
	};
	static const char *const kept[] = { "INCOMPLETE", "trace.json", "mine.txt" };
	g_autofree char *explain = irqstorm_run_path(f->dir, IRQSTORM_FILE_EXPLAIN);
	g_autofree char *ch2 = irqstorm_run_channel_path(f->dir, IRQSTORM_FILE_HISTOGRAM_CH, 2);
	g_autoptr(GError) err = NULL;

	g_assert_true(g_str_has_suffix(ch2, "/histogram-ch2.txt"));
	for (gsize i = 0; i < G_N_ELEMENTS(stale) + G_N_ELEMENTS(kept); i++) {
		const char *name = i < G_N_ELEMENTS(stale) ? stale[i] :
				   kept[i - G_N_ELEMENTS(stale)];
		g_autofree char *path = g_build_filename(f->dir, name, NULL);

		g_assert_true(g_file_set_contents(path, "an earlier run's", -1, NULL));
	}
	g_assert_cmpint(g_mkdir(explain, 0755), ==, 0);
	g_assert_true(irqstorm_run_files_remove_stale(f->dir, &err));
	g_assert_no_error(err);
	for (gsize i = 0; i < G_N_ELEMENTS(stale); i++) {
		g_autofree char *path = g_build_filename(f->dir, stale[i], NULL);

		g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	}
	for (gsize i = 0; i < G_N_ELEMENTS(kept); i++) {
		g_autofree char *path = g_build_filename(f->dir, kept[i], NULL);

		g_assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
		g_unlink(path);
	}
	g_assert_true(g_file_test(explain, G_FILE_TEST_IS_DIR));
	g_rmdir(explain);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/files/private/new", Fixture, NULL, setup, test_private_new, teardown);
	g_test_add("/files/private/symlink", Fixture, NULL, setup, test_private_symlink, teardown);
	g_test_add("/files/output/symlink", Fixture, NULL, setup, test_output_symlink, teardown);
	g_test_add("/files/output/replaces", Fixture, NULL, setup, test_output_replaces, teardown);
	g_test_add("/files/run/stale", Fixture, NULL, setup, test_run_files_stale, teardown);
	return g_test_run();
}
