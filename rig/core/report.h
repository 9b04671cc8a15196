/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human summary of a run: how it ended, its counts, per channel its
 * stages, what stalled or failed, the thresholds.
 */
#ifndef IRQSTORM_REPORT_H
#define IRQSTORM_REPORT_H

#include <stdio.h>

#include "results.h"

void irqstorm_results_print(const IrqstormResults *res, FILE *out);

#endif /* IRQSTORM_REPORT_H */
