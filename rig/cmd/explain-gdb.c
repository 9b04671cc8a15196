// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm explain --gdb: the run replayed until one point of one event,
 * where the device pauses the VM (its pause-ns property) with QEMU's
 * gdbstub open; the user's debugger takes it from there.
 */
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>

#include "cmd.h"
#include "config.h"
#include "explain-gdb.h"
#include "irqstorm/device.h"
#include "core/machine.h"
#include "core/results.h"
#include "core/run.h"
#include "core/stages.h"

/* The time of point at of record r ("raise", "hardirq", ...), or FALSE. */
static gboolean point_time(const struct irqstorm_record *r, const char *at,
			   guint64 *t, GString *have)
{
	const char *names[IRQSTORM_STAMP_COUNT + 1];
	guint64 times[IRQSTORM_STAMP_COUNT + 1];
	guint n = irqstorm_stage_points(r, names, times);
	gboolean found = FALSE;

	for (guint i = 0; i < n; i++) {
		g_string_append_printf(have, "%s%s", i ? ", " : "", names[i]);
		if (!strcmp(names[i], at)) {
			*t = times[i];
			found = TRUE;
		}
	}
	return found;
}

/* A TCP port on 127.0.0.1 that was free a moment ago, or 0. */
static guint16 free_port(void)
{
	g_autoptr(GSocket) s = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
					    G_SOCKET_PROTOCOL_TCP, NULL);
	g_autoptr(GInetAddress) lo = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) any = g_inet_socket_address_new(lo, 0);
	g_autoptr(GSocketAddress) got = NULL;

	if (!s || !g_socket_bind(s, any, FALSE, NULL) ||
	    !(got = g_socket_get_local_address(s, NULL)))
		return 0;
	return g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(got));
}

int explain_gdb(const ExplainSource *src, const struct irqstorm_record *r,
		const char *at)
{
	g_autoptr(GString) have = g_string_new(NULL);
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_build_filename(src->dir, "explain", "gdb", NULL);
	g_autofree char *vmlinux_name = irqstorm_machine_kernel_file(src->scenario, "vmlinux");
	g_autofree char *vmlinux = g_build_filename(IRQSTORM_KERNEL_DIR, vmlinux_name, NULL);
	g_autofree char *pause = NULL, *gdbstub = NULL, *notice = NULL;
	g_autoptr(IrqstormResults) res = NULL;
	int code;
	guint64 t;
	guint16 port = free_port();

	if (!point_time(r, at, &t, have))
		return irqstorm_cmd_fail("--at %s: event #%" G_GUINT64_FORMAT " has no such "
					 "point (it has: %s)", at, r->seq, have->str);
	if (!port)
		return irqstorm_cmd_fail("--gdb: no free TCP port on 127.0.0.1");
	/* Waiting for a person: the wall-clock bound is the longest there is. */
	if (!irqstorm_scenario_override(src->scenario, "run.timeout=86400", "--gdb", &err))
		return irqstorm_cmd_fail("%s", err->message);
	pause = g_strdup_printf("irqstorm." IRQSTORM_PROP_PAUSE_NS "=%" G_GUINT64_FORMAT, t);
	gdbstub = g_strdup_printf("tcp:127.0.0.1:%u", port);
	notice = g_strdup_printf("explain: the guest is stopped: at event #%" G_GUINT64_FORMAT
				 "'s %s (%" G_GUINT64_FORMAT " ns), unless gdb stopped it "
				 "first", r->seq, at, t);
	{
		const char *args[] = { "-gdb", gdbstub, "-global", pause, NULL };
		IrqstormRunSettings set = {
			.scenario = src->scenario, .out_dir = dir,
			.qemu_dir = IRQSTORM_QEMU_DIR, .kernel_dir = IRQSTORM_KERNEL_DIR,
			.initrd_dir = IRQSTORM_INITRD_DIR, .quiet = TRUE, .csv = TRUE,
			.qemu_args = args, .stop_notice = notice,
		};

		printf("QEMU stops the guest at event #%" G_GUINT64_FORMAT "'s %s, %" G_GUINT64_FORMAT
		       " ns of virtual time, between two instructions; attach with:\n"
		       "  gdb -q %s -ex 'target remote 127.0.0.1:%u'\n"
		       "Attaching earlier stops it where it is ('continue' then runs to that "
		       "point).\nDetach or quit gdb to let the run finish (its results: %s).\n",
		       r->seq, at, t, vmlinux, port, dir);
		fflush(stdout);
		res = irqstorm_cmd_run_results(&set, &code, &err);
		if (!res)
			return irqstorm_cmd_fail("%s", err->message);
		return res->outcome->guest_shutdown ? IRQSTORM_EXIT_PASSED : IRQSTORM_EXIT_ERROR;
	}
}
