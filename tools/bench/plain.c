/* The plain C loops a firmware engineer would write for the families'
 * work (tools/bench/families.c), the yardstick of bench-insns' family
 * figures: the same outputs as edml's (ties to the first index, no NaN in
 * the data), no vector code of their own, compiled with the library's
 * flags. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

/* ArgMin/ArgMax of one axis: sizes [outer, n, inner] around it, strides in
 * elements (a transposed view's too); UINT32 indices. */
#define PLAIN_ARG(T)                                                                                           \
    static void plain_arg_##T(const T *x, uint32_t *y, uint64_t outer, uint64_t n, uint64_t inner, int64_t so, \
                              int64_t sn, int64_t si, bool is_max)                                             \
    {                                                                                                          \
        for (uint64_t a = 0; a < outer; a++)                                                                   \
            for (uint64_t b = 0; b < inner; b++) {                                                             \
                const T *p = x + (int64_t)a * so + (int64_t)b * si;                                            \
                T best = p[0];                                                                                 \
                uint32_t at = 0;                                                                               \
                for (uint64_t r = 1; r < n; r++) {                                                             \
                    const T v = p[(int64_t)r * sn];                                                            \
                    if (is_max ? v > best : v < best) best = v, at = (uint32_t)r;                              \
                }                                                                                              \
                y[a * inner + b] = at;                                                                         \
            }                                                                                                  \
    }
PLAIN_ARG(uint8_t)
PLAIN_ARG(int8_t)
PLAIN_ARG(uint16_t)
PLAIN_ARG(int16_t)
PLAIN_ARG(int64_t)
PLAIN_ARG(uint64_t)
PLAIN_ARG(float)
PLAIN_ARG(double)

static void plain_argreduce(const workload *w)
{
    const tensor *t = &w->in[0];
    const UINT axis = w->axes[0];
    uint64_t outer = 1, inner = 1;
    for (UINT d = 0; d < axis; d++) outer *= t->sizes[d];
    for (UINT d = axis + 1; d < t->rank; d++) inner *= t->sizes[d];
    /* strides: a transposed view's own, else packed */
    const int64_t sn = t->strided ? t->strides[axis] : (int64_t)inner;
    const int64_t si = t->strided ? (axis + 1 < t->rank ? t->strides[t->rank - 1] : 1) : 1;
    const int64_t so = t->strided ? (axis ? t->strides[0] : 0) : (int64_t)(inner * t->sizes[axis]);
    const bool mx = w->desc.Type == EDML_OPERATOR_ARGMAX;
    uint32_t *y = (uint32_t *)(void *)w->out[0].host;
    const uint64_t n = t->sizes[axis];
    switch (t->dtype) {
#define PLAIN_CASE(E, T)                                                                     \
    case EDML_TENSOR_DATA_TYPE_##E:                                                          \
        plain_arg_##T((const T *)(const void *)t->host, y, outer, n, inner, so, sn, si, mx); \
        break;
        PLAIN_CASE(UINT8, uint8_t)
        PLAIN_CASE(INT8, int8_t)
        PLAIN_CASE(UINT16, uint16_t)
        PLAIN_CASE(INT16, int16_t)
        PLAIN_CASE(INT64, int64_t)
        PLAIN_CASE(UINT64, uint64_t)
        PLAIN_CASE(FLOAT32, float)
        PLAIN_CASE(FLOAT64, double)
#undef PLAIN_CASE
    default: break;
    }
}

/* TopK of K along rows or columns of a [rows, cols] FLOAT32 or INT64 tensor,
 * largest first: each element put in place in a sorted array of K (for K
 * over 64, plain_topk_sorted: the sequence sorted, its first K kept). */
#define PLAIN_TOPK(T)                                                                                             \
    static void plain_topk_##T(const T *x, T *v, uint32_t *ix, uint64_t seqs, uint64_t n, int64_t ss, int64_t sn, \
                               uint32_t k)                                                                        \
    {                                                                                                             \
        for (uint64_t s = 0; s < seqs; s++) {                                                                     \
            T *bv = v + s * k;                                                                                    \
            uint32_t *bi = ix + s * k, have = 0;                                                                  \
            for (uint64_t i = 0; i < n; i++) {                                                                    \
                const T e = x[(int64_t)s * ss + (int64_t)i * sn];                                                 \
                if (have == k && !(e > bv[k - 1])) continue;                                                      \
                uint32_t j = have < k ? have++ : k - 1;                                                           \
                for (; j > 0 && e > bv[j - 1]; j--) bv[j] = bv[j - 1], bi[j] = bi[j - 1];                         \
                bv[j] = e, bi[j] = (uint32_t)i;                                                                   \
            }                                                                                                     \
        }                                                                                                         \
    }
PLAIN_TOPK(float)
PLAIN_TOPK(int64_t)

/* A FLOAT32 sequence's (value, index) pairs sorted by qsort, largest first,
 * earlier index first among equals. */
typedef struct plain_pair {
    float v;
    uint32_t i;
} plain_pair;

static int plain_pair_order(const void *a, const void *b)
{
    const plain_pair *x = a, *y = b;
    return x->v > y->v ? -1 : x->v < y->v ? 1 : (x->i > y->i) - (x->i < y->i);
}

static void plain_topk_sorted(const workload *w)
{
    const tensor *t = &w->in[0];
    const uint64_t n = t->sizes[1];
    plain_pair *p = malloc(n * sizeof *p);
    if (!p) return;
    for (uint64_t r = 0; r < t->sizes[0]; r++) {
        const float *x = (const float *)(const void *)t->host + r * n;
        for (uint64_t i = 0; i < n; i++) p[i] = (plain_pair){x[i], (uint32_t)i};
        qsort(p, n, sizeof *p, plain_pair_order);
        float *v = (float *)(void *)w->out[0].host + r * w->topk_k;
        uint32_t *ix = (uint32_t *)(void *)w->out[1].host + r * w->topk_k;
        for (uint32_t k = 0; k < w->topk_k; k++) v[k] = p[k].v, ix[k] = p[k].i;
    }
    free(p);
}

static void plain_topk(const workload *w)
{
    if (w->topk_k > 64 && w->topk_axis == 1 && w->in[0].dtype == EDML_TENSOR_DATA_TYPE_FLOAT32) {
        plain_topk_sorted(w);
        return;
    }
    const tensor *t = &w->in[0];
    const uint64_t rows = t->sizes[0], cols = t->sizes[1];
    const bool along = w->topk_axis == 1;
    const uint64_t seqs = along ? rows : cols, n = along ? cols : rows;
    const int64_t ss = along ? (int64_t)cols : 1, sn = along ? 1 : (int64_t)cols;
    uint32_t *ix = (uint32_t *)(void *)w->out[1].host; /* sequence by sequence, not the output's layout */
    if (t->dtype == EDML_TENSOR_DATA_TYPE_INT64)
        plain_topk_int64_t((const int64_t *)(const void *)t->host, (int64_t *)(void *)w->out[0].host, ix, seqs, n, ss,
                           sn, w->topk_k);
    else
        plain_topk_float((const float *)(const void *)t->host, (float *)(void *)w->out[0].host, ix, seqs, n, ss, sn,
                         w->topk_k);
}

/* GatherND of [rows, cols] FLOAT32 by tuples of 1 or 2 (32- or 64-bit). */
static void plain_gather(const workload *w)
{
    const tensor *in = &w->in[0], *ix = &w->in[1];
    const uint64_t tuples = ix->sizes[0], tn = ix->sizes[1], cols = in->sizes[1];
    const float *x = (const float *)(const void *)in->host;
    float *y = (float *)(void *)w->out[0].host;
    const bool wide = ix->dtype == EDML_TENSOR_DATA_TYPE_INT64;
    for (uint64_t i = 0; i < tuples; i++) {
        uint64_t c[2] = {0, 0};
        for (uint64_t j = 0; j < tn; j++)
            c[j] = wide ? (uint64_t)((const int64_t *)(const void *)ix->host)[i * tn + j]
                        : ((const uint32_t *)(const void *)ix->host)[i * tn + j];
        if (tn == 2) {
            y[i] = x[c[0] * cols + c[1]];
        } else {
            const float *src = x + c[0] * cols;
            for (uint64_t e = 0; e < cols; e++) y[i * cols + e] = src[e];
        }
    }
}

/* ElementWiseIf of [h, w, c], the condition of [h, w] (broadcast over c) or whole. */
#define PLAIN_IF(T)                                                                                                 \
    static void plain_if_##T(const uint8_t *cond, const T *a, const T *b, T *y, uint64_t pix, uint64_t ch, bool bc) \
    {                                                                                                               \
        for (uint64_t p = 0; p < pix; p++)                                                                          \
            for (uint64_t e = 0; e < ch; e++) {                                                                     \
                const uint64_t i = p * ch + e;                                                                      \
                y[i] = cond[bc ? p : i] ? a[i] : b[i];                                                              \
            }                                                                                                       \
    }
PLAIN_IF(uint8_t)
PLAIN_IF(float)

static void plain_if(const workload *w)
{
    const tensor *c = &w->in[0], *a = &w->in[1];
    const uint64_t ch = a->sizes[a->rank - 1], pix = a->count / ch;
    const bool bc = c->strided;
    if (a->dtype == EDML_TENSOR_DATA_TYPE_UINT8)
        plain_if_uint8_t(c->host, a->host, w->in[2].host, w->out[0].host, pix, ch, bc);
    else
        plain_if_float(c->host, (const float *)(const void *)a->host, (const float *)(const void *)w->in[2].host,
                       (float *)(void *)w->out[0].host, pix, ch, bc);
}

void plain_run(const workload *w)
{
    switch (w->desc.Type) {
    case EDML_OPERATOR_ARGMAX:
    case EDML_OPERATOR_ARGMIN: plain_argreduce(w); break;
    case EDML_OPERATOR_TOP_K1: plain_topk(w); break;
    case EDML_OPERATOR_GATHER_ND1: plain_gather(w); break;
    default: plain_if(w); break;
    }
}
