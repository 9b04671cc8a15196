// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario -> QEMU command line. Deterministic mode (icount) is the default:
 * -icount shift=N,sleep=off with -rtc clock=vm makes every guest-visible
 * time a function of the instruction count alone (docs/determinism.md).
 */
#include "machine.h"

#include "irqstorm/abi.h"

#define RTC_BASE "2024-01-01T00:00:00"

static void add(GPtrArray *a, const char *s)
{
	g_ptr_array_add(a, g_strdup(s));
}

static void addf(GPtrArray *a, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void addf(GPtrArray *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(a, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

/* A path inside a QEMU option string: commas are doubled. */
static char *opt_path(const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, ",", -1);

	return g_strjoinv(",,", parts);
}

/* The accelerator options: icount implies TCG (the parser enforces it). */
static void add_accel(GPtrArray *a, const IrqstormScenario *sc)
{
	switch (sc->accel) {
	case IRQSTORM_ACCEL_TCG:
		add(a, "-accel");
		add(a, "tcg");
		break;
	case IRQSTORM_ACCEL_KVM:
		add(a, "-accel");
		add(a, "kvm");
		break;
	case IRQSTORM_ACCEL_AUTO:
		/* QEMU tries them in order. */
		add(a, "-accel");
		add(a, "kvm");
		add(a, "-accel");
		add(a, "tcg");
		break;
	}
	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF) {
		add(a, "-icount");
		addf(a, "shift=%d,sleep=off", sc->icount_shift);
		add(a, "-rtc");
		add(a, "base=" RTC_BASE ",clock=vm");
	}
}

/* The full argv, NULL-terminated. */
GStrv irqstorm_machine_argv(const IrqstormScenario *sc,
			    const IrqstormMachinePaths *p)
{
	GPtrArray *a = g_ptr_array_new();
	g_autofree char *console = opt_path(p->console_path);
	g_autofree char *log = opt_path(p->log_path);
	g_autofree char *conf = opt_path(p->guest_conf_path);
	g_autofree char *qmp = opt_path(p->qmp_path);

	add(a, p->qemu);
	add(a, "-nodefaults");
	add(a, "-no-user-config");
	add(a, "-display");
	add(a, "none");
	add(a, "-machine");
	add(a, "q35");
	add_accel(a, sc);
	add(a, "-cpu");
	add(a, "max");
	/* RDRAND (and so KASLR, stack canaries, hash seeds) from a seeded
	 * generator: without it no two runs execute the same instructions. */
	add(a, "-seed");
	addf(a, "%" G_GUINT64_FORMAT, sc->seed);
	add(a, "-smp");
	addf(a, "%u", sc->cpus);
	add(a, "-m");
	addf(a, "%u", sc->memory_mb);
	add(a, "-kernel");
	add(a, p->kernel);
	add(a, "-initrd");
	add(a, p->initrd);
	add(a, "-append");
	addf(a, "console=ttyS0 panic=-1%s%s", *sc->cmdline ? " " : "", sc->cmdline);
	add(a, "-chardev");
	addf(a, "file,id=console,path=%s", console);
	add(a, "-serial");
	add(a, "chardev:console");
	add(a, "-object");
	addf(a, "memory-backend-file,id=irqstorm-log,mem-path=%s,size=%uM,share=on",
	     log, sc->log_mb);
	add(a, "-device");
	addf(a, "irqstorm,id=storm,memdev=irqstorm-log,ch0-pattern=periodic,"
	     "ch0-period-ns=%" G_GUINT64_FORMAT, sc->period_ns);
	add(a, "-fw_cfg");
	addf(a, "name=opt/irqstorm/guest.conf,file=%s", conf);
	add(a, "-chardev");
	addf(a, "socket,id=qmp,path=%s,server=on,wait=off", qmp);
	add(a, "-mon");
	add(a, "chardev=qmp,mode=control");
	/* Guest poweroff pauses QEMU so we can still read counters over QMP;
	 * a guest reboot (panic=-1) ends the run instead of looping. */
	add(a, "-no-reboot");
	add(a, "-no-shutdown");
	/* Start paused: the run begins when the rig is connected and ready. */
	add(a, "-S");
	g_ptr_array_add(a, NULL);
	return (GStrv)g_ptr_array_free(a, FALSE);
}

/* The key=value file guest-init/init reads through fw_cfg. */
char *irqstorm_machine_guest_conf(const IrqstormScenario *sc)
{
	return g_strdup_printf("duration_ms=%" G_GUINT64_FORMAT "\nmode=%s\n",
			       sc->duration_ms,
			       irqstorm_threading_name(sc->threading));
}

/* argv as one line a user can paste into a POSIX shell. */
char *irqstorm_argv_to_shell(const char *const *argv)
{
	GString *s = g_string_new(NULL);

	for (gsize i = 0; argv[i]; i++) {
		g_autofree char *q = g_shell_quote(argv[i]);

		if (i)
			g_string_append_c(s, ' ');
		g_string_append(s, q);
	}
	return g_string_free(s, FALSE);
}
