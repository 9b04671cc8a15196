// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printed summary of a run: see report.h.
 */
#include "report.h"

#include "stages.h"
#include "summary-keys.h"
#include "table.h"

/* A line per stage of a tally that has samples, under a header line. */
static void print_stages(FILE *out, guint indent, const IrqstormTally *t)
{
	g_autoptr(IrqstormTable) table = irqstorm_table_new(7);
	g_autoptr(GString) text = g_string_new(NULL);

	irqstorm_table_set_indent(table, indent);
	irqstorm_table_align_right(table, 1);
	irqstorm_table_add_row(table, g_strsplit("stage|count|min|avg|p99|max|"
						 "(us of virtual time)", "|", -1));
	guint rows = 0;

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		const IrqstormHist *h = t->hist[st];
		char **row;

		if (!irqstorm_hist_count(h))
			continue;
		rows++;
		row = g_new0(char *, 8);
		row[0] = g_strdup(irqstorm_stage_name(st));
		row[1] = g_strdup_printf("%" G_GUINT64_FORMAT, irqstorm_hist_count(h));
		row[2] = g_strdup_printf("%.2f", irqstorm_stat_value(h, IRQSTORM_STAT_MIN) / 1e3);
		row[3] = g_strdup_printf("%.2f", irqstorm_hist_avg(h) / 1e3);
		row[4] = g_strdup_printf("%.2f", irqstorm_stat_value(h, IRQSTORM_STAT_P99) / 1e3);
		row[5] = g_strdup_printf("%.2f", irqstorm_stat_value(h, IRQSTORM_STAT_MAX) / 1e3);
		row[6] = g_strdup("");
		irqstorm_table_add_row(table, row);
	}
	/* No samples, no table: an empty one would read as a stage table. */
	if (!rows)
		return;
	irqstorm_table_render(table, text);
	fputs(text->str, out);
}

/* Who ended the storm, and when, by the device's clock. */
static void print_storm(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormDeviceState *st = &res->outcome->device;

	if (!res->outcome->have_counters || !st->storms || !st->storm_end_ns)
		return;
	if (st->storm_device_end)
		fprintf(out, "  storm: %.3f s asked; the guest did not stop it, the "
			"device ended it after %.3f s (see STALL)\n",
			sc->duration_ms / 1e3, irqstorm_storm_seconds(st->storm_start_ns, st->storm_end_ns));
	else
		fprintf(out, "  storm: %.3f s asked; the guest stopped it after "
			"%.6f s\n", sc->duration_ms / 1e3,
			irqstorm_storm_seconds(st->storm_start_ns, st->storm_end_ns));
}

/* The worst done (else any) stage of a part of the storm, in words. */
static char *window_worst(const IrqstormWindow *w)
{
	int pick = -1;

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		if (w->max_ns[st] && (pick < 0 || st == IRQSTORM_STAGE_DONE))
			pick = st;
	if (pick < 0)
		return g_strdup("");
	return g_strdup_printf(", worst %s %.2f us", irqstorm_stage_name(pick),
			       w->max_ns[pick] / 1e3);
}

/* What the statistics cover, and what they leave out: the warm-up, the
 * guest's stop tail; the start-up, kept in, said apart. */
static void print_window(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;
	g_autofree char *tail = NULL, *start = NULL;

	if (!d || !d->records)
		return;
	tail = window_worst(&d->tail);
	start = window_worst(&d->startup);
	fprintf(out, "  window: the statistics cover raises %.3f to %.3f s into the storm",
		sc->warmup_ms / 1e3, sc->duration_ms / 1e3);
	if (d->warmup.records)
		fprintf(out, "; %" G_GUINT64_FORMAT " in the warm-up left out",
			d->warmup.records);
	/* A probe record is a wake-up, not an interrupt raised. */
	fprintf(out, "; %" G_GUINT64_FORMAT " interrupts raised after it, while the guest "
		"stopped the storm, left out", d->tail.records - d->tail.cycles[IRQSTORM_STAGE_PROBE]);
	if (d->tail.cycles[IRQSTORM_STAGE_PROBE])
		fprintf(out, " (and %" G_GUINT64_FORMAT " probe wake-ups)",
			d->tail.cycles[IRQSTORM_STAGE_PROBE]);
	fprintf(out, "%s\n", tail);
	if (!sc->warmup_ms && d->startup.records)
		fprintf(out, "  start-up: the first %.0f ms hold %" G_GUINT64_FORMAT
			" of them%s ([run] warmup = %.3f leaves them out)\n",
			IRQSTORM_STARTUP_NS / 1e6, d->startup.records, start,
			IRQSTORM_STARTUP_NS / 1e9);
}

/* How the scenario ran: deterministic or why not (the same judgement as
 * summary.json's). */
static char *mode_text(const IrqstormRunSettings *set)
{
	const IrqstormScenario *sc = set->scenario;
	g_autofree char *why = irqstorm_run_not_deterministic(set);

	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF)
		return g_strdup("no icount: not deterministic");
	if (why)
		return g_strdup_printf("icount shift=%d: %d ns per guest instruction, not "
				       "deterministic: %s", sc->icount_shift,
				       1 << sc->icount_shift, why);
	return g_strdup_printf("icount shift=%d: %d ns per guest instruction, a %g MIPS "
			       "CPU; deterministic", sc->icount_shift, 1 << sc->icount_shift,
			       1e3 / (1 << sc->icount_shift));
}

/* What ran: the file, its profile, the kernel, the overrides given. */
static char *what_ran(const IrqstormScenario *sc)
{
	GString *s = g_string_new(sc->path);
	g_autofree char *kname = irqstorm_scenario_kernel_name(sc);

	if (sc->profile)
		g_string_append_printf(s, ", profile %s", sc->profile);
	g_string_append_printf(s, ", %s kernel", kname);
	for (guint i = 0, n = 0; i < sc->overrides->len; i++) {
		const char *o = sc->overrides->pdata[i];

		/* The profile is named already. */
		if (!g_str_has_prefix(o, "run.profile="))
			g_string_append_printf(s, "%s%s", n++ ? " " : ", with ", o);
	}
	return g_string_free(s, FALSE);
}

/* The interrupts the guest used, as it said, or why that is not known. */
static char *guest_irqs_text(const IrqstormResults *res)
{
	const char *mode = irqstorm_console_value(res->console, IRQSTORM_RESULT_KEY(irq_mode));

	if (mode)
		return g_strdup(mode);
	return g_strdup_printf("not reported (%s asked; the guest %s)",
			       irqstorm_irq_mode_name(res->set->scenario->irq_mode),
			       res->console->result ? "did not say which it used" :
			       "sent no result line");
}

/* Several vCPUs under the quantum: how late the interrupts between them were. */
static void print_held(const IrqstormResults *res, FILE *out)
{
	const IrqstormRunOutcome *o = res->outcome;

	if (!o->have_held)
		return;
	fprintf(out, "  %u vCPUs in windows of %.1f us: %" G_GUINT64_FORMAT
		" interrupts one sent another, each held to its window's end",
		res->set->scenario->cpus, res->set->scenario->quantum_ns / 1e3,
		o->held.count);
	if (o->held.count)
		fprintf(out, ", late by %.3f to %.3f us", o->held.min_ns / 1e3,
			o->held.max_ns / 1e3);
	fputc('\n', out);
}

/* The first lines: how it ended, and what the host read. */
static void print_head(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;
	g_autofree char *what = what_ran(sc);
	g_autofree char *mode = mode_text(res->set);
	g_autofree char *irqs = guest_irqs_text(res);
	g_autofree char *pins = irqstorm_run_pins_differ(res->set);
	char **tail = res->outcome->qemu_log_tail;

	fprintf(out, "irqstorm: %s run of %s (%s, %s) in %.1f s wall\n",
		res->checks->complete ? "complete" : "INCOMPLETE", what,
		irqstorm_run_accel_used(res->outcome, sc), mode,
		res->outcome->wall_seconds);
	if (pins)
		fprintf(out, "  built from other Debian inputs than scripts/debian-pins "
			"(%s): its numbers are not comparable with docs/results.md's\n",
			pins);
	if (res->outcome->kvm_fell_back)
		fprintf(out, "  accel = auto: KVM ran nothing within [run] boot_timeout; "
			"this run is TCG's\n");
	if (!res->checks->complete)
		fprintf(out, "  incomplete: %s\n", res->checks->incomplete_reason);
	if (tail)
		fprintf(out, "  the end of qemu.log:\n");
	for (gsize i = 0; tail && tail[i]; i++)
		fprintf(out, "    %s\n", tail[i]);
	if (d && d->probe_records)
		fprintf(out, "  host: %" G_GUINT64_FORMAT " records read (%" G_GUINT64_FORMAT
			" of interrupts, %" G_GUINT64_FORMAT " of the probe's wake-ups), %"
			G_GUINT64_FORMAT " lost; guest interrupts: %s\n", d->records,
			d->records - d->probe_records, d->probe_records, d->lost, irqs);
	else if (d)
		fprintf(out, "  host: %" G_GUINT64_FORMAT " records read, %" G_GUINT64_FORMAT
			" lost; guest interrupts: %s\n", d->records, d->lost, irqs);
	print_held(res, out);
}

/* Channel n: its settings, the device's counts, its stages. */
static void print_channel(const IrqstormResults *res, guint n, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormChannelSpec *c = &sc->ch[n];
	const IrqstormDeviceCounters *dev = &res->outcome->device.ch[n];
	const IrqstormCollected *d = res->outcome->data;
	guint64 ns, handled;

	fprintf(out, "  channel %u: %s %.6g Hz, %s, work %s", n,
		irqstorm_pattern_name(c->pattern), 1e9 / c->period_ns,
		irqstorm_threading_name(c->threading), irqstorm_work_name(c->work));
	if (c->work_context != IRQSTORM_CONTEXT_HANDLER)
		fprintf(out, " in a %s", irqstorm_work_context_name(c->work_context));
	if (c->bh_off_us)
		fprintf(out, ", BH off %u us", c->bh_off_us);
	if (c->plant != IRQSTORM_PLANT_NONE)
		fprintf(out, ", PLANTED bug %s", irqstorm_plant_name(c->plant));
	if (res->outcome->have_counters)
		fprintf(out, "; %" G_GUINT64_FORMAT " raised, %" G_GUINT64_FORMAT
			" coalesced, %" G_GUINT64_FORMAT " dropped, %"
			G_GUINT64_FORMAT " handled", dev->raised,
			dev->coalesced, dev->dropped, dev->handled);
	fputc('\n', out);
	if (sc->handler_clock && irqstorm_console_item(res->console, IRQSTORM_RESULT_KEY(handler_ns), n, &ns) &&
	    irqstorm_console_item(res->console, IRQSTORM_RESULT_KEY(handled), n, &handled) && handled)
		fprintf(out, "    guest handler time: %.1f ns per event (%s)\n",
			(double)ns / handled,
			sc->icount_shift == IRQSTORM_ICOUNT_OFF ?
			"guest clock" : "virtual time");
	if (d && !sc->stamps) {
		fprintf(out, "    stamps off: no records, no latencies\n");
	} else if (d) {
		print_stages(out, 4, &d->ch[n]);
	}
}

/* The guest's "completed:NS" or "timeout:NS" of its i8042 region in words,
 * with its unit; anything else as it came. */
static char *i8042_words(const char *v)
{
	const char *colon = strchr(v, ':');
	guint64 ns;

	if (!colon || !g_ascii_string_to_unsigned(colon + 1, 10, 0, G_MAXUINT64, &ns, NULL))
		return g_strdup(v);
	if (g_str_has_prefix(v, "completed:"))
		return g_strdup_printf("completed in %.3f us", ns / 1e3);
	if (g_str_has_prefix(v, "timeout:"))
		return g_strdup_printf("timed out after %.3f us", ns / 1e3);
	return g_strdup(v);
}

/* The guest's tasks: the probe, cyclictest, the i8042 region, the sweep. */
static void print_guest_tasks(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;
	const IrqstormConsole *con = res->console;
	const char *s;

	if (d && d->probe_records) {
		const IrqstormHist *h = d->all.hist[IRQSTORM_STAGE_PROBE];

		fprintf(out, "  probe task: %" G_GUINT64_FORMAT " wake-ups, late by "
			"avg %.2f us, p99 %.2f us, max %.2f us\n", irqstorm_hist_count(h),
			irqstorm_hist_avg(h) / 1e3,
			irqstorm_stat_value(h, IRQSTORM_STAT_P99) / 1e3, irqstorm_hist_max(h) / 1e3);
	}
	if (sc->cyclictest && irqstorm_console_value(con, IRQSTORM_RESULT_KEY(cyclictest_cycles)))
		fprintf(out, "  cyclictest (guest, FIFO %u, every %u us): %s cycles, late by "
			"min %s us, avg %s us, max %s us\n", sc->cyclictest_prio,
			sc->probe_period_us, irqstorm_console_value(con, IRQSTORM_RESULT_KEY(cyclictest_cycles)),
			irqstorm_console_value(con, IRQSTORM_RESULT_KEY(cyclictest_min_us)) ?: "?",
			irqstorm_console_value(con, IRQSTORM_RESULT_KEY(cyclictest_avg_us)) ?: "?",
			irqstorm_console_value(con, IRQSTORM_RESULT_KEY(cyclictest_max_us)) ?: "?");
	if ((s = irqstorm_console_value(con, IRQSTORM_RESULT_KEY(i8042))) && g_strcmp0(s, "none")) {
		g_autofree char *words = i8042_words(s);

		fprintf(out, "  i8042 region: %s\n", words);
	}
	if ((s = irqstorm_console_value(con, IRQSTORM_RESULT_KEY(section))) && g_strcmp0(s, "none"))
		fprintf(out, "  section sweep (%s, %u us, on CPU %u): %s\n",
			irqstorm_section_name(sc->section), sc->section_us, sc->section_cpu, s);
	if ((s = irqstorm_console_value(con, IRQSTORM_RESULT_KEY(softirqs))))
		fprintf(out, "  softirqs raised during the storm, NAME:per CPU: %s; ksoftirqd "
			"context switches, per CPU: %s\n", s,
			irqstorm_console_value(con, IRQSTORM_RESULT_KEY(ksoftirqd)) ?: "?");
}

/* Each string of a, as "  prefix: string". */
static void print_lines(FILE *out, const char *prefix, const GPtrArray *a)
{
	for (guint i = 0; i < a->len; i++)
		fprintf(out, "  %s: %s\n", prefix, (char *)a->pdata[i]);
}

/*
 * The kernel's reports: a fault as FAULT (or "expected"), its title, what
 * became of it and its first frames; a notice as before, a kernel line.
 */
static void print_kreports(FILE *out, const GPtrArray *reports)
{
	for (guint i = 0; i < reports->len; i++) {
		const IrqstormKreport *r = reports->pdata[i];

		if (!r->fault) {
			fprintf(out, "  kernel: %s\n", r->title);
			continue;
		}
		fprintf(out, "  kernel %s %s: %s\n", r->expected ? "reported, as expected," :
			"FAULT", r->kind, r->title);
		for (guint k = 0; k < r->then->len; k++)
			fprintf(out, "    then: %s\n", (char *)r->then->pdata[k]);
		/* r->trace is not NULL-terminated: its length bounds it. */
		for (guint k = 0; k < r->trace->len; k++)
			fprintf(out, "%s%s", k ? ", " : "    call trace: ",
				(char *)r->trace->pdata[k]);
		if (r->trace->len)
			fputc('\n', out);
	}
}

/* Each threshold against what was measured, in each channel judged. */
static void print_limits(const IrqstormScenario *sc, const GArray *limits, FILE *out)
{
	for (guint i = 0; i < limits->len; i++) {
		const IrqstormLimitResult *r = &g_array_index(limits, IrqstormLimitResult, i);

		fprintf(out, "  threshold %s %s <= %.3f us", r->threshold->stage,
			irqstorm_stat_key(r->threshold->stat),
			r->threshold->limit_ns / 1e3);
		if (r->channel != IRQSTORM_NONE)
			fprintf(out, ", channel %d%s%s%s", r->channel,
				*sc->ch[r->channel].name ? " (" : "", sc->ch[r->channel].name,
				*sc->ch[r->channel].name ? ")" : "");
		fputs(": ", out);
		if (!r->measured)
			fprintf(out, "no samples\n");
		else
			fprintf(out, "%.3f us, %s\n", r->value_ns / 1e3,
				r->exceeded ? "EXCEEDED" : "met");
	}
}

/* The human summary: how it ended, the counts, per channel its stages. */
void irqstorm_results_print(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;

	print_head(res, out);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (sc->ch[n].pattern != IRQSTORM_PATTERN_OFF)
			print_channel(res, n, out);
	print_storm(res, out);
	print_window(res, out);
	print_guest_tasks(res, out);
	print_kreports(out, res->console->reports);
	print_lines(out, "KERNEL FAILED THE RUN", res->checks->kernel);
	print_lines(out, "STALL", res->checks->stalls);
	print_lines(out, "CHECK FAILED", res->checks->failed_checks);
	print_limits(sc, res->checks->limits, out);
	fprintf(out, "  results: %s/\n", res->set->out_dir);
}
