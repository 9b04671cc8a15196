// SPDX-License-Identifier: GPL-2.0-or-later
/* Build identities: see identity.h. */
#include <string.h>

#include "identity.h"

char **irqstorm_identity_read(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GStrvBuilder) id = g_strv_builder_new();

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (gsize i = 0; lines[i]; i++) {
		char *eq = strchr(lines[i], '=');

		if (!eq)
			continue;
		*eq = '\0';
		g_strv_builder_add(id, lines[i]);
		g_strv_builder_add(id, eq + 1);
	}
	return g_strv_builder_end(id);
}

#define KEY_NAME(id, key, help)	[IRQSTORM_ID_##id] = key,
static const char *const key_names[IRQSTORM_ID_COUNT] = {
	IRQSTORM_DEBIAN_IDENTITY(KEY_NAME)
	IRQSTORM_QEMU_IDENTITY(KEY_NAME)
	IRQSTORM_KERNEL_IDENTITY(KEY_NAME)
};
#undef KEY_NAME

const char *irqstorm_identity_key(enum irqstorm_identity_key key)
{
	return key_names[key];
}

const char *irqstorm_identity_get(char *const *id, enum irqstorm_identity_key key)
{
	for (gsize i = 0; id && id[i] && id[i + 1]; i += 2)
		if (!strcmp(id[i], key_names[key]))
			return id[i + 1];
	return NULL;
}

char *irqstorm_identity_kernel_source(char *const *id)
{
	const char *debian = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_DEBIAN_SOURCE);
	const char *tree = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE);
	const char *version = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_VERSION);
	const char *commit = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_COMMIT);
	const char *changes = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_CHANGES);
	const char *files = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_TREE_FILES);

	if (debian)
		return g_strdup(debian);
	if (!tree)
		return NULL;
	if (commit)
		return g_strdup_printf("tree %s (Linux %s) at %.12s%s%s", tree,
				       version ? version : "?", commit,
				       g_strcmp0(changes, "none") ? " with changes " : "",
				       g_strcmp0(changes, "none") ? (changes ? changes : "?") : "");
	return g_strdup_printf("tree %s (Linux %s), files %s", tree,
			       version ? version : "?", files ? files : "?");
}
