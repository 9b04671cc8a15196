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
 * explain checks that on every use.  With names=, it also reads, at each
 * context switch and each interrupt's handling, which task a vCPU switched
 * to and which interrupt it handles, from guest registers and memory, and
 * writes them beside the blocks.  With tasks= beside windows=, names= and
 * entries=, it also writes the whole run's context switches, interrupt
 * entries and exits to a second file: every vCPU's tasks, from start to
 * end.  Everything else (symbols, halted time, functions) is derived by
 * the rig.
 *
 * Needs qemu_plugin_icount_clock_ns() (qemu-device/patches/0002) and, for
 * names, the register and memory reads of patch 0004.
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
#define ARG_NAMES   IRQSTORM_EXPLAIN_ARG_NAMES
#define ARG_TASKS   IRQSTORM_EXPLAIN_ARG_TASKS

/* x86-64 gdbstub core register numbers: the first two arguments, eflags */
#define REG_RSI 4
#define REG_RDI 5
#define REG_EFLAGS 17
#define EFLAGS_IF (1u << 9)

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

/* What the names file says (include/irqstorm/explain.h): addresses, offsets */
#define NAME_FIELD(id, name, help) int64_t id;
struct names {
    IRQSTORM_EXPLAIN_NAMES(NAME_FIELD)
};
#undef NAME_FIELD

/* A vCPU: its cursor into the windows, and what it runs, once known */
struct vcpu {
    guint next;          /* the first window not yet past */
    guint announced;     /* 1 + the window its task was written for */
    char task[128];      /* "PID POLICY RT_PRIORITY STATIC_PRIO COMM", or "" */
    gboolean switched;   /* task changed since it was last written */
    char irq[96];        /* "IRQ NAME" of the interrupt about to be handled */
};

/* An output file and the lines written to it */
struct output {
    FILE *f;
    uint64_t lines;
};

/*
 * The plugin's one state: the windows (NULL in the interrupts mode), the
 * entry points, each vCPU's state, the outputs (the entries' lines go to
 * out in the interrupts mode, to tasks beside windows) and the names
 * file's values.
 */
static struct {
    GArray *windows;
    GHashTable *entries;
    GArray *vcpus;
    struct output out, tasks;
    struct output *entries_out;
    int shift;
    gboolean naming;
    struct names nm;
} ex;

static struct vcpu *vcpu_state(unsigned int vcpu)
{
    if (vcpu >= ex.vcpus->len) {
        g_array_set_size(ex.vcpus, vcpu + 1);
    }
    return &g_array_index(ex.vcpus, struct vcpu, vcpu);
}

/*
 * When the block b began on its vCPU's clock, or -1: its budget is taken
 * as it starts, so the clock has passed its instructions already.
 */
static int64_t block_start(const struct block *b)
{
    int64_t end = qemu_plugin_icount_clock_ns();

    return end < 0 ? -1 : end - ((int64_t)b->insns << ex.shift);
}

/* A names line (include/irqstorm/explain.h): KIND START_NS VCPU WORDS */
static void names_line(FILE *f, const char *kind, int64_t start,
                       unsigned int vcpu, const char *words)
{
    fprintf(f, "%s %" PRId64 " %u %s\n", kind, start, vcpu, words);
}

/* A names line of the whole run's tasks file, when there is one */
static void tasks_line(const char *kind, int64_t start, unsigned int vcpu,
                       const char *words)
{
    if (ex.tasks.f && start >= 0) {
        names_line(ex.tasks.f, kind, start, vcpu, words);
        ex.tasks.lines++;
    }
}

/*
 * 1 if the running vCPU takes interrupts (eflags.IF), 0 if they are
 * disabled: as at the first instruction of the block whose callback asks.
 */
static unsigned int irqs_enabled(void)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint32_t fl = 0;

    if (qemu_plugin_read_register_num(REG_EFLAGS, buf) == sizeof(fl)) {
        memcpy(&fl, buf->data, sizeof(fl));
    }
    return !!(fl & EFLAGS_IF);
}

/*
 * At a block's start (block_start()). The clock is the vCPU's own:
 * with several vCPUs under -icount's quantum each runs a window of
 * virtual time from its start in turn, so time moves forward per vCPU,
 * and each has its cursor into the windows.
 */
static void tb_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    int64_t start = block_start(b);
    int64_t end = start + ((int64_t)b->insns << ex.shift);
    const struct window *w = NULL;
    struct vcpu *v = vcpu_state(vcpu);

    if (start < 0) {
        return; /* no -icount: explain never loads us then */
    }
    /* Virtual time only moves forward: windows already past are done. */
    while (v->next < ex.windows->len) {
        w = &g_array_index(ex.windows, struct window, v->next);
        if (start < w->end) {
            break;
        }
        v->next++;
        fflush(ex.out.f);
    }
    if (v->next == ex.windows->len || end <= w->start) {
        v->irq[0] = '\0';
        return;
    }
    /* Names before the block they belong to: its task, its interrupt */
    if (v->task[0] && (v->switched || v->announced != v->next + 1)) {
        names_line(ex.out.f, IRQSTORM_EXPLAIN_TASK_LINE, start, vcpu, v->task);
        v->announced = v->next + 1;
        v->switched = FALSE;
    }
    if (v->irq[0]) {
        names_line(ex.out.f, IRQSTORM_EXPLAIN_IRQ_LINE, start, vcpu, v->irq);
        v->irq[0] = '\0';
    }
    fprintf(ex.out.f, "%" PRId64 " %" PRIx64 " %u %u %u\n", start, b->vaddr,
            b->insns, vcpu, irqs_enabled());
    ex.out.lines++;
}


/* A little-endian guest word at addr, or FALSE */
static gboolean read_guest(uint64_t addr, void *to, size_t len)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();

    if (!qemu_plugin_read_memory_vaddr(addr, buf, len)) {
        return FALSE;
    }
    memcpy(to, buf->data, len);
    return TRUE;
}

static uint64_t read_reg(int reg)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t v = 0;

    if (qemu_plugin_read_register_num(reg, buf) == sizeof(v)) {
        memcpy(&v, buf->data, sizeof(v));
    }
    return v;
}

/* A NUL-terminated guest string of at most len - 1 bytes, printable */
static void read_string(uint64_t addr, char *to, size_t len)
{
    size_t i;

    if (!addr || !read_guest(addr, to, len - 1)) {
        g_strlcpy(to, "?", len);
        return;
    }
    to[len - 1] = '\0';
    for (i = 0; to[i]; i++) {
        if (!g_ascii_isgraph(to[i])) {
            to[i] = '_';
        }
    }
}

/*
 * At __switch_to(prev, next): the task switched to, its pid, policy,
 * priorities and comm (the kernel's layout, from the names file).
 */
static void switch_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    struct vcpu *v = vcpu_state(vcpu);
    int64_t start = block_start(b);
    uint64_t task = read_reg(REG_RSI);
    int32_t pid = -1, static_prio = 0;
    uint32_t policy = 0, rt_priority = 0;
    char comm[64];

    if (ex.nm.task_comm_len <= 0 || ex.nm.task_comm_len >= (int)sizeof(comm) ||
        !read_guest(task + ex.nm.task_pid, &pid, sizeof(pid)) ||
        !read_guest(task + ex.nm.task_policy, &policy, sizeof(policy)) ||
        !read_guest(task + ex.nm.task_rt_priority, &rt_priority,
                    sizeof(rt_priority)) ||
        !read_guest(task + ex.nm.task_static_prio, &static_prio,
                    sizeof(static_prio))) {
        g_strlcpy(v->task, "-1 0 0 0 ?", sizeof(v->task));
    } else {
        read_string(task + ex.nm.task_comm, comm, ex.nm.task_comm_len + 1);
        snprintf(v->task, sizeof(v->task), "%d %u %u %d %s", pid, policy,
                 rt_priority, static_prio, comm);
    }
    v->switched = TRUE;
    tasks_line(IRQSTORM_EXPLAIN_TASK_LINE, start, vcpu, v->task);
}

/* At __handle_irq_event_percpu(desc): the IRQ number, its first action */
static void irq_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    struct vcpu *v = vcpu_state(vcpu);
    int64_t start = block_start(b);
    uint64_t desc = read_reg(REG_RDI), action = 0, name = 0;
    uint32_t irq = 0;
    char s[64];

    if (!read_guest(desc + ex.nm.desc_irq, &irq, sizeof(irq)) ||
        !read_guest(desc + ex.nm.desc_action, &action, sizeof(action)) ||
        !action ||
        !read_guest(action + ex.nm.action_name, &name, sizeof(name))) {
        name = 0;
    }
    read_string(name, s, sizeof(s));
    snprintf(v->irq, sizeof(v->irq), "%u %s", irq, s);
    tasks_line(IRQSTORM_EXPLAIN_IRQ_LINE, start, vcpu, v->irq);
}

/* At an interrupt entry's block: which vCPU took an interrupt, when. */
static void entry_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    int64_t start = block_start(b);

    if (start < 0) {
        return;
    }
    fprintf(ex.entries_out->f, "%" PRId64 " %" PRIx64 " %u\n", start,
            b->vaddr, vcpu);
    ex.entries_out->lines++;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
    gboolean entry = ex.entries && g_hash_table_contains(ex.entries, &vaddr);
    struct block *b;

    if (!ex.windows && !entry) {
        return;
    }
    b = g_new(struct block, 1);
    b->vaddr = vaddr;
    b->insns = qemu_plugin_tb_n_insns(tb);
    /* The names first: the block's own line comes after them */
    if (ex.naming && vaddr == (uint64_t)ex.nm.switch_to) {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, switch_exec,
                                             QEMU_PLUGIN_CB_R_REGS, b);
    } else if (ex.naming && vaddr == (uint64_t)ex.nm.handle_irq) {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, irq_exec,
                                             QEMU_PLUGIN_CB_R_REGS, b);
    }
    if (entry) {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, entry_exec,
                                             QEMU_PLUGIN_CB_NO_REGS, b);
    }
    if (ex.windows) {
        /* Registers read: a block's line says whether it took interrupts */
        qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
                                             QEMU_PLUGIN_CB_R_REGS, b);
    }
}

static void close_output(struct output *o)
{
    if (o->f) {
        fprintf(o->f, IRQSTORM_EXPLAIN_TRACE_END "%" PRIu64 " %s\n",
                o->lines, o == &ex.out ? "blocks" : "lines");
        fclose(o->f);
        o->f = NULL;
    }
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    close_output(&ex.out);
    close_output(&ex.tasks);
}

static int read_windows(const char *path)
{
    FILE *f = fopen(path, "r");
    struct window w;

    if (!f) {
        return -1;
    }
    ex.windows = g_array_new(FALSE, FALSE, sizeof(struct window));
    while (fscanf(f, "%" SCNd64 " %" SCNd64, &w.start, &w.end) == 2) {
        g_array_append_val(ex.windows, w);
    }
    fclose(f);
    return 0;
}

/* The names file: "NAME VALUE" lines, every name of IRQSTORM_EXPLAIN_NAMES */
static int read_names(const char *path)
{
    static const char *const names[] = {
        IRQSTORM_EXPLAIN_NAMES(IRQSTORM_EXPLAIN_NAME_STRING)
    };
    int64_t *field = (int64_t *)&ex.nm;
    guint seen = 0;
    char name[64], value[64];
    FILE *f = fopen(path, "r");

    if (!f) {
        return -1;
    }
    while (fscanf(f, "%63s %63s", name, value) == 2) {
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
            if (!strcmp(name, names[i])) {
                field[i] = (int64_t)g_ascii_strtoull(value, NULL, 0);
                seen |= 1u << i;
            }
        }
    }
    fclose(f);
    G_STATIC_ASSERT(G_N_ELEMENTS(names) < 32);
    return seen == (1u << G_N_ELEMENTS(names)) - 1 ? 0 : -1;
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

/* Output o: path, written for, its header line first */
static int open_output(struct output *o, const char *path, const char *header)
{
    o->f = fopen(path, "w");
    if (!o->f) {
        fprintf(stderr, "irqstorm explain plugin: cannot write %s\n", path);
        return -1;
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    fprintf(o->f, "%s\n", header);
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
    if (!arg[ARG_WINDOWS] && !arg[ARG_ENTRIES]) {
        fprintf(stderr,
                "irqstorm explain plugin: needs windows= or entries=\n");
        return -1;
    }
    if (!arg[ARG_OUT] || ex.shift < 0 || ex.shift > 10) {
        fprintf(stderr, "irqstorm explain plugin: needs out= and shift= "
                "(0..10)\n");
        return -1;
    }
    if (!arg[ARG_TASKS] != !(arg[ARG_WINDOWS] && arg[ARG_ENTRIES]) ||
        (arg[ARG_TASKS] && !arg[ARG_NAMES])) {
        fprintf(stderr, "irqstorm explain plugin: tasks= needs windows=, "
                "entries= and names=, and windows= with entries= needs "
                "tasks=\n");
        return -1;
    }
    ex.vcpus = g_array_new(FALSE, TRUE, sizeof(struct vcpu));
    if (arg[ARG_NAMES]) {
        if (read_names(arg[ARG_NAMES]) < 0) {
            fprintf(stderr, "irqstorm explain plugin: %s is not a complete "
                    "names file\n", arg[ARG_NAMES]);
            return -1;
        }
        ex.naming = TRUE;
    }
    G_STATIC_ASSERT(ARG_ENTRIES == ARG_WINDOWS + 1);
    for (i = ARG_WINDOWS; i <= ARG_ENTRIES; i++) {
        if (arg[i] && (i == ARG_WINDOWS ? read_windows(arg[i]) :
                       read_entries(arg[i])) < 0) {
            fprintf(stderr, "irqstorm explain plugin: cannot read %s\n",
                    arg[i]);
            return -1;
        }
    }
    if (open_output(&ex.out, arg[ARG_OUT], ex.windows ?
                    IRQSTORM_EXPLAIN_TRACE_HEADER :
                    IRQSTORM_EXPLAIN_ENTRIES_HEADER) < 0 ||
        (arg[ARG_TASKS] && open_output(&ex.tasks, arg[ARG_TASKS],
                                       IRQSTORM_EXPLAIN_TASKS_HEADER) < 0)) {
        return -1;
    }
    ex.entries_out = ex.windows ? &ex.tasks : &ex.out;
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
