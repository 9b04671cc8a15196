// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm run and the command line around it, through the executable:
 * help in the user's characters and under the command's full name, the
 * options a message blames, a QEMU that cannot be used or that fails at
 * start (its own last lines on the terminal), the summary's first lines,
 * and when a run is called deterministic. A fake QEMU stands in: nothing
 * here boots a guest.
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "core/checks.h"
#include "core/launch.h"
#include "core/promises.h"
#include "core/report.h"
#include "core/results.h"
#include "core/run.h"
#include "core/runfiles.h"
#include "core/scenario.h"
#include "core/stages.h"
#include "core/summary-keys.h"
#include "core/summary-write.h"
#include "testutil.h"

#define FIX "0001-" IRQSTORM_QEMU_ICOUNT_FIX ".patch"
#define QUANTUM "0003-" IRQSTORM_QEMU_QUANTUM_FIX "-windows.patch"

/* `irqstorm run --help` in a UTF-8 locale: GLib's ellipsis, the full name. */
static void test_help_utf8(void)
{
	const char *const args[] = { "run", "--help", NULL };
	const char *const env[] = { "LC_ALL=C.UTF-8", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, env, &out, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(out, "Usage:\n  irqstorm run [OPTION\u2026] "
				       "SCENARIO - one run\n"));
}

/* In a locale without those characters: ASCII, not '?'. */
static void test_help_ascii(void)
{
	const char *const args[] = { "run", "--help", NULL };
	const char *const env[] = { "LC_ALL=C", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, env, &out, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(out, "Usage:\n  irqstorm run [OPTION...] "
				       "SCENARIO - one run\n"));
}

/* run's help names every file a run writes and every stage, with its
 * meaning, from the one table. */
static void test_help_contents(void)
{
	const char *const args[] = { "run", "--help", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	static const IrqstormRunFile files[] = {
		IRQSTORM_FILE_SUMMARY, IRQSTORM_FILE_RT_TESTS, IRQSTORM_FILE_RTLA,
		IRQSTORM_FILE_HISTOGRAM, IRQSTORM_FILE_RECORDS,
	};

	for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *line = g_strdup_printf("\n  %s ", irqstorm_run_file(files[i]));

		g_assert_nonnull(strstr(out, line));
	}
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		g_autofree char *line = g_strdup_printf("\n  %-8s %s\n", irqstorm_stage_name(st),
							irqstorm_stage_help(st));

		g_assert_nonnull(strstr(out, line));
	}
}

/* A usage error: the message, the usage line, where the rest is; not
 * every option under a one-line mistake. */
static void test_usage_error(void)
{
	const char *const none[] = { "run", NULL };
	const char *const bad[] = { "run", "--bogus", "x.ini", NULL };
	const char *const env[] = { "LC_ALL=C", NULL };
	g_autofree char *a = NULL, *b = NULL;

	g_assert_cmpint(tu_run(NULL, none, env, NULL, &a), ==, 1);
	g_assert_cmpstr(a, ==, "irqstorm: run needs exactly one SCENARIO file\n"
			"Usage:\n  irqstorm run [OPTION...] SCENARIO - one run\n"
			"See 'irqstorm run --help' for every option, with examples.\n");
	g_assert_cmpint(tu_run(NULL, bad, env, NULL, &b), ==, 1);
	g_assert_true(g_str_has_prefix(b, "irqstorm: Unknown option --bogus\nUsage:\n"));
	g_assert_null(strstr(b, "--replace"));
}

/* irqstorm help COMMAND is the command's help; help alone the global one. */
static void test_help_command(void)
{
	const char *const help_run[] = { "help", "run", NULL };
	const char *const run_help[] = { "run", "--help", NULL };
	const char *const help_matrix[] = { "help", "matrix", NULL };
	const char *const help_bogus[] = { "help", "bogus", NULL };
	const char *const help[] = { "help", NULL };
	g_autofree char *a = NULL, *b = NULL, *m = NULL, *err = NULL, *top = NULL;

	g_assert_cmpint(tu_run(NULL, help_run, NULL, &a, NULL), ==, 0);
	g_assert_cmpint(tu_run(NULL, run_help, NULL, &b, NULL), ==, 0);
	g_assert_cmpstr(a, ==, b);
	g_assert_cmpint(tu_run(NULL, help_matrix, NULL, &m, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(m, "Usage:\n  irqstorm matrix "));
	g_assert_cmpint(tu_run(NULL, help_bogus, NULL, NULL, &err), ==, 1);
	g_assert_true(g_str_has_prefix(err, "irqstorm: help: unknown command 'bogus'\n"));
	g_assert_cmpint(tu_run(NULL, help, NULL, &top, NULL), ==, 0);
	g_assert_true(g_str_has_prefix(top, "Usage: irqstorm COMMAND [OPTION...]\n"));
}

/* A scenario, and the directories a run takes its QEMU, kernel and
 * initramfs from. */
typedef struct {
	char *root;
	char *scenario;
	char *qemu_dir, *qemu, *identity;
	char *kernel_dir, *initrd_dir;
	char *out;
} Fixture;

static void fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = tu_make_dir();
	f->scenario = g_build_filename(f->root, "test.ini", NULL);
	f->qemu_dir = g_build_filename(f->root, "qemu", NULL);
	f->qemu = g_build_filename(f->qemu_dir, "qemu-system-x86_64", NULL);
	f->identity = g_build_filename(f->qemu_dir, "qemu-identity", NULL);
	f->kernel_dir = g_build_filename(f->root, "kernel", NULL);
	f->initrd_dir = g_build_filename(f->root, "initrd", NULL);
	f->out = g_build_filename(f->root, "out", NULL);
	tu_write(f->scenario, "[channel0]\nrate = 1000\n[run]\nduration = 0.5\n"
		 "[profile.fast]\nchannel0.rate = 5000\n");
	g_assert_cmpint(g_mkdir(f->qemu_dir, 0755), ==, 0);
	g_assert_cmpint(g_mkdir(f->kernel_dir, 0755), ==, 0);
	g_assert_cmpint(g_mkdir(f->initrd_dir, 0755), ==, 0);
	tu_write(f->qemu, "#!/bin/sh\n"
		 "echo 'qemu-system-x86_64: a warning first' >&2\n"
		 "echo 'qemu-system-x86_64: -accel kvm: failed to initialize kvm: "
		 "No such file or directory' >&2\n"
		 "exit 1\n");
	g_assert_cmpint(g_chmod(f->qemu, 0755), ==, 0);
	tu_write(f->identity, "qemu-debian-source=test\nqemu-fixes=" FIX "\n");
	{
		g_autofree char *k = g_build_filename(f->kernel_dir, "bzImage-rt", NULL);
		g_autofree char *i = g_build_filename(f->initrd_dir, "initramfs-rt.cpio.gz",
						      NULL);

		tu_write(k, "not a kernel");
		tu_write(i, "not an initramfs");
	}
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->root);
	g_free(f->root);
	g_free(f->scenario);
	g_free(f->qemu_dir);
	g_free(f->qemu);
	g_free(f->identity);
	g_free(f->kernel_dir);
	g_free(f->initrd_dir);
	g_free(f->out);
}

/* irqstorm run SCENARIO with the fixture's directories, then args. */
static int run(Fixture *f, const char *const *args, char **out, char **err)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, "run");
	g_ptr_array_add(argv, f->scenario);
	g_ptr_array_add(argv, "--out");
	g_ptr_array_add(argv, f->out);
	g_ptr_array_add(argv, "--qemu-dir");
	g_ptr_array_add(argv, f->qemu_dir);
	g_ptr_array_add(argv, "--kernel-dir");
	g_ptr_array_add(argv, f->kernel_dir);
	g_ptr_array_add(argv, "--initrd-dir");
	g_ptr_array_add(argv, f->initrd_dir);
	for (gsize i = 0; args && args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	return tu_run(NULL, (const char *const *)argv->pdata, NULL, out, err);
}

/* Each option a message is about is the one it names. */
static void test_option_messages(Fixture *f, gconstpointer data)
{
	const char *const duration[] = { "--duration", "-1", "--dry-run", NULL };
	const char *const accel[] = { "--accel", "kvm", "--set", "run.duration=1",
				      "--dry-run", NULL };
	g_autofree char *err = NULL, *err2 = NULL;

	g_assert_cmpint(run(f, duration, NULL, &err), ==, 1);
	g_assert_cmpstr(err, ==, "irqstorm: --duration: [run] duration = '-1': expected "
			"a number of seconds from 0.001 to 3600\n");
	g_assert_cmpint(run(f, accel, NULL, &err2), ==, 1);
	g_assert_true(g_str_has_prefix(err2, "irqstorm: --accel, --set: [machine] icount "
				       "needs accel = tcg: "));
}

/* An empty scenario file is refused, not run with every default. */
static void test_empty_scenario(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--dry-run", NULL };
	g_autofree char *err = NULL;
	g_autofree char *expected = g_strdup_printf("irqstorm: %s: no groups: the file "
		"is empty or only comments. For every default, say so with one group, "
		"e.g. [run]\n", f->scenario);

	tu_write(f->scenario, "");
	g_assert_cmpint(run(f, args, NULL, &err), ==, 1);
	g_assert_cmpstr(err, ==, expected);
}

/* A QEMU that is there but cannot be executed is not "not found". */
static void test_qemu_unusable(Fixture *f, gconstpointer data)
{
	g_autofree char *err = NULL, *err2 = NULL, *err3 = NULL;
	g_autofree char *expected = g_strdup_printf("irqstorm: cannot execute %s: "
		"Permission denied (check its mode, and that this user may enter "
		"each directory above it)\n", f->qemu);
	g_autofree char *gone = g_build_filename(f->root, "gone", NULL);

	g_assert_cmpint(g_chmod(f->qemu, 0644), ==, 0);
	g_assert_cmpint(run(f, NULL, NULL, &err), ==, 1);
	g_assert_cmpstr(err, ==, expected);
	/* Not built at all: say how to build it. */
	g_assert_cmpint(g_unlink(f->qemu), ==, 0);
	g_assert_cmpint(run(f, NULL, NULL, &err2), ==, 1);
	g_assert_nonnull(strstr(err2, "qemu-system-x86_64 not found: build it first"));
	/* A link into a build cache that is gone. */
	g_assert_cmpint(symlink(gone, f->qemu), ==, 0);
	g_assert_cmpint(run(f, NULL, NULL, &err3), ==, 1);
	g_assert_nonnull(strstr(err3, "qemu-system-x86_64 links to "));
	g_assert_nonnull(strstr(err3, "/gone, which does not exist: build it first"));
}

/* summary.json's "deterministic" of the run in f->out. */
static gboolean summary_deterministic(Fixture *f)
{
	g_autofree char *path = g_build_filename(f->out, "summary.json", NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	JsonObject *root;

	json_parser_load_from_file(parser, path, &err);
	g_assert_no_error(err);
	root = json_node_get_object(json_parser_get_root(parser));
	return json_object_get_boolean_member(
		json_object_get_object_member(root, "sysinfo"), "deterministic");
}

/*
 * QEMU fails at start: the summary names what ran (the file, profile,
 * kernel and overrides), why it is incomplete, and QEMU's last lines.
 */
static void test_qemu_fails(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--set", "run.profile=fast", "--duration", "0.25",
				     NULL };
	g_autofree char *out = NULL;
	g_autofree char *head = g_strdup_printf("irqstorm: INCOMPLETE run of %s, profile "
		"fast, rt kernel, with run.duration=0.25 (tcg, icount shift=3: 8 ns per "
		"guest instruction, a 125 MIPS CPU; deterministic) in ", f->scenario);

	g_assert_cmpint(run(f, args, &out, NULL), ==, 1);
	g_assert_true(g_str_has_prefix(out, head));
	g_assert_nonnull(strstr(out, "\n  incomplete: QEMU exited with status 1"));
	g_assert_nonnull(strstr(out, "\n  the end of qemu.log:\n"
				"    qemu-system-x86_64: a warning first\n"
				"    qemu-system-x86_64: -accel kvm: failed to initialize "
				"kvm: No such file or directory\n"));
	g_assert_true(summary_deterministic(f));
}

/*
 * With the kernel's identity IDENTITY, the run of ARGS is refused before
 * QEMU starts, its message holding each of NEEDLES (NULL-terminated), and
 * nothing written.
 */
static void assert_refused(Fixture *f, const char *identity, const char *const *args,
			   const char *const *needles)
{
	g_autofree char *id = g_build_filename(f->kernel_dir, "kernel-rt-identity", NULL);
	g_autofree char *err = NULL;

	tu_write(id, identity);
	if (g_file_test(f->out, G_FILE_TEST_EXISTS))
		tu_rmtree(f->out);
	g_assert_cmpint(run(f, args, NULL, &err), ==, 1);
	for (guint i = 0; needles[i]; i++)
		g_assert_nonnull(strstr(err, needles[i]));
	g_assert_false(g_file_test(f->out, G_FILE_TEST_EXISTS));
}

/* With the kernel's identity IDENTITY, ARGS boot (the fake QEMU fails). */
static void assert_boots(Fixture *f, const char *identity, const char *const *args)
{
	g_autofree char *id = g_build_filename(f->kernel_dir, "kernel-rt-identity", NULL);
	g_autofree char *out = NULL;

	tu_write(id, identity);
	if (g_file_test(f->out, G_FILE_TEST_EXISTS))
		tu_rmtree(f->out);
	g_assert_cmpint(run(f, args, &out, NULL), ==, 1);
	g_assert_nonnull(strstr(out, "incomplete: QEMU exited with status 1"));
}

#define K73 "kernel-debian-source=linux-source-7.3 7.3.4-1~bpo13+1\n"
#define K612 "kernel-debian-source=linux-source-6.12 6.12.118-1~deb12u1\n"

/*
 * A preempt= the kernel does not take (kernel-preempt-modes of its
 * identity) is refused before QEMU starts, naming the modes it has or
 * that it has none; one it takes boots.
 */
static void test_preempt_modes(Fixture *f, gconstpointer data)
{
	const char *const lazy[] = { "--set", "kernel.cmdline=quiet preempt=lazy", NULL };
	const char *const vol[] = { "--set", "kernel.cmdline=preempt=voluntary", NULL };

	assert_refused(f, K73 "kernel-preempt-modes=full,lazy\n", vol, (const char *[]){
		"[kernel] cmdline has preempt=voluntary, but the rt kernel "
		"(linux-source-7.3 7.3.4-1~bpo13+1) takes only preempt=full,lazy", NULL });
	assert_boots(f, K73 "kernel-preempt-modes=full,lazy\n", lazy);
	assert_refused(f, K612 "kernel-preempt-modes=\n", lazy, (const char *[]){
		"has no dynamic preemption (no PREEMPT_DYNAMIC), so no preempt= at all", NULL });
}

/*
 * thread_cpu on a kernel whose IRQ threads follow their interrupt
 * (kernel-irq-thread-affinity=interrupt) is refused before QEMU starts;
 * on one where user space moves them, it boots.
 */
static void test_thread_cpu(Fixture *f, gconstpointer data)
{
	const char *const cpu[] = { "--set", "channel0.thread_cpu=0", NULL };

	assert_refused(f, K73 "kernel-irq-thread-affinity=interrupt\n", cpu, (const char *[]){
		"[channel0] thread_cpu = 0, but the rt kernel (linux-source-7.3 "
		"7.3.4-1~bpo13+1) binds IRQ threads to their interrupt's affinity "
		"(PF_NO_SETAFFINITY)", "[guest] irq_cpu", NULL });
	assert_boots(f, K612 "kernel-irq-thread-affinity=user\n", cpu);
}

/*
 * More vCPUs than the kernel boots (kernel-nr-cpus, its NR_CPUS) are
 * refused before QEMU starts; as many boot, and so does an identity that
 * does not say.
 */
static void test_nr_cpus(Fixture *f, gconstpointer data)
{
	const char *const four[] = { "--set", "machine.cpus=4", NULL };
	const char *const two[] = { "--set", "machine.cpus=2", NULL };

	assert_refused(f, K612 "kernel-nr-cpus=2\n", four, (const char *[]){
		"[machine] cpus = 4, but the rt kernel (linux-source-6.12 "
		"6.12.118-1~deb12u1) is built with NR_CPUS=2: it would bring up 2 "
		"and ignore the rest", NULL });
	assert_boots(f, K612 "kernel-nr-cpus=2\n", two);
	assert_boots(f, K612, four);
}

/*
 * Deterministic needs the configuration and a QEMU with the icount fix:
 * one whose identity does not name it (an older build, or Debian's QEMU
 * through --qemu-dir) is not called so, in summary.json or the summary.
 */
static void test_deterministic(Fixture *f, gconstpointer data)
{
	const char *const none[] = { NULL };
	const char *const no_icount[] = { "--icount", "off", NULL };
	g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL;

	g_assert_cmpint(run(f, none, &out, NULL), ==, 1);
	g_assert_nonnull(strstr(out, "(tcg, icount shift=3: 8 ns per guest instruction, a 125 MIPS CPU; deterministic)"));
	g_assert_true(summary_deterministic(f));

	tu_write(f->identity, "qemu-debian-source=test\nirqstorm-device=x\n");
	g_assert_cmpint(run(f, none, &out2, NULL), ==, 1);
	g_assert_nonnull(strstr(out2, "(tcg, icount shift=3: 8 ns per guest instruction, not deterministic: a QEMU "
				"without the icount fix (the qemu-fixes of its "
				"qemu-identity do not list " IRQSTORM_QEMU_ICOUNT_FIX "))"));
	g_assert_false(summary_deterministic(f));

	tu_write(f->identity, "qemu-fixes=" FIX "\n");
	g_assert_cmpint(run(f, no_icount, &out3, NULL), ==, 1);
	g_assert_nonnull(strstr(out3, "(tcg, no icount: not deterministic)"));
	g_assert_false(summary_deterministic(f));
}

/*
 * Two vCPUs under icount are exact with the quantum (the default), and only
 * with a QEMU whose identity names it; without the quantum they are flagged.
 */
static void test_deterministic_smp(Fixture *f, gconstpointer data)
{
	const char *const quantum[] = { "--set", "machine.cpus=2", NULL };
	const char *const flagged[] = { "--set", "machine.cpus=2", "--set",
					"machine.quantum_ns=0", "--set",
					"machine.allow_smp_icount=true", NULL };
	g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL;

	g_assert_cmpint(run(f, quantum, &out, NULL), ==, 1);
	g_assert_nonnull(strstr(out, "not deterministic: a QEMU without the icount quantum "
				"(the qemu-fixes of its qemu-identity do not list "
				IRQSTORM_QEMU_QUANTUM_FIX ")"));
	g_assert_false(summary_deterministic(f));

	tu_write(f->identity, "qemu-fixes=" FIX " " QUANTUM "\n");
	g_assert_cmpint(run(f, quantum, &out2, NULL), ==, 1);
	g_assert_nonnull(strstr(out2, "; deterministic)"));
	g_assert_true(summary_deterministic(f));

	g_assert_cmpint(run(f, flagged, &out3, NULL), ==, 1);
	g_assert_nonnull(strstr(out3, "not deterministic: icount on 2 vCPUs with "
				"[machine] quantum_ns = 0"));
	g_assert_false(summary_deterministic(f));
}

/* A collection with no records: empty histograms for every stage. */
static IrqstormCollected *no_records(void)
{
	IrqstormCollected *d = g_new0(IrqstormCollected, 1);

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		d->all.hist[st] = irqstorm_hist_new(1000, 10);
		for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
			d->ch[n].hist[st] = irqstorm_hist_new(1000, 10);
	}
	return d;
}

/*
 * The printed summary of a run whose console is console (or none), and
 * its summary.json into *json unless json is NULL.
 */
static char *summary_of(const char *console, JsonNode **json)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data("s.ini",
		"[guest]\nirq_mode = msi\n", &err);
	IrqstormRunSettings set = { .scenario = sc, .out_dir = "OUT", .qemu_dir = "/none" };
	IrqstormRunOutcome *o = g_new0(IrqstormRunOutcome, 1);
	g_autoptr(IrqstormResults) res = NULL;
	g_autofree char *path = NULL;
	char *text = NULL;
	size_t len;
	FILE *mem;

	g_assert_no_error(err);
	o->changes = g_array_new(FALSE, TRUE, sizeof(IrqstormAppliedChange));
	o->data = no_records();
	o->stop_reason = g_strdup("the guest did not finish");
	if (console) {
		g_autofree char *dir = tu_make_dir();

		path = g_build_filename(dir, "console.log", NULL);
		tu_write(path, console);
		o->console_path = g_strdup(path);
	}
	res = irqstorm_results_evaluate(&set, o);
	if (json)
		*json = irqstorm_summary_build(res, 0);
	mem = open_memstream(&text, &len);
	irqstorm_results_print(res, mem);
	fclose(mem);
	if (path) {
		g_autofree char *dir = g_path_get_dirname(path);

		tu_rmtree(dir);
	}
	return text;
}

static char *summary_text(const char *console)
{
	return summary_of(console, NULL);
}

/*
 * softirqs=NAME:N0:N1,... becomes an object of per-CPU lists, "-" an empty
 * one; ksoftirqd a list, even of one CPU.
 */
static void test_guest_softirqs(void)
{
	g_autoptr(JsonNode) one = NULL;
	g_autoptr(JsonNode) none = NULL;
	g_autofree char *j1 = NULL;
	g_autofree char *j2 = NULL;

	/* Only the JSON matters here: the printout is freed at once. */
	g_free(summary_of("IRQSTORM-RESULT status=ok softirqs=TIMER:3:1,TASKLET:5:0 "
			  "ksoftirqd=2\n", &one));
	g_free(summary_of("IRQSTORM-RESULT status=ok softirqs=- ksoftirqd=0,4\n", &none));
	j1 = json_to_string(json_object_get_member(json_object_get_object_member(
		json_node_get_object(one), "counts"), "guest"), FALSE);
	j2 = json_to_string(json_object_get_member(json_object_get_object_member(
		json_node_get_object(none), "counts"), "guest"), FALSE);

	g_assert_nonnull(strstr(j1, "\"softirqs\":{\"TIMER\":[3,1],\"TASKLET\":[5,0]}"));
	g_assert_nonnull(strstr(j1, "\"ksoftirqd\":[2]"));
	g_assert_nonnull(strstr(j2, "\"softirqs\":{}"));
	g_assert_nonnull(strstr(j2, "\"ksoftirqd\":[0,4]"));
}

/* "guest interrupts" says what is known, never "?". */
static void test_guest_interrupts(void)
{
	g_autofree char *none = summary_text(NULL);
	g_autofree char *unsaid = summary_text("IRQSTORM-RESULT status=ok\n");
	g_autofree char *said = summary_text("IRQSTORM-RESULT status=ok irq_mode=msi\n");

	g_assert_nonnull(strstr(none, "\n  host: 0 records read, 0 lost; guest interrupts: "
				"not reported (msi asked; the guest sent no result line)\n"));
	g_assert_nonnull(strstr(unsaid, "; guest interrupts: not reported (msi asked; "
				"the guest did not say which it used)\n"));
	g_assert_nonnull(strstr(said, "; guest interrupts: msi\n"));
}

/*
 * The kernel's reports in the printout and summary.json; one not expected
 * fails even this run, which did not finish ("the guest did not finish").
 */
static void test_kernel_reports(void)
{
	g_autoptr(JsonNode) json = NULL;
	g_autofree char *text = summary_of(
		"[    2.7] WARNING: CPU: 0 PID: 1 at kernel/irq/manage.c:1914 free_irq+0x2f/0x60\n"
		"[    2.7] Call Trace:\n"
		"[    2.7]  <TASK>\n"
		"[    2.7]  irqstorm_remove+0x2a/0x90 [irqstorm]\n"
		"[    2.7]  </TASK>\n"
		"[    2.8] genirq: Flags mismatch irq 21. 00002080 (irqstorm1) vs. 00210080 (irqstorm0)\n",
		&json);
	g_autofree char *failures = NULL, *reports = NULL;
	JsonObject *o = json_node_get_object(json);

	g_assert_nonnull(strstr(text, "\n  kernel FAULT warning: WARNING: CPU: 0 PID: 1 at "
				"kernel/irq/manage.c:1914 free_irq+0x2f/0x60\n"
				"    call trace: irqstorm_remove+0x2a/0x90 [irqstorm]\n"
				"  kernel: genirq: Flags mismatch irq 21."));
	g_assert_nonnull(strstr(text, "\n  KERNEL FAILED THE RUN: warning: WARNING: CPU: 0"));
	failures = json_to_string(json_object_get_member(o, IRQSTORM_KEY_KERNEL_FAILURES), FALSE);
	reports = json_to_string(json_object_get_member(o, "kernel_reports"), FALSE);
	g_assert_true(g_str_has_prefix(failures, "[\"warning: WARNING: CPU: 0 PID: 1 at "));
	g_assert_nonnull(strstr(reports, "\"kind\":\"warning\",\"fault\":true,"
				"\"expected\":false,"));
	g_assert_nonnull(strstr(reports, "\"kind\":\"flags-mismatch\",\"fault\":false,"));
}

/*
 * The checks of a complete run of ini that saw nothing (zero counts), the
 * guest's console console; the device ended its storm (a livelock) when
 * ended, and QEMU's threads ran run_s and waited wait_s for a host CPU.
 */
static IrqstormChecks *judge_complete(const char *ini, const char *console, gboolean ended,
				      double run_s, double wait_s)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data("s.ini", ini, &err);
	g_autofree char *dir = tu_make_dir();
	g_autofree char *path = g_build_filename(dir, "console.log", NULL);
	g_autoptr(IrqstormConsole) con = NULL;
	IrqstormRunOutcome *o = g_new0(IrqstormRunOutcome, 1);
	IrqstormChecks *c;

	g_assert_no_error(err);
	tu_write(path, console);
	con = irqstorm_console_read(path);
	o->changes = g_array_new(FALSE, TRUE, sizeof(IrqstormAppliedChange));
	o->data = no_records();
	o->guest_shutdown = TRUE;
	o->have_counters = TRUE;
	o->device.storm_device_end = ended;
	o->qemu_sched_known = TRUE;
	o->qemu_run_seconds = run_s;
	o->qemu_wait_seconds = wait_s;
	c = irqstorm_checks_run(sc, o, con);
	irqstorm_run_outcome_free(o);
	tu_rmtree(dir);
	return c;
}

/*
 * A child's threads' schedstat is read while it runs (a busy child ran),
 * and not once it has exited; starvation is a share of run plus wait.
 */
static void test_child_sched(void)
{
	const char *const argv[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do "
				     "i=$((i+1)); done; sleep 5", NULL };
	g_autoptr(GError) err = NULL;
	g_autofree char *why = NULL;
	IrqstormChild c;
	gint64 until = g_get_monotonic_time() + 30 * G_USEC_PER_SEC;

	g_assert_true(irqstorm_child_spawn(&c, argv, -1, &err));
	g_assert_no_error(err);
	/* Until the loop has run a while: its CPU time shows. */
	while (irqstorm_child_sample_sched(&c) && c.sched_run_seconds < 0.005 &&
	       g_get_monotonic_time() < until)
		g_usleep(10000);
	g_assert_true(c.sched_known);
	g_assert_cmpfloat(c.sched_run_seconds, >=, 0.005);
	g_assert_cmpfloat(c.sched_wait_seconds, >=, 0);
	irqstorm_child_kill(&c);
	g_assert_false(irqstorm_child_sample_sched(&c));
	g_assert_false(irqstorm_sched_starved(9.0, 0.99, NULL));
	g_assert_false(irqstorm_sched_starved(0, 0, NULL));
	g_assert_true(irqstorm_sched_starved(9.0, 1.0, &why));
	g_assert_cmpstr(why, ==, "QEMU's threads waited 1.00 s for a host CPU, 10% of their "
			"10.00 s (schedstat; the bound is 10%)");
}

#define QUIET_GUEST "IRQSTORM-RESULT status=ok handled=0,0,0,0\n"

/*
 * A livelock is a stall. Without icount on a host that kept QEMU waiting,
 * the stall says the host may be the culprit, with the numbers.
 */
static void test_livelock_culprit(void)
{
	const char *off = "[machine]\nicount = off\n";
	g_autoptr(IrqstormChecks) icount = judge_complete("[run]\n", QUIET_GUEST, TRUE, 1.0, 3.0);
	g_autoptr(IrqstormChecks) fed = judge_complete(off, QUIET_GUEST, TRUE, 10.0, 0.5);
	g_autoptr(IrqstormChecks) starved = judge_complete(off, QUIET_GUEST, TRUE, 4.0, 4.0);
	g_autoptr(IrqstormChecks) calm = judge_complete(off, QUIET_GUEST, FALSE, 4.0, 4.0);

	g_assert_true(icount->complete);
	g_assert_cmpint(icount->verdict, ==, IRQSTORM_VERDICT_STALL);
	g_assert_cmpint(fed->verdict, ==, IRQSTORM_VERDICT_STALL);
	g_assert_true(g_str_has_prefix(fed->stalls->pdata[0], "livelock: "));
	g_assert_false(strstr(fed->stalls->pdata[0], "schedstat"));
	g_assert_false(strstr(icount->stalls->pdata[0], "schedstat"));
	g_assert_cmpint(starved->verdict, ==, IRQSTORM_VERDICT_STALL);
	g_assert_cmpuint(starved->failed_checks->len, ==, 0);
	g_assert_true(g_str_has_prefix(starved->stalls->pdata[0],
				       "livelock: the guest did not stop the storm"));
	g_assert_nonnull(strstr(starved->stalls->pdata[0],
				"QEMU's threads waited 4.00 s for a host CPU, 50% of their "
				"8.00 s (schedstat; the bound is 10%): a starved QEMU"));
	g_assert_cmpint(calm->verdict, ==, IRQSTORM_VERDICT_PASSED);
}

/*
 * The kernel's verdict on a complete run: an expected report is no fault,
 * and a kind expected that never came is; an unexpected one wins over a
 * stall.
 */
static void test_kernel_expect(void)
{
	const char *nobody = "[    2.5] irq 21: nobody cared (try booting with the "
			     "\"irqpoll\" option)\n[    2.6] Disabling IRQ #21\n" QUIET_GUEST;
	const char *expect = "[run]\nkernel_expect = nobody-cared\n";
	g_autoptr(IrqstormChecks) as_expected = judge_complete(expect, nobody, FALSE, 1, 0);
	g_autoptr(IrqstormChecks) missing = judge_complete(expect, QUIET_GUEST, FALSE, 1, 0);
	g_autoptr(IrqstormChecks) unexpected = judge_complete("[run]\n", nobody, FALSE, 1, 0);

	g_assert_cmpint(as_expected->verdict, ==, IRQSTORM_VERDICT_STALL);
	g_assert_cmpuint(as_expected->kernel->len, ==, 0);
	g_assert_cmpint(missing->verdict, ==, IRQSTORM_VERDICT_KERNEL);
	g_assert_cmpstr(missing->kernel->pdata[0], ==, "nobody-cared: expected ([run] "
			"kernel_expect), and the kernel did not report it");
	g_assert_cmpint(unexpected->verdict, ==, IRQSTORM_VERDICT_KERNEL);
	g_assert_cmpstr(unexpected->kernel->pdata[0], ==, "nobody-cared: irq 21: nobody "
			"cared (try booting with the \"irqpoll\" option)");
	g_assert_cmpuint(unexpected->stalls->len, ==, 1);
}

/*
 * Every complete run holds each handler's context against its threading
 * mode's: a hard handler with interrupts on (plant=irqs_on) fails it as the
 * kernel's, named; the context kept fails nothing.
 */
static void test_context_promise(void)
{
	const char *ini = "[kernel]\nflavour = dyn\n[channel0]\nthreading = hardirq\n";
	g_autoptr(IrqstormChecks) kept = judge_complete(ini,
		"IRQSTORM-RESULT status=ok handled=0,0,0,0 irq_mode=msi overlaps=0,0,0,0 "
		"contexts=handler.9.0.-.-.10.1,-,-,-\n", FALSE, 1, 0);
	g_autoptr(IrqstormChecks) broken = judge_complete(ini,
		"IRQSTORM-RESULT status=ok handled=0,0,0,0 irq_mode=msi overlaps=0,0,0,0 "
		"contexts=handler.1.0.-.-.10.1,-,-,-\n", FALSE, 1, 0);

	g_assert_cmpuint(kept->kernel->len, ==, 0);
	g_assert_cmpint(broken->verdict, ==, IRQSTORM_VERDICT_KERNEL);
	g_assert_cmpstr(broken->kernel->pdata[0], ==, IRQSTORM_PROMISE_FAILURE "context, "
			"channel 0: its handler ran in hardirq on CPU 0 (10 runs, the first: "
			"event 1); hardirq handler is promised hard interrupt context, "
			"interrupts off");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/run/help/utf8", test_help_utf8);
	g_test_add_func("/run/help/contents", test_help_contents);
	g_test_add_func("/run/help/ascii", test_help_ascii);
	g_test_add_func("/run/help/command", test_help_command);
	g_test_add_func("/run/help/usage-error", test_usage_error);
	g_test_add_func("/run/report/guest-interrupts", test_guest_interrupts);
	g_test_add_func("/run/summary/guest-softirqs", test_guest_softirqs);
	g_test_add_func("/run/report/kernel-reports", test_kernel_reports);
	g_test_add_func("/run/checks/livelock-culprit", test_livelock_culprit);
	g_test_add_func("/run/launch/child-sched", test_child_sched);
	g_test_add_func("/run/checks/kernel-expect", test_kernel_expect);
	g_test_add_func("/run/checks/context-promise", test_context_promise);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/run/option-messages", test_option_messages);
	ADD("/run/empty-scenario", test_empty_scenario);
	ADD("/run/qemu-unusable", test_qemu_unusable);
	ADD("/run/qemu-fails", test_qemu_fails);
	ADD("/run/deterministic", test_deterministic);
	ADD("/run/deterministic-smp", test_deterministic_smp);
	ADD("/run/preempt-modes", test_preempt_modes);
	ADD("/run/thread-cpu", test_thread_cpu);
	ADD("/run/nr-cpus", test_nr_cpus);
#undef ADD
	return g_test_run();
}
