/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Build identities: the key=value files scripts/build-qemu.sh and
 * scripts/build-kernel.sh write beside what they build (qemu-identity,
 * kernel-KERNEL-identity; their keys: irqstorm/identity.h), read in one
 * place for the summary, the checks and the comparisons.
 */
#ifndef IRQSTORM_CORE_IDENTITY_H
#define IRQSTORM_CORE_IDENTITY_H

#include <glib.h>

#include "irqstorm/identity.h"

/*
 * The lines of identity file name in dir, in order, as a NULL-terminated
 * array: key, value, key, value...; NULL when it cannot be read. Lines
 * without '=' are skipped.
 */
char **irqstorm_identity_read(const char *dir, const char *name);

/* The key's name, as the files spell it ("kernel-tree-commit"). */
const char *irqstorm_identity_key(enum irqstorm_identity_key key);

/* The value of key in id (from irqstorm_identity_read()), or NULL. */
const char *irqstorm_identity_get(char *const *id, enum irqstorm_identity_key key);

/*
 * The source of the kernel a kernel identity names, in words: Debian's
 * package and version ("linux-source-6.12 6.12.118-1"), or the user's tree
 * with its version, commit and changes; NULL when it names none.
 */
char *irqstorm_identity_kernel_source(char *const *id);

#endif
