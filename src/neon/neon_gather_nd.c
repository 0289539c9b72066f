/* GatherND on NEON: the CPU's walk over index positions (src/cpu), cut into
 * parts, with two things of its own. On ARMv7 packed rows are copied 128
 * bytes a step through NEON registers, not by the C library's memcpy, which
 * copies through integer registers there (AArch64's keeps memcpy: it copies
 * through q registers already, as fast in instructions).
 * Single elements or packed slices of up to 64 bytes (a power of two: a
 * box's 4 floats) addressed by packed tuples of indices of any of the four
 * index types (a point gather) take a loop of their own: packed tuples of
 * one or two coordinates four at a time (de-interleaved, wrapped, tested
 * and turned into offsets in vectors; 4-byte elements gathered into one
 * vector), others one at a time, the tuple read, wrapped and tested in
 * registers; each slice copied by its fixed size. The first index out of
 * range hands the rest of the part to the CPU's walk, which clamps it and
 * reports it as the reference does. */
#include "neon.h"

#if defined(__ARM_NEON) && !defined(__aarch64__)
/* ARMv7: 128 bytes a step in four VLD1 and four VST1 of four registers
 * each (GCC has no multi-register load intrinsic there), then 16-byte
 * vectors, then the bytes. */
static void edmli_neon_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    size_t blocks = n / 128, i = n & ~(size_t)127;
    if (blocks)
        __asm__ volatile("1:\n\t"
                         "vld1.8 {d16-d19}, [%1]!\n\t"
                         "vld1.8 {d20-d23}, [%1]!\n\t"
                         "vld1.8 {d24-d27}, [%1]!\n\t"
                         "vld1.8 {d28-d31}, [%1]!\n\t"
                         "subs %2, %2, #1\n\t"
                         "vst1.8 {d16-d19}, [%0]!\n\t"
                         "vst1.8 {d20-d23}, [%0]!\n\t"
                         "vst1.8 {d24-d27}, [%0]!\n\t"
                         "vst1.8 {d28-d31}, [%0]!\n\t"
                         "bne 1b"
                         : "+r"(d), "+r"(s), "+r"(blocks)
                         :
                         : "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d25", "d26", "d27", "d28",
                           "d29", "d30", "d31", "cc", "memory");
    d = (uint8_t *)dst, s = (const uint8_t *)src;
    for (; i + 16 <= n; i += 16) vst1q_u8(d + i, vld1q_u8(s + i));
    if (i < n) memcpy(d + i, s + i, n - i);
}
#define EDMLI_NEON_COPY edmli_neon_copy
#else
#define EDMLI_NEON_COPY NULL /* memcpy: LDP/STP of q registers in AArch64's C libraries */
#endif

/* The bytes a tuple copies where a part may take the point loop (else 0):
 * one loop over positions (no batch dims), a slice of one element or
 * packed in input and output, of a power of two up to 64 bytes. */
static uint32_t edmli_neon_point_bytes(const edml_operator *op)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    if (g->outer_rank != 1 || g->outer_in_strides[0] != 0 || g->slice_rank > 1) return 0;
    const uint32_t n = g->slice_rank ? g->slice_sizes[0] : 1, b = n * op->inputs[0].elem_size;
    if (g->slice_rank && (g->slice_in_strides[0] != 1 || g->slice_out_strides[0] != 1)) return 0;
    return b <= 64 && (b & (b - 1)) == 0 ? b : 0;
}

/* Positions [pos, end) of a point gather with isz-byte indices (signed:
 * negative ones count from the end; unsigned: never), es-byte elements and
 * sb-byte slices;
 * returns the first position whose tuple is out of range (end when none
 * is), having copied the elements of those before it. */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_points(const edmli_gather_job *j, uint64_t pos, uint64_t end, uint32_t isz,
                                               bool sgn, uint32_t sb)
{
    const uint32_t es = j->op->inputs[0].elem_size;
    const edmli_gather_nd_plan *g = &j->op->plan.gather_nd;
    const uint32_t tuple = g->tuple;
    int64_t size[EDMLI_MAX_DIMS], stride[EDMLI_MAX_DIMS];
    for (uint32_t c = 0; c < tuple; c++) size[c] = g->coord_sizes[c], stride[c] = (int64_t)g->coord_strides[c] * es;
    const size_t istep = (size_t)g->outer_idx_strides[0] * isz, cstep = (size_t)g->tuple_stride * isz;
    const size_t ostep = (size_t)g->outer_out_strides[0] * es; /* output strides in elements */
    const uint8_t *ix = j->ex->in[1] + pos * istep, *in = j->ex->in[0];
    uint8_t *out = j->ex->out[0] + pos * ostep;
    for (; pos < end; pos++, ix += istep, out += ostep) {
        uint64_t off = 0, bad = 0; /* unsigned: a bad tuple's offset may wrap, unused */
        for (uint32_t c = 0; c < tuple; c++) {
            int64_t v;
            if (isz == 4 && sgn) {
                int32_t w;
                memcpy(&w, ix + c * cstep, 4);
                v = w;
            } else if (isz == 4) {
                uint32_t w;
                memcpy(&w, ix + c * cstep, 4);
                v = (int64_t)w;
            } else {
                memcpy(&v, ix + c * cstep, 8); /* unsigned above 2^63: negative, out of range either way */
            }
            if (sgn) v += v < 0 ? size[c] : 0; /* from the end; still negative: out of range */
            bad |= (uint64_t)v >= (uint64_t)size[c];
            off += (uint64_t)v * (uint64_t)stride[c];
        }
        if (bad) break;
        memcpy(out, in + (size_t)off, sb);
    }
    return pos;
}

/* Tuples of one or two coordinates, packed (the tuples too), packed
 * outputs, an input under 4 GiB: four tuples a step in vectors. */
static bool edmli_neon_points4_takes(const edml_operator *op, uint32_t isz, uint32_t sb)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const edmli_tensor *in = &op->inputs[0];
    return g->tuple <= 2 && (g->tuple == 1 || g->tuple_stride == 1) && g->outer_idx_strides[0] == g->tuple &&
           (uint64_t)g->outer_out_strides[0] * in->elem_size == sb && in->elem_count * in->elem_size <= UINT32_MAX &&
           isz != 0;
}

/* One 64-bit coordinate of four tuples as its low and high words (lanes):
 * the low words, wrapped from the end where signed; lanes whose value is
 * not a 32-bit one (the high word not the low's sign, or not zero) set in
 * *bad (a large size's index may be sent the one-at-a-time way). */
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_coord64(uint32x4_t lo, uint32x4_t hi, bool sgn, uint32_t size,
                                                  uint32x4_t *bad)
{
    if (!sgn) {
        *bad = vorrq_u32(*bad, hi);
        return lo;
    }
    const uint32x4_t s = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(lo), 31));
    *bad = vorrq_u32(*bad, vmvnq_u32(vceqq_u32(hi, s)));
    return vaddq_u32(lo, vandq_u32(s, vdupq_n_u32(size)));
}

/* Four tuples of two 64-bit coordinates: the low and the high words of
 * the first, then of the second (VLD4; through SIMDe, whose VLD4 moves an
 * element at a time, four loads unzipped). */
static inline uint32x4x4_t edmli_neon_ld4_u32(const uint32_t *p)
{
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
    return vld4q_u32(p);
#else
    const uint32x4_t a = vld1q_u32(p), b = vld1q_u32(p + 4), c = vld1q_u32(p + 8), d = vld1q_u32(p + 12);
    const uint32x4_t lab = vuzp1q_u32(a, b), hab = vuzp2q_u32(a, b), lcd = vuzp1q_u32(c, d), hcd = vuzp2q_u32(c, d);
    const uint32x4x4_t v = {{vuzp1q_u32(lab, lcd), vuzp1q_u32(hab, hcd), vuzp2q_u32(lab, lcd), vuzp2q_u32(hab, hcd)}};
    return v;
#endif
}

/* Four tuples' byte offsets into the input; false where one is out of range. */
EDMLI_ALWAYS_INLINE bool edmli_neon_offsets4(const uint8_t *ix, uint32_t t, uint32_t isz, bool sgn,
                                             const uint32_t size[2], const uint32_t stride[2], uint32x4_t *off)
{
    uint32x4_t c0, c1 = vdupq_n_u32(0), bad = vdupq_n_u32(0);
    if (isz == 8) { /* little-endian: low and high words apart by vld2/vld4 */
        const uint32_t *p = (const uint32_t *)(const void *)ix;
        if (t == 2) {
            const uint32x4x4_t v = edmli_neon_ld4_u32(p);
            c0 = edmli_neon_coord64(v.val[0], v.val[1], sgn, size[0], &bad);
            c1 = edmli_neon_coord64(v.val[2], v.val[3], sgn, size[1], &bad);
        } else {
            const uint32x4x2_t v = vld2q_u32(p);
            c0 = edmli_neon_coord64(v.val[0], v.val[1], sgn, size[0], &bad);
        }
    } else {
        const uint32_t *p = (const uint32_t *)(const void *)ix;
        if (t == 2) {
            const uint32x4x2_t v = vld2q_u32(p);
            c0 = v.val[0], c1 = v.val[1];
        } else {
            c0 = vld1q_u32(p);
        }
        if (sgn) {
            c0 = vaddq_u32(
                c0, vandq_u32(vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(c0), 31)), vdupq_n_u32(size[0])));
            c1 = vaddq_u32(
                c1, vandq_u32(vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(c1), 31)), vdupq_n_u32(size[1])));
        }
    }
    bad = vorrq_u32(bad, vorrq_u32(vcgeq_u32(c0, vdupq_n_u32(size[0])), vcgeq_u32(c1, vdupq_n_u32(size[1]))));
    *off = vmlaq_u32(vmulq_u32(c0, vdupq_n_u32(stride[0])), c1, vdupq_n_u32(stride[1]));
    return !edmli_neon_any_u32(bad);
}

/* Positions [pos, end) four at a time (edmli_neon_points4_takes): returns
 * where the rest goes one by one (the last few, or a group holding a
 * tuple out of range). */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_points4(const edmli_gather_job *j, uint64_t pos, uint64_t end, uint32_t isz,
                                                bool sgn, uint32_t sb)
{
    const edmli_gather_nd_plan *g = &j->op->plan.gather_nd;
    const uint32_t t = g->tuple, es = j->op->inputs[0].elem_size;
    const uint32_t size[2] = {g->coord_sizes[0], t == 2 ? g->coord_sizes[1] : 1};
    const uint32_t stride[2] = {g->coord_strides[0] * es, t == 2 ? g->coord_strides[1] * es : 0};
    const uint8_t *in = j->ex->in[0], *ix = j->ex->in[1] + pos * t * isz;
    uint8_t *out = j->ex->out[0] + pos * sb;
    for (; pos + 4 <= end; pos += 4, ix += 4 * t * isz, out += 4 * sb) {
        uint32x4_t off;
        if (!edmli_neon_offsets4(ix, t, isz, sgn, size, stride, &off)) break;
        if (sb == 4) {
            uint32x4_t v =
                vld1q_lane_u32((const uint32_t *)(const void *)(in + vgetq_lane_u32(off, 0)), vdupq_n_u32(0), 0);
            v = vld1q_lane_u32((const uint32_t *)(const void *)(in + vgetq_lane_u32(off, 1)), v, 1);
            v = vld1q_lane_u32((const uint32_t *)(const void *)(in + vgetq_lane_u32(off, 2)), v, 2);
            v = vld1q_lane_u32((const uint32_t *)(const void *)(in + vgetq_lane_u32(off, 3)), v, 3);
            vst1q_u8(out, vreinterpretq_u8_u32(v));
        } else {
            memcpy(out, in + vgetq_lane_u32(off, 0), sb);
            memcpy(out + sb, in + vgetq_lane_u32(off, 1), sb);
            memcpy(out + 2 * sb, in + vgetq_lane_u32(off, 2), sb);
            memcpy(out + 3 * sb, in + vgetq_lane_u32(off, 3), sb);
        }
    }
    return pos;
}

/* One point loop a pair of an index type and a slice's bytes: four tuples a
 * step where they take it, then one at a time. */
#define EDMLI_NEON_POINTS_SB(isz, sgn, b)                             \
    case b:                                                           \
        if (four) pos = edmli_neon_points4(j, pos, end, isz, sgn, b); \
        return edmli_neon_points(j, pos, end, isz, sgn, b);
#define EDMLI_NEON_POINTS_OF(isz, sgn)                                 \
    four = edmli_neon_points4_takes(j->op, isz, sb);                   \
    switch (sb) {                                                      \
        EDMLI_NEON_POINTS_SB(isz, sgn, 1)                              \
        EDMLI_NEON_POINTS_SB(isz, sgn, 2)                              \
        EDMLI_NEON_POINTS_SB(isz, sgn, 4)                              \
        EDMLI_NEON_POINTS_SB(isz, sgn, 8)                              \
        EDMLI_NEON_POINTS_SB(isz, sgn, 16)                             \
        EDMLI_NEON_POINTS_SB(isz, sgn, 32)                             \
    default:                                                           \
        if (four) pos = edmli_neon_points4(j, pos, end, isz, sgn, 64); \
        return edmli_neon_points(j, pos, end, isz, sgn, 64);           \
    }

static uint64_t edmli_neon_points_by_size(const edmli_gather_job *j, uint64_t pos, uint64_t end, uint32_t sb)
{
    bool four;
    switch (j->op->inputs[1].dtype) {
    case EDML_TENSOR_DATA_TYPE_INT32: EDMLI_NEON_POINTS_OF(4, true)
    case EDML_TENSOR_DATA_TYPE_UINT32: EDMLI_NEON_POINTS_OF(4, false)
    case EDML_TENSOR_DATA_TYPE_INT64: EDMLI_NEON_POINTS_OF(8, true)
    default: EDMLI_NEON_POINTS_OF(8, false)
    }
}

static void edmli_neon_gather_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    edmli_gather_job *j = (edmli_gather_job *)arg;
    uint64_t pos, end;
    edmli_cpu_range(j->count, j->parts, part, 1, &pos, &end);
    const uint32_t sb = edmli_neon_point_bytes(j->op);
    if (sb) pos = edmli_neon_points_by_size(j, pos, end, sb);
    edmli_cpu_gather_range(j, part, pos, end);
}

/* Points of a power-of-two size up to 64 bytes, else slices; the parts
 * the workers claim, as many workers as they keep busy. */
void edmli_neon_gather_nd_path(const edml_operator *op, edmli_cost_path *out)
{
    out->path = edmli_neon_point_bytes(op) ? EDMLI_COST_PATH_NEON_GATHER_POINTS : EDMLI_COST_PATH_NEON_GATHER_SLICES;
    const uint32_t parts = edmli_gather_parts(op), workers = op->workers ? op->workers : 1;
    out->parts = parts < workers ? parts : workers;
}

edml_status edmli_neon_gather_nd(const edml_operator *op, const edmli_exec *ex)
{
    return edmli_cpu_gather_nd(op, ex, true, EDMLI_NEON_COPY, edmli_neon_gather_part);
}
