/* ArgMin and ArgMax, NEON: 32-bit order keys in lanes with a best key and
 * its index per lane. Two shapes are vectorized:
 *  - horizontal: the innermost input dim is reduced and packed: each lane
 *    walks every 4th element and the lanes are merged at the end;
 *  - vertical: the innermost input dim is kept and packed: 4 neighbouring
 *    outputs at once, one lane each, over the whole reduced set.
 * A lane takes a new element on > (first index wins) or >= (last wins); lanes
 * merge by key, then by index, so ties resolve exactly as the reference does.
 * Horizontally, FLOAT32 goes in blocks of 32 against a threshold (below)
 * and integers of up to 32 bits in blocks of 128 bytes at their own width
 * (neon_argreduce_blocks.c). Other types and layouts take 64-bit keys
 * (neon_argreduce_wide.c).
 * Vertically, 16 columns go down the reduced set together where it is one
 * plain stride (four vectors: independent compare chains, 64 neighbouring
 * bytes a row), else 4 at a time.
 * Parts: over outputs (horizontally) or groups of 16 columns (vertically);
 * with fewer of those than parts, within each reduction (its sets, or its
 * one run), each part's best (key, index) kept in scratch and combined in
 * part order under the same rule, so any thread count gives the same answer. */
#include "neon.h"

typedef struct edmli_neon_red {
    edmli_odo outer;  /* over kept dims (input, output) */
    edmli_odo inner;  /* over reduced dims but the run (input) */
    uint32_t run;     /* elements of the innermost reduced dim */
    int64_t run_step; /* its stride, bytes */
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t es;
    uint32_t invert; /* ArgMin: ~key, NaN kept on top */
    bool is_float, take_last;
    bool keys;                /* bests need their keys (parts are combined) */
    edmli_neon_run_fn blocks; /* integers of up to 32 bits: a run in blocks */
} edmli_neon_red;

/* a (key, index) better than b under the tie rule */
static inline bool edmli_neon_better(uint32_t ka, uint32_t ia, uint32_t kb, uint32_t ib, bool take_last)
{
    return ka > kb || (ka == kb && (take_last ? ia > ib : ia < ib));
}

/* ArgMin reverses the order but keeps NaN on top, without branches:
 * inv is all ones for ArgMin, keepnan all ones for ArgMin of a float type. */
static inline uint32x4_t edmli_neon_red_adjust(uint32x4_t k, uint32x4_t inv, uint32x4_t keepnan)
{
    uint32x4_t nan = vandq_u32(vceqq_u32(k, vdupq_n_u32(0xffffffffu)), keepnan);
    return vorrq_u32(veorq_u32(k, inv), nan);
}

static inline uint32_t edmli_neon_red_key1(const edmli_neon_red *r, const uint8_t *p)
{
    uint64_t k;
    edmli_keys_for(r->dtype)(p, 0, 1, &k);
    uint32_t k32 = k == EDMLI_NAN_KEY ? 0xffffffffu : (uint32_t)k;
    if (r->invert && !(r->is_float && k32 == 0xffffffffu)) k32 = ~k32;
    return k32;
}

/* A best (key, index) so far; `any` (0 or 1) once it holds one. Three words,
 * so that 4 are stored from vectors at once (VST3). */
typedef struct edmli_neon_best {
    uint32_t key, idx, any;
} edmli_neon_best;

static inline void edmli_neon_take(edmli_neon_best *acc, uint32_t key, uint32_t idx, bool take_last)
{
    if (!acc->any || edmli_neon_better(key, idx, acc->key, acc->idx, take_last))
        *acc = (edmli_neon_best){key, idx, true};
}

/* Merges the lanes (best key, then first or last index) with a scalar candidate. */
static edmli_neon_best edmli_neon_merge(uint32x4_t best, uint32x4_t bidx, bool any_v, edmli_neon_best s, bool take_last)
{
    uint32_t kb[4], ib[4];
    vst1q_u32(kb, best);
    vst1q_u32(ib, bidx);
    for (int j = 0; j < 4 && any_v; j++) edmli_neon_take(&s, kb[j], ib[j], take_last);
    return s;
}

/* What a call reduces: sets [s0, s1) of the reduced set, elements [i0, i1)
 * of each set's run. */
typedef struct edmli_neon_span {
    uint64_t s0, s1;
    uint32_t i0, i1;
} edmli_neon_span;

/* One span of a reduced set, horizontally (vertically, a column: run 1).
 * Always inlined into a function per data type and tie rule (below), so that
 * the key conversion and the compare are straight-line code. */
EDMLI_ALWAYS_INLINE edmli_neon_best edmli_neon_reduce_set(edmli_neon_red *r, const uint8_t *base,
                                                          const edmli_neon_span *sp, EDML_TENSOR_DATA_TYPE dt,
                                                          bool last)
{
    static const uint32_t lanes[4] = {0, 1, 2, 3};
    const uint32x4_t lane = vld1q_u32(lanes), four = vdupq_n_u32(4);
    const uint32x4_t inv = vdupq_n_u32(r->invert ? 0xffffffffu : 0);
    const uint32x4_t keepnan = vdupq_n_u32(r->invert && r->is_float ? 0xffffffffu : 0);
    const uint32_t es = edml_data_type_size(dt);
    uint32x4_t best = vdupq_n_u32(0), bidx = vdupq_n_u32(0);
    edmli_neon_best sb = {0, 0, false};
    bool any_v = false;
    edmli_odo_seek(&r->inner, sp->s0);
    for (uint64_t s = sp->s0; s < sp->s1; s++, edmli_odo_next(&r->inner)) {
        const uint8_t *p = base + r->inner.off[0];
        const uint32_t flat = (uint32_t)(s * r->run);
        uint32_t i = sp->i0;
        if (sp->i1 - i >= 4) {
            uint32x4_t idx = vaddq_u32(lane, vdupq_n_u32(flat + i));
            if (!any_v) {
                best = edmli_neon_red_adjust(edmli_neon_load_keys(dt, p + (uint64_t)i * es), inv, keepnan);
                bidx = idx;
                idx = vaddq_u32(idx, four);
                i += 4;
                any_v = true;
            }
            for (; i + 4 <= sp->i1; i += 4, idx = vaddq_u32(idx, four)) {
                uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, p + (uint64_t)i * es), inv, keepnan);
                uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
                best = vbslq_u32(m, k, best);
                bidx = vbslq_u32(m, idx, bidx);
            }
        }
        for (; i < sp->i1; i++) {
            uint32_t k = edmli_neon_red_key1(r, p + (uint64_t)i * es);
            if (!sb.any || k > sb.key || (last && k == sb.key)) sb = (edmli_neon_best){k, flat + i, true};
        }
    }
    return edmli_neon_merge(best, bidx, any_v, sb, last);
}

/* FLOAT32 in signed order: sign and magnitude as a two's complement number,
 * so that -0 and +0 are one and integer compares order every number (not
 * NaNs, which are looked for apart). */
static inline int32x4_t edmli_neon_f32_sord(uint32x4_t u)
{
    const int32x4_t x = vreinterpretq_s32_u32(u), s = vshrq_n_s32(x, 31);
    return vsubq_s32(veorq_s32(x, vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(s), 1))), s);
}

static inline int32_t edmli_neon_f32_sord1(uint32_t u) { return (u >> 31) ? -(int32_t)(u & 0x7fffffffu) : (int32_t)u; }

static inline bool edmli_neon_f32_isnan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

/* The order key of a FLOAT32 (edmli_neon_key1), reversed
 * for ArgMin but for NaN, which stays on top. */
static inline uint32_t edmli_neon_f32_key1(uint32_t u, bool is_min)
{
    if (edmli_neon_f32_isnan(u)) return 0xffffffffu;
    if (u == 0x80000000u) u = 0;
    const uint32_t k = u & 0x80000000u ? ~u : u | 0x80000000u;
    return is_min ? ~k : k;
}

/* Whether the element with bits x, later in the reduction, beats the best
 * so far with bits b: a NaN beats every number (ArgMin as well as ArgMax),
 * and a later NaN beats a NaN when the last index wins. */
static inline bool edmli_neon_f32_beats(uint32_t x, uint32_t b, bool is_min, bool last)
{
    if (edmli_neon_f32_isnan(b)) return last && edmli_neon_f32_isnan(x);
    if (edmli_neon_f32_isnan(x)) return true;
    const int32_t sx = edmli_neon_f32_sord1(x), sb = edmli_neon_f32_sord1(b);
    if (last) return is_min ? sx <= sb : sx >= sb;
    return is_min ? sx < sb : sx > sb;
}

/* The best so far of a FLOAT32 reduction: its bits and index. */
typedef struct edmli_neon_f32_best {
    uint32_t bits, idx;
    bool any;
} edmli_neon_f32_best;

/* Elements [i, e) of a set, one by one. */
EDMLI_ALWAYS_INLINE void edmli_neon_f32_scan(const uint8_t *p, uint32_t flat, uint32_t i, uint32_t e,
                                             edmli_neon_f32_best *b, bool is_min, bool last)
{
    for (; i < e; i++) {
        uint32_t u;
        memcpy(&u, p + (uint64_t)i * 4, 4);
        if (!b->any || edmli_neon_f32_beats(u, b->bits, is_min, last)) *b = (edmli_neon_f32_best){u, flat + i, true};
    }
}

/* FLOAT32 horizontally, at about half an instruction an element: a block of
 * 32 elements is reduced lane-wise with FMIN (ArgMin) or FMAX (ArgMax),
 * which keep a NaN, and compared with a threshold, strictly: a block none of
 * whose lanes passes cannot beat the best. Only a block that passes is
 * looked at exactly (on real data, a handful a set): in signed order, or one
 * by one where it holds a NaN. */
#define EDMLI_NEON_F32_BEST(is_min, a, b) ((is_min) ? vminq_f32(a, b) : vmaxq_f32(a, b))

EDMLI_ALWAYS_INLINE float32x4_t edmli_neon_f32_block_best(const uint8_t *q, bool is_min)
{
    /* named vectors, not an array: GCC keeps an array on the stack */
    const float *f = (const float *)(const void *)q;
    const float32x4_t v0 = vld1q_f32(f), v1 = vld1q_f32(f + 4), v2 = vld1q_f32(f + 8), v3 = vld1q_f32(f + 12);
    const float32x4_t v4 = vld1q_f32(f + 16), v5 = vld1q_f32(f + 20), v6 = vld1q_f32(f + 24), v7 = vld1q_f32(f + 28);
    const float32x4_t a =
        EDMLI_NEON_F32_BEST(is_min, EDMLI_NEON_F32_BEST(is_min, v0, v4), EDMLI_NEON_F32_BEST(is_min, v1, v5));
    const float32x4_t b =
        EDMLI_NEON_F32_BEST(is_min, EDMLI_NEON_F32_BEST(is_min, v2, v6), EDMLI_NEON_F32_BEST(is_min, v3, v7));
    return EDMLI_NEON_F32_BEST(is_min, a, b);
}

/* The threshold for a best with bits b: b itself; where float compares are
 * exact and the first index wins, the next float on the better side, so that
 * a block equal to the best is skipped too; for a NaN best, -inf for ArgMin
 * (+inf for ArgMax), which only a NaN or an infinity passes. Where
 * subnormals may be flushed to zero (by FMIN and FMAX, or by the compare),
 * equal must pass, and a subnormal best moves to a zero or the least normal
 * number on its worse side (edmli_neon_off_subnormal). */
static inline float32x4_t edmli_neon_f32_thr(uint32_t b, bool is_min, bool last, bool exact)
{
    uint32_t t = b;
    if (edmli_neon_f32_isnan(b))
        t = is_min ? 0xff800000u : 0x7f800000u;
    else if (!exact)
        t = edmli_neon_off_subnormal(b, 4, !is_min);
    else if (exact && !last && (b & 0x7fffffffu) == 0)
        t = is_min ? 0x80000001u : 0x00000001u;
    else if (exact && !last && b != (is_min ? 0xff800000u : 0x7f800000u))
        t = (b >> 31) == is_min ? b + 1 : b - 1; /* magnitude up on the better side, else down */
    return vreinterpretq_f32_u32(vdupq_n_u32(t));
}

/* True if no lane of the block's best m passes the threshold. */
EDMLI_ALWAYS_INLINE bool edmli_neon_f32_skip(float32x4_t m, float32x4_t thr, bool is_min)
{
    return edmli_neon_all_u32(is_min ? edmli_neon_cgt_f32(m, thr) : edmli_neon_clt_f32(m, thr));
}

/* The first (last) of 32 lanes whose signed order is `key`. */
static uint32_t edmli_neon_f32_lane(const int32x4_t k[8], int32_t key, bool last)
{
    const int32x4_t d = vdupq_n_s32(key);
    for (int n = 0; n < 8; n++) {
        const int v = last ? 7 - n : n;
        const uint64_t w = vget_lane_u64(vreinterpret_u64_u16(vmovn_u32(vceqq_s32(k[v], d))), 0);
        if (w)
            return 4u * (uint32_t)v + (last ? 63u - (uint32_t)__builtin_clzll(w) : (uint32_t)__builtin_ctzll(w)) / 16u;
    }
    return 0; /* not reached: key is one of the lanes */
}

/* A block of 32 without NaNs that passed: its best in signed order, taken if
 * it beats the best so far. */
EDMLI_ALWAYS_INLINE void edmli_neon_f32_look(const uint8_t *q, uint32_t flat, edmli_neon_f32_best *b, bool is_min,
                                             bool last)
{
    int32x4_t k[8];
    for (int v = 0; v < 8; v++) k[v] = edmli_neon_f32_sord(vld1q_u32((const uint32_t *)(const void *)(q + 16 * v)));
    int32x4_t m = k[0];
    for (int v = 1; v < 8; v++) m = is_min ? vminq_s32(m, k[v]) : vmaxq_s32(m, k[v]);
    const uint32_t lane = edmli_neon_f32_lane(k, edmli_neon_hbest_s32(m, is_min), last);
    uint32_t u;
    memcpy(&u, q + 4 * lane, 4);
    if (edmli_neon_f32_beats(u, b->bits, is_min, last)) *b = (edmli_neon_f32_best){u, flat + lane, true};
}

EDMLI_ALWAYS_INLINE edmli_neon_best edmli_neon_reduce_f32(edmli_neon_red *r, const uint8_t *base,
                                                          const edmli_neon_span *sp, bool is_min, bool last)
{
    const bool exact = edmli_neon_fp_exact();
    edmli_neon_f32_best b = {0, 0, false};
    edmli_odo_seek(&r->inner, sp->s0);
    for (uint64_t s = sp->s0; s < sp->s1; s++, edmli_odo_next(&r->inner)) {
        const uint8_t *p = base + r->inner.off[0];
        const uint32_t flat = (uint32_t)(s * r->run);
        uint32_t i = sp->i0;
        if (!b.any) edmli_neon_f32_scan(p, flat, i, i + 1, &b, is_min, last); /* a best to compare with */
        float32x4_t thr = edmli_neon_f32_thr(b.bits, is_min, last, exact);
        for (; i + 32 <= sp->i1; i += 32) {
            const uint8_t *q = p + (uint64_t)i * 4;
            const float32x4_t m = edmli_neon_f32_block_best(q, is_min);
            if (edmli_neon_f32_skip(m, thr, is_min)) continue;
            if (edmli_neon_all_u32(edmli_neon_ceq_f32(m, m)))
                edmli_neon_f32_look(q, flat + i, &b, is_min, last);
            else
                edmli_neon_f32_scan(p, flat, i, i + 32, &b, is_min, last);
            thr = edmli_neon_f32_thr(b.bits, is_min, last, exact);
        }
        edmli_neon_f32_scan(p, flat, i, sp->i1, &b, is_min, last);
    }
    return (edmli_neon_best){edmli_neon_f32_key1(b.bits, is_min), b.idx, b.any};
}

static edmli_neon_best edmli_neon_reduce_first_f32(edmli_neon_red *r, const uint8_t *b, const edmli_neon_span *sp)
{
    return r->invert ? edmli_neon_reduce_f32(r, b, sp, true, false) : edmli_neon_reduce_f32(r, b, sp, false, false);
}

static edmli_neon_best edmli_neon_reduce_last_f32(edmli_neon_red *r, const uint8_t *b, const edmli_neon_span *sp)
{
    return r->invert ? edmli_neon_reduce_f32(r, b, sp, true, true) : edmli_neon_reduce_f32(r, b, sp, false, true);
}

#define EDMLI_NEON_REDUCE_SETS(T, DT)                                                                                  \
    static edmli_neon_best edmli_neon_reduce_first_##T(edmli_neon_red *r, const uint8_t *b, const edmli_neon_span *sp) \
    {                                                                                                                  \
        return edmli_neon_reduce_set(r, b, sp, EDML_TENSOR_DATA_TYPE_##DT, false);                                     \
    }                                                                                                                  \
    static edmli_neon_best edmli_neon_reduce_last_##T(edmli_neon_red *r, const uint8_t *b, const edmli_neon_span *sp)  \
    {                                                                                                                  \
        return edmli_neon_reduce_set(r, b, sp, EDML_TENSOR_DATA_TYPE_##DT, true);                                      \
    }
EDMLI_NEON_REDUCE_SETS(f16, FLOAT16)

typedef edmli_neon_best (*edmli_neon_reduce_fn)(edmli_neon_red *r, const uint8_t *base, const edmli_neon_span *sp);

/* Integers of up to 32 bits: each set's run in blocks at the element's own
 * width (neon_argreduce_blocks.c). */
static edmli_neon_best edmli_neon_reduce_blocks(edmli_neon_red *r, const uint8_t *base, const edmli_neon_span *sp)
{
    edmli_neon_run_best b = {0, 0, false};
    edmli_odo_seek(&r->inner, sp->s0);
    for (uint64_t s = sp->s0; s < sp->s1; s++, edmli_odo_next(&r->inner))
        r->blocks(base + r->inner.off[0], sp->i0, sp->i1, (uint32_t)(s * r->run), &b);
    return (edmli_neon_best){b.key, b.idx, b.any};
}

static edmli_neon_reduce_fn edmli_neon_reduce_for(EDML_TENSOR_DATA_TYPE t, bool last)
{
#define EDMLI_CASE(T, DT) \
    case EDML_TENSOR_DATA_TYPE_##DT: return last ? edmli_neon_reduce_last_##T : edmli_neon_reduce_first_##T;
    switch (t) {
        EDMLI_CASE(f32, FLOAT32)
        EDMLI_CASE(f16, FLOAT16)
    default: return NULL; /* integers: edmli_neon_reduce_blocks */
    }
#undef EDMLI_CASE
}

/* Four neighbouring outputs (columns c .. c + 3 of a kept, packed last dim)
 * over sets [s0, s1) of their reduced set, a lane each: their best keys and
 * indices. Always inlined into a function per data type and tie rule, like
 * the sets above. */
EDMLI_ALWAYS_INLINE void edmli_neon_reduce_cols4(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                                 edmli_neon_best out[4], EDML_TENSOR_DATA_TYPE dt, bool last)
{
    const uint32x4_t inv = vdupq_n_u32(r->invert ? 0xffffffffu : 0);
    const uint32x4_t keepnan = vdupq_n_u32(r->invert && r->is_float ? 0xffffffffu : 0);
    edmli_odo_seek(&r->inner, sp->s0);
    uint32x4_t best = edmli_neon_red_adjust(edmli_neon_load_keys(dt, col + r->inner.off[0]), inv, keepnan);
    uint32x4_t bidx = vdupq_n_u32((uint32_t)sp->s0);
    if (r->inner.rank <= 1) { /* at most one reduced dim: a plain stride */
        const int64_t step = r->inner.rank ? r->inner.step[0][0] : 0;
        const uint8_t *q = col + r->inner.off[0];
        uint32x4_t sv = bidx;
        const uint32x4_t one = vdupq_n_u32(1);
        for (uint64_t s = sp->s0 + 1; s < sp->s1; s++) {
            q += step;
            sv = vaddq_u32(sv, one);
            uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, q), inv, keepnan);
            uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
            best = vbslq_u32(m, k, best);
            bidx = vbslq_u32(m, sv, bidx);
        }
    } else {
        for (uint64_t s = sp->s0 + 1; s < sp->s1; s++) {
            edmli_odo_next(&r->inner);
            uint32x4_t k = edmli_neon_red_adjust(edmli_neon_load_keys(dt, col + r->inner.off[0]), inv, keepnan);
            uint32x4_t m = last ? vcgeq_u32(k, best) : vcgtq_u32(k, best);
            best = vbslq_u32(m, k, best);
            bidx = vbslq_u32(m, vdupq_n_u32((uint32_t)s), bidx);
        }
    }
    uint32_t kb[4], ib[4];
    vst1q_u32(kb, best);
    vst1q_u32(ib, bidx);
    for (int j = 0; j < 4; j++) out[j] = (edmli_neon_best){kb[j], ib[j], true};
}

typedef void (*edmli_neon_cols4_fn)(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                    edmli_neon_best out[4]);

#define EDMLI_NEON_COLS4(T, DT)                                                                            \
    static void edmli_neon_cols4_first_##T(edmli_neon_red *r, const uint8_t *c, const edmli_neon_span *sp, \
                                           edmli_neon_best o[4])                                           \
    {                                                                                                      \
        edmli_neon_reduce_cols4(r, c, sp, o, EDML_TENSOR_DATA_TYPE_##DT, false);                           \
    }                                                                                                      \
    static void edmli_neon_cols4_last_##T(edmli_neon_red *r, const uint8_t *c, const edmli_neon_span *sp,  \
                                          edmli_neon_best o[4])                                            \
    {                                                                                                      \
        edmli_neon_reduce_cols4(r, c, sp, o, EDML_TENSOR_DATA_TYPE_##DT, true);                            \
    }
EDMLI_NEON_KEY32_TYPES(EDMLI_NEON_COLS4)

static edmli_neon_cols4_fn edmli_neon_cols4_for(EDML_TENSOR_DATA_TYPE t, bool last)
{
#define EDMLI_CASE(T, DT) \
    case EDML_TENSOR_DATA_TYPE_##DT: return last ? edmli_neon_cols4_last_##T : edmli_neon_cols4_first_##T;
    switch (t) {
        EDMLI_NEON_KEY32_TYPES(EDMLI_CASE)
    default: return NULL; /* the caller took the reference for other types */
    }
#undef EDMLI_CASE
}

/* Sixteen neighbouring outputs down a plain stride (at most one reduced
 * dim), four vectors at once: four independent compare chains, and 64
 * neighbouring bytes of each row read together. */
EDMLI_ALWAYS_INLINE void edmli_neon_reduce_cols16(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                                  edmli_neon_best out[16], EDML_TENSOR_DATA_TYPE dt, bool last)
{
    const uint32x4_t inv = vdupq_n_u32(r->invert ? 0xffffffffu : 0);
    const uint32x4_t keepnan = vdupq_n_u32(r->invert && r->is_float ? 0xffffffffu : 0);
    const uint32x4_t one = vdupq_n_u32(1);
    const int64_t step = r->inner.rank ? r->inner.step[0][0] : 0, vs = 4 * (int64_t)edml_data_type_size(dt);
    const uint8_t *q = col + (int64_t)sp->s0 * step;
    uint32x4_t sv = vdupq_n_u32((uint32_t)sp->s0);
    /* four named vectors, not an array: each stays in its register */
#define EDMLI_COL16_LOAD(v) edmli_neon_red_adjust(edmli_neon_load_keys(dt, q + (v)*vs), inv, keepnan)
    uint32x4_t b0 = EDMLI_COL16_LOAD(0), b1 = EDMLI_COL16_LOAD(1), b2 = EDMLI_COL16_LOAD(2), b3 = EDMLI_COL16_LOAD(3);
    uint32x4_t i0 = sv, i1 = sv, i2 = sv, i3 = sv;
#define EDMLI_COL16_STEP(v)                                            \
    do {                                                               \
        uint32x4_t k = EDMLI_COL16_LOAD(v);                            \
        uint32x4_t m = last ? vcgeq_u32(k, b##v) : vcgtq_u32(k, b##v); \
        b##v = vbslq_u32(m, k, b##v);                                  \
        i##v = vbslq_u32(m, sv, i##v);                                 \
    } while (0)
    for (uint64_t s = sp->s0 + 1; s < sp->s1; s++) {
        q += step;
        sv = vaddq_u32(sv, one);
        EDMLI_COL16_STEP(0);
        EDMLI_COL16_STEP(1);
        EDMLI_COL16_STEP(2);
        EDMLI_COL16_STEP(3);
    }
#undef EDMLI_COL16_STEP
#undef EDMLI_COL16_LOAD
    const uint32x4_t best[4] = {b0, b1, b2, b3}, bidx[4] = {i0, i1, i2, i3};
    uint32_t kb[16], ib[16];
    for (int v = 0; v < 4; v++) vst1q_u32(kb + 4 * v, best[v]), vst1q_u32(ib + 4 * v, bidx[v]);
    for (int j = 0; j < 16; j++) out[j] = (edmli_neon_best){kb[j], ib[j], true};
}

typedef void (*edmli_neon_cols16_fn)(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                     edmli_neon_best out[16]);

#define EDMLI_NEON_COLS16(T, DT)                                                                            \
    static void edmli_neon_cols16_first_##T(edmli_neon_red *r, const uint8_t *c, const edmli_neon_span *sp, \
                                            edmli_neon_best o[16])                                          \
    {                                                                                                       \
        edmli_neon_reduce_cols16(r, c, sp, o, EDML_TENSOR_DATA_TYPE_##DT, false);                           \
    }                                                                                                       \
    static void edmli_neon_cols16_last_##T(edmli_neon_red *r, const uint8_t *c, const edmli_neon_span *sp,  \
                                           edmli_neon_best o[16])                                           \
    {                                                                                                       \
        edmli_neon_reduce_cols16(r, c, sp, o, EDML_TENSOR_DATA_TYPE_##DT, true);                            \
    }
EDMLI_NEON_KEY32_BUT_F32(EDMLI_NEON_COLS16)

/* FLOAT32, 16 columns down a plain stride, at about one instruction an
 * element: each lane keeps its best and the row it came from. Where float
 * compares are exact, and on ARMv7, a float compare picks the row and FMIN
 * (FMAX) keeps the best. ARMv7 flushes subnormals to zero in both, but a
 * flushed element keeps its side of any normal value, so when a lane's best
 * ends normal it is the true best, found at its first (last) row; a best
 * that ends zero (a zero or a subnormal) is done again. On AArch64 with
 * FPCR.FZ or .AH set the compare is on integer order (edmli_neon_f32_t),
 * which subnormals cannot fool, and FMIN (FMAX) runs beside it as a NaN
 * catcher; integer order tells -0 from +0 but not a NaN, so a zero best is
 * done again there. Compares do not rank a NaN, but FMIN and FMAX keep one:
 * a vector of columns that met a NaN is done again too, with order keys
 * (edmli_neon_reduce_cols4). */
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_f32_cmp(float32x4_t x, float32x4_t b, bool is_min, bool last)
{
    if (is_min) return last ? edmli_neon_cle_f32(x, b) : edmli_neon_clt_f32(x, b);
    return last ? edmli_neon_cge_f32(x, b) : edmli_neon_cgt_f32(x, b);
}

EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_s32_cmp(int32x4_t x, int32x4_t b, bool is_min, bool last)
{
    if (is_min) return last ? vcleq_s32(x, b) : vcltq_s32(x, b);
    return last ? vcgeq_s32(x, b) : vcgtq_s32(x, b);
}

/* Integer order of floats in three instructions: signed order
 * (edmli_neon_f32_sord) but for -0 (-1) below +0 (0). Its own inverse:
 * the float whose integer order is t is edmli_neon_f32_t(t). */
static inline int32x4_t edmli_neon_f32_t(uint32x4_t u)
{
    const int32x4_t x = vreinterpretq_s32_u32(u);
    return veorq_s32(x, vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(vshrq_n_s32(x, 31)), 1)));
}

/* One vector of columns: its bests (values, or in signed order) and rows. */
typedef struct edmli_neon_f32_col {
    float32x4_t v;
    int32x4_t k;
    uint32x4_t i;
} edmli_neon_f32_col;

/* One row of a vector of columns. Where compares are exact, and on ARMv7,
 * c->v is the best and catches a NaN; in integer order the NaN catcher is
 * one for all columns (*nan). */
EDMLI_ALWAYS_INLINE void edmli_neon_f32_col_step(edmli_neon_f32_col *c, float32x4_t *nan, float32x4_t x, uint32x4_t row,
                                                 bool is_min, bool last, bool exact)
{
    if (exact || EDMLI_NEON_V7_FLUSH) {
        c->i = vbslq_u32(edmli_neon_f32_cmp(x, c->v, is_min, last), row, c->i);
        c->v = is_min ? vminq_f32(c->v, x) : vmaxq_f32(c->v, x);
    } else {
        const int32x4_t kx = edmli_neon_f32_t(vreinterpretq_u32_f32(x));
        c->i = vbslq_u32(edmli_neon_s32_cmp(kx, c->k, is_min, last), row, c->i);
        c->k = is_min ? vminq_s32(c->k, kx) : vmaxq_s32(c->k, kx);
        *nan = vminq_f32(*nan, x);
    }
}

/* Lanes to bests; columns that met a NaN are done again with order keys. */
EDMLI_ALWAYS_INLINE void edmli_neon_f32_col_out(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                                const edmli_neon_f32_col *c, float32x4_t nan, edmli_neon_best out[4],
                                                bool is_min, bool last, bool exact)
{
    const bool by_float = exact || EDMLI_NEON_V7_FLUSH;
    uint32x4_t redo = vmvnq_u32(edmli_neon_ceq_f32(by_float ? c->v : nan, by_float ? c->v : nan));
    if (EDMLI_NEON_V7_FLUSH) /* a zero or subnormal best (flushed: equal to 0) */
        redo = vorrq_u32(redo, edmli_neon_ceq_f32(c->v, vdupq_n_f32(0)));
    else if (!exact) /* a zero best: t -1 or 0 */
        redo = vorrq_u32(redo, vcleq_u32(vreinterpretq_u32_s32(vaddq_s32(c->k, vdupq_n_s32(1))), vdupq_n_u32(1)));
    if (edmli_neon_any_u32(redo)) {
        edmli_neon_reduce_cols4(r, col, sp, out, EDML_TENSOR_DATA_TYPE_FLOAT32, last);
        return;
    }
    uint32x4_t key = vdupq_n_u32(0);
    if (r->keys) { /* the float back from integer order, then its key */
        const uint32x4_t bits = by_float ? vreinterpretq_u32_f32(c->v)
                                         : vreinterpretq_u32_s32(edmli_neon_f32_t(vreinterpretq_u32_s32(c->k)));
        const uint32x4_t inv = vdupq_n_u32(is_min ? 0xffffffffu : 0);
        key = edmli_neon_red_adjust(edmli_neon_keys_f32(bits), inv, inv);
    }
    const uint32x4x3_t b = {{key, c->i, vdupq_n_u32(1)}};
    vst3q_u32(&out[0].key, b);
}

EDMLI_ALWAYS_INLINE void edmli_neon_reduce_cols16_f32(edmli_neon_red *r, const uint8_t *col, const edmli_neon_span *sp,
                                                      edmli_neon_best out[16], bool is_min, bool last, bool exact)
{
    const int64_t step = r->inner.rank ? r->inner.step[0][0] : 0;
    const uint8_t *q = col + (int64_t)sp->s0 * step;
    const float *f = (const float *)(const void *)q;
    uint32x4_t row = vdupq_n_u32((uint32_t)sp->s0);
    /* four named columns, not an array: each stays in its registers */
#define EDMLI_F32_COL(n) {vld1q_f32(f + 4 * (n)), edmli_neon_f32_t(vld1q_u32((const uint32_t *)f + 4 * (n))), row}
    edmli_neon_f32_col c0 = EDMLI_F32_COL(0), c1 = EDMLI_F32_COL(1), c2 = EDMLI_F32_COL(2), c3 = EDMLI_F32_COL(3);
#undef EDMLI_F32_COL
    float32x4_t nan = vminq_f32(vminq_f32(c0.v, c1.v), vminq_f32(c2.v, c3.v));
    uint32_t s = (uint32_t)sp->s0; /* rows fit: the reduction count is checked against UINT32_MAX */
    for (uint32_t n = (uint32_t)(sp->s1 - sp->s0); --n;) {
        q += step;
        s++;
        if (exact) { /* AArch64: one LD1 of 4 registers */
            const uint8_t *l = q;
            const uint8x16x4_t x = edmli_neon_ld64(&l);
            row = vaddq_u32(row, vdupq_n_u32(1));
            edmli_neon_f32_col_step(&c0, &nan, vreinterpretq_f32_u8(x.val[0]), row, is_min, last, true);
            edmli_neon_f32_col_step(&c1, &nan, vreinterpretq_f32_u8(x.val[1]), row, is_min, last, true);
            edmli_neon_f32_col_step(&c2, &nan, vreinterpretq_f32_u8(x.val[2]), row, is_min, last, true);
            edmli_neon_f32_col_step(&c3, &nan, vreinterpretq_f32_u8(x.val[3]), row, is_min, last, true);
        } else { /* a vector loaded where it is used: few registers live */
            f = (const float *)(const void *)q;
            row = vdupq_n_u32(s);
            edmli_neon_f32_col_step(&c0, &nan, vld1q_f32(f), row, is_min, last, false);
            edmli_neon_f32_col_step(&c1, &nan, vld1q_f32(f + 4), row, is_min, last, false);
            edmli_neon_f32_col_step(&c2, &nan, vld1q_f32(f + 8), row, is_min, last, false);
            edmli_neon_f32_col_step(&c3, &nan, vld1q_f32(f + 12), row, is_min, last, false);
        }
    }
    edmli_neon_f32_col_out(r, col, sp, &c0, nan, out, is_min, last, exact);
    edmli_neon_f32_col_out(r, col + 16, sp, &c1, nan, out + 4, is_min, last, exact);
    edmli_neon_f32_col_out(r, col + 32, sp, &c2, nan, out + 8, is_min, last, exact);
    edmli_neon_f32_col_out(r, col + 48, sp, &c3, nan, out + 12, is_min, last, exact);
}

#define EDMLI_NEON_COLS16_F32(name, last)                                                                   \
    static void name(edmli_neon_red *r, const uint8_t *c, const edmli_neon_span *sp, edmli_neon_best o[16]) \
    {                                                                                                       \
        const bool exact = edmli_neon_fp_exact();                                                           \
        if (r->invert)                                                                                      \
            exact ? edmli_neon_reduce_cols16_f32(r, c, sp, o, true, last, true)                             \
                  : edmli_neon_reduce_cols16_f32(r, c, sp, o, true, last, false);                           \
        else                                                                                                \
            exact ? edmli_neon_reduce_cols16_f32(r, c, sp, o, false, last, true)                            \
                  : edmli_neon_reduce_cols16_f32(r, c, sp, o, false, last, false);                          \
    }
EDMLI_NEON_COLS16_F32(edmli_neon_cols16_first_f32, false)
EDMLI_NEON_COLS16_F32(edmli_neon_cols16_last_f32, true)

static edmli_neon_cols16_fn edmli_neon_cols16_for(EDML_TENSOR_DATA_TYPE t, bool last)
{
#define EDMLI_CASE(T, DT) \
    case EDML_TENSOR_DATA_TYPE_##DT: return last ? edmli_neon_cols16_last_##T : edmli_neon_cols16_first_##T;
    switch (t) {
        EDMLI_NEON_KEY32_TYPES(EDMLI_CASE)
    default: return NULL; /* the caller took the reference for other types */
    }
#undef EDMLI_CASE
}

/* The odometers: `outer` over the kept dims (but, vertically, the last),
 * `inner` over the reduced dims (but, horizontally, the last: the run). */
static void edmli_neon_red_init(edmli_neon_red *r, const edmli_neon_arg *v, bool horizontal)
{
    const edmli_argreduce_plan *p = &v->op->plan.argreduce;
    const edmli_tensor *ti = v->in, *to = v->out;
    const uint32_t last_dim = ti->rank - 1, elem2[2] = {ti->elem_size, to->elem_size};
    r->dtype = ti->dtype;
    r->es = ti->elem_size;
    r->invert = !p->is_max;
    r->is_float = edmli_dtype_is_float(ti->dtype);
    r->take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING;
    edmli_odo_init(&r->outer, 2);
    edmli_odo_init(&r->inner, 1);
    for (uint32_t d = 0; d < ti->rank; d++) {
        const bool reduced = (v->mask >> d) & 1;
        if (!reduced && (horizontal || d != last_dim)) {
            const uint32_t st[2] = {ti->strides[d], to->strides[d]};
            edmli_odo_dim(&r->outer, ti->sizes[d], st, elem2);
        } else if (reduced && d != last_dim) {
            edmli_odo_dim(&r->inner, ti->sizes[d], &ti->strides[d], elem2);
        }
    }
    r->run = horizontal ? ti->sizes[last_dim] : 1;
    r->keys = false;
    r->blocks = edmli_neon_blocks_for(ti->dtype, r->invert, r->take_last);
}

/* Columns a vertical unit takes. */
#define EDMLI_NEON_GROUP 16u

/* A tall reduction (vertical, its rows reaching over EDMLI_NEON_TALL_BYTES)
 * goes a band of EDMLI_NEON_BAND rows at a time across a chunk of
 * EDMLI_NEON_CHUNK units, not down all its rows a unit at a time. */
#define EDMLI_NEON_BAND 32u
#define EDMLI_NEON_CHUNK 32u
#define EDMLI_NEON_TALL_BYTES (2u << 20)

static bool edmli_neon_red_tall(const edmli_neon_arg *v)
{
    const edmli_tensor *ti = v->in;
    const uint32_t mask = v->mask;
    if ((mask >> (ti->rank - 1)) & 1 || v->op->plan.argreduce.reduce_count < 2u * EDMLI_NEON_BAND) return false;
    uint64_t reach = 0;
    for (uint32_t d = 0; d < ti->rank; d++)
        if ((mask >> d) & 1) reach += (uint64_t)(ti->sizes[d] - 1) * ti->strides[d] * ti->elem_size;
    return reach >= EDMLI_NEON_TALL_BYTES;
}

/* One call's work. Units are outputs (horizontally) or, at each outer
 * position, groups of up to 16 columns (vertically; `groups` of them). */
typedef struct edmli_neon_red_job {
    const edmli_neon_red *r;
    const edmli_exec *ex;
    EDML_TENSOR_DATA_TYPE index_type;
    edmli_neon_reduce_fn reduce_set;
    edmli_neon_cols4_fn cols4;
    edmli_neon_cols16_fn cols16;
    bool vertical;
    uint32_t cols, groups, parts;
    int64_t ostep; /* bytes between output columns */
    uint64_t units, sets;
    uint64_t unit;            /* split within: the batch's first unit */
    uint32_t per;             /* split within: parts a unit */
    edmli_neon_best *partial; /* split within: EDMLI_NEON_GROUP a part (scratch) */
} edmli_neon_red_job;

/* The bests unit group g holds: 1 horizontally, its columns vertically. */
static uint32_t edmli_neon_red_count(const edmli_neon_red_job *j, uint64_t g)
{
    const uint64_t left = j->cols - g * EDMLI_NEON_GROUP;
    return !j->vertical ? 1 : left < EDMLI_NEON_GROUP ? (uint32_t)left : EDMLI_NEON_GROUP;
}

/* Unit group g at the outer position r->outer over a span: 1 best
 * horizontally, one a column vertically; returns how many. */
static uint32_t edmli_neon_red_unit(const edmli_neon_red_job *j, edmli_neon_red *r, uint64_t g,
                                    const edmli_neon_span *sp, edmli_neon_best best[EDMLI_NEON_GROUP])
{
    const uint8_t *base = j->ex->in[0] + r->outer.off[0];
    if (!j->vertical) {
        best[0] = j->reduce_set(r, base, sp);
        return 1;
    }
    const uint32_t c0 = (uint32_t)g * EDMLI_NEON_GROUP, n = edmli_neon_red_count(j, g);
    uint32_t c = 0;
    if (n == EDMLI_NEON_GROUP && r->inner.rank <= 1) {
        j->cols16(r, base + (uint64_t)c0 * r->es, sp, best);
        return n;
    }
    for (; c + 4 <= n; c += 4) j->cols4(r, base + (uint64_t)(c0 + c) * r->es, sp, best + c);
    for (; c < n; c++) best[c] = j->reduce_set(r, base + (uint64_t)(c0 + c) * r->es, sp);
    return n;
}

static void edmli_neon_red_store(const edmli_neon_red_job *j, const edmli_neon_red *r, uint64_t g,
                                 const edmli_neon_best *best, uint32_t n)
{
    uint8_t *out = j->ex->out[0] + r->outer.off[1] + (int64_t)g * EDMLI_NEON_GROUP * j->ostep;
    uint32_t c = 0;
    if (edmli_type_size(j->index_type) == 4 && j->ostep == 4) /* packed 32-bit indices, 4 at a time */
        for (; c + 4 <= n; c += 4) vst1q_u8(out + 4 * c, vreinterpretq_u8_u32(vld3q_u32(&best[c].key).val[1]));
    for (; c < n; c++) edmli_store_index(out + c * j->ostep, j->index_type, best[c].idx);
}

/* Part `part` of the units, each over its whole reduced set. */
static void edmli_neon_red_outputs(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_red_job *j = arg;
    edmli_neon_red r = *j->r;
    uint64_t u0, u1;
    edmli_cpu_range(j->units, j->parts, part, 1, &u0, &u1);
    const edmli_neon_span full = {0, j->sets, 0, r.run};
    edmli_odo_seek(&r.outer, u0 / j->groups);
    for (uint64_t u = u0, g = u0 % j->groups; u < u1; u++) {
        edmli_neon_best best[EDMLI_NEON_GROUP];
        const uint32_t n = edmli_neon_red_unit(j, &r, g, &full, best);
        edmli_neon_red_store(j, &r, g, best, n);
        if (++g == j->groups) g = 0, edmli_odo_next(&r.outer);
    }
}

/* Bests of a chunk's columns so far (acc) and a band's (b, n of them): the
 * band's rows all come after, so a band's best wins on a better key, or on
 * an equal one when the last index wins. */
static void edmli_neon_red_fold(edmli_neon_best *acc, const edmli_neon_best *b, uint32_t n, bool take_last)
{
    uint32_t c = 0;
    for (; c + 4 <= n; c += 4) {
        uint32x4x3_t a = vld3q_u32(&acc[c].key);
        const uint32x4x3_t x = vld3q_u32(&b[c].key);
        const uint32x4_t m = take_last ? vcgeq_u32(x.val[0], a.val[0]) : vcgtq_u32(x.val[0], a.val[0]);
        a.val[0] = vbslq_u32(m, x.val[0], a.val[0]);
        a.val[1] = vbslq_u32(m, x.val[1], a.val[1]);
        vst3q_u32(&acc[c].key, a);
    }
    for (; c < n; c++) edmli_neon_take(&acc[c], b[c].key, b[c].idx, take_last);
}

/* Units g0 .. g0 + n - 1 at one outer position, band by band of rows:
 * each band goes across all n before the next, so that the rows read at
 * once are few (streams a prefetcher follows, pages the TLB holds). */
static void edmli_neon_red_chunk(const edmli_neon_red_job *j, edmli_neon_red *r, uint64_t g0, uint32_t n,
                                 edmli_neon_best *acc)
{
    for (uint64_t s = 0; s < j->sets; s += EDMLI_NEON_BAND) {
        const edmli_neon_span sp = {s, j->sets - s < EDMLI_NEON_BAND ? j->sets : s + EDMLI_NEON_BAND, 0, 1};
        for (uint32_t k = 0; k < n; k++) {
            edmli_neon_best b[EDMLI_NEON_GROUP];
            edmli_neon_best *a = acc + (uint64_t)k * EDMLI_NEON_GROUP;
            const uint32_t m = edmli_neon_red_unit(j, r, g0 + k, &sp, s ? b : a);
            if (s) edmli_neon_red_fold(a, b, m, r->take_last);
        }
    }
    for (uint32_t k = 0; k < n; k++)
        edmli_neon_red_store(j, r, g0 + k, acc + (uint64_t)k * EDMLI_NEON_GROUP, edmli_neon_red_count(j, g0 + k));
}

/* Part `part` of the units in chunks of columns (tall reductions). */
static void edmli_neon_red_banded(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_red_job *j = arg;
    edmli_neon_red r = *j->r;
    edmli_neon_best *acc = j->partial + (uint64_t)part * EDMLI_NEON_CHUNK * EDMLI_NEON_GROUP;
    uint64_t u0, u1;
    edmli_cpu_range(j->units, j->parts, part, 1, &u0, &u1);
    edmli_odo_seek(&r.outer, u0 / j->groups);
    for (uint64_t u = u0; u < u1;) {
        const uint64_t g0 = u % j->groups;
        uint64_t n = j->groups - g0;
        if (n > u1 - u) n = u1 - u;
        if (n > EDMLI_NEON_CHUNK) n = EDMLI_NEON_CHUNK;
        edmli_neon_red_chunk(j, &r, g0, (uint32_t)n, acc);
        u += n;
        if (g0 + n == j->groups) edmli_odo_next(&r.outer);
    }
}

/* Part `part` of a batch of units: part % per of unit j->unit + part / per
 * (its sets, or with one set its run, in multiples of 4); the part's bests
 * go to scratch. */
static void edmli_neon_red_within(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_red_job *j = arg;
    edmli_neon_red r = *j->r;
    edmli_neon_best *best = j->partial + (uint64_t)part * EDMLI_NEON_GROUP;
    const uint64_t unit = j->unit + part / j->per;
    const uint32_t sub = part % j->per;
    edmli_neon_span sp = {0, j->sets, 0, r.run};
    uint64_t b, e;
    if (j->sets > 1) {
        edmli_cpu_range(j->sets, j->per, sub, 1, &b, &e);
        sp.s0 = b, sp.s1 = e;
    } else {
        edmli_cpu_range(r.run, j->per, sub, 4, &b, &e);
        sp.i0 = (uint32_t)b, sp.i1 = (uint32_t)e;
    }
    for (uint32_t c = 0; c < EDMLI_NEON_GROUP; c++) best[c].any = false;
    if (sp.s0 == sp.s1 || sp.i0 == sp.i1) return;
    edmli_odo_seek(&r.outer, unit / j->groups);
    edmli_neon_red_unit(j, &r, unit % j->groups, &sp, best);
}

/* Unit j->unit + k of the batch just run: its parts' bests combined in
 * part order, stored at group g. */
static void edmli_neon_red_combine(const edmli_neon_red_job *j, const edmli_neon_red *r, uint64_t k, uint64_t g)
{
    edmli_neon_best best[EDMLI_NEON_GROUP];
    const uint32_t n = edmli_neon_red_count(j, g);
    for (uint32_t c = 0; c < n; c++) {
        best[c].any = false;
        for (uint32_t p = 0; p < j->per; p++) {
            const edmli_neon_best *b = &j->partial[(k * j->per + p) * EDMLI_NEON_GROUP + c];
            if (b->any) edmli_neon_take(&best[c], b->key, b->idx, r->take_last);
        }
    }
    edmli_neon_red_store(j, r, g, best, n);
}

/* Few units, long reductions: each unit's reduction in `per` parts, as
 * many units a call as the parts the whole takes (`most`, which scratch
 * holds: one call of the caller's parallel-for a unit would cost each
 * unit a wake of every worker), each unit combined on this thread in part
 * order: the same bests however it is split. */
static edml_status edmli_neon_red_split(const edml_operator *op, const edmli_exec *ex, edmli_neon_red_job *j,
                                        uint64_t unit_bytes, uint32_t most)
{
    edmli_neon_red r = *j->r;
    const uint64_t blocks = j->sets > 1 ? j->sets : (r.run + 3) / 4;
    j->per = edmli_cpu_parts(op, blocks, unit_bytes);
    const uint64_t batch = most / j->per ? most / j->per : 1;
    j->partial = (edmli_neon_best *)(void *)ex->scratch;
    for (uint64_t u = 0, g = 0; u < j->units; u += batch) {
        const uint64_t n = j->units - u < batch ? j->units - u : batch;
        j->unit = u;
        edml_status s = edmli_cpu_parallel(ex, (uint32_t)(n * j->per), edmli_neon_red_within, j);
        if (s) return s;
        for (uint64_t k = 0; k < n; k++) {
            edmli_neon_red_combine(j, &r, k, g);
            if (++g == j->groups) g = 0, edmli_odo_next(&r.outer);
        }
    }
    return EDML_STATUS_OK;
}

uint64_t edmli_neon_argreduce_temp_bytes(const edml_operator *op)
{
    const uint64_t workers = op->workers > 1 ? op->workers : 1;
    const uint64_t split = op->workers > 1 ? workers * EDMLI_NEON_GROUP * sizeof(edmli_neon_best) : 0;
    const uint64_t tall = workers * EDMLI_NEON_CHUNK * EDMLI_NEON_GROUP * sizeof(edmli_neon_best);
    const edmli_neon_arg v = edmli_neon_arg_view(op);
    const uint64_t keys = edmli_neon_red_tall(&v) && tall > split ? tall : split;
    const uint64_t wide = edmli_neon_argreduce_wide_temp_bytes(op), cols = edmli_neon_argreduce_cols_temp_bytes(op);
    const uint64_t most = keys > wide ? keys : wide;
    return most > cols ? most : cols;
}

/* The NEON kernel proper (its own frame, apart from the reference's). */
__attribute__((noinline)) static edml_status edmli_neon_argreduce_keys(const edmli_neon_arg *v, const edmli_exec *ex)
{
    const edml_operator *op = v->op;
    const edmli_tensor *ti = v->in, *to = v->out;
    const uint32_t last_dim = ti->rank - 1;
    const bool horizontal = (v->mask >> last_dim) & 1;
    edmli_neon_red r;
    edmli_neon_red_init(&r, v, horizontal);
    edmli_neon_red_job j = {
        .r = &r,
        .ex = ex,
        .index_type = to->dtype,
        .reduce_set = r.blocks ? edmli_neon_reduce_blocks : edmli_neon_reduce_for(ti->dtype, r.take_last),
        .cols4 = edmli_neon_cols4_for(ti->dtype, r.take_last),
        .cols16 = edmli_neon_cols16_for(ti->dtype, r.take_last),
        .vertical = !horizontal,
        .cols = ti->sizes[last_dim],
        .groups = horizontal ? 1 : (ti->sizes[last_dim] + EDMLI_NEON_GROUP - 1) / EDMLI_NEON_GROUP,
        .ostep = (int64_t)to->strides[last_dim] * to->elem_size,
        .sets = edmli_odo_count(&r.inner),
    };
    j.units = edmli_odo_count(&r.outer) * j.groups;
    const uint64_t bytes = ti->elem_count * ti->elem_size;
    j.parts = edmli_cpu_parts(op, j.units, bytes);
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, bytes);
    r.keys = j.parts < most;
    if (r.keys) return edmli_neon_red_split(op, ex, &j, bytes / j.units, most);
    if (edmli_neon_red_tall(v)) {
        r.keys = true; /* bands are folded by key */
        j.partial = (edmli_neon_best *)(void *)ex->scratch;
        return edmli_cpu_parallel(ex, j.parts, edmli_neon_red_banded, &j);
    }
    return edmli_cpu_parallel(ex, j.parts, edmli_neon_red_outputs, &j);
}

/* The kernel path for the plan's layout: short rows, 2 or 3 columns,
 * 32-bit keys in lanes along rows or down columns, or (64-bit types, a
 * stride in the innermost dim, sets of over 2^32 or of one element, floats
 * where FPCR.AH changes NaN compares) 64-bit keys. */
static uint32_t edmli_neon_argreduce_route(const edmli_neon_arg *v)
{
    const edmli_tensor *ti = v->in;
    const uint32_t last_dim = ti->rank - 1;
    if (edmli_neon_argreduce_short_takes(v)) return EDMLI_COST_PATH_NEON_ARG_SHORT;
    if (edmli_neon_argreduce_cols_takes(v)) return EDMLI_COST_PATH_NEON_ARG_NARROW;
    if (!edmli_neon_key32(ti->dtype) || ti->strides[last_dim] != 1 || ti->sizes[last_dim] < 4 ||
        v->op->plan.argreduce.reduce_count > UINT32_MAX ||
        (ti->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 && !edmli_neon_fp_keeps_nan()))
        return EDMLI_COST_PATH_NEON_ARG_WIDE;
    return (v->mask >> last_dim) & 1 ? EDMLI_COST_PATH_NEON_ARG_ROWS : EDMLI_COST_PATH_NEON_ARG_DOWN;
}

/* The parts 32-bit keys take (edmli_neon_argreduce_keys): over units
 * (outputs, or groups of 16 columns), else each unit split within its
 * sets (edmli_neon_red_split), a batch of units a call. */
static uint32_t edmli_neon_keys_parts(const edmli_neon_arg *v, bool horizontal)
{
    const edmli_tensor *ti = v->in;
    const uint32_t cols = ti->sizes[ti->rank - 1];
    const uint64_t outputs = v->out->elem_count, bytes = ti->elem_count * ti->elem_size;
    const uint64_t units = horizontal ? outputs : outputs / cols * ((cols + EDMLI_NEON_GROUP - 1) / EDMLI_NEON_GROUP);
    const uint32_t parts = edmli_cpu_parts(v->op, units, bytes), most = edmli_cpu_parts(v->op, UINT64_MAX, bytes);
    if (parts >= most) return parts; /* (banded where tall: the same parts) */
    const uint64_t run = horizontal ? cols : 1, sets = v->op->plan.argreduce.reduce_count / run;
    const uint32_t per = edmli_cpu_parts(v->op, sets > 1 ? sets : (run + 3) / 4, bytes / units);
    const uint64_t batch = most / per ? most / per : 1;
    return (uint32_t)((units < batch ? units : batch) * per);
}

/* The path and the parts it hands the device's parallel-for: short rows
 * in blocks of 16 outputs, 2 or 3 columns in blocks of 16 rows, 64-bit
 * keys over outputs or (fewer outputs than half the parts) within them. */
void edmli_neon_argreduce_path(const edml_operator *op, edmli_cost_path *out)
{
    const edmli_neon_arg v = edmli_neon_arg_view(op);
    const uint64_t bytes = v.in->elem_count * v.in->elem_size, outputs = v.out->elem_count;
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, bytes);
    out->path = edmli_neon_argreduce_route(&v);
    if (out->path == EDMLI_COST_PATH_NEON_ARG_SHORT) {
        const uint32_t parts = edmli_cpu_parts(op, outputs, bytes);
        const uint64_t per = (((outputs + parts - 1) / parts) + 15) & ~(uint64_t)15;
        out->parts = (uint32_t)((outputs + per - 1) / per);
    } else if (out->path == EDMLI_COST_PATH_NEON_ARG_NARROW) {
        out->parts = edmli_cpu_parts(op, (v.in->sizes[0] + 15) / 16, bytes);
    } else if (out->path == EDMLI_COST_PATH_NEON_ARG_WIDE) {
        const uint32_t parts = edmli_cpu_parts(op, outputs, bytes);
        out->parts = parts >= most || outputs * 2 > most ? parts : (uint32_t)outputs * (most / (uint32_t)outputs);
    } else {
        out->parts = edmli_neon_keys_parts(&v, out->path == EDMLI_COST_PATH_NEON_ARG_ROWS);
    }
    if (!out->parts) out->parts = 1;
}

edml_status edmli_neon_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_neon_arg v = edmli_neon_arg_view(op);
    switch (edmli_neon_argreduce_route(&v)) {
    case EDMLI_COST_PATH_NEON_ARG_SHORT: return edmli_neon_argreduce_short(&v, ex);
    case EDMLI_COST_PATH_NEON_ARG_NARROW: return edmli_neon_argreduce_cols(&v, ex);
    case EDMLI_COST_PATH_NEON_ARG_WIDE: return edmli_neon_argreduce_wide(&v, ex);
    default: return edmli_neon_argreduce_keys(&v, ex);
    }
}
