/* GATHER_ND and GATHER_ND1: validation and planning. */
#include "internal.h"

edml_status edmli_plan_gather_nd(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    EDML_GATHER_ND1_OPERATOR_DESC d;
    if (desc->Type == EDML_OPERATOR_GATHER_ND) {
        const EDML_GATHER_ND_OPERATOR_DESC *v0 = (const EDML_GATHER_ND_OPERATOR_DESC *)desc->Desc;
        d.InputTensor = v0->InputTensor;
        d.IndicesTensor = v0->IndicesTensor;
        d.OutputTensor = v0->OutputTensor;
        d.InputDimensionCount = v0->InputDimensionCount;
        d.IndicesDimensionCount = v0->IndicesDimensionCount;
        d.BatchDimensionCount = 0;
    } else {
        d = *(const EDML_GATHER_ND1_OPERATOR_DESC *)desc->Desc;
    }
    op->input_count = 2;
    op->output_count = 1;
    op->input_names[0] = "InputTensor";
    op->input_names[1] = "IndicesTensor";
    op->output_names[0] = "OutputTensor";
    edmli_tensor *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    edml_status s;
    if ((s = edmli_tensor_from_desc(e, "InputTensor", d.InputTensor, in))) return s;
    if ((s = edmli_tensor_from_desc(e, "IndicesTensor", d.IndicesTensor, ix))) return s;
    if ((s = edmli_tensor_from_desc(e, "OutputTensor", d.OutputTensor, out))) return s;
    if ((s = edmli_check_same_rank(e, "IndicesTensor", ix, "InputTensor", in))) return s;
    if ((s = edmli_check_same_rank(e, "OutputTensor", out, "InputTensor", in))) return s;
    if (out->dtype != in->dtype)
        return edmli_fail(e, EDMLI_MSG_DTYPE_MISMATCH, "OutputTensor", edmli_dtype_name(out->dtype), "InputTensor",
                          edmli_dtype_name(in->dtype));
    switch (ix->dtype) {
    case EDML_TENSOR_DATA_TYPE_INT32:
    case EDML_TENSOR_DATA_TYPE_INT64:
    case EDML_TENSOR_DATA_TYPE_UINT32:
    case EDML_TENSOR_DATA_TYPE_UINT64: break;
    default:
        return edmli_fail(e, EDMLI_MSG_DTYPE_NOT_ALLOWED, "IndicesTensor", edmli_dtype_name(ix->dtype),
                          "INT32, INT64, UINT32 or UINT64");
    }
    const uint32_t n = in->rank, in_dc = d.InputDimensionCount, ix_dc = d.IndicesDimensionCount, B = d.BatchDimensionCount;
    if (in_dc < 1 || in_dc > n) return edmli_fail(e, EDMLI_MSG_GATHER_DIMCOUNT, "InputDimensionCount", in_dc, "InputTensor", n);
    if (ix_dc < 1 || ix_dc > n)
        return edmli_fail(e, EDMLI_MSG_GATHER_DIMCOUNT, "IndicesDimensionCount", ix_dc, "IndicesTensor", n);
    const uint32_t in0 = n - in_dc, ix0 = n - ix_dc;
    for (uint32_t i = 0; i < in0; i++)
        if (in->sizes[i] != 1) return edmli_fail(e, EDMLI_MSG_GATHER_LEADING, "InputTensor", i, in->sizes[i], in_dc);
    for (uint32_t i = 0; i < ix0; i++)
        if (ix->sizes[i] != 1) return edmli_fail(e, EDMLI_MSG_GATHER_LEADING, "IndicesTensor", i, ix->sizes[i], ix_dc);
    const uint32_t min_dc = in_dc < ix_dc ? in_dc : ix_dc;
    if (B >= min_dc) return edmli_fail(e, EDMLI_MSG_GATHER_BATCH, B, min_dc);
    const uint32_t T = ix->sizes[n - 1];
    if (T < 1 || T > in_dc - B) return edmli_fail(e, EDMLI_MSG_GATHER_TUPLE, n - 1, T, in_dc - B);
    for (uint32_t b = 0; b < B; b++)
        if (ix->sizes[ix0 + b] != in->sizes[in0 + b])
            return edmli_fail(e, EDMLI_MSG_SIZE_MISMATCH, "IndicesTensor", ix0 + b, ix->sizes[ix0 + b], "InputTensor",
                              in0 + b, in->sizes[in0 + b]);

    /* The output's sizes: batch, index positions, input slice, right-aligned. */
    const uint32_t P = ix_dc - B - 1, S = in_dc - B - T, m = B + P + S;
    uint32_t list[3 * EDMLI_MAX_DIMS] = {0};
    const char *what[3 * EDMLI_MAX_DIMS] = {0};
    for (uint32_t b = 0; b < B; b++) { list[b] = in->sizes[in0 + b]; what[b] = "a batch size"; }
    for (uint32_t p = 0; p < P; p++) { list[B + p] = ix->sizes[ix0 + B + p]; what[B + p] = "an IndicesTensor size"; }
    for (uint32_t q = 0; q < S; q++) { list[B + P + q] = in->sizes[in0 + B + T + q]; what[B + P + q] = "an InputTensor size"; }
    for (uint32_t L = 0; m > n && L < m - n; L++)
        if (list[L] != 1) return edmli_fail(e, EDMLI_MSG_GATHER_OUT_RANK, m, n);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t want = 1;
        const char *why = "a leading 1";
        if (j + m >= n) { want = list[j + m - n]; why = what[j + m - n]; }
        if (out->sizes[j] != want) return edmli_fail(e, EDMLI_MSG_GATHER_OUT_SIZE, j, out->sizes[j], want, why);
    }
    if ((s = edmli_check_output_layout(e, "OutputTensor", out))) return s;

    edmli_gather_nd_plan *g = &op->plan.gather_nd;
    g->input_dims = in_dc;
    g->indices_dims = ix_dc;
    g->batch_dims = B;
    g->tuple = T;
    g->tuple_stride = ix->strides[n - 1];
    /* output dim of list entry L, when it has one */
#define EDMLI_OUT_STRIDE(L) ((L) + n >= m ? out->strides[(L) + n - m] : 0u)
    g->outer_rank = 0;
    for (uint32_t L = 0; L < B + P; L++) {
        if (list[L] == 1) continue;
        uint32_t r = g->outer_rank++;
        g->outer_sizes[r] = list[L];
        g->outer_idx_strides[r] = ix->strides[ix0 + L];
        g->outer_in_strides[r] = L < B ? in->strides[in0 + L] : 0;
        g->outer_out_strides[r] = EDMLI_OUT_STRIDE(L);
    }
    for (uint32_t j = 0; j < T; j++) {
        g->coord_dims[j] = in0 + B + j;
        g->coord_sizes[j] = in->sizes[in0 + B + j];
        g->coord_strides[j] = in->strides[in0 + B + j];
    }
    g->slice_rank = 0;
    for (uint32_t q = 0; q < S; q++) {
        uint32_t L = B + P + q;
        if (list[L] == 1) continue;
        uint32_t r = g->slice_rank++;
        g->slice_sizes[r] = list[L];
        g->slice_in_strides[r] = in->strides[in0 + B + T + q];
        g->slice_out_strides[r] = EDMLI_OUT_STRIDE(L);
    }
#undef EDMLI_OUT_STRIDE
    return EDML_STATUS_OK;
}
