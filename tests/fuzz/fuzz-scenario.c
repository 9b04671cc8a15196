// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for the scenario parser (libFuzzer). For any input the parser
 * must return a scenario or an error, never crash, leak or read out of
 * bounds (the target runs under AddressSanitizer and UBSan); and what it
 * accepts must survive a round trip: the effective scenario written back
 * out parses again to the same text.
 *
 * Built with -Dfuzz=true (clang): fuzz-scenario runs libFuzzer for a
 * bounded time over tests/fuzz/corpus/scenario. Without libFuzzer the same
 * file links with replay.c into fuzz-scenario-replay, which runs every
 * file of the corpus and of tests/fuzz/regressions/scenario (each crash a
 * fuzzer ever found) in every build.
 */
#include <stddef.h>
#include <stdint.h>
#include <glib.h>

#include "core/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The text without its comment lines (which say where it came from). */
static char *uncommented(const char *ini)
{
	g_auto(GStrv) lines = g_strsplit(ini, "\n", -1);
	GString *out = g_string_new(NULL);

	for (gsize i = 0; lines[i]; i++)
		if (lines[i][0] != '#')
			g_string_append_printf(out, "%s\n", lines[i]);
	return g_string_free(out, FALSE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data("fuzz", text, &err);
	g_autoptr(IrqstormScenario) again = NULL;
	g_autofree char *ini = NULL;
	g_autofree char *ini2 = NULL;
	g_autofree char *a = NULL;
	g_autofree char *b = NULL;

	if (!sc) {
		g_assert(err && err->message);
		return 0;
	}
	g_assert_no_error(err);
	ini = irqstorm_scenario_to_ini(sc);
	again = irqstorm_scenario_load_data("fuzz-round-trip", ini, &err);
	if (!again)
		g_error("round trip refused: %s\n--- input\n%s\n--- written\n%s",
			err->message, text, ini);
	ini2 = irqstorm_scenario_to_ini(again);
	a = uncommented(ini);
	b = uncommented(ini2);
	if (g_strcmp0(a, b))
		g_error("round trip changed the scenario:\n%s\n---\n%s", ini, ini2);
	return 0;
}
