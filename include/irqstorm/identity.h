/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Build identities: the key=value files the build scripts write beside
 * what they build (scripts/build-qemu.sh: qemu-identity; scripts/build-
 * kernel.sh: kernel-NAME-identity, NAME as the rig names the kernel;
 * scripts/build-initramfs.sh: initramfs-NAME-identity) and the rig reads
 * back into summary.json, the determinism check, compare and explain, each
 * key declared once. docs/abi.md describes them.
 */
#ifndef IRQSTORM_IDENTITY_H
#define IRQSTORM_IDENTITY_H

#define IRQSTORM_QEMU_IDENTITY_FILE	"qemu-identity"
/* The kernel's and its initramfs', printf formats of its name ("dyn-6.1"). */
#define IRQSTORM_KERNEL_IDENTITY_FILE_FMT	"kernel-%s-identity"
#define IRQSTORM_INITRAMFS_IDENTITY_FILE_FMT	"initramfs-%s-identity"

/*
 * X(ID, "key", "meaning"): the lines every identity has (scripts/debian.sh
 * writes them): the Debian inputs of scripts/debian-pins that went into the
 * build, and whether each was the pinned version.
 */
#define IRQSTORM_DEBIAN_IDENTITY(X)					\
	X(DEBIAN_INPUTS, "debian-inputs",				\
	  "the Debian packages it was made of, \"package version\", "	\
	  "comma-separated")						\
	X(DEBIAN_PINS, "debian-pins",					\
	  "exact (every input as scripts/debian-pins names it), or "	\
	  "\"package version (pinned V)\" for each that is not, "		\
	  "semicolon-separated")

/* X(ID, "key", "meaning"): the lines of qemu-identity. */
#define IRQSTORM_QEMU_IDENTITY(X)					\
	X(QEMU_DEBIAN_SOURCE, "qemu-debian-source",			\
	  "the version of Debian's qemu source built")			\
	X(QEMU_CACHE_KEY, "qemu-cache-key", "the build's key in the cache") \
	X(DEVICE, "irqstorm-device", "a hash of the device's sources")	\
	X(QEMU_FIXES, "qemu-fixes", "the patches applied to QEMU, by file name")

/*
 * X(ID, "key", "meaning"): the lines of kernel-NAME-identity. A kernel has
 * kernel-debian-source, or the kernel-tree keys (kernel-tree-commit and
 * -changes for a git work tree, else kernel-tree-files); all the others.
 */
#define IRQSTORM_KERNEL_IDENTITY(X)					\
	X(KERNEL_DEBIAN_SOURCE, "kernel-debian-source",			\
	  "Debian's source package and version built")			\
	X(KERNEL_TREE, "kernel-tree", "the user's tree built, its real path") \
	X(KERNEL_TREE_VERSION, "kernel-tree-version",			\
	  "its VERSION.PATCHLEVEL.SUBLEVEL")				\
	X(KERNEL_TREE_COMMIT, "kernel-tree-commit", "its git commit")	\
	X(KERNEL_TREE_CHANGES, "kernel-tree-changes",			\
	  "a hash of its uncommitted changes, or none")			\
	X(KERNEL_TREE_FILES, "kernel-tree-files",			\
	  "a hash of its files, when it is not a git work tree")	\
	X(KERNEL_RELEASE, "kernel-release", "the kernel's release string") \
	X(KERNEL_FLAVOUR, "kernel-flavour", "rt or dyn")		\
	X(KERNEL_CACHE_KEY, "kernel-cache-key", "the build's key in the cache") \
	X(DRIVER, "irqstorm-driver", "a hash of the driver's sources")	\
	X(KERNEL_PATCHES, "kernel-patches", "kernel-series or none")	\
	X(KERNEL_PREEMPT_MODES, "kernel-preempt-modes",			\
	  "the modes its preempt= takes, comma-separated; empty: none")	\
	X(KERNEL_IRQ_THREAD_AFFINITY, "kernel-irq-thread-affinity",	\
	  "user (sched_setaffinity() moves an IRQ thread) or interrupt "	\
	  "(the thread is bound, PF_NO_SETAFFINITY, and follows its "	\
	  "interrupt's affinity)")					\
	X(KERNEL_RT_BH_LOCK, "kernel-rt-bh-lock",			\
	  "PREEMPT_RT's per-CPU BH lock: on (6.12 always; 7.x built with "	\
	  "PREEMPT_RT_NEEDS_BH_LOCK) or off; empty: no PREEMPT_RT")	\
	X(KERNEL_NR_CPUS, "kernel-nr-cpus",				\
	  "the most CPUs it boots (CONFIG_NR_CPUS; 1 without SMP)")	\
	X(KERNEL_LAYOUT, "kernel-layout",				\
	  "NAME:OFFSET,...: where explain's plugin reads a task's and an "	\
	  "interrupt's names (kernel-series/layout/irqstorm-layout.c)")

#define IRQSTORM_IDENTITY_KEY_ENUM(id, key, help)	IRQSTORM_ID_##id,
enum irqstorm_identity_key {
	IRQSTORM_DEBIAN_IDENTITY(IRQSTORM_IDENTITY_KEY_ENUM)
	IRQSTORM_QEMU_IDENTITY(IRQSTORM_IDENTITY_KEY_ENUM)
	IRQSTORM_KERNEL_IDENTITY(IRQSTORM_IDENTITY_KEY_ENUM)
	IRQSTORM_ID_COUNT
};

#endif /* IRQSTORM_IDENTITY_H */
