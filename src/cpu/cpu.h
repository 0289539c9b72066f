/* What the CPU backends share (src/ref/, src/neon/, and GLES's host-side
 * index scan): order keys, the odometer over strided tensors, TopK's bounded
 * heap, GatherND's index handling and ElementWiseIf's runs. */
#ifndef EDMLI_CPU_H
#define EDMLI_CPU_H

#include "../core/internal.h"
#include "iter.h"

#include <string.h>

/* Elements converted to keys at a time (a stack array of this many keys:
 * 512 bytes of the reference kernels' frames). */
#define EDMLI_CPU_CHUNK 64u

/* ---- parts: the work cut for the device's parallel-for ------------------------ */

/* The least data a part gets: an operator with less runs on the calling
 * thread, where a parallel-for would cost more than it saves. */
#define EDMLI_CPU_MIN_PART_BYTES (32u << 10)

/* Parts for `units` independent units of work touching `bytes` in all, on
 * the operator's workers: at most one a worker and a unit, none under the
 * minimum (64 bytes with EDML_FAULT_SMALL_PARTS, for tests). */
uint32_t edmli_cpu_parts(const edml_operator *op, uint64_t units, uint64_t bytes);
/* The same for copy-bound work, whose parts the workers claim as they come
 * free: up to EDMLI_CPU_PARTS_A_WORKER a worker (at most 64), so that a
 * worker that started late or runs slower (a memory channel shared, a vCPU
 * descheduled) holds the others up by a quarter of a share at most. */
#define EDMLI_CPU_PARTS_A_WORKER 4u
uint32_t edmli_cpu_parts_balanced(const edml_operator *op, uint64_t units, uint64_t bytes);
/* Part p of `parts` over [0, units): [*begin, *end), the sizes within one
 * `align` of each other, every boundary a multiple of `align`. */
void edmli_cpu_range(uint64_t units, uint32_t parts, uint32_t p, uint64_t align, uint64_t *begin, uint64_t *end);
/* Runs task for parts [0, parts): through the device's parallel-for, or
 * (one part, or none given) on the calling thread, worker 0. Fails
 * (BACKEND_FAILED) where the parallel-for did not run every part once. */
edml_status edmli_cpu_parallel(const edmli_exec *ex, uint32_t parts, edml_task_fn task, void *arg);

/* ---- order keys ------------------------------------------------------------ */

/* Loads n elements (stride in bytes) as 64-bit keys whose unsigned order is
 * the order of docs/semantics.md: integers as integers, -0 == +0, every NaN
 * equal and above +inf (NaN key is UINT64_MAX). */
typedef void (*edmli_keys_fn)(const uint8_t *p, int64_t stride, uint32_t n, uint64_t *keys);
edmli_keys_fn edmli_keys_for(EDML_TENSOR_DATA_TYPE t);
#define EDMLI_NAN_KEY UINT64_MAX

/* Stores an index into an index tensor element of type t. */
static inline void edmli_store_index(uint8_t *p, EDML_TENSOR_DATA_TYPE t, uint64_t v)
{
    if (t == EDML_TENSOR_DATA_TYPE_UINT64 || t == EDML_TENSOR_DATA_TYPE_INT64) {
        memcpy(p, &v, 8);
    } else {
        const uint32_t w = (uint32_t)v;
        memcpy(p, &w, 4);
    }
}

/* ---- TopK: a bounded heap of (key, index) ------------------------------------ */

typedef struct edmli_topk_entry {
    uint64_t key;
    uint32_t idx;
    uint32_t pad;
} edmli_topk_entry;

/* Offers n keys (indices first_index..) to a heap of `count` <= k entries that
 * keeps the k largest keys ^ flip, earlier index first on ties; returns the new count. */
uint32_t edmli_topk_select(edmli_topk_entry *heap, uint32_t k, uint32_t count, const uint64_t *keys, uint32_t n,
                           uint32_t first_index, uint64_t flip);
/* Offers n entries of another heap (keys already flipped) to a full heap of
 * k, under the same order: the union's best k. */
void edmli_topk_merge(edmli_topk_entry *heap, uint32_t k, const edmli_topk_entry *other, uint32_t n);
/* Sorts a full heap of k in place, best first. */
void edmli_topk_drain(edmli_topk_entry *heap, uint32_t k);
/* Writes the sorted k entries' values (copied from the input) and indices. */
void edmli_topk_write(const edml_operator *op, const edmli_topk_entry *best, const uint8_t *in, uint8_t *val,
                      uint8_t *idx);
/* Scratch of one heap of K entries. */
uint64_t edmli_topk_heap_bytes(const edml_operator *op);

/* ---- GatherND ------------------------------------------------------------------ */

/* The first index out of range, and how many were. */
typedef struct edmli_gather_oor {
    uint64_t count;
    uint64_t element; /* flat position of the first bad index element */
    uint32_t coord;
    int64_t value;
    uint64_t uvalue;
    bool is_unsigned;
} edmli_gather_oor;
/* Reads and clamps one index tuple, returning the input byte offset; counts
 * and records the first bad index. */
int64_t edmli_gather_tuple_offset(const edml_operator *op, const uint8_t *tuple, uint64_t element_base,
                                  edmli_gather_oor *oor);
edml_status edmli_gather_report(const edml_operator *op, const edmli_exec *ex, const edmli_gather_oor *oor);
/* Copies n bytes of a packed row (memcpy, or a backend's own). */
typedef void (*edmli_copy_fn)(void *dst, const void *src, size_t n);
/* A GatherND cut into parts over its index positions. */
typedef struct edmli_gather_job {
    const edml_operator *op;
    const edmli_exec *ex;
    edmli_copy_fn copy;
    edmli_odo positions;
    uint64_t count;
    uint32_t parts;
    edmli_gather_oor *oor; /* a part's each: in scratch with several parts (edmli_gather_temp_bytes), else `one` */
    edmli_gather_oor one;
} edmli_gather_job;
/* Scratch of a GatherND whose parts each count their clamped indices. */
uint64_t edmli_gather_temp_bytes(const edml_operator *op);
/* The parts a parallel gather takes (workers claim them as they come free). */
uint32_t edmli_gather_parts(const edml_operator *op);
/* Part `part`'s index positions [pos, end): clamps, counts the clamped
 * indices in j->oor[part] and copies the slices. */
void edmli_cpu_gather_range(edmli_gather_job *j, uint32_t part, uint64_t pos, uint64_t end);
/* The default part task: edmli_cpu_gather_range over the part's range. */
void edmli_cpu_gather_part(void *job, uint32_t part, uint32_t worker);
/* GatherND on the CPU: packed rows copied by `copy` (NULL: memcpy), other
 * slices element by element; in parts over the index positions when
 * `parallel`, each run by `task` (NULL: edmli_cpu_gather_part). */
edml_status edmli_cpu_gather_nd(const edml_operator *op, const edmli_exec *ex, bool parallel, edmli_copy_fn copy,
                                edml_task_fn task);
/* Scans the indices only and reports as edmli_cpu_gather_nd would. */
edml_status edmli_gather_check(const edml_operator *op, const edmli_exec *ex);

/* ---- ElementWiseIf ---------------------------------------------------------------- */

/* An odometer over the plan's dims but the innermost (condition, A, B,
 * output), and the scalar run of n elements (strides in bytes). */
void edmli_elementwise_if_outer(const edml_operator *op, edmli_odo *o);
typedef void (*edmli_elementwise_if_run_fn)(const uint8_t *c, const uint8_t *a, const uint8_t *b, uint8_t *o,
                                            uint32_t n, const int64_t *st);
edmli_elementwise_if_run_fn edmli_elementwise_if_run_for(uint32_t elem_size);

#endif /* EDMLI_CPU_H */
