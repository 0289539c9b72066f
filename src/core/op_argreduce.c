/* ARGMIN and ARGMAX: validation and planning. */
#include "internal.h"

/* Where a kept dim goes among the others: by input stride, largest first,
 * a broadcast one (stride 0) outermost. */
static uint64_t edmli_arg_order(const edmli_tensor *in, uint8_t d)
{
    return in->strides[d] ? in->strides[d] : UINT64_MAX;
}

/* The dims but those of size 1 (numbers), in layout order: the kept ones by
 * stride, then interleaved with the reduced ones (in the descriptor's
 * order) by stride, so that a packed kept dim goes innermost. Returns the
 * count. */
static uint32_t edmli_arg_order_dims(const edmli_tensor *in, uint32_t mask, uint8_t *ord)
{
    uint8_t kept[EDMLI_MAX_DIMS], red[EDMLI_MAX_DIMS];
    uint32_t nk = 0, nr = 0, n = 0;
    for (uint8_t d = 0; d < in->rank; d++) {
        if (in->sizes[d] == 1) continue;
        if ((mask >> d) & 1) {
            red[nr++] = d;
            continue;
        }
        uint32_t k = nk++;
        for (; k > 0 && edmli_arg_order(in, kept[k - 1]) < edmli_arg_order(in, d); k--) kept[k] = kept[k - 1];
        kept[k] = d;
    }
    for (uint32_t i = 0, j = 0; i < nk || j < nr;)
        ord[n++] =
            j == nr || (i < nk && edmli_arg_order(in, kept[i]) > edmli_arg_order(in, red[j])) ? kept[i++] : red[j++];
    return n;
}

/* Appends dim d of in/out (or, d past the rank, a reduced dim of 1) to the
 * plan's tensors, merged into the last where contiguous with it. */
static void edmli_arg_append(edmli_argreduce_plan *p, const edmli_tensor *in, const edmli_tensor *out, uint8_t d)
{
    edmli_tensor *ti = &p->in, *to = &p->out;
    const bool red = d >= in->rank || ((p->axis_mask >> d) & 1);
    const uint32_t size = d < in->rank ? in->sizes[d] : 1, si = d < in->rank ? in->strides[d] : 0;
    const uint32_t so = red ? 0 : out->strides[d], r = ti->rank - 1;
    if (ti->rank && ((p->mask >> r) & 1) == red && (uint64_t)si * size == ti->strides[r] &&
        (uint64_t)so * size == to->strides[r] && (uint64_t)ti->sizes[r] * size <= UINT32_MAX) {
        ti->sizes[r] *= size;
        to->sizes[r] = red ? 1 : ti->sizes[r];
        ti->strides[r] = si;
        to->strides[r] = so;
        return;
    }
    ti->sizes[ti->rank] = size;
    to->sizes[ti->rank] = red ? 1 : size;
    ti->strides[ti->rank] = si;
    to->strides[ti->rank] = so;
    p->mask |= (uint32_t)red << ti->rank++;
    to->rank = ti->rank;
}

/* The layout of the plan (ops.h): dims ordered, then merged; with no
 * reduced dim over 1, one of 1 outermost (so every set has a dim). */
static void edmli_arg_layout_plan(edmli_argreduce_plan *p, const edmli_tensor *in, const edmli_tensor *out)
{
    uint8_t ord[EDMLI_MAX_DIMS];
    const uint32_t n = edmli_arg_order_dims(in, p->axis_mask, ord);
    bool any = false;
    for (uint32_t i = 0; i < n; i++) any |= (p->axis_mask >> ord[i]) & 1;
    p->in = *in, p->out = *out;
    p->in.rank = p->out.rank = 0;
    p->mask = 0;
    if (!any) edmli_arg_append(p, in, out, EDMLI_MAX_DIMS);
    for (uint32_t i = 0; i < n; i++) edmli_arg_append(p, in, out, ord[i]);
}

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
    edmli_arg_layout_plan(&op->plan.argreduce, in, out);
    return EDML_STATUS_OK;
}
