/* ArgMin and ArgMax, NEON, with 64-bit keys: every type and layout the
 * 32-bit kernels (neon_argreduce.c, neon_argreduce_short.c) do not take:
 * INT64, UINT64 and FLOAT64; an innermost dim with a stride; sets of one
 * element or of over 2^32; FLOAT32 where FPCR.AH changes how NaN compares.
 * A set goes a run (its innermost reduced dim) at a time: packed runs of 16
 * or more INT64, UINT64 (and FLOAT64 where float compares are exact) in
 * blocks against the best so far (neon_argreduce_blocks.c), other packed
 * 64-bit elements keyed in registers as they are loaded, the others 32 at a time
 * converted to keys by the CPU's key conversion; then two lanes of (key,
 * index), the best so far kept on > (first of ties) or >= (last), lanes
 * merged by key, then index. Keys are the reference's order; ArgMin reverses it but keeps
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
    bool packed64;       /* 64-bit elements, the run packed: keyed as loaded */
    bool blocks;         /* packed64 of a type edmli_neon_blocks64 takes */
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

/* Two pairs of lanes' bests so far (both start from the first two
 * elements) and a scalar one (an odd tail). */
typedef struct edmli_neon_wide_acc {
    uint64x2_t key[2], idx[2];
    bool any_v;
    edmli_neon_wide_best s;
} edmli_neon_wide_acc;

/* x (indices idx) offered to lanes (key, at): > keeps the first of ties, >= the last. */
EDMLI_ALWAYS_INLINE void edmli_neon_wide_offer(uint64x2_t *key, uint64x2_t *at, uint64x2_t x, uint64x2_t idx, bool last)
{
    const uint64x2_t m = last ? edmli_neon_not_u64(edmli_neon_gt_u64(*key, x)) : edmli_neon_gt_u64(x, *key);
    *key = vbslq_u64(m, x, *key);
    *at = vbslq_u64(m, idx, *at);
}

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
        a->key[0] = a->key[1] = vld1q_u64(k), a->idx[0] = a->idx[1] = idx, a->any_v = true;
        idx = vaddq_u64(idx, two), i = 2;
    }
    for (; i + 2 <= n; i += 2, idx = vaddq_u64(idx, two))
        edmli_neon_wide_offer(&a->key[0], &a->idx[0], vld1q_u64(k + i), idx, w->take_last);
    for (; i < n; i++) edmli_neon_wide_take(&a->s, k[i], first + i, w->take_last);
}

/* The constants of a type's keys: ArgMin's reversal and INT64's sign flip
 * in inv (a NaN stays on top). */
typedef struct edmli_neon_k64 {
    uint64x2_t inv, mag, inf, zero, sign;
} edmli_neon_k64;

/* Keys of two 64-bit elements of type dt in their own order. */
EDMLI_ALWAYS_INLINE uint64x2_t edmli_neon_key64(uint64x2_t x, EDML_TENSOR_DATA_TYPE dt, const edmli_neon_k64 *c)
{
    if (dt != EDML_TENSOR_DATA_TYPE_FLOAT64) return veorq_u64(x, c->inv);
    const uint64x2_t mag = vandq_u64(x, c->mag), nan = edmli_neon_gt_u64(mag, c->inf);
    x = vandq_u64(x, edmli_neon_gt_u64(mag, c->zero)); /* -0 as +0 */
    const uint64x2_t neg = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(x), 63));
    const uint64x2_t k = veorq_u64(x, vorrq_u64(neg, c->sign));
    return vorrq_u64(veorq_u64(k, vbicq_u64(c->inv, nan)), nan);
}

/* n packed 64-bit elements of type dt at p (indices first..) offered to
 * the accumulator, keyed as they are loaded, 4 a step into its two pairs
 * of lanes. */
EDMLI_ALWAYS_INLINE void edmli_neon_wide_packed_dt(const edmli_neon_wide *w, const uint8_t *p, uint64_t n,
                                                   uint64_t first, edmli_neon_wide_acc *a, EDML_TENSOR_DATA_TYPE dt,
                                                   bool last)
{
    const uint64_t sign = dt == EDML_TENSOR_DATA_TYPE_INT64 ? 0x8000000000000000u : 0;
    const edmli_neon_k64 c = {vdupq_n_u64(sign ^ (w->invert ? ~(uint64_t)0 : 0)), vdupq_n_u64(0x7fffffffffffffffu),
                              vdupq_n_u64(0x7ff0000000000000u), vdupq_n_u64(0), vdupq_n_u64(0x8000000000000000u)};
    const uint64x2_t two = vdupq_n_u64(2), four = vdupq_n_u64(4);
    const uint64_t *q = (const uint64_t *)(const void *)p;
    if (w->blocks && n >= 16) { /* the run's best by blocks, keyed once */
        const uint64_t bi = edmli_neon_blocks64(p, n, dt, w->invert, last);
        uint64_t k;
        w->keys(p + 8 * bi, 8, 1, &k);
        if (w->invert && !(w->keep_nan && k == EDMLI_NAN_KEY)) k = ~k;
        edmli_neon_wide_take(&a->s, k, first + bi, last);
        return;
    }
    uint64x2_t idx = vaddq_u64(vcombine_u64(vcreate_u64(0), vcreate_u64(1)), vdupq_n_u64(first));
    uint64_t i = 0;
    if (!a->any_v && n >= 2) {
        a->key[0] = a->key[1] = edmli_neon_key64(vld1q_u64(q), dt, &c), a->idx[0] = a->idx[1] = idx;
        a->any_v = true, idx = vaddq_u64(idx, two), i = 2;
    }
    for (; i + 4 <= n; i += 4, idx = vaddq_u64(idx, four)) {
        const uint64x2_t x0 = edmli_neon_key64(vld1q_u64(q + i), dt, &c);
        const uint64x2_t x1 = edmli_neon_key64(vld1q_u64(q + i + 2), dt, &c);
        edmli_neon_wide_offer(&a->key[0], &a->idx[0], x0, idx, last);
        edmli_neon_wide_offer(&a->key[1], &a->idx[1], x1, vaddq_u64(idx, two), last);
    }
    if (i + 2 <= n) {
        edmli_neon_wide_offer(&a->key[0], &a->idx[0], edmli_neon_key64(vld1q_u64(q + i), dt, &c), idx, last);
        i += 2;
    }
    if (i < n) {
        uint64_t k;
        w->keys(p + 8 * i, 8, 1, &k);
        edmli_neon_wide_scan(w, &k, 1, first + i, a);
    }
}

#define EDMLI_NEON_WIDE_PACKED(T, name)                                                                           \
    static void edmli_neon_wide_packed_##name(const edmli_neon_wide *w, const uint8_t *p, uint64_t n, uint64_t f, \
                                              edmli_neon_wide_acc *a)                                             \
    {                                                                                                             \
        if (w->take_last)                                                                                         \
            edmli_neon_wide_packed_dt(w, p, n, f, a, EDML_TENSOR_DATA_TYPE_##T, true);                            \
        else                                                                                                      \
            edmli_neon_wide_packed_dt(w, p, n, f, a, EDML_TENSOR_DATA_TYPE_##T, false);                           \
    }
EDMLI_NEON_WIDE_PACKED(INT64, i64)
EDMLI_NEON_WIDE_PACKED(UINT64, u64)
EDMLI_NEON_WIDE_PACKED(FLOAT64, f64)

static void edmli_neon_wide_packed(const edmli_neon_wide *w, const uint8_t *p, uint64_t n, uint64_t first,
                                   edmli_neon_wide_acc *a)
{
    if (w->dtype == EDML_TENSOR_DATA_TYPE_INT64)
        edmli_neon_wide_packed_i64(w, p, n, first, a);
    else if (w->dtype == EDML_TENSOR_DATA_TYPE_UINT64)
        edmli_neon_wide_packed_u64(w, p, n, first, a);
    else
        edmli_neon_wide_packed_f64(w, p, n, first, a);
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
        const uint32_t n = w->packed64                    ? (uint32_t)(left < UINT32_MAX ? left : UINT32_MAX)
                           : left < EDMLI_NEON_WIDE_CHUNK ? (uint32_t)left
                                                          : EDMLI_NEON_WIDE_CHUNK;
        if (w->packed64) {
            edmli_neon_wide_packed(w, p, n, f, &a);
        } else {
            edmli_neon_keys64(w->dtype, w->keys, p, w->run_step, n, keys);
            edmli_neon_wide_scan(w, keys, n, f, &a);
        }
        f += n, i += n;
        if (i == w->run) i = 0, edmli_odo_next(inner);
    }
    for (int v = 0; v < 2 && a.any_v; v++) {
        uint64_t kb[2], ib[2];
        vst1q_u64(kb, a.key[v]);
        vst1q_u64(ib, a.idx[v]);
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
    w.packed64 = v->in->elem_size == 8 && w.run_step == 8;
    w.blocks = w.packed64 && edmli_neon_blocks64_takes(w.dtype);
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
