/* GATHER_ND and GATHER_ND1: validation and planning. */
#include "internal.h"

/* The descriptor as GATHER_ND1 (GATHER_ND is BatchDimensionCount 0). */
static EDML_GATHER_ND1_OPERATOR_DESC edmli_gather_nd1_of(const EDML_OPERATOR_DESC *desc)
{
    if (desc->Type != EDML_OPERATOR_GATHER_ND) return *(const EDML_GATHER_ND1_OPERATOR_DESC *)desc->Desc;
    const EDML_GATHER_ND_OPERATOR_DESC *v0 = (const EDML_GATHER_ND_OPERATOR_DESC *)desc->Desc;
    EDML_GATHER_ND1_OPERATOR_DESC d = {v0->InputTensor,         v0->IndicesTensor,         v0->OutputTensor,
                                       v0->InputDimensionCount, v0->IndicesDimensionCount, 0};
    return d;
}

/* The three tensors' types and ranks. */
static edml_status edmli_gather_tensors(edmli_errbuf *e, const edml_operator *op)
{
    const edmli_tensor *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    edml_status s;
    if ((s = edmli_check_same_rank(e, "IndicesTensor", ix, "InputTensor", in))) return s;
    if ((s = edmli_check_same_rank(e, "OutputTensor", out, "InputTensor", in))) return s;
    if (out->dtype != in->dtype)
        return edmli_fail(e, EDMLI_MSG_DTYPE_MISMATCH, "OutputTensor", edmli_dtype_name(out->dtype), "InputTensor",
                          edmli_dtype_name(in->dtype));
    switch (ix->dtype) {
    case EDML_TENSOR_DATA_TYPE_INT32:
    case EDML_TENSOR_DATA_TYPE_INT64:
    case EDML_TENSOR_DATA_TYPE_UINT32:
    case EDML_TENSOR_DATA_TYPE_UINT64: return EDML_STATUS_OK;
    default:
        return edmli_fail(e, EDMLI_MSG_DTYPE_NOT_ALLOWED, "IndicesTensor", edmli_dtype_name(ix->dtype),
                          "INT32, INT64, UINT32 or UINT64");
    }
}

/* The dimension counts: leading 1s, the batch, the tuple size. */
static edml_status edmli_gather_counts(edmli_errbuf *e, const EDML_GATHER_ND1_OPERATOR_DESC *d, const edmli_tensor *in,
                                       const edmli_tensor *ix)
{
    const uint32_t n = in->rank, in_dc = d->InputDimensionCount, ix_dc = d->IndicesDimensionCount,
                   B = d->BatchDimensionCount;
    if (in_dc < 1 || in_dc > n)
        return edmli_fail(e, EDMLI_MSG_GATHER_DIMCOUNT, "InputDimensionCount", in_dc, "InputTensor", n);
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
    return EDML_STATUS_OK;
}

/* The output's sizes: batch, index positions, input slice, right-aligned
 * (list[] of m entries, each with what it is, for messages). */
typedef struct edmli_gather_shape {
    uint32_t in0, ix0, B, T, P, S, m;
    uint32_t list[3 * EDMLI_MAX_DIMS];
    const char *what[3 * EDMLI_MAX_DIMS];
} edmli_gather_shape;

static edml_status edmli_gather_output(edmli_errbuf *e, const EDML_GATHER_ND1_OPERATOR_DESC *d, const edml_operator *op,
                                       edmli_gather_shape *g)
{
    const edmli_tensor *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = in->rank;
    g->in0 = n - d->InputDimensionCount, g->ix0 = n - d->IndicesDimensionCount, g->B = d->BatchDimensionCount;
    g->T = ix->sizes[n - 1];
    g->P = d->IndicesDimensionCount - g->B - 1, g->S = d->InputDimensionCount - g->B - g->T, g->m = g->B + g->P + g->S;
    for (uint32_t b = 0; b < g->B; b++) g->list[b] = in->sizes[g->in0 + b], g->what[b] = "a batch size";
    for (uint32_t p = 0; p < g->P; p++)
        g->list[g->B + p] = ix->sizes[g->ix0 + g->B + p], g->what[g->B + p] = "an IndicesTensor size";
    for (uint32_t q = 0; q < g->S; q++)
        g->list[g->B + g->P + q] = in->sizes[g->in0 + g->B + g->T + q],
                              g->what[g->B + g->P + q] = "an InputTensor size";
    for (uint32_t L = 0; g->m > n && L < g->m - n; L++)
        if (g->list[L] != 1) return edmli_fail(e, EDMLI_MSG_GATHER_OUT_RANK, g->m, n);
    for (uint32_t j = 0; j < n; j++) {
        const bool listed = j + g->m >= n;
        const uint32_t want = listed ? g->list[j + g->m - n] : 1;
        if (out->sizes[j] != want)
            return edmli_fail(e, EDMLI_MSG_GATHER_OUT_SIZE, j, out->sizes[j], want,
                              listed ? g->what[j + g->m - n] : "a leading 1");
    }
    return edmli_check_output_layout(e, "OutputTensor", out);
}

/* The loops of the plan: outer dims over (batch, positions), the tuple's
 * coordinates, the slice's dims; size-1 entries dropped. */
static void edmli_gather_loops(edml_operator *op, const edmli_gather_shape *s)
{
    const edmli_tensor *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const uint32_t n = in->rank;
    g->tuple = s->T;
    g->tuple_stride = ix->strides[n - 1];
    for (uint32_t L = 0; L < s->B + s->P; L++) {
        if (s->list[L] == 1) continue;
        const uint32_t r = g->outer_rank++;
        g->outer_sizes[r] = s->list[L];
        g->outer_idx_strides[r] = ix->strides[s->ix0 + L];
        g->outer_in_strides[r] = L < s->B ? in->strides[s->in0 + L] : 0;
        g->outer_out_strides[r] = L + n >= s->m ? out->strides[L + n - s->m] : 0;
    }
    for (uint32_t j = 0; j < s->T; j++) {
        g->coord_dims[j] = s->in0 + s->B + j;
        g->coord_sizes[j] = in->sizes[s->in0 + s->B + j];
        g->coord_strides[j] = in->strides[s->in0 + s->B + j];
    }
    for (uint32_t q = 0; q < s->S; q++) {
        const uint32_t L = s->B + s->P + q;
        if (s->list[L] == 1) continue;
        const uint32_t r = g->slice_rank++;
        g->slice_sizes[r] = s->list[L];
        g->slice_in_strides[r] = in->strides[s->in0 + s->B + s->T + q];
        g->slice_out_strides[r] = L + n >= s->m ? out->strides[L + n - s->m] : 0;
    }
}

edml_status edmli_plan_gather_nd(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    const EDML_GATHER_ND1_OPERATOR_DESC d = edmli_gather_nd1_of(desc);
    edml_status s;
    edmli_gather_shape shape;
    if ((s = edmli_gather_tensors(e, op))) return s;
    if ((s = edmli_gather_counts(e, &d, &op->inputs[0], &op->inputs[1]))) return s;
    if ((s = edmli_gather_output(e, &d, op, &shape))) return s;
    edmli_gather_nd_plan *g = &op->plan.gather_nd;
    g->input_dims = d.InputDimensionCount;
    g->indices_dims = d.IndicesDimensionCount;
    g->batch_dims = d.BatchDimensionCount;
    edmli_gather_loops(op, &shape);
    return EDML_STATUS_OK;
}
