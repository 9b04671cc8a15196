// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `irqstorm run`: the life of one run.
 *
 *   private dir (0700) with the log file, QMP socket and guest settings
 *   -> QEMU started paused, in its own process group
 *   -> QMP connected, log header checked, collector thread started, "cont"
 *   -> main loop until the guest powers off (QMP SHUTDOWN), QEMU dies, the
 *      wall-clock bound passes (the kernel's first words on its console
 *      have [run] boot_timeout, the whole run [run] timeout), or a signal
 *      arrives; accel = auto whose KVM ran nothing: all again under TCG
 *   -> device counters read over QMP, QEMU told to quit, then killed anyway
 *   -> collector drained and joined, private dir removed, the outcome
 *      returned (results.h judges it and writes the result files).
 *
 * The output directory is marked INCOMPLETE before QEMU starts (marker.h).
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "collect.h"
#include "counters.h"
#include "files.h"
#include "identity.h"
#include "launch.h"
#include "machine.h"
#include "marker.h"
#include "output.h"
#include "qmp.h"
#include "runfiles.h"
#include "records.h"
#include "scenario-names.h"

#define TAIL_LINES	10	/* of qemu.log, when the guest did not power off */
#define TAIL_BYTES	4096
#define QMP_COMMAND_MS	5000
#define QUIT_GRACE_MS	5000
#define TICK_MS		100
#define CHANGE_TICK_MS	10	/* while [changes] wait: they land sooner */

/* The main loop's state: everything a callback may look at or change. */
typedef struct {
	const IrqstormRunSettings *set;
	IrqstormRunOutcome *out;	/* what the loop finds, as it finds it */
	GMainLoop *loop;
	IrqstormChild child;
	IrqstormQmp *qmp;
	IrqstormCollector *collector;
	gint64 start_us;
	gint64 deadline_us;
	gint64 boot_deadline_us;	/* [run] boot_timeout */
	gboolean kernel_spoke;		/* the console is not empty */
	gint64 last_progress_us;
	guint64 last_progress_records;
	gboolean tty;
	gboolean stop_noticed;		/* set->stop_notice printed */
} RunLoop;

/* Paths of one run; the private ones live in a 0700 directory. */
typedef struct {
	char *priv_dir;
	IrqstormMachinePaths m;
	char *qemu_path, *kernel_path, *initrd_path;
	char *log_path, *qmp_path, *conf_path, *console_path, *stderr_path;
	char *held_path;
} RunPaths;

static void run_paths_clear(RunPaths *p)
{
	if (p->priv_dir) {
		g_unlink(p->log_path);
		g_unlink(p->qmp_path);
		g_unlink(p->conf_path);
		g_unlink(p->held_path);
		g_rmdir(p->priv_dir);
	}
	g_free(p->priv_dir);
	g_free(p->qemu_path);
	g_free(p->kernel_path);
	g_free(p->initrd_path);
	g_free(p->log_path);
	g_free(p->qmp_path);
	g_free(p->conf_path);
	g_free(p->console_path);
	g_free(p->stderr_path);
	g_free(p->held_path);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunPaths, run_paths_clear)

#define BUILD_HINT "build it first (meson compile -C build, see README.md)"

/*
 * An artifact that this user must be able to use (mode: R_OK, or X_OK for
 * QEMU), or an error that says why not: not built (a hint how to), or
 * there but out of this user's reach (the build cache of another user).
 */
static char *artifact(const char *dir, const char *name, int mode, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *target = NULL;
	int err;

	if (g_access(path, mode) == 0)
		return g_steal_pointer(&path);
	err = errno;
	target = g_file_read_link(path, NULL);
	if (err == ENOENT && !target)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s not found: " BUILD_HINT, path);
	else if (err == ENOENT)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s links to %s, which does not exist: " BUILD_HINT,
			    path, target);
	else
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "cannot %s %s: %s (check its mode, and that this user may "
			    "enter each directory above it%s%s)",
			    mode == X_OK ? "execute" : "read", path, g_strerror(err),
			    target ? " and above its target " : "", target ? target : "");
	return NULL;
}

/* Private directory, log file of the right size, guest settings. */
/* Is mode one of the comma-separated modes? */
static gboolean mode_listed(const char *modes, const char *mode)
{
	g_auto(GStrv) m = g_strsplit(modes, ",", -1);

	return g_strv_contains((const char *const *)m, mode);
}

/*
 * A preempt= on the scenario's kernel command line that the kernel built
 * for it does not take (kernel-preempt-modes of its identity, read from
 * its own sched_dynamic_mode()): refused before booting, since the kernel
 * would only warn ("Dynamic Preempt: unsupported mode") and run another
 * mode. A build whose identity does not say is not checked.
 */
static gboolean preempt_check(const IrqstormScenario *sc, GStrv id, GError **error)
{
	const char *modes = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_PREEMPT_MODES);
	g_auto(GStrv) words = g_strsplit_set(sc->cmdline, " \t", -1);
	g_autofree char *what = NULL;

	for (guint i = 0; modes && words[i]; i++) {
		const char *mode = words[i] + strlen("preempt=");

		if (!g_str_has_prefix(words[i], "preempt=") || mode_listed(modes, mode))
			continue;
		what = irqstorm_identity_kernel_source(id);
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "[kernel] cmdline has %s, but the %s kernel (%s) %s%s: it would "
			    "say \"unsupported mode\" and run another, so nothing boots",
			    words[i], sc->flavour, what,
			    *modes ? "takes only preempt=" : "has no dynamic preemption "
			    "(no PREEMPT_DYNAMIC), so no preempt= at all", modes);
		return FALSE;
	}
	return TRUE;
}

/*
 * A channel's thread_cpu on a kernel whose IRQ threads user space cannot
 * move (kernel-irq-thread-affinity = interrupt: Linux 7.3 binds them with
 * PF_NO_SETAFFINITY, and they follow their interrupt's affinity): refused
 * before booting, rather than a run that ends thread-sched-failed.
 */
static gboolean thread_cpu_check(const IrqstormScenario *sc, GStrv id, GError **error)
{
	const char *aff = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_IRQ_THREAD_AFFINITY);
	g_autofree char *what = NULL;

	if (g_strcmp0(aff, "interrupt") != 0)
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		if (sc->ch[n].thread_cpu == IRQSTORM_NONE)
			continue;
		what = irqstorm_identity_kernel_source(id);
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "[channel%u] thread_cpu = %d, but the %s kernel (%s) binds IRQ "
			    "threads to their interrupt's affinity (PF_NO_SETAFFINITY): user "
			    "space cannot move them; route the interrupt with [guest] irq_cpu "
			    "instead, and its thread follows", n, sc->ch[n].thread_cpu,
			    sc->flavour, what);
		return FALSE;
	}
	return TRUE;
}

/*
 * More vCPUs than the kernel built for the scenario boots (kernel-nr-cpus,
 * its CONFIG_NR_CPUS): it would bring up that many and ignore the rest, a
 * run of another machine than the scenario's. A build whose identity does
 * not say is not checked.
 */
static gboolean cpus_check(const IrqstormScenario *sc, GStrv id, GError **error)
{
	const char *nr = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_NR_CPUS);
	guint64 most;
	g_autofree char *what = NULL;

	if (!nr || !g_ascii_string_to_unsigned(nr, 10, 1, G_MAXUINT32, &most, NULL) ||
	    sc->cpus <= most)
		return TRUE;
	what = irqstorm_identity_kernel_source(id);
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
		    "[machine] cpus = %u, but the %s kernel (%s) is built with "
		    "NR_CPUS=%" G_GUINT64_FORMAT ": it would bring up %" G_GUINT64_FORMAT
		    " and ignore the rest; use cpus <= %" G_GUINT64_FORMAT,
		    sc->cpus, sc->flavour, what, most, most, most);
	return FALSE;
}

/*
 * The identity of the kernel set's scenario boots: its file, or, before a
 * first build of one of Debian's sources, what that source's identity
 * will say (scenario-names.c), so that a refusal comes before the build.
 */
static char **kernel_identity(const IrqstormRunSettings *set)
{
	const IrqstormScenario *sc = set->scenario;
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);
	g_autofree char *kid = irqstorm_machine_kernel_file(sc, "identity");
	char **id = irqstorm_identity_read(set->kernel_dir, kid);
	g_autoptr(GStrvBuilder) b = NULL;
	g_autofree char *what = NULL;

	if (id || !d)
		return id;
	b = g_strv_builder_new();
	what = g_strdup_printf("%s, not built yet", d->name);
	g_strv_builder_add_many(b, irqstorm_identity_key(IRQSTORM_ID_KERNEL_DEBIAN_SOURCE), what,
				irqstorm_identity_key(IRQSTORM_ID_KERNEL_PREEMPT_MODES),
				strcmp(sc->flavour, "dyn") ? "" : d->dyn_preempt_modes,
				irqstorm_identity_key(IRQSTORM_ID_KERNEL_IRQ_THREAD_AFFINITY),
				d->irq_thread_affinity, NULL);
	return g_strv_builder_end(b);
}

gboolean irqstorm_run_check_kernel(const IrqstormRunSettings *set, GError **error)
{
	const IrqstormScenario *sc = set->scenario;
	g_auto(GStrv) id = kernel_identity(set);

	return cpus_check(sc, id, error) && preempt_check(sc, id, error) &&
	       thread_cpu_check(sc, id, error);
}

static gboolean run_prepare(const IrqstormRunSettings *set, RunPaths *p,
			    GError **error)
{
	const IrqstormScenario *sc = set->scenario;
	g_autofree char *kname = irqstorm_machine_kernel_name(sc);
	g_autofree char *iname = irqstorm_machine_initrd_name(sc);
	g_autofree char *conf = irqstorm_machine_guest_conf(sc);
	int fd;

	p->qemu_path = artifact(set->qemu_dir, IRQSTORM_MACHINE_QEMU_NAME, X_OK, error);
	if (!p->qemu_path)
		return FALSE;
	p->kernel_path = artifact(set->kernel_dir, kname, R_OK, error);
	if (!p->kernel_path)
		return FALSE;
	p->initrd_path = artifact(set->initrd_dir, iname, R_OK, error);
	if (!p->initrd_path || !irqstorm_run_check_kernel(set, error))
		return FALSE;
	if (g_mkdir_with_parents(set->out_dir, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", set->out_dir, g_strerror(errno));
		return FALSE;
	}
	p->priv_dir = g_dir_make_tmp("irqstorm-XXXXXX", error);	/* mode 0700 */
	if (!p->priv_dir)
		return FALSE;
	p->log_path = g_build_filename(p->priv_dir, "log", NULL);
	p->qmp_path = g_build_filename(p->priv_dir, "qmp.sock", NULL);
	p->conf_path = g_build_filename(p->priv_dir, "guest.conf", NULL);
	p->held_path = g_build_filename(p->priv_dir, "held-irqs.log", NULL);
	p->console_path = irqstorm_run_path(set->out_dir, IRQSTORM_FILE_CONSOLE);
	p->stderr_path = irqstorm_run_path(set->out_dir, IRQSTORM_FILE_QEMU_LOG);

	fd = irqstorm_create_private_file(p->log_path, error);
	if (fd < 0)
		return FALSE;
	if (ftruncate(fd, (off_t)sc->log_mb << 20) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot size %s: %s", p->log_path, g_strerror(errno));
		close(fd);
		return FALSE;
	}
	close(fd);
	fd = irqstorm_create_private_file(p->conf_path, error);
	if (fd < 0)
		return FALSE;
	if (write(fd, conf, strlen(conf)) != (ssize_t)strlen(conf)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_IO,
			    "cannot write %s", p->conf_path);
		close(fd);
		return FALSE;
	}
	close(fd);

	p->m = (IrqstormMachinePaths) {
		.qemu = p->qemu_path, .kernel = p->kernel_path,
		.initrd = p->initrd_path, .log_path = p->log_path,
		.qmp_path = p->qmp_path, .console_path = p->console_path,
		.guest_conf_path = p->conf_path, .held_irqs_path = p->held_path,
	};
	return TRUE;
}

/* ---- main loop callbacks -------------------------------------------- */

static void loop_stop(RunLoop *rl, const char *reason)
{
	if (!rl->out->stop_reason && reason)
		rl->out->stop_reason = g_strdup(reason);
	g_main_loop_quit(rl->loop);
}

/*
 * A live line on a terminal, a plain line every 5 s otherwise: virtual time
 * of the storm so far out of its duration, wall time, interrupt records per
 * wall second, lost records, the worst latency of each stage so far.
 */
static void print_progress(RunLoop *rl, gint64 now)
{
	const IrqstormCollected *d = irqstorm_collector_peek(rl->collector);
	guint64 n = __atomic_load_n(&d->progress_records, __ATOMIC_RELAXED);
	guint64 vns = __atomic_load_n(&d->progress_virtual_ns, __ATOMIC_RELAXED);
	guint64 lost = __atomic_load_n(&d->progress_lost, __ATOMIC_RELAXED);
	double since = (now - rl->last_progress_us) / 1e6;
	double rate = rl->last_progress_us && since > 0 ?
		      (n - rl->last_progress_records) / since : 0;

	if (rl->set->quiet)
		return;
	if (!rl->tty && now - rl->last_progress_us < 5 * G_USEC_PER_SEC)
		return;
	if (!n && !vns) {
		/* No record yet: the guest is still on its way to the storm. */
		fprintf(stderr, "%s[wall %.1f s] booting the guest: kernel, driver, "
			"init (the storm and its virtual clock start after)%s",
			rl->tty ? "\r" : "", (now - rl->start_us) / 1e6,
			rl->tty ? "   " : "\n");
		rl->last_progress_us = now;
		return;
	}
	fprintf(stderr, "%s[virtual %.2f/%.2f s, wall %.1f s] %" G_GUINT64_FORMAT
		" records (%.0f/s), %" G_GUINT64_FORMAT " lost",
		rl->tty ? "\r" : "", vns / 1e9, rl->set->scenario->duration_ms / 1e3,
		(now - rl->start_us) / 1e6, n, rate, lost);
	for (guint st = 0, first = 1; st < IRQSTORM_STAGE_COUNT; st++) {
		guint64 max = __atomic_load_n(&d->progress_max_ns[st], __ATOMIC_RELAXED);

		if (max)
			fprintf(stderr, "%s %s %.1f", first ? ", max us:" : "",
				irqstorm_stage_name(st), max / 1e3);
		first &= !max;
	}
	fputs(rl->tty ? "   " : "\n", stderr);
	rl->last_progress_us = now;
	rl->last_progress_records = n;
}

/* If QEMU has exited, end the loop saying how; TRUE if it had. */
static gboolean stop_if_exited(RunLoop *rl, guint wait_ms)
{
	g_autofree char *how = NULL;
	g_autofree char *why = NULL;

	if (!irqstorm_child_reap(&rl->child, wait_ms))
		return FALSE;
	how = irqstorm_child_describe_exit(&rl->child);
	why = g_strdup_printf("QEMU %s before the guest finished", how);
	loop_stop(rl, why);
	return TRUE;
}

/*
 * Send each [changes] entry whose time the storm has passed, as seen in the
 * records read so far (so it lands a little later in virtual time: the
 * record is recorded in the results).
 */
static void apply_due_changes(RunLoop *rl)
{
	const GArray *changes = rl->set->scenario->changes;
	const IrqstormCollected *d = irqstorm_collector_peek(rl->collector);
	guint64 vns = __atomic_load_n(&d->progress_virtual_ns, __ATOMIC_RELAXED);

	while (rl->out->changes->len < changes->len) {
		const IrqstormChange *c = &g_array_index(changes, IrqstormChange,
							 rl->out->changes->len);
		IrqstormAppliedChange a = { .change = c, .applied_at_s = vns / 1e9 };
		g_autoptr(JsonBuilder) b = NULL;
		g_autoptr(JsonNode) args = NULL;
		g_autoptr(GError) err = NULL;
		JsonNode *r;

		if (vns < c->at_ns)
			return;
		b = json_builder_new();
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "path");
		json_builder_add_string_value(b, IRQSTORM_DEVICE_QOM_PATH);
		json_builder_set_member_name(b, "property");
		json_builder_add_string_value(b, c->qom_property);
		json_builder_set_member_name(b, "value");
		json_builder_add_value(b, json_from_string(c->qom_json, NULL));
		json_builder_end_object(b);
		args = json_builder_get_root(b);
		r = irqstorm_qmp_execute(rl->qmp, "qom-set", json_node_get_object(args),
					 QMP_COMMAND_MS, &err);
		if (r)
			json_node_unref(r);
		else
			a.error = g_strdup(err->message);
		g_array_append_val(rl->out->changes, a);
	}
}

/*
 * A Linux kernel prints on its console within a second or two of wall time
 * even under TCG on a loaded host; one silent past [run] boot_timeout never
 * ran (a KVM that starts QEMU but cannot run the guest, a kernel that is not
 * bootable): no need to wait for [run] timeout to say so.
 */
static gboolean kernel_never_spoke(RunLoop *rl, gint64 now)
{
	GStatBuf st;

	if (rl->kernel_spoke)
		return FALSE;
	if (g_stat(rl->out->console_path, &st) == 0 && st.st_size > 0) {
		rl->kernel_spoke = TRUE;
		return FALSE;
	}
	return now >= rl->boot_deadline_us;
}

/* The kernel said nothing in time: KVM that runs nothing, a kernel that
 * does not boot, or a starved QEMU (its schedstat's numbers, when it waited:
 * they cannot tell which, so they are said beside the question). */
static void stop_silent_kernel(RunLoop *rl)
{
	g_autofree char *starved = NULL, *why = NULL;
	const IrqstormChild *c = &rl->child;

	if (!rl->out->kvm && c->sched_known)
		irqstorm_sched_starved(c->sched_run_seconds, c->sched_wait_seconds, &starved);
	why = g_strdup_printf(
		"the guest's kernel printed nothing on its console within %u s of "
		"wall time ([run] boot_timeout)%s%s%s", rl->set->scenario->boot_timeout_s,
		rl->out->kvm ? ": it ran under KVM, which started QEMU but did not "
		"run the kernel (a nested KVM may not run Linux guests); use accel = tcg" :
		": is the kernel bootable, or the host so loaded that it needs longer?",
		starved ? " The host was loaded: " : "", starved ?: "");

	rl->out->kernel_silent = TRUE;
	loop_stop(rl, why);
}

static gboolean on_tick(gpointer user)
{
	RunLoop *rl = user;
	gint64 now = g_get_monotonic_time();

	if (stop_if_exited(rl, 0))
		return G_SOURCE_REMOVE;
	irqstorm_child_sample_sched(&rl->child);
	apply_due_changes(rl);
	if (kernel_never_spoke(rl, now)) {
		stop_silent_kernel(rl);
		return G_SOURCE_REMOVE;
	}
	if (now >= rl->deadline_us) {
		g_autofree char *why = g_strdup_printf(
			"the guest did not finish within %u s of wall time "
			"([run] timeout)", rl->set->scenario->timeout_s);
		loop_stop(rl, why);
		return G_SOURCE_REMOVE;
	}
	print_progress(rl, now);
	return G_SOURCE_CONTINUE;
}

static gboolean on_qmp(gint fd, GIOCondition cond, gpointer user)
{
	RunLoop *rl = user;
	g_autoptr(GError) err = NULL;
	JsonObject *ev;

	if (!irqstorm_qmp_poll_events(rl->qmp, &err)) {
		/* Usually QEMU died: then say how rather than "socket closed". */
		if (!stop_if_exited(rl, 1000))
			loop_stop(rl, err->message);
		return G_SOURCE_REMOVE;
	}
	while ((ev = irqstorm_qmp_pop_event(rl->qmp))) {
		const char *name = json_object_get_string_member_with_default(ev, "event", "");

		if (!g_strcmp0(name, "SHUTDOWN")) {
			JsonObject *data = json_object_get_object_member(ev, "data");

			rl->out->guest_shutdown = TRUE;
			rl->out->shutdown_reason = g_strdup(data ?
				json_object_get_string_member_with_default(data, "reason", "") : "");
			loop_stop(rl, NULL);
		} else if (!g_strcmp0(name, "STOP") && rl->set->stop_notice &&
			   !rl->out->guest_shutdown && !rl->stop_noticed) {
			fprintf(stderr, "%s\n", rl->set->stop_notice);
			rl->stop_noticed = TRUE;
		}
		json_object_unref(ev);
	}
	return G_SOURCE_CONTINUE;
}

static gboolean on_signal(gpointer user)
{
	loop_stop(user, "interrupted by a signal (SIGINT/SIGTERM/SIGHUP)");
	return G_SOURCE_CONTINUE;
}

/* ---- phases ---------------------------------------------------------- */

/* Read every device counter; a failure is recorded, not fatal. */
static void read_device_counters(RunLoop *rl)
{
	g_autoptr(GError) err = NULL;

	rl->out->have_counters = irqstorm_counters_read(rl->qmp,
		IRQSTORM_DEVICE_QOM_PATH, QMP_COMMAND_MS, &rl->out->device, &err);
	if (!rl->out->have_counters)
		rl->out->counters_error = g_strdup(err->message);
}

/* Ask QEMU to quit, give it a moment, then make sure: kill the group. */
static void stop_qemu(RunLoop *rl)
{
	if (rl->qmp && !rl->child.exited) {
		g_autoptr(GError) err = NULL;
		JsonNode *r = irqstorm_qmp_execute(rl->qmp, "quit", NULL,
						   QMP_COMMAND_MS, &err);

		if (r)
			json_node_unref(r);
		irqstorm_child_reap(&rl->child, QUIT_GRACE_MS);
	}
	irqstorm_child_kill(&rl->child);
}

/* IrqstormQmpEndedFunc for our QEMU: how it ended, if it has. */
static char *qemu_ended(gpointer data, guint wait_ms)
{
	IrqstormChild *child = data;

	if (!irqstorm_child_reap(child, wait_ms))
		return NULL;
	return irqstorm_child_describe_exit(child);
}

/*
 * Connect to QEMU's QMP socket (qmp.h: bounded, and ended at once if QEMU
 * exits first). Every failure points to QEMU's own output.
 */
static IrqstormQmp *connect_qmp(RunLoop *rl, RunPaths *p, GError **error)
{
	const IrqstormQmpConnectOptions how = {
		.accept_ms = IRQSTORM_QMP_ACCEPT_MS,
		.handshake_ms = IRQSTORM_QMP_HANDSHAKE_MS,
		.ended = qemu_ended,
		.ended_data = &rl->child,
	};
	g_autoptr(GError) err = NULL;
	IrqstormQmp *q = irqstorm_qmp_connect(p->qmp_path, &how, &err);

	if (q)
		return q;
	g_set_error(error, err->domain, err->code, "%s%s; its output is in %s",
		    g_error_matches(err, IRQSTORM_QMP_ERROR,
				    IRQSTORM_QMP_ERROR_EXITED) ?
		    "" : "QEMU did not start: ", err->message, p->stderr_path);
	return NULL;
}

/* argv with extra appended (argv is consumed). */
static GStrv with_extra_args(GStrv argv, const char *const *extra)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	g_strv_builder_addv(b, (const char **)argv);
	if (extra)
		g_strv_builder_addv(b, (const char **)extra);
	g_strfreev(argv);
	return g_strv_builder_end(b);
}

/* Which accelerator QEMU chose (auto leaves it to QEMU): query-kvm. */
static void query_accel(RunLoop *rl)
{
	g_autoptr(GError) err = NULL;
	JsonNode *r = irqstorm_qmp_execute(rl->qmp, "query-kvm", NULL,
					   QMP_COMMAND_MS, &err);
	JsonObject *o = r && JSON_NODE_HOLDS_OBJECT(r) ? json_node_get_object(r) : NULL;

	if (o && json_object_has_member(o, "enabled")) {
		rl->out->accel_known = TRUE;
		rl->out->kvm = json_object_get_boolean_member(o, "enabled");
	}
	if (r)
		json_node_unref(r);
}

/* Start QEMU, connect, start the collector, let the guest go. */
static gboolean run_start(RunLoop *rl, RunPaths *p, IrqstormLog **log,
			  FILE *csv, GError **error)
{
	const IrqstormScenario *sc = rl->set->scenario;
	g_auto(GStrv) argv = with_extra_args(irqstorm_machine_argv(sc, &p->m),
					     rl->set->qemu_args);
	g_autofree char *cmdline = irqstorm_argv_to_shell((const char *const *)argv);
	g_autofree char *cmd_file = irqstorm_run_path(rl->set->out_dir,
						      IRQSTORM_FILE_QEMU_CMDLINE);
	g_autofree char *cmd_text = g_strconcat(cmdline, "\n", NULL);
	JsonNode *r;
	int out_fd;

	if (!irqstorm_write_file(cmd_file, cmd_text, -1, error))
		return FALSE;
	out_fd = irqstorm_create_output_file(p->stderr_path, error);
	if (out_fd < 0)
		return FALSE;
	if (!irqstorm_child_spawn(&rl->child, (const char *const *)argv, out_fd, error)) {
		close(out_fd);
		return FALSE;
	}
	close(out_fd);
	rl->qmp = connect_qmp(rl, p, error);
	if (!rl->qmp)
		return FALSE;
	/* The device wrote the log header when QEMU realized it, before QMP
	 * answered: no retry, a header that is not ready is a broken device. */
	*log = irqstorm_log_open(p->log_path, error);
	if (!*log)
		return FALSE;
	rl->collector = irqstorm_collector_start(*log, sc->bin_ns, sc->bins,
						 sc->warmup_ms * 1000000,
						 sc->duration_ms * 1000000, csv);
	query_accel(rl);
	r = irqstorm_qmp_execute(rl->qmp, "cont", NULL, QMP_COMMAND_MS, error);
	if (!r)
		return FALSE;
	json_node_unref(r);
	return TRUE;
}

/* Attach a source to the default context, keeping a reference. */
static GSource *attach(GSource *src, GSourceFunc fn, gpointer data)
{
	g_source_set_callback(src, fn, data, NULL);
	g_source_attach(src, NULL);
	return src;
}

/* Run the main loop until the guest is done or something ends it. */
static void run_loop(RunLoop *rl)
{
	GSource *src[] = {
		attach(g_timeout_source_new(rl->set->scenario->changes->len ?
					    CHANGE_TICK_MS : TICK_MS), on_tick, rl),
		attach(g_unix_fd_source_new(irqstorm_qmp_fd(rl->qmp),
					    G_IO_IN | G_IO_HUP | G_IO_ERR),
		       (GSourceFunc)(void (*)(void))on_qmp, rl),
		attach(g_unix_signal_source_new(SIGINT), on_signal, rl),
		attach(g_unix_signal_source_new(SIGTERM), on_signal, rl),
		attach(g_unix_signal_source_new(SIGHUP), on_signal, rl),
	};

	rl->tty = isatty(STDERR_FILENO);
	g_main_loop_run(rl->loop);
	for (gsize i = 0; i < G_N_ELEMENTS(src); i++) {
		g_source_destroy(src[i]);
		g_source_unref(src[i]);
	}
	if (rl->tty && !rl->set->quiet)
		fputc('\n', stderr);
}

/* Open records.csv (if asked) with its header line. */
static FILE *open_csv(const IrqstormRunSettings *set, GError **error)
{
	g_autofree char *path = NULL;
	FILE *f;
	int fd;

	if (!set->csv)
		return NULL;
	path = irqstorm_run_path(set->out_dir, IRQSTORM_FILE_RECORDS);
	fd = irqstorm_create_output_file(path, error);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot open %s: %s", path, g_strerror(errno));
		close(fd);
		return NULL;
	}
	irqstorm_records_write_header(f);
	return f;
}

/* Close records.csv; TRUE if any write to it ever failed. */
static gboolean csv_close_failed(FILE *csv)
{
	gboolean failed = ferror(csv) != 0;

	return (fclose(csv) != 0) || failed;
}

/* The last lines of a file that are not blank, at most TAIL_LINES from its
 * last TAIL_BYTES; NULL when there are none. */
static char **file_tail(const char *path)
{
	g_autoptr(GPtrArray) tail = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	char buf[TAIL_BYTES + 1];
	guint first = 0;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	if (fseek(f, -TAIL_BYTES, SEEK_END) == 0)
		first = 1;	/* its first line may be the end of one */
	else
		rewind(f);
	n = fread(buf, 1, TAIL_BYTES, f);
	fclose(f);
	buf[n] = '\0';
	text = g_utf8_make_valid(buf, n);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = g_strv_length(lines); i-- > first && tail->len < TAIL_LINES;)
		if (*g_strstrip(lines[i]))
			g_ptr_array_insert(tail, 0, g_strdup(lines[i]));
	if (!tail->len)
		return NULL;
	g_ptr_array_add(tail, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&tail), FALSE);
}

void irqstorm_run_outcome_free(IrqstormRunOutcome *out)
{
	if (!out)
		return;
	irqstorm_collected_free(out->data);
	g_free(out->counters_error);
	g_free(out->shutdown_reason);
	g_free(out->stop_reason);
	for (guint i = 0; i < out->changes->len; i++)
		g_free(g_array_index(out->changes, IrqstormAppliedChange, i).error);
	g_array_unref(out->changes);
	g_free(out->console_path);
	g_strfreev(out->qemu_log_tail);
	g_free(out->held_error);
	g_free(out);
}

/* Several vCPUs under the quantum: QEMU's trace of the interrupts it held,
 * once QEMU has exited (so has written it all). */
static void read_held(const IrqstormRunSettings *set, const RunPaths *paths,
		      IrqstormRunOutcome *out)
{
	g_autoptr(GError) err = NULL;

	if (!irqstorm_scenario_smp_windows(set->scenario))
		return;
	out->have_held = irqstorm_held_irqs_read(paths->held_path,
						 set->scenario->quantum_ns,
						 &out->held, &err);
	if (!out->have_held)
		out->held_error = g_strdup(err->message);
}

/* QEMU from start to end, and what became of it, into out. */
static void run_session(const IrqstormRunSettings *set, RunPaths *paths,
			FILE *csv, IrqstormRunOutcome *out)
{
	RunLoop rl = { .set = set, .out = out };
	g_autoptr(IrqstormLog) log = NULL;
	g_autoptr(GError) start_err = NULL;
	gboolean started;

	rl.loop = g_main_loop_new(NULL, FALSE);
	rl.start_us = g_get_monotonic_time();
	rl.deadline_us = rl.start_us + (gint64)set->scenario->timeout_s * G_USEC_PER_SEC;
	rl.boot_deadline_us = rl.start_us +
			      (gint64)set->scenario->boot_timeout_s * G_USEC_PER_SEC;
	started = run_start(&rl, paths, &log, csv, &start_err);
	if (started) {
		run_loop(&rl);
		if (out->guest_shutdown && !rl.child.exited)
			read_device_counters(&rl);
	} else {
		out->stop_reason = g_strdup(start_err->message);
	}
	out->wall_seconds = (g_get_monotonic_time() - rl.start_us) / 1e6;
	irqstorm_child_sample_sched(&rl.child);
	stop_qemu(&rl);
	/* QEMU did not start, died, or hung: what QEMU said last is what
	 * says why. */
	if (!out->guest_shutdown)
		out->qemu_log_tail = file_tail(paths->stderr_path);
	out->qemu_cpu_seconds = rl.child.cpu_seconds;
	out->qemu_sched_known = rl.child.sched_known;
	out->qemu_run_seconds = rl.child.sched_run_seconds;
	out->qemu_wait_seconds = rl.child.sched_wait_seconds;
	read_held(set, paths, out);
	if (rl.collector)
		out->data = irqstorm_collector_finish(rl.collector);
	/* A write that failed during the run (a full disk) left the error
	 * flag set; one that fails now shows in fclose(). */
	if (csv && csv_close_failed(csv) && !out->stop_reason)
		out->stop_reason = g_strdup("writing records.csv failed (is the disk "
					    "full?): the records are not all there");
	irqstorm_qmp_free(rl.qmp);
	g_main_loop_unref(rl.loop);
}

/* Does the qemu-identity in dir name the patch fix among its qemu-fixes? */
static gboolean qemu_has_fix(const char *dir, const char *fix)
{
	g_auto(GStrv) id = irqstorm_identity_read(dir, IRQSTORM_QEMU_IDENTITY_FILE);
	const char *list = irqstorm_identity_get(id, IRQSTORM_ID_QEMU_FIXES);
	g_auto(GStrv) fixes = list ? g_strsplit(list, " ", -1) : NULL;

	for (gsize f = 0; fixes && fixes[f]; f++)
		if (strstr(fixes[f], fix))
			return TRUE;
	return FALSE;
}

char *irqstorm_run_not_deterministic(const IrqstormRunSettings *set)
{
	const IrqstormScenario *sc = set->scenario;

	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF)
		return g_strdup("no icount");
	if (sc->cpus > 1 && !irqstorm_scenario_smp_windows(sc))
		return g_strdup_printf("icount on %u vCPUs with [machine] quantum_ns = 0: "
				       "cross-CPU latencies are artifacts", sc->cpus);
	if (sc->changes->len)
		return g_strdup("changes over QMP are not reproducible");
	if (!qemu_has_fix(set->qemu_dir, IRQSTORM_QEMU_ICOUNT_FIX))
		return g_strdup("a QEMU without the icount fix (the qemu-fixes of its "
				"qemu-identity do not list " IRQSTORM_QEMU_ICOUNT_FIX ")");
	if (irqstorm_scenario_smp_windows(sc) &&
	    !qemu_has_fix(set->qemu_dir, IRQSTORM_QEMU_QUANTUM_FIX))
		return g_strdup("a QEMU without the icount quantum (the qemu-fixes of its "
				"qemu-identity do not list " IRQSTORM_QEMU_QUANTUM_FIX ")");
	return NULL;
}

/* The builds' Debian inputs that are not scripts/debian-pins' versions,
 * "qemu: ...; kernel: ...", or "unknown" for a build that does not say
 * (made before the pins); NULL when all three are exact. */
char *irqstorm_run_pins_differ(const IrqstormRunSettings *set)
{
	const char *what[] = { "qemu", "kernel", "initramfs" };
	g_autofree char *kid = irqstorm_machine_kernel_file(set->scenario, "identity");
	g_autofree char *iid = irqstorm_machine_kernel_file(set->scenario,
							    "initramfs-identity");
	const char *dirs[] = { set->qemu_dir, set->kernel_dir, set->initrd_dir };
	const char *files[] = { IRQSTORM_QEMU_IDENTITY_FILE, kid, iid };
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < G_N_ELEMENTS(what); i++) {
		g_auto(GStrv) id = irqstorm_identity_read(dirs[i], files[i]);
		const char *pins = irqstorm_identity_get(id, IRQSTORM_ID_DEBIAN_PINS);

		if (!g_strcmp0(pins, "exact"))
			continue;
		g_string_append_printf(s, "%s%s: %s", s->len ? "; " : "", what[i],
				       pins ? pins : "unknown (its identity names no pins)");
	}
	return s->len ? g_strdup(s->str) : NULL;
}

const char *irqstorm_run_accel_used(const IrqstormRunOutcome *out,
				    const IrqstormScenario *sc)
{
	if (!out->accel_known)
		return irqstorm_accel_name(sc->accel);
	return irqstorm_accel_name(out->kvm ? IRQSTORM_ACCEL_KVM : IRQSTORM_ACCEL_TCG);
}

static IrqstormRunOutcome *outcome_new(const RunPaths *paths)
{
	IrqstormRunOutcome *out = g_new0(IrqstormRunOutcome, 1);

	out->changes = g_array_new(FALSE, TRUE, sizeof(IrqstormAppliedChange));
	out->console_path = g_strdup(paths->console_path);
	return out;
}

/*
 * accel = auto is "KVM when it works, else TCG": QEMU falls back when KVM
 * fails to initialise, but a KVM that initialises and then runs nothing
 * (a nested one) only shows as a silent kernel, and one that cannot set
 * up the vCPU kills QEMU before the guest prints anything (a nested KVM
 * refusing an MSR). Why to run again under TCG, or NULL not to.
 */
static const char *kvm_ran_nothing(const IrqstormRunOutcome *out, const RunPaths *paths)
{
	GStatBuf st;

	if (out->guest_shutdown)
		return NULL;
	if (out->kernel_silent && out->kvm)
		return "KVM started QEMU but the guest's kernel printed nothing";
	if (out->accel_known || g_access("/dev/kvm", R_OK | W_OK) < 0 ||
	    (g_stat(paths->console_path, &st) == 0 && st.st_size > 0))
		return NULL;
	return "QEMU died under KVM before the guest's kernel printed anything "
	       "(qemu.log has why)";
}

static IrqstormRunOutcome *run_again_under_tcg(const IrqstormRunSettings *set,
					       RunPaths *paths,
					       IrqstormRunOutcome *first,
					       const char *why, GError **error)
{
	IrqstormScenario tcg = *set->scenario;
	IrqstormRunSettings again = *set;
	IrqstormRunOutcome *out;
	double first_wall = first->wall_seconds;
	FILE *csv = NULL;

	tcg.accel = IRQSTORM_ACCEL_TCG;
	again.scenario = &tcg;
	fprintf(stderr, "irqstorm: accel = auto: %s (boot_timeout %u s); running it "
		"again under TCG\n", why, tcg.boot_timeout_s);
	irqstorm_run_outcome_free(first);
	g_unlink(paths->qmp_path);
	if (set->csv && !(csv = open_csv(set, error)))
		return NULL;
	out = outcome_new(paths);
	out->kvm_fell_back = TRUE;
	run_session(&again, paths, csv, out);
	out->wall_seconds += first_wall;	/* the run's, from its start */
	return out;
}

IrqstormRunOutcome *irqstorm_run(const IrqstormRunSettings *set, GError **error)
{
	g_auto(RunPaths) paths = { 0 };
	IrqstormRunOutcome *out;
	const char *why;
	FILE *csv = NULL;

	if (!run_prepare(set, &paths, error) ||
	    !irqstorm_marker_begin(set->out_dir, set->scenario, error))
		return NULL;
	if (set->csv && !(csv = open_csv(set, error)))
		return NULL;
	out = outcome_new(&paths);
	run_session(set, &paths, csv, out);
	if (set->scenario->accel == IRQSTORM_ACCEL_AUTO &&
	    (why = kvm_ran_nothing(out, &paths)))
		return run_again_under_tcg(set, &paths, out, why, error);
	return out;
}
