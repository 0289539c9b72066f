/* ArgMin and ArgMax, NEON, along packed runs of 8-, 16- and 32-bit integers
 * (UINT8 to INT32), at the element's own width: a block of 128 bytes is
 * reduced lane-wise by the type's own MAX (ArgMin: MIN), its best key taken
 * across the lanes and compared with the best so far; a block that cannot
 * beat it (not better, or only equal where the first index wins) is
 * skipped, one that can is looked at: the first (last) lane holding its
 * best. On real data nearly every block is skipped: 8 loads, 7 MAX and a
 * horizontal MAX a block. Shorter tails go a vector, then an element, at a
 * time. Keys are neon.h's 32-bit keys (edmli_neon_key1), ArgMin's reversed,
 * so that the bests of split parts combine with the other kernels' rules. */
#include "neon.h"

#define EDMLI_NEON_BLOCK_VECS 8u /* vectors (16 bytes) a block */

/* A lane-wise best of two vectors (MAX, or MIN for ArgMin) at width W, in
 * the type's own signedness. */
#define EDMLI_NEON_BLOCK_OPS(W, LANES)                                                                           \
    EDMLI_ALWAYS_INLINE uint##W##x##LANES##_t edmli_neon_bb##W(uint##W##x##LANES##_t a, uint##W##x##LANES##_t b, \
                                                               bool sgn, bool is_min)                            \
    {                                                                                                            \
        if (sgn) {                                                                                               \
            const int##W##x##LANES##_t x = vreinterpretq_s##W##_u##W(a), y = vreinterpretq_s##W##_u##W(b);       \
            return vreinterpretq_u##W##_s##W(is_min ? vminq_s##W(x, y) : vmaxq_s##W(x, y));                      \
        }                                                                                                        \
        return is_min ? vminq_u##W(a, b) : vmaxq_u##W(a, b);                                                     \
    }
EDMLI_NEON_BLOCK_OPS(8, 16)
EDMLI_NEON_BLOCK_OPS(16, 8)
EDMLI_NEON_BLOCK_OPS(32, 4)

/* The first (last) lane of v equal to h, LANES where none is. */
#define EDMLI_NEON_EQ_LANE(W, v, h, last) edmli_neon_lane##W(vceqq_u##W(v, vdupq_n_u##W(h)), last)

/* Elements [i, e) of the run at p (flat index `flat` at element 0) offered
 * to b, for the type of W bits (signed where sgn). A key is the element
 * with its sign bit flipped, every bit flipped for ArgMin, then widened as
 * edmli_neon_key1's (with ArgMin's upper bits set); hi holds those bits. */
#define EDMLI_NEON_BLOCK_RUN(W, LANES)                                                                              \
    EDMLI_ALWAYS_INLINE void edmli_neon_blocks##W(const uint8_t *p, uint32_t i, uint32_t e, uint32_t flat,          \
                                                  edmli_neon_run_best *b, bool sgn, bool is_min, bool last)         \
    {                                                                                                               \
        const uint##W##_t flip = (uint##W##_t)((sgn ? 1u << (W - 1) : 0u) ^ (is_min ? ~0u : 0u));                   \
        const uint32_t hi = is_min ? ~(uint32_t)(uint##W##_t) ~0u : 0u;                                             \
        const uint##W##x##LANES##_t fv = vdupq_n_u##W(flip);                                                        \
        const uint##W##_t *q = (const uint##W##_t *)(const void *)p;                                                \
        if (!b->any && i < e) *b = (edmli_neon_run_best){(uint##W##_t)(q[i] ^ flip) | hi, flat + i, true};          \
        for (; i + EDMLI_NEON_BLOCK_VECS * LANES <= e; i += EDMLI_NEON_BLOCK_VECS * LANES) {                        \
            const uint##W##_t *s = q + i;                                                                           \
            const uint##W##x##LANES##_t a = edmli_neon_bb##W(vld1q_u##W(s), vld1q_u##W(s + LANES), sgn, is_min);    \
            const uint##W##x##LANES##_t c =                                                                         \
                edmli_neon_bb##W(vld1q_u##W(s + 2 * LANES), vld1q_u##W(s + 3 * LANES), sgn, is_min);                \
            const uint##W##x##LANES##_t d =                                                                         \
                edmli_neon_bb##W(vld1q_u##W(s + 4 * LANES), vld1q_u##W(s + 5 * LANES), sgn, is_min);                \
            const uint##W##x##LANES##_t f =                                                                         \
                edmli_neon_bb##W(vld1q_u##W(s + 6 * LANES), vld1q_u##W(s + 7 * LANES), sgn, is_min);                \
            const uint##W##x##LANES##_t m = edmli_neon_bb##W(edmli_neon_bb##W(a, c, sgn, is_min),                   \
                                                             edmli_neon_bb##W(d, f, sgn, is_min), sgn, is_min);     \
            const uint32_t k = edmli_neon_hmax##W(veorq_u##W(m, fv)) | hi;                                          \
            if (k < b->key || (k == b->key && !last)) continue;                                                     \
            for (uint32_t n = 0; n < EDMLI_NEON_BLOCK_VECS; n++) {                                                  \
                const uint32_t v = last ? EDMLI_NEON_BLOCK_VECS - 1 - n : n;                                        \
                const uint32_t l = EDMLI_NEON_EQ_LANE(W, vld1q_u##W(s + v * LANES), (uint##W##_t)(k ^ flip), last); \
                if (l < LANES) {                                                                                    \
                    *b = (edmli_neon_run_best){k, flat + i + v * LANES + l, true};                                  \
                    break;                                                                                          \
                }                                                                                                   \
            }                                                                                                       \
        }                                                                                                           \
        for (; i + LANES <= e; i += LANES) {                                                                        \
            const uint##W##x##LANES##_t x = vld1q_u##W(q + i);                                                      \
            const uint32_t k = edmli_neon_hmax##W(veorq_u##W(x, fv)) | hi;                                          \
            if (k > b->key || (k == b->key && last))                                                                \
                *b = (edmli_neon_run_best){k, flat + i + EDMLI_NEON_EQ_LANE(W, x, (uint##W##_t)(k ^ flip), last),   \
                                           true};                                                                   \
        }                                                                                                           \
        for (; i < e; i++) {                                                                                        \
            const uint32_t k = (uint##W##_t)(q[i] ^ flip) | hi;                                                     \
            if (k > b->key || (k == b->key && last)) *b = (edmli_neon_run_best){k, flat + i, true};                 \
        }                                                                                                           \
    }
EDMLI_NEON_BLOCK_RUN(8, 16)
EDMLI_NEON_BLOCK_RUN(16, 8)
EDMLI_NEON_BLOCK_RUN(32, 4)

/* One function a type, order and tie rule: the compare and the key are
 * straight-line code. */
#define EDMLI_NEON_BLOCK_FN(T, W, SGN, MIN, LAST)                                                           \
    static void edmli_neon_run_##T##_##MIN##LAST(const uint8_t *p, uint32_t i0, uint32_t i1, uint32_t flat, \
                                                 edmli_neon_run_best *b)                                    \
    {                                                                                                       \
        edmli_neon_blocks##W(p, i0, i1, flat, b, SGN, MIN, LAST);                                           \
    }
#define EDMLI_NEON_BLOCK_FNS(T, W, SGN)  \
    EDMLI_NEON_BLOCK_FN(T, W, SGN, 0, 0) \
    EDMLI_NEON_BLOCK_FN(T, W, SGN, 0, 1) EDMLI_NEON_BLOCK_FN(T, W, SGN, 1, 0) EDMLI_NEON_BLOCK_FN(T, W, SGN, 1, 1)
EDMLI_NEON_BLOCK_FNS(u8, 8, 0)
EDMLI_NEON_BLOCK_FNS(i8, 8, 1)
EDMLI_NEON_BLOCK_FNS(u16, 16, 0)
EDMLI_NEON_BLOCK_FNS(i16, 16, 1)
EDMLI_NEON_BLOCK_FNS(u32, 32, 0)
EDMLI_NEON_BLOCK_FNS(i32, 32, 1)

edmli_neon_run_fn edmli_neon_blocks_for(EDML_TENSOR_DATA_TYPE t, bool is_min, bool last)
{
#define EDMLI_CASE(T, DT)                                                          \
    case EDML_TENSOR_DATA_TYPE_##DT:                                               \
        return is_min ? (last ? edmli_neon_run_##T##_11 : edmli_neon_run_##T##_10) \
                      : (last ? edmli_neon_run_##T##_01 : edmli_neon_run_##T##_00);
    switch (t) {
        EDMLI_CASE(u8, UINT8)
        EDMLI_CASE(i8, INT8)
        EDMLI_CASE(u16, UINT16)
        EDMLI_CASE(i16, INT16)
        EDMLI_CASE(u32, UINT32)
        EDMLI_CASE(i32, INT32)
    default: return NULL; /* floats and 64-bit types: their own kernels */
    }
#undef EDMLI_CASE
}

/* INT64 and UINT64: each block compared with the best so far two lanes at
 * a time, skipped where none is better (the first index wins) or all are
 * worse (the last does); a block that passes is looked at element by
 * element, by key. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_blocks_i64(const uint64_t *q, uint64_t n, bool sgn, bool is_min, bool last)
{
    const uint64_t inv = (sgn ? 0x8000000000000000u : 0) ^ (is_min ? ~(uint64_t)0 : 0);
    const uint64x2_t iv = vdupq_n_u64(inv);
    uint64_t bk = q[0] ^ inv, bi = 0, i = 0;
    for (; i + 16 <= n; i += 16) {
        const uint64x2_t b = vdupq_n_u64(bk ^ inv);
        const uint64_t *s = q + i;
#define EDMLI_NEON_UP(v) edmli_neon_better64(vld1q_u64(s + v), b, iv, sgn, is_min)
#define EDMLI_NEON_DOWN(v) edmli_neon_better64(b, vld1q_u64(s + v), iv, sgn, is_min)
        const uint64x2_t t =
            last ? EDMLI_NEON_TREE8(vandq_u64, EDMLI_NEON_DOWN) : EDMLI_NEON_TREE8(vorrq_u64, EDMLI_NEON_UP);
        const uint32x4_t a = last ? vmvnq_u32(vreinterpretq_u32_u64(t)) : vreinterpretq_u32_u64(t);
#undef EDMLI_NEON_UP
#undef EDMLI_NEON_DOWN
        if (!edmli_neon_any_u32(a)) continue;
        for (uint32_t j = 0; j < 16; j++) {
            const uint64_t k = s[j] ^ inv;
            if (k > bk || (last && k == bk)) bk = k, bi = i + j;
        }
    }
    for (; i < n; i++) {
        const uint64_t k = q[i] ^ inv;
        if (k > bk || (last && k == bk)) bk = k, bi = i;
    }
    return bi;
}

#if defined(__aarch64__) || !defined(__ARM_NEON)
/* Whether the FLOAT64 element x, later in the run, beats the best b: the
 * reference's order (-0 == +0; a NaN above every number, for ArgMin too). */
static inline bool edmli_neon_f64_beats(double x, double b, bool is_min, bool last)
{
    if (b != b) return last && x != x;
    if (x != x) return true;
    if (last) return is_min ? x <= b : x >= b;
    return is_min ? x < b : x > b;
}

/* FLOAT64 where float compares are exact: each block's best by FMAX
 * (ArgMin: FMIN), which keep a NaN, compared with the best so far; a block
 * that passes is looked at element by element. A NaN best ends the run
 * where the first index wins. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_blocks_f64(const double *q, uint64_t n, bool is_min, bool last)
{
    double b = q[0];
    uint64_t bi = 0, i = 0;
    for (; i + 16 <= n && !(b != b && !last); i += 16) {
        const double *s = q + i;
#define EDMLI_NEON_LD(v) vld1q_f64(s + v)
        const float64x2_t m =
            is_min ? EDMLI_NEON_TREE8(vminq_f64, EDMLI_NEON_LD) : EDMLI_NEON_TREE8(vmaxq_f64, EDMLI_NEON_LD);
#undef EDMLI_NEON_LD
        const float64x2_t bv = vdupq_n_f64(b);
        uint64x2_t pass =
            is_min ? (last ? vcleq_f64(m, bv) : vcltq_f64(m, bv)) : (last ? vcgeq_f64(m, bv) : vcgtq_f64(m, bv));
        pass = vorrq_u64(pass, vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(vceqq_f64(m, m)))));
        if (!edmli_neon_any_u32(vreinterpretq_u32_u64(pass))) continue;
        for (uint32_t j = 0; j < 16; j++)
            if (edmli_neon_f64_beats(q[i + j], b, is_min, last)) b = q[i + j], bi = i + j;
    }
    for (; i < n; i++)
        if (edmli_neon_f64_beats(q[i], b, is_min, last)) b = q[i], bi = i;
    return bi;
}
#endif

bool edmli_neon_blocks64_takes(EDML_TENSOR_DATA_TYPE t)
{
    if (t == EDML_TENSOR_DATA_TYPE_INT64 || t == EDML_TENSOR_DATA_TYPE_UINT64) return true;
#if defined(__aarch64__) || !defined(__ARM_NEON)
    return t == EDML_TENSOR_DATA_TYPE_FLOAT64 && edmli_neon_fp_exact() && edmli_neon_fp_keeps_nan();
#else
    return false; /* ARMv7 NEON has no FLOAT64 lanes */
#endif
}

uint64_t edmli_neon_blocks64(const uint8_t *p, uint64_t n, EDML_TENSOR_DATA_TYPE t, bool is_min, bool last)
{
    const uint64_t *q = (const uint64_t *)(const void *)p;
#if defined(__aarch64__) || !defined(__ARM_NEON)
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT64) {
        const double *f = (const double *)(const void *)p;
        if (is_min) return last ? edmli_neon_blocks_f64(f, n, true, true) : edmli_neon_blocks_f64(f, n, true, false);
        return last ? edmli_neon_blocks_f64(f, n, false, true) : edmli_neon_blocks_f64(f, n, false, false);
    }
#endif
    if (t == EDML_TENSOR_DATA_TYPE_INT64) {
        if (is_min)
            return last ? edmli_neon_blocks_i64(q, n, true, true, true)
                        : edmli_neon_blocks_i64(q, n, true, true, false);
        return last ? edmli_neon_blocks_i64(q, n, true, false, true) : edmli_neon_blocks_i64(q, n, true, false, false);
    }
    if (is_min)
        return last ? edmli_neon_blocks_i64(q, n, false, true, true) : edmli_neon_blocks_i64(q, n, false, true, false);
    return last ? edmli_neon_blocks_i64(q, n, false, false, true) : edmli_neon_blocks_i64(q, n, false, false, false);
}
