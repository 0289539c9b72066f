/* GatherND on the GPU: output-driven, 16-byte vectors where whole slices
 * are aligned; clamped indices counted on the GPU, worded on the host. */
#include "gles.h"
#include "../cpu/cpu.h"

#include <string.h>

edml_status edmli_gles_gather_nd(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, EDMLI_GLES_STATE(op), ex->err);
    if (s) return s;
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    uint32_t off_in, off_ix, off_out, off_status;
    static const uint32_t status_init[4] = {0, 0xffffffffu, 0, 0};
    const edmli_tensor status_t = {.dtype = EDML_TENSOR_DATA_TYPE_UINT32, .elem_size = 4, .rank = 1, .sizes = {4},
                                   .strides = {1}, .elem_count = 4, .total_bytes = 16};
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    if ((s = edmli_gles_input(&r, op, ex, 1, &off_ix))) return s;
    if ((s = edmli_gles_output(&r, op, ex, 0, &off_out))) return s;
    if ((s = edmli_gles_place(&r, &status_t, (const uint8_t *)status_init, &off_status))) return s;
    memset(r.words, 0, sizeof r.words);
    edmli_gles_tensor_params(&r, 0, &op->inputs[0], off_in);
    edmli_gles_tensor_params(&r, 20, &op->inputs[1], off_ix);
    edmli_gles_tensor_params(&r, 40, &op->outputs[0], off_out);
    edmli_gles_inverse_params(&r, 60, &op->outputs[0]);
    r.words[69] = edmli_gles_packed(&op->outputs[0]);
    r.words[70] = (uint32_t)op->outputs[0].elem_count;
    uint32_t L = 0, slice = 1;
    for (uint32_t d = 0; d < g->outer_rank; d++, L++) {
        r.words[72 + 4 * L] = g->outer_sizes[d];
        r.words[73 + 4 * L] = g->outer_idx_strides[d];
        r.words[74 + 4 * L] = g->outer_in_strides[d];
        r.words[75 + 4 * L] = 0;
    }
    for (uint32_t d = 0; d < g->slice_rank; d++, L++) {
        r.words[72 + 4 * L] = g->slice_sizes[d];
        r.words[73 + 4 * L] = 0;
        r.words[74 + 4 * L] = g->slice_in_strides[d];
        r.words[75 + 4 * L] = 2;
        slice *= g->slice_sizes[d];
    }
    r.words[71] = L;
    r.words[170] = g->tuple;
    r.words[171] = g->tuple_stride;
    for (uint32_t j = 0; j < g->tuple; j++) {
        r.words[172 + j] = g->coord_sizes[j];
        r.words[180 + j] = g->coord_strides[j];
    }
    r.words[188] = off_status;
    r.words[189] = slice;
    /* vectors: the output packed, each slice a contiguous run of whole
     * 16-byte vectors starting 16-byte aligned in the input */
    const uint32_t es = op->inputs[0].elem_size;
    bool vec = edmli_gles_packed(&op->outputs[0]) && ((off_in | off_out) & 15u) == 0 && (uint64_t)slice * es % 16 == 0;
    uint64_t run = 1;
    for (uint32_t d = g->slice_rank; d-- > 0; run *= g->slice_sizes[d]) vec = vec && g->slice_in_strides[d] == run;
    for (uint32_t d = 0; d < g->outer_rank; d++) vec = vec && (uint64_t)g->outer_in_strides[d] * es % 16 == 0;
    for (uint32_t j = 0; j < g->tuple; j++) vec = vec && (uint64_t)g->coord_strides[j] * es % 16 == 0;
    r.words[190] = vec;
    uint32_t units = vec ? (uint32_t)(op->outputs[0].elem_count * es / 16) : edmli_gles_output_units(&op->outputs[0]);
    edmli_gles_dispatch(&r, EDMLI_GLES_PROG_GATHER_ND, units, false);
    uint32_t status[2];
    edmli_gles_fetch(&r, off_status, status, sizeof status);
    if ((s = edmli_gles_finish(&r))) return s;
    if (!status[0]) return EDML_STATUS_OK;
    /* the GPU counted clamped coordinates: the host words the status as the
     * reference does, from the same indices (read back when resident) */
    if (ex->in_gpu[1] == EDMLI_HOST) return edmli_gather_check(op, ex);
    char what[96];
    edmli_format(what, sizeof what, "%u index coordinates were out of range and clamped (the first at element %u)",
                 status[0], status[1]);
    return edmli_fail(ex->err, EDMLI_MSG_INDEX_OOR_RESIDENT, what);
}

