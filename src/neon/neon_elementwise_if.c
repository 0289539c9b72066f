/* ElementWiseIf, NEON: vbsl on masks widened from the condition bytes.
 * Packed runs go 128 bytes of output a step (loads and stores of 4
 * registers, each 16 condition bytes tested once and widened by sign
 * extension); zero-stride (broadcast) inputs are splatted, 16 bytes a step.
 * A condition of one byte a pixel over a few packed channels (an NHWC
 * mask, pixels of up to 16 bytes) goes 16 pixels a step, the 16 masks
 * spread over the pixels' bytes by table lookups (neon_if_pixels).
 * Runs that are neither packed nor broadcast take the scalar loop. */
#include "neon.h"

/* A run of n elements: output packed; each input packed or broadcast. */
typedef struct edmli_neon_if_run {
    const uint8_t *c, *a, *b;
    uint8_t *o;
    bool cb, ab, bb; /* broadcast (stride 0) */
} edmli_neon_if_run;

/* 4 condition bytes -> 4 x 32-bit masks */
static inline uint32x4_t edmli_neon_cmask4(const uint8_t *c, bool bcast)
{
    uint32_t w;
    if (bcast)
        w = *c ? 0x01010101u : 0;
    else
        memcpy(&w, c, 4);
    uint32x4_t x = vmovl_u16(vget_low_u16(vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(w)))));
    return vtstq_u32(x, x);
}

/* Masks are of the false lanes (condition byte 0: one compare with zero),
 * so that vbsl picks B there and A elsewhere. */

/* 16 condition bytes -> masks of 16 elements of 4 bytes, by sign extension */
EDMLI_ALWAYS_INLINE uint8x16x4_t edmli_neon_masks16x4(uint8x16_t c)
{
    const int8x16_t m8 = vreinterpretq_s8_u8(vceqq_u8(c, vdupq_n_u8(0)));
    const int16x8_t lo = vmovl_s8(vget_low_s8(m8)), hi = vmovl_s8(vget_high_s8(m8));
    uint8x16x4_t m = {
        {vreinterpretq_u8_s32(vmovl_s16(vget_low_s16(lo))), vreinterpretq_u8_s32(vmovl_s16(vget_high_s16(lo))),
         vreinterpretq_u8_s32(vmovl_s16(vget_low_s16(hi))), vreinterpretq_u8_s32(vmovl_s16(vget_high_s16(hi)))}};
    return m;
}

/* 32 condition bytes -> masks of 32 elements of 2 bytes */
EDMLI_ALWAYS_INLINE uint8x16x4_t edmli_neon_masks32x2(uint8x16_t c0, uint8x16_t c1)
{
    const int8x16_t m0 = vreinterpretq_s8_u8(vceqq_u8(c0, vdupq_n_u8(0)));
    const int8x16_t m1 = vreinterpretq_s8_u8(vceqq_u8(c1, vdupq_n_u8(0)));
    uint8x16x4_t m = {
        {vreinterpretq_u8_s16(vmovl_s8(vget_low_s8(m0))), vreinterpretq_u8_s16(vmovl_s8(vget_high_s8(m0))),
         vreinterpretq_u8_s16(vmovl_s8(vget_low_s8(m1))), vreinterpretq_u8_s16(vmovl_s8(vget_high_s8(m1)))}};
    return m;
}

/* 64 bytes of output: 64 / es elements, 64 / es condition bytes; every
 * pointer moved past what it gave. */
EDMLI_ALWAYS_INLINE void edmli_neon_if_64(const uint8_t **c, const uint8_t **a, const uint8_t **b, uint8_t **o,
                                          uint32_t es)
{
    uint8x16x4_t m;
    if (es == 1) {
        m = edmli_neon_ld64(c);
        const uint8x16_t z = vdupq_n_u8(0);
        m.val[0] = vceqq_u8(m.val[0], z), m.val[1] = vceqq_u8(m.val[1], z);
        m.val[2] = vceqq_u8(m.val[2], z), m.val[3] = vceqq_u8(m.val[3], z);
    } else if (es == 2) {
        m = edmli_neon_masks32x2(vld1q_u8(*c), vld1q_u8(*c + 16));
        *c += 32;
    } else {
        m = edmli_neon_masks16x4(vld1q_u8(*c));
        *c += 16;
    }
    const uint8x16x4_t va = edmli_neon_ld64(a), vb = edmli_neon_ld64(b);
    uint8x16x4_t vo = {{vbslq_u8(m.val[0], vb.val[0], va.val[0]), vbslq_u8(m.val[1], vb.val[1], va.val[1]),
                        vbslq_u8(m.val[2], vb.val[2], va.val[2]), vbslq_u8(m.val[3], vb.val[3], va.val[3])}};
    edmli_neon_st64(o, vo);
}

#if defined(__ARM_NEON) && !defined(__aarch64__)
/* ARMv7, 4-byte elements, 8 a call: A, with B's bits inserted (VBIT) where
 * the masks (of the false lanes) are set. ARMv7's GCC has no intrinsic
 * that loads or stores 32 bytes at once and spills the pair that VLD2/VST2
 * would need, so this is written out: VLD1 and VST1 of 4 registers, which
 * move the pointers themselves. */
static inline void edmli_neon_if_8x4(const uint32_t **a, const uint32_t **b, uint32_t **o, uint8x16_t m0, uint8x16_t m1)
{
    __asm__ volatile("vld1.32 {d16-d19}, [%0]!\n\t"
                     "vld1.32 {d20-d23}, [%1]!\n\t"
                     "vbit q8, q10, %q3\n\t"
                     "vbit q9, q11, %q4\n\t"
                     "vst1.32 {d16-d19}, [%2]!"
                     : "+r"(*a), "+r"(*b), "+r"(*o)
                     : "w"(m0), "w"(m1)
                     : "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "memory");
}

/* 32 elements of 4 bytes a step. */
static uint32_t edmli_neon_if_packed_v7(const edmli_neon_if_run *r, uint32_t n)
{
    const uint8_t *c = r->c;
    const uint32_t *a = (const uint32_t *)(const void *)r->a, *b = (const uint32_t *)(const void *)r->b;
    uint32_t *o = (uint32_t *)(void *)r->o;
    uint32_t i = 0;
    for (; i + 32 <= n; i += 32, c += 32) {
        const uint8x16x4_t lo = edmli_neon_masks16x4(vld1q_u8(c)), hi = edmli_neon_masks16x4(vld1q_u8(c + 16));
        edmli_neon_if_8x4(&a, &b, &o, lo.val[0], lo.val[1]);
        edmli_neon_if_8x4(&a, &b, &o, lo.val[2], lo.val[3]);
        edmli_neon_if_8x4(&a, &b, &o, hi.val[0], hi.val[1]);
        edmli_neon_if_8x4(&a, &b, &o, hi.val[2], hi.val[3]);
    }
    return i;
}
#endif

/* A packed run of elements of es bytes: 128 bytes of output a step. */
EDMLI_ALWAYS_INLINE uint32_t edmli_neon_if_packed(const edmli_neon_if_run *r, uint32_t n, uint32_t es)
{
#if defined(__ARM_NEON) && !defined(__aarch64__)
    if (es == 4) return edmli_neon_if_packed_v7(r, n);
#endif
    const uint32_t step = 128 / es, steps = n / step;
    const uint8_t *c = r->c, *a = r->a, *b = r->b;
    uint8_t *o = r->o;
    for (uint32_t s = 0; s < steps; s++) {
        edmli_neon_if_64(&c, &a, &b, &o, es);
        edmli_neon_if_64(&c, &a, &b, &o, es);
    }
    return steps * step;
}

static uint32_t edmli_neon_if_1(const edmli_neon_if_run *r, uint32_t n)
{
    uint32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16_t c = r->cb ? vdupq_n_u8(*r->c) : vld1q_u8(r->c + i);
        uint8x16_t a = r->ab ? vdupq_n_u8(*r->a) : vld1q_u8(r->a + i);
        uint8x16_t b = r->bb ? vdupq_n_u8(*r->b) : vld1q_u8(r->b + i);
        vst1q_u8(r->o + i, vbslq_u8(vtstq_u8(c, c), a, b));
    }
    return i;
}

static uint32_t edmli_neon_if_2(const edmli_neon_if_run *r, uint32_t n)
{
    uint32_t i = 0;
    const uint16_t *a = (const uint16_t *)(const void *)r->a, *b = (const uint16_t *)(const void *)r->b;
    uint16_t *o = (uint16_t *)(void *)r->o;
    for (; i + 8 <= n; i += 8) {
        uint16x8_t c = vmovl_u8(r->cb ? vdup_n_u8(*r->c) : vld1_u8(r->c + i));
        uint16x8_t va = r->ab ? vdupq_n_u16(*a) : vld1q_u16(a + i);
        uint16x8_t vb = r->bb ? vdupq_n_u16(*b) : vld1q_u16(b + i);
        vst1q_u16(o + i, vbslq_u16(vtstq_u16(c, c), va, vb));
    }
    return i;
}

static uint32_t edmli_neon_if_4(const edmli_neon_if_run *r, uint32_t n)
{
    uint32_t i = 0;
    const uint32_t *a = (const uint32_t *)(const void *)r->a, *b = (const uint32_t *)(const void *)r->b;
    uint32_t *o = (uint32_t *)(void *)r->o;
    for (; i + 4 <= n; i += 4) {
        uint32x4_t m = edmli_neon_cmask4(r->c + (r->cb ? 0 : i), r->cb);
        uint32x4_t va = r->ab ? vdupq_n_u32(*a) : vld1q_u32(a + i);
        uint32x4_t vb = r->bb ? vdupq_n_u32(*b) : vld1q_u32(b + i);
        vst1q_u32(o + i, vbslq_u32(m, va, vb));
    }
    return i;
}

/* Packed runs: 128 bytes a step, then 16 bytes a step (the scalar loop takes what is left) */
#define EDMLI_NEON_IF_PACKED(es)                                                                                     \
    static uint32_t edmli_neon_if_packed_##es(const edmli_neon_if_run *r, uint32_t n)                                \
    {                                                                                                                \
        const uint32_t i = edmli_neon_if_packed(r, n, es);                                                           \
        const edmli_neon_if_run rest = {r->c + i, r->a + i * es, r->b + i * es, r->o + i * es, false, false, false}; \
        return i + edmli_neon_if_##es(&rest, n - i);                                                                 \
    }
EDMLI_NEON_IF_PACKED(1)
EDMLI_NEON_IF_PACKED(2)
EDMLI_NEON_IF_PACKED(4)

static uint32_t edmli_neon_if_8(const edmli_neon_if_run *r, uint32_t n)
{
    uint32_t i = 0;
    const uint64_t *a = (const uint64_t *)(const void *)r->a, *b = (const uint64_t *)(const void *)r->b;
    uint64_t *o = (uint64_t *)(void *)r->o;
    for (; i + 4 <= n; i += 4) {
        int32x4_t m = vreinterpretq_s32_u32(edmli_neon_cmask4(r->c + (r->cb ? 0 : i), r->cb));
        uint64x2_t m0 = vreinterpretq_u64_s64(vmovl_s32(vget_low_s32(m)));
        uint64x2_t m1 = vreinterpretq_u64_s64(vmovl_s32(vget_high_s32(m)));
        uint64x2_t a0 = r->ab ? vdupq_n_u64(*a) : vld1q_u64(a + i), a1 = r->ab ? a0 : vld1q_u64(a + i + 2);
        uint64x2_t b0 = r->bb ? vdupq_n_u64(*b) : vld1q_u64(b + i), b1 = r->bb ? b0 : vld1q_u64(b + i + 2);
        vst1q_u64(o + i, vbslq_u64(m0, a0, b0));
        vst1q_u64(o + i + 2, vbslq_u64(m1, a1, b1));
    }
    return i;
}

/* What every part shares: the runs' functions, the strides, the odometer
 * over the outer dims, the tensors. */
typedef struct edmli_neon_if_job {
    uint32_t (*run)(const edmli_neon_if_run *, uint32_t);
    edmli_elementwise_if_run_fn tail;
    int64_t st[4];
    bool vector, cb, ab, bb;
    uint32_t n; /* elements of a run (the innermost dim) */
    uint64_t elements;
    uint32_t parts;
    edmli_odo outer;
    const edmli_exec *ex;
} edmli_neon_if_job;

/* Elements [begin, end) in row-major order: whole runs and the partial ones
 * at both ends, each vectorized as a run of its own. */
static void edmli_neon_if_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_if_job *j = (const edmli_neon_if_job *)arg;
    uint64_t pos, end;
    edmli_cpu_range(j->elements, j->parts, part, 64, &pos, &end);
    if (pos >= end) return;
    edmli_odo o = j->outer;
    edmli_odo_seek(&o, pos / j->n);
    uint32_t col = (uint32_t)(pos % j->n);
    const uint8_t *in0 = j->ex->in[0], *in1 = j->ex->in[1], *in2 = j->ex->in[2];
    for (; pos < end; edmli_odo_next(&o), col = 0) {
        const uint32_t cnt = (uint32_t)(end - pos < j->n - col ? end - pos : j->n - col);
        const uint8_t *c = in0 + o.off[0] + col * j->st[0], *a = in1 + o.off[1] + col * j->st[1],
                      *b = in2 + o.off[2] + col * j->st[2];
        uint8_t *out = j->ex->out[0] + o.off[3] + col * j->st[3];
        uint32_t i = 0;
        if (j->vector) {
            edmli_neon_if_run rr = {c, a, b, out, j->cb, j->ab, j->bb};
            i = j->run(&rr, cnt);
        }
        /* the tail, or a strided run */
        j->tail(c + i * j->st[0], a + i * j->st[1], b + i * j->st[2], out + i * j->st[3], cnt - i, j->st);
        pos += cnt;
    }
}

/* Pixels where a condition is broadcast along a short innermost dim, else
 * runs; parts over elements (pixels) either way. */
void edmli_neon_elementwise_if_path(const edml_operator *op, edmli_cost_path *out)
{
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    const uint32_t es = op->inputs[1].elem_size, n = p->sizes[p->rank - 1] ? p->sizes[p->rank - 1] : 1u;
    const uint64_t elements = op->outputs[0].elem_count, pixels = elements / n;
    const bool pix = edmli_neon_if_pixels_takes(op);
    out->path = pix ? EDMLI_COST_PATH_NEON_IF_PIXELS : EDMLI_COST_PATH_NEON_IF_RUNS;
    out->parts = pix ? edmli_cpu_parts(op, pixels, pixels * (3u * n * es + 1u))
                     : edmli_cpu_parts(op, elements, elements * (3u * es + 1u));
}

edml_status edmli_neon_elementwise_if(const edml_operator *op, const edmli_exec *ex)
{
    if (edmli_neon_if_pixels_takes(op)) return edmli_neon_if_pixels(op, ex);
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    const uint32_t es = op->inputs[1].elem_size, last = p->rank - 1;
    const uint32_t sc = p->strides[0][last], sa = p->strides[1][last], sb = p->strides[2][last],
                   so = p->strides[3][last];
    const bool packed = sc == 1 && sa == 1 && sb == 1;
    edmli_neon_if_job j = {
        .run = es == 1   ? (packed ? edmli_neon_if_packed_1 : edmli_neon_if_1)
               : es == 2 ? (packed ? edmli_neon_if_packed_2 : edmli_neon_if_2)
               : es == 4 ? (packed ? edmli_neon_if_packed_4 : edmli_neon_if_4)
                         : edmli_neon_if_8,
        .tail = edmli_elementwise_if_run_for(es),
        .st = {sc, (int64_t)sa * es, (int64_t)sb * es, (int64_t)so * es},
        .vector = so == 1 && sc <= 1 && sa <= 1 && sb <= 1,
        .cb = sc == 0,
        .ab = sa == 0,
        .bb = sb == 0,
        .n = p->sizes[last],
        .ex = ex,
    };
    edmli_elementwise_if_outer(op, &j.outer);
    j.elements = edmli_odo_count(&j.outer) * j.n;
    j.parts = edmli_cpu_parts(op, j.elements, j.elements * (3u * es + 1u));
    return edmli_cpu_parallel(ex, j.parts, edmli_neon_if_part, &j);
}
