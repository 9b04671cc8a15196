// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm bisect-step: one step of `git bisect run`. The kernel tree in
 * its present state is built (incrementally: the same build directory at
 * every step), a scenario runs on it, and the exit status says good (0),
 * bad (1) or skip (125) by limits on the run's statistics.
 */
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "cmd.h"
#include "compare-gate.h"
#include "config.h"
#include "core/guest-build.h"
#include "core/identity.h"
#include "core/machine.h"
#include "core/results.h"
#include "core/run.h"
#include "core/scenario.h"
#include "core/stages.h"
#include "core/summary.h"

/* What `git bisect run` understands (git-bisect(1)). */
enum {
	BISECT_GOOD = 0,
	BISECT_BAD = 1,
	BISECT_SKIP = 125,	/* this commit cannot be tested */
	BISECT_ABORT = 128,	/* stop bisecting: the command line is wrong */
};

static const char bisect_description[] =
	"One step of a bisection, for `git bisect run`: builds the kernel tree\n"
	"DIR as it is checked out now, runs SCENARIO on it ([kernel] source =\n"
	"DIR), and judges the run by each --limit STAGE.STAT=MICROSECONDS: the\n"
	"commit is bad when a statistic is above its limit.\n"
	"\n"
	"The tree is only read: the kernel is built out of tree (O=) in irqstorm's\n"
	"cache, in one build directory for all steps, so a step rebuilds only what\n"
	"the checkout changed. Linux 6.1 or later (tested to 7.3); flavour dyn, or rt from 6.12.\n"
	"Use a deterministic scenario (the default: TCG, icount, one vCPU): two\n"
	"commits then differ only by their code, and one run per step is exact.\n"
	"\n"
	"Each step's results go to OUT/COMMIT (12 hex digits of the tree's commit,\n"
	"with -changes-HASH when it has uncommitted changes; OUT: --out, else the\n"
	"build directory's bisect/): never into DIR.\n"
	"\n"
	"STAT: min, p50, p90, p99, p99_9 (or p99.9), p99_99, max, avg; STAGE: a\n"
	"stage of summary.json (hardirq, thread, done, handler, probe, ...).\n"
	"A scenario of several channels is judged channel by channel: the commit\n"
	"is bad when any channel exceeds a limit (each line names the channel);\n"
	"--channel N|NAME judges only that one. The probe is the run's: once.\n"
	"\n"
	"Exit status, as git bisect run reads it: 0 good (every limit held),\n"
	"1 bad (a limit exceeded, or the kernel reported a fault the scenario\n"
	"does not expect: irqstorm run's exit status 5, even in a run the\n"
	"fault cut short), 125 skip (this commit cannot be tested: the tree\n"
	"is not a supported kernel, the kernel or driver does not build, the\n"
	"run did not complete, a stage has no samples), 128 abort (a wrong\n"
	"command line or scenario: the same at every commit).\n"
	"\n"
	"--judge DIR builds and runs nothing: it judges the results in DIR (a\n"
	"step's, or any run's) by the limits, with the same exit statuses.\n"
	"\n"
	"Examples:\n"
	"  cd ~/linux && git bisect start v6.12 v6.11\n"
	"  git bisect run /path/to/build/rig/irqstorm bisect-step \\\n"
	"      /path/to/irqstorm/scenarios/ide-pio.ini --tree . \\\n"
	"      --set kernel.flavour=dyn --limit done.p99=50 --out /tmp/bisect\n"
	"  irqstorm bisect-step --judge /tmp/bisect/0123456789ab --limit done.p99=40 \\\n"
	"      --channel critical\n";

typedef struct {
	char *text;
	char *stage;
	IrqstormStat stat;
	double limit_ns;
} BisectLimit;

static void bisect_limit_clear(BisectLimit *l)
{
	g_free(l->text);
	g_free(l->stage);
}

/* "done.p99=50" (microseconds) into l; why not, or NULL. */
static char *limit_parse(const char *text, BisectLimit *l)
{
	g_auto(GStrv) sides = g_strsplit(text, "=", -1);
	const char *why;
	char *end;
	double us;

	if (g_strv_length(sides) != 2)
		return g_strdup_printf("--limit '%s': the form is STAGE.STAT=MICROSECONDS, "
				       "e.g. done.p99=50", text);
	why = compare_stat_parse(sides[0], &l->stage, &l->stat);
	if (why)
		return g_strdup_printf("--limit '%s': %s (STAT: min, p50, p90, p99, p99_9, "
				       "p99_99, max, avg)", text, why);
	us = g_ascii_strtod(g_strstrip(sides[1]), &end);
	if (end == sides[1] || *end || !(us >= 0) || us > 1e9)
		return g_strdup_printf("--limit '%s': the limit is not a number of "
				       "microseconds", text);
	l->text = g_strdup(text);
	l->limit_ns = us * 1e3;
	return NULL;
}

/* The message, then what the exit status tells git bisect run. */
static int bisect_end(int code, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static int bisect_end(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	irqstorm_cmd_failv(fmt, ap);
	va_end(ap);
	g_printerr("irqstorm: bisect-step: exit %d, %s\n", code, code == BISECT_SKIP ?
		   "skip: this commit cannot be tested" : "git bisect run stops");
	return code;
}

/* The scenario with --tree and every --set; its errors abort. */
static IrqstormScenario *load(const char *path, const char *tree, char **sets,
			      GError **error)
{
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load(path, error);
	g_autofree char *source = g_strconcat("kernel.source=", tree, NULL);

	if (!sc || !irqstorm_scenario_override(sc, source, "--tree", error))
		return NULL;
	for (gsize i = 0; sets && sets[i]; i++)
		if (!irqstorm_scenario_override(sc, sets[i], "--set", error))
			return NULL;
	if (!irqstorm_scenario_check(sc, "--tree, --set", error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* OUT/COMMIT[-changes-HASH] of the tree as just built, or NULL. */
static char *step_dir(const char *out, const IrqstormScenario *sc)
{
	g_autofree char *kid = irqstorm_machine_kernel_file(sc, "identity");
	g_auto(GStrv) id = irqstorm_identity_read(IRQSTORM_KERNEL_DIR, kid);
	const char *commit = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_COMMIT);
	const char *changes = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_CHANGES);
	const char *files = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_FILES);
	g_autofree char *name = NULL;

	if (commit)
		name = g_strdup_printf("%.12s%s%s", commit,
				       g_strcmp0(changes, "none") ? "-changes-" : "",
				       g_strcmp0(changes, "none") ? (changes ? changes : "") : "");
	else if (files)
		name = g_strdup_printf("files-%s", files);
	return name ? g_build_filename(out, name, NULL) : NULL;
}

/* One limit in channel c (titled where, or NULL): 1 exceeded, 0 held, -1
 * no samples (said). */
static int judge_limit(const IrqstormSummary *s, const BisectLimit *l, int c,
		       const char *where, const char *what, const char *dir)
{
	const IrqstormStageStats *st = irqstorm_summary_channel_stage_sampled(s, c, l->stage);
	double v = st ? st->v[l->stat] : 0;

	if (!st) {
		bisect_end(BISECT_SKIP, "%s: %s%sstage %s has no samples in %s", what,
			   where ? where : "", where ? ": " : "", l->stage, dir);
		return -1;
	}
	printf("bisect-step: %s: %s%s%s.%s = %.3f us, limit %.3f us: %s\n", what,
	       where ? where : "", where ? ": " : "", l->stage, irqstorm_stat_title(l->stat),
	       v / 1e3, l->limit_ns / 1e3, v > l->limit_ns ? "EXCEEDED" : "held");
	return v > l->limit_ns;
}

/*
 * The run judged by the limits, in each channel of a run of several (the
 * probe's once: it is the run's): good, bad when any channel exceeds one,
 * or skip when one has no value.
 */
static int judge(const char *dir, const GArray *limits, char **want, const char *what)
{
	const char *probe = irqstorm_stage_name(IRQSTORM_STAGE_PROBE);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormSummary) s = irqstorm_summary_load(dir, &err);
	g_autoptr(GArray) channels = NULL;
	gboolean bad = FALSE;

	if (!s)
		return bisect_end(BISECT_SKIP, "%s", err->message);
	/* A kernel that reports a fault at this commit is bad, whatever the
	 * latencies: the scenario names the reports it expects. */
	if (s->return_code == IRQSTORM_EXIT_KERNEL && s->kernel_failure) {
		printf("bisect-step: %s: bad (exit %d): the kernel failed the run: %s; "
		       "results in %s\n", what, BISECT_BAD, s->kernel_failure, dir);
		return BISECT_BAD;
	}
	channels = irqstorm_summaries_channels(&s, 1, (const char *const *)want, FALSE, &err);
	if (!channels)
		return bisect_end(BISECT_ABORT, "%s", err->message);
	for (guint i = 0; i < limits->len; i++) {
		const BisectLimit *l = &g_array_index(limits, BisectLimit, i);
		gboolean once = !strcmp(l->stage, probe);

		for (guint k = 0; k < (once ? 1 : channels->len); k++) {
			int c = once ? IRQSTORM_CHANNELS_POOLED : g_array_index(channels, int, k);
			g_autofree char *where = !once && irqstorm_channels_split(channels) ?
				irqstorm_summaries_channel_title(&s, 1, c) : NULL;
			int v = judge_limit(s, l, c, where, what, dir);

			if (v < 0)
				return BISECT_SKIP;
			bad |= v;
		}
	}
	printf("bisect-step: %s: %s (exit %d); results in %s\n", what, bad ? "bad" : "good",
	       bad ? BISECT_BAD : BISECT_GOOD, dir);
	return bad ? BISECT_BAD : BISECT_GOOD;
}

/* Build, run, write; then judge. Every failure here is this commit's. */
static int step(IrqstormScenario *sc, const char *out, const GArray *limits, char **want)
{
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	IrqstormRunSettings set = {
		.scenario = sc, .qemu_dir = IRQSTORM_QEMU_DIR,
		.kernel_dir = IRQSTORM_KERNEL_DIR, .initrd_dir = IRQSTORM_INITRD_DIR,
		.quiet = TRUE, .csv = TRUE,
	};
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormResults) res = NULL;
	g_autofree char *dir = NULL, *src = NULL;
	int code;

	if (!irqstorm_guest_ensure(&builder, &set, &err))
		return bisect_end(BISECT_SKIP, "the kernel tree %s: %s", sc->source, err->message);
	dir = step_dir(out, sc);
	if (!dir)
		return bisect_end(BISECT_SKIP, "the build of %s left no identity", sc->source);
	set.out_dir = dir;
	res = irqstorm_cmd_run_results(&set, &code, &err);
	if (!res)
		return bisect_end(BISECT_SKIP, "%s", err->message);
	if (code == IRQSTORM_EXIT_ERROR)
		return bisect_end(BISECT_SKIP, "the run in %s did not complete or failed a "
				  "cross-check (its summary.json says why)", dir);
	src = g_path_get_basename(dir);
	return judge(dir, limits, want, src);
}

/* Results inside the tree would change what the next step builds. */
static gboolean inside(const char *path, const char *tree)
{
	g_autofree char *p = g_canonicalize_filename(path, NULL);
	gsize n = strlen(tree);

	return !strncmp(p, tree, n) && (p[n] == '/' || p[n] == '\0');
}

/* irqstorm bisect-step SCENARIO --tree DIR --limit STAGE.STAT=US... */
int irqstorm_cmd_bisect_step(int argc, char **argv)
{
	g_autofree char *tree = NULL, *out = NULL, *judged = NULL;
	g_auto(GStrv) sets = NULL, limit_texts = NULL, channels = NULL;
	const GOptionEntry entries[] = {
		{ "tree", 't', 0, G_OPTION_ARG_FILENAME, &tree,
		  "The kernel tree to build, as checked out (required)", "DIR" },
		{ "limit", 'l', 0, G_OPTION_ARG_STRING_ARRAY, &limit_texts,
		  "Bad when STAGE's STAT exceeds this many us, e.g. done.p99=50 "
		  "(required, repeatable)", "STAGE.STAT=US" },
		IRQSTORM_CMD_OPTION_CHANNEL(&channels),
		{ "judge", 0, 0, G_OPTION_ARG_FILENAME, &judged,
		  "Build and run nothing: judge the results in DIR (a step's, or any "
		  "run's) by the limits", "DIR" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Override a scenario key, e.g. kernel.flavour=dyn (repeatable)",
		  "GROUP.KEY=VALUE" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Where each step's results go, in OUT/COMMIT (default: the build "
		  "directory's bisect/)", "OUT" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"SCENARIO - one step of git bisect run: build, run, judge", entries,
		bisect_description);
	g_autoptr(GArray) limits = g_array_new(FALSE, TRUE, sizeof(BisectLimit));
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = NULL;

	g_array_set_clear_func(limits, (GDestroyNotify)bisect_limit_clear);
	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return BISECT_ABORT;
	if (judged ? argc != 1 || !limit_texts : argc != 2 || !tree || !limit_texts)
		return bisect_end(BISECT_ABORT, "bisect-step needs SCENARIO, --tree DIR and at "
				  "least one --limit STAGE.STAT=US, or --judge DIR and a --limit "
				  "(irqstorm bisect-step --help)");
	for (gsize i = 0; limit_texts[i]; i++) {
		BisectLimit l = { 0 };
		g_autofree char *why = limit_parse(limit_texts[i], &l);

		if (why)
			return bisect_end(BISECT_ABORT, "%s", why);
		g_array_append_val(limits, l);
	}
	if (judged) {
		g_autofree char *what = g_path_get_basename(judged);

		return judge(judged, limits, channels, what);
	}
	sc = load(argv[1], tree, sets, &err);
	if (!sc)
		return bisect_end(BISECT_ABORT, "%s", err->message);
	if (!out)
		out = g_build_filename(IRQSTORM_BUILD_DIR, "bisect", NULL);
	if (inside(out, sc->source))
		return bisect_end(BISECT_ABORT, "--out %s is inside the tree %s: results there "
				  "would change the tree each step builds; give --out DIR "
				  "outside it", out, sc->source);
	return step(sc, out, limits, channels);
}
