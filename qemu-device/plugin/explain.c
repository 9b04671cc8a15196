/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * irqstorm's explain plugin: which guest code ran in given windows of
 * QEMU_CLOCK_VIRTUAL, seen from outside the guest.
 *
 * Loaded by `irqstorm explain` into a rerun of a deterministic (-icount)
 * run.  It writes one line per translation block that executed inside a
 * window; its arguments and the files it reads and writes are the protocol
 * of include/irqstorm/explain.h.  With entries= instead of windows= it
 * writes a line each time a vCPU takes an interrupt (irqstorm sweep's
 * interference), instrumenting only the entry points' blocks.  It changes
 * nothing the guest can see;
 * explain checks that on every use.  Everything else (symbols, halted
 * time, functions) is derived by the rig.
 *
 * Needs qemu_plugin_icount_clock_ns() (qemu-device/patches/0002).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <qemu-plugin.h>

#include "irqstorm/explain.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define ARG_COUNT   IRQSTORM_EXPLAIN_ARG_COUNT
#define ARG_WINDOWS IRQSTORM_EXPLAIN_ARG_WINDOWS
#define ARG_ENTRIES IRQSTORM_EXPLAIN_ARG_ENTRIES
#define ARG_OUT     IRQSTORM_EXPLAIN_ARG_OUT
#define ARG_SHIFT   IRQSTORM_EXPLAIN_ARG_SHIFT

static const struct irqstorm_explain_arg_desc args[ARG_COUNT] = {
    IRQSTORM_EXPLAIN_ARGS(IRQSTORM_EXPLAIN_ARG_DESC)
};

struct window {
    int64_t start, end;
};

struct block {
    uint64_t vaddr;
    unsigned int insns;
};

/*
 * The plugin's one state: the windows, each vCPU's cursor into them, the
 * output; or, in the interrupts mode, the entry points.
 */
static struct {
    GArray *windows;
    GHashTable *entries;
    GArray *next;
    FILE *out;
    int shift;
    uint64_t lines;
} ex;

/*
 * At a block's start: the clock counts the whole block (its budget is
 * taken as it starts), so the block began its instructions' time earlier.
 * The clock is the vCPU's own: with several vCPUs under -icount's quantum
 * each runs a window of virtual time from its start in turn, so time
 * moves forward per vCPU, and each has its cursor into the windows.
 */
static void tb_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    int64_t end = qemu_plugin_icount_clock_ns();
    int64_t start = end - ((int64_t)b->insns << ex.shift);
    const struct window *w = NULL;
    guint *next;

    if (end < 0) {
        return; /* no -icount: explain never loads us then */
    }
    if (vcpu >= ex.next->len) {
        g_array_set_size(ex.next, vcpu + 1);
    }
    next = &g_array_index(ex.next, guint, vcpu);
    /* Virtual time only moves forward: windows already past are done. */
    while (*next < ex.windows->len) {
        w = &g_array_index(ex.windows, struct window, *next);
        if (start < w->end) {
            break;
        }
        (*next)++;
        fflush(ex.out);
    }
    if (*next == ex.windows->len || end <= w->start) {
        return;
    }
    fprintf(ex.out, "%" PRId64 " %" PRIx64 " %u %u\n", start, b->vaddr,
            b->insns, vcpu);
    ex.lines++;
}

/* At an interrupt entry's block: which vCPU took an interrupt, when. */
static void entry_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    int64_t end = qemu_plugin_icount_clock_ns();

    if (end < 0) {
        return;
    }
    fprintf(ex.out, "%" PRId64 " %" PRIx64 " %u\n",
            end - ((int64_t)b->insns << ex.shift), b->vaddr, vcpu);
    ex.lines++;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
    struct block *b;

    if (ex.entries && !g_hash_table_contains(ex.entries, &vaddr)) {
        return;
    }
    b = g_new(struct block, 1);
    b->vaddr = vaddr;
    b->insns = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_cb(tb, ex.entries ? entry_exec : tb_exec,
                                         QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    fprintf(ex.out, IRQSTORM_EXPLAIN_TRACE_END "%" PRIu64 " blocks\n",
            ex.lines);
    fclose(ex.out);
}

static int read_windows(const char *path)
{
    FILE *f = fopen(path, "r");
    struct window w;

    if (!f) {
        return -1;
    }
    while (fscanf(f, "%" SCNd64 " %" SCNd64, &w.start, &w.end) == 2) {
        g_array_append_val(ex.windows, w);
    }
    fclose(f);
    return 0;
}

static int read_entries(const char *path)
{
    FILE *f = fopen(path, "r");
    uint64_t a;

    if (!f) {
        return -1;
    }
    ex.entries = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                       NULL);
    while (fscanf(f, "%" SCNx64, &a) == 1) {
        g_hash_table_add(ex.entries, g_memdup2(&a, sizeof(a)));
    }
    fclose(f);
    return 0;
}

/* The index of argument s (NAME=VALUE) in args, or ARG_COUNT. */
static int arg_index(const char *s)
{
    int a;

    for (a = 0; a < ARG_COUNT; a++) {
        size_t n = strlen(args[a].name);

        if (!strncmp(s, args[a].name, n) && s[n] == '=') {
            break;
        }
    }
    return a;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *arg[ARG_COUNT] = { NULL };
    int i;

    for (i = 0; i < argc; i++) {
        int a = arg_index(argv[i]);

        if (a == ARG_COUNT) {
            fprintf(stderr, "irqstorm explain plugin: unknown argument %s\n",
                    argv[i]);
            return -1;
        }
        arg[a] = argv[i] + strlen(args[a].name) + 1;
    }
    ex.shift = arg[ARG_SHIFT] ? atoi(arg[ARG_SHIFT]) : -1;
    if (!arg[ARG_WINDOWS] == !arg[ARG_ENTRIES] || !arg[ARG_OUT] ||
        ex.shift < 0 || ex.shift > 10) {
        fprintf(stderr, "irqstorm explain plugin: needs windows= or entries= "
                "(one of them), out= and shift= (0..10)\n");
        return -1;
    }
    ex.windows = g_array_new(FALSE, FALSE, sizeof(struct window));
    ex.next = g_array_new(FALSE, TRUE, sizeof(guint));
    if (arg[ARG_WINDOWS] ? read_windows(arg[ARG_WINDOWS]) < 0 :
        read_entries(arg[ARG_ENTRIES]) < 0) {
        fprintf(stderr, "irqstorm explain plugin: cannot read %s\n",
                arg[ARG_WINDOWS] ? arg[ARG_WINDOWS] : arg[ARG_ENTRIES]);
        return -1;
    }
    ex.out = fopen(arg[ARG_OUT], "w");
    if (!ex.out) {
        fprintf(stderr, "irqstorm explain plugin: cannot write %s\n",
                arg[ARG_OUT]);
        return -1;
    }
    setvbuf(ex.out, NULL, _IOFBF, 1 << 20);
    fprintf(ex.out, "%s\n", ex.entries ? IRQSTORM_EXPLAIN_ENTRIES_HEADER :
            IRQSTORM_EXPLAIN_TRACE_HEADER);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
