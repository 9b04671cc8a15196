// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Runs a libFuzzer target over files without libFuzzer: every file named,
 * or every file in each directory named. Used to replay the corpus and
 * every regression in builds without clang's fuzzer runtime.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) err = NULL;
	gsize len;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		fprintf(stderr, "replay: %s\n", err->message);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0;

	for (int i = 1; i < argc; i++) {
		g_autoptr(GDir) dir = g_dir_open(argv[i], 0, NULL);
		const char *name;

		if (!dir) {
			if (replay_file(argv[i]))
				return 1;
			files++;
			continue;
		}
		while ((name = g_dir_read_name(dir))) {
			g_autofree char *path = g_build_filename(argv[i], name, NULL);

			if (replay_file(path))
				return 1;
			files++;
		}
	}
	printf("replayed %d inputs\n", files);
	return files ? 0 : 1;
}
