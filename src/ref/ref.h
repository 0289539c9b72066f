/* The reference backend's kernels, and the TopK heap the CPU backends share. */
#ifndef EDMLI_REF_H
#define EDMLI_REF_H

#include "../core/internal.h"
#include "../core/iter.h"

/* Elements converted to keys at a time (a stack array of this many keys). */
#define EDMLI_REF_CHUNK 256u

typedef struct edmli_topk_entry {
    uint64_t key;
    uint32_t idx;
    uint32_t pad;
} edmli_topk_entry;

/* Offers n keys (indices first_index..) to a heap of `count` <= k entries that
 * keeps the k largest keys ^ flip, earlier index first on ties; returns the new count. */
uint32_t edmli_topk_select(edmli_topk_entry *heap, uint32_t k, uint32_t count, const uint64_t *keys,
                           uint32_t n, uint32_t first_index, uint64_t flip);
/* Sorts a full heap of k in place, best first. */
void edmli_topk_drain(edmli_topk_entry *heap, uint32_t k);
/* Writes the sorted k entries' values (copied from the input) and indices. */
void edmli_topk_write(const edml_operator *op, const edmli_exec *ex, const edmli_topk_entry *best,
                      const uint8_t *in, uint8_t *val, uint8_t *idx);

edml_status edmli_ref_topk(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_gather_nd(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_argreduce(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_if(const edml_operator *op, const edmli_exec *ex);
/* ElementWiseIf, shared by the CPU backends: an odometer over the plan's
 * dims but the innermost (condition, A, B, output), and the scalar run of n
 * elements (strides in bytes). */
void edmli_if_outer(const edml_operator *op, edmli_odo *o);
typedef void (*edmli_if_run_fn)(const uint8_t *c, const uint8_t *a, const uint8_t *b, uint8_t *o, uint32_t n,
                                const int64_t *st);
edmli_if_run_fn edmli_if_run_for(uint32_t elem_size);
uint64_t edmli_ref_temp_bytes(const edml_operator *op);

/* GatherND helpers shared with the NEON backend: reads and clamps one tuple,
 * returning the input byte offset; counts and records the first bad index. */
typedef struct edmli_gather_oor {
    uint64_t count;
    uint64_t element;     /* flat position of the first bad index element */
    uint32_t coord;
    int64_t value;
    uint64_t uvalue;
    bool is_unsigned;
} edmli_gather_oor;
int64_t edmli_gather_tuple_offset(const edml_operator *op, const uint8_t *tuple, uint64_t element_base,
                                  edmli_gather_oor *oor);
edml_status edmli_gather_report(const edml_operator *op, const edmli_exec *ex, const edmli_gather_oor *oor);
/* Scans the indices only and reports as edmli_ref_gather_nd would. */
edml_status edmli_gather_check(const edml_operator *op, const edmli_exec *ex);

#endif /* EDMLI_REF_H */
