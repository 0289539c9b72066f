/* TopK, NEON. A candidate is one 64-bit number, key << 32 | ~index (the
 * 32-bit key of docs/semantics.md's order, inverted for INCREASING): larger
 * is better, and of equal keys the earlier index is larger, so one unsigned
 * compare is the whole (key, index) order. A min-heap of K candidates per
 * sequence keeps the best K; its root, the K-th best, is a threshold that
 * only rises.
 *
 * The scan compares raw elements with that threshold in their own type, 64
 * bytes a step: float compares for floats (a NaN never compares below, -0
 * never below +0, so no element that may enter is rejected), integer
 * compares for integers. Only a step where some lane is not rejected goes
 * lane by lane through the exact key; on random data that is rare once the
 * heap is full. A packed axis runs one sequence at a time; a strided axis
 * whose rows are packed (Axis 0 of a matrix) runs 16 columns side by side, a
 * lane and a heap each (2, 4 or 8 packed columns folded into those 16
 * lanes, each column's heaps merged); any other axis walks one sequence at
 * a time.
 * 64-bit types take 64-bit keys (neon_topk_wide.c).
 *
 * Parts: over sequences (or groups of 16 columns), a part's heaps in its own
 * slot of scratch; with fewer sequences than parts, within each row too: each
 * part keeps the best K of a range of the row, and the calling thread merges
 * a row's heaps under the same order, so the answer is the serial one for any
 * thread count. */
#include "neon.h"

#if defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#define EDMLI_NEON_F16_NATIVE 1 /* compare halves as halves (Cortex-A76, A78AE) */
#else
#define EDMLI_NEON_F16_NATIVE 0 /* widen halves to floats (exact) and compare those */
#endif

#define EDMLI_NEON_TOPK_COLS 16 /* columns side by side */

/* ---- the candidate heap ------------------------------------------------------ */

/* The descent of edmli_neon_sift: from node a (1-based, b = h - 1) down
 * the smaller children, each moved up one level; returns the leaf reached. */
#if defined(__ARM_NEON) && !defined(__aarch64__) && defined(__thumb2__)
/* ARMv7 in Thumb-2 (GCC's default for armhf), written out: GCC compares the
 * 64-bit children twice, or scales each index again, about 20 instructions
 * a level for these 15. Offsets are in bytes; a child exists while its
 * offset 2 off is at most 8 n. The smaller child is loaded again from its
 * address, so the conditional part is one 16-bit ADD (p a low register):
 * the one kind of IT block ARMv8 does not deprecate. */
static inline size_t edmli_neon_descend(uint64_t *b, size_t a, uint32_t n)
{
    uint32_t off = (uint32_t)a * 8, p, l0, l1, r0, r1, t;
    __asm__ volatile(
        "1:\n\t"
        "cmp %[off], %[half]\n\t"
        "bhi 2f\n\t"
        "add %[p], %[b], %[off], lsl #1\n\t"
        "ldrd %[l0], %[l1], [%[p]]\n\t"
        "ldrd %[r0], %[r1], [%[p], #8]\n\t"
        "cmp %[r0], %[l0]\n\t"
        "sbcs %[t], %[r1], %[l1]\n\t"
        "it cc\n\t"
        "addcc %[p], %[p], #8\n\t"
        "ldrd %[l0], %[l1], [%[p]]\n\t"
        "add %[t], %[b], %[off]\n\t"
        "strd %[l0], %[l1], [%[t]]\n\t"
        "sub %[off], %[p], %[b]\n\t"
        "b 1b\n"
        "2:"
        : [off] "+r"(off), [p] "=&l"(p), [l0] "=&r"(l0), [l1] "=&r"(l1), [r0] "=&r"(r0), [r1] "=&r"(r1), [t] "=&r"(t)
        : [b] "r"(b), [half] "r"(n * 4)
        : "cc", "memory");
    return off / 8;
}
#else
static inline size_t edmli_neon_descend(uint64_t *b, size_t a, uint32_t n)
{
    for (size_t c; (c = 2 * a) <= n;) {
        const uint64_t l = b[c], r = b[c + 1];
        const size_t right = r < l;
        b[a] = right ? r : l;
        a = c + right;
    }
    return a;
}
#endif

/* Places x at node i of a min-heap of n and sifts it down, bottom-up: the
 * hole at i goes down to a leaf along the smaller children, each moved up
 * without a compare with x (edmli_neon_descend), then x climbs back to its
 * place. x is usually among the smallest (a new candidate just over the
 * threshold, or the last leaf when draining), so the climb is short. h[n]
 * is a sentinel UINT64_MAX, so a last lone child needs no bounds test. */
static inline void edmli_neon_sift(uint64_t *h, uint32_t n, uint32_t i, uint64_t x)
{
    uint64_t *const b = h - 1; /* 1-based: node a's children are 2a and 2a + 1, a pair (b[0] is never read) */
    const size_t top = (size_t)i + 1;
    size_t a = edmli_neon_descend(b, top, n);
    for (size_t p; a > top && b[p = a / 2] > x; a = p) b[a] = b[p];
    b[a] = x;
}

static inline void edmli_neon_offer(uint64_t *h, uint32_t k, uint64_t c)
{
    if (c > h[0]) edmli_neon_sift(h, k, 0, c);
}

/* Sorts a full heap of k in place, best first. */
static void edmli_neon_drain(uint64_t *h, uint32_t k)
{
    for (uint32_t n = k; n > 1; n--) {
        uint64_t worst = h[0], last = h[n - 1];
        h[n - 1] = UINT64_MAX; /* the sentinel of the heap of n - 1 */
        edmli_neon_sift(h, n - 1, 0, last);
        h[n - 1] = worst;
    }
}

/* ---- keys and raw compares, per type (t is a constant where inlined) ---------- */

/* The bits of an element whose key is `key` (a NaN for the NaN key). */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_unkey(EDML_TENSOR_DATA_TYPE t, uint32_t key)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return (key & 0x80000000u) ? key & 0x7fffffffu : ~key;
    case EDML_TENSOR_DATA_TYPE_FLOAT16:
        if (key > 0xffffu) return 0x7fffu;
        return (key & 0x8000u) ? key & 0x7fffu : ~key & 0xffffu;
    case EDML_TENSOR_DATA_TYPE_INT32: return key ^ 0x80000000u;
    case EDML_TENSOR_DATA_TYPE_INT16: return key ^ 0x8000u;
    case EDML_TENSOR_DATA_TYPE_INT8: return key ^ 0x80u;
    default: return key;
    }
}

EDMLI_ALWAYS_INLINE uint64_t edmli_neon_cand(EDML_TENSOR_DATA_TYPE t, uint32_t flip, const uint8_t *p, uint32_t idx)
{
    return (uint64_t)(edmli_neon_key1(t, p) ^ flip) << 32 | (uint32_t)~idx;
}

/* Thresholds for the 16 bytes of one vector of elements: the elements' own
 * bits, or for halves widened to floats, floats of the low and high 4. */
typedef struct edmli_neon_thr {
    uint8x16_t lo, hi;
} edmli_neon_thr;

EDMLI_ALWAYS_INLINE edmli_neon_thr edmli_neon_thr_of(EDML_TENSOR_DATA_TYPE t, uint8x16_t bits)
{
    edmli_neon_thr th = {bits, bits};
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT16 && !EDMLI_NEON_F16_NATIVE) {
        uint16x8_t h = vreinterpretq_u16_u8(bits);
        th.lo = vreinterpretq_u8_f32(edmli_neon_widen_f16(vget_low_u16(h)));
        th.hi = vreinterpretq_u8_f32(edmli_neon_widen_f16(vget_high_u16(h)));
    }
    return th;
}

/* The bits of the threshold for a heap whose root has `key`: the root's
 * element, off the subnormals for floats (edmli_neon_off_subnormal; the
 * worse side is the lower one unless INCREASING, whose flip is all ones). */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_thr_bits(EDML_TENSOR_DATA_TYPE t, uint32_t flip, uint32_t key)
{
    const uint32_t v = edmli_neon_unkey(t, key ^ flip);
    if (t != EDML_TENSOR_DATA_TYPE_FLOAT32 && t != EDML_TENSOR_DATA_TYPE_FLOAT16) return v;
    return edmli_neon_off_subnormal(v, edmli_type_size(t), flip == 0);
}

/* The threshold `worst` (a heap's root), in every lane. */
EDMLI_ALWAYS_INLINE edmli_neon_thr edmli_neon_thr_dup(EDML_TENSOR_DATA_TYPE t, uint32_t flip, uint64_t worst)
{
    uint32_t v = edmli_neon_thr_bits(t, flip, (uint32_t)(worst >> 32));
    switch (edmli_type_size(t)) {
    case 4: return edmli_neon_thr_of(t, vreinterpretq_u8_u32(vdupq_n_u32(v)));
    case 2: return edmli_neon_thr_of(t, vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)v)));
    default: return edmli_neon_thr_of(t, vdupq_n_u8((uint8_t)v));
    }
}

#define EDMLI_NEON_CMP(inc, T, x, y) ((inc) ? vcgtq_##T(x, y) : vcltq_##T(x, y))
#define EDMLI_NEON_CMP_F32(inc, x, y) ((inc) ? edmli_neon_cgt_f32(x, y) : edmli_neon_clt_f32(x, y))

/* All-ones lanes for the elements in the 16 bytes b that cannot enter:
 * worse than the threshold (below it; above it for INCREASING). */
EDMLI_ALWAYS_INLINE uint8x16_t edmli_neon_reject_v(EDML_TENSOR_DATA_TYPE t, bool inc, uint8x16_t b, edmli_neon_thr th)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32:
        return vreinterpretq_u8_u32(EDMLI_NEON_CMP_F32(inc, vreinterpretq_f32_u8(b), vreinterpretq_f32_u8(th.lo)));
    case EDML_TENSOR_DATA_TYPE_FLOAT16: {
#if EDMLI_NEON_F16_NATIVE
        return vreinterpretq_u8_u16(EDMLI_NEON_CMP(inc, f16, vreinterpretq_f16_u8(b), vreinterpretq_f16_u8(th.lo)));
#else
        uint16x8_t h = vreinterpretq_u16_u8(b);
        float32x4_t lo = edmli_neon_widen_f16(vget_low_u16(h));
        float32x4_t hi = edmli_neon_widen_f16(vget_high_u16(h));
        uint32x4_t rl = EDMLI_NEON_CMP_F32(inc, lo, vreinterpretq_f32_u8(th.lo));
        uint32x4_t rh = EDMLI_NEON_CMP_F32(inc, hi, vreinterpretq_f32_u8(th.hi));
        return vreinterpretq_u8_u16(vcombine_u16(vmovn_u32(rl), vmovn_u32(rh)));
#endif
    }
    case EDML_TENSOR_DATA_TYPE_UINT32:
        return vreinterpretq_u8_u32(EDMLI_NEON_CMP(inc, u32, vreinterpretq_u32_u8(b), vreinterpretq_u32_u8(th.lo)));
    case EDML_TENSOR_DATA_TYPE_INT32:
        return vreinterpretq_u8_u32(EDMLI_NEON_CMP(inc, s32, vreinterpretq_s32_u8(b), vreinterpretq_s32_u8(th.lo)));
    case EDML_TENSOR_DATA_TYPE_UINT16:
        return vreinterpretq_u8_u16(EDMLI_NEON_CMP(inc, u16, vreinterpretq_u16_u8(b), vreinterpretq_u16_u8(th.lo)));
    case EDML_TENSOR_DATA_TYPE_INT16:
        return vreinterpretq_u8_u16(EDMLI_NEON_CMP(inc, s16, vreinterpretq_s16_u8(b), vreinterpretq_s16_u8(th.lo)));
    case EDML_TENSOR_DATA_TYPE_INT8: return EDMLI_NEON_CMP(inc, s8, vreinterpretq_s8_u8(b), vreinterpretq_s8_u8(th.lo));
    default: return EDMLI_NEON_CMP(inc, u8, b, th.lo);
    }
}

EDMLI_ALWAYS_INLINE uint8x16_t edmli_neon_reject(EDML_TENSOR_DATA_TYPE t, bool inc, const uint8_t *p, edmli_neon_thr th)
{
    return edmli_neon_reject_v(t, inc, vld1q_u8(p), th);
}

#define EDMLI_NEON_BEST(inc, T, a, b) ((inc) ? vminq_##T(a, b) : vmaxq_##T(a, b))

/* Lane by lane, the better of a and b (a NaN if either is one: FMAX and
 * FMIN propagate it), for every type but halves without half arithmetic. */
EDMLI_ALWAYS_INLINE uint8x16_t edmli_neon_best(EDML_TENSOR_DATA_TYPE t, bool inc, uint8x16_t a, uint8x16_t b)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32:
        return vreinterpretq_u8_f32(EDMLI_NEON_BEST(inc, f32, vreinterpretq_f32_u8(a), vreinterpretq_f32_u8(b)));
#if EDMLI_NEON_F16_NATIVE
    case EDML_TENSOR_DATA_TYPE_FLOAT16:
        return vreinterpretq_u8_f16(EDMLI_NEON_BEST(inc, f16, vreinterpretq_f16_u8(a), vreinterpretq_f16_u8(b)));
#endif
    case EDML_TENSOR_DATA_TYPE_UINT32:
        return vreinterpretq_u8_u32(EDMLI_NEON_BEST(inc, u32, vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    case EDML_TENSOR_DATA_TYPE_INT32:
        return vreinterpretq_u8_s32(EDMLI_NEON_BEST(inc, s32, vreinterpretq_s32_u8(a), vreinterpretq_s32_u8(b)));
    case EDML_TENSOR_DATA_TYPE_UINT16:
        return vreinterpretq_u8_u16(EDMLI_NEON_BEST(inc, u16, vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case EDML_TENSOR_DATA_TYPE_INT16:
        return vreinterpretq_u8_s16(EDMLI_NEON_BEST(inc, s16, vreinterpretq_s16_u8(a), vreinterpretq_s16_u8(b)));
    case EDML_TENSOR_DATA_TYPE_INT8:
        return vreinterpretq_u8_s8(EDMLI_NEON_BEST(inc, s8, vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b)));
    default: return EDMLI_NEON_BEST(inc, u8, a, b);
    }
}

/* Halves without half arithmetic: the better of the 8 halves of v and the
 * floats m, lane by lane, m holding 4 lanes twice over. */
EDMLI_ALWAYS_INLINE float32x4_t edmli_neon_best_f16(bool inc, float32x4_t m, uint8x16_t v)
{
    uint16x8_t h = vreinterpretq_u16_u8(v);
    float32x4_t lo = edmli_neon_widen_f16(vget_low_u16(h));
    float32x4_t hi = edmli_neon_widen_f16(vget_high_u16(h));
    return EDMLI_NEON_BEST(inc, f32, m, EDMLI_NEON_BEST(inc, f32, lo, hi));
}

/* True if no element of the 128 bytes at q can enter: the best of them,
 * lane by lane, is worse than the threshold (the same in every lane). */
EDMLI_ALWAYS_INLINE bool edmli_neon_block_out(EDML_TENSOR_DATA_TYPE t, bool inc, const uint8_t *q, edmli_neon_thr th)
{
    const uint8x16_t v0 = vld1q_u8(q), v1 = vld1q_u8(q + 16), v2 = vld1q_u8(q + 32), v3 = vld1q_u8(q + 48);
    const uint8x16_t v4 = vld1q_u8(q + 64), v5 = vld1q_u8(q + 80), v6 = vld1q_u8(q + 96), v7 = vld1q_u8(q + 112);
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT16 && !EDMLI_NEON_F16_NATIVE) {
        float32x4_t m = edmli_neon_widen_f16(vget_low_u16(vreinterpretq_u16_u8(v0)));
        m = edmli_neon_best_f16(inc, m, v0), m = edmli_neon_best_f16(inc, m, v1);
        m = edmli_neon_best_f16(inc, m, v2), m = edmli_neon_best_f16(inc, m, v3);
        m = edmli_neon_best_f16(inc, m, v4), m = edmli_neon_best_f16(inc, m, v5);
        m = edmli_neon_best_f16(inc, m, v6), m = edmli_neon_best_f16(inc, m, v7);
        return edmli_neon_all_u8(vreinterpretq_u8_u32(EDMLI_NEON_CMP_F32(inc, m, vreinterpretq_f32_u8(th.lo))));
    }
    const uint8x16_t a = edmli_neon_best(t, inc, edmli_neon_best(t, inc, v0, v1), edmli_neon_best(t, inc, v2, v3));
    const uint8x16_t b = edmli_neon_best(t, inc, edmli_neon_best(t, inc, v4, v5), edmli_neon_best(t, inc, v6, v7));
    return edmli_neon_all_u8(edmli_neon_reject_v(t, inc, edmli_neon_best(t, inc, a, b), th));
}

/* The lanes that pass of the reject masks ra and rb of 32 bytes, as a
 * 64-bit mask of 2 bits a byte for 2- and 4-byte lanes (one UZP1 and one
 * narrowing), or of the first 16 bytes only, 4 bits a byte, for bytes. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_pass_bits(uint32_t es, uint8x16_t ra, uint8x16_t rb)
{
    uint8x8_t n;
    if (es == 4)
        n = vmovn_u16(vuzpq_u16(vreinterpretq_u16_u8(ra), vreinterpretq_u16_u8(rb)).val[0]);
    else if (es == 2)
        n = vshrn_n_u16(vreinterpretq_u16_u8(vuzpq_u8(ra, rb).val[0]), 4);
    else
        n = vshrn_n_u16(vreinterpretq_u16_u8(ra), 4);
    return ~vget_lane_u64(vreinterpret_u64_u8(n), 0);
}

/* Runs OFFER with `at`, the byte offset in the 32 bytes whose reject masks
 * are ra and rb, for each lane that passes, in lane order. */
#define EDMLI_NEON_EACH_LANE(es, ra, rb, at, OFFER)                                           \
    do {                                                                                      \
        const uint32_t per_ = (es) == 1 ? 16 : 32, shift_ = (es) == 1 ? 2 : 1;                \
        const uint64_t field_ = (es) == 1 ? 0xfu : (1u << (2 * (es))) - 1;                    \
        for (uint32_t h_ = 0; h_ < 32; h_ += per_) {                                          \
            for (uint64_t m_ = edmli_neon_pass_bits(es, h_ ? rb : ra, rb); m_;) {             \
                const uint32_t at = h_ + (((uint32_t)__builtin_ctzll(m_) >> shift_) & -(es)); \
                m_ &= ~((m_ & (0 - m_)) * field_);                                            \
                OFFER;                                                                        \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* Runs OFFER with `at` for each element of the 128 bytes at q that may pass
 * the threshold th, in order. */
#define EDMLI_NEON_BLOCK_LANES(t, inc, q, th, at, OFFER)                     \
    for (uint32_t v_ = 0; v_ < 128; v_ += 32) {                              \
        const uint8x16_t ra_ = edmli_neon_reject(t, inc, (q) + v_, th);      \
        const uint8x16_t rb_ = edmli_neon_reject(t, inc, (q) + v_ + 16, th); \
        EDMLI_NEON_EACH_LANE(edmli_type_size(t), ra_, rb_, at##_, {          \
            const uint32_t at = v_ + at##_;                                  \
            OFFER;                                                           \
        });                                                                  \
    }

/* ---- one sequence ------------------------------------------------------------- */

/* Makes the k candidates at h a heap, h[k] its sentinel. */
static inline void edmli_neon_heapify(uint64_t *h, uint32_t k)
{
    h[k] = UINT64_MAX;
    for (uint32_t i = k / 2; i-- > 0;) edmli_neon_sift(h, k, i, h[i]);
}

/* A heap of the k elements at p (stride in bytes), indices from `first`. */
EDMLI_ALWAYS_INLINE void edmli_neon_fill(uint64_t *h, uint32_t k, EDML_TENSOR_DATA_TYPE t, uint32_t flip,
                                         const uint8_t *p, int64_t stride, uint32_t first)
{
    for (uint32_t j = 0; j < k; j++) h[j] = edmli_neon_cand(t, flip, p + (int64_t)j * stride, first + j);
    edmli_neon_heapify(h, k);
}

/* Elements [i, n) of one packed sequence offered to the full heap h of k:
 * 128 bytes a step, looked at lane by lane only when some may enter. */
EDMLI_ALWAYS_INLINE void edmli_neon_scan(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h,
                                         EDML_TENSOR_DATA_TYPE t, bool inc)
{
    const uint32_t es = edmli_type_size(t), step = 128 / es, flip = inc ? UINT32_MAX : 0;
    edmli_neon_thr th = edmli_neon_thr_dup(t, flip, h[0]);
    for (; i + step <= n; i += step) {
        const uint8_t *q = in + (uint64_t)i * es;
        if (edmli_neon_block_out(t, inc, q, th)) continue;
        EDMLI_NEON_BLOCK_LANES(t, inc, q, th, at,
                               edmli_neon_offer(h, k, edmli_neon_cand(t, flip, q + at, i + at / es)));
        th = edmli_neon_thr_dup(t, flip, h[0]);
    }
    for (; i < n; i++) edmli_neon_offer(h, k, edmli_neon_cand(t, flip, in + (uint64_t)i * es, i));
}

/* The elements of [i, n) that reach `floor` (a key's candidate with index
 * bits zero: every element of that key or above is larger), appended to h
 * in index order until k are there; a step is finished, so up to a step's
 * lanes more may follow (the slot's spare). Returns where it stopped and
 * the number in *got. */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_collect(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h,
                                                uint64_t floor, uint32_t *got, EDML_TENSOR_DATA_TYPE t, bool inc)
{
    const uint32_t es = edmli_type_size(t), step = 128 / es, flip = inc ? UINT32_MAX : 0;
    const edmli_neon_thr th = edmli_neon_thr_dup(t, flip, floor);
    uint32_t c = 0;
#define EDMLI_NEON_APPEND(p, idx) (h[c] = edmli_neon_cand(t, flip, p, idx), c += h[c] > floor)
    for (; c < k && i + step <= n; i += step) {
        const uint8_t *q = in + (uint64_t)i * es;
        if (edmli_neon_block_out(t, inc, q, th)) continue;
        EDMLI_NEON_BLOCK_LANES(t, inc, q, th, at, EDMLI_NEON_APPEND(q + at, i + at / es));
    }
    for (; c < k && i < n; i++) EDMLI_NEON_APPEND(in + (uint64_t)i * es, i);
#undef EDMLI_NEON_APPEND
    *got = c;
    return i;
}

/* A sample of a long row: `chunks` runs of `len` elements spread evenly,
 * whose r-th best is expected to have about `over` times k elements of the
 * row at or above it. */
typedef struct edmli_neon_sample {
    uint32_t r, chunks, len;
} edmli_neon_sample;

/* The sample for k of [i0, n), or none (chunks 0) where it would not pay:
 * a short row, a k so small that a sample's threshold is too rough, or so
 * large that a quarter of the row would reach it. On data in random order
 * the rank r and the oversampling make a floor that fewer than k reach rare
 * (0.03% to 1%, from the Gamma tail); on data ordered against the sample (a
 * sorted row, whose first chunk holds its best) it happens every time. The
 * answer is the same: the row is then done again without a floor. */
static inline edmli_neon_sample edmli_neon_sample_of(uint32_t es, uint32_t i0, uint32_t n, uint32_t k)
{
    edmli_neon_sample s = {.r = k >= 128 ? 32 : k < 16 ? k : 16, .len = 256 / es};
    const uint32_t over = s.r >= 32 ? 2 : s.r >= 8 ? 3 : 4;
    const uint64_t m = (uint64_t)s.r * (n - i0) / ((uint64_t)over * k); /* elements to sample */
    const uint64_t chunks = (m + s.len - 1) / s.len;
    if (s.r >= 4 && 3 * chunks * s.len <= n - i0 && 4 * (uint64_t)over * k <= n - i0) s.chunks = (uint32_t)chunks;
    return s;
}

/* A floor from the lane-wise bests of the row's 128-byte steps: each is an
 * element of the row, so with k no more than a step's lanes, k elements
 * are at or above the k-th best of them. 0 (none) where that does not
 * hold: more than a step's lanes, or halves widened to floats. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_lane_floor(const uint8_t *in, uint32_t i0, uint32_t n, uint32_t k, uint64_t *h,
                                                   EDML_TENSOR_DATA_TYPE t, bool inc)
{
    const uint32_t es = edmli_type_size(t), step = 128 / es, flip = inc ? UINT32_MAX : 0;
    if (k > step || n - i0 < 2 * step || n - i0 > 512 * k ||
        (t == EDML_TENSOR_DATA_TYPE_FLOAT16 && !EDMLI_NEON_F16_NATIVE))
        return 0;
    const uint8_t *q = in + (uint64_t)i0 * es;
    uint8x16_t b0 = vld1q_u8(q), b1 = vld1q_u8(q + 16), b2 = vld1q_u8(q + 32), b3 = vld1q_u8(q + 48);
    uint8x16_t b4 = vld1q_u8(q + 64), b5 = vld1q_u8(q + 80), b6 = vld1q_u8(q + 96), b7 = vld1q_u8(q + 112);
    for (uint32_t i = i0 + step; i + step <= n; i += step) {
        q += 128;
        b0 = edmli_neon_best(t, inc, b0, vld1q_u8(q)), b1 = edmli_neon_best(t, inc, b1, vld1q_u8(q + 16));
        b2 = edmli_neon_best(t, inc, b2, vld1q_u8(q + 32)), b3 = edmli_neon_best(t, inc, b3, vld1q_u8(q + 48));
        b4 = edmli_neon_best(t, inc, b4, vld1q_u8(q + 64)), b5 = edmli_neon_best(t, inc, b5, vld1q_u8(q + 80));
        b6 = edmli_neon_best(t, inc, b6, vld1q_u8(q + 96)), b7 = edmli_neon_best(t, inc, b7, vld1q_u8(q + 112));
    }
    uint8_t lanes[128];
    uint32_t keys[128];
    vst1q_u8(lanes, b0), vst1q_u8(lanes + 16, b1), vst1q_u8(lanes + 32, b2), vst1q_u8(lanes + 48, b3);
    vst1q_u8(lanes + 64, b4), vst1q_u8(lanes + 80, b5), vst1q_u8(lanes + 96, b6), vst1q_u8(lanes + 112, b7);
    for (uint32_t j = 0; j < step; j += 4)
        vst1q_u32(keys + j, veorq_u32(edmli_neon_load_keys(t, lanes + j * es), vdupq_n_u32(flip)));
    for (uint32_t j = 0; j < k; j++) h[j] = (uint64_t)keys[j] << 32 | (uint32_t)~j;
    edmli_neon_heapify(h, k);
    for (uint32_t j = k; j < step; j++) edmli_neon_offer(h, k, (uint64_t)keys[j] << 32 | (uint32_t)~j);
    return h[0] & ~(uint64_t)UINT32_MAX;
}

typedef void (*edmli_neon_scan_fn)(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h);
typedef uint32_t (*edmli_neon_collect_fn)(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h,
                                          uint64_t floor, uint32_t *got);

/* A floor from a sample of a long row (edmli_neon_sample_of): its r-th best,
 * which k elements are expected to reach or beat; 0 (none) where sampling
 * would not pay. */
static inline uint64_t edmli_neon_sample_floor(const uint8_t *in, uint32_t i0, uint32_t n, uint32_t k, uint64_t *h,
                                               edmli_neon_scan_fn scan, EDML_TENSOR_DATA_TYPE t, uint32_t flip)
{
    const uint32_t es = edmli_type_size(t);
    const edmli_neon_sample s = edmli_neon_sample_of(es, i0, n, k);
    if (!s.chunks) return 0;
    const uint32_t gap = (n - i0) / s.chunks;
    edmli_neon_fill(h, s.r, t, flip, in + (uint64_t)i0 * es, es, i0);
    scan(in, i0 + s.r, i0 + s.len, s.r, h);
    for (uint32_t c = 1; c < s.chunks; c++) scan(in, i0 + c * gap, i0 + c * gap + s.len, s.r, h);
    return h[0] & ~(uint64_t)UINT32_MAX;
}

/* Elements [i0, n) of one packed sequence, at least k of them, into the heap
 * h. A row of a few steps or more first gets a floor: the heap starts full
 * of k candidates of the floor's key below every element of that key (index
 * bits zero), so the scan skips almost every step from the start. If fewer
 * than k elements reach the floor (a rough sample, or an ARMv7 flush), one
 * is left at the root, and the row is done again from its first k. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_row(const uint8_t *in, uint32_t i0, uint32_t n, uint32_t k, uint64_t *h,
                                             EDML_TENSOR_DATA_TYPE t, bool inc, edmli_neon_scan_fn scan,
                                             edmli_neon_collect_fn collect)
{
    const uint32_t es = edmli_type_size(t), flip = inc ? UINT32_MAX : 0;
    uint64_t floor = edmli_neon_lane_floor(in, i0, n, k, h, t, inc);
    if (!floor) floor = edmli_neon_sample_floor(in, i0, n, k, h, scan, t, flip);
    uint32_t got = 0;
    const uint32_t i = floor ? collect(in, i0, n, k, h, floor, &got) : n;
    if (got >= k) {
        const uint64_t spare = h[k]; /* h[k] becomes the sentinel */
        edmli_neon_heapify(h, k);
        for (uint32_t j = k; j < got; j++) edmli_neon_offer(h, k, j == k ? spare : h[j]);
        scan(in, i, n, k, h);
        return;
    }
    edmli_neon_fill(h, k, t, flip, in + (uint64_t)i0 * es, es, i0);
    scan(in, i0 + k, n, k, h);
}

/* One sequence of n along any stride (bytes), into the heap h. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_strided(const uint8_t *in, int64_t stride, uint32_t n, uint32_t k, uint64_t *h,
                                                 EDML_TENSOR_DATA_TYPE t, bool inc)
{
    const uint32_t flip = inc ? UINT32_MAX : 0;
    edmli_neon_fill(h, k, t, flip, in, stride, 0);
    for (uint32_t i = k; i < n; i++) edmli_neon_offer(h, k, edmli_neon_cand(t, flip, in + (int64_t)i * stride, i));
}

/* The 16 columns side by side: heap j (of k + 1) and its threshold, as an
 * element, for column j; the thresholds as vectors, es of them. */
typedef struct edmli_neon_cols {
    uint64_t *h;
    uint32_t k, flip;
    _Alignas(16) uint8_t thn[EDMLI_NEON_TOPK_COLS * 4];
    edmli_neon_thr th[4];
} edmli_neon_cols;

EDMLI_ALWAYS_INLINE void edmli_neon_cols_thr(edmli_neon_cols *s, EDML_TENSOR_DATA_TYPE t, uint32_t j)
{
    const uint32_t es = edmli_type_size(t);
    const uint32_t v = edmli_neon_thr_bits(t, s->flip, (uint32_t)(s->h[(uint64_t)j * (s->k + 1)] >> 32));
    memcpy(s->thn + j * es, &v, es);
}

/* Row i of the columns (at `row`), lane by lane against each column's heap. */
EDMLI_ALWAYS_INLINE void edmli_neon_cols_row(edmli_neon_cols *s, EDML_TENSOR_DATA_TYPE t, bool inc, const uint8_t *row,
                                             uint32_t i)
{
    const uint32_t es = edmli_type_size(t);
    for (uint32_t c = 0; c < es; c += 2) { /* 32 bytes (16 for bytes: the second half rejects all) */
        const uint8x16_t ra = edmli_neon_reject(t, inc, row + 16 * c, s->th[c]);
        const uint8x16_t rb = es == 1 ? vdupq_n_u8(0xff) : edmli_neon_reject(t, inc, row + 16 * c + 16, s->th[c + 1]);
        EDMLI_NEON_EACH_LANE(es, ra, rb, at, {
            const uint32_t j = (16 * c + at) / es;
            edmli_neon_offer(s->h + (uint64_t)j * (s->k + 1), s->k, edmli_neon_cand(t, s->flip, row + j * es, i));
            edmli_neon_cols_thr(s, t, j);
        });
        s->th[c] = edmli_neon_thr_of(t, vld1q_u8(s->thn + 16 * c));
        if (es > 1) s->th[c + 1] = edmli_neon_thr_of(t, vld1q_u8(s->thn + 16 * c + 16));
    }
}

/* 64 bytes of 16 columns of 4-byte elements as four vectors. ARMv7's GCC
 * gives each 16-byte load its own address arithmetic; there two VLD2.32
 * load all 64, each word pair split between two vectors: a fixed order of
 * the columns, the same for every row and for thresholds loaded alike, so
 * lane-wise bests and all-lanes tests need not undo it (edmli_neon_st64w
 * does, where lanes go back to their columns). */
EDMLI_ALWAYS_INLINE uint8x16x4_t edmli_neon_ld64w(const uint8_t *p)
{
#if defined(__ARM_NEON) && !defined(__aarch64__)
    const uint32x4x2_t a = vld2q_u32((const uint32_t *)(const void *)p);
    const uint32x4x2_t b = vld2q_u32((const uint32_t *)(const void *)(p + 32));
    return (uint8x16x4_t){{vreinterpretq_u8_u32(a.val[0]), vreinterpretq_u8_u32(a.val[1]),
                           vreinterpretq_u8_u32(b.val[0]), vreinterpretq_u8_u32(b.val[1])}};
#else
    return (uint8x16x4_t){{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)}};
#endif
}

EDMLI_ALWAYS_INLINE void edmli_neon_st64w(uint8_t *p, uint8x16x4_t v)
{
#if defined(__ARM_NEON) && !defined(__aarch64__)
    const uint32x4x2_t a = {{vreinterpretq_u32_u8(v.val[0]), vreinterpretq_u32_u8(v.val[1])}};
    const uint32x4x2_t b = {{vreinterpretq_u32_u8(v.val[2]), vreinterpretq_u32_u8(v.val[3])}};
    vst2q_u32((uint32_t *)(void *)p, a);
    vst2q_u32((uint32_t *)(void *)(p + 32), b);
#else
    vst1q_u8(p, v.val[0]), vst1q_u8(p + 16, v.val[1]), vst1q_u8(p + 32, v.val[2]), vst1q_u8(p + 48, v.val[3]);
#endif
}

/* True if no element of the 4 rows from a (`stride` bytes apart) can enter
 * its column's heap, whose thresholds are th: their lane-wise best is
 * rejected (for halves widened to floats, each row is). */
EDMLI_ALWAYS_INLINE bool edmli_neon_cols_out(const edmli_neon_thr *th, EDML_TENSOR_DATA_TYPE t, bool inc,
                                             const uint8_t *a, int64_t stride)
{
    const uint32_t es = edmli_type_size(t);
    const uint8_t *b = a + stride, *c = b + stride, *d = c + stride;
    const bool widen = t == EDML_TENSOR_DATA_TYPE_FLOAT16 && !EDMLI_NEON_F16_NATIVE;
#define EDMLI_NEON_REJECT4(o, th)                                                                                     \
    (widen                                                                                                            \
         ? vandq_u8(vandq_u8(edmli_neon_reject(t, inc, a + (o), th), edmli_neon_reject(t, inc, b + (o), th)),         \
                    vandq_u8(edmli_neon_reject(t, inc, c + (o), th), edmli_neon_reject(t, inc, d + (o), th)))         \
         : edmli_neon_reject_v(t, inc,                                                                                \
                               edmli_neon_best(t, inc, edmli_neon_best(t, inc, vld1q_u8(a + (o)), vld1q_u8(b + (o))), \
                                               edmli_neon_best(t, inc, vld1q_u8(c + (o)), vld1q_u8(d + (o)))),        \
                               th))
    if (es == 4) { /* th in edmli_neon_ld64w's order */
        const uint8x16x4_t w = edmli_neon_ld64w(a), x = edmli_neon_ld64w(b), y = edmli_neon_ld64w(c),
                           z = edmli_neon_ld64w(d);
#define EDMLI_NEON_REJECT4W(q)                                                               \
    edmli_neon_reject_v(t, inc,                                                              \
                        edmli_neon_best(t, inc, edmli_neon_best(t, inc, w.val[q], x.val[q]), \
                                        edmli_neon_best(t, inc, y.val[q], z.val[q])),        \
                        th[q])
        const uint8x16_t all = vandq_u8(vandq_u8(EDMLI_NEON_REJECT4W(0), EDMLI_NEON_REJECT4W(1)),
                                        vandq_u8(EDMLI_NEON_REJECT4W(2), EDMLI_NEON_REJECT4W(3)));
#undef EDMLI_NEON_REJECT4W
        return edmli_neon_all_u8(all);
    }
    uint8x16_t all = EDMLI_NEON_REJECT4(0, th[0]);
    if (es >= 2) all = vandq_u8(all, EDMLI_NEON_REJECT4(16, th[1]));
#undef EDMLI_NEON_REJECT4
    return edmli_neon_all_u8(all);
}

/* Column floors: the 16 columns' lane-wise bests over 16 groups of rows,
 * each an element of its column, so k of them (k at most 16) have k
 * elements at or above the k-th best. Heap j then starts as k candidates
 * of column j's floor with index bits zero (as a row's, edmli_neon_topk_row).
 * False, with nothing done, where there are none: k over 16, columns under
 * 32 k rows long, or halves widened to floats. */
EDMLI_ALWAYS_INLINE bool edmli_neon_cols_floors(edmli_neon_cols *s, EDML_TENSOR_DATA_TYPE t, bool inc,
                                                const uint8_t *in, int64_t stride, uint32_t n)
{
    const uint32_t es = edmli_type_size(t), k = s->k, rows = n / 16;
    if (k > 16 || n < 32 * k || (t == EDML_TENSOR_DATA_TYPE_FLOAT16 && !EDMLI_NEON_F16_NATIVE)) return false;
    _Alignas(16) uint8_t bests[16][64];
    for (uint32_t q = 0; q < 16 && es == 4; q++) { /* in edmli_neon_ld64w's order */
        const uint8_t *p = in + (int64_t)q * rows * stride;
        const uint8x16x4_t f = edmli_neon_ld64w(p);
        uint8x16_t b0 = f.val[0], b1 = f.val[1], b2 = f.val[2], b3 = f.val[3];
        for (uint32_t r = 1; r + 2 <= rows; r += 2) {
            const uint8x16x4_t x = edmli_neon_ld64w(p + stride), y = edmli_neon_ld64w(p + 2 * stride);
            p += 2 * stride;
            b0 = edmli_neon_best(t, inc, b0, edmli_neon_best(t, inc, x.val[0], y.val[0]));
            b1 = edmli_neon_best(t, inc, b1, edmli_neon_best(t, inc, x.val[1], y.val[1]));
            b2 = edmli_neon_best(t, inc, b2, edmli_neon_best(t, inc, x.val[2], y.val[2]));
            b3 = edmli_neon_best(t, inc, b3, edmli_neon_best(t, inc, x.val[3], y.val[3]));
        }
        edmli_neon_st64w(bests[q], (uint8x16x4_t){{b0, b1, b2, b3}});
    }
    for (uint32_t q = 0; q < 16 && es < 4; q++) {
        const uint8_t *p = in + (int64_t)q * rows * stride;
        uint8x16_t b0 = vld1q_u8(p), b1 = b0, b2 = b0, b3 = b0;
        if (es >= 2) b1 = vld1q_u8(p + 16);
        if (es == 4) b2 = vld1q_u8(p + 32), b3 = vld1q_u8(p + 48);
        for (uint32_t r = 1; r + 2 <= rows; r += 2) { /* two rows a step (a last one left out: any rows will do) */
            const uint8_t *p1 = p + stride, *p2 = p1 + stride;
            p = p2;
            b0 = edmli_neon_best(t, inc, b0, edmli_neon_best(t, inc, vld1q_u8(p1), vld1q_u8(p2)));
            if (es >= 2)
                b1 = edmli_neon_best(t, inc, b1, edmli_neon_best(t, inc, vld1q_u8(p1 + 16), vld1q_u8(p2 + 16)));
            if (es == 4) {
                b2 = edmli_neon_best(t, inc, b2, edmli_neon_best(t, inc, vld1q_u8(p1 + 32), vld1q_u8(p2 + 32)));
                b3 = edmli_neon_best(t, inc, b3, edmli_neon_best(t, inc, vld1q_u8(p1 + 48), vld1q_u8(p2 + 48)));
            }
        }
        vst1q_u8(bests[q], b0), vst1q_u8(bests[q] + 16, b1), vst1q_u8(bests[q] + 32, b2), vst1q_u8(bests[q] + 48, b3);
    }
    for (uint32_t j = 0; j < EDMLI_NEON_TOPK_COLS; j++) {
        uint64_t *h = s->h + (uint64_t)j * (k + 1);
        edmli_neon_fill(h, k, t, s->flip, bests[0] + j * es, 64, 0);
        for (uint32_t q = k; q < 16; q++) edmli_neon_offer(h, k, edmli_neon_cand(t, s->flip, bests[q] + j * es, q));
        const uint64_t floor = h[0] & ~(uint64_t)UINT32_MAX;
        for (uint32_t i = 0; i < k; i++) h[i] = floor;
        edmli_neon_cols_thr(s, t, j);
    }
    return true;
}

/* The thresholds for edmli_neon_cols_out: of 4-byte elements in
 * edmli_neon_ld64w's order, others as s keeps them. */
EDMLI_ALWAYS_INLINE void edmli_neon_cols_th4(const edmli_neon_cols *s, EDML_TENSOR_DATA_TYPE t, edmli_neon_thr th[4])
{
    if (edmli_type_size(t) != 4) {
        memcpy(th, s->th, 4 * sizeof th[0]);
        return;
    }
    const uint8x16x4_t w = edmli_neon_ld64w(s->thn);
    th[0] = edmli_neon_thr_of(t, w.val[0]), th[1] = edmli_neon_thr_of(t, w.val[1]);
    th[2] = edmli_neon_thr_of(t, w.val[2]), th[3] = edmli_neon_thr_of(t, w.val[3]);
}

/* Rows [i, n) of the columns into their heaps, four rows at a time tested
 * by their lane-wise best against the thresholds (kept apart from s, so
 * that they stay in registers). */
EDMLI_ALWAYS_INLINE void edmli_neon_cols_scan(edmli_neon_cols *s, EDML_TENSOR_DATA_TYPE t, bool inc, const uint8_t *in,
                                              int64_t stride, uint32_t i, uint32_t n)
{
    const uint32_t es = edmli_type_size(t);
    for (uint32_t c = 0; c < es; c++) s->th[c] = edmli_neon_thr_of(t, vld1q_u8(s->thn + 16 * c));
    edmli_neon_thr th[4];
    edmli_neon_cols_th4(s, t, th);
    const uint8_t *a = in + (int64_t)i * stride;
    for (; i + 4 <= n; i += 4, a += 4 * stride) {
        if (edmli_neon_cols_out(th, t, inc, a, stride)) continue;
        for (uint32_t r = 0; r < 4; r++) edmli_neon_cols_row(s, t, inc, a + r * stride, i + r);
        edmli_neon_cols_th4(s, t, th);
    }
    for (; i < n; i++, a += stride) edmli_neon_cols_row(s, t, inc, a, i);
}

/* 16 columns side by side, n rows `stride` bytes apart; heap j (of k + 1
 * slots) for column j. With floors, a heap left holding one (an ARMv7
 * flush) has all 16 done again from their first k rows. */
EDMLI_ALWAYS_INLINE void edmli_neon_topk_cols(const uint8_t *in, int64_t stride, uint32_t n, uint32_t k, uint64_t *h,
                                              EDML_TENSOR_DATA_TYPE t, bool inc)
{
    const uint32_t es = edmli_type_size(t);
    edmli_neon_cols s = {.h = h, .k = k, .flip = inc ? UINT32_MAX : 0};
    if (edmli_neon_cols_floors(&s, t, inc, in, stride, n)) {
        edmli_neon_cols_scan(&s, t, inc, in, stride, 0, n);
        bool left = false;
        for (uint32_t j = 0; j < EDMLI_NEON_TOPK_COLS; j++) left |= (uint32_t)h[(uint64_t)j * (k + 1)] == 0;
        if (!left) return;
    }
    for (uint32_t j = 0; j < EDMLI_NEON_TOPK_COLS; j++) {
        edmli_neon_fill(h + (uint64_t)j * (k + 1), k, t, s.flip, in + j * es, stride, 0);
        edmli_neon_cols_thr(&s, t, j);
    }
    edmli_neon_cols_scan(&s, t, inc, in, stride, k, n);
}

/* ---- per type and direction --------------------------------------------------- */

typedef void (*edmli_neon_row_fn)(const uint8_t *in, uint32_t i0, uint32_t n, uint32_t k, uint64_t *h);
typedef void (*edmli_neon_walk_fn)(const uint8_t *in, int64_t stride, uint32_t n, uint32_t k, uint64_t *h);

typedef struct edmli_neon_topk_fns {
    edmli_neon_row_fn row;
    edmli_neon_walk_fn strided, cols;
} edmli_neon_topk_fns;

#define EDMLI_NEON_TOPK_DIR(T, DT, DIR, INC)                                                                        \
    static void edmli_neon_scan_##T##DIR(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h)        \
    {                                                                                                               \
        edmli_neon_scan(in, i, n, k, h, EDML_TENSOR_DATA_TYPE_##DT, INC);                                           \
    }                                                                                                               \
    static uint32_t edmli_neon_collect_##T##DIR(const uint8_t *in, uint32_t i, uint32_t n, uint32_t k, uint64_t *h, \
                                                uint64_t floor, uint32_t *got)                                      \
    {                                                                                                               \
        return edmli_neon_collect(in, i, n, k, h, floor, got, EDML_TENSOR_DATA_TYPE_##DT, INC);                     \
    }                                                                                                               \
    static void edmli_neon_topk_row_##T##DIR(const uint8_t *in, uint32_t i0, uint32_t n, uint32_t k, uint64_t *h)   \
    {                                                                                                               \
        edmli_neon_topk_row(in, i0, n, k, h, EDML_TENSOR_DATA_TYPE_##DT, INC, edmli_neon_scan_##T##DIR,             \
                            edmli_neon_collect_##T##DIR);                                                           \
    }                                                                                                               \
    static void edmli_neon_topk_strided_##T##DIR(const uint8_t *in, int64_t s, uint32_t n, uint32_t k, uint64_t *h) \
    {                                                                                                               \
        edmli_neon_topk_strided(in, s, n, k, h, EDML_TENSOR_DATA_TYPE_##DT, INC);                                   \
    }                                                                                                               \
    static void edmli_neon_topk_cols_##T##DIR(const uint8_t *in, int64_t s, uint32_t n, uint32_t k, uint64_t *h)    \
    {                                                                                                               \
        edmli_neon_topk_cols(in, s, n, k, h, EDML_TENSOR_DATA_TYPE_##DT, INC);                                      \
    }
#define EDMLI_NEON_TOPK_TYPE(T, DT) EDMLI_NEON_TOPK_DIR(T, DT, _dec, false) EDMLI_NEON_TOPK_DIR(T, DT, _inc, true)
EDMLI_NEON_KEY32_TYPES(EDMLI_NEON_TOPK_TYPE)

static edmli_neon_topk_fns edmli_neon_topk_fns_for(EDML_TENSOR_DATA_TYPE t, bool inc)
{
#define EDMLI_FNS(T, DIR)                                                                             \
    (edmli_neon_topk_fns)                                                                             \
    {                                                                                                 \
        edmli_neon_topk_row_##T##DIR, edmli_neon_topk_strided_##T##DIR, edmli_neon_topk_cols_##T##DIR \
    }
#define EDMLI_CASE(T, DT) \
    case EDML_TENSOR_DATA_TYPE_##DT: return inc ? EDMLI_FNS(T, _inc) : EDMLI_FNS(T, _dec);
    switch (t) {
        EDMLI_NEON_KEY32_TYPES(EDMLI_CASE)
    default: return (edmli_neon_topk_fns){NULL, NULL, NULL}; /* the caller took the reference for other types */
    }
#undef EDMLI_CASE
#undef EDMLI_FNS
}

/* ---- one call ---------------------------------------------------------------- */

typedef enum edmli_neon_topk_mode {
    EDMLI_NEON_TOPK_PACKED,  /* the axis is packed: a sequence at a time, scanned a vector at a time */
    EDMLI_NEON_TOPK_COLUMNS, /* the last dim is packed: 16 columns side by side */
    EDMLI_NEON_TOPK_FOLDED,  /* 2, 4 or 8 packed columns, packed rows: folded into 16 lanes */
    EDMLI_NEON_TOPK_WALK,    /* anything else: a sequence at a time, an element at a time */
} edmli_neon_topk_mode;

/* One call's work: units are sequences, or (columns) per row of the other
 * dims, groups of 16 columns; `sub` parts a row when split within rows. */
typedef struct edmli_neon_topk_job {
    const edml_operator *op;
    const edmli_exec *ex;
    edmli_odo rows; /* over the dims but the axis (and, with columns, the last) */
    edmli_neon_topk_fns fns;
    edmli_neon_topk_mode mode;
    uint32_t cols, groups, parts, sub;
    int64_t step; /* bytes between elements of the axis */
    uint64_t units, slot_words;
} edmli_neon_topk_job;

static edmli_neon_topk_mode edmli_neon_topk_mode_of(const edml_operator *op)
{
    const edmli_tensor *ti = &op->inputs[0];
    const uint32_t last = ti->rank - 1, axis = op->plan.topk.axis;
    if (ti->strides[axis] == 1) return EDMLI_NEON_TOPK_PACKED;
    const uint32_t c = ti->sizes[last];
    if (axis != last && ti->strides[last] == 1 && c >= EDMLI_NEON_TOPK_COLS) return EDMLI_NEON_TOPK_COLUMNS;
    if (axis != last && ti->strides[last] == 1 && (c == 2 || c == 4 || c == 8) && ti->strides[axis] == c &&
        op->plan.topk.axis_size / (EDMLI_NEON_TOPK_COLS / c) >= op->plan.topk.k)
        return EDMLI_NEON_TOPK_FOLDED;
    return EDMLI_NEON_TOPK_WALK;
}

/* A part's heaps: one a column side by side, of k + 1 candidates (the last
 * a sentinel), or one with a step's spare. */
static uint64_t edmli_neon_topk_slot_words(const edml_operator *op)
{
    const edmli_neon_topk_mode m = edmli_neon_topk_mode_of(op);
    if (m == EDMLI_NEON_TOPK_COLUMNS || m == EDMLI_NEON_TOPK_FOLDED)
        return EDMLI_NEON_TOPK_COLS * (op->plan.topk.k + 1u);
    return (op->plan.topk.k + 1u + 128u + 7u) & ~7u; /* the spare of edmli_neon_collect; whole cache lines */
}

static uint64_t *edmli_neon_topk_slot(const edmli_neon_topk_job *j, uint32_t part)
{
    return (uint64_t *)(void *)j->ex->scratch + (uint64_t)part * j->slot_words;
}

/* Writes k sorted candidates: values copied from the sequence at in, indices. */
static void edmli_neon_topk_write(const edml_operator *op, const uint64_t *best, const uint8_t *in, uint8_t *val,
                                  uint8_t *idx)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    const uint32_t es = ti->elem_size, xs = tx->elem_size;
    const int64_t in_step = (int64_t)ti->strides[p->axis] * es, val_step = (int64_t)tv->strides[p->axis] * es;
    const int64_t idx_step = (int64_t)tx->strides[p->axis] * xs;
    for (uint32_t j = 0; j < p->k; j++) {
        const uint32_t i = ~(uint32_t)best[j];
        memcpy(val + j * val_step, in + i * in_step, es);
        edmli_store_index(idx + j * idx_step, tx->dtype, i);
    }
}

/* Group g of 16 columns at the row o: columns [16g, cols), at most 16; the
 * last group starts at cols - 16 and writes only its own. */
static void edmli_neon_topk_group(const edmli_neon_topk_job *j, const edmli_odo *o, uint32_t g, uint64_t *h)
{
    const edmli_tensor *ti = &j->op->inputs[0], *tv = &j->op->outputs[0], *tx = &j->op->outputs[1];
    const uint32_t last = ti->rank - 1, k = j->op->plan.topk.k, n = j->op->plan.topk.axis_size;
    const uint32_t c = EDMLI_NEON_TOPK_COLS * g;
    const uint32_t c0 = c + EDMLI_NEON_TOPK_COLS <= j->cols ? c : j->cols - EDMLI_NEON_TOPK_COLS;
    const int64_t vs = (int64_t)tv->strides[last] * tv->elem_size, xs = (int64_t)tx->strides[last] * tx->elem_size;
    const uint8_t *col = j->ex->in[0] + o->off[0] + (uint64_t)c0 * ti->elem_size;
    j->fns.cols(col, j->step, n, k, h);
    for (uint32_t q = c - c0; q < EDMLI_NEON_TOPK_COLS; q++) {
        uint64_t *hq = h + (uint64_t)q * (k + 1);
        edmli_neon_drain(hq, k);
        edmli_neon_topk_write(j->op, hq, col + q * ti->elem_size, j->ex->out[0] + o->off[1] + (c0 + q) * vs,
                              j->ex->out[1] + o->off[2] + (c0 + q) * xs);
    }
}

/* c = 2, 4 or 8 packed columns folded into 16 lanes: the axis seen as rows
 * of 16 elements (16 / c of its rows each), lane q holding column q % c of
 * rows q / c, q / c + 16 / c, ...; each column's best K the merge of its
 * 16 / c lanes' (their indices turned into the axis's), the rows past the
 * last whole 16 offered one by one. */
static void edmli_neon_topk_folded(const edmli_neon_topk_job *j, const edmli_odo *o, uint64_t *h)
{
    const edmli_topk_plan *p = &j->op->plan.topk;
    const edmli_tensor *ti = &j->op->inputs[0], *tv = &j->op->outputs[0], *tx = &j->op->outputs[1];
    const uint32_t last = ti->rank - 1, k = p->k, n = p->axis_size, c = j->cols, g = 16 / c, es = ti->elem_size;
    const uint32_t nv = n / g, flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT32_MAX : 0;
    const int64_t vs = (int64_t)tv->strides[last] * tv->elem_size, xs = (int64_t)tx->strides[last] * tx->elem_size;
    const uint8_t *in = j->ex->in[0] + o->off[0];
    j->fns.cols(in, 16 * (int64_t)es, nv, k, h);
    for (uint32_t q = 0; q < 16; q++) /* a lane's row: that of the axis (the same order) */
        for (uint64_t *x = h + (uint64_t)q * (k + 1), *e = x + k; x < e; x++)
            *x = (*x & ~(uint64_t)UINT32_MAX) | (uint32_t) ~(~(uint32_t)*x * g + q / c);
    for (uint32_t col = 0; col < c; col++) {
        uint64_t *best = h + (uint64_t)col * (k + 1);
        for (uint32_t t = 1; t < g; t++)
            for (uint32_t e = 0; e < k; e++) edmli_neon_offer(best, k, h[(uint64_t)(col + t * c) * (k + 1) + e]);
        for (uint32_t r = nv * g; r < n; r++)
            edmli_neon_offer(best, k, edmli_neon_cand(ti->dtype, flip, in + ((uint64_t)r * c + col) * es, r));
        edmli_neon_drain(best, k);
        edmli_neon_topk_write(j->op, best, in + col * es, j->ex->out[0] + o->off[1] + col * vs,
                              j->ex->out[1] + o->off[2] + col * xs);
    }
}

/* Part `part` of the units, each whole. */
static void edmli_neon_topk_units(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_topk_job *j = arg;
    const edmli_topk_plan *p = &j->op->plan.topk;
    uint64_t *h = edmli_neon_topk_slot(j, part);
    edmli_odo o = j->rows;
    uint64_t u0, u1;
    edmli_cpu_range(j->units, j->parts, part, 1, &u0, &u1);
    edmli_odo_seek(&o, u0 / j->groups);
    for (uint64_t u = u0, g = u0 % j->groups; u < u1; u++) {
        if (j->mode == EDMLI_NEON_TOPK_COLUMNS) {
            edmli_neon_topk_group(j, &o, (uint32_t)g, h);
        } else if (j->mode == EDMLI_NEON_TOPK_FOLDED) {
            edmli_neon_topk_folded(j, &o, h);
        } else {
            const uint8_t *in = j->ex->in[0] + o.off[0];
            if (j->mode == EDMLI_NEON_TOPK_PACKED)
                j->fns.row(in, 0, p->axis_size, p->k, h);
            else
                j->fns.strided(in, j->step, p->axis_size, p->k, h);
            edmli_neon_drain(h, p->k);
            edmli_neon_topk_write(j->op, h, in, j->ex->out[0] + o.off[1], j->ex->out[1] + o.off[2]);
        }
        if (++g == j->groups) g = 0, edmli_odo_next(&o);
    }
}

/* Part `part` of rows split `sub` ways: the best K of its range of its row. */
static void edmli_neon_topk_range(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_topk_job *j = arg;
    edmli_odo o = j->rows;
    uint64_t i0, i1;
    edmli_cpu_range(j->op->plan.topk.axis_size, j->sub, part % j->sub, 1, &i0, &i1);
    edmli_odo_seek(&o, part / j->sub);
    j->fns.row(j->ex->in[0] + o.off[0], (uint32_t)i0, (uint32_t)i1, j->op->plan.topk.k, edmli_neon_topk_slot(j, part));
}

/* Few long packed rows: each in `sub` ranges at once, then on this thread
 * each row's best k merged, sorted and written. */
static edml_status edmli_neon_topk_split(edmli_neon_topk_job *j)
{
    const uint32_t k = j->op->plan.topk.k;
    j->parts = (uint32_t)j->units * j->sub;
    edml_status s = edmli_cpu_parallel(j->ex, j->parts, edmli_neon_topk_range, j);
    if (s) return s; /* nothing written: the rows are written below */
    edmli_odo o = j->rows;
    for (uint32_t r = 0; r < j->units; r++, edmli_odo_next(&o)) {
        uint64_t *best = edmli_neon_topk_slot(j, r * j->sub);
        for (uint32_t s = 1; s < j->sub; s++) { /* the other ranges' best k offered to the first's heap */
            const uint64_t *other = edmli_neon_topk_slot(j, r * j->sub + s);
            for (uint32_t e = 0; e < k; e++) edmli_neon_offer(best, k, other[e]);
        }
        edmli_neon_drain(best, k);
        edmli_neon_topk_write(j->op, best, j->ex->in[0] + o.off[0], j->ex->out[0] + o.off[1], j->ex->out[1] + o.off[2]);
    }
    return EDML_STATUS_OK;
}

/* A large K along few rows: each row by threshold and buckets, all parts
 * on it (neon_topk_select.c), or by the heap on this thread where the
 * threshold lets too few or too many through. */
static edml_status edmli_neon_topk_selected(const edmli_neon_topk_job *j)
{
    const edmli_topk_plan *p = &j->op->plan.topk;
    edmli_odo o = j->rows;
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o)) {
        const uint8_t *in = j->ex->in[0] + o.off[0];
        uint8_t *val = j->ex->out[0] + o.off[1], *idx = j->ex->out[1] + o.off[2];
        bool done = false;
        const edml_status s = edmli_neon_topk_select_row(j->op, j->ex, in, val, idx, &done);
        if (s) return s;
        if (done) continue;
        uint64_t *h = edmli_neon_topk_slot(j, 0);
        j->fns.row(in, 0, p->axis_size, p->k, h);
        edmli_neon_drain(h, p->k);
        edmli_neon_topk_write(j->op, h, in, val, idx);
    }
    return EDML_STATUS_OK;
}

/* Ways to split each of `rows` rows so that `parts` are busy: none (1)
 * unless every range keeps 64 K elements or more (filling a heap costs
 * about log K a element, scanning well under one). */
static uint32_t edmli_neon_topk_sub(const edmli_topk_plan *p, uint64_t rows, uint32_t parts)
{
    if (rows >= parts) return 1;
    uint64_t sub = parts / rows, most = p->axis_size / (64u * (uint64_t)p->k);
    return (uint32_t)(sub < most ? sub : most ? most : 1);
}

/* The heaps' (a part each; 64-bit keys' where FPCR.AH may send floats
 * there when it runs) or the threshold's and buckets'. */
uint64_t edmli_neon_topk_temp_bytes(const edml_operator *op)
{
    const EDML_TENSOR_DATA_TYPE t = op->inputs[0].dtype;
    const bool wide = !edmli_neon_key32(t) || edmli_dtype_is_float(t);
    const uint64_t w = wide ? edmli_neon_topk_wide_temp_bytes(op) : 0, select = edmli_neon_topk_select_temp_bytes(op);
    const uint64_t keys =
        edmli_neon_key32(t) ? (uint64_t)(op->workers ? op->workers : 1) * edmli_neon_topk_slot_words(op) * 8u : 0;
    const uint64_t most = w > keys ? w : keys;
    return most > select ? most : select;
}

/* The NEON kernel proper (its own frame, apart from the reference's). */
__attribute__((noinline)) static edml_status edmli_neon_topk_keys(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    const uint32_t last = ti->rank - 1, elem[3] = {ti->elem_size, tv->elem_size, tx->elem_size};
    edmli_neon_topk_job j = {.op = op, .ex = ex, .mode = edmli_neon_topk_mode_of(op), .cols = ti->sizes[last]};
    const bool columns = j.mode == EDMLI_NEON_TOPK_COLUMNS || j.mode == EDMLI_NEON_TOPK_FOLDED;
    j.slot_words = edmli_neon_topk_slot_words(op);
    j.fns = edmli_neon_topk_fns_for(ti->dtype, p->direction == EDML_AXIS_DIRECTION_INCREASING);
    j.step = (int64_t)ti->strides[p->axis] * ti->elem_size;
    j.groups = j.mode == EDMLI_NEON_TOPK_COLUMNS ? (j.cols + EDMLI_NEON_TOPK_COLS - 1) / EDMLI_NEON_TOPK_COLS : 1;
    edmli_odo_init(&j.rows, 3);
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis || (columns && d == last)) continue;
        const uint32_t st[3] = {ti->strides[d], tv->strides[d], tx->strides[d]};
        edmli_odo_dim(&j.rows, ti->sizes[d], st, elem);
    }
    const uint64_t rows = edmli_odo_count(&j.rows);
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, ti->elem_count * ti->elem_size);
    if (j.mode == EDMLI_NEON_TOPK_PACKED && edmli_neon_topk_select_takes(op)) return edmli_neon_topk_selected(&j);
    j.units = rows * j.groups;
    j.sub = j.mode == EDMLI_NEON_TOPK_PACKED ? edmli_neon_topk_sub(p, rows, most) : 1;
    if (j.sub > 1) return edmli_neon_topk_split(&j);
    j.parts = j.units < most ? (uint32_t)j.units : most;
    return edmli_cpu_parallel(ex, j.parts, edmli_neon_topk_units, &j);
}

static bool edmli_neon_topk_is_wide(const edml_operator *op)
{
    const EDML_TENSOR_DATA_TYPE t = op->inputs[0].dtype;
    return !edmli_neon_key32(t) || (edmli_dtype_is_float(t) && !edmli_neon_fp_keeps_nan());
}

/* The path the kernels below take and their parts: the same choices as
 * edmli_neon_topk_keys and edmli_neon_topk_wide make. */
void edmli_neon_topk_path(const edml_operator *op, edmli_cost_path *out)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    const uint64_t bytes = ti->elem_count * ti->elem_size, rows = ti->elem_count / p->axis_size;
    const uint32_t most = edmli_cpu_parts(op, UINT64_MAX, bytes);
    const edmli_neon_topk_mode mode = edmli_neon_topk_mode_of(op);
    const bool wide = edmli_neon_topk_is_wide(op);
    const uint32_t sub = mode == EDMLI_NEON_TOPK_PACKED || wide ? edmli_neon_topk_sub(p, rows, most) : 1;
    if (wide) {
        out->path = EDMLI_COST_PATH_NEON_TOPK_WIDE;
        out->parts = sub > 1 ? (uint32_t)rows * sub : edmli_cpu_parts(op, rows, bytes);
    } else if (mode == EDMLI_NEON_TOPK_PACKED && edmli_neon_topk_select_takes(op)) {
        out->path = EDMLI_COST_PATH_NEON_TOPK_SELECT;
        out->parts = edmli_cpu_parts(op, (p->axis_size + 15) / 16, (uint64_t)p->axis_size * ti->elem_size);
    } else if (mode == EDMLI_NEON_TOPK_PACKED) {
        out->path = sub > 1 ? EDMLI_COST_PATH_NEON_TOPK_SPLIT : EDMLI_COST_PATH_NEON_TOPK_ROWS;
        out->parts = sub > 1 ? (uint32_t)rows * sub : rows < most ? (uint32_t)rows : most;
    } else {
        const uint32_t cols = ti->sizes[ti->rank - 1];
        const uint64_t units = mode == EDMLI_NEON_TOPK_COLUMNS
                                   ? rows / cols * ((cols + EDMLI_NEON_TOPK_COLS - 1) / EDMLI_NEON_TOPK_COLS)
                               : mode == EDMLI_NEON_TOPK_FOLDED ? rows / cols
                                                                : rows;
        out->path = EDMLI_COST_PATH_NEON_TOPK_COLUMNS, out->parts = units < most ? (uint32_t)units : most;
    }
    if (!out->parts) out->parts = 1;
}

/* 32-bit keys, or 64-bit ones (neon_topk_wide.c): either one's frame, not both. */
edml_status edmli_neon_topk(const edml_operator *op, const edmli_exec *ex)
{
    if (edmli_neon_topk_is_wide(op)) return edmli_neon_topk_wide(op, ex);
    return edmli_neon_topk_keys(op, ex);
}
