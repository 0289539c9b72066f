/* NEON intrinsics: native on Arm; through SIMDe elsewhere so the same kernels
 * build and run under the sanitizers on x86 hosts (a test vehicle only). */
#ifndef EDMLI_NEON_H
#define EDMLI_NEON_H

#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#include <arm_neon.h>
#elif defined(__arm__) || defined(__aarch64__)
/* on Arm without NEON (an ARMv7 FPU of VFP or FP-ARMv8 alone) SIMDe's
 * emulation is no product: say what the build lacks */
#error \
    "edml's NEON backend needs a NEON FPU on Arm: -mfpu=neon (or neon-vfpv4, neon-fp-armv8), Buildroot BR2_ARM_FPU_NEON*"
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#if defined(__F16C__)
#include <immintrin.h>
#endif
#endif

#include <string.h>

#include "../cpu/cpu.h"
#include "../ref/ref.h"

/* Float compares, lane by lane, as NEON instructions. GCC turns ARMv7's
 * vcgtq_f32, vcgeq_f32 and vceqq_f32 into one VFP compare a lane (NEON flushes
 * subnormals; VFP need not), about 20 instructions for 4 lanes, so ARMv7
 * GCC builds state VCGT and VCEQ themselves. Every threshold they meet is
 * off the subnormals (edmli_neon_off_subnormal), so a flushed element
 * still falls on its own side of it. */
#if defined(__arm__) && !defined(__aarch64__) && defined(__GNUC__) && !defined(__clang__)
static inline uint32x4_t edmli_neon_cgt_f32(float32x4_t a, float32x4_t b)
{
    uint32x4_t r;
    __asm__("vcgt.f32 %q0, %q1, %q2" : "=w"(r) : "w"(a), "w"(b));
    return r;
}
static inline uint32x4_t edmli_neon_ceq_f32(float32x4_t a, float32x4_t b)
{
    uint32x4_t r;
    __asm__("vceq.f32 %q0, %q1, %q2" : "=w"(r) : "w"(a), "w"(b));
    return r;
}
static inline uint32x4_t edmli_neon_cge_f32(float32x4_t a, float32x4_t b)
{
    uint32x4_t r;
    __asm__("vcge.f32 %q0, %q1, %q2" : "=w"(r) : "w"(a), "w"(b));
    return r;
}
#else
static inline uint32x4_t edmli_neon_cgt_f32(float32x4_t a, float32x4_t b) { return vcgtq_f32(a, b); }
static inline uint32x4_t edmli_neon_ceq_f32(float32x4_t a, float32x4_t b) { return vceqq_f32(a, b); }
static inline uint32x4_t edmli_neon_cge_f32(float32x4_t a, float32x4_t b) { return vcgeq_f32(a, b); }
#endif
#define edmli_neon_clt_f32(a, b) edmli_neon_cgt_f32(b, a)
#define edmli_neon_cle_f32(a, b) edmli_neon_cge_f32(b, a)

/* True if any lane is set (AArch64 has a horizontal max; ARMv7 folds pairs). */
static inline bool edmli_neon_any_u32(uint32x4_t m)
{
#if defined(__aarch64__)
    return vmaxvq_u32(m) != 0;
#else
    uint32x2_t f = vorr_u32(vget_low_u32(m), vget_high_u32(m));
    return (vget_lane_u32(f, 0) | vget_lane_u32(f, 1)) != 0;
#endif
}

/* 48 bytes at p, three channels a row, as channel vectors (VLD3 of 8- and
 * 16-bit elements; through SIMDe, whose VLD3 moves an element at a time
 * through memory, three loads and a 3-table lookup a channel, byte b of
 * channel j from byte tbl[j][b]). */
#if !defined(__ARM_NEON) && !defined(__ARM_NEON__)
static inline uint8x16x3_t edmli_neon_ld3_bytes(const uint8_t *p, const uint8_t tbl[3][16])
{
    const uint8x16x3_t t = {{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32)}};
    const uint8x16x3_t v = {
        {vqtbl3q_u8(t, vld1q_u8(tbl[0])), vqtbl3q_u8(t, vld1q_u8(tbl[1])), vqtbl3q_u8(t, vld1q_u8(tbl[2]))}};
    return v;
}
#endif
static inline uint8x16x3_t edmli_neon_ld3_u8(const uint8_t *p)
{
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
    return vld3q_u8(p);
#else
    static const uint8_t tbl[3][16] = {{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45},
                                       {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46},
                                       {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47}};
    return edmli_neon_ld3_bytes(p, tbl);
#endif
}
static inline uint16x8x3_t edmli_neon_ld3_u16(const uint16_t *p)
{
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
    return vld3q_u16(p);
#else
    static const uint8_t tbl[3][16] = {{0, 1, 6, 7, 12, 13, 18, 19, 24, 25, 30, 31, 36, 37, 42, 43},
                                       {2, 3, 8, 9, 14, 15, 20, 21, 26, 27, 32, 33, 38, 39, 44, 45},
                                       {4, 5, 10, 11, 16, 17, 22, 23, 28, 29, 34, 35, 40, 41, 46, 47}};
    const uint8x16x3_t b = edmli_neon_ld3_bytes((const uint8_t *)(const void *)p, tbl);
    const uint16x8x3_t v = {
        {vreinterpretq_u16_u8(b.val[0]), vreinterpretq_u16_u8(b.val[1]), vreinterpretq_u16_u8(b.val[2])}};
    return v;
#endif
}

/* Twelve 32-bit elements at p, three channels a row, as channel vectors
 * (VLD3; through SIMDe, whose VLD3 moves an element at a time through
 * memory, three loads, each row brought to lanes 0-2 by VEXT, then
 * transposed by VZIP). */
static inline uint32x4x3_t edmli_neon_ld3_u32(const uint32_t *p)
{
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
    return vld3q_u32(p);
#else
    const uint32x4_t a = vld1q_u32(p), b = vld1q_u32(p + 4), c = vld1q_u32(p + 8);
    const uint32x4_t s1 = vextq_u32(a, b, 2), r1 = vextq_u32(s1, s1, 1); /* z0 x1 y1 z1, then x1 y1 z1 z0 */
    const uint32x4_t r2 = vextq_u32(b, c, 2), r3 = vextq_u32(c, c, 1);   /* x2 y2 z2, x3 y3 z3 */
    const uint32x4_t t0 = vzip1q_u32(a, r1), t1 = vzip2q_u32(a, r1), t2 = vzip1q_u32(r2, r3), t3 = vzip2q_u32(r2, r3);
    const uint32x4x3_t v = {{vcombine_u32(vget_low_u32(t0), vget_low_u32(t2)),
                             vcombine_u32(vget_high_u32(t0), vget_high_u32(t2)),
                             vcombine_u32(vget_low_u32(t1), vget_low_u32(t3))}};
    return v;
#endif
}

#if defined(__aarch64__)
#define EDMLI_NEON_FPCR_FZ (1u << 24) /* subnormals flushed */
#define EDMLI_NEON_FPCR_AH (1u << 1)  /* FMIN/FMAX may drop a NaN */
static inline uint64_t edmli_neon_fpcr(void)
{
    uint64_t fpcr;
    __asm__("mrs %0, fpcr" : "=r"(fpcr));
    return fpcr;
}
#endif

/* ARMv7 NEON flushes subnormals in every float instruction (its FPSCR has
 * no say), and keeps NaNs in VMIN and VMAX: a known, fixed mode. */
#if defined(__ARM_NEON) && !defined(__aarch64__)
#define EDMLI_NEON_V7_FLUSH 1
#else
#define EDMLI_NEON_V7_FLUSH 0
#endif

/* Whether this thread's float compares, FMIN and FMAX are exact: AArch64
 * with FPCR.FZ and FPCR.AH clear, as every OS leaves it; x86 (SIMDe)
 * without DAZ or FTZ. ARMv7 NEON always flushes subnormals. Kernels that
 * are not exact in that case use strict compares only (flushing keeps a < b
 * wherever it says so) and never rely on a float compare where it could be
 * wrong. */
static inline bool edmli_neon_fp_exact(void)
{
#if defined(__aarch64__)
    return (edmli_neon_fpcr() & (EDMLI_NEON_FPCR_FZ | EDMLI_NEON_FPCR_AH)) == 0;
#elif defined(__x86_64__) || defined(__i386__)
    uint32_t csr;
    __asm__("stmxcsr %0" : "=m"(csr));
    return (csr & 0x8040u) == 0;
#else
    return false;
#endif
}

/* Whether FMIN and FMAX keep a NaN (false only with AArch64's FPCR.AH set):
 * the float kernels take the reference where they do not. */
static inline bool edmli_neon_fp_keeps_nan(void)
{
#if defined(__aarch64__)
    return (edmli_neon_fpcr() & EDMLI_NEON_FPCR_AH) == 0;
#else
    return true;
#endif
}

/* A float threshold (bits of es 4 or 2 bytes) off the subnormals, to its
 * worse side (toward -inf where `lower`): a subnormal, or a lane compared
 * with one, may be flushed to zero by FMIN, FMAX or the compare itself
 * (ARMv7 NEON always, AArch64 under FPCR.FZ), but a strict compare with a
 * normal number or a zero gives the same answer either way. */
static inline uint32_t edmli_neon_off_subnormal(uint32_t b, uint32_t es, bool lower)
{
    const uint32_t sign = es == 4 ? 0x80000000u : 0x8000u, expo = es == 4 ? 0x7f800000u : 0x7c00u;
    const uint32_t min_normal = es == 4 ? 0x00800000u : 0x0400u;
    if ((b & expo) != 0 || (b & ~sign) == 0) return b;
    if (b & sign) return lower ? sign | min_normal : sign;
    return lower ? 0 : min_normal;
}

/* True if every byte is set. */
static inline bool edmli_neon_all_u8(uint8x16_t m)
{
#if defined(__aarch64__)
    return vminvq_u8(m) == 0xffu;
#else
    uint32x2_t f = vreinterpret_u32_u8(vand_u8(vget_low_u8(m), vget_high_u8(m)));
    return (vget_lane_u32(f, 0) & vget_lane_u32(f, 1)) == UINT32_MAX;
#endif
}

/* True if every lane of a mask is set: one lane-wise minimum, fewer steps
 * than edmli_neon_all_u8's on AArch64 where it is tested once a block. */
static inline bool edmli_neon_all_u32(uint32x4_t m)
{
#if defined(__aarch64__)
    return vminvq_u32(m) != 0;
#else
    return edmli_neon_all_u8(vreinterpretq_u8_u32(m));
#endif
}

/* The least lane (is_min) or the greatest. */
static inline int32_t edmli_neon_hbest_s32(int32x4_t v, bool is_min)
{
#if defined(__aarch64__)
    return is_min ? vminvq_s32(v) : vmaxvq_s32(v);
#else
    int32x2_t f = is_min ? vpmin_s32(vget_low_s32(v), vget_high_s32(v)) : vpmax_s32(vget_low_s32(v), vget_high_s32(v));
    return vget_lane_s32(is_min ? vpmin_s32(f, f) : vpmax_s32(f, f), 0);
#endif
}

/* 4 halves (bits) widened to floats: one instruction on Arm where the FPU
 * converts halves (__ARM_FP bit 1: AArch64, ARMv7's VFPv4 and
 * neon-fp16); on ARMv7 NEON without it (-mfpu=neon: Cortex-A8, A9) by
 * integer steps, exact (a half's subnormal is a normal float, so NEON's
 * flush to zero leaves it); through SIMDe on x86, F16C's where the build
 * allows it (-mf16c), else SIMDe's software conversion. */
static inline float32x4_t edmli_neon_widen_f16(uint16x4_t h)
{
#if (defined(__ARM_NEON) || defined(__ARM_NEON__)) && !defined(__aarch64__) && !(__ARM_FP & 2)
    const uint32x4_t u = vmovl_u16(h), em = vandq_u32(u, vdupq_n_u32(0x7fffu));
    const uint32x4_t sign = vshlq_n_u32(veorq_u32(u, em), 16);
    const uint32x4_t normal = vaddq_u32(vshlq_n_u32(em, 13), vdupq_n_u32(112u << 23));   /* exponent 15 -> 127 */
    const uint32x4_t special = vorrq_u32(vshlq_n_u32(em, 13), vdupq_n_u32(0x7f800000u)); /* infinity, NaN */
    const uint32x4_t small = vreinterpretq_u32_f32(vmulq_f32(vcvtq_f32_u32(em), vdupq_n_f32(0x1p-24f)));
    const uint32x4_t r = vbslq_u32(vcgeq_u32(em, vdupq_n_u32(0x7c00u)), special,
                                   vbslq_u32(vcltq_u32(em, vdupq_n_u32(0x0400u)), small, normal));
    return vreinterpretq_f32_u32(vorrq_u32(r, sign));
#elif !defined(__ARM_NEON) && !defined(__ARM_NEON__) && defined(__F16C__)
    uint16_t b[4];
    float f[4];
    vst1_u16(b, h);
    __m128i x;
    memcpy(&x, b, sizeof b);
    _mm_storeu_ps(f, _mm_cvtph_ps(x));
    return vld1q_f32(f);
#else
    return vcvt_f32_f16(vreinterpret_f16_u16(h));
#endif
}

/* 64 bytes as 4 vectors from *p, then *p moved past them: one LD1 of 4
 * registers on AArch64; on ARMv7 (whose GCC lacks the _x4 forms) 4 loads
 * that move the pointer themselves. */
static inline uint8x16x4_t edmli_neon_ld64(const uint8_t **p)
{
    const uint8_t *q = *p;
    *p = q + 64;
#if defined(__aarch64__)
    return vld1q_u8_x4(q);
#else
    uint8x16x4_t v;
    v.val[0] = vld1q_u8(q), q += 16;
    v.val[1] = vld1q_u8(q), q += 16;
    v.val[2] = vld1q_u8(q), q += 16;
    v.val[3] = vld1q_u8(q);
    return v;
#endif
}

/* 64 bytes to *p, then *p moved past them (paired stores: ST1 of 4 would
 * need 4 consecutive registers, so moves). */
static inline void edmli_neon_st64(uint8_t **p, uint8x16x4_t v)
{
    uint8_t *q = *p;
    *p = q + 64;
    vst1q_u8(q, v.val[0]), q += 16;
    vst1q_u8(q, v.val[1]), q += 16;
    vst1q_u8(q, v.val[2]), q += 16;
    vst1q_u8(q, v.val[3]);
}

/* Order keys of 4 elements in 32-bit lanes (the semantics page's order; NaN
 * is 0xffffffff, above every other float key): types of at most 4 bytes. */
static inline uint32x4_t edmli_neon_keys_f32(uint32x4_t u)
{
    const uint32x4_t sign = vdupq_n_u32(0x80000000u);
    uint32x4_t negzero = vceqq_u32(u, sign);
    u = vbicq_u32(u, negzero); /* -0 -> +0 */
    uint32x4_t isnan = vcgtq_u32(vbicq_u32(u, sign), vdupq_n_u32(0x7f800000u));
    uint32x4_t neg = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(u), 31));
    uint32x4_t key = veorq_u32(u, vorrq_u32(neg, sign)); /* neg: ~u, pos: u | sign */
    return vorrq_u32(key, isnan);
}

static inline uint32x4_t edmli_neon_keys_f16(uint16x4_t h)
{
    uint32x4_t u = vmovl_u16(h);
    const uint32x4_t sign = vdupq_n_u32(0x8000u);
    uint32x4_t negzero = vceqq_u32(u, sign);
    u = vbicq_u32(u, negzero);
    uint32x4_t isnan = vcgtq_u32(vbicq_u32(u, sign), vdupq_n_u32(0x7c00u));
    uint32x4_t neg = vtstq_u32(u, sign);
    uint32x4_t key = vbslq_u32(neg, veorq_u32(u, vdupq_n_u32(0xffffu)), vorrq_u32(u, sign));
    return vorrq_u32(key, isnan);
}

/* The key of the element at p: edmli_keys_for's key, which fits 32 bits. */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_key1(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    uint32_t u = 0;
    memcpy(&u, p, edmli_type_size(t)); /* little-endian: the element, zero-extended */
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32:
        if ((u & 0x7fffffffu) > 0x7f800000u) return UINT32_MAX;
        if (u == 0x80000000u) u = 0;
        return (u & 0x80000000u) ? ~u : u | 0x80000000u;
    case EDML_TENSOR_DATA_TYPE_FLOAT16:
        if ((u & 0x7fffu) > 0x7c00u) return UINT32_MAX;
        if (u == 0x8000u) u = 0;
        return (u & 0x8000u) ? ~u & 0xffffu : u | 0x8000u;
    case EDML_TENSOR_DATA_TYPE_INT32: return u ^ 0x80000000u;
    case EDML_TENSOR_DATA_TYPE_INT16: return u ^ 0x8000u;
    case EDML_TENSOR_DATA_TYPE_INT8: return u ^ 0x80u;
    default: return u;
    }
}

/* Loads 4 consecutive elements of type t as 32-bit keys. */
static inline uint32x4_t edmli_neon_load_keys(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return edmli_neon_keys_f32(vld1q_u32((const uint32_t *)(const void *)p));
    case EDML_TENSOR_DATA_TYPE_UINT32: return vld1q_u32((const uint32_t *)(const void *)p);
    case EDML_TENSOR_DATA_TYPE_INT32:
        return veorq_u32(vld1q_u32((const uint32_t *)(const void *)p), vdupq_n_u32(0x80000000u));
    case EDML_TENSOR_DATA_TYPE_FLOAT16: return edmli_neon_keys_f16(vld1_u16((const uint16_t *)(const void *)p));
    case EDML_TENSOR_DATA_TYPE_UINT16: return vmovl_u16(vld1_u16((const uint16_t *)(const void *)p));
    case EDML_TENSOR_DATA_TYPE_INT16:
        return vmovl_u16(veor_u16(vld1_u16((const uint16_t *)(const void *)p), vdup_n_u16(0x8000u)));
    default: {
        /* 8-bit: 4 bytes through one 32-bit lane */
        uint32_t w;
        memcpy(&w, p, 4);
        uint8x8_t b = vreinterpret_u8_u32(vdup_n_u32(w));
        if (t == EDML_TENSOR_DATA_TYPE_INT8) b = veor_u8(b, vdup_n_u8(0x80u));
        return vmovl_u16(vget_low_u16(vmovl_u8(b)));
    }
    }
}

/* The types whose keys fit 32-bit lanes, as X(suffix, EDML_TENSOR_DATA_TYPE_
 * name): the kernels are specialised for each, so that the key conversion is
 * straight-line code. */
#define EDMLI_NEON_KEY32_BUT_F32(X) \
    X(f16, FLOAT16) X(u32, UINT32) X(i32, INT32) X(u16, UINT16) X(i16, INT16) X(u8, UINT8) X(i8, INT8)
#define EDMLI_NEON_KEY32_TYPES(X) X(f32, FLOAT32) EDMLI_NEON_KEY32_BUT_F32(X)

/* Types whose keys fit 32-bit lanes. */
static inline bool edmli_neon_key32(EDML_TENSOR_DATA_TYPE t) { return edml_data_type_size(t) <= 4; }

/* 64-bit keys converted at a time (256 bytes of a worker's frame). */
#define EDMLI_NEON_WIDE_CHUNK 32u

/* a > b, unsigned 64-bit lanes (ARMv7 has no 64-bit compare: a saturating
 * difference is nonzero exactly where a > b) */
static inline uint64x2_t edmli_neon_gt_u64(uint64x2_t a, uint64x2_t b)
{
#if defined(__aarch64__)
    return vcgtq_u64(a, b);
#else
    uint32x4_t z = vceqq_u32(vreinterpretq_u32_u64(vqsubq_u64(a, b)), vdupq_n_u32(0));
    z = vandq_u32(z, vrev64q_u32(z));
    return vreinterpretq_u64_u32(vmvnq_u32(z));
#endif
}

/* 64-bit elements, 16 a block: eight vectors folded as a tree by OP, each
 * F(v) of the vector at element v. */
#define EDMLI_NEON_TREE8(OP, F) OP(OP(OP(F(0), F(2)), OP(F(4), F(6))), OP(OP(F(8), F(10)), OP(F(12), F(14))))

/* Lanes where x is strictly better than b (INT64 signed, UINT64 unsigned;
 * ArgMin: less). AArch64 compares 64-bit lanes itself; ARMv7 compares keys
 * (the sign bit flipped, every bit for ArgMin) through a saturating
 * difference (edmli_neon_gt_u64). */
EDMLI_ALWAYS_INLINE uint64x2_t edmli_neon_better64(uint64x2_t x, uint64x2_t b, uint64x2_t inv, bool sgn, bool is_min)
{
#if defined(__aarch64__) || !defined(__ARM_NEON)
    (void)inv;
    if (sgn) {
        const int64x2_t sx = vreinterpretq_s64_u64(x), sb = vreinterpretq_s64_u64(b);
        return is_min ? vcltq_s64(sx, sb) : vcgtq_s64(sx, sb);
    }
    return is_min ? vcltq_u64(x, b) : vcgtq_u64(x, b);
#else
    (void)sgn, (void)is_min;
    return edmli_neon_gt_u64(veorq_u64(x, inv), veorq_u64(b, inv));
#endif
}

/* n elements of type dt at p (step bytes apart) as the 64-bit keys of
 * docs/semantics.md: packed INT64 and UINT64 straight from their loads (the
 * sign bit flipped), the others by `keys` (edmli_keys_for(dt)). */
static inline void edmli_neon_keys64(EDML_TENSOR_DATA_TYPE dt, edmli_keys_fn keys, const uint8_t *p, int64_t step,
                                     uint32_t n, uint64_t *k)
{
    const bool i64 = dt == EDML_TENSOR_DATA_TYPE_INT64;
    if (step != 8 || (!i64 && dt != EDML_TENSOR_DATA_TYPE_UINT64)) {
        keys(p, step, n, k);
        return;
    }
    const uint64x2_t flip = vdupq_n_u64(i64 ? 0x8000000000000000u : 0);
    uint32_t i = 0;
    for (; i + 2 <= n; i += 2)
        vst1q_u64(k + i, veorq_u64(vld1q_u64((const uint64_t *)(const void *)(p + 8 * i)), flip));
    if (i < n) keys(p + 8 * i, 8, n - i, k + i);
}

edml_status edmli_neon_topk(const edml_operator *op, const edmli_exec *ex);
void edmli_neon_topk_path(const edml_operator *op, edmli_cost_path *out);
/* 64-bit keys (neon_topk_wide.c): what the 32-bit kernels do not take. */
edml_status edmli_neon_topk_wide(const edml_operator *op, const edmli_exec *ex);
uint64_t edmli_neon_topk_wide_temp_bytes(const edml_operator *op);
/* Scratch: a heap a part, or the threshold and buckets of a large K. */
uint64_t edmli_neon_topk_temp_bytes(const edml_operator *op);
/* A large K along few long packed rows by threshold and buckets
 * (neon_topk_select.c): whether it takes the operator, its scratch, and
 * one row (done false, nothing written, where its threshold does not hold). */
bool edmli_neon_topk_select_takes(const edml_operator *op);
uint64_t edmli_neon_topk_select_temp_bytes(const edml_operator *op);
edml_status edmli_neon_topk_select_row(const edml_operator *op, const edmli_exec *ex, const uint8_t *in, uint8_t *val,
                                       uint8_t *idx, bool *done);
edml_status edmli_neon_argreduce(const edml_operator *op, const edmli_exec *ex);
void edmli_neon_argreduce_path(const edml_operator *op, edmli_cost_path *out);

/* An ArgMin/ArgMax as the NEON kernels see it: the plan's layout. */
typedef struct edmli_neon_arg {
    const edml_operator *op;
    const edmli_tensor *in, *out;
    uint32_t mask; /* bit d: dim d of `in` is reduced */
} edmli_neon_arg;
static inline edmli_neon_arg edmli_neon_arg_view(const edml_operator *op)
{
    const edmli_argreduce_plan *p = &op->plan.argreduce;
    return (edmli_neon_arg){op, &p->in, &p->out, p->mask};
}
/* 8-bit keys: unsigned order, ArgMin's reversed (no NaN among integers). */
static inline uint8x16_t edmli_neon_order8(uint8x16_t v, uint8x16_t flip, bool is_float)
{
    (void)is_float;
    return veorq_u8(v, flip);
}
static inline uint16x8_t edmli_neon_order16(uint16x8_t v, uint16x8_t flip, bool is_float)
{
    (void)is_float;
    return veorq_u16(v, flip);
}

/* 32-bit keys: integers as the 8- and 16-bit ones; floats as the reference
 * orders them (-0 as +0, a NaN all ones, kept on top by ArgMin). */
static inline uint32x4_t edmli_neon_order32(uint32x4_t v, uint32x4_t flip, bool is_float)
{
    if (!is_float) return veorq_u32(v, flip);
    const uint32x4_t mag = vandq_u32(v, vdupq_n_u32(0x7fffffffu));
    const uint32x4_t neg = vcgtq_u32(v, mag), nan = vcgtq_u32(mag, vdupq_n_u32(0x7f800000u));
    const uint32x4_t zero = vceqq_u32(mag, vdupq_n_u32(0));
    /* positive (and either zero): bits | sign; negative: ~bits */
    uint32x4_t k = vbslq_u32(vbicq_u32(neg, zero), vmvnq_u32(v), vorrq_u32(mag, vdupq_n_u32(0x80000000u)));
    k = veorq_u32(k, flip);   /* ArgMin: the order reversed */
    return vorrq_u32(k, nan); /* every NaN all ones, on top either way */
}

/* The first (or last) set lane of a 4-lane mask; 4 where none is. */
static inline uint32_t edmli_neon_lane32(uint32x4_t m, bool last)
{
    const uint64_t w = vget_lane_u64(vreinterpret_u64_u16(vmovn_u32(m)), 0);
    return !w ? 4 : (last ? 63u - (uint32_t)__builtin_clzll(w) : (uint32_t)__builtin_ctzll(w)) / 16u;
}

/* The first (last) set lane of a mask of 16 or 8 lanes (edmli_neon_lane32: 4); `lanes` for none. */
static inline uint32_t edmli_neon_lane8(uint8x16_t m, bool last)
{
    const uint64_t w = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0);
    return !w ? 16 : (last ? 63u - (uint32_t)__builtin_clzll(w) : (uint32_t)__builtin_ctzll(w)) / 4u;
}
static inline uint32_t edmli_neon_lane16(uint16x8_t m, bool last)
{
    const uint64_t w = vget_lane_u64(vreinterpret_u64_u8(vmovn_u16(m)), 0);
    return !w ? 8 : (last ? 63u - (uint32_t)__builtin_clzll(w) : (uint32_t)__builtin_ctzll(w)) / 8u;
}

/* The greatest lane (AArch64 has a horizontal max; ARMv7 folds pairs). */
static inline uint32_t edmli_neon_hmax8(uint8x16_t v)
{
#if defined(__aarch64__)
    return vmaxvq_u8(v);
#else
    uint8x8_t f = vpmax_u8(vget_low_u8(v), vget_high_u8(v));
    f = vpmax_u8(f, f), f = vpmax_u8(f, f), f = vpmax_u8(f, f);
    return vget_lane_u8(f, 0);
#endif
}
static inline uint32_t edmli_neon_hmax16(uint16x8_t v)
{
#if defined(__aarch64__)
    return vmaxvq_u16(v);
#else
    uint16x4_t f = vpmax_u16(vget_low_u16(v), vget_high_u16(v));
    f = vpmax_u16(f, f), f = vpmax_u16(f, f);
    return vget_lane_u16(f, 0);
#endif
}
static inline uint32_t edmli_neon_hmax32(uint32x4_t v)
{
#if defined(__aarch64__)
    return vmaxvq_u32(v);
#else
    uint32x2_t f = vpmax_u32(vget_low_u32(v), vget_high_u32(v));
    return vget_lane_u32(vpmax_u32(f, f), 0);
#endif
}

/* Along a short packed innermost dim, rows packed (neon_argreduce_short.c):
 * whether it takes the operator, and the kernel. */
bool edmli_neon_argreduce_short_takes(const edmli_neon_arg *v);
edml_status edmli_neon_argreduce_short(const edmli_neon_arg *v, const edmli_exec *ex);
/* Down 2 or 3 packed columns of 8-, 16- or 32-bit elements
 * (neon_argreduce_cols.c): whether it takes the operator, the kernel, and
 * its scratch (the parts' bests). */
bool edmli_neon_argreduce_cols_takes(const edmli_neon_arg *v);
edml_status edmli_neon_argreduce_cols(const edmli_neon_arg *v, const edmli_exec *ex);
uint64_t edmli_neon_argreduce_cols_temp_bytes(const edml_operator *op);
/* Packed runs of 8-, 16- and 32-bit integers a block of 128 bytes at a time
 * (neon_argreduce_blocks.c): elements [i0, i1) of the run at p (flat index
 * `flat` at element 0) offered to a best so far, whose key is
 * edmli_neon_key1's (ArgMin's reversed); NULL for the other types. */
typedef struct edmli_neon_run_best {
    uint32_t key, idx;
    bool any;
} edmli_neon_run_best;
typedef void (*edmli_neon_run_fn)(const uint8_t *p, uint32_t i0, uint32_t i1, uint32_t flat, edmli_neon_run_best *b);
edmli_neon_run_fn edmli_neon_blocks_for(EDML_TENSOR_DATA_TYPE t, bool is_min, bool last);
/* Packed runs of n (at least 1) 64-bit elements a block of 16 at a time:
 * the index of the best (INT64 and UINT64; FLOAT64 where float compares
 * are exact, not on ARMv7). */
bool edmli_neon_blocks64_takes(EDML_TENSOR_DATA_TYPE t);
uint64_t edmli_neon_blocks64(const uint8_t *p, uint64_t n, EDML_TENSOR_DATA_TYPE t, bool is_min, bool last);
/* Any type, any layout, 64-bit keys (neon_argreduce_wide.c): what the
 * 32-bit kernels do not take. */
edml_status edmli_neon_argreduce_wide(const edmli_neon_arg *v, const edmli_exec *ex);
uint64_t edmli_neon_argreduce_wide_temp_bytes(const edml_operator *op);
/* Scratch of the parts' bests when a reduction is split. */
uint64_t edmli_neon_argreduce_temp_bytes(const edml_operator *op);
edml_status edmli_neon_elementwise_if(const edml_operator *op, const edmli_exec *ex);
void edmli_neon_elementwise_if_path(const edml_operator *op, edmli_cost_path *out);
/* A condition of one byte a pixel over its packed channels, pixels of up
 * to 16 bytes (neon_if_pixels.c): whether it takes the operator, the kernel. */
bool edmli_neon_if_pixels_takes(const edml_operator *op);
edml_status edmli_neon_if_pixels(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_neon_gather_nd(const edml_operator *op, const edmli_exec *ex);
void edmli_neon_gather_nd_path(const edml_operator *op, edmli_cost_path *out);

#endif
