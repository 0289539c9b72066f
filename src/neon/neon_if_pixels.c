/* ElementWiseIf, NEON, with a condition of one byte a pixel broadcast over
 * its channels (an NHWC mask over an image): the innermost dim, the
 * channels, packed in A, B and the output and of stride 0 in the
 * condition; the dim outside it, the pixels, packed in all four; a pixel
 * of g = channels x element bytes, at most 16. Sixteen pixels a step: 16
 * condition bytes compared with zero once, then each of the g 16-byte
 * vectors of output has its mask picked from those 16 by a table lookup
 * (byte b of vector v belongs to pixel (16 v + b) / g), A or B selected by
 * vbsl. The pixels left at a run's end go one by one. Parts: whole pixels,
 * runs of 16 where they are many. */
#include "neon.h"

typedef struct edmli_neon_pix_job {
    edmli_odo outer; /* the plan's dims but the last two */
    uint64_t pixels; /* of a run (the pixel dim) */
    uint64_t total;  /* pixels in all */
    uint32_t g, es, parts;
    uint8_t lookup[16][16]; /* vector v's byte b: its pixel within the 16 */
    const edmli_exec *ex;
} edmli_neon_pix_job;

/* 16 bytes of t picked by idx (every idx under 16). */
static inline uint8x16_t edmli_neon_tbl16(uint8x16_t t, uint8x16_t idx)
{
#if defined(__aarch64__)
    return vqtbl1q_u8(t, idx);
#else
    const uint8x8x2_t tt = {{vget_low_u8(t), vget_high_u8(t)}};
    return vcombine_u8(vtbl2_u8(tt, vget_low_u8(idx)), vtbl2_u8(tt, vget_high_u8(idx)));
#endif
}

bool edmli_neon_if_pixels_takes(const edml_operator *op)
{
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    if (p->rank < 2) return false;
    const uint32_t l = p->rank - 1, n = p->sizes[l], g = n * op->inputs[1].elem_size;
    if (g > 16 || p->strides[0][l] != 0 || p->strides[0][l - 1] != 1) return false;
    for (int t = 1; t < 4; t++)
        if (p->strides[t][l] != 1 || p->strides[t][l - 1] != n) return false;
    return true;
}

/* pix pixels from pixel 0 of c (and element 0 of a, b, o): 16 a step, then one by one. */
static void edmli_neon_pix_run(const edmli_neon_pix_job *j, const uint8_t *c, const uint8_t *a, const uint8_t *b,
                               uint8_t *o, uint64_t pix)
{
    const uint32_t g = j->g;
    uint64_t p = 0;
    for (; p + 16 <= pix; p += 16, c += 16) {
        const uint8x16_t m = vceqq_u8(vld1q_u8(c), vdupq_n_u8(0)); /* the false pixels */
        for (uint32_t v = 0; v < g; v++, a += 16, b += 16, o += 16) {
            const uint8x16_t mv = edmli_neon_tbl16(m, vld1q_u8(j->lookup[v]));
            vst1q_u8(o, vbslq_u8(mv, vld1q_u8(b), vld1q_u8(a)));
        }
    }
    for (; p < pix; p++, c++, a += g, b += g, o += g) memcpy(o, *c ? a : b, g);
}

/* Part `part`: pixels [begin, end) in row-major order, run by run. */
static void edmli_neon_pix_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_pix_job *j = (const edmli_neon_pix_job *)arg;
    uint64_t pos, end;
    edmli_cpu_range(j->total, j->parts, part, 16, &pos, &end);
    if (pos >= end) return;
    edmli_odo o = j->outer;
    edmli_odo_seek(&o, pos / j->pixels);
    for (uint64_t col = pos % j->pixels; pos < end; edmli_odo_next(&o), col = 0) {
        const uint64_t cnt = end - pos < j->pixels - col ? end - pos : j->pixels - col;
        const uint64_t at = col * j->g;
        edmli_neon_pix_run(j, j->ex->in[0] + o.off[0] + col, j->ex->in[1] + o.off[1] + at, j->ex->in[2] + o.off[2] + at,
                           j->ex->out[0] + o.off[3] + at, cnt);
        pos += cnt;
    }
}

edml_status edmli_neon_if_pixels(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
    const uint32_t l = p->rank - 1, es = op->inputs[1].elem_size, elem[4] = {1, es, es, es};
    edmli_neon_pix_job j = {.pixels = p->sizes[l - 1], .g = p->sizes[l] * es, .es = es, .ex = ex};
    for (uint32_t v = 0; v < j.g; v++)
        for (uint32_t b = 0; b < 16; b++) j.lookup[v][b] = (uint8_t)((16 * v + b) / j.g);
    edmli_odo_init(&j.outer, 4);
    for (uint32_t d = 0; d + 2 < p->rank; d++) {
        const uint32_t st[4] = {p->strides[0][d], p->strides[1][d], p->strides[2][d], p->strides[3][d]};
        edmli_odo_dim(&j.outer, p->sizes[d], st, elem);
    }
    j.total = edmli_odo_count(&j.outer) * j.pixels;
    j.parts = edmli_cpu_parts(op, j.total, j.total * (3u * j.g + 1u));
    return edmli_cpu_parallel(ex, j.parts, edmli_neon_pix_part, &j);
}
