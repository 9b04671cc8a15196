// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario -> QEMU command line. Deterministic mode (icount) is the default:
 * -icount shift=N,sleep=off with -rtc clock=vm makes every guest-visible
 * time a function of the instruction count alone (docs/determinism.md).
 */
#include "machine.h"

#include "held.h"
#include "irqstorm/abi.h"
#include "irqstorm/device.h"
#include "irqstorm/guest.h"
#include "irqstorm/identity.h"

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

/*
 * ",chN-NAME=VALUE" of one channel property, by its type in
 * include/irqstorm/device.h (the scenario's spec has the device's fields).
 */
static void prop_PATTERN(GString *d, guint n, const char *name, IrqstormPattern v)
{
	g_string_append_printf(d, ",ch%u-%s=%s", n, name, irqstorm_pattern_name(v));
}

static void prop_BOOL(GString *d, guint n, const char *name, gboolean v)
{
	g_string_append_printf(d, ",ch%u-%s=%s", n, name, v ? "on" : "off");
}

static void prop_U64(GString *d, guint n, const char *name, guint64 v)
{
	g_string_append_printf(d, ",ch%u-%s=%" G_GUINT64_FORMAT, n, name, v);
}

static void prop_U32(GString *d, guint n, const char *name, guint v)
{
	g_string_append_printf(d, ",ch%u-%s=%u", n, name, v);
}

static void prop_I32(GString *d, guint n, const char *name, int v)
{
	g_string_append_printf(d, ",ch%u-%s=%d", n, name, v);
}

/* -device irqstorm,...: every property of every active channel. */
static char *device_opts(const IrqstormScenario *sc)
{
	GString *d = g_string_new("irqstorm,id=storm,memdev=irqstorm-log");

	if (!sc->stamps)
		g_string_append(d, "," IRQSTORM_PROP_STAMPS "=off");
	/* The storm ends on time even if the guest is too starved to end it. */
	g_string_append_printf(d, "," IRQSTORM_PROP_STORM_NS "=%" G_GUINT64_FORMAT,
			       (sc->duration_ms + sc->grace_ms) * 1000000);

	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		const IrqstormChannelSpec *c = &sc->ch[n];

		if (c->pattern == IRQSTORM_PATTERN_OFF)
			continue;
#define PROP_OPT(id, field, name, type, min, max, dflt, timing, help) \
		prop_##type(d, n, name, c->field);
		IRQSTORM_CHANNEL_PROPS(PROP_OPT)
#undef PROP_OPT
	}
	return g_string_free(d, FALSE);
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
		if (irqstorm_scenario_smp_windows(sc))
			addf(a, "shift=%d,sleep=off,quantum=%u", sc->icount_shift,
			     sc->quantum_ns);
		else
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
	/* Under the quantum a vCPU's TSC is up to a window behind another's:
	 * Linux's TSC warp check would take the TSC away (docs/determinism.md). */
	addf(a, "console=ttyS0 panic=-1%s%s%s",
	     irqstorm_scenario_smp_windows(sc) ? " tsc=reliable" : "", *sc->cmdline ? " " : "", sc->cmdline);
	add(a, "-chardev");
	addf(a, "file,id=console,path=%s", console);
	add(a, "-serial");
	add(a, "chardev:console");
	add(a, "-object");
	addf(a, "memory-backend-file,id=irqstorm-log,mem-path=%s,size=%uM,share=on",
	     log, sc->log_mb);
	add(a, "-device");
	g_ptr_array_add(a, device_opts(sc));
	add(a, "-fw_cfg");
	addf(a, "name=" IRQSTORM_GUEST_CONF_FW_CFG ",file=%s", conf);
	add(a, "-chardev");
	addf(a, "socket,id=qmp,path=%s,server=on,wait=off", qmp);
	add(a, "-mon");
	add(a, "chardev=qmp,mode=control");
	if (irqstorm_scenario_smp_windows(sc) && p->held_irqs_path) {
		add(a, "-trace");
		addf(a, "enable=" IRQSTORM_HELD_TRACE_EVENT ",file=%s", p->held_irqs_path);
	}
	/* Guest poweroff pauses QEMU so we can still read counters over QMP;
	 * a guest reboot (panic=-1) ends the run instead of looping. */
	add(a, "-no-reboot");
	add(a, "-no-shutdown");
	/* Start paused: the run begins when the rig is connected and ready. */
	add(a, "-S");
	g_ptr_array_add(a, NULL);
	return (GStrv)g_ptr_array_free(a, FALSE);
}

typedef char *(*ChannelValue)(const IrqstormChannelSpec *c);

static char *v_threading(const IrqstormChannelSpec *c)
{
	return g_strdup(irqstorm_threading_name(c->threading));
}

static char *v_work(const IrqstormChannelSpec *c)
{
	return g_strdup(irqstorm_work_name(c->work));
}

static char *v_work_context(const IrqstormChannelSpec *c)
{
	return g_strdup(irqstorm_work_context_name(c->work_context));
}

static char *v_plant(const IrqstormChannelSpec *c)
{
	return g_strdup(irqstorm_plant_name(c->plant));
}

static char *v_bh_off(const IrqstormChannelSpec *c)
{
	return g_strdup_printf("%u", c->bh_off_us);
}

static char *v_resched(const IrqstormChannelSpec *c)
{
	return g_strdup_printf("%u", c->resched_every);
}

static char *v_opt(int v)
{
	return v == IRQSTORM_NONE ? g_strdup("-") : g_strdup_printf("%d", v);
}

/* An optional number: empty (the protocol's default, none) when unset. */
static char *v_opt_empty(int v)
{
	return v == IRQSTORM_NONE ? g_strdup("") : g_strdup_printf("%d", v);
}

static char *v_prio(const IrqstormChannelSpec *c)
{
	return v_opt(c->thread_prio);
}

static char *v_cpu(const IrqstormChannelSpec *c)
{
	return v_opt(c->thread_cpu);
}

static char *v_irq_cpu(const IrqstormChannelSpec *c)
{
	return v_opt(c->irq_cpu);
}

/* v0,v1,v2,v3: one value per channel, as the driver's arrays take. */
static char *per_channel(const IrqstormScenario *sc, ChannelValue fn)
{
	GString *out = g_string_new(NULL);

	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		g_autofree char *v = fn(&sc->ch[n]);

		g_string_append_printf(out, "%s%s", n ? "," : "", v);
	}
	return g_string_free(out, FALSE);
}

static char *on_off(gboolean on)
{
	return g_strdup(on ? "on" : "off");
}

/* The keys of guest.conf: include/irqstorm/guest.h. */
#define CONF_ENUM(key, dflt, help) CONF_##key,
typedef enum {
	IRQSTORM_GUEST_CONF(CONF_ENUM)
	CONF_COUNT
} ConfKey;
#undef CONF_ENUM

#define CONF_NAME(key, dflt, help) #key,
static const char *const conf_names[CONF_COUNT] = {
	IRQSTORM_GUEST_CONF(CONF_NAME)
};
#undef CONF_NAME

/* The scenario's value of a guest.conf key. Every key has a case: a row
 * added to the protocol without one does not compile (-Werror=switch). */
static char *conf_value(const IrqstormScenario *sc, ConfKey k)
{
	switch (k) {
	case CONF_duration_ms:
		return g_strdup_printf("%" G_GUINT64_FORMAT, sc->duration_ms);
	case CONF_irq_mode:
		return g_strdup(irqstorm_irq_mode_name(sc->irq_mode));
	case CONF_channels:
		return g_strdup_printf("%u", irqstorm_scenario_channel_mask(sc));
	case CONF_threading:
		return per_channel(sc, v_threading);
	case CONF_work:
		return per_channel(sc, v_work);
	case CONF_work_context:
		return per_channel(sc, v_work_context);
	case CONF_resched:
		return per_channel(sc, v_resched);
	case CONF_bh_off_us:
		return per_channel(sc, v_bh_off);
	case CONF_plant:
		return per_channel(sc, v_plant);
	case CONF_spin_timeout_us:
		return g_strdup_printf("%u", sc->spin_timeout_us);
	case CONF_thread_prio:
		return per_channel(sc, v_prio);
	case CONF_thread_cpu:
		return per_channel(sc, v_cpu);
	case CONF_channel_irq_cpu:
		return per_channel(sc, v_irq_cpu);
	case CONF_probe:
		return on_off(sc->probe);
	case CONF_probe_prio:
		return g_strdup_printf("%u", sc->probe_prio);
	case CONF_probe_period_us:
		return g_strdup_printf("%u", sc->probe_period_us);
	case CONF_probe_cpu:
		return g_strdup_printf("%u", sc->probe_cpu);
	case CONF_i8042:
		return sc->i8042_channel == IRQSTORM_NONE ? g_strdup("") :
		       g_strdup_printf("%d:%u", sc->i8042_channel, sc->i8042_timeout_us);
	case CONF_free_irq:
		return on_off(sc->free_irq);
	case CONF_unload:
		return on_off(sc->unload);
	case CONF_stamps:
		return on_off(sc->stamps);
	case CONF_handler_clock:
		return on_off(sc->handler_clock);
	case CONF_cyclictest:
		return on_off(sc->cyclictest);
	case CONF_cyclictest_prio:
		return g_strdup_printf("%u", sc->cyclictest_prio);
	case CONF_irq_cpu:
		return v_opt_empty(sc->irq_cpu);
	case CONF_hotplug_cpu:
		return v_opt_empty(sc->hotplug_cpu);
	case CONF_irq_flip_us:
		return sc->irq_flip_us ? g_strdup_printf("%u", sc->irq_flip_us) :
					 g_strdup("");
	case CONF_sync_irq:
		return g_strdup(sc->sync_irq);
	case CONF_load_prio:
		return v_opt_empty(sc->load_prio);
	case CONF_section:
		if (!sc->section)
			return g_strdup("");
		if (sc->section_channel == IRQSTORM_NONE)
			return g_strdup_printf("%s:%u:-", irqstorm_section_name(sc->section),
					       sc->section_us);
		return g_strdup_printf("%s:%u:%d", irqstorm_section_name(sc->section),
				       sc->section_us, sc->section_channel);
	case CONF_section_cpu:
		return g_strdup_printf("%u", sc->section_cpu);
	case CONF_section_pio_channel:
		return v_opt_empty(sc->section_pio_channel);
	case CONF_COUNT:
		break;
	}
	g_return_val_if_reached(g_strdup(""));
}

/* The key=value file guest-init/init reads through fw_cfg: every key. */
char *irqstorm_machine_guest_conf(const IrqstormScenario *sc)
{
	GString *out = g_string_new(NULL);

	for (guint k = 0; k < CONF_COUNT; k++) {
		g_autofree char *v = conf_value(sc, k);

		g_string_append_printf(out, "%s=%s\n", conf_names[k], v);
	}
	return g_string_free(out, FALSE);
}

/* The kernel a run boots: its flavour's, of its source. */
char *irqstorm_machine_kernel_name(const IrqstormScenario *sc)
{
	g_autofree char *k = irqstorm_scenario_kernel_name(sc);

	return g_strdup_printf("bzImage-%s", k);
}

/* The initramfs a run boots: its kernel's, with cyclictest when asked. */
char *irqstorm_machine_initrd_name(const IrqstormScenario *sc)
{
	g_autofree char *k = irqstorm_scenario_kernel_name(sc);

	return g_strdup_printf("initramfs-%s%s.cpio.gz", k,
			       sc->cyclictest ? "-cyclictest" : "");
}

char *irqstorm_machine_kernel_file(const IrqstormScenario *sc, const char *what)
{
	g_autofree char *k = irqstorm_scenario_kernel_name(sc);

	if (!strcmp(what, "identity"))
		return g_strdup_printf(IRQSTORM_KERNEL_IDENTITY_FILE_FMT, k);
	if (!strcmp(what, "initramfs-identity"))
		return g_strdup_printf(IRQSTORM_INITRAMFS_IDENTITY_FILE_FMT, k);
	if (!strcmp(what, "ko"))
		return g_strdup_printf("irqstorm-%s.ko", k);
	return g_strdup_printf("%s-%s", what, k);
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
