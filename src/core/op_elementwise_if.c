/* ELEMENT_WISE_IF: validation and planning. */
#include "internal.h"

/* The four tensors have one Sizes. Where they differ in a dimension, the
 * size most of them have is taken as meant (the larger on a tie: a 1 is a
 * broadcast attempt), and a tensor of size 1 there is told how DirectML
 * broadcasts: full Sizes with a zero stride. */
static edml_status edmli_if_sizes(edmli_errbuf *e, const char *const names[4], edmli_tensor *const t[4], uint32_t k)
{
    int want = 0, votes = 0;
    for (int i = 0; i < 4; i++) {
        int n = 0;
        for (int j = 0; j < 4; j++) n += t[j]->sizes[k] == t[i]->sizes[k];
        if (n > votes || (n == votes && t[i]->sizes[k] > t[want]->sizes[k])) want = i, votes = n;
    }
    const uint32_t size = t[want]->sizes[k];
    for (int i = 0; i < 4; i++) {
        if (t[i]->sizes[k] == size) continue;
        if (t[i]->sizes[k] == 1 && i < 3)
            return edmli_fail(e, EDMLI_MSG_IF_BROADCAST, names[i], k, size, names[want], k, names[i], k, size, k);
        return edmli_fail(e, EDMLI_MSG_SIZE_MISMATCH, names[i], k, t[i]->sizes[k], names[want], k, size);
    }
    return EDML_STATUS_OK;
}

edml_status edmli_plan_elementwise_if(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    (void)desc;
    const char *const names[4] = {op->input_names[0], op->input_names[1], op->input_names[2], op->output_names[0]};
    edmli_tensor *t[4] = {&op->inputs[0], &op->inputs[1], &op->inputs[2], &op->outputs[0]};
    edml_status s;
    for (int i = 1; i < 4; i++)
        if ((s = edmli_check_same_rank(e, names[i], t[i], names[0], t[0]))) return s;
    for (uint32_t k = 0; k < t[0]->rank; k++)
        if ((s = edmli_if_sizes(e, names, t, k))) return s;
    if (t[0]->dtype != EDML_TENSOR_DATA_TYPE_UINT8)
        return edmli_fail(e, EDMLI_MSG_DTYPE_NOT_ALLOWED, names[0], edmli_dtype_name(t[0]->dtype), "UINT8");
    for (int i = 2; i < 4; i++)
        if (t[i]->dtype != t[1]->dtype)
            return edmli_fail(e, EDMLI_MSG_DTYPE_MISMATCH, names[i], edmli_dtype_name(t[i]->dtype), names[1],
                              edmli_dtype_name(t[1]->dtype));
    if ((s = edmli_check_output_layout(e, names[3], t[3]))) return s;

    /* Drop size-1 dims and merge neighbours that are contiguous in all four. */
    edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    p->rank = 0;
    for (uint32_t k = 0; k < t[0]->rank; k++) {
        uint32_t n = t[0]->sizes[k];
        if (n == 1) continue;
        if (p->rank > 0) {
            uint32_t r = p->rank - 1;
            bool merge = true;
            for (int i = 0; i < 4; i++)
                if ((uint64_t)p->strides[i][r] != (uint64_t)t[i]->strides[k] * n) merge = false;
            if (merge && (uint64_t)p->sizes[r] * n <= 0xffffffffu) {
                p->sizes[r] *= n;
                for (int i = 0; i < 4; i++) p->strides[i][r] = t[i]->strides[k];
                continue;
            }
        }
        p->sizes[p->rank] = n;
        for (int i = 0; i < 4; i++) p->strides[i][p->rank] = t[i]->strides[k];
        p->rank++;
    }
    if (p->rank == 0) {
        p->rank = 1;
        p->sizes[0] = 1;
        for (int i = 0; i < 4; i++) p->strides[i][0] = 0;
    }
    return EDML_STATUS_OK;
}
