/* Every NEON kernel path on shapes that take it, against the reference,
 * bit for bit: ArgMin/ArgMax of every type along short and long, packed,
 * strided and transposed axes (64-bit keys, rows of 1 to 1000 at every
 * width, one-element sets), TopK of 64-bit types with its rows split,
 * ElementWiseIf with a condition a pixel over its channels, GatherND of
 * slices of every small size and of points by every index type. Each runs on a
 * device of one worker and on one of 4 whose parallel-for runs the parts
 * in reverse order with parts of 64 bytes (EDML_FAULT_SMALL_PARTS), and
 * the large ones at full part size must be split among the 4 workers. */
#include "testlib.h"

#include "../src/core/cost_figures.h"

/* A parallel-for that runs parts last first on this thread, counting them. */
static uint32_t kn_most;
static void kn_backwards(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    (void)ctx;
    if (parts > kn_most) kn_most = parts;
    for (uint32_t p = parts; p-- > 0;) task(arg, p, p % 4);
}

static tl_device kn_dev[3]; /* 1 worker; 4, parts of 64 bytes; 4, parts of full size */
static uint32_t kn_parts;   /* the most parts of the last comparison's run at full part size */
static uint32_t kn_paths;   /* bit p: a run took kernel path p (cost_figures.h) */

/* The kernel path NEON's plan said it would take, and the parts it said:
 * what the run handed the parallel-for (at most one a worker for GatherND,
 * whose workers claim its parts as they come free), so that the cost
 * model prices each operator by the path and workers that run it. */
static void kn_path_check(const edmli_cost_path *cp, int dev, const char *what)
{
    const uint32_t handed = kn_most ? kn_most : 1, workers = dev ? 4u : 1u;
    uint32_t family = 0;
    edml_backend be = EDML_BACKEND_AUTO;
    const bool known = edmli_cost_path_info(cp->path, &family, &be) && be == EDML_BACKEND_NEON;
    const uint32_t ran = family == EDML_COST_GATHER_ND && handed > workers ? workers : handed;
    CHECK(known && ran == cp->parts, "%s: the plan says path %u (%s) in %u parts; %u ran", what, (unsigned)cp->path,
          edmli_cost_path_name(cp->path), (unsigned)cp->parts, (unsigned)ran);
    kn_paths |= 1u << cp->path;
}

static void kn_devices(void)
{
    for (int i = 0; i < 3; i++) {
        edml_device_desc dd = {0};
        dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
        if (i) dd.parallel_for = kn_backwards, dd.workers = 4;
        dd.inject_faults = i == 1 ? EDML_FAULT_SMALL_PARTS : 0;
        CHECK(tl_device_create(&kn_dev[i], edml_device_size() + (1u << 20), &dd) == EDML_STATUS_OK, "device %d", i);
    }
}

/* A tensor: sizes, strides (NULL: packed) and its bytes, zeroed. */
typedef struct kn_tensor {
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
    UINT sizes[4], strides[4];
    uint8_t *p;
} kn_tensor;

static void kn_make(kn_tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *strides)
{
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    if (strides) memcpy(t->strides, strides, rank * sizeof(UINT));
    const UINT64 bytes = edml_calc_buffer_tensor_size(dt, rank, t->sizes, strides ? t->strides : NULL);
    t->b = (EDML_BUFFER_TENSOR_DESC){dt, 0, rank, t->sizes, strides ? t->strides : NULL, bytes, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    t->p = calloc(1, (size_t)bytes + 16);
}

/* Values with many ties: a few distinct ones of each type (NaN, -0, +0,
 * infinities among the floats). */
static void kn_fill(kn_tensor *t, tl_rng *r)
{
    static const uint64_t f64[6] = {0,
                                    0x8000000000000000ull,
                                    0x3ff0000000000000ull,
                                    0xbff0000000000000ull,
                                    0x7ff8000000000000ull,
                                    0xfff0000000000000ull};
    static const uint32_t f32[6] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u, 0xff800000u};
    const uint32_t es = tl_type_size(t->b.DataType);
    for (UINT64 i = 0; i < t->b.TotalTensorSizeInBytes / es; i++) {
        uint64_t v = tl_next(r) >> (tl_below(r, 2) ? 0 : 61); /* small values or any */
        if (t->b.DataType == EDML_TENSOR_DATA_TYPE_FLOAT64 && tl_below(r, 3)) v = f64[tl_below(r, 6)];
        if (t->b.DataType == EDML_TENSOR_DATA_TYPE_FLOAT32 && tl_below(r, 3)) v = f32[tl_below(r, 6)];
        memcpy(t->p + i * es, &v, es);
    }
}

/* desc on REF, then on NEON on each device: outputs the same bytes. */
static int kn_compare(const EDML_OPERATOR_DESC *desc, kn_tensor *in, int nin, kn_tensor *out, int nout,
                      const char *what)
{
    uint8_t *ref[2];
    int bad = 0;
    edml_status ref_status = EDML_STATUS_OK;
    for (int run = 0; run < 4; run++) {
        const int dev = run ? run - 1 : 0;
        edml_operator *op;
        EDML_BINDING_PROPERTIES props;
        EDML_BUFFER_BINDING bi[3], bo[2], tb;
        for (int k = 0; k < nin; k++) bi[k] = (EDML_BUFFER_BINDING){in[k].p, 0, in[k].b.TotalTensorSizeInBytes};
        for (int k = 0; k < nout; k++) {
            memset(out[k].p, 0xa5, (size_t)out[k].b.TotalTensorSizeInBytes);
            bo[k] = (EDML_BUFFER_BINDING){out[k].p, 0, out[k].b.TotalTensorSizeInBytes};
        }
        const edml_status cs =
            edml_operator_create(kn_dev[dev].dev, desc, run ? EDML_BACKEND_NEON : EDML_BACKEND_REF, &op);
        CHECK(cs == EDML_STATUS_OK, "%s: not created on %s (status %d)", what, run ? "NEON" : "the reference", (int)cs);
        if (cs) return 1;
        kn_most = 0;
        edmli_cost_path cp = {0};
        CHECK(!run || edmli_cost_path_of(op, false, &cp), "%s: no path", what);
        edml_operator_get_binding_properties(op, &props);
        void *tmp = props.TemporaryResourceSize ? aligned_alloc(16, (props.TemporaryResourceSize + 15) & ~15ull) : NULL;
        tb = (EDML_BUFFER_BINDING){tmp, 0, props.TemporaryResourceSize};
        const edml_status s = edml_operator_execute(op, bi, (UINT)nin, bo, (UINT)nout, tmp ? &tb : NULL);
        edml_operator_destroy(op);
        free(tmp);
        kn_parts = kn_most;
        if (run && s == EDML_STATUS_OK) kn_path_check(&cp, dev, what);
        if (!run) ref_status = s;
        bad |= run && s != ref_status; /* the same status (an index out of range: on every backend) */
        for (int k = 0; k < nout; k++) {
            const size_t n = (size_t)out[k].b.TotalTensorSizeInBytes;
            if (!run)
                ref[k] = malloc(n), memcpy(ref[k], out[k].p, n);
            else if (memcmp(ref[k], out[k].p, n))
                bad = 1;
        }
    }
    for (int k = 0; k < nout; k++) free(ref[k]);
    CHECK(!bad, "%s: NEON differs from the reference", what);
    return bad;
}

static const EDML_TENSOR_DATA_TYPE kn_types[11] = {
    EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_DATA_TYPE_FLOAT16, EDML_TENSOR_DATA_TYPE_UINT32,
    EDML_TENSOR_DATA_TYPE_UINT16,  EDML_TENSOR_DATA_TYPE_UINT8,   EDML_TENSOR_DATA_TYPE_INT32,
    EDML_TENSOR_DATA_TYPE_INT16,   EDML_TENSOR_DATA_TYPE_INT8,    EDML_TENSOR_DATA_TYPE_FLOAT64,
    EDML_TENSOR_DATA_TYPE_UINT64,  EDML_TENSOR_DATA_TYPE_INT64};

/* ArgMin/ArgMax of [rows, n] along `axis`, packed, strided (every other
 * element of a row) or a transposed view. */
static void kn_argreduce(tl_rng *r, EDML_TENSOR_DATA_TYPE t, UINT rows, UINT n, UINT axis, int layout)
{
    const UINT sizes[2] = {rows, n}, osz[2] = {axis ? rows : 1, axis ? 1 : n};
    const UINT strided[2] = {2 * n, 2}, transposed[2] = {1, rows};
    kn_tensor in, out;
    kn_make(&in, t, 2, sizes, layout == 1 ? strided : layout == 2 ? transposed : NULL);
    kn_fill(&in, r);
    const EDML_TENSOR_DATA_TYPE ix = tl_below(r, 2) ? EDML_TENSOR_DATA_TYPE_UINT32 : EDML_TENSOR_DATA_TYPE_INT64;
    kn_make(&out, ix, 2, osz, NULL);
    EDML_ARGMIN_OPERATOR_DESC d = {&in.d, &out.d, 1, &axis,
                                   tl_below(r, 2) ? EDML_AXIS_DIRECTION_DECREASING : EDML_AXIS_DIRECTION_INCREASING};
    const EDML_OPERATOR_DESC od = {tl_below(r, 2) ? EDML_OPERATOR_ARGMAX : EDML_OPERATOR_ARGMIN, &d};
    char what[120];
    snprintf(what, sizeof what, "ArgMin/ArgMax type %d of [%u, %u] axis %u layout %d", (int)t, rows, n, axis, layout);
    kn_compare(&od, &in, 1, &out, 1, what);
    free(in.p), free(out.p);
}

static void test_argreduce_paths(tl_rng *r)
{
    static const UINT lens[17] = {1, 2, 3, 4, 5, 8, 12, 16, 21, 31, 33, 40, 64, 100, 129, 300, 1000};
    for (int t = 0; t < 11; t++)
        for (int l = 0; l < 17; l++)
            for (int layout = 0; layout < 3; layout++) {
                kn_argreduce(r, kn_types[t], 37 + tl_below(r, 40), lens[l], 1, layout);
                kn_argreduce(r, kn_types[t], 37 + tl_below(r, 40), lens[l], 0, layout);
            }
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_INT64, 2, 70000, 1, 0); /* few outputs: sets split */
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_FLOAT64, 70000, 2, 0, 2);
}

/* TopK of K along the rows of [rows, n], 64-bit types (and FLOAT32 for
 * comparison), split within the row where rows are few. */
static int kn_dir = -1;    /* TopK's direction: -1 either, at random */
static int kn_sampled = 0; /* TopK's rows: the elements a 4096 sample takes the largest */

/* The elements at j n / 4096 (a large K's sample) of each row of n of
 * INT32 or UINT32 (t) made the largest, so that fewer than K reach the sample's
 * threshold and the heap takes the row after all. */
static void kn_sample_largest(kn_tensor *in, EDML_TENSOR_DATA_TYPE t, UINT rows, UINT n)
{
    const uint32_t base = t == EDML_TENSOR_DATA_TYPE_INT32 ? 0x7fff0000u : 0xffff0000u;
    for (UINT row = 0; row < rows; row++)
        for (uint32_t j = 0; j < 4096; j++) {
            const uint32_t v = base + j;
            memcpy(in->p + ((uint64_t)row * n + (uint64_t)j * n / 4096) * 4, &v, 4);
        }
}

/* A 64-bit integer input's elements mostly its type's lowest, the largest
 * kept: fewer elements than K above the lowest among the first ones. */
static void kn_mostly_lowest(kn_tensor *in, EDML_TENSOR_DATA_TYPE t)
{
    const uint64_t low = t == EDML_TENSOR_DATA_TYPE_INT64 ? 0x8000000000000000ull : 0;
    for (UINT64 i = 0; i < in->b.TotalTensorSizeInBytes / 8; i++)
        if (i % 61 != 60) memcpy(in->p + 8 * i, &low, 8);
}

static int kn_lowest = 0; /* TopK's rows: kn_mostly_lowest */

static void kn_topk_along(tl_rng *r, EDML_TENSOR_DATA_TYPE t, UINT rows, UINT n, UINT axis, UINT k)
{
    const UINT sizes[2] = {rows, n}, osz[2] = {axis ? rows : k, axis ? k : n};
    kn_tensor in, out[2];
    kn_make(&in, t, 2, sizes, NULL);
    kn_fill(&in, r);
    if (kn_sampled) kn_sample_largest(&in, t, rows, n);
    if (kn_lowest) kn_mostly_lowest(&in, t);
    kn_make(&out[0], t, 2, osz, NULL);
    kn_make(&out[1], EDML_TENSOR_DATA_TYPE_UINT32, 2, osz, NULL);
    const EDML_AXIS_DIRECTION dir = kn_dir >= 0      ? (EDML_AXIS_DIRECTION)kn_dir
                                    : tl_below(r, 2) ? EDML_AXIS_DIRECTION_DECREASING
                                                     : EDML_AXIS_DIRECTION_INCREASING;
    EDML_TOP_K1_OPERATOR_DESC d = {&in.d, &out[0].d, &out[1].d, axis, k, dir};
    const EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &d};
    char what[100];
    snprintf(what, sizeof what, "TopK type %d of [%u, %u] axis %u K %u", (int)t, rows, n, axis, k);
    kn_compare(&od, &in, 1, out, 2, what);
    free(in.p), free(out[0].p), free(out[1].p);
}

static void kn_topk(tl_rng *r, EDML_TENSOR_DATA_TYPE t, UINT rows, UINT n, UINT k)
{
    kn_topk_along(r, t, rows, n, 1, k);
}

static void test_topk_paths(tl_rng *r)
{
    static const UINT cols[5] = {2, 3, 4, 8, 5};
    for (int t = 0; t < 8; t++) /* down a few columns: 2, 4, 8 folded into 16 lanes */
        for (int c = 0; c < 5; c++) {
            kn_topk_along(r, kn_types[t], 100 + tl_below(r, 900), cols[c], 0, 1 + tl_below(r, 9));
            kn_topk_along(r, kn_types[t], 40 + tl_below(r, 9), cols[c], 0, 5); /* K near the lanes' rows */
        }
    for (int t = 0; t < 8; t++) {                /* a large K along few rows: by threshold and buckets, or the heap */
        kn_topk(r, kn_types[t], 1, 70000, 300);  /* split among 4 workers; the heap on one */
        kn_topk(r, kn_types[t], 3, 70000, 1000); /* rows fewer than the workers */
        kn_topk(r, kn_types[t], 1, 17000, 4096); /* a K the heap's log K costs: on one worker too */
        kn_topk(r, kn_types[t], 1, 20000, 300);  /* neither: the heap */
    }
    kn_sampled = 1, kn_dir = EDML_AXIS_DIRECTION_DECREASING; /* fewer than K reach the threshold: the heap */
    for (int t = 2; t < 6; t += 3) kn_topk(r, kn_types[t], 1, 70000, 1000), kn_topk(r, kn_types[t], 1, 70000, 4096);
    kn_sampled = 0, kn_dir = -1;
    for (int t = 8; t < 11; t++) {
        kn_topk(r, kn_types[t], 1, 20000, 3); /* one row split 4 ways */
        kn_topk(r, kn_types[t], 3, 5000, 1);  /* three rows, each split */
        kn_topk(r, kn_types[t], 50, 77, 7);   /* many short rows */
        kn_topk(r, kn_types[t], 2, 4096, 64); /* a K of a chunk's keys */
        kn_topk(r, kn_types[t], 1, 100, 100); /* K of the whole row */
    }
    for (int dir = 0; dir < 2; dir++) { /* a small K kept sorted: both directions, ties among the smallest */
        kn_dir = dir;
        for (int t = 9; t < 11; t++) kn_topk(r, kn_types[t], 50, 77, 7), kn_topk(r, kn_types[t], 3, 5000, 16);
    }
    kn_lowest = 1, kn_dir = EDML_AXIS_DIRECTION_DECREASING; /* the first elements' floor is the lowest key */
    for (int t = 9; t < 11; t++) kn_topk(r, kn_types[t], 4, 3000, 12), kn_topk(r, kn_types[t], 2, 600, 16);
    kn_lowest = 0, kn_dir = -1;
}

/* ElementWiseIf of [outer, pixels, ch], the condition of [outer, pixels, 1] broadcast over ch. */
static void kn_if(tl_rng *r, EDML_TENSOR_DATA_TYPE t, UINT outer, UINT pixels, UINT ch)
{
    const UINT sizes[3] = {outer, pixels, ch}, cs[3] = {pixels + 3, 1, 0};
    kn_tensor in[3], out;
    kn_make(&in[0], EDML_TENSOR_DATA_TYPE_UINT8, 3, sizes, cs);
    kn_fill(&in[0], r);
    for (int k = 1; k < 3; k++) kn_make(&in[k], t, 3, sizes, NULL), kn_fill(&in[k], r);
    kn_make(&out, t, 3, sizes, NULL);
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC d = {&in[0].d, &in[1].d, &in[2].d, &out.d};
    const EDML_OPERATOR_DESC od = {EDML_OPERATOR_ELEMENT_WISE_IF, &d};
    char what[100];
    snprintf(what, sizeof what, "ElementWiseIf type %d of [%u, %u, %u], a condition a pixel", (int)t, outer, pixels,
             ch);
    kn_compare(&od, in, 3, &out, 1, what);
    for (int k = 0; k < 3; k++) free(in[k].p);
    free(out.p);
}

static void test_if_pixels(tl_rng *r)
{
    for (int t = 0; t < 11; t++) {
        const UINT es = tl_type_size(kn_types[t]);
        for (UINT ch = 1; ch <= 20 / es + 1; ch++) kn_if(r, kn_types[t], 1 + tl_below(r, 3), 1 + tl_below(r, 100), ch);
    }
}

static bool kn_far; /* GatherND: one index out of range (64-bit ones by 2^32) */

/* GatherND of [rows, cols] by `tuples` tuples of tc coordinates of type
 * ix in range (negative ones too where signed): rows (slices of cols
 * elements) by one, points by two. */
static void kn_gather(tl_rng *r, EDML_TENSOR_DATA_TYPE t, UINT rows, UINT cols, EDML_TENSOR_DATA_TYPE ix, UINT tuples,
                      UINT tc)
{
    const UINT sizes[2] = {rows, cols}, isz[2] = {tuples, tc};
    const UINT osz[2] = {tc == 1 ? tuples : 1, tc == 1 ? cols : tuples};
    kn_tensor in[2], out;
    kn_make(&in[0], t, 2, sizes, NULL);
    kn_fill(&in[0], r);
    kn_make(&in[1], ix, 2, isz, NULL);
    const bool sgn = ix == EDML_TENSOR_DATA_TYPE_INT32 || ix == EDML_TENSOR_DATA_TYPE_INT64;
    const uint32_t is = tl_type_size(ix);
    for (UINT i = 0; i < tuples * tc; i++) {
        const int64_t n = i % tc ? cols : rows;
        int64_t v = (int64_t)tl_below(r, (uint32_t)n) - (sgn && tl_below(r, 2) ? n : 0);
        if (kn_far && i == tuples * tc / 2) v += is == 8 ? (int64_t)1 << 32 : n; /* 64-bit: its low word in range */
        memcpy(in[1].p + (size_t)i * is, &v, is);                                /* little-endian: the low bytes */
    }
    kn_make(&out, t, 2, osz, NULL);
    EDML_GATHER_ND1_OPERATOR_DESC d = {&in[0].d, &in[1].d, &out.d, 2, 2, 0};
    const EDML_OPERATOR_DESC od = {EDML_OPERATOR_GATHER_ND1, &d};
    char what[120];
    snprintf(what, sizeof what, "GatherND of [%u, %u] type %d by %u tuples of %u of index type %d", rows, cols, (int)t,
             tuples, tc, (int)ix);
    kn_compare(&od, in, 2, &out, 1, what);
    free(in[0].p), free(in[1].p), free(out.p);
}

static void test_gather_slices(tl_rng *r)
{
    static const EDML_TENSOR_DATA_TYPE ix[4] = {EDML_TENSOR_DATA_TYPE_INT32, EDML_TENSOR_DATA_TYPE_UINT32,
                                                EDML_TENSOR_DATA_TYPE_INT64, EDML_TENSOR_DATA_TYPE_UINT64};
    for (int t = 0; t < 11; t++)
        for (UINT cols = 1; cols <= 24; cols++) {
            kn_gather(r, kn_types[t], 1 + tl_below(r, 50), cols, ix[cols % 4], 333, 1);
            kn_gather(r, kn_types[t], 1 + tl_below(r, 50), cols, ix[(cols + t) % 4], 333 + cols % 4, 2);
        }
    kn_far = true; /* out of range by its high word: clamped and reported by every backend alike */
    for (UINT tc = 1; tc <= 2; tc++) {
        kn_gather(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 30, 4, EDML_TENSOR_DATA_TYPE_INT64, 100, tc);
        kn_gather(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 30, 4, EDML_TENSOR_DATA_TYPE_UINT64, 100, tc);
        kn_gather(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 30, 4, EDML_TENSOR_DATA_TYPE_INT32, 100, tc);
        kn_gather(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 30, 4, EDML_TENSOR_DATA_TYPE_UINT32, 100, tc);
    }
    kn_far = false;
}

/* Large shapes at full part size: each path's work split among the 4 workers. */
static void test_parts(tl_rng *r)
{
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_INT64, 4096, 64, 1, 0);
    CHECK(kn_parts == 4, "ArgMax of INT64 rows (2 MiB): %u parts", kn_parts);
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_FLOAT64, 70000, 2, 0, 2);
    CHECK(kn_parts == 4, "ArgMax of 2 FLOAT64 columns of 70000 (a transposed view): %u parts", kn_parts);
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_UINT8, 300000, 5, 1, 0);
    CHECK(kn_parts == 4, "ArgMax of UINT8 rows of 5: %u parts", kn_parts);
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_INT16, 200000, 21, 1, 0);
    CHECK(kn_parts == 4, "ArgMax of INT16 rows of 21: %u parts", kn_parts);
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_UINT8, 300000, 3, 0, 0);
    CHECK(kn_parts == 4, "ArgMax down 3 UINT8 columns: %u parts", kn_parts);
    kn_argreduce(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 100000, 2, 0, 0);
    CHECK(kn_parts == 4, "ArgMax down 2 FLOAT32 columns: %u parts", kn_parts);
    kn_topk(r, EDML_TENSOR_DATA_TYPE_INT64, 64, 5000, 5);
    CHECK(kn_parts == 4, "TopK of INT64 rows: %u parts", kn_parts);
    kn_topk_along(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 100000, 8, 0, 5);
    CHECK(kn_parts <= 1, "TopK down 8 FLOAT32 columns (one sequence group): %u parts", kn_parts);
    kn_topk(r, EDML_TENSOR_DATA_TYPE_FLOAT32, 2, 300000, 5);
    CHECK(kn_parts == 4, "TopK of 2 FLOAT32 rows, each split in 2: %u parts", kn_parts);
    kn_topk(r, EDML_TENSOR_DATA_TYPE_UINT64, 1, 300000, 5);
    CHECK(kn_parts == 4, "TopK of one UINT64 row: %u parts", kn_parts);
    kn_dir = EDML_AXIS_DIRECTION_DECREASING; /* the largest: from the values over every bit, few ties */
    kn_topk(r, EDML_TENSOR_DATA_TYPE_UINT32, 1, 1u << 20, 65536);
    CHECK(kn_parts == 4, "TopK of 65536 of one UINT32 row of 1M: %u parts", kn_parts);
    kn_dir = -1;
    kn_if(r, EDML_TENSOR_DATA_TYPE_UINT8, 1, 300000, 3);
    CHECK(kn_parts == 4, "ElementWiseIf of UINT8 pixels of 3: %u parts", kn_parts);
}

int main(void)
{
    tl_rng r;
    tl_seed(&r, 62);
    kn_devices();
    test_argreduce_paths(&r);
    test_topk_paths(&r);
    test_if_pixels(&r);
    test_gather_slices(&r);
    test_parts(&r);
    for (uint32_t p = 1; p < EDMLI_COST_PATH_COUNT; p++) {
        uint32_t family;
        edml_backend be;
        CHECK(!edmli_cost_path_info(p, &family, &be) || be != EDML_BACKEND_NEON || (kn_paths >> p & 1u),
              "NEON's path %s of family %u taken by no shape", edmli_cost_path_name(p), (unsigned)family);
    }
    for (int i = 0; i < 3; i++) tl_device_free(&kn_dev[i]);
    return tl_summary("kernels");
}
