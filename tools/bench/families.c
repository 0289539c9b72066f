/* edml-bench --families [--threads N] [--json FILE] [--workload NAME]:
 * each operator over the shape families vision and language firmware
 * brings (a reduction along a short or long, packed or strided axis; 64-,
 * 16- and 8-bit types; transposed views; TopK of few or many; GatherND of
 * points and small slices by every index type; a mask over channels), on
 * NEON at 1 thread and at N, each row's outputs against REF's, its memory
 * floor (its bytes moved by a copy on as many threads), and the most parts
 * NEON handed the parallel-for. --json writes one row a family and thread
 * count; tools/family-peers.py times numpy and ONNX Runtime on the same
 * rows. */
#include "bench.h"
#include "../case.h"

#include <stdlib.h>
#include <string.h>

typedef enum fam_view {
    PACKED,
    TRANSPOSED,
    MASK_CHANNELS
} fam_view;

typedef struct family {
    const char *name;
    EDML_OPERATOR_TYPE type;
    EDML_TENSOR_DATA_TYPE dt, ix; /* ix: GatherND's index type */
    UINT rank, sizes[3];
    UINT axis, k; /* the reduced axis, TopK's axis and K; GatherND: tuple length and tuples */
    fam_view view;
} family;

#define F32 EDML_TENSOR_DATA_TYPE_FLOAT32
#define U8 EDML_TENSOR_DATA_TYPE_UINT8
#define AMAX EDML_OPERATOR_ARGMAX
#define AMIN EDML_OPERATOR_ARGMIN
#define TOPK EDML_OPERATOR_TOP_K1
#define GND EDML_OPERATOR_GATHER_ND1
#define IF EDML_OPERATOR_ELEMENT_WISE_IF

static const family families[] = {
    {"argmax_nhwc3_u8", AMAX, U8, 0, 3, {1080, 1920, 3}, 2, 0, PACKED},
    {"argmax_nhwc3_f32", AMAX, F32, 0, 3, {1080, 1920, 3}, 2, 0, PACKED},
    {"argmax_rows8_f32", AMAX, F32, 0, 2, {1048576, 8}, 1, 0, PACKED},
    {"argmax_nhwc21_f32", AMAX, F32, 0, 3, {360, 640, 21}, 2, 0, PACKED},
    {"argmax_nchw21_f32", AMAX, F32, 0, 3, {21, 360, 640}, 0, 0, PACKED},
    {"argmax_rows80_f32", AMAX, F32, 0, 2, {8400, 80}, 1, 0, PACKED},
    {"argmax_rows80_view_f32", AMAX, F32, 0, 2, {8400, 80}, 1, 0, TRANSPOSED},
    {"argmax_rows4096_f32", AMAX, F32, 0, 2, {1024, 4096}, 1, 0, PACKED},
    {"argmax_one_row_f32", AMAX, F32, 0, 2, {1, 4194304}, 1, 0, PACKED},
    {"argmin_cols_f32", AMIN, F32, 0, 2, {4096, 1024}, 0, 0, PACKED},
    {"argmax_short_cols_u8", AMAX, U8, 0, 2, {1048576, 3}, 0, 0, PACKED},
    {"argmax_rows1024_i64", AMAX, EDML_TENSOR_DATA_TYPE_INT64, 0, 2, {2048, 1024}, 1, 0, PACKED},
    {"argmax_rows1024_u64", AMAX, EDML_TENSOR_DATA_TYPE_UINT64, 0, 2, {2048, 1024}, 1, 0, PACKED},
    {"argmax_rows1024_f64", AMAX, EDML_TENSOR_DATA_TYPE_FLOAT64, 0, 2, {2048, 1024}, 1, 0, PACKED},
    {"argmin_rows21_i8", AMIN, EDML_TENSOR_DATA_TYPE_INT8, 0, 2, {230400, 21}, 1, 0, PACKED},
    {"argmax_rows12_u16", AMAX, EDML_TENSOR_DATA_TYPE_UINT16, 0, 2, {1048576, 12}, 1, 0, PACKED},
    {"argmax_rows1024_i16", AMAX, EDML_TENSOR_DATA_TYPE_INT16, 0, 2, {4096, 1024}, 1, 0, PACKED},
    {"topk5_vocab_f32", TOPK, F32, 0, 2, {8, 50257}, 1, 5, PACKED},
    {"topk65536_one_row_f32", TOPK, F32, 0, 2, {1, 1048576}, 1, 65536, PACKED},
    {"topk5_short_cols_f32", TOPK, F32, 0, 2, {16384, 8}, 0, 5, PACKED},
    {"topk10_rows_i64", TOPK, EDML_TENSOR_DATA_TYPE_INT64, 0, 2, {1024, 1024}, 1, 10, PACKED},
    {"gather_points_u32", GND, F32, EDML_TENSOR_DATA_TYPE_UINT32, 2, {1024, 1024}, 2, 1048576, PACKED},
    {"gather_points_i64", GND, F32, EDML_TENSOR_DATA_TYPE_INT64, 2, {1024, 1024}, 2, 1048576, PACKED},
    {"gather_slices16_u32", GND, F32, EDML_TENSOR_DATA_TYPE_UINT32, 2, {65536, 4}, 1, 1048576, PACKED},
    {"gather_rows1k_u32", GND, F32, EDML_TENSOR_DATA_TYPE_UINT32, 2, {32000, 256}, 1, 4096, PACKED},
    {"if_mask_channels_u8", IF, U8, 0, 3, {1080, 1920, 3}, 0, 0, MASK_CHANNELS},
    {"if_mask_channels_f32", IF, F32, 0, 3, {1080, 1920, 3}, 0, 0, MASK_CHANNELS},
    {"if_full_f32", IF, F32, 0, 3, {1080, 1920, 3}, 0, 0, PACKED},
};
#define FAMILIES (int)(sizeof families / sizeof families[0])

/* Random data of any type: floats in [-1, 1), integers over every bit. */
static void fam_fill(tensor *t)
{
    const uint32_t es = edml_data_type_size(t->dtype);
    for (uint64_t i = 0; i < t->bytes / es; i++) {
        uint64_t v = rng();
        if (t->dtype == F32) {
            const float f = uniform();
            memcpy(&v, &f, 4);
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT64) {
            const double d = uniform();
            memcpy(&v, &d, 8);
        }
        memcpy(t->host + i * es, &v, es);
    }
}

/* An ArgMin/ArgMax's input as a view of its transpose: rank 2, strides
 * (1, rows). */
static void fam_transpose(workload *w, const family *f)
{
    const UINT strides[2] = {1, f->sizes[0]};
    free(w->in[0].host);
    tensor_init(&w->in[0], f->dt, 2, f->sizes, strides);
    fam_fill(&w->in[0]);
    w->u.argreduce.InputTensor = &w->in[0].d;
}

/* The family at `scale` (bench-insns' smaller runs): its largest dim but
 * the axis (GatherND: its tuples) shrunk, never a row; a family of one
 * row or a few columns whole. */
static void fam_workload(workload *w, const family *fam, double scale)
{
    family sc = *fam;
    const family *f = &sc;
    UINT *dim = &sc.k;
    if (f->type != GND) {
        dim = NULL;
        for (UINT d = 0; d < f->rank; d++)
            if ((f->type == IF || d != f->axis) && sc.sizes[d] >= 64 && (!dim || sc.sizes[d] > *dim))
                dim = &sc.sizes[d];
    }
    if (scale < 1 && dim) *dim = *dim * scale >= 1 ? (UINT)(*dim * scale) : 1;
    memset(w, 0, sizeof *w);
    w->name = f->name;
    if (f->type == AMAX || f->type == AMIN) {
        argreduce_workload(w, f->type, f->dt, f->rank, f->sizes, &f->axis, 1);
        fam_fill(&w->in[0]);
        if (f->view == TRANSPOSED) fam_transpose(w, f);
    } else if (f->type == TOPK) {
        topk_workload(w, f->dt, f->sizes[0], f->sizes[1], f->axis, f->k, EDML_AXIS_DIRECTION_DECREASING);
        fam_fill(&w->in[0]);
    } else if (f->type == GND) {
        const UINT ix[2] = {f->k, f->axis};
        gather_workload(w, 2, f->sizes, ix, f->ix, 0);
    } else {
        const UINT cs[3] = {f->sizes[1], 1, 0};
        if_workload(w, f->dt, f->rank, f->sizes, f->view == MASK_CHANNELS ? cs : NULL);
        fam_fill(&w->in[1]);
        fam_fill(&w->in[2]);
    }
    for (int k = 0; k < w->nin; k++) w->bytes += w->in[k].bytes;
    for (int k = 0; k < w->nout; k++) w->bytes += w->out[k].bytes;
}

/* A parallel-for that counts the most parts it was handed. */
typedef struct fam_pf {
    edml_pool *pool;
    uint32_t most;
} fam_pf;

static void fam_parallel_for(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    fam_pf *c = ctx;
    if (parts > c->most) c->most = parts;
    edml_pool_parallel_for(c->pool, task, arg, parts);
}

typedef struct fam_dev {
    edml_device *dev;
    fam_pf pf;
    void *arena, *pool_mem;
} fam_dev;

static bool fam_dev_open(fam_dev *d, uint32_t threads)
{
    memset(d, 0, sizeof *d);
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    if (threads > 1) {
        const size_t pb = edml_pool_size(threads, 0);
        if (!pb || posix_memalign(&d->pool_mem, 64, pb) ||
            edml_pool_create(threads, 0, d->pool_mem, pb, &d->pf.pool) != EDML_STATUS_OK)
            return false;
        dd.parallel_for = fam_parallel_for;
        dd.parallel_context = &d->pf;
        dd.workers = threads;
    }
    const size_t size = edml_device_size() + (1u << 20);
    d->arena = aligned_alloc(16, size);
    if (!d->arena) return false;
    memset(d->arena, 0, size);
    return edml_device_create(&dd, d->arena, size, &d->dev) == EDML_STATUS_OK;
}

static void fam_dev_close(fam_dev *d)
{
    if (d->dev) edml_device_destroy(d->dev);
    if (d->pf.pool) edml_pool_destroy(d->pf.pool);
    free(d->arena);
    free(d->pool_mem);
}

/* One row: NEON's median on d against ref's outputs, the floor, the parts. */
typedef struct fam_row {
    double neon, floor;
    uint32_t parts;
    bool same;
} fam_row;

static fam_row fam_time(fam_dev *d, workload *w, uint8_t *const *ref)
{
    fam_row r = {-1, copy_time(w->bytes, d->pf.pool), 0, false};
    timed_op t;
    for (int k = 0; k < w->nout; k++) memset(w->out[k].host, 0xa5, (size_t)w->out[k].bytes);
    if (timed_open(d->dev, w, EDML_BACKEND_NEON, &t)) return r;
    r.same = t.first == EDML_STATUS_OK && same_outputs(w, ref);
    d->pf.most = 0;
    r.neon = timed_median(&t);
    r.parts = d->pf.most ? d->pf.most : 1;
    timed_close(&t);
    return r;
}

/* REF's outputs, once (its time too: one call). */
static bool fam_reference(fam_dev *d, workload *w, uint8_t **ref, double *sec)
{
    timed_op t;
    const double t0 = now_s();
    if (timed_open(d->dev, w, EDML_BACKEND_REF, &t) || t.first) return false;
    *sec = now_s() - t0;
    for (int k = 0; k < w->nout; k++) {
        ref[k] = malloc((size_t)w->out[k].bytes);
        memcpy(ref[k], w->out[k].host, (size_t)w->out[k].bytes);
    }
    timed_close(&t);
    return true;
}

static void fam_json_row(FILE *f, const family *fa, const workload *w, uint32_t threads, double ref_s, const fam_row *r,
                         bool first)
{
    static const char *const views[3] = {"packed", "transposed", "mask_channels"};
    fprintf(f, "%s\n    {\"kind\": \"family\", \"family\": \"%s\", \"op\": \"%s\", \"dtype\": \"%s\"", first ? "" : ",",
            fa->name,
            fa->type == TOPK   ? "topk"
            : fa->type == GND  ? "gather_nd"
            : fa->type == IF   ? "where"
            : fa->type == AMAX ? "argmax"
                               : "argmin",
            case_dtype_name(fa->dt));
    fprintf(f, ", \"sizes\": [%u", fa->sizes[0]);
    for (UINT i = 1; i < fa->rank; i++) fprintf(f, ", %u", fa->sizes[i]);
    fprintf(f, "], \"axis\": %u, \"k\": %u, \"index_type\": \"%s\", \"view\": \"%s\"", fa->axis, fa->k,
            fa->ix ? case_dtype_name(fa->ix) : "", views[fa->view]);
    fprintf(f, ", \"threads\": %u, \"bytes\": %llu, \"ref_ms\": %.6f, \"neon_ms\": %.6f, \"floor_ms\": %.6f", threads,
            (unsigned long long)w->bytes, ref_s * 1e3, r->neon * 1e3, r->floor * 1e3);
    fprintf(f, ", \"ratio_to_floor\": %.3f, \"parts\": %u, \"correct\": %s}", r->neon / r->floor, r->parts,
            r->same ? "true" : "false");
}

/* Every family at 1 thread and at `threads`: printed, and to f. */
static int fam_run(fam_dev *devs, const uint32_t *threads, int nt, const options *o, FILE *f)
{
    int wrong = 0, rows = 0;
    printf("%-24s %7s %10s %10s %10s %7s %5s\n", "family", "threads", "ref ms", "neon ms", "floor ms", "x floor",
           "parts");
    for (int i = 0; i < FAMILIES; i++) {
        const family *fa = &families[i];
        if (o->only && strcmp(o->only, fa->name)) continue;
        workload w;
        fam_workload(&w, fa, 1);
        uint8_t *ref[2] = {NULL, NULL};
        double ref_s = -1;
        if (!fam_reference(&devs[0], &w, ref, &ref_s)) {
            printf("%-24s REF failed\n", fa->name);
            wrong++;
            free_workload(&w);
            continue;
        }
        for (int t = 0; t < nt; t++) {
            const fam_row r = fam_time(&devs[t], &w, ref);
            printf("%-24s %7u %10.3f %10.3f %10.3f %7.2f %5u%s\n", fa->name, threads[t], ref_s * 1e3, r.neon * 1e3,
                   r.floor * 1e3, r.neon / r.floor, r.parts, r.same ? "" : "  DIFFERS FROM REF");
            wrong += !r.same;
            if (f) fam_json_row(f, fa, &w, threads[t], ref_s, &r, rows++ == 0);
        }
        for (int k = 0; k < 2; k++) free(ref[k]);
        free_workload(&w);
    }
    return wrong;
}

int bench_families(const options *o)
{
    const uint32_t threads[2] = {1, bench_threads};
    const int nt = bench_threads > 1 ? 2 : 1;
    fam_dev devs[2];
    for (int t = 0; t < nt; t++)
        if (!fam_dev_open(&devs[t], threads[t])) {
            fprintf(stderr, "edml-bench: no device of %u threads with NEON\n", (unsigned)threads[t]);
            return 1;
        }
    FILE *f = o->json ? fopen(o->json, "w") : NULL;
    if (o->json && !f) return 1;
    printf("edml-bench --families: board %s, library %s; median of %d calls after a warm-up\n",
           edml_board_builtin()->name, edml_version(), iters);
    if (f) fprintf(f, "{\"library\": \"%s\", \"iters\": %d, \"rows\": [", edml_version(), iters);
    const int wrong = fam_run(devs, threads, nt, o, f);
    if (f) fprintf(f, "\n]}\n"), fclose(f);
    for (int t = 0; t < nt; t++) fam_dev_close(&devs[t]);
    if (wrong) printf("%d rows differ from the reference backend\n", wrong);
    return wrong ? 1 : 0;
}

/* --families --workload NAME --backend B --calls N (bench-insns): N calls
 * of one family on one backend after the same set-up; prints its elements
 * (the input's, A's for ElementWiseIf, the tuples' for GatherND). */
int families_count_calls(const options *o)
{
    int i = 0;
    while (i < FAMILIES && strcmp(o->only ? o->only : "", families[i].name)) i++;
    if (i == FAMILIES) return 2;
    const char *b = o->only_backend ? o->only_backend : "ref";
    const edml_backend be = !strcmp(b, "neon") ? EDML_BACKEND_NEON : EDML_BACKEND_REF;
    workload w;
    fam_workload(&w, &families[i], o->scale);
    fam_dev d;
    timed_op t;
    if (!fam_dev_open(&d, 1)) return 1;
    if (!strcmp(b, "plain")) { /* the plain loop: one call and N more */
        for (int c = 0; c <= o->only_calls; c++) plain_run(&w);
    } else {
        if (timed_open(d.dev, &w, be, &t) || t.first) return 1; /* and N calls more */
        for (int c = 0; c < o->only_calls; c++)
            if (edml_operator_execute(t.op, t.bi, t.nin, t.bo, t.nout, t.tmp ? &t.tb : NULL)) return 1;
    }
    const int counted = families[i].type == GND ? 1 : families[i].type == IF ? 1 : 0;
    printf("%llu\n", (unsigned long long)(families[i].type == GND ? w.in[1].sizes[0] : w.in[counted].count));
    return 0;
}

int families_list(void)
{
    for (int i = 0; i < FAMILIES; i++) printf("%s\n", families[i].name);
    return 0;
}
