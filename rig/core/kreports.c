// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's reports in its log: see kreports.h.
 */
#include "kreports.h"

#include <string.h>

/* How many lines after its title a report's Call Trace may start. A
 * lockdep report prints both lock chains first. */
#define TRACE_WITHIN 200

typedef enum {
	FAULT,		/* a report of its own */
	NOTICE,		/* a report of its own that fails nothing */
	THEN,		/* a line of the open report of the same kind */
} Role;

/*
 * The kinds, by the words that start their report, as the kernel prints
 * them (6.1 to 7.3: the function that does, in the third column). The
 * first row that matches a line wins, so a specific row comes before a
 * catch-all of the same words ("BUG: ", "WARNING: "). Words match
 * anywhere in the line: some come after a pr_fmt prefix ("watchdog: ",
 * "rcu: ", "CPU0: ").
 */
static const struct {
	const char *kind;
	Role role;
	const char *words;
	const char *also;	/* words the line must contain too, or NULL */
	const char *source;	/* where the kernel prints it (documentation) */
} kinds[] = {
	{ "nobody-cared", FAULT, "nobody cared (try booting with", NULL,
	  "kernel/irq/spurious.c __report_bad_irq()" },
	{ "nobody-cared", THEN, "Disabling IRQ #", NULL,
	  "kernel/irq/spurious.c note_interrupt()" },
	{ "sleeping-in-atomic", FAULT, "BUG: sleeping function called from invalid context",
	  NULL, "kernel/sched/core.c __might_resched()" },
	{ "scheduling-while-atomic", FAULT, "BUG: scheduling while atomic", NULL,
	  "kernel/sched/core.c __schedule_bug()" },
	{ "kasan", FAULT, "BUG: KASAN: ", NULL, "mm/kasan/report.c" },
	{ "soft-lockup", FAULT, "BUG: soft lockup - CPU#", NULL,
	  "kernel/watchdog.c watchdog_timer_fn()" },
	{ "hard-lockup", FAULT, "Watchdog detected hard LOCKUP", NULL,
	  "kernel/watchdog.c, watchdog_perf.c" },
	{ "workqueue-lockup", FAULT, "BUG: workqueue lockup", NULL,
	  "kernel/workqueue.c wq_watchdog_timer_fn()" },
	{ "workqueue-leak", FAULT, "BUG: workqueue leaked", NULL,
	  "kernel/workqueue.c process_one_work()" },
	{ "rcu-stall", FAULT, "detected stalls on CPUs/tasks", NULL,
	  "kernel/rcu/tree_stall.h print_other_cpu_stall()" },
	{ "rcu-stall", FAULT, "self-detected stall on CPU", NULL,
	  "kernel/rcu/tree_stall.h print_cpu_stall()" },
	{ "rcu-stall", FAULT, "detected expedited stalls on CPUs/tasks", NULL,
	  "kernel/rcu/tree_exp.h synchronize_rcu_expedited_stall()" },
	{ "hung-task", FAULT, "INFO: task ", " for more than ",
	  "kernel/hung_task.c check_hung_task()" },
	{ "lockdep", FAULT, "WARNING: possible circular locking dependency", NULL,
	  "kernel/locking/lockdep.c print_circular_bug_header()" },
	{ "lockdep", FAULT, "WARNING: possible recursive locking detected", NULL,
	  "kernel/locking/lockdep.c print_deadlock_bug()" },
	{ "lockdep", FAULT, "WARNING: inconsistent lock state", NULL,
	  "kernel/locking/lockdep.c print_usage_bug()" },
	{ "lockdep", FAULT, "WARNING: possible irq lock inversion dependency", NULL,
	  "kernel/locking/lockdep.c print_irq_inversion_bug()" },
	{ "lockdep", FAULT, "-unsafe lock order detected", "WARNING: ",
	  "kernel/locking/lockdep.c print_bad_irq_dependency()" },
	{ "lockdep", FAULT, "WARNING: bad unlock balance detected", NULL,
	  "kernel/locking/lockdep.c print_unlock_imbalance_bug()" },
	{ "lockdep", FAULT, "WARNING: held lock freed", NULL,
	  "kernel/locking/lockdep.c print_freed_lock_bug()" },
	{ "lockdep", FAULT, "still has locks held", "WARNING: ",
	  "kernel/locking/lockdep.c print_held_locks_bug()" },
	{ "lockdep", FAULT, "WARNING: lock held when returning to user space", NULL,
	  "kernel/locking/lockdep.c lockdep_sys_exit()" },
	{ "lockdep", FAULT, "WARNING: Nested lock was not taken", NULL,
	  "kernel/locking/lockdep.c print_lock_nested_lock_not_held()" },
	{ "lockdep", FAULT, "WARNING: bad contention detected", NULL,
	  "kernel/locking/lockdep.c print_lock_contention_bug()" },
	{ "lockdep", FAULT, "WARNING: suspicious RCU usage", NULL,
	  "kernel/locking/lockdep.c lockdep_rcu_suspicious()" },
	{ "lockdep", FAULT, "INFO: trying to register non-static key", NULL,
	  "kernel/locking/lockdep.c assign_lock_key()" },
	{ "oops", FAULT, "BUG: kernel NULL pointer dereference", NULL,
	  "arch/x86/mm/fault.c show_fault_oops()" },
	{ "oops", FAULT, "BUG: unable to handle page fault", NULL,
	  "arch/x86/mm/fault.c show_fault_oops()" },
	{ "oops", FAULT, "Oops: ", NULL, "arch/x86/kernel/dumpstack.c __die_header()" },
	{ "oops", FAULT, "general protection fault", NULL,
	  "arch/x86/kernel/traps.c exc_general_protection()" },
	{ "oops", FAULT, "kernel BUG at ", NULL, "lib/bug.c report_bug()" },
	/* The guest's init exited: its doing, not the kernel's (a run that
	 * ends so is incomplete, as any guest that dies). */
	{ "init-died", NOTICE, "Kernel panic - not syncing: Attempted to kill init", NULL,
	  "kernel/exit.c do_exit(): the guest's init exited" },
	{ "panic", FAULT, "Kernel panic - not syncing", NULL, "kernel/panic.c panic()" },
	/* WARN(): "WARNING: CPU: 0 PID: 1 at FILE:LINE FN" on 6.1 and 6.12,
	 * "WARNING: FILE:LINE at FN, CPU#0: COMM/PID" on 7.3; and the few
	 * pr_warn("WARNING: ...") with a dump_stack() (flushing a system-wide
	 * workqueue, kernel/workqueue.c __warn_flushing_systemwide_wq()). */
	{ "warning", FAULT, "WARNING: ", NULL, "kernel/panic.c __warn()" },
	/* The other BUG: lines (lockdep's "BUG: MAX_LOCKDEP_KEYS too low!",
	 * "BUG: assuming atomic context at ..."). */
	{ "bug", FAULT, "BUG: ", NULL, "BUG: lines not named above" },
	{ "flags-mismatch", NOTICE, "genirq: Flags mismatch", NULL,
	  "kernel/irq/manage.c __setup_irq(): a request refused" },
	{ "request-failed", NOTICE, "cannot request IRQ", NULL,
	  "the irqstorm driver: a channel's request_irq() failed" },
};

gboolean irqstorm_kreport_kind_known(const char *kind)
{
	for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++)
		if (kinds[k].role == FAULT && !strcmp(kinds[k].kind, kind))
			return TRUE;
	return FALSE;
}

GStrv irqstorm_kreport_kinds_split(const char *list)
{
	GStrv named = g_strsplit(list, ",", -1);

	for (guint i = 0; named[i]; i++)
		g_strstrip(named[i]);
	return named;
}

char *irqstorm_kreport_kinds(void)
{
	GString *s = g_string_new(NULL);

	for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++) {
		gboolean again = FALSE;

		for (gsize e = 0; e < k; e++)
			again |= !strcmp(kinds[e].kind, kinds[k].kind);
		if (kinds[k].role == FAULT && !again)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "", kinds[k].kind);
	}
	return g_string_free(s, FALSE);
}

/* The row a line (its message) starts a report with, or -1. */
static int kind_of(const char *msg)
{
	for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++)
		if (strstr(msg, kinds[k].words) &&
		    (!kinds[k].also || strstr(msg, kinds[k].also)))
			return k;
	return -1;
}

/* The message of a kernel log line: after its "[    3.350010]" stamp. */
static const char *message(const char *line)
{
	const char *end = line[0] == '[' ? strchr(line, ']') : NULL;

	if (!end)
		return line;
	return end[1] == ' ' ? end + 2 : end + 1;
}

/* A Call Trace's frame: " ? 0xffffffff812632d1", " note_interrupt+0x1e1/0x2d0". */
static gboolean is_frame(const char *msg)
{
	const char *p = msg;

	if (!g_ascii_isspace(*p))
		return FALSE;
	while (g_ascii_isspace(*p))
		p++;
	if (p[0] == '?' && p[1] == ' ')
		p += 2;
	if (g_str_has_prefix(p, "0x"))
		return g_ascii_isxdigit(p[2]);
	return (g_ascii_isalpha(*p) || *p == '_') && strstr(p, "+0x");
}

/* The stack's markers between frames: <IRQ>, </IRQ>, <TASK>, <NMI>, ... */
static gboolean is_marker(const char *msg)
{
	g_autofree char *s = g_strstrip(g_strdup(msg));
	gsize n = strlen(s);

	return n > 2 && s[0] == '<' && s[n - 1] == '>';
}

static void kreport_free(gpointer p)
{
	IrqstormKreport *r = p;

	g_free(r->title);
	g_ptr_array_unref(r->then);
	g_ptr_array_unref(r->trace);
	g_free(r);
}

static IrqstormKreport *find_titled(GPtrArray *out, const char *title)
{
	for (guint i = 0; i < out->len; i++) {
		IrqstormKreport *r = out->pdata[i];

		if (!strcmp(r->title, title))
			return r;
	}
	return NULL;
}

/* The report a line of role THEN belongs to: the last one of its kind. */
static IrqstormKreport *then_of(GPtrArray *out, int k)
{
	for (guint i = out->len; i > 0; i--) {
		IrqstormKreport *r = out->pdata[i - 1];

		if (!strcmp(r->kind, kinds[k].kind))
			return r;
	}
	return NULL;
}

/* What the parser follows: the report whose trace is still to come. */
typedef struct {
	IrqstormKreport *open;
	guint since;		/* lines since its title */
	gboolean in_trace;
} Follow;

/* A line that starts no report: part of the open one's trace, or not. */
static void follow_line(Follow *f, const char *msg)
{
	if (!f->open)
		return;
	if (!f->in_trace) {
		f->in_trace = strstr(msg, "Call Trace:") != NULL;
		if (!f->in_trace && (++f->since > TRACE_WITHIN || strstr(msg, "---[ end trace")))
			f->open = NULL;
		return;
	}
	if (is_marker(msg))
		return;
	if (!is_frame(msg)) {
		f->open = NULL;
		return;
	}
	if (f->open->trace->len < IRQSTORM_KREPORT_FRAMES)
		g_ptr_array_add(f->open->trace, g_strstrip(g_strdup(msg)));
}

GPtrArray *irqstorm_kreports_parse(const char *text)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(kreport_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	Follow f = { 0 };

	for (gsize i = 0; lines[i]; i++) {
		g_autofree char *msg = g_strdup(message(g_strchomp(lines[i])));
		int k = kind_of(msg);
		IrqstormKreport *r;

		if (k < 0) {
			follow_line(&f, msg);
			continue;
		}
		g_strstrip(msg);
		/* "BUG: kernel NULL pointer dereference", then "Oops: ...": one
		 * report, the first line its title, until its trace begins. */
		if ((kinds[k].role == THEN && (r = then_of(out, k))) ||
		    (f.open && !f.in_trace && !strcmp(f.open->kind, kinds[k].kind) &&
		     (r = f.open))) {
			if (!g_ptr_array_find_with_equal_func(r->then, msg, g_str_equal, NULL))
				g_ptr_array_add(r->then, g_steal_pointer(&msg));
			continue;
		}
		/* The guest's init may show the kernel log again: one report. */
		f = (Follow){ 0 };
		if (find_titled(out, msg))
			continue;
		r = g_new0(IrqstormKreport, 1);
		r->kind = kinds[k].kind;
		r->fault = kinds[k].role != NOTICE;
		r->title = g_steal_pointer(&msg);
		r->then = g_ptr_array_new_with_free_func(g_free);
		r->trace = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(out, r);
		f.open = r;
	}
	return out;
}

/* "? 0xffffffff812632d1" as "? note_interrupt+0x1e1"; else as it was. */
static char *named_frame(const char *frame, const IrqstormSymbols *syms)
{
	gboolean unsure = g_str_has_prefix(frame, "? ");
	const char *a = unsure ? frame + 2 : frame;
	guint64 addr, start;
	const char *name;
	char *end = NULL;

	if (!g_str_has_prefix(a, "0x"))
		return g_strdup(frame);
	addr = g_ascii_strtoull(a + 2, &end, 16);
	if (!end || *end)
		return g_strdup(frame);
	name = irqstorm_symbols_lookup(syms, addr, &start);
	if (name[0] == '[')
		return g_strdup(frame);
	return g_strdup_printf("%s%s+0x%" G_GINT64_MODIFIER "x", unsure ? "? " : "",
			       name, addr - start);
}

void irqstorm_kreports_name_frames(GPtrArray *reports, const IrqstormSymbols *syms)
{
	for (guint i = 0; i < reports->len; i++) {
		IrqstormKreport *r = reports->pdata[i];

		for (guint f = 0; f < r->trace->len; f++) {
			char *named = named_frame(r->trace->pdata[f], syms);

			g_free(r->trace->pdata[f]);
			r->trace->pdata[f] = named;
		}
	}
}
