// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix: how a cell ended, outcome or tool failure, and what
 * that makes the matrix's exit status. See matrix.h.
 */
#include "matrix.h"

#include <string.h>

const char *irqstorm_cell_end_name(IrqstormCellEnd end)
{
	switch (end) {
	case IRQSTORM_CELL_PASSED:
		return "passed";
	case IRQSTORM_CELL_THRESHOLD:
		return "threshold";
	case IRQSTORM_CELL_STALL:
		return "stall";
	case IRQSTORM_CELL_REFUSED:
		return "refused";
	case IRQSTORM_CELL_KERNEL:
		return "kernel";
	case IRQSTORM_CELL_TOOL_FAILURE:
		return "tool failure";
	case IRQSTORM_CELL_INTERRUPTED:
		return "interrupted";
	case IRQSTORM_CELL_NOT_RUN:
	default:
		return "not run";
	}
}

gboolean irqstorm_cell_end_is_outcome(IrqstormCellEnd end)
{
	return end != IRQSTORM_CELL_NOT_RUN && end != IRQSTORM_CELL_TOOL_FAILURE &&
	       end != IRQSTORM_CELL_INTERRUPTED;
}

/* The guest's result line said something other than status=ok. */
static gboolean guest_refused(const IrqstormSummary *s)
{
	return s->guest_status && strcmp(s->guest_status, "ok");
}

IrqstormCellEnd irqstorm_matrix_classify(int code, const IrqstormSummary *s,
					 char **why)
{
	*why = NULL;
	if (!s) {
		*why = g_strdup("no readable summary.json");
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	if (code != s->return_code) {
		*why = g_strdup_printf("exit status %d, but summary.json says %d",
				       code, s->return_code);
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	/* The kernel failed the run, complete or cut short by it. */
	if (code == IRQSTORM_EXIT_KERNEL && s->kernel_failure) {
		*why = g_strdup(s->kernel_failure);
		return IRQSTORM_CELL_KERNEL;
	}
	if (!s->complete) {
		*why = g_strdup(s->incomplete_reason);
		return code == IRQSTORM_EXIT_ERROR && guest_refused(s) ?
		       IRQSTORM_CELL_REFUSED : IRQSTORM_CELL_TOOL_FAILURE;
	}
	if (s->failed_checks) {
		*why = g_strdup_printf("%u cross-check%s failed (summary.json "
				       "failed_checks)", s->failed_checks,
				       s->failed_checks == 1 ? "" : "s");
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	switch (code) {
	case IRQSTORM_EXIT_PASSED:
		return IRQSTORM_CELL_PASSED;
	case IRQSTORM_EXIT_THRESHOLD:
		return IRQSTORM_CELL_THRESHOLD;
	case IRQSTORM_EXIT_STALL:
		return IRQSTORM_CELL_STALL;
	default:
		*why = g_strdup_printf("exit status %d from a complete run "
				       "without a failed check", code);
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
}

int irqstorm_matrix_exit_code(const IrqstormCellEnd *ends, guint n)
{
	/* The statuses by rank: a tool failure above a kernel's fault, above
	 * a stall or refusal, above a threshold, above a pass. */
	static const int rank[] = {
		IRQSTORM_EXIT_PASSED, IRQSTORM_EXIT_THRESHOLD, IRQSTORM_EXIT_STALL,
		IRQSTORM_EXIT_KERNEL, IRQSTORM_EXIT_TOOL_FAILURE,
	};
	static const int status[] = {
		[IRQSTORM_CELL_PASSED] = IRQSTORM_EXIT_PASSED,
		[IRQSTORM_CELL_THRESHOLD] = IRQSTORM_EXIT_THRESHOLD,
		[IRQSTORM_CELL_STALL] = IRQSTORM_EXIT_STALL,
		[IRQSTORM_CELL_REFUSED] = IRQSTORM_EXIT_STALL,
		[IRQSTORM_CELL_KERNEL] = IRQSTORM_EXIT_KERNEL,
		[IRQSTORM_CELL_TOOL_FAILURE] = IRQSTORM_EXIT_TOOL_FAILURE,
	};
	guint worst = 0;

	for (guint i = 0; i < n; i++) {
		if (ends[i] == IRQSTORM_CELL_NOT_RUN || ends[i] == IRQSTORM_CELL_INTERRUPTED)
			return IRQSTORM_EXIT_ERROR;
		for (guint r = worst; r < G_N_ELEMENTS(rank); r++)
			if (rank[r] == status[ends[i]])
				worst = r;
	}
	return rank[worst];
}
