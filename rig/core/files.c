// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Creating the files of a run. The shared-log file and the guest's
 * settings live in a 0700 directory made by mkdtemp; the QMP socket is
 * made there by QEMU. Output files go to a directory the user chose, which
 * someone else may share: a symbolic link planted at an output's name must
 * not redirect what QEMU or the rig writes.
 */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gstdio.h>

static int create(const char *path, int flags, mode_t mode, GError **error)
{
	int fd = open(path, flags | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s%s", path, g_strerror(errno),
			    errno == ELOOP ? " (a symbolic link: refused)" : "");
	return fd;
}

/* A new file, 0600, that must not exist yet (nor be a symbolic link). */
int irqstorm_create_private_file(const char *path, GError **error)
{
	return create(path, O_RDWR | O_EXCL, 0600, error);
}

/* An output file, 0644, created afresh: whatever stood at its name (a
 * file of an earlier run, a symbolic link) is removed, never followed. */
int irqstorm_create_output_file(const char *path, GError **error)
{
	if (g_unlink(path) < 0 && errno != ENOENT) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot replace %s: %s", path, g_strerror(errno));
		return -1;
	}
	return create(path, O_WRONLY | O_EXCL, 0644, error);
}
