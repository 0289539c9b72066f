/* ArgMin and ArgMax, NEON, along a short innermost dim: 2 or 3 elements (an
 * NHWC image's channels, a mask's few classes) the rows, packed one after
 * another, de-interleaved by vld2/vld3 so that each channel is a vector of
 * 16, 8 or 4 rows (8-, 16- and 32-bit elements, compared at their own
 * width, not widened); 4 to 31 elements a vector of rows at a time (16
 * 8-bit, 8 16-bit or 4 32-bit rows), column by column; FLOAT32 rows of 4
 * to 255 (where float compares are exact) four at a time in two passes,
 * each row's best by FMAX/FMIN, then its first (last) element equal to it;
 * each channel's keys compared with the best so far lane by lane (> keeps
 * the first of ties, >= the last), and each row's index stored: packed
 * outputs from vectors, strided ones through an odometer. Keys are the
 * reference's order: integers as integers, floats with -0 == +0 and every
 * NaN equal and above +inf; ArgMin reverses the order but keeps NaN on
 * top. Parts: runs of rows, each output its own. */
#include "neon.h"

#define EDMLI_NEON_SHORT_MAX 31u /* 32-bit rows up to this long go four rows at a time */

/* The shape this kernel takes: what it needs of the operator. */
typedef struct edmli_neon_short {
    const uint8_t *in;
    uint8_t *out;
    edmli_odo rows;     /* the output's kept dims (strided outputs) */
    uint64_t count;     /* rows */
    uint32_t n, es, os; /* row elements, element and index bytes */
    EDML_TENSOR_DATA_TYPE dtype, index_type;
    bool is_max, take_last, is_float, packed_out;
    bool rows_f32; /* FLOAT32 rows of 4 to 255 through edmli_neon_rows4_f32 */
    bool fexact;   /* FLOAT32 where float compares are exact and keep NaN */
} edmli_neon_short;

/* The rows of the input lie one after another, each of n elements: every
 * kept dim's stride is the product of the n and the kept sizes inside it. */
static bool edmli_neon_short_rows_packed(const edmli_tensor *t)
{
    uint64_t s = t->sizes[t->rank - 1];
    for (uint32_t d = t->rank - 1; d-- > 0;) {
        if (t->sizes[d] > 1 && t->strides[d] != s) return false;
        s *= t->sizes[d];
    }
    return true;
}

/* FLOAT32 rows of 4 to 255 where float compares are exact and keep NaN
 * (not ARMv7's, which flush subnormals): edmli_neon_rows4_f32. */
static bool edmli_neon_rows_f32(const edmli_tensor *ti)
{
#if defined(__aarch64__) || !defined(__ARM_NEON)
    const uint32_t n = ti->sizes[ti->rank - 1];
    return ti->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 && n >= 4 && n <= 255 && edmli_neon_fp_exact() &&
           edmli_neon_fp_keeps_nan();
#else
    (void)ti;
    return false;
#endif
}

bool edmli_neon_argreduce_short_takes(const edmli_neon_arg *v)
{
    const edmli_tensor *ti = v->in;
    const uint32_t last = ti->rank - 1, n = ti->sizes[last];
    const EDML_TENSOR_DATA_TYPE t = ti->dtype;
    const bool type = t == EDML_TENSOR_DATA_TYPE_UINT8 || t == EDML_TENSOR_DATA_TYPE_INT8 ||
                      t == EDML_TENSOR_DATA_TYPE_UINT16 || t == EDML_TENSOR_DATA_TYPE_INT16 ||
                      t == EDML_TENSOR_DATA_TYPE_UINT32 || t == EDML_TENSOR_DATA_TYPE_INT32 ||
                      t == EDML_TENSOR_DATA_TYPE_FLOAT32;
    const bool rows4 = n >= 4 && n <= EDMLI_NEON_SHORT_MAX && ti->elem_size != 8;
    return type && (n == 2 || n == 3 || rows4 || edmli_neon_rows_f32(ti)) && ti->strides[last] == 1 &&
           v->mask == 1u << last && edmli_neon_short_rows_packed(ti);
}

#define EDMLI_NEON_LD3_8 edmli_neon_ld3_u8
#define EDMLI_NEON_LD3_16 edmli_neon_ld3_u16
#define EDMLI_NEON_LD3_32 edmli_neon_ld3_u32

/* The rows of a vector at q (elements of `bits` bits, `lanes` of them a
 * vector), channel by channel, keyed by KEY (flip, s->is_float): the best
 * channel's index of each row in idx. */
#define EDMLI_NEON_SHORT_BEST(bits, lanes, KEY)                                                               \
    uint##bits##x##lanes##_t k0, k1, k2 = vdupq_n_u##bits(0), best, idx;                                      \
    if (s->n == 3) {                                                                                          \
        const uint##bits##x##lanes##x3_t v = EDMLI_NEON_LD3_##bits(q);                                        \
        k0 = KEY(v.val[0], flip, s->is_float), k1 = KEY(v.val[1], flip, s->is_float);                         \
        k2 = KEY(v.val[2], flip, s->is_float);                                                                \
    } else {                                                                                                  \
        const uint##bits##x##lanes##x2_t v = vld2q_u##bits(q);                                                \
        k0 = KEY(v.val[0], flip, s->is_float), k1 = KEY(v.val[1], flip, s->is_float);                         \
    }                                                                                                         \
    const uint##bits##x##lanes##_t t1 = s->take_last ? vcgeq_u##bits(k1, k0) : vcgtq_u##bits(k1, k0);         \
    best = vbslq_u##bits(t1, k1, k0);                                                                         \
    idx = vandq_u##bits(t1, vdupq_n_u##bits(1));                                                              \
    if (s->n == 3) {                                                                                          \
        const uint##bits##x##lanes##_t t2 = s->take_last ? vcgeq_u##bits(k2, best) : vcgtq_u##bits(k2, best); \
        idx = vbslq_u##bits(t2, vdupq_n_u##bits(2), idx);                                                     \
    }

/* Stores `lanes` row indices (idx8[i]) at rows r..: a packed output's as
 * its index type (vectors where whole ones fill it: INT32/UINT32 and
 * INT64/UINT64 of indices under 32 are the same bits), a strided one's
 * through the odometer (at row r). */
EDMLI_ALWAYS_INLINE void edmli_neon_short_store(edmli_neon_short *s, uint64_t r, const uint8_t *idx8, uint32_t lanes)
{
    const uint32_t os = s->os;
    if (s->packed_out && lanes % 4 == 0) { /* widened in registers: 4 indices a 16 (or 2 x 16) byte store */
        const uint8x16_t v = vld1q_u8(idx8);
        /* two vectors, no array of them: clang 14 -O2 stored those unwidened */
        const uint16x8_t h0 = vmovl_u8(vget_low_u8(v)), h1 = vmovl_u8(vget_high_u8(v));
        for (uint32_t i = 0; i < lanes; i += 4) {
            const uint16x8_t hv = i / 8 ? h1 : h0;
            const uint32x4_t w = vmovl_u16(i % 8 ? vget_high_u16(hv) : vget_low_u16(hv));
            if (os == 4) {
                vst1q_u32((uint32_t *)(void *)(s->out + (r + i) * 4u), w);
            } else {
                uint64_t *o = (uint64_t *)(void *)(s->out + (r + i) * 8u);
                vst1q_u64(o, vmovl_u32(vget_low_u32(w)));
                vst1q_u64(o + 2, vmovl_u32(vget_high_u32(w)));
            }
        }
        return;
    }
    for (uint32_t i = 0; i < lanes; i++) {
        uint8_t *at = s->packed_out ? s->out + (r + i) * os : s->out + s->rows.off[0];
        edmli_store_index(at, s->index_type, idx8[i]);
        if (!s->packed_out) edmli_odo_next(&s->rows);
    }
}

/* The best of each of a vector's rows at p (8-, 16- or 32-bit elements), into idx8. */
EDMLI_ALWAYS_INLINE void edmli_neon_short_u8(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint8x16_t flip =
        vdupq_n_u8((uint8_t)((s->dtype == EDML_TENSOR_DATA_TYPE_INT8 ? 0x80u : 0u) ^ (s->is_max ? 0u : 0xffu)));
    const uint8_t *q = p;
    EDMLI_NEON_SHORT_BEST(8, 16, edmli_neon_order8)
    vst1q_u8(idx8, idx);
}

EDMLI_ALWAYS_INLINE void edmli_neon_short_u16(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint16x8_t flip =
        vdupq_n_u16((uint16_t)((s->dtype == EDML_TENSOR_DATA_TYPE_INT16 ? 0x8000u : 0u) ^ (s->is_max ? 0u : 0xffffu)));
    const uint16_t *q = (const uint16_t *)(const void *)p;
    EDMLI_NEON_SHORT_BEST(16, 8, edmli_neon_order16)
    vst1_u8(idx8, vmovn_u16(idx));
}

EDMLI_ALWAYS_INLINE void edmli_neon_short_u32(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint32_t sign = s->dtype == EDML_TENSOR_DATA_TYPE_INT32 ? 0x80000000u : 0u;
    const uint32x4_t flip = vdupq_n_u32(sign ^ (s->is_max ? 0u : 0xffffffffu));
    const uint32_t *q = (const uint32_t *)(const void *)p;
    EDMLI_NEON_SHORT_BEST(32, 4, edmli_neon_order32)
    const uint16x4_t narrow = vmovn_u32(idx);
    vst1_u8(idx8, vmovn_u16(vcombine_u16(narrow, narrow)));
}

/* FLOAT32 rows of 2 or 3 where float compares are exact: four rows' best
 * by FMAX (ArgMin: FMIN), which keep a NaN, then the first (last) channel
 * that holds it: equal to it (-0 == +0), or a NaN where the best is one;
 * no order keys. */
EDMLI_ALWAYS_INLINE void edmli_neon_short_f32(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const float *q = (const float *)(const void *)p;
    float32x4_t c0, c1, c2;
    if (s->n == 3) {
        const uint32x4x3_t v = edmli_neon_ld3_u32((const uint32_t *)(const void *)q);
        c0 = vreinterpretq_f32_u32(v.val[0]), c1 = vreinterpretq_f32_u32(v.val[1]);
        c2 = vreinterpretq_f32_u32(v.val[2]);
    } else {
        const float32x4x2_t v = vld2q_f32(q);
        c0 = v.val[0], c1 = v.val[1], c2 = v.val[1];
    }
    const float32x4_t m = s->is_max ? vmaxq_f32(c0, vmaxq_f32(c1, c2)) : vminq_f32(c0, vminq_f32(c1, c2));
#define EDMLI_NEON_HOLDS(c) vorrq_u32(vceqq_f32(c, m), vmvnq_u32(vceqq_f32(c, c)))
    const uint32x4_t zero = vdupq_n_u32(0), one = vdupq_n_u32(1), two = vdupq_n_u32(2);
    uint32x4_t idx;
    if (!s->take_last)
        idx = vbslq_u32(EDMLI_NEON_HOLDS(c0), zero, vbslq_u32(EDMLI_NEON_HOLDS(c1), one, two));
    else if (s->n == 3)
        idx = vbslq_u32(EDMLI_NEON_HOLDS(c2), two, vbslq_u32(EDMLI_NEON_HOLDS(c1), one, zero));
    else
        idx = vbslq_u32(EDMLI_NEON_HOLDS(c1), one, zero);
#undef EDMLI_NEON_HOLDS
    const uint16x4_t narrow = vmovn_u32(idx);
    vst1_u8(idx8, vmovn_u16(vcombine_u16(narrow, narrow)));
}

/* Column j of 16 (8-bit), 8 (16-bit) or 4 (32-bit) rows n apart: on Arm lane by lane
 * (one post-indexed load each); through SIMDe (x86) each lane load is a
 * round trip through memory, so the column is gathered into two 64-bit
 * words and moved over once. */
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#define EDMLI_NEON_LANE8(i) c = vld1q_lane_u8(q, c, i), q += n
#define EDMLI_NEON_LANE16(i) c = vld1q_lane_u16(q, c, i), q += n
/* clang-format off */
EDMLI_ALWAYS_INLINE uint8x16_t edmli_neon_col_u8(const uint8_t *q, uint32_t n)
{
    uint8x16_t c = vdupq_n_u8(0);
    EDMLI_NEON_LANE8(0); EDMLI_NEON_LANE8(1); EDMLI_NEON_LANE8(2); EDMLI_NEON_LANE8(3);
    EDMLI_NEON_LANE8(4); EDMLI_NEON_LANE8(5); EDMLI_NEON_LANE8(6); EDMLI_NEON_LANE8(7);
    EDMLI_NEON_LANE8(8); EDMLI_NEON_LANE8(9); EDMLI_NEON_LANE8(10); EDMLI_NEON_LANE8(11);
    EDMLI_NEON_LANE8(12); EDMLI_NEON_LANE8(13); EDMLI_NEON_LANE8(14); EDMLI_NEON_LANE8(15);
    return c;
}
EDMLI_ALWAYS_INLINE uint16x8_t edmli_neon_col_u16(const uint16_t *q, uint32_t n)
{
    uint16x8_t c = vdupq_n_u16(0);
    EDMLI_NEON_LANE16(0); EDMLI_NEON_LANE16(1); EDMLI_NEON_LANE16(2); EDMLI_NEON_LANE16(3);
    EDMLI_NEON_LANE16(4); EDMLI_NEON_LANE16(5); EDMLI_NEON_LANE16(6); EDMLI_NEON_LANE16(7);
    return c;
}
/* clang-format on */
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_col_u32(const uint32_t *q, uint32_t n)
{
    uint32x4_t c = vld1q_lane_u32(q, vdupq_n_u32(0), 0);
    c = vld1q_lane_u32(q + n, c, 1), c = vld1q_lane_u32(q + 2 * n, c, 2);
    return vld1q_lane_u32(q + 3 * n, c, 3);
}
#undef EDMLI_NEON_LANE8
#undef EDMLI_NEON_LANE16
#else
EDMLI_ALWAYS_INLINE uint8x16_t edmli_neon_col_u8(const uint8_t *q, uint32_t n)
{
    uint64_t w[2] = {0, 0};
    for (uint32_t i = 0; i < 16; i++) w[i / 8] |= (uint64_t)q[i * n] << (i % 8 * 8);
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(w[0]), vcreate_u64(w[1])));
}
EDMLI_ALWAYS_INLINE uint16x8_t edmli_neon_col_u16(const uint16_t *q, uint32_t n)
{
    uint64_t w[2] = {0, 0};
    for (uint32_t i = 0; i < 8; i++) w[i / 4] |= (uint64_t)q[i * n] << (i % 4 * 16);
    return vreinterpretq_u16_u64(vcombine_u64(vcreate_u64(w[0]), vcreate_u64(w[1])));
}
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_col_u32(const uint32_t *q, uint32_t n)
{
    const uint64_t lo = q[0] | (uint64_t)q[n] << 32, hi = q[2 * n] | (uint64_t)q[3 * n] << 32;
    return vreinterpretq_u32_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
}
#endif

/* Rows of 4 to 31 32-bit elements (a segmentation map's 21 classes): four
 * rows a vector, column by column, each column's four elements loaded
 * lane by lane (rows n apart), in column order, so ties resolve as the
 * scan does. */
EDMLI_ALWAYS_INLINE void edmli_neon_rows4_u32(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint32_t sign = s->dtype == EDML_TENSOR_DATA_TYPE_INT32 ? 0x80000000u : 0u, n = s->n;
    const uint32x4_t flip = vdupq_n_u32(sign ^ (s->is_max ? 0u : 0xffffffffu));
    const uint32_t *q = (const uint32_t *)(const void *)p;
    uint32x4_t best = edmli_neon_order32(edmli_neon_col_u32(q, n), flip, s->is_float), idx = vdupq_n_u32(0);
    for (uint32_t j = 1; j < n; j++) {
        const uint32x4_t k = edmli_neon_order32(edmli_neon_col_u32(q + j, n), flip, s->is_float);
        const uint32x4_t t = s->take_last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
        best = vbslq_u32(t, k, best);
        idx = vbslq_u32(t, vdupq_n_u32(j), idx);
    }
    const uint16x4_t narrow = vmovn_u32(idx);
    vst1_u8(idx8, vmovn_u16(vcombine_u16(narrow, narrow)));
}

/* Rows of 4 to 31 8-bit elements: 16 rows a vector, compared at their own
 * width, as edmli_neon_rows4_u32 does. */
EDMLI_ALWAYS_INLINE void edmli_neon_rows16_u8(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint8x16_t flip =
        vdupq_n_u8((uint8_t)((s->dtype == EDML_TENSOR_DATA_TYPE_INT8 ? 0x80u : 0u) ^ (s->is_max ? 0u : 0xffu)));
    const uint32_t n = s->n;
    uint8x16_t best = veorq_u8(edmli_neon_col_u8(p, n), flip), idx = vdupq_n_u8(0);
    for (uint32_t j = 1; j < n; j++) {
        const uint8x16_t k = veorq_u8(edmli_neon_col_u8(p + j, n), flip);
        const uint8x16_t t = s->take_last ? vcgeq_u8(k, best) : vcgtq_u8(k, best);
        best = vbslq_u8(t, k, best);
        idx = vbslq_u8(t, vdupq_n_u8((uint8_t)j), idx);
    }
    vst1q_u8(idx8, idx);
}

/* Rows of 4 to 31 16-bit elements: 8 rows a vector. */
EDMLI_ALWAYS_INLINE void edmli_neon_rows8_u16(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16])
{
    const uint16x8_t flip =
        vdupq_n_u16((uint16_t)((s->dtype == EDML_TENSOR_DATA_TYPE_INT16 ? 0x8000u : 0u) ^ (s->is_max ? 0u : 0xffffu)));
    const uint32_t n = s->n;
    const uint16_t *q = (const uint16_t *)(const void *)p;
    uint16x8_t best = veorq_u16(edmli_neon_col_u16(q, n), flip), idx = vdupq_n_u16(0);
    for (uint32_t j = 1; j < n; j++) {
        const uint16x8_t k = veorq_u16(edmli_neon_col_u16(q + j, n), flip);
        const uint16x8_t t = s->take_last ? vcgeq_u16(k, best) : vcgtq_u16(k, best);
        best = vbslq_u16(t, k, best);
        idx = vbslq_u16(t, vdupq_n_u16((uint16_t)j), idx);
    }
    vst1_u8(idx8, vmovn_u16(idx));
}

#if defined(__aarch64__) || !defined(__ARM_NEON)
/* FLOAT32 rows of 4 to 255 (21 classes of a segmentation map, YOLO's 80)
 * where float compares are exact (no flush to zero) and keep NaN, four
 * rows at a time: each row's best by FMAX (ArgMin: FMIN) over its vectors,
 * the last overlapping the one before it where n is not a multiple of 4;
 * the four rows' bests folded pairwise into one vector; then each row's
 * first (last) element equal to its best (-0 == +0, as the reference
 * orders them): the least (greatest) index among the lanes that hold it,
 * folded pairwise too. Where a best is a NaN, the rows go by order keys
 * (edmli_neon_f32_row_keys). */
/* Pairwise FMIN, keeping a NaN (SIMDe's VPMIN on SSE3 is MINPS, which
 * drops one: there, FMIN of the unzipped halves). */
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#define EDMLI_NEON_PMIN(a, b) vpminq_f32(a, b)
#else
#define EDMLI_NEON_PMIN(a, b) vminq_f32(vuzp1q_f32(a, b), vuzp2q_f32(a, b))
#endif
#define EDMLI_NEON_F32_BEST(is_min, a, b) ((is_min) ? vminq_f32(a, b) : vmaxq_f32(a, b))
/* Lanes of b equal to the row's vector x: their indices ix into the least
 * (ArgMax's and ArgMin's first) or the greatest (last) so far. */
#define EDMLI_NEON_F32_AT(acc, x, b, ix, last) \
    ((last) ? vmaxq_u32(acc, vandq_u32(ix, vceqq_f32(x, b))) : vminq_u32(acc, vornq_u32(ix, vceqq_f32(x, b))))

/* Four rows of n (r0 to r3; each row's vectors in one loop, so that the
 * loop's own instructions are shared): each one's index into idx8; false
 * where a row's best is a NaN (nothing stored). */
EDMLI_ALWAYS_INLINE bool edmli_neon_rows4_f32(const float *r0, const float *r1, const float *r2, const float *r3,
                                              uint32_t n, bool is_min, bool last, uint8_t idx8[16])
{
    const uint32_t e = n - 4; /* the last vector, overlapping the one before it */
    float32x4_t m0 = vld1q_f32(r0 + e), m1 = vld1q_f32(r1 + e), m2 = vld1q_f32(r2 + e), m3 = vld1q_f32(r3 + e);
    for (uint32_t i = 0; i < e; i += 4) {
        m0 = EDMLI_NEON_F32_BEST(is_min, m0, vld1q_f32(r0 + i)),
        m1 = EDMLI_NEON_F32_BEST(is_min, m1, vld1q_f32(r1 + i));
        m2 = EDMLI_NEON_F32_BEST(is_min, m2, vld1q_f32(r2 + i)),
        m3 = EDMLI_NEON_F32_BEST(is_min, m3, vld1q_f32(r3 + i));
    }
    const float32x4_t m = is_min ? EDMLI_NEON_PMIN(EDMLI_NEON_PMIN(m0, m1), EDMLI_NEON_PMIN(m2, m3))
                                 : vpmaxq_f32(vpmaxq_f32(m0, m1), vpmaxq_f32(m2, m3));
    if (edmli_neon_any_u32(vmvnq_u32(vceqq_f32(m, m)))) return false;
    static const uint32_t lanes[4] = {0, 1, 2, 3};
    const float32x4_t b0 = vdupq_laneq_f32(m, 0), b1 = vdupq_laneq_f32(m, 1);
    const float32x4_t b2 = vdupq_laneq_f32(m, 2), b3 = vdupq_laneq_f32(m, 3);
    const uint32x4_t ix0 = vld1q_u32(lanes), ixe = vaddq_u32(ix0, vdupq_n_u32(e));
    uint32x4_t a0 = vdupq_n_u32(last ? 0u : ~0u);
    a0 = EDMLI_NEON_F32_AT(a0, vld1q_f32(r0 + e), b0, ixe, last);
    uint32x4_t a1 = EDMLI_NEON_F32_AT(vdupq_n_u32(last ? 0u : ~0u), vld1q_f32(r1 + e), b1, ixe, last);
    uint32x4_t a2 = EDMLI_NEON_F32_AT(vdupq_n_u32(last ? 0u : ~0u), vld1q_f32(r2 + e), b2, ixe, last);
    uint32x4_t a3 = EDMLI_NEON_F32_AT(vdupq_n_u32(last ? 0u : ~0u), vld1q_f32(r3 + e), b3, ixe, last);
    uint32x4_t ix = ix0;
    for (uint32_t i = 0; i < e; i += 4, ix = vaddq_u32(ix, vdupq_n_u32(4))) {
        a0 = EDMLI_NEON_F32_AT(a0, vld1q_f32(r0 + i), b0, ix, last);
        a1 = EDMLI_NEON_F32_AT(a1, vld1q_f32(r1 + i), b1, ix, last);
        a2 = EDMLI_NEON_F32_AT(a2, vld1q_f32(r2 + i), b2, ix, last);
        a3 = EDMLI_NEON_F32_AT(a3, vld1q_f32(r3 + i), b3, ix, last);
    }
    const uint32x4_t at =
        last ? vpmaxq_u32(vpmaxq_u32(a0, a1), vpmaxq_u32(a2, a3)) : vpminq_u32(vpminq_u32(a0, a1), vpminq_u32(a2, a3));
    const uint16x4_t narrow = vmovn_u32(at);
    vst1_u8(idx8, vmovn_u16(vcombine_u16(narrow, narrow)));
    return true;
}
#undef EDMLI_NEON_F32_BEST
#undef EDMLI_NEON_F32_AT
#undef EDMLI_NEON_PMIN

/* A row whose best may be a NaN, by order keys: the best key over its
 * vectors, then the first (last) vector holding it. */
static uint8_t edmli_neon_f32_row_keys(const float *f, uint32_t n, bool is_min, bool last)
{
    const uint32x4_t flip = vdupq_n_u32(is_min ? ~0u : 0u);
    const uint32_t *u = (const uint32_t *)(const void *)f;
    uint32x4_t k = edmli_neon_order32(vld1q_u32(u + n - 4), flip, true);
    for (uint32_t i = 0; i + 4 < n; i += 4) k = vmaxq_u32(k, edmli_neon_order32(vld1q_u32(u + i), flip, true));
    const uint32x4_t h = vdupq_n_u32(vmaxvq_u32(k));
    const uint32_t vecs = (n + 3) / 4;
    for (uint32_t t = 0; t < vecs; t++) {
        const uint32_t v = last ? vecs - 1 - t : t, at = v == vecs - 1 ? n - 4 : 4 * v;
        const uint32_t l = edmli_neon_lane32(vceqq_u32(edmli_neon_order32(vld1q_u32(u + at), flip, true), h), last);
        if (l < 4) return (uint8_t)(at + l);
    }
    return 0; /* not reached: the best is one of the row's */
}

/* Rows [begin, end) four at a time, the last ones repeated to fill four. */
EDMLI_ALWAYS_INLINE void edmli_neon_rows4_f32_run(edmli_neon_short *s, uint64_t begin, uint64_t end, bool is_min,
                                                  bool last)
{
    const uint32_t n = s->n;
    const uint64_t row = (uint64_t)n * 4;
    _Alignas(16) uint8_t idx8[16] = {0}; /* whole: the store loads 16 bytes */
    for (uint64_t r = begin; r < end; r += 4) {
        const uint32_t k = end - r < 4 ? (uint32_t)(end - r) : 4;
        const uint8_t *p = s->in + r * row;
        const float *r0 = (const float *)(const void *)p, *r1 = (const float *)(const void *)(p + (k > 1) * row);
        const float *r2 = (const float *)(const void *)(p + (k > 2 ? 2 : k - 1) * row);
        const float *r3 = (const float *)(const void *)(p + (k - 1) * row);
        if (!edmli_neon_rows4_f32(r0, r1, r2, r3, n, is_min, last, idx8)) {
            const float *rp[4] = {r0, r1, r2, r3};
            for (uint32_t i = 0; i < k; i++) idx8[i] = edmli_neon_f32_row_keys(rp[i], n, is_min, last);
        }
        edmli_neon_short_store(s, r, idx8, k);
    }
}

static void edmli_neon_rows4_f32_rows(edmli_neon_short *s, uint64_t begin, uint64_t end)
{
    if (s->is_max)
        s->take_last ? edmli_neon_rows4_f32_run(s, begin, end, false, true)
                     : edmli_neon_rows4_f32_run(s, begin, end, false, false);
    else
        s->take_last ? edmli_neon_rows4_f32_run(s, begin, end, true, true)
                     : edmli_neon_rows4_f32_run(s, begin, end, true, false);
}
#endif

typedef void (*edmli_neon_short_fn)(const edmli_neon_short *s, const uint8_t *p, uint8_t idx8[16]);

/* Rows [begin, end) through one kernel, inlined: whole vectors of rows,
 * then the last few through a zeroed copy of their bytes. */
EDMLI_ALWAYS_INLINE void edmli_neon_short_run(edmli_neon_short *s, uint64_t begin, uint64_t end, edmli_neon_short_fn fn,
                                              uint32_t lanes)
{
    const uint32_t row = s->n * s->es;
    _Alignas(16) uint8_t idx8[16] = {0}, tail[4 * EDMLI_NEON_SHORT_MAX * 4];
    uint64_t r = begin;
    for (; r + lanes <= end; r += lanes) {
        fn(s, s->in + r * row, idx8);
        edmli_neon_short_store(s, r, idx8, lanes);
    }
    if (r == end) return;
    memset(tail, 0, sizeof tail);
    memcpy(tail, s->in + r * row, (size_t)(end - r) * row);
    fn(s, tail, idx8);
    edmli_neon_short_store(s, r, idx8, (uint32_t)(end - r));
}

static void edmli_neon_short_rows(edmli_neon_short *s, uint64_t begin, uint64_t end)
{
    if (!s->packed_out) edmli_odo_seek(&s->rows, begin);
#if defined(__aarch64__) || !defined(__ARM_NEON)
    if (s->rows_f32) {
        edmli_neon_rows4_f32_rows(s, begin, end);
        return;
    }
#endif
    if (s->n > 3 && s->es == 1)
        edmli_neon_short_run(s, begin, end, edmli_neon_rows16_u8, 16);
    else if (s->n > 3 && s->es == 2)
        edmli_neon_short_run(s, begin, end, edmli_neon_rows8_u16, 8);
    else if (s->n > 3)
        edmli_neon_short_run(s, begin, end, edmli_neon_rows4_u32, 4);
    else if (s->es == 1)
        edmli_neon_short_run(s, begin, end, edmli_neon_short_u8, 16);
    else if (s->es == 2)
        edmli_neon_short_run(s, begin, end, edmli_neon_short_u16, 8);
    else if (s->fexact)
        edmli_neon_short_run(s, begin, end, edmli_neon_short_f32, 4);
    else
        edmli_neon_short_run(s, begin, end, edmli_neon_short_u32, 4);
}

typedef struct edmli_neon_short_job {
    const edmli_neon_short *s;
    uint64_t per; /* rows a part */
} edmli_neon_short_job;

static void edmli_neon_short_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_short_job *j = (const edmli_neon_short_job *)arg;
    edmli_neon_short s = *j->s; /* its own odometer */
    const uint64_t begin = part * j->per, end = begin + j->per < s.count ? begin + j->per : s.count;
    if (begin < end) edmli_neon_short_rows(&s, begin, end);
}

edml_status edmli_neon_argreduce_short(const edmli_neon_arg *v, const edmli_exec *ex)
{
    const edml_operator *op = v->op;
    const edmli_tensor *ti = v->in, *to = v->out;
    const uint32_t last = ti->rank - 1, elem = to->elem_size;
    edmli_neon_short s = {.in = ex->in[0],
                          .out = ex->out[0],
                          .count = to->elem_count,
                          .n = ti->sizes[last],
                          .es = ti->elem_size,
                          .dtype = ti->dtype,
                          .index_type = to->dtype,
                          .os = to->elem_size,
                          .is_max = op->plan.argreduce.is_max,
                          .take_last = op->plan.argreduce.direction == EDML_AXIS_DIRECTION_DECREASING,
                          .is_float = ti->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32,
                          .packed_out = edmli_neon_short_rows_packed(to),
                          .rows_f32 = edmli_neon_rows_f32(ti),
                          .fexact = ti->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 && edmli_neon_fp_exact() &&
                                    edmli_neon_fp_keeps_nan()};
    edmli_odo_init(&s.rows, 1);
    for (uint32_t d = 0; d < last; d++) edmli_odo_dim(&s.rows, to->sizes[d], &to->strides[d], &elem);
    const uint32_t parts = edmli_cpu_parts(op, s.count, ti->elem_count * ti->elem_size);
    edmli_neon_short_job j = {&s, (s.count + parts - 1) / parts};
    j.per = (j.per + 15) & ~(uint64_t)15; /* whole vectors a part */
    const uint32_t used = (uint32_t)((s.count + j.per - 1) / j.per);
    return edmli_cpu_parallel(ex, used ? used : 1, edmli_neon_short_part, &j);
}
