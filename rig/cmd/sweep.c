// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm sweep: one interrupt aimed at every offset of a section. The
 * scenario's [guest] section runs again and again in the guest, arming
 * its channel's trigger at its start; the device raises each time the
 * sweep's next offset later (core/sweep.h reads the results back).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "cmd.h"
#include "irqstorm/explain.h"
#include "irqstorm/guest.h"
#include "config.h"
#include "gnuplot.h"
#include "sweep-parts.h"
#include "core/irqentry.h"
#include "core/json-build.h"
#include "core/machine.h"
#include "core/marker.h"
#include "core/outdir.h"
#include "core/output.h"
#include "core/run.h"
#include "core/scenario.h"
#include "core/stages.h"
#include "core/summary-keys.h"
#include "core/sweep.h"
#include "core/runfiles.h"

static const char sweep_description[] =
	"The scenario's [guest] section runs again and again on section_cpu\n"
	"(irqs_off, preempt_off, bh_off, spinlock, raw_spinlock: in the driver;\n"
	"user: a busy loop in user space; each section_us long); at its start\n"
	"it triggers [guest] section_channel, which the device raises exactly\n"
	"OFFSET ns of virtual time later, OFFSET advancing by STEP each time: one\n"
	"boot aims the interrupt at every instruction of the section (under\n"
	"icount, one instruction is 2^shift ns). section = pio: the section is\n"
	"the PIO loop of section_pio_channel's handler, inside another interrupt.\n"
	"Besides a run's files (summary.json, records.csv, ...), OUT gets:\n"
	"  sweep.csv    each offset's latency per stage, ns\n"
	"  sweep.json   the sweep and each stage's worst offset\n"
	"  sweep.png    latency against offset, one series per stage\n"
	"  random/      unless --no-random: the same sections, untriggered, under\n"
	"               a Poisson storm of about as many interrupts over the\n"
	"               sweep's span (channel seed as in the scenario): what\n"
	"               random arrivals see, beside the sweep's worst case\n"
	"  part-K/      with --jobs: each part's own sweep\n"
	"  irq-trace.txt  unless --no-interference: every interrupt the vCPUs\n"
	"               took, when (QEMU's explain plugin, outside the guest);\n"
	"               sweep.csv's <stage>_others count those other than the\n"
	"               event's own in each stage's window, and the worst case\n"
	"               is given alone (no other interrupt) and with them\n"
	"\n"
	"--offset takes ns of virtual time, STEP by default one instruction\n"
	"(2^shift ns); without it, the scenario's own [channelN]\n"
	"trigger_start_ns, trigger_stop_ns and trigger_step_ns are swept.\n"
	"Offsets must lie within the section, and a sweep needs icount:\n"
	"without it an offset is no instruction. On several vCPUs the aimed\n"
	"interrupt is raised at the end of the window of virtual time its\n"
	"offset falls in: STEP must be at least [machine] quantum_ns.\n"
	"The sections end the storm when the sweep is over; [run] duration only\n"
	"bounds them (by default 1 ms of virtual time per offset). A pio sweep's\n"
	"storm runs for its duration: by default two periods more than there are\n"
	"offsets. On several vCPUs the aimed interrupt's CPU must be given\n"
	"([channelN] irq_cpu): the section's, or another on purpose.\n"
	"\n"
	"Exit status: as `irqstorm run` (0 passed, 1 error or failed check, ...).\n"
	"\n"
	"Examples:\n"
	"  irqstorm sweep scenarios/sweep-irqs-off.ini\n"
	"  irqstorm sweep scenarios/sweep-irqs-off.ini --offset 0:2000\n"
	"  irqstorm sweep scenarios/sweep-irqs-off.ini --set guest.section=spinlock --jobs 2\n"
	"  irqstorm sweep scenarios/sweep-pio.ini --set channel1.threading=hardirq\n";

/* The sweep asked for: offsets in ns. */
typedef struct {
	guint64 start, stop, step;
} SweepRange;

/* START:STOP[:STEP], each a number of ns; FALSE after saying why. */
static gboolean parse_range(const char *text, SweepRange *r, GError **error)
{
	g_auto(GStrv) f = g_strsplit(text, ":", -1);
	guint64 v[3] = { 0, 0, r->step };
	guint n = g_strv_length(f);

	for (guint i = 0; i < n && n >= 2 && n <= 3; i++)
		if (!g_ascii_string_to_unsigned(f[i], 10, 0, IRQSTORM_MAX_TRIGGER_NS,
						&v[i], NULL))
			n = 0;
	if (n < 2 || n > 3) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--offset %s: expected START:STOP[:STEP], ns from 0 to %llu",
			    text, IRQSTORM_MAX_TRIGGER_NS);
		return FALSE;
	}
	*r = (SweepRange) { v[0], v[1], v[2] };
	if (!r->step || r->stop < r->start) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--offset %s: %s", text, !r->step ?
			    "STEP must be at least 1 ns" : "STOP is before START");
		return FALSE;
	}
	return TRUE;
}

/* Say why the sweep failed, as irqstorm_cmd_fail(); FALSE. */
static gboolean sweep_fail(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static gboolean sweep_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	irqstorm_cmd_failv(fmt, ap);
	va_end(ap);
	return FALSE;
}

/* Set one scenario key for the sweep, in its messages "--offset". */
static gboolean sweep_set(IrqstormScenario *sc, const char *where, GError **error,
			  const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean sweep_set(IrqstormScenario *sc, const char *where, GError **error,
			  const char *fmt, ...)
{
	g_autofree char *a = NULL;
	va_list ap;

	va_start(ap, fmt);
	a = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return irqstorm_scenario_override(sc, a, where, error);
}

/*
 * How long the storm of a sweep lasts by default, s of virtual time. The
 * guest's sections end the storm when the sweep is over, so the duration
 * only bounds them: 1 ms per offset. A pio section is another channel's
 * handler, triggering once per period, and the storm runs its duration:
 * as many periods as offsets, and two more.
 */
static double default_duration(const IrqstormScenario *sc)
{
	guint64 n = irqstorm_scenario_offsets(&sc->ch[sc->section_channel]);

	if (sc->section == 1 + IRQSTORM_SECTION_PIO && sc->section_pio_channel != IRQSTORM_NONE)
		return MAX(0.01, (n + 2) * sc->ch[sc->section_pio_channel].period_ns / 1e9);
	return MAX(1.0, n * 1e-3);
}

/* The scenario file with every --set applied, not yet checked as a whole. */
static IrqstormScenario *load_with_sets(const char *path, const char *const *sets,
					GError **error)
{
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load(path, error);

	for (gsize i = 0; sc && sets && sets[i]; i++)
		if (!irqstorm_scenario_override(sc, sets[i], "--set", error))
			return NULL;
	return g_steal_pointer(&sc);
}

/*
 * On several vCPUs in windows of virtual time the device's timer, armed by
 * the section's vCPU inside a window, fires at the window's end: offsets
 * closer than the quantum are not distinct interrupts. Refused, rather
 * than a sweep whose axis is not what it says.
 */
static gboolean windows_check(const IrqstormScenario *sc, const char *path, GError **error)
{
	guint64 step = sc->ch[sc->section_channel].trigger_step_ns;

	if (!irqstorm_scenario_smp_windows(sc) || step >= sc->quantum_ns)
		return TRUE;
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
		    "%s: a STEP of %" G_GUINT64_FORMAT " ns on %u vCPUs: in windows of "
		    "virtual time ([machine] quantum_ns = %u) the aimed interrupt is raised "
		    "at the end of the window its offset falls in, so offsets closer than "
		    "the quantum are not distinct; use a STEP of at least %u ns, or "
		    "cpus = 1 for every instruction (docs/sweep.md)", path, step, sc->cpus,
		    sc->quantum_ns, sc->quantum_ns);
	return FALSE;
}

/*
 * On several vCPUs the aimed interrupt goes where the guest's vector
 * allocator puts it, often another vCPU than the section's: a sweep of an
 * irqs_off section that never meets it reports the other CPU's latency as
 * the section's worst case. Its CPU must be said ([channelN] irq_cpu or
 * [guest] irq_cpu): the section's own, or another on purpose.
 */
static gboolean irq_cpu_check(const IrqstormScenario *sc, const char *path, GError **error)
{
	guint ch = sc->section_channel;

	if (sc->cpus < 2 || sc->ch[ch].irq_cpu != IRQSTORM_NONE || sc->irq_cpu != IRQSTORM_NONE)
		return TRUE;
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
		    "%s: on %u vCPUs the aimed interrupt (channel %u) goes to a CPU the "
		    "guest chooses, often not the section's (CPU %u): say which with "
		    "[channel%u] irq_cpu = %u (the section's, its worst case) or another "
		    "CPU (what the section does to the rest of the machine)", path,
		    sc->cpus, ch, sc->section_cpu, ch, sc->section_cpu);
	return FALSE;
}

/*
 * The scenario, with --set, then --offset on its section's channel, and a
 * duration that bounds the sweep.
 */
static IrqstormScenario *load_sweep(const char *path, const char *const *sets,
				    const char *offset, const char *duration,
				    GError **error)
{
	g_autoptr(IrqstormScenario) sc = load_with_sets(path, sets, error);
	SweepRange r;
	guint ch;

	if (!sc)
		return NULL;
	if (!sc->section || sc->section_channel == IRQSTORM_NONE) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "%s: no [guest] section to sweep: set section (irqs_off, "
			    "preempt_off, bh_off, spinlock, raw_spinlock, user or pio), "
			    "section_us and section_channel, a triggered channel", path);
		return NULL;
	}
	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "%s: a sweep needs [machine] icount: without it an offset "
			    "of virtual time is no instruction, and no run repeats", path);
		return NULL;
	}
	ch = sc->section_channel;
	/* Without a STEP, one instruction: 2^shift ns of virtual time. */
	r = (SweepRange) { 0, 0, 1ull << sc->icount_shift };
	if (offset && (!parse_range(offset, &r, error) ||
	    !sweep_set(sc, "--offset", error, "channel%u.trigger_start_ns=%" G_GUINT64_FORMAT, ch, r.start) ||
	    !sweep_set(sc, "--offset", error, "channel%u.trigger_stop_ns=%" G_GUINT64_FORMAT, ch, r.stop) ||
	    !sweep_set(sc, "--offset", error, "channel%u.trigger_step_ns=%" G_GUINT64_FORMAT, ch, r.step)))
		return NULL;
	if (duration ? !sweep_set(sc, "--duration", error, "run.duration=%s", duration) :
	    !sweep_set(sc, "--offset", error, "run.duration=%.3f", default_duration(sc)))
		return NULL;
	if (!irqstorm_scenario_check(sc, "--offset", error) || !windows_check(sc, path, error) ||
	    !irq_cpu_check(sc, path, error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* A run of sc into out with the build's guest parts and records.csv. */
static IrqstormRunSettings sweep_settings(const IrqstormScenario *sc,
					  const char *out, gboolean quiet)
{
	return (IrqstormRunSettings) {
		.scenario = sc, .out_dir = out, .qemu_dir = IRQSTORM_QEMU_DIR,
		.kernel_dir = IRQSTORM_KERNEL_DIR, .initrd_dir = IRQSTORM_INITRD_DIR,
		.quiet = quiet, .csv = TRUE,
	};
}

/* A sweep's own file: written last, it says the sweep is complete. */
#define SWEEP_JSON	"sweep.json"

/* The interrupts a boot of a sweep records (the explain plugin's
 * interrupts mode), in its directory: the entry points, and the trace. */
#define SWEEP_ENTRIES	"irq-entries.txt"
#define SWEEP_TRACE	"irq-trace.txt"

/* The interrupt entry points of sc's kernel (built), from its System.map. */
static GArray *entry_points(const IrqstormScenario *sc, GError **error)
{
	g_autofree char *map = irqstorm_cmd_kernel_path(sc, "System.map");

	return irqstorm_irqentry_points(map, error);
}

/* QEMU's arguments recording the interrupts taken into out/SWEEP_TRACE,
 * the entry points written to out/SWEEP_ENTRIES; NULL after saying why. */
static GStrv interference_args(const IrqstormScenario *sc, const GArray *points,
			       const char *out)
{
	g_autofree char *entries = g_build_filename(out, SWEEP_ENTRIES, NULL);
	g_autofree char *trace = g_build_filename(out, SWEEP_TRACE, NULL);
	g_autofree char *shift = g_strdup_printf("%d", sc->icount_shift);
	g_autoptr(GError) err = NULL;
	const char *values[IRQSTORM_EXPLAIN_ARG_COUNT] = {
		[IRQSTORM_EXPLAIN_ARG_ENTRIES] = entries,
		[IRQSTORM_EXPLAIN_ARG_OUT] = trace,
		[IRQSTORM_EXPLAIN_ARG_SHIFT] = shift,
	};

	if (g_mkdir_with_parents(out, 0755) < 0) {
		irqstorm_cmd_fail("cannot create %s: %s", out, g_strerror(errno));
		return NULL;
	}
	if (!irqstorm_irqentry_write_points(points, entries, &err)) {
		irqstorm_cmd_fail("%s", err->message);
		return NULL;
	}
	return irqstorm_cmd_plugin_args(values);
}

/* The random twin's shortest storm, in s (see load_random). */
#define RANDOM_MIN_S	0.1

/* What random arrivals saw of the channel: the stages' maxima, how many;
 * or why the twin did not give them. */
typedef struct {
	gboolean ran;
	guint64 interrupts;
	double max_ns[IRQSTORM_STAGE_IRQ_COUNT];	/* NAN: no sample */
	char *failed;					/* NULL, or why not */
	gboolean interrupted;	/* a signal (^C) stopped it: the sweep stops too */
} RandomTwin;

/* The maxima of channel ch's records in dir/records.csv; FALSE after saying why. */
static gboolean random_maxima(const char *dir, guint ch, RandomTwin *twin)
{
	g_autofree char *records = irqstorm_run_path(dir, IRQSTORM_FILE_RECORDS);
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) p = irqstorm_sweep_read_channel(records, ch, &err);

	if (!p)
		return sweep_fail("%s", err->message);
	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
		IrqstormSweepWorst w = irqstorm_sweep_worst(p, st);

		twin->max_ns[st] = w.any ? (double)w.latency_ns : NAN;
	}
	for (guint i = 0; i < p->len; i++)
		twin->interrupts += g_array_index(p, IrqstormSweepPoint, i)
				    .stage_ns[IRQSTORM_STAGE_DONE] != IRQSTORM_SWEEP_NONE;
	twin->ran = TRUE;
	return TRUE;
}

/*
 * The sweep's scenario with its sections untriggered and its channel a
 * Poisson storm of as many interrupts over the sweep's span: the same
 * sections, hit at random.
 */
static IrqstormScenario *load_random(const char *path, const char *const *sets,
				     const IrqstormScenario *sweep, const GArray *points,
				     guint64 span_ns, GError **error)
{
	guint ch = sweep->section_channel;
	double span_s = MAX(span_ns / 1e9, 0.001);
	g_autoptr(IrqstormScenario) sc = load_with_sets(path, sets, error);

	/* As dense as the sweep's interrupts, for at least RANDOM_MIN_S: a
	 * short sweep's span is too short for the untriggered sections to
	 * run to the storm's end. */
	if (!sc ||
	    !sweep_set(sc, "--random", error, "guest.section_channel=none") ||
	    !sweep_set(sc, "--random", error, "channel%u.pattern=poisson", ch) ||
	    !sweep_set(sc, "--random", error, "channel%u.rate=%.3f", ch,
		       MAX(points->len / span_s, 1.0)) ||
	    !sweep_set(sc, "--random", error, "run.duration=%.3f",
		       MAX(span_s, RANDOM_MIN_S)) ||
	    !irqstorm_scenario_check(sc, "--random", error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* Why the run in dir failed, from its summary.json: its incomplete
 * reason or its failed checks, else its exit status. */
static char *run_failure(const char *dir, int code)
{
	g_autofree char *path = irqstorm_run_path(dir, IRQSTORM_FILE_SUMMARY);
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GString) why = g_string_new(NULL);
	JsonObject *o;
	JsonArray *checks;

	if (json_parser_load_from_file(p, path, NULL) &&
	    JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
		o = json_node_get_object(json_parser_get_root(p));
		g_string_append(why, json_object_get_string_member_with_default(
					     o, IRQSTORM_KEY_INCOMPLETE_REASON, ""));
		checks = json_object_has_member(o, IRQSTORM_KEY_FAILED_CHECKS) ?
			 json_object_get_array_member(o, IRQSTORM_KEY_FAILED_CHECKS) : NULL;
		for (guint i = 0; checks && i < json_array_get_length(checks); i++)
			g_string_append_printf(why, "%s%s", why->len ? "; " : "",
					       json_array_get_string_element(checks, i));
	}
	if (!why->len)
		g_string_append(why, "no summary.json");
	return g_strdup_printf("exit %d: %s", code, why->str);
}

/*
 * Run the random twin into OUT/random. Its failure does not fail the
 * sweep, whose files are written all the same: it is said, with its
 * reason, in twin->failed.
 */
static void run_random(const char *path, const char *const *sets,
		       const IrqstormScenario *sweep, const GArray *points,
		       guint64 span_ns, const char *out, RandomTwin *twin)
{
	g_autofree char *dir = g_build_filename(out, "random", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load_random(path, sets, sweep, points,
						     span_ns, &err);
	IrqstormRunSettings set = sweep_settings(sc, dir, TRUE);
	int code;

	if (!sc) {
		twin->failed = g_strdup(err->message);
		return;
	}
	code = irqstorm_cmd_run_and_report(&set, NULL);
	if (code != IRQSTORM_EXIT_PASSED && code != IRQSTORM_EXIT_THRESHOLD) {
		g_autoptr(IrqstormSummary) s = irqstorm_summary_load(dir, NULL);

		twin->failed = run_failure(dir, code);
		/* The user's ^C, not the twin's failure: nothing more runs. */
		twin->interrupted = s && s->incomplete_reason &&
				    strstr(s->incomplete_reason, "interrupted by a signal");
	}
	else if (!random_maxima(dir, sweep->section_channel, twin))
		twin->failed = g_strdup("its records.csv could not be read (above)");
}

/* A worst case's interference, and the worst alone (sweep.json). */
static void add_interference(JsonBuilder *b, const GArray *points, IrqstormStage st,
			     const IrqstormSweepWorst *w)
{
	IrqstormSweepWorst alone = irqstorm_sweep_worst_of(points, st, IRQSTORM_SWEEP_ALONE);
	IrqstormSweepWorst with = irqstorm_sweep_worst_of(points, st,
							  IRQSTORM_SWEEP_INTERFERED);

	irqstorm_json_add_int(b, "others", w->others);
	if (w->other)
		irqstorm_json_add_string(b, "other", w->other);
	irqstorm_json_add_int(b, "interfered_offsets", with.count);
	if (!alone.any)
		return;
	json_builder_set_member_name(b, "alone");
	json_builder_begin_object(b);
	irqstorm_json_add_int(b, "offset_ns", alone.offset_ns);
	irqstorm_json_add_int(b, "latency_ns", alone.latency_ns);
	json_builder_end_object(b);
}

/* sweep.json: what was swept, and each stage's worst offset (with its
 * interference, if known). */
static gboolean write_sweep_json(const char *path, const IrqstormScenario *sc,
				 const GArray *points, gboolean interference,
				 const RandomTwin *twin, GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[sc->section_channel];
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "format", "irqstorm-sweep");
	irqstorm_json_add_string(b, "section", irqstorm_section_name(sc->section));
	irqstorm_json_add_int(b, "section_us", sc->section_us);
	irqstorm_json_add_int(b, "section_cpu", sc->section_cpu);
	irqstorm_json_add_int(b, "channel", sc->section_channel);
	irqstorm_json_add_int(b, "start_ns", c->trigger_start_ns);
	irqstorm_json_add_int(b, "stop_ns", c->trigger_stop_ns);
	irqstorm_json_add_int(b, "step_ns", c->trigger_step_ns);
	irqstorm_json_add_int(b, "offsets", points->len);
	json_builder_set_member_name(b, "worst");
	json_builder_begin_object(b);
	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
		IrqstormSweepWorst w = irqstorm_sweep_worst(points, st);

		if (!w.any)
			continue;
		json_builder_set_member_name(b, irqstorm_stage_name(st));
		json_builder_begin_object(b);
		irqstorm_json_add_int(b, "offset_ns", w.offset_ns);
		irqstorm_json_add_int(b, "latency_ns", w.latency_ns);
		if (interference)
			add_interference(b, points, st, &w);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	if (twin->failed) {
		json_builder_set_member_name(b, "random");
		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "failed", twin->failed);
		json_builder_end_object(b);
	} else if (twin->ran) {
		json_builder_set_member_name(b, "random");
		json_builder_begin_object(b);
		irqstorm_json_add_int(b, "interrupts", twin->interrupts);
		json_builder_set_member_name(b, "max_ns");
		json_builder_begin_object(b);
		for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
			if (!isnan(twin->max_ns[st]))
				irqstorm_json_add_int(b, irqstorm_stage_name(st),
						      (gint64)twin->max_ns[st]);
		json_builder_end_object(b);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return irqstorm_write_json_file(path, root, error);
}

/* After a worst case: what ran in it, and the worst alone. */
static void print_alone(const GArray *points, IrqstormStage st,
			const IrqstormSweepWorst *w)
{
	IrqstormSweepWorst alone = irqstorm_sweep_worst_of(points, st, IRQSTORM_SWEEP_ALONE);
	IrqstormSweepWorst with = irqstorm_sweep_worst_of(points, st,
							  IRQSTORM_SWEEP_INTERFERED);

	if (w->others)
		printf(", %s ran in it%s", w->other, w->others > 1 ? " and more" : "");
	if (!with.count)
		printf("; no other interrupt in any offset's window");
	else if (alone.any)
		printf("; alone %.3f us, at offset %" G_GUINT64_FORMAT " ns (another "
		       "interrupt in %u of %u windows)", alone.latency_ns / 1e3,
		       alone.offset_ns, with.count, with.count + alone.count);
	else
		printf("; another interrupt in every offset's window");
}

/* Each stage's worst offset, a line each (with its interference, if
 * known), beside what random arrivals saw. */
static void print_worst(const IrqstormScenario *sc, const GArray *points,
			gboolean interference, const RandomTwin *twin)
{
	const IrqstormChannelSpec *c = &sc->ch[sc->section_channel];

	printf("sweep: %u offsets, %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
	       " ns by %" G_GUINT64_FORMAT " ns, into %u us of %s on CPU %u\n",
	       points->len, c->trigger_start_ns, c->trigger_stop_ns, c->trigger_step_ns,
	       sc->section_us, irqstorm_section_name(sc->section), sc->section_cpu);
	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
		IrqstormSweepWorst w = irqstorm_sweep_worst(points, st);

		if (!w.any)
			continue;
		printf("  %-8s worst %.3f us, at offset %" G_GUINT64_FORMAT " ns",
		       irqstorm_stage_name(st), w.latency_ns / 1e3, w.offset_ns);
		if (interference)
			print_alone(points, st, &w);
		if (twin->ran && !isnan(twin->max_ns[st]))
			printf("; random arrivals' max %.3f us", twin->max_ns[st] / 1e3);
		printf("\n");
	}
	if (twin->ran)
		printf("  (random: %" G_GUINT64_FORMAT " interrupts at Poisson arrivals "
		       "through the same sections, untriggered)\n", twin->interrupts);
}

/* The twin's failure, on the terminal: the sweep itself stands. */
static void say_twin_failed(const char *out, const RandomTwin *twin)
{
	if (twin->failed)
		fprintf(stderr, "irqstorm sweep: the random twin (%s/random) failed, %s; "
			"the sweep's own files are complete (sweep.json says "
			"random.failed; --no-random skips the twin)\n", out, twin->failed);
}

/*
 * The sweep's files from its points (their boots' spans adding up to
 * span_ns), and unless no_random its random twin; FALSE after saying why.
 */
static gboolean sweep_outputs(const char *path, const char *const *sets,
			      const IrqstormScenario *sc, const GArray *points,
			      guint64 span_ns, const char *out, gboolean quiet,
			      gboolean no_random)
{
	g_autofree char *csv = g_build_filename(out, "sweep.csv", NULL);
	g_autofree char *json = g_build_filename(out, SWEEP_JSON, NULL);
	g_autofree char *png = g_build_filename(out, "sweep", NULL);
	g_autoptr(GString) e = g_string_new(NULL);
	g_autoptr(GError) err = NULL;
	RandomTwin twin = { 0 };
	g_autofree char *twin_failed = NULL;
	gboolean interference = irqstorm_sweep_interference_known(points);
	g_autofree char *stages = irqstorm_stage_names(FALSE);

	if (!irqstorm_sweep_write_csv(csv, points, &err))
		return sweep_fail("%s", err->message);
	if (!no_random)
		run_random(path, sets, sc, points, span_ns, out, &twin);
	twin_failed = twin.failed;
	/* Stopped by the user: not a complete sweep (no sweep.json), and so
	 * not one that replaces a complete one. */
	if (twin.interrupted)
		return sweep_fail("interrupted by a signal during the random twin (%s/random): "
				  "the sweep's offsets are in %s, but it is not complete",
				  out, csv);
	if (!write_sweep_json(json, sc, points, interference, &twin, &err))
		return sweep_fail("%s", err->message);
	if (!quiet)
		print_worst(sc, points, interference, &twin);
	say_twin_failed(out, &twin);
	irqstorm_plot_param_path(e, "input", csv);
	irqstorm_plot_param(e, "title", irqstorm_section_name(sc->section));
	/* Every interrupt stage of the table, sweep.csv's columns */
	irqstorm_plot_param(e, "stages", stages);
	if (interference)
		irqstorm_plot_param(e, "interference", "1");
	if (!irqstorm_plot_png("sweep.gp", e->str, png, &err))
		return sweep_fail("%s", err->message);
	return TRUE;
}

/*
 * Add the triggered points of channel ch in dir/records.csv to points,
 * with the interference dir/SWEEP_TRACE says unless entries is NULL, and
 * their span to *span_ns; FALSE after saying why.
 */
static gboolean gather(const char *dir, guint ch, const GArray *entries,
		       GArray *points, guint64 *span_ns)
{
	g_autofree char *records = irqstorm_run_path(dir, IRQSTORM_FILE_RECORDS);
	g_autofree char *trace = g_build_filename(dir, SWEEP_TRACE, NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) p = irqstorm_sweep_read(records, ch, &err);
	g_autoptr(GArray) taken = NULL;

	if (!p)
		return sweep_fail("%s", err->message);
	if (entries) {
		taken = irqstorm_irqentry_read(trace, entries, &err);
		if (!taken)
			return sweep_fail("%s", err->message);
		irqstorm_sweep_interference(p, taken);
	}
	*span_ns += irqstorm_sweep_span(p);
	g_array_append_vals(points, p->data, p->len);
	return TRUE;
}

/* The sweep in one boot, into out, recording the interrupts taken unless
 * entries is NULL; its exit status. */
static int sweep_one(const char *path, const char *const *sets,
		     const IrqstormScenario *sc, const GArray *entries, const char *out,
		     gboolean quiet, gboolean no_random)
{
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(IrqstormSweepPoint));
	IrqstormRunSettings set = sweep_settings(sc, out, quiet);
	g_auto(GStrv) plugin = entries ? interference_args(sc, entries, out) : NULL;
	guint64 span = 0;
	int code;

	if (entries && !plugin)
		return IRQSTORM_EXIT_ERROR;
	set.qemu_args = (const char *const *)plugin;
	code = irqstorm_cmd_run_and_report(&set, &builder);
	if (code == IRQSTORM_EXIT_ERROR)
		return code;
	if (!gather(out, sc->section_channel, entries, points, &span) ||
	    !sweep_outputs(path, sets, sc, points, span, out, quiet, no_random))
		return IRQSTORM_EXIT_ERROR;
	return code;
}

/*
 * The sweep in jobs boots side by side, each a part of the offsets in
 * out/part-K, then its files from all of theirs; its exit status. out is
 * marked incomplete until it is done.
 */
static int sweep_in_parts(const char *path, char **sets, const char *duration,
			  const IrqstormScenario *sc, const GArray *entries,
			  const char *out, guint jobs, gboolean quiet, gboolean no_random)
{
	const IrqstormChannelSpec *c = &sc->ch[sc->section_channel];
	g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(IrqstormSweepPoint));
	g_autoptr(GError) err = NULL;
	g_autofree char *self = g_file_read_link("/proc/self/exe", &err);
	g_auto(GStrv) dirs = NULL;
	IrqstormSweepParts p = {
		.binary = self, .scenario = path, .sets = sets, .duration = duration,
		.start = c->trigger_start_ns, .step = c->trigger_step_ns,
		.count = irqstorm_scenario_offsets(c), .parts = jobs, .out = out,
		.no_interference = !entries,
	};
	guint64 span = 0;
	int code;

	if (!self)
		return irqstorm_cmd_fail("%s", err->message);
	if (g_mkdir_with_parents(out, 0755) < 0)
		return irqstorm_cmd_fail("cannot create %s: %s", out, g_strerror(errno));
	if (!irqstorm_marker_begin(out, sc, &err))
		return irqstorm_cmd_fail("%s", err->message);
	code = irqstorm_sweep_parts_run(&p, &dirs);
	for (guint k = 0; code != IRQSTORM_EXIT_ERROR && dirs[k]; k++)
		if (!gather(dirs[k], sc->section_channel, entries, points, &span))
			code = IRQSTORM_EXIT_ERROR;
	if (code == IRQSTORM_EXIT_ERROR) {
		irqstorm_marker_set(out, "a part of the sweep failed: see its part-K.log "
				    "and part-K/", NULL);
		return irqstorm_cmd_fail("a part of the sweep failed: see %s/part-K.log", out);
	}
	g_array_sort(points, irqstorm_sweep_point_compare);
	if (!sweep_outputs(path, (const char *const *)sets, sc, points, span, out,
			   quiet, no_random) || !irqstorm_marker_clear(out, &err))
		return IRQSTORM_EXIT_ERROR;
	return code;
}

/* A sweep written beside the one it replaces takes its place when it is
 * complete (its sweep.json written, no INCOMPLETE marker); else it stays
 * beside, said. */
static int sweep_commit(IrqstormOutDir *od, int code)
{
	g_autoptr(GError) err = NULL;

	if (!irqstorm_outdir_commit(od, irqstorm_outdir_holds_complete(od->write, SWEEP_JSON),
				    &err))
		return irqstorm_cmd_fail("%s", err->message);
	if (g_strcmp0(od->write, od->target))
		fprintf(stderr, "irqstorm sweep: this sweep did not complete, so it replaced "
			"nothing: its files are in %s/, and %s/ keeps the complete sweep it "
			"had\n", od->write, od->target);
	return code;
}

/* irqstorm sweep SCENARIO [--offset START:STOP[:STEP]] [options] */
int irqstorm_cmd_sweep(int argc, char **argv)
{
	g_autofree char *out = NULL, *offset = NULL, *duration = NULL;
	g_auto(GStrv) sets = NULL;
	gboolean quiet = FALSE, no_random = FALSE, replace = FALSE, no_interference = FALSE;
	gint jobs = 1;
	const GOptionEntry entries[] = {
		{ "offset", 0, 0, G_OPTION_ARG_STRING, &offset,
		  "Offsets from the section's start, ns of virtual time, STEP by default "
		  "one instruction (default: the scenario's trigger_*_ns)", "START:STOP[:STEP]" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Output directory (default: results/<scenario name>-sweep); one that "
		  "holds a complete sweep is refused", "DIR" },
		{ "replace", 0, 0, G_OPTION_ARG_NONE, &replace,
		  "Replace the complete sweep in DIR once this one is complete (written "
		  "beside it, DIR.partial, until then)", NULL },
		{ "duration", 'd', 0, G_OPTION_ARG_STRING, &duration,
		  "Bound on the storm, s of virtual time (= --set run.duration=S)", "S" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Override a scenario key, e.g. guest.section=spinlock (repeatable)",
		  "GROUP.KEY=VALUE" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
		  "Cut the offsets into N parts, each swept by its own boot, side by "
		  "side (default 1: one boot)", "N" },
		{ "no-random", 0, 0, G_OPTION_ARG_NONE, &no_random,
		  "No random twin: skip the second boot", NULL },
		{ "no-interference", 0, 0, G_OPTION_ARG_NONE, &no_interference,
		  "Do not record the interrupts taken (no plugin): no <stage>_others, "
		  "no worst alone", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "No progress line and no summary", NULL },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"SCENARIO - aim an interrupt at every offset of a section",
		entries, sweep_description);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = NULL;
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	g_autoptr(IrqstormOutDir) od = NULL;
	g_autoptr(GArray) points = NULL;
	IrqstormRunSettings set;
	guint64 count;
	int code;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc != 2)
		return irqstorm_usage_error(ctx, "sweep needs exactly one SCENARIO file");
	if (jobs < 1 || jobs > 64)
		return irqstorm_usage_error(ctx, "--jobs %d: from 1 to 64", jobs);
	sc = load_sweep(argv[1], (const char *const *)sets, offset, duration, &err);
	if (!sc)
		return irqstorm_cmd_fail("%s", err->message);
	if (!out)
		out = irqstorm_cmd_default_out(argv[1], "-sweep");
	od = irqstorm_outdir_open(out, SWEEP_JSON, replace, &err);
	if (!od)
		return irqstorm_cmd_fail("%s", err->message);
	count = irqstorm_scenario_offsets(&sc->ch[sc->section_channel]);
	set = sweep_settings(sc, od->write, quiet);
	/* Built once, before the parts; the entry points from its System.map. */
	if (!irqstorm_guest_ensure(&builder, &set, &err) ||
	    (!no_interference && !(points = entry_points(sc, &err))))
		return irqstorm_cmd_fail("%s", err->message);
	if (jobs == 1 || count < 2)
		code = sweep_one(argv[1], (const char *const *)sets, sc, points, od->write,
				 quiet, no_random);
	else
		code = sweep_in_parts(argv[1], sets, duration, sc, points, od->write,
				      MIN((guint64)jobs, count), quiet, no_random);
	return sweep_commit(od, code);
}
