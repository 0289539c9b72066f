/* TopK, NEON, of a large K (256 or more) along a long packed axis where
 * rows are few: by threshold and buckets, every part on each row, instead
 * of one heap a row.
 *  1. An evenly spaced sample of the row, its candidates (neon_topk.c's:
 *     key << 32 | ~index, larger better) sorted best first: the key a
 *     little past the sample's share of K is the threshold, keys at even
 *     steps above it the splitters of as many buckets as parts.
 *  2. Each part counts its range's elements at or above the threshold in
 *     lanes (FLOAT32 as floats where compares are exact, others by key).
 *     Where fewer than K or more than the scratch holds pass, the row goes
 *     the heap's way (the count is exact, the threshold only a guess).
 *  3. Each part writes its candidates at its place: all of them in index
 *     order, as one thread would.
 *  4. Each bucket's part counts its members, then copies them (in index
 *     order) to its place among the buckets, best bucket first, sorts them
 *     by key, a byte a pass (stable: equal keys stay earliest index first,
 *     the candidates' own order), and writes the places below K.
 * Every element that passed beats every one that did not, so the best K
 * are the first K of the buckets in order, for any thread count. */
#include "neon.h"

#define EDMLI_NEON_SELECT_SAMPLE 8192u /* sample elements at most */
#define EDMLI_NEON_SELECT_MIN_K 256u
#define EDMLI_NEON_SELECT_PARTS 64u /* parts and buckets at most */

/* The scratch: the sample (and its sort's room), a count a part and a
 * bucket, a byte histogram a part, the candidates, the buckets and their
 * sorts' room, each cap words. */
typedef struct edmli_neon_select_room {
    uint64_t sample, cap;
    uint32_t parts;
} edmli_neon_select_room;

static edmli_neon_select_room edmli_neon_select_room_of(const edml_operator *op)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint64_t n = p->axis_size, s = n < EDMLI_NEON_SELECT_SAMPLE ? n : EDMLI_NEON_SELECT_SAMPLE;
    const uint32_t w = op->workers > 1 ? op->workers : 1;
    const edmli_neon_select_room r = {s, (uint64_t)p->k + p->k / 4u + 32u * (n / s) + 1024u,
                                      w < EDMLI_NEON_SELECT_PARTS ? w : EDMLI_NEON_SELECT_PARTS};
    return r;
}

bool edmli_neon_topk_select_takes(const edml_operator *op)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    return ti->strides[p->axis] == 1 && p->k >= EDMLI_NEON_SELECT_MIN_K && p->axis_size >= 4u * (uint64_t)p->k &&
           edmli_neon_key32(ti->dtype) && ti->elem_count / p->axis_size < (op->workers > 1 ? op->workers : 2);
}

uint64_t edmli_neon_topk_select_temp_bytes(const edml_operator *op)
{
    if (!edmli_neon_topk_select_takes(op)) return 0;
    const edmli_neon_select_room r = edmli_neon_select_room_of(op);
    return 8u * (2 * r.sample + 2u * r.parts + 128u * r.parts + 3 * r.cap);
}

/* Sorts a[0, n) by key (the upper 32 bits) from the largest down, stably:
 * four passes of a byte each, least significant first, through tmp (and
 * the byte histogram count); a pass whose byte is the same in every
 * candidate is skipped. */
static void edmli_neon_sort_desc(uint64_t *a, uint64_t *tmp, uint64_t n, uint32_t count[256])
{
    uint64_t *src = a, *dst = tmp;
    for (uint32_t shift = 32; shift < 64 && n > 1; shift += 8) {
        memset(count, 0, 256 * sizeof *count);
        for (uint64_t i = 0; i < n; i++) count[(src[i] >> shift) & 0xffu]++;
        if (count[(src[0] >> shift) & 0xffu] == n) continue;
        uint32_t at = 0;
        for (uint32_t d = 256; d-- > 0;) { /* the largest byte first */
            const uint32_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (uint64_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & 0xffu]++] = src[i];
        uint64_t *t = src;
        src = dst, dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

typedef struct edmli_neon_select {
    const edml_operator *op;
    const uint8_t *in;
    uint8_t *val, *idx;
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t flip, threshold, parts, n, k;
    bool raw_f32;                            /* FLOAT32 compared as floats */
    uint32_t split[EDMLI_NEON_SELECT_PARTS]; /* bucket b: keys from split[b] below split[b - 1] */
    uint64_t *at;                            /* [part]: its count, then its first place */
    uint64_t *size;                          /* [bucket]: its count, then its first place */
    uint32_t *hist;                          /* [part]: 256 byte counts */
    uint64_t *cand, *bucket, *tmp, total;
} edmli_neon_select;

/* Lanes of 4 FLOAT32 at f that pass: at or above the threshold t (a NaN
 * too), or at or below it where the smallest are kept. */
#define EDMLI_NEON_SELECT_PASS_F32(s, x, t) ((s)->flip ? vcleq_f32(x, t) : vmvnq_u32(vcltq_f32(x, t)))

/* Lanes of 4 elements at p that pass, and their keys. */
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_select_pass(const edmli_neon_select *s, const uint8_t *p, float32x4_t t,
                                                      bool raw)
{
    if (raw) return EDMLI_NEON_SELECT_PASS_F32(s, vld1q_f32((const float *)(const void *)p), t);
    return vcgeq_u32(veorq_u32(edmli_neon_load_keys(s->dtype, p), vdupq_n_u32(s->flip)), vdupq_n_u32(s->threshold));
}

/* Phase 2 (out NULL: counts) or 3 (writes) over part `part`'s range
 * (raw: s->raw_f32, a constant where inlined). */
EDMLI_ALWAYS_INLINE uint64_t edmli_neon_select_range(const edmli_neon_select *s, uint32_t part, uint64_t *out, bool raw)
{
    const uint32_t es = edml_data_type_size(s->dtype), key = s->threshold ^ s->flip;
    const float32x4_t t = vreinterpretq_f32_u32(vdupq_n_u32(key & 0x80000000u ? key & 0x7fffffffu : ~key));
    uint64_t i0, i1, got = 0;
    edmli_cpu_range(s->n, s->parts, part, 16, &i0, &i1);
    uint32x4_t acc = vdupq_n_u32(0);
    uint32_t i = (uint32_t)i0;
    for (; i + 4 <= i1; i += 4) {
        const uint8_t *p = s->in + (uint64_t)i * es;
        const uint32x4_t m = edmli_neon_select_pass(s, p, t, raw);
        if (!out) {
            acc = vsubq_u32(acc, m); /* a mask lane is -1 */
            continue;
        }
        if (!edmli_neon_any_u32(m)) continue;
        uint32_t kk[4], mm[4];
        vst1q_u32(kk, veorq_u32(edmli_neon_load_keys(s->dtype, p), vdupq_n_u32(s->flip)));
        vst1q_u32(mm, m);
        for (uint32_t l = 0; l < 4; l++)
            if (mm[l]) out[got++] = (uint64_t)kk[l] << 32 | (uint32_t) ~(i + l);
    }
    got += (uint64_t)vgetq_lane_u32(acc, 0) + vgetq_lane_u32(acc, 1) + vgetq_lane_u32(acc, 2) + vgetq_lane_u32(acc, 3);
    for (; i < i1; i++) {
        const uint32_t k = edmli_neon_key1(s->dtype, s->in + (uint64_t)i * es) ^ s->flip;
        if (k < s->threshold) continue;
        if (out) out[got] = (uint64_t)k << 32 | (uint32_t)~i;
        got++;
    }
    return got;
}

static void edmli_neon_select_count(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    edmli_neon_select *s = arg;
    s->at[part] =
        s->raw_f32 ? edmli_neon_select_range(s, part, NULL, true) : edmli_neon_select_range(s, part, NULL, false);
}

static void edmli_neon_select_write(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_select *s = arg;
    if (s->raw_f32)
        edmli_neon_select_range(s, part, s->cand + s->at[part], true);
    else
        edmli_neon_select_range(s, part, s->cand + s->at[part], false);
}

/* Whether candidate c belongs to bucket b. */
static inline bool edmli_neon_in_bucket(const edmli_neon_select *s, uint64_t c, uint32_t b)
{
    const uint32_t key = (uint32_t)(c >> 32);
    return key >= s->split[b] && (b == 0 || key < s->split[b - 1]);
}

static void edmli_neon_select_members(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    edmli_neon_select *s = arg;
    uint64_t n = 0;
    for (uint64_t j = 0; j < s->total; j++) n += edmli_neon_in_bucket(s, s->cand[j], part);
    s->size[part] = n;
}

/* Bucket `part`: gathered, sorted, its places below K written. */
static void edmli_neon_select_bucket(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_select *s = arg;
    const uint64_t b0 = s->size[part], b1 = part + 1 < s->parts ? s->size[part + 1] : s->total;
    if (b0 >= s->k) return;
    uint64_t *b = s->bucket + b0;
    if (s->parts > 1) {
        for (uint64_t j = 0, at = 0; j < s->total; j++)
            if (edmli_neon_in_bucket(s, s->cand[j], part)) b[at++] = s->cand[j];
    } else {
        b = s->cand; /* the one bucket: all */
    }
    edmli_neon_sort_desc(b, s->tmp + b0, b1 - b0, s->hist + 256u * part);
    const edmli_topk_plan *p = &s->op->plan.topk;
    const edmli_tensor *tv = &s->op->outputs[0], *tx = &s->op->outputs[1];
    const uint32_t es = edml_data_type_size(s->dtype);
    const int64_t vstep = (int64_t)tv->strides[p->axis] * es, xstep = (int64_t)tx->strides[p->axis] * tx->elem_size;
    for (uint64_t j = b0; j < b1 && j < s->k; j++) {
        const uint32_t i = ~(uint32_t)b[j - b0];
        memcpy(s->val + (int64_t)j * vstep, s->in + (uint64_t)i * es, es);
        edmli_store_index(s->idx + (int64_t)j * xstep, tx->dtype, i);
    }
}

/* Phase 1: the threshold and the splitters from a sample (sorted in place). */
static void edmli_neon_select_sample(edmli_neon_select *s, uint64_t *sample, uint64_t count)
{
    const uint32_t es = edml_data_type_size(s->dtype);
    for (uint64_t j = 0; j < count; j++) {
        const uint32_t i = (uint32_t)(j * s->n / count);
        sample[j] = (uint64_t)(edmli_neon_key1(s->dtype, s->in + (uint64_t)i * es) ^ s->flip) << 32 | (uint32_t)~i;
    }
    edmli_neon_sort_desc(sample, sample + count, count, s->hist);
    uint64_t r = ((uint64_t)s->k * count + s->n - 1) / s->n; /* the sample's share of K */
    r += r / 8 + 16;
    s->threshold = r >= count ? 0 : (uint32_t)(sample[r] >> 32);
    const uint64_t top = r < count ? r : count;
    for (uint32_t b = 0; b + 1 < s->parts; b++) s->split[b] = (uint32_t)(sample[top * (b + 1) / s->parts] >> 32);
    s->split[s->parts - 1] = 0;
}

/* Counts to first places, in order; returns the total. */
static uint64_t edmli_neon_select_places(uint64_t *c, uint32_t n)
{
    uint64_t at = 0;
    for (uint32_t q = 0; q < n; q++) {
        const uint64_t m = c[q];
        c[q] = at;
        at += m;
    }
    return at;
}

edml_status edmli_neon_topk_select_row(const edml_operator *op, const edmli_exec *ex, const uint8_t *in, uint8_t *val,
                                       uint8_t *idx, bool *done)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_neon_select_room room = edmli_neon_select_room_of(op);
    uint64_t *w = (uint64_t *)(void *)ex->scratch;
    edmli_neon_select s = {.op = op,
                           .in = in,
                           .val = val,
                           .idx = idx,
                           .dtype = op->inputs[0].dtype,
                           .flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT32_MAX : 0,
                           .n = p->axis_size,
                           .k = p->k,
                           .at = w + 2 * room.sample,
                           .size = w + 2 * room.sample + room.parts,
                           .hist = (uint32_t *)(void *)(w + 2 * room.sample + 2u * room.parts)};
    s.cand = w + 2 * room.sample + 2u * room.parts + 128u * room.parts;
    s.bucket = s.cand + room.cap, s.tmp = s.bucket + room.cap;
    s.parts = edmli_cpu_parts(op, (p->axis_size + 15) / 16, (uint64_t)p->axis_size * op->inputs[0].elem_size);
    if (s.parts > room.parts) s.parts = room.parts;
    edmli_neon_select_sample(&s, w, room.sample);
    s.raw_f32 =
        s.dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 && edmli_neon_fp_exact() && (s.threshold ^ s.flip) != UINT32_MAX;
    edml_status st = edmli_cpu_parallel(ex, s.parts, edmli_neon_select_count, &s);
    if (st) return st;
    s.total = edmli_neon_select_places(s.at, s.parts);
    *done = s.total >= s.k && s.total <= room.cap;
    if (!*done) return EDML_STATUS_OK; /* the heap's way: nothing written */
    if ((st = edmli_cpu_parallel(ex, s.parts, edmli_neon_select_write, &s))) return st;
    if (s.parts > 1 && (st = edmli_cpu_parallel(ex, s.parts, edmli_neon_select_members, &s))) return st;
    if (s.parts == 1) s.size[0] = s.total;
    edmli_neon_select_places(s.size, s.parts);
    return edmli_cpu_parallel(ex, s.parts, edmli_neon_select_bucket, &s);
}
