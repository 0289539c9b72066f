/* ArgMin and ArgMax, NEON, with 64-bit keys: every type and layout the
 * 32-bit kernels (neon_argreduce.c, neon_argreduce_short.c) do not take:
 * INT64, UINT64 and FLOAT64; an innermost dim with a stride; sets of one
 * element or of over 2^32; FLOAT32 where FPCR.AH changes how NaN compares.
 * A set goes a run (its innermost reduced dim) at a time: 32 elements
 * converted to keys (packed 64-bit integers straight from their loads, the
 * others by the CPU's key conversion), then two lanes of (key, index), the
 * best so far kept on > (first of ties) or >= (last), lanes merged by key,
 * then index. Keys are the reference's order; ArgMin reverses it but keeps
 * NaN on top. Parts: over outputs; with fewer outputs than parts, each
 * set's elements split in order and the parts' bests combined in order, so
 * any thread count gives the same answer. */
#include "neon.h"

typedef struct edmli_neon_wide {
    edmli_odo outer;  /* kept dims: input, output */
    edmli_odo inner;  /* reduced dims but the run: input */
    uint64_t run;     /* elements of the innermost reduced dim */
    int64_t run_step; /* its stride, bytes */
    uint64_t count;   /* elements of a set */
    edmli_keys_fn keys;
    EDML_TENSOR_DATA_TYPE dtype, index_type;
    bool invert, keep_nan, take_last;
    uint32_t parts, per; /* per: parts a set (split), else 1 */
    const uint8_t *in;
    uint8_t *out;
    struct edmli_neon_wide_best *partial; /* split: a best a part (scratch) */
} edmli_neon_wide;

typedef struct edmli_neon_wide_best {
    uint64_t key, idx;
    uint64_t any;
} edmli_neon_wide_best;

static inline uint64x2_t edmli_neon_not_u64(uint64x2_t a)
{
    return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(a)));
}

/* The two lanes' bests so far and a scalar one (an odd tail). */
typedef struct edmli_neon_wide_acc {
    uint64x2_t key, idx;
    bool any_v;
    edmli_neon_wide_best s;
} edmli_neon_wide_acc;

static inline void edmli_neon_wide_take(edmli_neon_wide_best *b, uint64_t key, uint64_t idx, bool last)
{
    if (!b->any || key > b->key || (key == b->key && (last ? idx > b->idx : idx < b->idx)))
        *b = (edmli_neon_wide_best){key, idx, 1};
}

/* n keys (indices first..) offered to the accumulator; ArgMin's order
 * reversal (NaN kept on top) applied here. */
static void edmli_neon_wide_scan(const edmli_neon_wide *w, uint64_t *k, uint32_t n, uint64_t first,
                                 edmli_neon_wide_acc *a)
{
    if (w->invert)
        for (uint32_t i = 0; i < n; i++) k[i] = w->keep_nan && k[i] == EDMLI_NAN_KEY ? k[i] : ~k[i];
    uint32_t i = 0;
    const uint64x2_t two = vdupq_n_u64(2);
    uint64x2_t idx = vaddq_u64(vcombine_u64(vcreate_u64(0), vcreate_u64(1)), vdupq_n_u64(first));
    if (!a->any_v && n >= 2) {
        a->key = vld1q_u64(k), a->idx = idx, a->any_v = true;
        idx = vaddq_u64(idx, two), i = 2;
    }
    for (; i + 2 <= n; i += 2, idx = vaddq_u64(idx, two)) {
        const uint64x2_t x = vld1q_u64(k + i);
        const uint64x2_t m =
            w->take_last ? edmli_neon_not_u64(edmli_neon_gt_u64(a->key, x)) : edmli_neon_gt_u64(x, a->key);
        a->key = vbslq_u64(m, x, a->key);
        a->idx = vbslq_u64(m, idx, a->idx);
    }
    for (; i < n; i++) edmli_neon_wide_take(&a->s, k[i], first + i, w->take_last);
}

/* The best of a set's elements [f0, f1) (flat, in the descriptor's order),
 * the set at base; `inner` is this part's own odometer. */
static edmli_neon_wide_best edmli_neon_wide_span(const edmli_neon_wide *w, edmli_odo *inner, const uint8_t *base,
                                                 uint64_t f0, uint64_t f1)
{
    edmli_neon_wide_acc a = {.any_v = false, .s = {0, 0, 0}};
    uint64_t keys[EDMLI_NEON_WIDE_CHUNK];
    uint64_t s = f0 / w->run, i = f0 % w->run;
    edmli_odo_seek(inner, s);
    for (uint64_t f = f0; f < f1;) {
        const uint8_t *p = base + inner->off[0] + (int64_t)i * w->run_step;
        const uint64_t left = w->run - i < f1 - f ? w->run - i : f1 - f;
        const uint32_t n = left < EDMLI_NEON_WIDE_CHUNK ? (uint32_t)left : EDMLI_NEON_WIDE_CHUNK;
        edmli_neon_keys64(w->dtype, w->keys, p, w->run_step, n, keys);
        edmli_neon_wide_scan(w, keys, n, f, &a);
        f += n, i += n;
        if (i == w->run) i = 0, edmli_odo_next(inner);
    }
    if (a.any_v) {
        uint64_t kb[2], ib[2];
        vst1q_u64(kb, a.key);
        vst1q_u64(ib, a.idx);
        for (int l = 0; l < 2; l++) edmli_neon_wide_take(&a.s, kb[l], ib[l], w->take_last);
    }
    return a.s;
}

/* Part `part`: whole sets of a range of outputs, or (split) a slice of one
 * output's set, its best kept for the combine. */
static void edmli_neon_wide_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_wide *w = arg;
    edmli_odo outer = w->outer, inner = w->inner;
    const uint64_t outputs = edmli_odo_count(&outer);
    if (w->per > 1) {
        uint64_t f0, f1;
        edmli_cpu_range(w->count, w->per, part % w->per, 1, &f0, &f1);
        edmli_odo_seek(&outer, part / w->per);
        w->partial[part] = edmli_neon_wide_span(w, &inner, w->in + outer.off[0], f0, f1);
        return;
    }
    uint64_t o0, o1;
    edmli_cpu_range(outputs, w->parts, part, 1, &o0, &o1);
    edmli_odo_seek(&outer, o0);
    for (uint64_t o = o0; o < o1; o++, edmli_odo_next(&outer)) {
        const edmli_neon_wide_best b = edmli_neon_wide_span(w, &inner, w->in + outer.off[0], 0, w->count);
        edmli_store_index(w->out + outer.off[1], w->index_type, b.idx);
    }
}

/* The odometers: `outer` over the kept dims, `inner` over the reduced
 * ones but the last (the run). */
static void edmli_neon_wide_init(edmli_neon_wide *w, const edmli_neon_arg *v)
{
    const edmli_tensor *ti = v->in, *to = v->out;
    const uint32_t elem2[2] = {ti->elem_size, to->elem_size};
    uint32_t last = 0;
    for (uint32_t d = 0; d < ti->rank; d++)
        if ((v->mask >> d) & 1) last = d;
    edmli_odo_init(&w->outer, 2);
    edmli_odo_init(&w->inner, 1);
    for (uint32_t d = 0; d < ti->rank; d++) {
        const uint32_t st[2] = {ti->strides[d], to->strides[d]};
        if (!((v->mask >> d) & 1))
            edmli_odo_dim(&w->outer, ti->sizes[d], st, elem2);
        else if (d != last)
            edmli_odo_dim(&w->inner, ti->sizes[d], st, elem2);
    }
    w->run = ti->sizes[last];
    w->run_step = (int64_t)ti->strides[last] * ti->elem_size;
}

uint64_t edmli_neon_argreduce_wide_temp_bytes(const edml_operator *op)
{
    return op->workers > 1 ? (uint64_t)op->workers * sizeof(edmli_neon_wide_best) : 0;
}

edml_status edmli_neon_argreduce_wide(const edmli_neon_arg *v, const edmli_exec *ex)
{
    const edmli_argreduce_plan *p = &v->op->plan.argreduce;
    edmli_neon_wide w = {.count = p->reduce_count,
                         .keys = edmli_keys_for(v->in->dtype),
                         .dtype = v->in->dtype,
                         .index_type = v->out->dtype,
                         .invert = !p->is_max,
                         .keep_nan = edmli_dtype_is_float(v->in->dtype),
                         .take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING,
                         .per = 1,
                         .in = ex->in[0],
                         .out = ex->out[0],
                         .partial = (edmli_neon_wide_best *)(void *)ex->scratch};
    edmli_neon_wide_init(&w, v);
    const uint64_t outputs = v->out->elem_count, bytes = v->in->elem_count * v->in->elem_size;
    w.parts = edmli_cpu_parts(v->op, outputs, bytes);
    const uint32_t most = edmli_cpu_parts(v->op, UINT64_MAX, bytes);
    if (w.parts >= most || outputs * 2 > most) return edmli_cpu_parallel(ex, w.parts, edmli_neon_wide_part, &w);
    w.per = most / (uint32_t)outputs; /* outputs < most / 2: a slice of every set a part */
    edml_status s = edmli_cpu_parallel(ex, (uint32_t)outputs * w.per, edmli_neon_wide_part, &w);
    if (s) return s;
    edmli_odo outer = w.outer;
    for (uint64_t o = 0; o < outputs; o++, edmli_odo_next(&outer)) {
        edmli_neon_wide_best b = w.partial[o * w.per];
        for (uint32_t q = 1; q < w.per; q++) {
            const edmli_neon_wide_best x = w.partial[o * w.per + q];
            if (x.any) edmli_neon_wide_take(&b, x.key, x.idx, w.take_last);
        }
        edmli_store_index(w.out + outer.off[1], w.index_type, b.idx);
    }
    return EDML_STATUS_OK;
}
