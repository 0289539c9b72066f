/* TOP_K and TOP_K1: validation and planning. */
#include "internal.h"

static edml_status edmli_topk_output(edmli_errbuf *e, const char *name, const edmli_tensor *t, const edmli_tensor *in,
                                     uint32_t axis, uint32_t k)
{
    edml_status s = edmli_check_same_rank(e, name, t, "InputTensor", in);
    if (s) return s;
    for (uint32_t i = 0; i < in->rank; i++) {
        if (i == axis) {
            if (t->sizes[i] != k) return edmli_fail(e, EDMLI_MSG_SIZE_NOT_K, name, i, t->sizes[i], k);
        } else if (t->sizes[i] != in->sizes[i]) {
            return edmli_fail(e, EDMLI_MSG_SIZE_MISMATCH, name, i, t->sizes[i], "InputTensor", i, in->sizes[i]);
        }
    }
    return edmli_check_output_layout(e, name, t);
}

edml_status edmli_plan_topk(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    EDML_TOP_K1_OPERATOR_DESC d;
    if (desc->Type == EDML_OPERATOR_TOP_K) {
        const EDML_TOP_K_OPERATOR_DESC *v0 = (const EDML_TOP_K_OPERATOR_DESC *)desc->Desc;
        d.Axis = v0->Axis;
        d.K = v0->K;
        d.AxisDirection = EDML_AXIS_DIRECTION_DECREASING;
    } else {
        d = *(const EDML_TOP_K1_OPERATOR_DESC *)desc->Desc;
    }
    const edmli_tensor *in = &op->inputs[0], *val = &op->outputs[0], *idx = &op->outputs[1];
    edml_status s;
    if (d.Axis >= in->rank) return edmli_fail(e, EDMLI_MSG_AXIS_RANGE, d.Axis, in->rank);
    if (d.K == 0) return edmli_fail(e, EDMLI_MSG_K_ZERO);
    if (d.K > in->sizes[d.Axis]) return edmli_fail(e, EDMLI_MSG_K_TOO_LARGE, d.K, d.Axis, in->sizes[d.Axis]);
    if ((unsigned)d.AxisDirection > EDML_AXIS_DIRECTION_DECREASING)
        return edmli_fail(e, EDMLI_MSG_DIRECTION, (unsigned)d.AxisDirection);
    if ((s = edmli_topk_output(e, "OutputValueTensor", val, in, d.Axis, d.K))) return s;
    if ((s = edmli_topk_output(e, "OutputIndexTensor", idx, in, d.Axis, d.K))) return s;
    if (val->dtype != in->dtype)
        return edmli_fail(e, EDMLI_MSG_DTYPE_MISMATCH, "OutputValueTensor", edmli_dtype_name(val->dtype), "InputTensor",
                          edmli_dtype_name(in->dtype));
    if (idx->dtype != EDML_TENSOR_DATA_TYPE_UINT32 && idx->dtype != EDML_TENSOR_DATA_TYPE_UINT64)
        return edmli_fail(e, EDMLI_MSG_DTYPE_NOT_ALLOWED, "OutputIndexTensor", edmli_dtype_name(idx->dtype),
                          "UINT32 or UINT64");
    op->plan.topk.axis = d.Axis;
    op->plan.topk.k = d.K;
    op->plan.topk.axis_size = in->sizes[d.Axis];
    op->plan.topk.direction = d.AxisDirection;
    return EDML_STATUS_OK;
}
