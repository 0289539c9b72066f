/* Randomized differential test: one backend of edml against a simple,
 * independent implementation of the semantics page written here (full sorts,
 * linear scans, direct formulas; no code shared with src/).
 *
 *   diff [--backend ref|neon|gles|auto] [--seed N] [--iters N] [--verbose]
 *
 * Random operator, data types, ranks 1-6, sizes (some rows longer than the
 * kernels' chunks), packed, padded, permuted and broadcast layouts, special
 * values and extreme integers. Output buffers start filled with a pattern and
 * are compared whole, byte for byte, so a write outside the addressed
 * elements fails too. */
#include "case.h"
#include "testlib.h"
#include "../src/gles/gles_shapes.h" /* the GPU kernels' thresholds the generators aim at */

#include <math.h>

/* ---- the oracle's ordering ------------------------------------------------ */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static bool is_signed_int(EDML_TENSOR_DATA_TYPE t)
{
    return t == EDML_TENSOR_DATA_TYPE_INT8 || t == EDML_TENSOR_DATA_TYPE_INT16 || t == EDML_TENSOR_DATA_TYPE_INT32 ||
           t == EDML_TENSOR_DATA_TYPE_INT64;
}

static bool is_float(EDML_TENSOR_DATA_TYPE t)
{
    return t == EDML_TENSOR_DATA_TYPE_FLOAT16 || t == EDML_TENSOR_DATA_TYPE_FLOAT32 ||
           t == EDML_TENSOR_DATA_TYPE_FLOAT64;
}

static double as_double(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return half_value(h);
    }
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

static int64_t as_i64(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    switch (tl_type_size(t)) {
    case 1: {
        int8_t v;
        memcpy(&v, p, 1);
        return v;
    }
    case 2: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static uint64_t as_u64(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    uint64_t v = 0;
    memcpy(&v, p, tl_type_size(t));
    return v;
}

/* -1, 0, 1: NaN above everything and equal to NaN; -0 == +0 */
static int compare(EDML_TENSOR_DATA_TYPE t, const uint8_t *a, const uint8_t *b)
{
    if (is_float(t)) {
        double x = as_double(t, a), y = as_double(t, b);
        bool nx = isnan(x), ny = isnan(y);
        if (nx || ny) return nx && ny ? 0 : nx ? 1 : -1;
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (is_signed_int(t)) {
        int64_t x = as_i64(t, a), y = as_i64(t, b);
        return x < y ? -1 : x > y ? 1 : 0;
    }
    uint64_t x = as_u64(t, a), y = as_u64(t, b);
    return x < y ? -1 : x > y ? 1 : 0;
}

static void store_index(const tl_tensor *t, uint8_t *p, uint64_t v)
{
    memcpy(p, &v, tl_type_size(t->dtype)); /* little-endian: the low bytes */
}

/* ---- oracles -------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    uint32_t idx;
} item;
static EDML_TENSOR_DATA_TYPE sort_type;
static int sort_dir; /* 1 decreasing */

static int item_cmp(const void *va, const void *vb)
{
    const item *a = va, *b = vb;
    int c = compare(sort_type, a->p, b->p);
    if (sort_dir) c = -c;
    if (c) return c;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void oracle_topk(const tl_tensor *in, tl_tensor *val, tl_tensor *idx, UINT axis, UINT k, int dir)
{
    uint32_t n = in->sizes[axis];
    item *items = malloc(sizeof(item) * n);
    uint64_t rows = tl_count(in) / n;
    UINT es = tl_type_size(in->dtype);
    sort_type = in->dtype;
    sort_dir = dir;
    for (uint64_t r = 0; r < rows; r++) {
        /* coordinates of this row with the axis coordinate 0 */
        UINT c[8];
        uint64_t q = r;
        for (UINT d = in->rank; d-- > 0;) {
            if (d == axis) {
                c[d] = 0;
                continue;
            }
            c[d] = (UINT)(q % in->sizes[d]);
            q /= in->sizes[d];
        }
        for (uint32_t i = 0; i < n; i++) {
            c[axis] = i;
            items[i] = (item){in->buf + tl_offset(in, c), i};
        }
        qsort(items, n, sizeof *items, item_cmp);
        for (uint32_t j = 0; j < k; j++) {
            c[axis] = j;
            memcpy(val->buf + tl_offset(val, c), items[j].p, es);
            store_index(idx, idx->buf + tl_offset(idx, c), items[j].idx);
        }
    }
    free(items);
}

static void oracle_argreduce(const tl_tensor *in, tl_tensor *out, uint32_t mask, int dir, bool is_max)
{
    uint64_t n = tl_count(out);
    for (uint64_t o = 0; o < n; o++) {
        UINT oc[8];
        tl_coords(out, o, oc);
        /* walk the reduced coordinates row-major */
        UINT c[8];
        memcpy(c, oc, sizeof c);
        for (UINT d = 0; d < in->rank; d++)
            if (mask >> d & 1) c[d] = 0;
        const uint8_t *best = NULL;
        uint64_t best_i = 0, flat = 0;
        for (;;) {
            const uint8_t *p = in->buf + tl_offset(in, c);
            if (!best) {
                best = p;
                best_i = flat;
            } else {
                double dummy = 0;
                (void)dummy;
                int cmp = compare(in->dtype, p, best);
                bool p_nan = is_float(in->dtype) && isnan(as_double(in->dtype, p));
                bool b_nan = is_float(in->dtype) && isnan(as_double(in->dtype, best));
                bool better;
                if (b_nan)
                    better = p_nan && dir == 1; /* NaN stays; the last NaN if decreasing */
                else if (p_nan)
                    better = true; /* NaN wins */
                else if (is_max)
                    better = cmp > 0 || (cmp == 0 && dir == 1);
                else
                    better = cmp < 0 || (cmp == 0 && dir == 1);
                if (better) {
                    best = p;
                    best_i = flat;
                }
            }
            flat++;
            /* next reduced coordinate */
            int d = (int)in->rank - 1;
            for (; d >= 0; d--) {
                if (!(mask >> d & 1)) continue;
                if (++c[d] < in->sizes[d]) break;
                c[d] = 0;
            }
            if (d < 0) break;
        }
        store_index(out, out->buf + tl_offset(out, oc), best_i);
    }
}

/* returns the number of out-of-range coordinates */
static uint64_t oracle_gather(const tl_tensor *in, const tl_tensor *ix, tl_tensor *out, UINT in_dc, UINT ix_dc, UINT B)
{
    UINT n = in->rank, T = ix->sizes[n - 1];
    UINT in0 = n - in_dc, ix0 = n - ix_dc;
    UINT P = ix_dc - B - 1, S = in_dc - B - T, m = B + P + S;
    uint64_t bad = 0;
    uint64_t total = tl_count(out);
    for (uint64_t o = 0; o < total; o++) {
        UINT oc[8];
        tl_coords(out, o, oc);
        /* the list of m logical coordinates, right-aligned in the output */
        UINT L[24];
        for (UINT j = 0; j < m; j++) L[j] = (j + n >= m) ? oc[j + n - m] : 0;
        UINT ic[8] = {0}, xc[8] = {0};
        for (UINT b = 0; b < B; b++) {
            ic[in0 + b] = L[b];
            xc[ix0 + b] = L[b];
        }
        for (UINT p = 0; p < P; p++) xc[ix0 + B + p] = L[B + p];
        for (UINT j = 0; j < T; j++) {
            xc[n - 1] = j;
            const uint8_t *q = ix->buf + tl_offset(ix, xc);
            int64_t size = in->sizes[in0 + B + j];
            int64_t v;
            bool ok;
            if (is_signed_int(ix->dtype)) {
                v = as_i64(ix->dtype, q);
                if (v < 0) v += size;
                ok = v >= 0 && v < size;
            } else {
                uint64_t u = as_u64(ix->dtype, q);
                ok = u < (uint64_t)size;
                v = ok ? (int64_t)u : size;
            }
            if (!ok) {
                bad++;
                v = v < 0 ? 0 : size - 1;
            }
            ic[in0 + B + j] = (UINT)v;
        }
        for (UINT s = 0; s < S; s++) ic[in0 + B + T + s] = L[B + P + s];
        memcpy(out->buf + tl_offset(out, oc), in->buf + tl_offset(in, ic), tl_type_size(in->dtype));
    }
    return bad;
}

static void oracle_if(const tl_tensor *c, const tl_tensor *a, const tl_tensor *b, tl_tensor *out)
{
    uint64_t n = tl_count(out);
    for (uint64_t e = 0; e < n; e++) {
        UINT k[8];
        tl_coords(out, e, k);
        const tl_tensor *src = c->buf[tl_offset(c, k)] ? a : b;
        memcpy(out->buf + tl_offset(out, k), src->buf + tl_offset(src, k), tl_type_size(out->dtype));
    }
}

/* ---- random cases ---------------------------------------------------------- */

static void random_sizes(tl_rng *r, tl_tensor *t, UINT rank)
{
    t->rank = rank;
    for (UINT i = 0; i < rank; i++) t->sizes[i] = 1 + tl_below(r, 5);
    /* now and then one long dimension, across the kernels' chunk sizes */
    if (tl_below(r, 5) == 0) t->sizes[tl_below(r, rank)] = 200 + tl_below(r, 700);
}

static int out_layout(tl_rng *r) { return (int)tl_below(r, 3); }
static int in_layout(tl_rng *r) { return (int)tl_below(r, 4); }

static const char *backend_arg = "ref";
static edml_backend backend = EDML_BACKEND_REF;
static bool verbose;

static tl_device g_dev;                   /* one device for the whole run, as a program would have */
static bool soak;                         /* check the arena after every cycle */
static bool through_list;                 /* --command-list: each execution through a command list */
static size_t soak_persistent, soak_need; /* the most one cycle needs: operator + scratch */

static tl_device g_ref;     /* the reference, for operators the backend under test lacks */
static int above_gpu_arena; /* cases too large for the GPU arena (refused), checked on ref */
static int ran_on_ref;      /* cases that did so */
static bool may_refuse;     /* --may-refuse: a GPU refusal with a status, nothing written, is not a failure */
static int refused;         /* cases so refused, checked on ref */

/* The device and backend a case runs on: the backend under test, or the
 * reference where that backend has no kernel for the operator (a backend may
 * leave operators out: edml_operator_backends()); counted and reported. */
static edml_device *device_for(const EDML_OPERATOR_DESC *desc, edml_backend *b)
{
    *b = backend;
    if (backend == EDML_BACKEND_AUTO || (edml_operator_backends(desc->Type) & EDML_BACKEND_BIT(backend)))
        return g_dev.dev;
    if (!g_ref.dev && tl_device_make(&g_ref, edml_device_size() + (1 << 20), EDML_BACKEND_BIT(EDML_BACKEND_REF)))
        abort();
    ran_on_ref++;
    *b = EDML_BACKEND_REF;
    return g_ref.dev;
}

static void clone(tl_tensor *dst, const tl_tensor *src);

/* --command-list: recorded twice, first into copies of the outputs, then
 * into them, submitted, waited for: the same status and outputs as one
 * execution, and the copies the same bytes (on GLES the two entries run as
 * the layers of one dispatch where a kernel is one dispatch) */
static edml_status run_listed(edml_device *dev, edml_operator *op, const EDML_BUFFER_BINDING *bi, int nin,
                              tl_tensor **outs, int nout)
{
    edml_command_list *l = NULL;
    tl_tensor twin[2];
    EDML_BUFFER_BINDING bo[2], bt[2];
    for (int i = 0; i < nout; i++) {
        clone(&twin[i], outs[i]);
        bo[i] = tl_bind(outs[i]);
        bt[i] = tl_bind(&twin[i]);
    }
    edml_status s = edml_command_list_create(dev, 2, &l);
    if (!s) s = edml_command_list_record(l, op, bi, (UINT)nin, bt, (UINT)nout, NULL);
    if (!s) s = edml_command_list_record(l, op, bi, (UINT)nin, bo, (UINT)nout, NULL);
    if (!s) s = edml_command_list_submit(l);
    if (!s) s = edml_command_list_wait(l, UINT64_MAX);
    if (l) edml_command_list_destroy(l);
    for (int i = 0; i < nout; i++) {
        if (!s && memcmp(twin[i].buf, outs[i]->buf, (size_t)outs[i]->total)) {
            fprintf(stderr, "output %d of a list's first entry differs from the second's\n", i);
            s = EDML_STATUS_BACKEND_FAILED;
        }
        free(twin[i].buf);
    }
    return s;
}

static edml_status create_and_run(edml_device *dev, edml_backend be, const EDML_OPERATOR_DESC *desc, tl_tensor **ins,
                                  int nin, tl_tensor **outs, int nout)
{
    edml_operator *op;
    edml_status s = edml_operator_create(dev, desc, be, &op);
    if (!s) {
        EDML_BUFFER_BINDING bi[3], bo[2];
        for (int i = 0; i < nin; i++) bi[i] = tl_bind(ins[i]);
        for (int i = 0; i < nout; i++) bo[i] = tl_bind(outs[i]);
        if (through_list) {
            s = run_listed(dev, op, bi, nin, outs, nout);
        } else {
            s = edml_operator_execute(op, bi, (UINT)nin, bo, (UINT)nout, NULL);
        }
        edml_operator_destroy(op);
    }
    return s;
}

/* --may-refuse: a run the GPU backend refused with a status that left the
 * outputs as they were (`before`): counted, and the case checked on ref. */
static bool refused_right(edml_status s, tl_tensor **outs, tl_tensor *before, int nout)
{
    if (s != EDML_STATUS_BACKEND_UNAVAILABLE && s != EDML_STATUS_BACKEND_FAILED && s != EDML_STATUS_ARENA_TOO_SMALL &&
        s != EDML_STATUS_BUSY)
        return false;
    for (int o = 0; o < nout; o++)
        if (memcmp(outs[o]->buf, before[o].buf, (size_t)outs[o]->total)) return false;
    return true;
}

static edml_status run_op(const EDML_OPERATOR_DESC *desc, tl_tensor **ins, int nin, tl_tensor **outs, int nout,
                          char *msg, size_t cap)
{
    edml_backend be;
    edml_device *dev = device_for(desc, &be);
    tl_tensor before[2];
    for (int o = 0; o < nout && may_refuse; o++) clone(&before[o], outs[o]);
    edml_operator_sizes sz;
    if (dev == g_dev.dev && edml_operator_query(dev, desc, be, &sz) == EDML_STATUS_OK) {
        size_t need = sz.persistent_bytes + ((sz.temporary_bytes + 15) & ~(size_t)15);
        if (need > soak_need) soak_need = need;
    }
    edml_status s = create_and_run(dev, be, desc, ins, nin, outs, nout);
    if (s == EDML_STATUS_BACKEND_UNAVAILABLE && be == EDML_BACKEND_GLES &&
        (strstr(edml_device_last_error(dev), "bytes of GPU arena") ||
         ((tl_inject_faults & EDML_FAULT_LIMITS_ANY) &&
          strstr(edml_device_last_error(dev), "holds in shared memory")))) {
        /* larger than the device's GPU arena, or (with a small GPU's limits) a K its shared memory cannot
         * hold, refused with its numbers as it must be: checked on ref instead */
        if (!g_ref.dev && tl_device_make(&g_ref, edml_device_size() + (1 << 20), EDML_BACKEND_BIT(EDML_BACKEND_REF)))
            abort();
        above_gpu_arena++;
        dev = g_ref.dev;
        s = create_and_run(dev, EDML_BACKEND_REF, desc, ins, nin, outs, nout);
    } else if (may_refuse && be != EDML_BACKEND_REF && refused_right(s, outs, before, nout)) {
        if (!g_ref.dev && tl_device_make(&g_ref, edml_device_size() + (1 << 20), EDML_BACKEND_BIT(EDML_BACKEND_REF)))
            abort();
        refused++;
        dev = g_ref.dev;
        s = create_and_run(dev, EDML_BACKEND_REF, desc, ins, nin, outs, nout);
    }
    for (int o = 0; o < nout && may_refuse; o++) tl_free(&before[o]);
    if (soak && dev == g_dev.dev) { /* every cycle gives back all it took */
        edml_arena_stats st;
        edml_device_arena_stats(dev, &st);
        if (st.persistent != soak_persistent) {
            fprintf(stderr, "soak: the arena holds %zu bytes after a cycle, %zu before\n", st.persistent,
                    soak_persistent);
            abort();
        }
    }
    snprintf(msg, cap, "%s", edml_device_last_error(dev));
    return s;
}

static void describe(const char *what, const tl_tensor *t)
{
    fprintf(stderr, "  %s %s sizes {", what, "");
    for (UINT i = 0; i < t->rank; i++) fprintf(stderr, "%s%u", i ? "," : "", t->sizes[i]);
    fprintf(stderr, "} strides {");
    for (UINT i = 0; i < t->rank; i++) fprintf(stderr, "%s%u", i ? "," : "", t->strides[i]);
    fprintf(stderr, "}%s type %d total %llu\n", t->packed ? " (packed)" : "", (int)t->dtype,
            (unsigned long long)t->total);
}

static bool same_bytes(const tl_tensor *a, const tl_tensor *b, const char *name, uint64_t seed, int iter)
{
    if (memcmp(a->buf, b->buf, (size_t)a->total) == 0) return true;
    size_t i = 0;
    while (a->buf[i] == b->buf[i]) i++;
    fprintf(stderr, "seed %llu iteration %d: %s differs at byte %zu: expected 0x%02x got 0x%02x\n",
            (unsigned long long)seed, iter, name, i, a->buf[i], b->buf[i]);
    describe(name, a);
    return false;
}

static void clone(tl_tensor *dst, const tl_tensor *src)
{
    *dst = *src;
    if (posix_memalign((void **)&dst->buf, 16, (size_t)src->total + 16)) abort();
    memcpy(dst->buf, src->buf, (size_t)src->total);
    dst->b.Sizes = dst->sizes;
    dst->b.Strides = dst->packed ? NULL : dst->strides;
    dst->d.Desc = &dst->b;
}

/* A failed run: what failed and the tensors, for reproducing it. */
static int report(const char *what, uint64_t seed, int iter, const char *msg)
{
    fprintf(stderr, "seed %llu iteration %d: %s failed: %s\n", (unsigned long long)seed, iter, what, msg);
    return 1;
}

/* TopK's shapes: random ones, and one on each side of the GPU's thresholds
 * (src/gles/gles_shapes.h): many rows along a strided axis with a small K (a
 * row per invocation in chunks, their lists folded: sometimes more lists than
 * the fold's workgroup, so that its invocations fold several), rows longer than the sort
 * (threshold and radix select), many short packed rows with a small K (or
 * a larger one: an invocation an element, ranked), one row around the
 * one-dispatch kernel's limits (SORT_MAX, TOPK_SMALL_MAX_K). Rows of 129 to
 * 512 elements (the short rows above, random shapes) are sorted several to
 * a workgroup. */
static UINT topk_shape(tl_rng *r, tl_tensor *in, UINT rank, bool *ties, bool *small_k)
{
    random_sizes(r, in, rank);
    UINT axis = tl_below(r, rank);
    *ties = *small_k = false;
    switch (tl_below(r, 8)) {
    case 0: /* strided: up to 18 chunks of 64 a row; or 64 to 128 of them */
        in->rank = 2;
        in->sizes[0] = 1 + tl_below(r, EDMLI_GLES_TOPK_CHUNK_MIN * 18 + 100);
        in->sizes[1] = EDMLI_GLES_TOPK_THREAD_MIN_ROWS + tl_below(r, 900);
        if (tl_below(r, 4) == 0) {
            const UINT lists = EDMLI_GLES_TOPK_CHUNK_MIN * EDMLI_GLES_TOPK_FOLD_LOCAL;
            in->sizes[0] = lists - 100 + tl_below(r, lists + 100);
            in->sizes[1] = EDMLI_GLES_TOPK_THREAD_MIN_ROWS + tl_below(r, 64);
        }
        *small_k = true;
        return 0;
    case 1: /* longer than the sort holds */
        in->rank = 2;
        in->sizes[0] = 1 + tl_below(r, 3);
        in->sizes[1] = EDMLI_GLES_SORT_MAX + 76 + tl_below(r, 3000);
        if (tl_below(r, 2)) /* the GPU's vector reads: 32- and 16-bit elements */
            in->dtype = tl_below(r, 2) ? EDML_TENSOR_DATA_TYPE_FLOAT32 : EDML_TENSOR_DATA_TYPE_FLOAT16;
        *ties = tl_below(r, 2); /* mostly one value: more candidates than the sort holds */
        return 1;
    case 2: /* many short packed rows on both sides of the row-per-invocation limit */
        in->rank = 2;
        in->sizes[0] = EDMLI_GLES_TOPK_THREAD_MIN_ROWS + tl_below(r, 1000);
        in->sizes[1] = 1 + tl_below(r, EDMLI_GLES_TOPK_THREAD_MAX_ROW + 44);
        *small_k = tl_below(r, 3) != 0;
        return 1;
    case 3: /* one row, any rank */
        for (UINT d = 0; d < rank; d++) in->sizes[d] = 1;
        in->sizes[axis] = 1 + tl_below(r, EDMLI_GLES_SORT_MAX + 100);
        *small_k = tl_below(r, 2); /* K up to TOPK_SMALL_MAX_K, or past it */
        *ties = tl_below(r, 4) == 0;
        return axis;
    default: return axis;
    }
}

static int case_topk(tl_rng *r, EDML_TENSOR_DATA_TYPE dt, UINT rank, uint64_t seed, int iter)
{
    tl_tensor in = {.dtype = dt}, val = {0}, idx = {0};
    bool ties, small_k;
    const UINT axis = topk_shape(r, &in, rank, &ties, &small_k), n = in.sizes[axis];
    const UINT kmax = small_k ? EDMLI_GLES_TOPK_THREAD_MAX_K : n >= EDMLI_GLES_SORT_MAX ? 64 : 70;
    const UINT k =
        !small_k && n < EDMLI_GLES_SORT_MAX && tl_below(r, 3) == 0 ? n : 1 + tl_below(r, n < kmax ? n : kmax);
    const int dir = (int)tl_below(r, 2);
    val.dtype = in.dtype;
    tl_layout(&in, r, in_layout(r));
    tl_finish(&in, r, 0);
    tl_fill_random(&in, r);
    const size_t es = edml_data_type_size(in.dtype);
    for (uint64_t i = 1; ties && i < in.total / es; i++)
        if (tl_below(r, 8)) memcpy(in.buf + i * es, in.buf, es);
    val.rank = idx.rank = in.rank;
    memcpy(val.sizes, in.sizes, sizeof val.sizes);
    val.sizes[axis] = k;
    memcpy(idx.sizes, val.sizes, sizeof idx.sizes);
    idx.dtype = tl_below(r, 2) ? EDML_TENSOR_DATA_TYPE_UINT32 : EDML_TENSOR_DATA_TYPE_UINT64;
    tl_layout(&val, r, out_layout(r));
    tl_layout(&idx, r, out_layout(r));
    tl_finish(&val, r, 0xa5);
    tl_finish(&idx, r, 0x5a);
    tl_tensor ev, ei;
    clone(&ev, &val);
    clone(&ei, &idx);
    oracle_topk(&in, &ev, &ei, axis, k, dir);
    EDML_TOP_K1_OPERATOR_DESC d = {&in.d, &val.d, &idx.d, axis, k, (EDML_AXIS_DIRECTION)dir};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &d};
    tl_tensor *ins[1] = {&in}, *outs[2] = {&val, &idx};
    char msg[512];
    int failures = 0;
    if (run_op(&od, ins, 1, outs, 2, msg, sizeof msg))
        failures = report("TopK", seed, iter, msg);
    else if (!same_bytes(&ev, &val, "TopK OutputValueTensor", seed, iter) ||
             !same_bytes(&ei, &idx, "TopK OutputIndexTensor", seed, iter)) {
        describe("InputTensor", &in);
        fprintf(stderr, "  axis %u k %u direction %d\n", axis, k, dir);
        failures = 1;
    }
    tl_free(&in), tl_free(&val), tl_free(&idx), tl_free(&ev), tl_free(&ei);
    return failures;
}

/* ArgMin/ArgMax's shapes: random ones, and around the GPU's thresholds
 * (src/gles/gles_shapes.h, for LOCAL up to 1024): long sets along the last
 * axis (a group of threads a set, several sets a workgroup, several chunks
 * a set, 16-byte vectors), and columns of floats (four outputs an
 * invocation; long columns: argreduce_cols's chunks). Returns the reduced
 * axes' mask (0: choose at random). */
/* The data of an ArgMin case (argreduce_data). */
typedef enum arg_data {
    ARG_RANDOM,    /* tl_fill_random: special values everywhere, NaN in most sets */
    ARG_DISTINCT,  /* distinct floats: the winner anywhere */
    ARG_SUBNORMAL, /* only subnormals and zeros: a GPU that flushes them to zero fails */
    ARG_NO_NAN,    /* tl_fill_random's with every NaN made an infinity: ties, -0, infinities */
    ARG_RARE_NAN,  /* ARG_NO_NAN with a NaN or two, at random places: the GPU's float keys' way back */
    ARG_WORST,     /* FLOAT32, INT32 or UINT32, every element the worst value (ArgMin: the largest): */
                   /* all ties at the lowest key, which a slot that found nothing also holds */
} arg_data;

static uint32_t argreduce_shape(tl_rng *r, tl_tensor *in, UINT rank, arg_data *data)
{
    const UINT row_set = EDMLI_GLES_REDUCE_ROW_SET_GROUPS * 1024, row_chunk = EDMLI_GLES_REDUCE_ROW_CHUNK_GROUPS * 1024;
    random_sizes(r, in, rank);
    *data = ARG_RANDOM;
    if (tl_below(r, 4) == 0) {
        in->rank = 2;
        in->sizes[0] = 1 + tl_below(r, 3);
        in->sizes[1] = row_set + tl_below(r, 3000);
        if (tl_below(r, 4) == 0) in->sizes[0] = 17 + tl_below(r, 24);           /* several workgroups of sets */
        if (tl_below(r, 3) == 0) in->sizes[1] = row_chunk + tl_below(r, 20000); /* several chunks a set */
        if (tl_below(r, 2)) { /* whole 16-byte vectors of floats: the GPU's vector loads */
            static const EDML_TENSOR_DATA_TYPE worst[3] = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_DATA_TYPE_INT32,
                                                           EDML_TENSOR_DATA_TYPE_UINT32};
            in->sizes[1] &= ~3u;
            *data = (arg_data)tl_below(r, 6);
            in->dtype = *data == ARG_WORST ? worst[tl_below(r, 3)] : EDML_TENSOR_DATA_TYPE_FLOAT32;
        }
        return 0;
    }
    if (tl_below(r, 24) == 0) { /* tall columns, past 2 MiB down: a CPU reads them a band of rows at a time */
        const UINT rows = 64 + tl_below(r, 200), a = 2 + tl_below(r, 7);
        const UINT cols = (UINT)((2u << 20) / tl_type_size(in->dtype) / (rows - 1)) + 1 + tl_below(r, 700);
        switch (tl_below(r, 3)) {
        case 0: /* the rows one axis */ in->rank = 2, in->sizes[0] = rows, in->sizes[1] = cols; return 1;
        case 1: /* the rows two axes, reduced together: a band may span both */
            in->rank = 3, in->sizes[0] = a, in->sizes[1] = rows / a + 1, in->sizes[2] = cols;
            return 3;
        default: /* the rows under a kept outer axis: each outer position's columns banded apart */
            in->rank = 3, in->sizes[0] = 2 + tl_below(r, 2), in->sizes[1] = rows, in->sizes[2] = cols;
            return 2;
        }
    }
    if (rank == 2 || tl_below(r, 6)) return 0;
    in->rank = 2; /* columns of floats */
    in->sizes[0] = 1 + tl_below(r, 300);
    in->sizes[1] = 4 * (1 + tl_below(r, 64));
    if (tl_below(r, 4) == 0) { /* long columns: several chunks each, merged on the GPU */
        in->sizes[0] = 16 * EDMLI_GLES_REDUCE_COLS_MIN_ROWS + 1 + tl_below(r, 1500);
        in->sizes[1] = 4 * (8 + tl_below(r, 32));
    }
    in->dtype = EDML_TENSOR_DATA_TYPE_FLOAT32;
    *data = tl_below(r, 2) ? ARG_DISTINCT : ARG_RANDOM;
    return 1;
}

/* Data for ArgMin (ArgMax: is_max) of the kind `data` (the non-random
 * kinds: FLOAT32, or 32-bit integers for ARG_WORST). */
static void argreduce_data(tl_rng *r, tl_tensor *in, arg_data data, bool is_max)
{
    tl_fill_random(in, r);
    if (data == ARG_WORST) {
        const uint32_t w = in->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32 ? (is_max ? 0xff800000u : 0x7f800000u)
                           : in->dtype == EDML_TENSOR_DATA_TYPE_INT32 ? (is_max ? 0x80000000u : 0x7fffffffu)
                                                                      : (is_max ? 0u : 0xffffffffu);
        for (uint64_t i = 0; i < in->total / 4; i++) memcpy(in->buf + 4 * i, &w, 4);
        return;
    }
    const uint64_t n = data == ARG_RANDOM ? 0 : in->total / 4;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, in->buf + 4 * i, 4);
        if (data == ARG_DISTINCT) {
            float v = (float)(tl_next(r) >> 40) * 0x1p-23f - 1.0f;
            memcpy(&u, &v, 4);
        } else if (data == ARG_SUBNORMAL)
            u = (uint32_t)tl_next(r) & (tl_below(r, 8) ? 0x807fffffu : 0x80000000u);
        else if ((u & 0x7fffffffu) > 0x7f800000u)
            u &= 0xff800000u;
        memcpy(in->buf + 4 * i, &u, 4);
    }
    for (uint32_t k = data == ARG_RARE_NAN ? 1 + tl_below(r, 2) : 0; k > 0 && n; k--) {
        const uint32_t nan = tl_below(r, 2) ? 0x7fc00001u : 0xff800001u;
        memcpy(in->buf + 4 * (tl_next(r) % n), &nan, 4);
    }
}

static int case_argreduce(tl_rng *r, EDML_TENSOR_DATA_TYPE dt, UINT rank, uint64_t seed, int iter)
{
    tl_tensor in = {.dtype = dt}, out = {0};
    arg_data data;
    uint32_t mask = argreduce_shape(r, &in, rank, &data);
    rank = in.rank;
    UINT axes[8], na = 0;
    while (!mask)
        for (UINT d = 0; d < rank; d++)
            if (tl_below(r, 2)) mask |= 1u << d;
    for (UINT d = 0; d < rank; d++)
        if (mask >> d & 1) axes[na++] = d;
    for (UINT i = na; i > 1; i--) {
        UINT j = tl_below(r, i);
        UINT x = axes[i - 1];
        axes[i - 1] = axes[j];
        axes[j] = x;
    }
    const int dir = (int)tl_below(r, 2);
    const bool is_max = tl_below(r, 2);
    tl_layout(&in, r, in_layout(r));
    tl_finish(&in, r, 0);
    argreduce_data(r, &in, data, is_max);
    static const EDML_TENSOR_DATA_TYPE ot[4] = {EDML_TENSOR_DATA_TYPE_INT32, EDML_TENSOR_DATA_TYPE_INT64,
                                                EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_DATA_TYPE_UINT64};
    out.dtype = ot[tl_below(r, 4)];
    out.rank = rank;
    for (UINT d = 0; d < rank; d++) out.sizes[d] = (mask >> d & 1) ? 1 : in.sizes[d];
    tl_layout(&out, r, out_layout(r));
    tl_finish(&out, r, 0xa5);
    tl_tensor eo;
    clone(&eo, &out);
    oracle_argreduce(&in, &eo, mask, dir, is_max);
    EDML_ARGMIN_OPERATOR_DESC d = {&in.d, &out.d, na, axes, (EDML_AXIS_DIRECTION)dir};
    EDML_OPERATOR_DESC od = {is_max ? EDML_OPERATOR_ARGMAX : EDML_OPERATOR_ARGMIN, &d};
    tl_tensor *ins[1] = {&in}, *outs[1] = {&out};
    char msg[512];
    int failures = 0;
    if (run_op(&od, ins, 1, outs, 1, msg, sizeof msg))
        failures = report("Arg", seed, iter, msg);
    else if (!same_bytes(&eo, &out, is_max ? "ArgMax OutputTensor" : "ArgMin OutputTensor", seed, iter)) {
        describe("InputTensor", &in);
        fprintf(stderr, "  mask 0x%x direction %d\n", mask, dir);
        failures = 1;
    }
    tl_free(&in), tl_free(&out), tl_free(&eo);
    return failures;
}

/* GatherND's dimension counts and shapes; false when the output cannot be
 * expressed in n dims. */
typedef struct gather_shape {
    UINT n, in_dc, ix_dc, B, T;
} gather_shape;

static bool gather_tensors(tl_rng *r, gather_shape *g, tl_tensor *in, tl_tensor *ix, tl_tensor *out)
{
    const UINT n = g->n;
    g->in_dc = 1 + tl_below(r, n), g->ix_dc = 1 + tl_below(r, n);
    g->B = tl_below(r, g->in_dc < g->ix_dc ? g->in_dc : g->ix_dc);
    g->T = 1 + tl_below(r, g->in_dc - g->B);
    const UINT B = g->B, T = g->T, P = g->ix_dc - B - 1, S = g->in_dc - B - T, m = B + P + S;
    static const EDML_TENSOR_DATA_TYPE xt[4] = {EDML_TENSOR_DATA_TYPE_INT32, EDML_TENSOR_DATA_TYPE_INT64,
                                                EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_DATA_TYPE_UINT64};
    ix->dtype = xt[tl_below(r, 4)];
    const UINT in0 = n - g->in_dc, ix0 = n - g->ix_dc;
    for (UINT i = 0; i < n; i++) in->sizes[i] = i < in0 ? 1 : 1 + tl_below(r, 4), ix->sizes[i] = 1;
    /* now and then a long last slice dim: slices of many 16-byte vectors
     * (the GPU kernel copies four an invocation), every remainder */
    if (g->in_dc - B - T > 0 && tl_below(r, 3) == 0) in->sizes[n - 1] = 5 + tl_below(r, 36);
    for (UINT b = 0; b < B; b++) ix->sizes[ix0 + b] = in->sizes[in0 + b];
    for (UINT p = 0; p < P; p++) ix->sizes[ix0 + B + p] = 1 + tl_below(r, 4);
    ix->sizes[n - 1] = T;
    UINT L[24];
    for (UINT b = 0; b < B; b++) L[b] = in->sizes[in0 + b];
    for (UINT p = 0; p < P; p++) L[B + p] = ix->sizes[ix0 + B + p];
    for (UINT s = 0; s < S; s++) L[B + P + s] = in->sizes[in0 + B + T + s];
    for (UINT j = 0; j + n < m; j++)
        if (L[j] != 1) return false;
    for (UINT j = 0; j < n; j++) out->sizes[j] = j + m >= n ? L[j + m - n] : 1;
    return true;
}

/* Index values: valid (negative ones too), or now and then any. */
static void gather_indices(tl_rng *r, const gather_shape *g, const tl_tensor *in, tl_tensor *ix)
{
    const bool allow_bad = tl_below(r, 4) == 0;
    const uint32_t es = tl_type_size(ix->dtype);
    UINT c[8];
    for (uint64_t e = 0; e < tl_count(ix); e++) {
        tl_coords(ix, e, c);
        int64_t size = in->sizes[g->n - g->in_dc + g->B + c[g->n - 1]];
        int64_t v = (int64_t)tl_below(r, (uint32_t)size);
        if (is_signed_int(ix->dtype) && tl_below(r, 2)) v -= size;
        uint64_t u = (uint64_t)v;
        if (allow_bad && tl_below(r, 3) == 0) u = tl_next(r) >> tl_below(r, 64);
        memcpy(ix->buf + tl_offset(ix, c), &u, es);
    }
}

static int case_gather_nd(tl_rng *r, EDML_TENSOR_DATA_TYPE dt, UINT rank, uint64_t seed, int iter)
{
    gather_shape g = {.n = rank};
    tl_tensor in = {.dtype = dt, .rank = rank}, ix = {.rank = rank}, out = {.dtype = dt, .rank = rank};
    if (!gather_tensors(r, &g, &in, &ix, &out)) return 0;
    tl_layout(&in, r, in_layout(r));
    tl_layout(&ix, r, in_layout(r) % 3);
    tl_finish(&in, r, 0);
    tl_fill_random(&in, r);
    tl_finish(&ix, r, 0);
    gather_indices(r, &g, &in, &ix);
    tl_layout(&out, r, out_layout(r));
    tl_finish(&out, r, 0xa5);
    tl_tensor eo;
    clone(&eo, &out);
    const uint64_t bad = oracle_gather(&in, &ix, &eo, g.in_dc, g.ix_dc, g.B);
    EDML_GATHER_ND1_OPERATOR_DESC d = {&in.d, &ix.d, &out.d, g.in_dc, g.ix_dc, g.B};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_GATHER_ND1, &d};
    tl_tensor *ins[2] = {&in, &ix}, *outs[1] = {&out};
    char msg[512];
    int failures = 0;
    const edml_status s = run_op(&od, ins, 2, outs, 1, msg, sizeof msg);
    const edml_status want = bad ? EDML_STATUS_INDEX_OUT_OF_RANGE : EDML_STATUS_OK;
    if (s != want) {
        fprintf(stderr, "seed %llu iteration %d: GatherND returned %s, expected %s: %s\n", (unsigned long long)seed,
                iter, edml_status_string(s), edml_status_string(want), msg);
        failures = 1;
    } else if (!same_bytes(&eo, &out, "GatherND OutputTensor", seed, iter)) {
        describe("InputTensor", &in);
        describe("IndicesTensor", &ix);
        fprintf(stderr, "  InputDimensionCount %u IndicesDimensionCount %u BatchDimensionCount %u\n", g.in_dc, g.ix_dc,
                g.B);
        failures = 1;
    }
    tl_free(&in), tl_free(&ix), tl_free(&out), tl_free(&eo);
    return failures;
}

/* ElementWiseIf: random layouts, or one time in four a mask over leading
 * dims (the GPU's repeating condition), the rest packed and whole 16-byte
 * vectors (EDMLI_GLES_VECTOR_BYTES). */
static int case_elementwise_if(tl_rng *r, EDML_TENSOR_DATA_TYPE dt, UINT rank, uint64_t seed, int iter)
{
    tl_tensor c = {.dtype = EDML_TENSOR_DATA_TYPE_UINT8}, a = {.dtype = dt}, b = {.dtype = dt}, out = {.dtype = dt};
    random_sizes(r, &c, rank);
    const bool mask = rank >= 2 && tl_below(r, 4) == 0;
    if (mask) c.sizes[rank - 1] = EDMLI_GLES_VECTOR_BYTES * (1 + tl_below(r, 4));
    a.rank = b.rank = out.rank = rank;
    memcpy(a.sizes, c.sizes, sizeof c.sizes);
    memcpy(b.sizes, c.sizes, sizeof c.sizes);
    memcpy(out.sizes, c.sizes, sizeof c.sizes);
    tl_tensor *all[4] = {&c, &a, &b, &out};
    for (int i = 0; i < 4; i++) tl_layout(all[i], r, mask ? 0 : i < 3 ? in_layout(r) : out_layout(r));
    const UINT lead = mask ? 1 + tl_below(r, rank - 1) : 0; /* the condition repeats over these dims */
    for (UINT d = 0; d < lead; d++) c.strides[d] = 0, c.packed = false;
    for (int i = 0; i < 4; i++) tl_finish(all[i], r, i < 3 ? 0 : 0xa5);
    for (uint64_t i = 0; i < c.total; i++) c.buf[i] = tl_below(r, 3) ? (uint8_t)tl_below(r, 2) : (uint8_t)tl_next(r);
    tl_fill_random(&a, r);
    tl_fill_random(&b, r);
    tl_tensor eo;
    clone(&eo, &out);
    oracle_if(&c, &a, &b, &eo);
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC d = {&c.d, &a.d, &b.d, &out.d};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_ELEMENT_WISE_IF, &d};
    tl_tensor *ins[3] = {&c, &a, &b}, *outs[1] = {&out};
    char msg[512];
    int failures = 0;
    if (run_op(&od, ins, 3, outs, 1, msg, sizeof msg))
        failures = report("If", seed, iter, msg);
    else if (!same_bytes(&eo, &out, "If OutputTensor", seed, iter)) {
        describe("ConditionTensor", &c);
        describe("ATensor", &a);
        describe("BTensor", &b);
        failures = 1;
    }
    tl_free(&c), tl_free(&a), tl_free(&b), tl_free(&out), tl_free(&eo);
    return failures;
}

static int only_kind = -1; /* --op: the one kind of case run (0 TopK, 1 ArgMin, 2 GatherND, 3 If) */
static const char *const kind_names[4] = {"topk", "argmin", "gather_nd", "if"};

static int kind_of(const char *name)
{
    for (int k = 0; k < 4; k++)
        if (!strcmp(name, kind_names[k])) return k;
    return -1;
}

static int one_case(uint64_t seed, int iter)
{
    tl_rng r;
    tl_seed(&r, seed * 1000003u + (uint64_t)iter);
    int kind = (int)tl_below(&r, 4);
    if (only_kind >= 0) kind = only_kind;
    const EDML_TENSOR_DATA_TYPE dt = tl_all_types[tl_below(&r, 11)];
    const UINT rank = 1 + tl_below(&r, 5);
    int failures;
    switch (kind) {
    case 0: failures = case_topk(&r, dt, rank, seed, iter); break;
    case 1: failures = case_argreduce(&r, dt, rank, seed, iter); break;
    case 2: failures = case_gather_nd(&r, dt, rank, seed, iter); break;
    default: failures = case_elementwise_if(&r, dt, rank, seed, iter); break;
    }
    if (verbose) fprintf(stderr, "iteration %d kind %d: %s\n", iter, kind, failures ? "FAIL" : "ok");
    return failures;
}

int diff_main(int argc, char **argv);
int diff_main(int argc, char **argv)
{
    uint64_t seed = 1;
    int iters = 3000;
    static edml_board board;
    tl_inject_faults |= EDML_FAULT_BAKED_ONLY; /* a GLES execution that uploads parameters fails its case */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            backend_arg = argv[++i];
        else if (tl_parallel_arg(argc, argv, &i))
            continue;
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (!strcmp(argv[i], "--op") && i + 1 < argc && (only_kind = kind_of(argv[++i])) >= 0)
            continue;
        else if (!strcmp(argv[i], "--soak"))
            soak = true;
        else if (!strcmp(argv[i], "--command-list"))
            through_list = true;
        else if (!strcmp(argv[i], "--small-dispatches"))
            tl_inject_faults |= EDML_FAULT_SMALL_DISPATCHES;
        else if (!strcmp(argv[i], "--limits") && i + 1 < argc && case_limits_fault(argv[i + 1])) /* a small GPU's */
            tl_inject_faults |= case_limits_fault(argv[++i]);
        else if (!strcmp(argv[i], "--reorder")) /* with --command-list: kernels no barrier orders run backwards */
            tl_inject_faults |= EDML_FAULT_REORDER;
        else if (!strcmp(argv[i], "--may-refuse")) /* a GPU that may do nothing: refusals with a status pass */
            may_refuse = true;
        else if (!strcmp(argv[i], "--gpu-always")) /* AUTO on a board whose GPU thresholds are 0 */
            tl_board = case_board_gpu_always();
        else if (!strcmp(argv[i], "--one-thread")) /* the GL context kept current, as edml-bench's */
            tl_gles_one_thread = 1;
        else if (!strcmp(argv[i], "--small-parts"))
            tl_inject_faults |= EDML_FAULT_SMALL_PARTS;
        else if (!strcmp(argv[i], "--workgroup") && i + 1 < argc) { /* the GLES workgroup, e.g. V3D's 256 */
            board = *edml_board_builtin();
            board.gpu_workgroup = (uint32_t)atoi(argv[++i]);
            tl_board = &board;
        } else {
            fprintf(stderr,
                    "usage: diff [--backend ref|neon|gles|auto] [--seed N] [--iters N] [--soak] "
                    "[--small-dispatches] [--limits " CASE_LIMITS_NAMES "] [--small-parts] [--workgroup N] [--parallel "
                    "MODE] [--workers N] "
                    "[--command-list [--reorder]] [--one-thread] [--op topk|argmin|gather_nd|if] "
                    "[--gpu-always] [--may-refuse] [--verbose]\n");
            return 2;
        }
    }
    bool found = false;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (!strcmp(backend_arg, edml_backend_name((edml_backend)b))) backend = (edml_backend)b, found = true;
    if (!found) {
        fprintf(stderr, "diff: unknown backend %s\n", backend_arg);
        return 2;
    }
    if (!tl_parallel_start()) return 2;
    /* the backend under test alone (no GPU driver in a CPU run) */
    edml_status ds = tl_device_make(&g_dev, edml_device_size() + (1 << 20),
                                    backend == EDML_BACKEND_AUTO ? 0 : EDML_BACKEND_BIT(backend));
    if (ds) {
        fprintf(stderr, "diff: device: %s\n", edml_status_string(ds));
        return 1;
    }
    if (backend != EDML_BACKEND_AUTO && !(edml_device_backends(g_dev.dev) & EDML_BACKEND_BIT(backend))) {
        char info[256];
        fprintf(stderr, "diff: backend %s is not available: %s\n", backend_arg,
                edml_device_gles_info(g_dev.dev, info, sizeof info));
        printf("diff --backend %s: not available\n", backend_arg);
        tl_device_free(&g_dev);
        return 1;
    }
    if (tl_board) {
        char info[256];
        printf("diff: %s\n", edml_device_gles_info(g_dev.dev, info, sizeof info));
    }
    int failed = 0;
    edml_arena_stats st0, st;
    edml_device_arena_stats(g_dev.dev, &st0);
    soak_persistent = st0.persistent;
    size_t hw_at_half = 0;
    for (int it = 0; it < iters; it++) {
        failed += one_case(seed, it) ? 1 : 0;
        if (it == iters / 2) {
            edml_device_arena_stats(g_dev.dev, &st);
            hw_at_half = st.high_water;
        }
    }
    edml_device_arena_stats(g_dev.dev, &st);
    if (soak && st.high_water > soak_persistent + soak_need + 16) {
        fprintf(stderr, "soak: high-water mark %zu is above the largest single cycle's %zu\n", st.high_water,
                soak_persistent + soak_need + 16);
        failed++;
    }
    if (soak)
        printf("soak: %d create/execute/destroy cycles; arena %zu bytes held throughout; high-water mark %zu (%zu at "
               "half way), "
               "no more than the largest single cycle needs (%zu)\n",
               iters, st.persistent, st.high_water, hw_at_half, soak_persistent + soak_need);
    tl_device_free(&g_dev);
    if (g_ref.dev) tl_device_free(&g_ref);
    tl_parallel_stop();
    printf("diff --backend %s --seed %llu: %d cases, %d failed", backend_arg, (unsigned long long)seed, iters, failed);
    if (strcmp(tl_par.mode, "none"))
        printf(" (parallel-for %s, %u workers: %llu calls)", tl_par.mode, tl_par.workers,
               (unsigned long long)tl_par.calls);
    if (ran_on_ref) printf(" (%d of operators %s has no kernel for ran on ref)", ran_on_ref, backend_arg);
    if (above_gpu_arena)
        printf(" (%d beyond the GPU arena or shared memory, refused with their numbers, ran on ref)", above_gpu_arena);
    if (refused) printf(" (%d refused by the GPU backend with a status, nothing written, ran on ref)", refused);
    printf("\n");
    ran_on_ref = above_gpu_arena = refused = 0;
    return failed ? 1 : 0;
}

#ifndef EDML_TEST_IMAGE
int main(int argc, char **argv) { return diff_main(argc, argv); }
#endif
