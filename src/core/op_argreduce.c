/* ARGMIN and ARGMAX: validation and planning. */
#include "internal.h"

edml_status edmli_plan_argreduce(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    /* EDML_ARGMAX_OPERATOR_DESC has the same members as ARGMIN's */
    const EDML_ARGMIN_OPERATOR_DESC *d = (const EDML_ARGMIN_OPERATOR_DESC *)desc->Desc;
    const edmli_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    edml_status s;
    if ((s = edmli_check_same_rank(e, "OutputTensor", out, "InputTensor", in))) return s;
    if (d->AxisCount < 1 || d->AxisCount > in->rank) return edmli_fail(e, EDMLI_MSG_AXES_COUNT, d->AxisCount, in->rank);
    if (!d->Axes) return edmli_fail(e, EDMLI_MSG_AXES_NULL, d->AxisCount);
    uint32_t mask = 0;
    for (uint32_t i = 0; i < d->AxisCount; i++) {
        uint32_t a = d->Axes[i];
        if (a >= in->rank) return edmli_fail(e, EDMLI_MSG_AXES_RANGE, i, a, in->rank);
        if (mask & (1u << a)) {
            uint32_t j = 0;
            while (d->Axes[j] != a) j++;
            return edmli_fail(e, EDMLI_MSG_AXES_REPEAT, i, a, j);
        }
        mask |= 1u << a;
    }
    if ((unsigned)d->AxisDirection > EDML_AXIS_DIRECTION_DECREASING)
        return edmli_fail(e, EDMLI_MSG_DIRECTION, (unsigned)d->AxisDirection);
    uint64_t count = 1;
    for (uint32_t i = 0; i < in->rank; i++) {
        if (mask & (1u << i)) {
            if (out->sizes[i] != 1) return edmli_fail(e, EDMLI_MSG_REDUCED_SIZE, i, out->sizes[i], i);
            count *= in->sizes[i];
        } else if (out->sizes[i] != in->sizes[i]) {
            return edmli_fail(e, EDMLI_MSG_SIZE_MISMATCH, "OutputTensor", i, out->sizes[i], "InputTensor", i,
                              in->sizes[i]);
        }
    }
    switch (out->dtype) {
    case EDML_TENSOR_DATA_TYPE_INT32:
        if (count - 1 > 0x7fffffffu)
            return edmli_fail(e, EDMLI_MSG_INDEX_TYPE_RANGE, "OutputTensor", (unsigned long long)(count - 1));
        break;
    case EDML_TENSOR_DATA_TYPE_INT64:
    case EDML_TENSOR_DATA_TYPE_UINT32:
    case EDML_TENSOR_DATA_TYPE_UINT64: break;
    default:
        return edmli_fail(e, EDMLI_MSG_DTYPE_NOT_ALLOWED, "OutputTensor", edmli_dtype_name(out->dtype),
                          "INT32, INT64, UINT32 or UINT64");
    }
    if ((s = edmli_check_output_layout(e, "OutputTensor", out))) return s;
    op->plan.argreduce.is_max = desc->Type == EDML_OPERATOR_ARGMAX;
    op->plan.argreduce.direction = d->AxisDirection;
    op->plan.argreduce.axis_mask = mask;
    op->plan.argreduce.reduce_count = count;
    return EDML_STATUS_OK;
}
