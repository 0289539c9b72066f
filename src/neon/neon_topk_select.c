/* TopK, NEON, of a large K (256 or more) along a long packed axis where
 * rows are few: by threshold and buckets, every part on each row, instead
 * of one heap a row.
 *  1. An evenly spaced sample of the row, its candidates (neon_topk.c's:
 *     key << 32 | ~index, larger better) sorted best first: the key a
 *     little past the sample's share of K is the threshold, keys at even
 *     steps above it the splitters of as many buckets as parts.
 *  2. Each part counts its range's elements at or above the threshold, a
 *     count a bucket (FLOAT32 compared as floats in lanes where compares
 *     are exact, others by key).
 *     Where fewer than K or more than the scratch holds pass, the row goes
 *     the heap's way (the count is exact, the threshold only a guess).
 *  3. Each part writes its candidates at its places: buckets best first,
 *     a bucket's parts in order, so each bucket holds its candidates in
 *     index order, as one thread would write them.
 *  4. Each bucket sorted by key, a byte a pass (stable: equal keys stay
 *     earliest index first, the candidates' own order), its places below K
 *     written.
 * Every element that passed beats every one that did not, so the best K
 * are the first K of the buckets in order, for any thread count. */
#include "neon.h"

#define EDMLI_NEON_SELECT_SAMPLE 4096u /* sample elements at most */
#define EDMLI_NEON_SELECT_MIN_K 256u
#define EDMLI_NEON_SELECT_PARTS 64u /* parts and buckets at most */

/* The scratch: the sample (and its sort's room), a count a part and a
 * bucket, the buckets' first places, a byte histogram a part, the
 * candidates and their sort's room, each cap words. */
typedef struct edmli_neon_select_room {
    uint64_t sample, cap;
    uint32_t parts, row; /* row: words of a part's counts, whole cache lines */
} edmli_neon_select_room;

static edmli_neon_select_room edmli_neon_select_room_of(const edml_operator *op)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint64_t n = p->axis_size, s = n < EDMLI_NEON_SELECT_SAMPLE ? n : EDMLI_NEON_SELECT_SAMPLE;
    const uint32_t w = op->workers > 1 ? op->workers : 1;
    edmli_neon_select_room r = {s, (uint64_t)p->k + p->k / 4u + 32u * (n / s) + 1024u,
                                w < EDMLI_NEON_SELECT_PARTS ? w : EDMLI_NEON_SELECT_PARTS, 0};
    r.row = (r.parts + 7u) & ~7u;
    return r;
}

/* Where it pays: a K of EDMLI_NEON_SELECT_BIG_K or more (a heap's log K
 * per entry outweighs the sample and the sorts), or, with workers to share
 * them, rows of EDMLI_NEON_SELECT_SPLIT_N or more; rows fewer than the
 * workers (one, on one), each at least 4 K long. */
#define EDMLI_NEON_SELECT_BIG_K 4096u
#define EDMLI_NEON_SELECT_SPLIT_N 65536u
bool edmli_neon_topk_select_takes(const edml_operator *op)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    const bool pays = p->k >= EDMLI_NEON_SELECT_BIG_K || (op->workers > 1 && p->axis_size >= EDMLI_NEON_SELECT_SPLIT_N);
    return pays && ti->strides[p->axis] == 1 && p->k >= EDMLI_NEON_SELECT_MIN_K &&
           p->axis_size >= 4u * (uint64_t)p->k && edmli_neon_key32(ti->dtype) &&
           ti->elem_count / p->axis_size < (op->workers > 1 ? op->workers : 2);
}

uint64_t edmli_neon_topk_select_temp_bytes(const edml_operator *op)
{
    if (!edmli_neon_topk_select_takes(op)) return 0;
    const edmli_neon_select_room r = edmli_neon_select_room_of(op);
    return 8u * (2 * r.sample + (uint64_t)r.parts * r.row + r.parts + 1u + 128u * r.parts + 2 * r.cap);
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
    uint64_t *at;                            /* [part][bucket]: its count, then its next place (rows of `row`) */
    uint32_t row;                            /* words a part's row: whole cache lines, none shared */
    uint64_t *start;                         /* [bucket]: its first place; [parts]: the total */
    uint32_t *hist;                          /* [part]: 256 byte counts */
    uint64_t *cand, *tmp;
} edmli_neon_select;

/* The bucket of a key at or above the threshold: the first whose split
 * key is at most it (splits fall). */
static inline uint32_t edmli_neon_bucket(const edmli_neon_select *s, uint32_t key)
{
    uint32_t lo = 0, hi = s->parts - 1;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (s->split[mid] <= key)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* A candidate of part `part` counted (phase 2) or written at its place (3). */
EDMLI_ALWAYS_INLINE void edmli_neon_select_take(const edmli_neon_select *s, uint32_t part, uint32_t key, uint32_t i,
                                                bool write)
{
    uint64_t *at = s->at + (uint64_t)part * s->row + edmli_neon_bucket(s, key);
    if (write) s->cand[*at] = (uint64_t)key << 32 | (uint32_t)~i;
    ++*at;
}

/* Lanes of 4 FLOAT32 at f that pass: at or above the threshold t (a NaN
 * too), or at or below it where the smallest are kept. */
#define EDMLI_NEON_SELECT_PASS_F32(s, x, t) ((s)->flip ? vcleq_f32(x, t) : vmvnq_u32(vcltq_f32(x, t)))

/* Lanes of 4 elements at p that pass. */
EDMLI_ALWAYS_INLINE uint32x4_t edmli_neon_select_pass(const edmli_neon_select *s, const uint8_t *p, float32x4_t t,
                                                      bool raw)
{
    if (raw) return EDMLI_NEON_SELECT_PASS_F32(s, vld1q_f32((const float *)(const void *)p), t);
    return vcgeq_u32(veorq_u32(edmli_neon_load_keys(s->dtype, p), vdupq_n_u32(s->flip)), vdupq_n_u32(s->threshold));
}

/* Phase 2 (counts a bucket) or 3 (writes at the places) over part
 * `part`'s range (raw: s->raw_f32; both constants where inlined). */
EDMLI_ALWAYS_INLINE void edmli_neon_select_range(const edmli_neon_select *s, uint32_t part, bool write, bool raw)
{
    const uint32_t es = edml_data_type_size(s->dtype), key = s->threshold ^ s->flip;
    const float32x4_t t = vreinterpretq_f32_u32(vdupq_n_u32(key & 0x80000000u ? key & 0x7fffffffu : ~key));
    uint64_t i0, i1;
    edmli_cpu_range(s->n, s->parts, part, 16, &i0, &i1);
    const bool one = !write && s->parts == 1; /* one bucket: lanes counted in lanes */
    uint32x4_t acc = vdupq_n_u32(0);
    uint32_t i = (uint32_t)i0;
    for (; i + 4 <= i1; i += 4) {
        const uint8_t *p = s->in + (uint64_t)i * es;
        const uint32x4_t m = edmli_neon_select_pass(s, p, t, raw);
        if (one) {
            acc = vsubq_u32(acc, m); /* a passing lane is -1 */
            continue;
        }
        if (!edmli_neon_any_u32(m)) continue;
        uint32_t kk[4], mm[4];
        vst1q_u32(kk, veorq_u32(edmli_neon_load_keys(s->dtype, p), vdupq_n_u32(s->flip)));
        vst1q_u32(mm, m);
        for (uint32_t l = 0; l < 4; l++)
            if (mm[l]) edmli_neon_select_take(s, part, kk[l], i + l, write);
    }
    if (one)
        s->at[0] +=
            (uint64_t)vgetq_lane_u32(acc, 0) + vgetq_lane_u32(acc, 1) + vgetq_lane_u32(acc, 2) + vgetq_lane_u32(acc, 3);
    for (; i < i1; i++) {
        const uint32_t k = edmli_neon_key1(s->dtype, s->in + (uint64_t)i * es) ^ s->flip;
        if (k >= s->threshold) edmli_neon_select_take(s, part, k, i, write);
    }
}

static void edmli_neon_select_count(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_select *s = arg;
    if (s->raw_f32)
        edmli_neon_select_range(s, part, false, true);
    else
        edmli_neon_select_range(s, part, false, false);
}

static void edmli_neon_select_write(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_select *s = arg;
    if (s->raw_f32)
        edmli_neon_select_range(s, part, true, true);
    else
        edmli_neon_select_range(s, part, true, false);
}

/* Bucket `part`: sorted in place, its places below K written. */
static void edmli_neon_select_bucket(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_select *s = arg;
    const uint64_t b0 = s->start[part], b1 = s->start[part + 1];
    if (b0 >= s->k) return;
    edmli_neon_sort_desc(s->cand + b0, s->tmp + b0, b1 - b0, s->hist + 256u * part);
    const edmli_topk_plan *p = &s->op->plan.topk;
    const edmli_tensor *tv = &s->op->outputs[0], *tx = &s->op->outputs[1];
    const uint32_t es = edml_data_type_size(s->dtype);
    const int64_t vstep = (int64_t)tv->strides[p->axis] * es, xstep = (int64_t)tx->strides[p->axis] * tx->elem_size;
    for (uint64_t j = b0; j < b1 && j < s->k; j++) {
        const uint32_t i = ~(uint32_t)s->cand[j];
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

/* Phase 2's counts to places: bucket by bucket, each bucket's parts in
 * order (each part's candidates in index order, so a bucket's are too). */
static void edmli_neon_select_places(edmli_neon_select *s)
{
    uint64_t at = 0;
    for (uint32_t b = 0; b < s->parts; b++) {
        s->start[b] = at;
        for (uint32_t q = 0; q < s->parts; q++) {
            uint64_t *c = s->at + (uint64_t)q * s->row + b;
            const uint64_t n = *c;
            *c = at;
            at += n;
        }
    }
    s->start[s->parts] = at;
}

edml_status edmli_neon_topk_select_row(const edml_operator *op, const edmli_exec *ex, const uint8_t *in, uint8_t *val,
                                       uint8_t *idx, bool *done)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_neon_select_room room = edmli_neon_select_room_of(op);
    uint64_t *w = (uint64_t *)(void *)ex->scratch, *after = w + 2 * room.sample;
    edmli_neon_select s = {.op = op,
                           .in = in,
                           .val = val,
                           .idx = idx,
                           .dtype = op->inputs[0].dtype,
                           .flip = p->direction == EDML_AXIS_DIRECTION_INCREASING ? UINT32_MAX : 0,
                           .n = p->axis_size,
                           .k = p->k,
                           .at = after,
                           .start = after + (uint64_t)room.parts * room.row,
                           .hist = (uint32_t *)(void *)(after + (uint64_t)room.parts * room.row + room.parts + 1)};
    s.cand = after + (uint64_t)room.parts * room.row + room.parts + 1 + 128u * room.parts;
    s.tmp = s.cand + room.cap;
    s.parts = edmli_cpu_parts(op, (p->axis_size + 15) / 16, (uint64_t)p->axis_size * op->inputs[0].elem_size);
    if (s.parts > room.parts) s.parts = room.parts;
    edmli_neon_select_sample(&s, w, room.sample);
    s.raw_f32 =
        s.dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 && edmli_neon_fp_exact() && (s.threshold ^ s.flip) != UINT32_MAX;
    s.row = room.row;
    memset(s.at, 0, (size_t)s.parts * s.row * sizeof *s.at);
    edml_status st = edmli_cpu_parallel(ex, s.parts, edmli_neon_select_count, &s);
    if (st) return st;
    edmli_neon_select_places(&s);
    *done = s.start[s.parts] >= s.k && s.start[s.parts] <= room.cap;
    if (!*done) return EDML_STATUS_OK; /* the heap's way: nothing written */
    if ((st = edmli_cpu_parallel(ex, s.parts, edmli_neon_select_write, &s))) return st;
    return edmli_cpu_parallel(ex, s.parts, edmli_neon_select_bucket, &s);
}
