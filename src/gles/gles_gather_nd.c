/* GatherND on the GPU: output-driven, 16-byte vectors where whole slices
 * are aligned; clamped indices counted on the GPU, worded on the host. */
#include "gles.h"
#include "../cpu/cpu.h"

/* The walk over the output (the plan's outer dims, then the slice's), the
 * tuple's coordinates, and whether an invocation can copy 16 bytes: the
 * output packed, each slice a run of whole 16-byte vectors starting
 * 16-byte aligned in the input. */
static void edmli_gles_gather_walk(const edml_operator *op, edmli_gather_nd_prm *prm)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    prm->slice_elements = 1;
    for (uint32_t d = 0; d < g->outer_rank; d++)
        prm->dims[prm->dim_count++] =
            (edmli_gather_dim_prm){g->outer_sizes[d], g->outer_idx_strides[d], g->outer_in_strides[d], 0};
    for (uint32_t d = 0; d < g->slice_rank; d++) {
        prm->dims[prm->dim_count++] = (edmli_gather_dim_prm){g->slice_sizes[d], 0, g->slice_in_strides[d], 2};
        prm->slice_elements *= g->slice_sizes[d];
    }
    prm->tuple = g->tuple;
    prm->tuple_stride = g->tuple_stride;
    for (uint32_t j = 0; j < g->tuple; j++) {
        prm->coord_sizes[j] = g->coord_sizes[j];
        prm->coord_strides[j] = g->coord_strides[j];
    }
    const uint32_t es = op->inputs[0].elem_size;
    bool vec = edmli_gles_packed(&op->outputs[0]) && ((prm->data.offset | prm->result.t.offset) & 15u) == 0 &&
               (uint64_t)prm->slice_elements * es % 16 == 0;
    uint64_t run = 1;
    for (uint32_t d = g->slice_rank; d-- > 0; run *= g->slice_sizes[d]) vec = vec && g->slice_in_strides[d] == run;
    for (uint32_t d = 0; d < g->outer_rank; d++) vec = vec && (uint64_t)g->outer_in_strides[d] * es % 16 == 0;
    for (uint32_t j = 0; j < g->tuple; j++) vec = vec && (uint64_t)g->coord_strides[j] * es % 16 == 0;
    prm->vectors = vec;
}

/* The status words (count of clamped coordinates, the first): the status
 * block (binding 2) is the device's mapped status buffer (slot 0, or in a command list's batch
 * the next free slot, noted with its entry), or the GPU arena with the
 * operator's block in it, kept between calls (`kept`) or placed for this
 * one. */
static edml_status edmli_gles_gather_status(edmli_gles_run *r, uint32_t entry, uint32_t *offset, bool *kept)
{
    edmli_gles *g = r->g;
    *kept = false;
    if (g->status_map) {
        const bool batched = g->batching && !g->bake;
        const uint32_t slot = batched ? g->batch_gathers++ : 0; /* batch_takes left one free */
        if (batched) g->gather_entry[slot] = entry;
        *offset = slot * (uint32_t)sizeof edmli_gles_status_init;
        return EDML_STATUS_OK;
    }
    return edmli_gles_place_words(r, edmli_gles_status_init, sizeof edmli_gles_status_init, offset, kept);
}

/* After the call: the status words read (through the mapping, or fetched),
 * and set back where the call changed them or failed (its kernel maybe
 * still running: in GL's order, after it). In a batch, they are read when
 * the batch completes. */
static edml_status edmli_gles_gather_end(edmli_gles_run *r, uint32_t off_status, bool kept, uint32_t status[2])
{
    edmli_gles *g = r->g;
    const bool batched = g->batching && !g->bake;
    status[0] = status[1] = 0;
    if (!g->status_map) edmli_gles_fetch(r, off_status, status, 2 * sizeof *status);
    edml_status s = edmli_gles_finish(r);
    if (g->bake || batched) return s;
    if (g->status_map && !s) status[0] = g->status_map[0], status[1] = g->status_map[1];
    if (g->status_map && (s || status[0])) edmli_gles_status_reset(g, 1);
    if (kept && (s || status[0]))
        edmli_gles_write(g, off_status, edmli_gles_status_init, sizeof edmli_gles_status_init);
    return s;
}

edml_status edmli_gles_gather_clamped(const edml_operator *op, const edmli_exec *ex, const uint32_t status[2])
{
    if (!status[0]) return EDML_STATUS_OK;
    /* the GPU counted clamped coordinates: the host words the status as the
     * reference does, from the same indices (read back when resident) */
    if (ex->in_gpu[1] == EDMLI_HOST) return edmli_gather_check(op, ex);
    char what[96];
    edmli_format(what, sizeof what, "%u index coordinates were out of range and clamped (the first at element %u)",
                 status[0], status[1]);
    return edmli_fail(ex->err, EDMLI_MSG_INDEX_OOR_RESIDENT, what);
}

edml_status edmli_gles_gather_nd(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin_op(&r, op, ex->err);
    if (s) return s;
    uint32_t off_in, off_ix, off_out, off_status, status[2];
    bool kept;
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    if ((s = edmli_gles_input(&r, op, ex, 1, &off_ix))) return s;
    if ((s = edmli_gles_output(&r, op, ex, 0, &off_out))) return s;
    if ((s = edmli_gles_gather_status(&r, ex->entry, &off_status, &kept))) return s;
    edmli_gather_nd_prm prm = {.data = edmli_gles_tensor_prm(&op->inputs[0], off_in),
                               .indices = edmli_gles_tensor_prm(&op->inputs[1], off_ix),
                               .result = edmli_gles_output_prm(&op->outputs[0], off_out),
                               .status_offset = off_status};
    edmli_gles_gather_walk(op, &prm);
    const uint32_t es = op->inputs[0].elem_size;
    /* vectors: (ceil(vectors a slice / VEC_RUN)) invocations a slice */
    const uint64_t per = (uint64_t)prm.slice_elements * es / 16,
                   slices = op->outputs[0].elem_count / prm.slice_elements;
    const uint32_t units = prm.vectors ? (uint32_t)(slices * ((per + EDMLI_GLES_VEC_RUN - 1) / EDMLI_GLES_VEC_RUN))
                                       : edmli_gles_output_units(&op->outputs[0]);
    edmli_gles_run_gather_nd(&r, &prm, units, false);
    if ((s = edmli_gles_gather_end(&r, off_status, kept, status))) return s;
    return edmli_gles_gather_clamped(op, ex, status);
}
