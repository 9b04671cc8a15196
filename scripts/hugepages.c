// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transparent huge pages for the compilers of irqstorm's guest builds,
 * preloaded (LD_PRELOAD) into the kernel's make and QEMU's ninja by
 * scripts/lib.sh's build_hugepages: every large private anonymous mapping
 * a process makes (GCC's garbage-collected heap grows in 2 MB "quires")
 * is advised MADV_HUGEPAGE, the advice that a host whose
 * transparent_hugepage setting is "madvise" (Debian's default) waits for.
 * glibc's malloc does the same for its own heap with the tunable
 * glibc.malloc.hugetlb=1, set beside it.
 *
 * On the machines this project builds on, a page fault costs about 16 us
 * (a nested virtual machine): a compile of kernel/irq/manage.c takes
 * 16,500 of them with 4 KB pages and 3,000 with this, and 38 % less CPU
 * (docs/performance.md). What is compiled does not change: memory
 * placement is not an input of GCC's output, and every build it speeds up
 * is checked byte for byte (the kernels' bzImage against a build without
 * it). Thread stacks (MAP_STACK) are left alone: a 2 MB page for each
 * would only waste memory.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/mman.h>

#define HUGE_MIN	(2UL << 20)

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static mmap_fn real;
	void *p;

	if (!real)
		real = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
	p = real(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && len >= HUGE_MIN &&
	    (flags & (MAP_ANONYMOUS | MAP_PRIVATE | MAP_STACK)) == (MAP_ANONYMOUS | MAP_PRIVATE))
		madvise(p, len, MADV_HUGEPAGE);
	return p;
}

/* x86_64's mmap64 is mmap: one function under both names. */
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));
