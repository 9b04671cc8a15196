/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the tests that run the irqstorm executable (compare, matrix,
 * plot): temporary directories, files, and the command itself, found
 * through $IRQSTORM_BIN (set by meson's test()).
 */
#ifndef IRQSTORM_TESTUTIL_H
#define IRQSTORM_TESTUTIL_H

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

/* A fresh temporary directory; remove it with tu_rmtree(). */
G_GNUC_UNUSED static char *tu_make_dir(void)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp("irqstorm-test-XXXXXX", &error);

	g_assert_no_error(error);
	return dir;
}

/* Remove path and, if it is a directory, everything under it. */
G_GNUC_UNUSED static void tu_rmtree(const char *path)
{
	if (g_file_test(path, G_FILE_TEST_IS_DIR) &&
	    !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d))) {
			g_autofree char *p = g_build_filename(path, name, NULL);

			tu_rmtree(p);
		}
		g_assert_cmpint(g_rmdir(path), ==, 0);
	} else {
		g_assert_cmpint(g_unlink(path), ==, 0);
	}
}

G_GNUC_UNUSED static char *tu_slurp(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

G_GNUC_UNUSED static void tu_write(const char *path, const char *text)
{
	g_autoptr(GError) error = NULL;

	g_file_set_contents(path, text, -1, &error);
	g_assert_no_error(error);
}

/* Copy the regular files of src into dst (created). */
G_GNUC_UNUSED static void tu_copy_dir(const char *src, const char *dst)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) d = g_dir_open(src, 0, &error);
	const char *name;

	g_assert_no_error(error);
	g_assert_cmpint(g_mkdir_with_parents(dst, 0755), ==, 0);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *from = g_build_filename(src, name, NULL);
		g_autofree char *to = g_build_filename(dst, name, NULL);
		g_autofree char *text = NULL;
		gsize len = 0;

		if (!g_file_test(from, G_FILE_TEST_IS_REGULAR))
			continue;
		g_file_get_contents(from, &text, &len, &error);
		g_assert_no_error(error);
		g_file_set_contents(to, text, (gssize)len, &error);
		g_assert_no_error(error);
	}
}

/* The irqstorm executable under test. */
G_GNUC_UNUSED static const char *tu_bin(void)
{
	const char *bin = g_getenv("IRQSTORM_BIN");

	if (!bin || !*bin)
		g_error("IRQSTORM_BIN is not set (run the tests with meson test)");
	return bin;
}

/*
 * Run irqstorm with args (NULL-terminated, without the program name) in
 * cwd (NULL: ours), with env: NULL-terminated "NAME=value" pairs added to
 * our environment ("NAME=" alone unsets NAME). Returns the exit status
 * (-1 if killed); stdout and stderr are returned when asked for.
 */
G_GNUC_UNUSED static int tu_run(const char *cwd, const char *const *args,
				const char *const *env, char **out, char **err)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_auto(GStrv) envp = g_get_environ();
	g_autoptr(GError) error = NULL;
	g_autofree char *o = NULL, *e = NULL;
	int status = 0;

	g_ptr_array_add(argv, (char *)tu_bin());
	for (gsize i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	for (gsize i = 0; env && env[i]; i++) {
		const char *eq = strchr(env[i], '=');
		g_autofree char *name = g_strndup(env[i], eq - env[i]);

		if (eq[1])
			envp = g_environ_setenv(envp, name, eq + 1, TRUE);
		else
			envp = g_environ_unsetenv(envp, name);
	}
	g_spawn_sync(cwd, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
		     &o, &e, &status, &error);
	g_assert_no_error(error);
	if (g_test_verbose())
		g_printerr("--- stdout:\n%s--- stderr:\n%s", o, e);
	if (out)
		*out = g_steal_pointer(&o);
	if (err)
		*err = g_steal_pointer(&e);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Occurrences of needle in haystack. */
G_GNUC_UNUSED static guint tu_count(const char *haystack, const char *needle)
{
	guint n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#endif /* IRQSTORM_TESTUTIL_H */
