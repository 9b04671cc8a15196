// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the guest parts on first use: a run that takes its parts from
 * the build directory needs only QEMU and its own kernel flavour, so a
 * fresh checkout builds those two (side by side) and nothing else, and
 * another flavour is built the first time a scenario asks for it.
 */
#include <errno.h>
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
 * A user's tree is built every time (the build script makes that a check
 * when the tree has not changed, and an incremental build when it has);
 * the Debian kernels only when missing.
 */
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
		return TRUE;
	/* A refusal that needs no kernel comes before minutes of building. */
	if (!irqstorm_run_check_kernel(set, error))
		return FALSE;
	g_printerr("irqstorm: %s not built yet: building now into %s, cached "
		   "after (a first build takes minutes; docs/building.md)\n",
		   missing, b->build_dir);
	return irqstorm_guest_build(b, kernels, error);
}
