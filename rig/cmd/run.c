// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm run: one scenario, start to end. The options become settings
 * and scenario assignments; the engine (core/run.c) does the run.
 */
#include <stdio.h>
#include <glib.h>

#include "cmd.h"
#include "irqstorm/guest.h"
#include "config.h"
#include "core/guest-build.h"
#include "core/machine.h"
#include "core/run.h"
#include "core/scenario.h"
#include "core/stages.h"

static const char run_files[] =
	"Boots the guest kernel in QEMU with the irqstorm device, lets it storm\n"
	"for the scenario's duration, reads every interrupt's timestamps live\n"
	"from shared memory, and writes to the output directory:\n"
	"  histogram.txt   cyclictest --histfile layout, one column per stage\n"
	"  summary.json    counts, min/avg/max, percentiles, identities\n"
	"  rt-tests.json   the stages in cyclictest --json's layout\n"
	"  rtla-hist.txt   hardirq, thread and probe per vCPU, rtla timerlat hist's\n"
	"                  layout (IRQ, Thr, Usr columns)\n"
	"  records.csv     every record (--no-csv to skip)\n"
	"  console.log, qemu.log, qemu-cmdline.txt, scenario.ini\n"
	"  INCOMPLETE      present only if the run did not finish, says why\n";

static const char run_more[] =
	"Deterministic by default (TCG, -icount, one vCPU): the same scenario\n"
	"gives the same numbers on any machine.\n"
	"\n"
	"Without --qemu-dir, --kernel-dir and --initrd-dir, a part this run needs\n"
	"that the build directory lacks (QEMU, the scenario's kernel flavour and\n"
	"its initramfs) is built first, with its progress on stderr, and cached.\n"
	"A kernel from your own tree ([kernel] source = PATH, Linux 6.1 or later)\n"
	"is checked at every run and rebuilt, incrementally, where the tree\n"
	"changed; the tree itself is never written to (docs/kernels.md).\n"
	"\n"
	"Exit status: 0 passed, 1 error or incomplete run or failed cross-check,\n"
	"2 a scenario threshold was exceeded, 3 the guest stalled (an i8042\n"
	"region or a spin timed out, the kernel disabled an interrupt line, or\n"
	"the storm livelocked the guest: it could not stop the storm within\n"
	"[run] grace of its duration, so the device ended it on time), 5 the\n"
	"kernel failed the run: it reported a fault the scenario does not\n"
	"expect (BUG:, WARNING:, lockdep, an oops or panic, a lockup, an RCU\n"
	"stall, a hung task, \"nobody cared\"), or did not report one that\n"
	"[run] kernel_expect names; each report is printed with its first\n"
	"frames and kept in summary.json (kernel_reports).\n"
	"\n"
	"Examples:\n"
	"  irqstorm run scenarios/default.ini\n"
	"  irqstorm run scenarios/default.ini --out results/fast --set channel0.rate=20000\n"
	"  irqstorm run scenarios/default.ini --set channel0.threading=hardirq --duration 5\n"
	"  irqstorm run scenarios/ide-pio.ini --set kernel.flavour=dyn --set kernel.source=../linux\n";

/* The description: the files, the stages (from their table), the rest. */
static char *run_description(void)
{
	GString *s = g_string_new(run_files);

	g_string_append(s, "\nStages, in ns of QEMU's virtual clock, \"to\" counted from the device\n"
			"raising the interrupt (include/irqstorm/stages.h):\n");
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		g_string_append_printf(s, "  %-8s %s\n", irqstorm_stage_name(st),
				       irqstorm_stage_help(st));
	g_string_append_c(s, '\n');
	g_string_append(s, run_more);
	return g_string_free(s, FALSE);
}

/* The shortcut options of `run`, each a scenario key. */
typedef struct {
	char *duration, *seed, *accel, *icount;
} RunShortcuts;

static void run_shortcuts_clear(RunShortcuts *sh)
{
	g_free(sh->duration);
	g_free(sh->seed);
	g_free(sh->accel);
	g_free(sh->icount);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunShortcuts, run_shortcuts_clear)

/*
 * The scenario file with the shortcuts, then every --set, applied; each
 * override's messages name the option that gave it, and those of the
 * check of the whole name every option that changed the file.
 */
static IrqstormScenario *load_scenario(const char *path, const RunShortcuts *sh,
				       const char *const *sets, GError **error)
{
	const struct {
		const char *option, *key, *value;
	} shortcuts[] = {
		{ "--duration", "run.duration", sh->duration },
		{ "--seed", "machine.seed", sh->seed },
		{ "--accel", "machine.accel", sh->accel },
		{ "--icount", "machine.icount", sh->icount },
	};
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load(path, error);
	g_autoptr(GString) options = g_string_new(NULL);

	if (!sc)
		return NULL;
	for (gsize i = 0; i < G_N_ELEMENTS(shortcuts); i++) {
		g_autofree char *a = NULL;

		if (!shortcuts[i].value)
			continue;
		a = g_strconcat(shortcuts[i].key, "=", shortcuts[i].value, NULL);
		if (!irqstorm_scenario_override(sc, a, shortcuts[i].option, error))
			return NULL;
		g_string_append_printf(options, "%s%s", options->len ? ", " : "",
				       shortcuts[i].option);
	}
	for (gsize i = 0; sets && sets[i]; i++)
		if (!irqstorm_scenario_override(sc, sets[i], "--set", error))
			return NULL;
	if (sets && sets[0])
		g_string_append_printf(options, "%s--set", options->len ? ", " : "");
	if (options->len && !irqstorm_scenario_check(sc, options->str, error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* --dry-run: the effective scenario, the guest's settings, the command. */
static int print_dry_run(const IrqstormScenario *sc, const IrqstormRunSettings *set)
{
	g_autofree char *ini = irqstorm_scenario_to_ini(sc);
	g_autofree char *conf = irqstorm_machine_guest_conf(sc);
	g_autofree char *qemu = g_build_filename(set->qemu_dir, IRQSTORM_MACHINE_QEMU_NAME, NULL);
	g_autofree char *kname = irqstorm_machine_kernel_name(sc);
	g_autofree char *kernel = g_build_filename(set->kernel_dir, kname, NULL);
	g_autofree char *iname = irqstorm_machine_initrd_name(sc);
	g_autofree char *initrd = g_build_filename(set->initrd_dir, iname, NULL);
	IrqstormMachinePaths p = {
		.qemu = qemu, .kernel = kernel, .initrd = initrd,
		.log_path = "PRIVATE/log", .qmp_path = "PRIVATE/qmp.sock",
		.console_path = "OUT/console.log", .guest_conf_path = "PRIVATE/guest.conf",
	};
	g_auto(GStrv) argv = irqstorm_machine_argv(sc, &p);
	g_autofree char *cmd = irqstorm_argv_to_shell((const char *const *)argv);

	printf("%s\n# guest.conf (fw_cfg " IRQSTORM_GUEST_CONF_FW_CFG ")\n%s\n"
	       "# QEMU (PRIVATE: a 0700 directory made for the run; OUT: %s)\n%s\n",
	       ini, conf, set->out_dir, cmd);
	return IRQSTORM_EXIT_PASSED;
}

/* irqstorm run SCENARIO [options] */
int irqstorm_cmd_run(int argc, char **argv)
{
	g_autofree char *out = NULL;
	/* NULL until parsed: GOption does not free a default it replaces. */
	g_autofree char *qemu_dir = NULL;
	g_autofree char *kernel_dir = NULL;
	g_autofree char *initrd_dir = NULL;
	g_auto(RunShortcuts) sh = { 0 };
	g_auto(GStrv) sets = NULL;
	gboolean quiet = FALSE, no_csv = FALSE, dry_run = FALSE, replace = FALSE;
	const GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Output directory (default: results/<scenario name>); one that holds "
		  "a complete result is refused", "DIR" },
		{ "replace", 0, 0, G_OPTION_ARG_NONE, &replace,
		  "Replace the complete result in DIR, once this run is complete (it "
		  "is written beside it, DIR.partial, until then)", NULL },
		{ "duration", 'd', 0, G_OPTION_ARG_STRING, &sh.duration,
		  "Storm duration in seconds of virtual time (= --set run.duration=S)", "S" },
		{ "seed", 0, 0, G_OPTION_ARG_STRING, &sh.seed,
		  "QEMU's -seed for the guest's random numbers (= --set machine.seed=N)", "N" },
		{ "accel", 0, 0, G_OPTION_ARG_STRING, &sh.accel,
		  "tcg, kvm, or auto: KVM when it runs the guest, else TCG "
		  "(= --set machine.accel=A); kvm and auto need --icount off", "A" },
		{ "icount", 0, 0, G_OPTION_ARG_STRING, &sh.icount,
		  "Deterministic mode's shift, or off (= --set machine.icount=S)", "SHIFT|off" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Override a scenario key, e.g. channel0.rate=5000 (repeatable)", "GROUP.KEY=VALUE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "No progress line and no summary", NULL },
		{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
		  "Check the scenario; print it as it would run, and the QEMU command "
		  "line; run nothing", NULL },
		{ "no-csv", 0, 0, G_OPTION_ARG_NONE, &no_csv,
		  "Do not write records.csv", NULL },
		{ "qemu-dir", 0, 0, G_OPTION_ARG_FILENAME, &qemu_dir,
		  "Where qemu-system-x86_64 is (default: the build's)", "DIR" },
		{ "kernel-dir", 0, 0, G_OPTION_ARG_FILENAME, &kernel_dir,
		  "Where bzImage-FLAVOUR is (default: the build's)", "DIR" },
		{ "initrd-dir", 0, 0, G_OPTION_ARG_FILENAME, &initrd_dir,
		  "Where initramfs-FLAVOUR[-cyclictest].cpio.gz is (default: the build's)", "DIR" },
		{ NULL }
	};
	g_autofree char *description = run_description();
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options("SCENARIO - one run",
							     entries, description);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = NULL;
	IrqstormRunSettings set;
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	gboolean own_parts;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc != 2)
		return irqstorm_usage_error(ctx, "run needs exactly one SCENARIO file");
	sc = load_scenario(argv[1], &sh, (const char *const *)sets, &err);
	if (!sc)
		return irqstorm_cmd_fail("%s", err->message);
	if (!out)
		out = irqstorm_cmd_default_out(argv[1], "");
	/* Parts from the build directory are built there on first use. */
	own_parts = !qemu_dir && !kernel_dir && !initrd_dir;
	if (!qemu_dir)
		qemu_dir = g_strdup(IRQSTORM_QEMU_DIR);
	if (!kernel_dir)
		kernel_dir = g_strdup(IRQSTORM_KERNEL_DIR);
	if (!initrd_dir)
		initrd_dir = g_strdup(IRQSTORM_INITRD_DIR);
	set = (IrqstormRunSettings) {
		.scenario = sc, .out_dir = out, .qemu_dir = qemu_dir,
		.kernel_dir = kernel_dir, .initrd_dir = initrd_dir,
		.quiet = quiet, .csv = !no_csv,
	};
	if (dry_run)
		return print_dry_run(sc, &set);
	return irqstorm_cmd_run_into(&set, own_parts ? &builder : NULL, out, replace);
}
