// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix, the command: parse the command line, plan the cells,
 * run them, report. See matrix.h for the steps.
 */
#include "matrix.h"

#include <stdio.h>
#include <string.h>

#include "core/guest-build.h"

static const char matrix_description[] =
	"Runs SCENARIO once for every combination of the --vary values (the\n"
	"cartesian product), each run (a cell) as\n"
	"  irqstorm run SCENARIO --out OUT/CELL --quiet [--set ...] --set K=V ... [OPTIONS]\n"
	"where OPTIONS are what follows '--' (e.g. -- --duration 5 --no-csv),\n"
	"given to every run as they are. CELL names the values, e.g.\n"
	"rate=1000,threading=hardirq (the group is dropped when the key alone\n"
	"is unambiguous; characters outside [A-Za-z0-9._+=-] become '_'). Each\n"
	"cell's own output is in its matrix-run.log. Values cannot contain ','.\n"
	"An item A..B is every integer from A to B (at most 10000 of them):\n"
	"--vary machine.seed=1..100 is a seed sweep of 100 cells.\n"
	"Every cell's scenario is checked before the first one runs.\n"
	"\n"
	"Resumable: a cell whose directory already holds a complete run\n"
	"(summary.json, no INCOMPLETE) is skipped, so after ^C or a failure the\n"
	"same command carries on; OUT/matrix.json records the scenario (and the\n"
	"SHA-256 of its text), --set, run options and the build's identity, and\n"
	"another combination of them is refused in the same OUT: finished cells\n"
	"of another build are never mixed with new ones. Remove a cell's\n"
	"directory to run it again.\n"
	"\n"
	"Parallel: --jobs N runs N cells at once. Under icount (the default)\n"
	"each QEMU runs its vCPUs in one host thread (several in windows of\n"
	"virtual time, [machine] quantum_ns), so N = the number of host cores\n"
	"is reasonable; the results do not depend on N, because each run is\n"
	"deterministic in virtual time however loaded the host is.\n"
	"^C stops the running cells (they are marked INCOMPLETE and rerun next\n"
	"time), keeps the finished ones, and exits 1.\n"
	"\n"
	"At the end, OUT/matrix.json lists every cell (its values, directory,\n"
	"exit status, completeness, how it ended, p50/p99/max per stage in ns)\n"
	"and a table shows p99 and max of every stage per cell. For more, use\n"
	"irqstorm compare OUT/*/ or irqstorm plot OUT/*/ --out OUT.\n"
	"\n"
	"Seed sweeps: when every varied key is a seed (machine.seed,\n"
	"channelN.seed), the cells are samples of one distribution, and\n"
	"OUT/merged/ gets it: each histogram file of the cells summed bin by bin\n"
	"(histogram.txt, same layout), and merged.json with every stage's count,\n"
	"min, max, avg and percentiles from the summed histogram.\n"
	"\n"
	"Shards: --shard I/N runs the cells whose index (from 0, in the order\n"
	"above: the first --vary slowest) is I-1 modulo N, so that N machines\n"
	"share a matrix, each with the same command and its own OUT. Each\n"
	"OUT/matrix.json then says which shard it is, of what (the scenario's\n"
	"SHA-256, --set, --vary, run options, the build's identity files) and\n"
	"lists every cell; irqstorm merge OUT DIR... puts the shards together\n"
	"into what one machine would have written (docs/scaling.md).\n"
	"\n"
	"Each cell ends in an outcome of the scenario, which is a result, or in\n"
	"a tool failure, which is not. Outcomes: passed (exit 0), threshold\n"
	"(exit 2), stall (exit 3), kernel (exit 5: the kernel reported a fault\n"
	"the scenario does not expect, e.g. a WARNING or a lockdep splat, even\n"
	"one that cut the run short), and refused: the guest itself reported\n"
	"an error (e.g. the kernel refused the interrupt, \"Flags mismatch\"),\n"
	"exit 1 with the guest's status in summary.json. Anything else is a\n"
	"tool failure: QEMU did not start or crashed, the wall-clock timeout, a\n"
	"rig error, failed cross-checks, no summary.json. Tool failures are\n"
	"listed on stderr and run again when the matrix is resumed.\n"
	"\n"
	"Cells of several channels get a column group per channel and stage,\n"
	"titled with the channel ([channelN] name); --channel N|NAME shows\n"
	"only that one (run the same command again to see another: the cells\n"
	"are not run again).\n"
	"\n"
	"Exit status: 0 every cell passed; 2 a cell exceeded a threshold, the\n"
	"others passed; 3 a cell stalled or was refused, the others were\n"
	"outcomes too; 5 the kernel failed a cell, the others were outcomes;\n"
	"4 a cell ended in a tool failure; 1 the matrix did not finish (^C, a\n"
	"bad option, OUT/matrix.json not written).\n"
	"\n"
	"Examples:\n"
	"  irqstorm matrix scenarios/default.ini --vary channel0.threading=hardirq,threaded,forced\n"
	"  irqstorm matrix scenarios/default.ini --vary channel0.rate=1000,5000,20000 \\\n"
	"      --vary channel0.threading=hardirq,threaded --jobs 2 --out results/rates\n"
	"  irqstorm matrix scenarios/default.ini --vary kernel.flavour=rt,dyn \\\n"
	"      --set kernel.cmdline=threadirqs -- --duration 5\n"
	"  irqstorm matrix scenarios/default.ini --vary machine.seed=1..100 \\\n"
	"      --shard 3/10 --out results/seeds-3\n";

/* Options for every run that matrix itself sets (or must check). */
static const char *passthrough_conflict(char **opts)
{
	static const char *const owned[] = { "--out", "-o", "--set", "-s", NULL };

	for (gsize i = 0; opts && opts[i]; i++) {
		for (gsize k = 0; owned[k]; k++) {
			gsize len = strlen(owned[k]);

			if (!strcmp(opts[i], owned[k]) ||
			    (g_str_has_prefix(opts[i], owned[k]) && opts[i][len] == '=') ||
			    (len == 2 && g_str_has_prefix(opts[i], owned[k])))
				return owned[k];
		}
	}
	return NULL;
}

/* A --set of a key that is also varied; NULL when there is none. */
static const char *set_and_vary(char **sets, GPtrArray *varies)
{
	for (gsize i = 0; sets && sets[i]; i++) {
		for (guint j = 0; j < varies->len; j++) {
			const char *key = ((IrqstormVary *)varies->pdata[j])->key;
			gsize len = strlen(key);

			if (!strncmp(sets[i], key, len) && sets[i][len] == '=')
				return key;
		}
	}
	return NULL;
}

/* Everything after "--" is for the runs, not for us: taken off argv. */
static char **split_passthrough(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			*argc = i;
			return g_strdupv(argv + i + 1);
		}
	}
	return NULL;
}

/* What is wrong with the options, checked against each other, or NULL. */
static char *bad_options(IrqstormMatrixPlan *plan, int argc, int jobs, char **vary,
			 const char *shard)
{
	g_autoptr(GError) err = NULL;
	const char *clash;

	if (argc != 2)
		return g_strdup("matrix needs exactly one SCENARIO file");
	if (jobs < 1)
		return g_strdup("--jobs must be at least 1");
	plan->jobs = (guint)jobs;
	if (shard && !irqstorm_matrix_parse_shard(shard, &plan->shard, &plan->shards, &err))
		return g_strdup(err->message);
	if ((clash = passthrough_conflict(plan->passthrough)))
		return g_strdup_printf("%s after '--': matrix sets --out per cell, and "
				       "--set goes before '--' (so that it is checked "
				       "before any cell runs)", clash);
	plan->varies = irqstorm_matrix_parse_vary((const char *const *)vary, &err);
	if (!plan->varies)
		return g_strdup(err->message);
	if ((clash = set_and_vary(plan->sets, plan->varies)))
		return g_strdup_printf("%s is both --set and --vary", clash);
	return NULL;
}

/* The command line as a plan without its cells; NULL after a usage error. */
static IrqstormMatrixPlan *matrix_parse(int argc, char **argv)
{
	g_autoptr(IrqstormMatrixPlan) plan = g_new0(IrqstormMatrixPlan, 1);
	g_auto(GStrv) vary = NULL;
	g_autofree char *shard = NULL;
	int jobs = 1;
	const GOptionEntry entries[] = {
		{ "vary", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &vary,
		  "A scenario key and its values, one cell each (repeatable: the "
		  "cells are every combination)", "GROUP.KEY=V1,V2,..." },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &plan->out,
		  "Where the cells go (default: results/<scenario name>-matrix)", "DIR" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
		  "Cells run at once (default 1)", "N" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &plan->sets,
		  "Override a scenario key in every cell (repeatable)", "GROUP.KEY=VALUE" },
		IRQSTORM_CMD_OPTION_CHANNEL(&plan->channels),
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard,
		  "Run shard I of N only (1 <= I <= N): the cells whose index, from 0, "
		  "is I-1 modulo N; put the shards together with irqstorm merge", "I/N" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"SCENARIO --vary GROUP.KEY=V1,V2,... [--vary ...] [-- RUN OPTIONS] - "
		"run every combination", entries, matrix_description);
	g_autofree char *why = NULL;

	plan->passthrough = split_passthrough(&argc, argv);
	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return NULL;
	why = bad_options(plan, argc, jobs, vary, shard);
	if (why) {
		irqstorm_usage_error(ctx, "%s", why);
		return NULL;
	}
	plan->scenario = g_strdup(argv[1]);
	if (!plan->out)
		plan->out = irqstorm_cmd_default_out(argv[1], "-matrix");
	return g_steal_pointer(&plan);
}

/* The guest parts the cells need and the build directory lacks, built
 * once here, before any cell starts, rather than by cells side by side. */
static gboolean build_parts(const IrqstormMatrixPlan *plan, GError **error)
{
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	g_autofree char *list = NULL;

	if (!plan->build || plan->build->len == 1)
		return TRUE;
	list = g_strjoinv(", ", (char **)plan->build->pdata);
	g_printerr("irqstorm: the cells need guest parts not built yet (kernel "
		   "flavours: %s): building them now into %s, cached after "
		   "(docs/building.md)\n", list, builder.build_dir);
	return irqstorm_guest_build(&builder, (const char *const *)plan->build->pdata,
				    error);
}

int irqstorm_cmd_matrix(int argc, char **argv)
{
	g_autoptr(IrqstormMatrixPlan) plan = matrix_parse(argc, argv);
	g_autoptr(IrqstormMatrixRun) m = NULL;
	g_autoptr(GError) err = NULL;
	int code;

	if (!plan)
		return IRQSTORM_EXIT_ERROR;
	if (!irqstorm_matrix_plan(plan, &err) || !build_parts(plan, &err))
		return irqstorm_cmd_fail("%s", err->message);
	irqstorm_matrix_read_identity(plan);
	if (!irqstorm_matrix_check_resume(plan, &err))
		return irqstorm_cmd_fail("%s", err->message);
	m = irqstorm_matrix_run_new(plan);
	irqstorm_matrix_announce(m);
	if (!irqstorm_matrix_write_json(m, &err))
		return irqstorm_cmd_fail("%s", err->message);
	irqstorm_matrix_run_cells(m);
	code = irqstorm_matrix_run_exit_code(m);
	if (!irqstorm_matrix_write_json(m, &err))
		code = irqstorm_cmd_fail("%s", err->message);
	irqstorm_matrix_report(m);
	if (!plan->shards && !m->interrupted && irqstorm_matrix_is_seed_sweep(plan->varies) &&
	    !irqstorm_matrix_write_merged(m, &err))
		code = irqstorm_cmd_fail("%s", err->message);
	return code;
}
