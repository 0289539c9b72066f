/* The figures AUTO's cost model weighs for an operator (cost_model.c),
 * for the library's own board report (tools/bench/report_model.c), which
 * fits the model's lines on them: one implementation, so that a line is
 * fitted on what it will be asked to price. Not part of edml.h's API. */
#ifndef EDMLI_COST_FIGURES_H
#define EDMLI_COST_FIGURES_H

#include "edml.h"

#include <stdbool.h>

/* MiB of the tensors (inputs read, outputs written), millions of elements
 * of the largest, of rows, of FLOAT16 input elements, of elements of one
 * row, of input elements gone through down columns. */
#define EDMLI_COST_FIGURES 6

/* The figures of the operator `op` (a handle edml_operator_create()
 * gave) into f; false where op is no live operator or its device is busy. */
bool edmli_cost_figures(const edml_operator *op, double f[EDMLI_COST_FIGURES]);

#endif
