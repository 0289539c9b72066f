/* Where the GLES kernels switch from one shape to another: the thresholds
 * the dispatchers decide by, named here so that the differential test
 * (test/diff.c) generates operators on both sides of each, and retuning a
 * kernel cannot silently leave one side untested. Numbers only. */
#ifndef EDMLI_GLES_SHAPES_H
#define EDMLI_GLES_SHAPES_H

/* TopK: a row per invocation (registers, K at most THREAD_MAX_K) along a
 * strided axis, or along packed rows of at most THREAD_MAX_ROW elements,
 * when there are THREAD_MIN_ROWS rows or more; rows are cut into chunks of
 * at least CHUNK_MIN elements until about THREAD_TARGET invocations run, and
 * a workgroup of FOLD_LOCAL a row folds the chunks' lists into one (each
 * invocation those of chunks t, t + FOLD_LOCAL, ..., then in a tree through
 * shared memory). Otherwise a workgroup a row:
 * rows of at most SORT_MAX elements are sorted in shared memory, longer ones
 * go through a threshold first (SORT_MAX shrinks on GPUs with less shared
 * memory). */
#define EDMLI_GLES_TOPK_THREAD_MAX_K 16u
#define EDMLI_GLES_TOPK_THREAD_8_MAX_K 8u /* topk_thread_8: lists of 8, keys of 32 bits */
#define EDMLI_GLES_TOPK_THREAD_MAX_ROW 256u
#define EDMLI_GLES_TOPK_THREAD_MIN_ROWS 256u
#define EDMLI_GLES_TOPK_CHUNK_MIN 64u
#define EDMLI_GLES_TOPK_THREAD_TARGET 65536u
#define EDMLI_GLES_TOPK_FOLD_LOCAL 64u
#define EDMLI_GLES_SORT_MAX 1024u
/* Rows of at most RANK_MAX_ROW elements that no per-invocation list holds
 * (K above THREAD_MAX_K, or few rows): an invocation an element, ranked
 * against its row (topk_rank.comp; n reads an element: on the H100 longer
 * rows sort faster several to a workgroup, 4096 rows of 256 0.155 ms
 * against 0.300 ranked, though on llvmpipe ranking is 20 times faster). */
#define EDMLI_GLES_TOPK_RANK_MAX_ROW 128u
/* One row of at most SORT_MAX elements with K at most SMALL_MAX_K: one
 * dispatch (K rounds of shared atomics, then both outputs). */
#define EDMLI_GLES_TOPK_SMALL_MAX_K 16u

/* GatherND of slices of whole 16-byte vectors: an invocation copies up to
 * VEC_RUN vectors of one slice (its index tuple read once for all of them),
 * neighbouring invocations neighbouring vectors in each round, every load
 * before the first store. */
#define EDMLI_GLES_VEC_RUN 4u /* gather_nd.comp writes its four loads and stores out */

/* ArgMin/ArgMax along the packed last axis: sets of ROW_SET_GROUPS x LOCAL
 * elements or more take a group of threads (argreduce_partial), cut into
 * chunks of ROW_CHUNK_GROUPS x LOCAL elements, for about ROW_TARGET
 * (output, chunk) pairs. Down a strided axis of 32-bit elements read as
 * 16-byte vectors, sets of COLS_MIN_ROWS rows or more take argreduce_cols;
 * else an invocation per (output or four outputs, chunk of COL_CHUNK
 * elements), for about COL_TARGET invocations (argreduce). */
#define EDMLI_GLES_REDUCE_ROW_SET_GROUPS 4u
#define EDMLI_GLES_REDUCE_ROW_CHUNK_GROUPS 32u
#define EDMLI_GLES_REDUCE_ROW_TARGET 2048u
#define EDMLI_GLES_REDUCE_COLS_MIN_ROWS 64u
#define EDMLI_GLES_REDUCE_COL_CHUNK 64u
#define EDMLI_GLES_REDUCE_COL_TARGET 65536u

/* V3D's watchdog (the Raspberry Pi's GPU): the kernel driver resets a
 * compute job when no batch of 16 invocations finishes within 500 ms. On
 * V3D the planners keep each invocation's loops within these, so that the
 * model of gles_watchdog.c (loop iterations x the largest loop body that
 * Mesa's V3D compiler makes x 4 cycles x threads, at 500 MHz) stays under
 * 50 ms for every kernel at the largest shape the planner gives it (make
 * gpu-targets checks it with the compiler's own listings): elements an
 * ArgMin invocation reduces (more chunks, argreduce_final merging them);
 * argreduce_cols's batches (or argreduce takes the shape); elements and
 * fold lists a TopK list invocation takes; the longest row one topk_select
 * workgroup takes (longer rows go to the per-invocation lists where they
 * hold K, else the GPU refuses them). */
#define EDMLI_GLES_WATCHDOG_REDUCE_CHUNK 512u
#define EDMLI_GLES_WATCHDOG_COLS_BATCHES 64u
#define EDMLI_GLES_WATCHDOG_TOPK_CHUNK 2048u
#define EDMLI_GLES_WATCHDOG_FOLD_LISTS 256u
#define EDMLI_GLES_WATCHDOG_SELECT_ROW 32768u

/* ElementWiseIf and GatherND move 16 bytes an invocation where aligned. */
#define EDMLI_GLES_VECTOR_BYTES 16u

#endif /* EDMLI_GLES_SHAPES_H */
