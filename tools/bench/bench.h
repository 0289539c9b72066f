/* edml-bench's parts (tools/bench/): each a mode of the tool. */
#ifndef EDML_BENCH_H
#define EDML_BENCH_H

#include "edml.h"

/* --mapped: ElementWiseIf through host memory, GPU buffers and mapped GPU
 * buffers (tools/bench/mapped.c); JSON rows of kind "mapped" to `json`. */
int bench_mapped(const char *json, int iters);

#endif
