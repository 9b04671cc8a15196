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

gboolean irqstorm_write_file(const char *path, const char *contents, gssize len,
			     GError **error)
{
	g_autoptr(GError) err = NULL;

	if (g_file_set_contents_full(path, contents, len, G_FILE_SET_CONTENTS_CONSISTENT,
				     0644, &err))
		return TRUE;
	/* GLib names its temporary file; what failed is writing path. */
	g_set_error(error, err->domain, err->code, "cannot write %s: %s", path,
		    err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_ACCES ?
		    "permission denied (the directory is not writable)" :
		    err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_ROFS ?
		    "read-only file system" :
		    err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_NOSPC ?
		    "no space left on the device" :
		    err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_NOENT ?
		    "no such directory" : err->message);
	return FALSE;
}
