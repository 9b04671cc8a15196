// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the guest parts on first use: a run that takes its parts from
 * the build directory needs only QEMU and its own kernel flavour, so a
 * fresh checkout builds those two (side by side) and nothing else, and
 * another flavour is built the first time a scenario asks for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-build.h"
#include "irqstorm/explain.h"
#include "machine.h"
#include "run.h"

/*
 * Missing means not there: no file, or a link into a cache that is gone.
 * A part this user cannot reach (a build in another user's home) is there:
 * building it again would not help, and the run says why it cannot use it.
 */
static gboolean present(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	struct stat st;

	return stat(path, &st) == 0 || errno != ENOENT;	/* follows the link */
}

/*
 * Every part the builds make together counts: a build directory made
 * before explain existed has no plugin and no System.map, and gets them.
 */
char *irqstorm_guest_missing(const IrqstormRunSettings *set)
{
	const IrqstormScenario *sc = set->scenario;
	g_autofree char *kname = irqstorm_machine_kernel_name(sc);
	g_autofree char *iname = irqstorm_machine_initrd_name(sc);
	g_autofree char *map = irqstorm_machine_kernel_file(sc, "System.map");
	gboolean qemu = !present(set->qemu_dir, IRQSTORM_MACHINE_QEMU_NAME) ||
			!present(set->qemu_dir, IRQSTORM_EXPLAIN_PLUGIN);
	gboolean kernel = !present(set->kernel_dir, kname) ||
			  !present(set->kernel_dir, map) ||
			  !present(set->initrd_dir, iname);

	g_autofree char *k = irqstorm_scenario_kernel_name(sc);

	if (qemu && kernel)
		return g_strdup_printf("QEMU and the %s kernel", k);
	if (qemu)
		return g_strdup("QEMU");
	if (kernel)
		return g_strdup_printf("the %s kernel", k);
	return NULL;
}

/*
 * Runs in the build's child between fork and exec: async-signal-safe calls
 * only. The build dies with us: SIGTERM, which build-guest.sh turns into
 * stopping its lanes (their makes and compilers), when we die, even by
 * SIGKILL; a build left running would hold its build directory's lock
 * and the CPUs for minutes with nobody waiting for it.
 */
static void build_child_setup(gpointer data)
{
	pid_t parent = GPOINTER_TO_INT(data);

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* The parent may have died before prctl took effect. */
	if (getppid() != parent)
		_exit(127);
}

gboolean irqstorm_guest_build(const IrqstormGuestBuilder *b,
			      const char *const *flavours, GError **error)
{
	g_autofree char *script = g_build_filename(b->source_dir, "scripts",
						   "build-guest.sh", NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	GPid pid;
	int status;
	int out;
	gboolean spawned;

	g_ptr_array_add(argv, script);
	g_ptr_array_add(argv, (gpointer)b->build_dir);
	for (guint i = 0; flavours && flavours[i]; i++)
		g_ptr_array_add(argv, (gpointer)flavours[i]);
	g_ptr_array_add(argv, NULL);
	/* Its progress on stderr: stdout may be a summary being piped. A
	 * copy: GLib closes the descriptor it moves to the child's stdout,
	 * and closing 2 itself would leave the builder without stderr. */
	out = dup(STDERR_FILENO);
	if (out < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot duplicate stderr: %s", g_strerror(errno));
		return FALSE;
	}
	spawned = g_spawn_async_with_pipes_and_fds(NULL, (const char *const *)argv->pdata,
						   NULL, G_SPAWN_DO_NOT_REAP_CHILD |
						   G_SPAWN_STDIN_FROM_DEV_NULL,
						   build_child_setup, GINT_TO_POINTER(getpid()),
						   -1, out, -1, NULL, NULL, 0,
						   &pid, NULL, NULL, NULL, error);
	close(out);
	if (!spawned)
		return FALSE;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	g_spawn_close_pid(pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
			    "building the guest parts failed (%s %s): the lines "
			    "above name the step and its log", script, b->build_dir);
		return FALSE;
	}
	return TRUE;
}

/*
 * The sources a kernel's parts are made of, beside the Debian ones: the
 * driver, the contract headers, the series and configs (the kernel and
 * the driver), the guest's init and helper (the initramfs).
 */
static const char *const guest_sources[] = {
	"kernel-series/driver", "kernel-series/config", "kernel-series/patches",
	"kernel-series/patches-7.3", "include/irqstorm", "guest-init",
};

/* The newest modification time of the files directly in dir (0: none). */
static gint64 newest_in(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	gint64 newest = 0;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		struct stat st;

		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			newest = MAX(newest, (gint64)st.st_mtime);
	}
	return newest;
}

/*
 * Are a run's kernel and initramfs older than a source they are made of?
 * Parts built on first use (not one of meson's flavours: a debug kernel,
 * patches = none) are otherwise never made again, and a run would boot a
 * kernel, a driver and an init of an older checkout. The kernel is the
 * build directory's link into the cache (made by each build: its own
 * time, never the cached image's, which may be older than a fresh clone);
 * the initramfs a file. A build that finds its inputs unchanged leaves
 * both as they are: irqstorm_guest_ensure() touches them after it, so
 * that one edit costs one check.
 */
static gboolean parts_stale(const IrqstormGuestBuilder *b, const char *kernel,
			    const char *initrd)
{
	gint64 sources = 0;
	struct stat k, i;

	for (gsize n = 0; n < G_N_ELEMENTS(guest_sources); n++) {
		g_autofree char *dir = g_build_filename(b->source_dir, guest_sources[n], NULL);

		sources = MAX(sources, newest_in(dir));
	}
	return (lstat(kernel, &k) == 0 && (gint64)k.st_mtime < sources) ||
	       (stat(initrd, &i) == 0 && (gint64)i.st_mtime < sources);
}

/*
 * A user's tree is built every time (the build script makes that a check
 * when the tree has not changed, and an incremental build when it has);
 * the Debian kernels when missing, or older than their sources.
 */
/* Build the run's kernel k (kernels) again if its parts are stale. */
static gboolean refresh(const IrqstormGuestBuilder *b, const IrqstormRunSettings *set,
			const char *k, const char *const *kernels, GError **error)
{
	g_autofree char *kname = irqstorm_machine_kernel_name(set->scenario);
	g_autofree char *iname = irqstorm_machine_initrd_name(set->scenario);
	g_autofree char *kpath = g_build_filename(set->kernel_dir, kname, NULL);
	g_autofree char *ipath = g_build_filename(set->initrd_dir, iname, NULL);

	if (!parts_stale(b, kpath, ipath))
		return TRUE;
	g_printerr("irqstorm: the %s kernel or its initramfs is older than its sources "
		   "(kernel-series/, include/irqstorm/, guest-init/): building again where "
		   "they changed\n", k);
	if (!irqstorm_guest_build(b, kernels, error))
		return FALSE;
	utimensat(AT_FDCWD, kpath, NULL, AT_SYMLINK_NOFOLLOW);
	utimensat(AT_FDCWD, ipath, NULL, 0);
	return TRUE;
}

gboolean irqstorm_guest_ensure(const IrqstormGuestBuilder *b,
			       const IrqstormRunSettings *set, GError **error)
{
	g_autofree char *missing = irqstorm_guest_missing(set);
	g_autofree char *k = irqstorm_scenario_kernel_name(set->scenario);
	const char *tree = irqstorm_scenario_kernel_tree(set->scenario);
	g_autofree char *spec = tree ? g_strdup_printf("%s=%s", k, tree) : g_strdup(k);
	const char *kernels[] = { spec, NULL };

	if (tree) {
		g_printerr("irqstorm: checking the %s kernel against %s (built "
			   "again where the tree changed)\n", k, tree);
		return irqstorm_guest_build(b, kernels, error);
	}
	if (!missing)
		return refresh(b, set, k, kernels, error);
	/* A refusal that needs no kernel comes before minutes of building. */
	if (!irqstorm_run_check_kernel(set, error))
		return FALSE;
	g_printerr("irqstorm: %s not built yet: building now into %s, cached "
		   "after (a first build takes minutes; docs/building.md)\n",
		   missing, b->build_dir);
	return irqstorm_guest_build(b, kernels, error);
}
