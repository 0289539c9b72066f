/* Tensor descriptions: sizes in bytes and validation of one tensor member. */
#include "internal.h"

UINT edml_data_type_size(EDML_TENSOR_DATA_TYPE t) { return edmli_type_size(t); }

bool edmli_dtype_valid(EDML_TENSOR_DATA_TYPE t) { return edml_data_type_size(t) != 0; }

bool edmli_dtype_is_float(EDML_TENSOR_DATA_TYPE t)
{
    return t == EDML_TENSOR_DATA_TYPE_FLOAT16 || t == EDML_TENSOR_DATA_TYPE_FLOAT32 ||
           t == EDML_TENSOR_DATA_TYPE_FLOAT64;
}

const char *edmli_dtype_name(EDML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case EDML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case EDML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case EDML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case EDML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case EDML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case EDML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case EDML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case EDML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case EDML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case EDML_TENSOR_DATA_TYPE_INT64: return "INT64";
    default: return "UNKNOWN";
    }
}

UINT64 edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE dataType, UINT dimensionCount, const UINT *sizes,
                                    const UINT *strides)
{
    UINT64 elem = edml_data_type_size(dataType);
    if (!elem || !sizes || dimensionCount < 1 || dimensionCount > EDMLI_MAX_DIMS) return 0;
    UINT64 last = 0; /* index of the last addressed element */
    UINT64 count = 1;
    for (UINT i = 0; i < dimensionCount; i++) {
        if (sizes[i] == 0) return 0;
        if (count > UINT64_MAX / sizes[i]) return 0;
        count *= sizes[i];
    }
    if (strides) {
        for (UINT i = 0; i < dimensionCount; i++) {
            UINT64 term = (UINT64)(sizes[i] - 1) * strides[i]; /* < 2^64 */
            if (last > UINT64_MAX - term) return 0;
            last += term;
        }
    } else {
        last = count - 1;
    }
    if (last > (UINT64_MAX - 8) / elem - 1) return 0;
    UINT64 bytes = (last + 1) * elem;
    return (bytes + 3) & ~(UINT64)3;
}

edml_status edmli_tensor_from_desc(edmli_errbuf *e, const char *name, const EDML_TENSOR_DESC *desc, edmli_tensor *out)
{
    if (!desc) return edmli_fail(e, EDMLI_MSG_TENSOR_NULL, name);
    if (desc->Type != EDML_TENSOR_TYPE_BUFFER) return edmli_fail(e, EDMLI_MSG_TENSOR_TYPE, name, (unsigned)desc->Type);
    const EDML_BUFFER_TENSOR_DESC *b = (const EDML_BUFFER_TENSOR_DESC *)desc->Desc;
    if (!b) return edmli_fail(e, EDMLI_MSG_TENSOR_DESC_NULL, name);
    if (!edmli_dtype_valid(b->DataType)) return edmli_fail(e, EDMLI_MSG_TENSOR_DTYPE, name, (unsigned)b->DataType);
    if (b->Flags != EDML_TENSOR_FLAG_NONE) return edmli_fail(e, EDMLI_MSG_TENSOR_FLAGS, name, (unsigned)b->Flags);
    if (b->DimensionCount < 1 || b->DimensionCount > EDMLI_MAX_DIMS)
        return edmli_fail(e, EDMLI_MSG_TENSOR_RANK, name, b->DimensionCount);
    if (!b->Sizes) return edmli_fail(e, EDMLI_MSG_TENSOR_SIZES_NULL, name);

    edmli_tensor t = {0};
    t.dtype = b->DataType;
    t.elem_size = edml_data_type_size(b->DataType);
    t.rank = b->DimensionCount;
    uint64_t count = 1;
    for (uint32_t i = 0; i < t.rank; i++) {
        if (b->Sizes[i] == 0) return edmli_fail(e, EDMLI_MSG_TENSOR_SIZE_ZERO, name, i);
        t.sizes[i] = b->Sizes[i];
        count *= b->Sizes[i];
        if (count > 0xffffffffull) /* report the full product where it still fits, else this prefix */
            return edmli_fail(e, EDMLI_MSG_TENSOR_TOO_MANY, name, (unsigned long long)count);
    }
    t.elem_count = count;
    if (b->Strides) {
        for (uint32_t i = 0; i < t.rank; i++) t.strides[i] = b->Strides[i];
    } else {
        uint64_t s = 1;
        for (uint32_t i = t.rank; i-- > 0;) {
            t.strides[i] = (uint32_t)s;
            s *= t.sizes[i];
        }
    }
    uint64_t need = edml_calc_buffer_tensor_size(t.dtype, t.rank, t.sizes, b->Strides);
    if (need == 0) /* strides so large that the span overflows 64 bits */
        return edmli_fail(e, EDMLI_MSG_TENSOR_TOTAL_SMALL, name, (unsigned long long)b->TotalTensorSizeInBytes,
                          (unsigned long long)UINT64_MAX);
    if (b->TotalTensorSizeInBytes == 0) {
        t.total_bytes = need;
    } else if (b->TotalTensorSizeInBytes < need) {
        return edmli_fail(e, EDMLI_MSG_TENSOR_TOTAL_SMALL, name, (unsigned long long)b->TotalTensorSizeInBytes,
                          (unsigned long long)need);
    } else {
        t.total_bytes = b->TotalTensorSizeInBytes;
    }
    uint32_t al = b->GuaranteedBaseOffsetAlignment;
    if (al != 0 && ((al & (al - 1)) != 0 || al < t.elem_size))
        return edmli_fail(e, EDMLI_MSG_TENSOR_ALIGNMENT, name, al, t.elem_size);
    *out = t;
    return EDML_STATUS_OK;
}

edml_status edmli_check_output_layout(edmli_errbuf *e, const char *name, const edmli_tensor *t)
{
    /* Sort the dims of size > 1 by stride; the layout is injective when each
     * stride exceeds the span of all smaller ones (a sufficient test that
     * every packed, padded or permuted layout passes). */
    uint32_t order[EDMLI_MAX_DIMS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->rank; i++) {
        if (t->sizes[i] == 1) continue;
        if (t->strides[i] == 0) return edmli_fail(e, EDMLI_MSG_OUTPUT_ZERO_STRIDE, name, i, i, t->sizes[i]);
        uint32_t j = n++;
        while (j > 0 && t->strides[order[j - 1]] > t->strides[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    uint64_t span = 0; /* index of the last element addressed by the dims so far */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t d = order[j];
        if ((uint64_t)t->strides[d] <= span) return edmli_fail(e, EDMLI_MSG_OUTPUT_ALIASED, name);
        span += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    }
    return EDML_STATUS_OK;
}

edml_status edmli_check_same_rank(edmli_errbuf *e, const char *name, const edmli_tensor *t, const char *ref_name,
                                  const edmli_tensor *ref)
{
    if (t->rank != ref->rank) return edmli_fail(e, EDMLI_MSG_RANK_MISMATCH, name, t->rank, ref_name, ref->rank);
    return EDML_STATUS_OK;
}
