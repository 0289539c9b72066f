/* The figures AUTO's cost model weighs for an operator (cost_model.c),
 * and the kernel path each backend's plan runs it by, for the library's
 * own board report (tools/bench/report_model.c), which fits the model's
 * lines on them: one implementation, so that a line is fitted on what it
 * will be asked to price. Not part of edml.h's API. */
#ifndef EDMLI_COST_FIGURES_H
#define EDMLI_COST_FIGURES_H

#include "edml.h"

#include <stdbool.h>

/* MiB moved, millions of elements of the largest tensor, of rows, of
 * FLOAT16 input elements, of elements of one row, of input elements gone
 * through down columns, of candidates TopK keeps (cost_model.c). */
#define EDMLI_COST_FIGURES 7

/* The kernel paths the model has lines for (edml_cost_term.path: a path's
 * place in this list, from 1; 0 prices every path of its family):
 * X(NAME, family, backend, words). A backend's plan says which one runs
 * an operator, and with how many parts (edmli_backend.path). */
#define EDMLI_COST_PATHS(X)                                      \
    X(NEON_TOPK_ROWS, TOPK, NEON, "rows")                        \
    X(NEON_TOPK_SPLIT, TOPK, NEON, "few long rows, split")       \
    X(NEON_TOPK_SELECT, TOPK, NEON, "threshold select")          \
    X(NEON_TOPK_COLUMNS, TOPK, NEON, "down columns")             \
    X(NEON_TOPK_WIDE, TOPK, NEON, "64-bit keys")                 \
    X(NEON_ARG_SHORT, ARGREDUCE, NEON, "short rows")             \
    X(NEON_ARG_NARROW, ARGREDUCE, NEON, "2 or 3 columns")        \
    X(NEON_ARG_ROWS, ARGREDUCE, NEON, "rows")                    \
    X(NEON_ARG_DOWN, ARGREDUCE, NEON, "down columns")            \
    X(NEON_ARG_WIDE, ARGREDUCE, NEON, "64-bit keys")             \
    X(NEON_GATHER_POINTS, GATHER_ND, NEON, "points")             \
    X(NEON_GATHER_SLICES, GATHER_ND, NEON, "slices")             \
    X(NEON_IF_RUNS, ELEMENT_WISE_IF, NEON, "runs")               \
    X(NEON_IF_PIXELS, ELEMENT_WISE_IF, NEON, "pixels")           \
    X(GLES_TOPK_SELECT, TOPK, GLES, "a workgroup a row")         \
    X(GLES_TOPK_LISTS, TOPK, GLES, "lists an invocation")        \
    X(GLES_TOPK_SMALL, TOPK, GLES, "one short row")              \
    X(GLES_TOPK_RANK, TOPK, GLES, "ranks")                       \
    X(GLES_ARG_ALONG, ARGREDUCE, GLES, "along rows")             \
    X(GLES_ARG_COLS, ARGREDUCE, GLES, "down columns in vectors") \
    X(GLES_ARG_STRIDED, ARGREDUCE, GLES, "strided")              \
    X(GLES_GATHER, GATHER_ND, GLES, "gather")                    \
    X(GLES_IF, ELEMENT_WISE_IF, GLES, "select")

#define EDMLI_COST_PATH_ENUM(name, family, backend, words) EDMLI_COST_PATH_##name,
enum {
    EDMLI_COST_PATH_ANY,
    EDMLI_COST_PATHS(EDMLI_COST_PATH_ENUM) EDMLI_COST_PATH_COUNT
};
#undef EDMLI_COST_PATH_ENUM

/* The path a backend runs an operator by, the parts it splits into (the
 * device's workers at most; 1 where it does not split), and the bytes of
 * the elements it compares or moves (the model's lines are kept apart by
 * them too). */
typedef struct edmli_cost_path {
    uint32_t path, parts, elem_bytes;
} edmli_cost_path;

/* The figures of the operator `op` (a handle edml_operator_create() gave,
 * on the backend it was made on, with host memory or GPU buffers) into f;
 * false where op is no live operator or its device is busy. */
bool edmli_cost_figures(const edml_operator *op, bool gpu_buffers, double f[EDMLI_COST_FIGURES]);
/* The path the backend op was created on runs it by (or, for an operator
 * of AUTO, `cpu`: its CPU side's); false as edmli_cost_figures. */
bool edmli_cost_path_of(const edml_operator *op, bool cpu, edmli_cost_path *out);
/* The device's model's time for op (made by name on a backend) with host
 * memory or GPU buffers, in ms; false where the model has no line for it. */
bool edmli_cost_predicted(const edml_operator *op, bool gpu_buffers, double *ms);
/* A path's words ("short rows"), or "" for a number no path has. */
const char *edmli_cost_path_name(uint32_t path);
/* The family (EDML_COST_*) and backend of a path; false for none. */
bool edmli_cost_path_info(uint32_t path, uint32_t *family, edml_backend *backend);

#endif
