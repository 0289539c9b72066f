/* edml-bench: the workloads of docs/bench.md on every backend.
 *
 *   edml-bench [--workload NAME] [--backend NAME] [--json FILE] [--iters N]
 *              [--scale F] [--threads N] [--sweep] [--crossover] [--chain N] [--gpu-floor] [--gpu-time]
 *              [--any-thread]
 *              [--topk ROWS,N,K[,0]] [--list]
 *
 * For each workload and backend: the median time per call over N calls
 * (at least 10) after a warm-up, the effective bandwidth (each input element
 * read once, each output element written once, over the time) and its ratio
 * to a plain copy of the same number of bytes measured in the same run
 * (memcpy on the CPU; a compute-shader copy on the GPU). For GLES both the
 * time with the data resident in the GPU arena and host to host. Each
 * backend's output is compared once with the reference backend's, so a fast
 * wrong kernel cannot pass. TopK rows are also timed against a full stable
 * sort of each row (the naive baseline). --scale shrinks every workload (for
 * quick runs); --crossover times NEON against GLES over growing sizes.
 * --threads N gives the device edml's pool of N workers (the copy it is
 * compared with then runs on the same N threads); --sweep times one backend
 * (NEON unless --backend names another) at 1, 2, 4, 8 and 16 threads: time,
 * scaling over 1 thread, and the fraction of an N-thread copy; each thread
 * count's outputs must equal 1 thread's, bit for bit. Every JSON row
 * carries "threads". --chain N runs N executions of one small workload
 * (topk_cls unless --workload names another) on GLES one by one, then as
 * one command list, and prints both times: with host memory in and out,
 * then with every tensor in GPU buffers. --gpu-floor first times bare GL
 * in the same process (gl_floor: a one-workgroup dispatch and a fence;
 * gl_copy: a 64 MiB copy shader; gl_gather, gl_rows, gl_read and
 * gl_rowread: the least kernels of gather_points', gather_rows' and
 * argmin_inner's work; what each step of an execution adds, with two ways
 * to read 8 bytes back through a persistent mapping where the driver has
 * GL_EXT_buffer_storage), then the workload --workload names. --workgroup N
 * runs the GLES kernels with workgroups of N invocations. --topk ROWS,N,K
 * times one TopK outside docs/bench.md, K of each of ROWS rows of N FLOAT32
 * (",0": down columns of N, axis 0), as the workload "topk_rows".
 * --gpu-time splits GLES calls by the GPU's clock (GL_EXT_disjoint_timer_query):
 * the GPU's busy span from a timestamp before the work to one after its
 * fence, and the rest of the call; bare GL kernels, then each workload (its
 * outputs checked by the rows above, not here).
 * The device keeps its one GL context current (gles_one_thread = 1);
 * --any-thread creates it as a multi-threaded application would (0: a
 * context per calling thread, kept current). */
#define _POSIX_C_SOURCE 200809L
#include "bench/bench.h"
#include "edml.h"
#include "../port/edml_port.h" /* --gpu-floor: bare GL through the port */

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- data ------------------------------------------------------------------ */

static uint64_t rng_state = 0x1234abcd5678ef01ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static float uniform(void) { return (float)((double)(rng() >> 11) / 9007199254740992.0 * 2.0 - 1.0); }

static uint16_t to_half(float f) /* round to nearest even, for the data of FLOAT16 workloads */
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffff;
    int ne = (int)e - 127 + 15;
    if (e == 0xff) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    if (ne >= 31) return (uint16_t)(sign | 0x7c00u);
    if (ne <= 0) {
        if (ne < -10) return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - ne), h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)ne << 10) | (m >> 13), rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

typedef struct tensor {
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rank, sizes[8], strides[8];
    bool strided;
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
    uint8_t *host;
    UINT64 bytes;
    uint64_t count;
} tensor;

static void tensor_init(tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *strides)
{
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->rank = rank;
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    if (strides) memcpy(t->strides, strides, rank * sizeof(UINT)), t->strided = true;
    t->count = 1;
    for (UINT i = 0; i < rank; i++) t->count *= sizes[i];
    t->bytes = edml_calc_buffer_tensor_size(dt, rank, t->sizes, strides ? t->strides : NULL);
    t->b =
        (EDML_BUFFER_TENSOR_DESC){dt, EDML_TENSOR_FLAG_NONE, rank, t->sizes, strides ? t->strides : NULL, t->bytes, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    if (posix_memalign((void **)&t->host, 64, (size_t)t->bytes + 64)) abort();
    memset(t->host, 0, (size_t)t->bytes);
}

static void fill_uniform(tensor *t)
{
    uint64_t n = t->bytes / edml_data_type_size(t->dtype);
    for (uint64_t i = 0; i < n; i++) {
        if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32) {
            float f = uniform();
            memcpy(t->host + 4 * i, &f, 4);
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT16) {
            uint16_t h = to_half(uniform());
            memcpy(t->host + 2 * i, &h, 2);
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_UINT8)
            t->host[i] = (uint8_t)rng();
    }
}

static void fill_conditions(tensor *t)
{
    for (uint64_t i = 0; i < t->bytes; i++) t->host[i] = (uint8_t)(rng() & 1);
}

static void fill_indices(tensor *t, const UINT *ranges, UINT tuple)
{
    uint64_t n = t->count;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = rng() % ranges[i % tuple];
        if (t->dtype == EDML_TENSOR_DATA_TYPE_INT64)
            memcpy(t->host + 8 * i, &v, 8);
        else {
            uint32_t w = (uint32_t)v;
            memcpy(t->host + 4 * i, &w, 4);
        }
    }
}

/* ---- workloads ------------------------------------------------------------- */

typedef struct workload {
    const char *name;
    const char *what;
    int nin, nout;
    tensor in[3], out[2];
    UINT axes[2];
    union {
        EDML_TOP_K1_OPERATOR_DESC topk;
        EDML_GATHER_ND1_OPERATOR_DESC gather_nd;
        EDML_ARGMIN_OPERATOR_DESC argreduce;
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC elementwise_if;
    } u;
    EDML_OPERATOR_DESC desc;
    uint64_t bytes;         /* each input element read once, each output element written once */
    UINT topk_axis, topk_k; /* for the sort baseline */
} workload;

static UINT scaled(UINT v, double scale)
{
    UINT s = (UINT)(v * scale);
    return s < 1 ? 1 : s;
}

static void topk_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rows, UINT cols, UINT axis, UINT k,
                          EDML_AXIS_DIRECTION dir)
{
    UINT in_sizes[2] = {rows, cols}, out_sizes[2] = {rows, cols};
    out_sizes[axis] = k;
    w->nin = 1, w->nout = 2;
    tensor_init(&w->in[0], dt, 2, in_sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->out[0], dt, 2, out_sizes, NULL);
    tensor_init(&w->out[1], EDML_TENSOR_DATA_TYPE_UINT32, 2, out_sizes, NULL);
    w->u.topk = (EDML_TOP_K1_OPERATOR_DESC){&w->in[0].d, &w->out[0].d, &w->out[1].d, axis, k, dir};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_TOP_K1, &w->u};
    w->topk_axis = axis;
    w->topk_k = k;
}

static void argmin_workload(workload *w, EDML_OPERATOR_TYPE type, UINT rank, const UINT *sizes, const UINT *axes,
                            UINT naxes)
{
    UINT out_sizes[8];
    memcpy(out_sizes, sizes, rank * sizeof(UINT));
    for (UINT a = 0; a < naxes; a++) out_sizes[axes[a]] = 1;
    w->nin = 1, w->nout = 1;
    tensor_init(&w->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, rank, sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->out[0], EDML_TENSOR_DATA_TYPE_UINT32, rank, out_sizes, NULL);
    memcpy(w->axes, axes, naxes * sizeof(UINT));
    w->u.argreduce =
        (EDML_ARGMIN_OPERATOR_DESC){&w->in[0].d, &w->out[0].d, naxes, w->axes, EDML_AXIS_DIRECTION_INCREASING};
    w->desc = (EDML_OPERATOR_DESC){type, &w->u};
}

static void gather_workload(workload *w, UINT rank, const UINT *in_sizes, const UINT *ix_sizes,
                            EDML_TENSOR_DATA_TYPE ix_type, UINT batch)
{
    UINT T = ix_sizes[rank - 1];
    /* output sizes: batch, positions, slice (right-aligned) */
    UINT list[16], m = 0, out_sizes[8];
    for (UINT b = 0; b < batch; b++) list[m++] = in_sizes[b];
    for (UINT p = batch; p + 1 < rank; p++) list[m++] = ix_sizes[p];
    for (UINT s = batch + T; s < rank; s++) list[m++] = in_sizes[s];
    for (UINT j = 0; j < rank; j++) out_sizes[j] = j + m >= rank ? list[j + m - rank] : 1;
    w->nin = 2, w->nout = 1;
    tensor_init(&w->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, rank, in_sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->in[1], ix_type, rank, ix_sizes, NULL);
    UINT ranges[8];
    for (UINT j = 0; j < T; j++) ranges[j] = in_sizes[batch + j];
    fill_indices(&w->in[1], ranges, T);
    tensor_init(&w->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, rank, out_sizes, NULL);
    w->u.gather_nd = (EDML_GATHER_ND1_OPERATOR_DESC){&w->in[0].d, &w->in[1].d, &w->out[0].d, rank, rank, batch};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_GATHER_ND1, &w->u};
}

static void if_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *cond_strides)
{
    w->nin = 3, w->nout = 1;
    tensor_init(&w->in[0], EDML_TENSOR_DATA_TYPE_UINT8, rank, sizes, cond_strides);
    fill_conditions(&w->in[0]);
    tensor_init(&w->in[1], dt, rank, sizes, NULL);
    tensor_init(&w->in[2], dt, rank, sizes, NULL);
    fill_uniform(&w->in[1]);
    fill_uniform(&w->in[2]);
    tensor_init(&w->out[0], dt, rank, sizes, NULL);
    w->u.elementwise_if = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&w->in[0].d, &w->in[1].d, &w->in[2].d, &w->out[0].d};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &w->u};
}

static const char *const workload_names[] = {"topk_cls",      "topk_det",     "topk_vocab",   "topk_vocab_f16",
                                             "topk_axis0",    "topk_wide",    "gather_rows",  "gather_batch",
                                             "gather_points", "argmin_inner", "argmin_outer", "argmin_all",
                                             "argmax_seg",    "if_f32",       "if_u8",        "if_bcast"};
#define WORKLOADS (int)(sizeof workload_names / sizeof *workload_names)
/* --topk ROWS,N,K[,0]: one more workload, index WORKLOADS, outside
 * docs/bench.md: TopK (FLOAT32, DECREASING) of K from each of ROWS rows of
 * N, along the packed axis (,0: down N x ROWS columns, axis 0) */
static UINT topk_rows[4];
static const char *workload_name(int i) { return i < WORKLOADS ? workload_names[i] : "topk_rows"; }

static void make_workload(workload *w, int i, double sc)
{
    memset(w, 0, sizeof *w);
    rng_state = 0x1234abcd5678ef01ull + (uint64_t)i;
    w->name = workload_name(i);
    switch (i) {
    case 0: topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 1000, 1, 5, EDML_AXIS_DIRECTION_DECREASING); break;
    case WORKLOADS: {
        const UINT r = topk_rows[0], n = topk_rows[1], axis = topk_rows[3] ? 1 : 0;
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, axis ? r : n, axis ? n : r, axis, topk_rows[2],
                      EDML_AXIS_DIRECTION_DECREASING);
        break;
    }
    /* --scale shrinks the number of rows, never a row: the row length is what TopK is about */
    case 1: topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 25200, 1, 300, EDML_AXIS_DIRECTION_DECREASING); break;
    case 2:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, scaled(8, sc), 32000, 1, 40, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 3:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT16, scaled(8, sc), 32000, 1, 40, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 4: /* columns in 16s, as in the full 1024: a CPU runs 16 side by side */
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 4096, (scaled(1024, sc) + 15) / 16 * 16, 0, 8,
                      EDML_AXIS_DIRECTION_INCREASING);
        break;
    case 5:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, scaled(256, sc), 65536, 1, 16, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 6: {
        UINT a[2] = {scaled(32000, sc), 512}, b[2] = {scaled(8192, sc), 1};
        gather_workload(w, 2, a, b, EDML_TENSOR_DATA_TYPE_INT32, 0);
        break;
    }
    case 7: {
        UINT a[3] = {16, scaled(4096, sc), 256}, b[3] = {16, scaled(1024, sc), 1};
        gather_workload(w, 3, a, b, EDML_TENSOR_DATA_TYPE_INT32, 1);
        break;
    }
    case 8: {
        UINT a[2] = {1024, 1024}, b[2] = {scaled(1048576, sc), 2};
        gather_workload(w, 2, a, b, EDML_TENSOR_DATA_TYPE_INT64, 0);
        break;
    }
    case 9: {
        UINT s[2] = {scaled(4096, sc), 4096}, ax[1] = {1};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 1);
        break;
    }
    case 10: { /* columns in 16s, as in the full 4096: a CPU runs 16 side by side */
        UINT s[2] = {4096, (scaled(4096, sc) + 15) / 16 * 16}, ax[1] = {0};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 1);
        break;
    }
    case 11: {
        UINT s[2] = {scaled(4096, sc), 4096}, ax[2] = {0, 1};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 2);
        break;
    }
    case 12: {
        UINT s[4] = {1, 21, scaled(512, sc), 512}, ax[1] = {1};
        argmin_workload(w, EDML_OPERATOR_ARGMAX, 4, s, ax, 1);
        break;
    }
    case 13: {
        UINT s[1] = {scaled(16777216, sc)};
        if_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, s, NULL);
        break;
    }
    case 14: {
        UINT s[1] = {scaled(67108864, sc)};
        if_workload(w, EDML_TENSOR_DATA_TYPE_UINT8, 1, s, NULL);
        break;
    }
    default: {
        UINT s[4] = {1, 3, scaled(1024, sc), 1024}, cs[4] = {0, 0, 1024, 1};
        if_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT16, 4, s, cs);
        break;
    }
    }
    for (int k = 0; k < w->nin; k++) w->bytes += w->in[k].count * edml_data_type_size(w->in[k].dtype);
    for (int k = 0; k < w->nout; k++) w->bytes += w->out[k].count * edml_data_type_size(w->out[k].dtype);
}

static void free_workload(workload *w)
{
    for (int k = 0; k < w->nin; k++) free(w->in[k].host);
    for (int k = 0; k < w->nout; k++) free(w->out[k].host);
}

/* ---- timing ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int iters = 10;

/* a copy cut into `parts` pieces of whole 64-byte lines, one a thread */
typedef struct copy_job {
    uint8_t *dst;
    const uint8_t *src;
    size_t n;
    uint32_t parts;
} copy_job;

static void copy_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const copy_job *j = arg;
    const size_t lines = (j->n + 63) / 64, b = lines * part / j->parts * 64, e = lines * (part + 1) / j->parts * 64;
    const size_t end = e < j->n ? e : j->n;
    if (b < end) memcpy(j->dst + b, j->src + b, end - b);
}

static void copy_with(edml_pool *pool, uint8_t *dst, const uint8_t *src, size_t n)
{
    copy_job j = {dst, src, n, pool ? edml_pool_workers(pool) : 1};
    if (pool)
        edml_pool_parallel_for(pool, copy_part, &j, j.parts);
    else
        copy_part(&j, 0, 0);
}

/* memcpy of `bytes`/2 bytes: the same traffic (read + write) as the
 * operator; on the pool's threads where there is one */
static double copy_time(uint64_t bytes, edml_pool *pool)
{
    size_t n = (size_t)(bytes / 2);
    uint8_t *a = malloc(n + 64), *b = malloc(n + 64);
    memset(a, 1, n);
    memset(b, 2, n);
    double t[64];
    int reps = iters < 64 ? iters : 64;
    copy_with(pool, b, a, n);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        copy_with(pool, b, a, n);
        t[r] = now_s() - t0;
        a[r] ^= b[n - 1 - (size_t)r % n];
    }
    free(a);
    free(b);
    return median(t, reps);
}

/* a full stable sort of each TopK row: the baseline a user would write */
typedef struct {
    float v;
    uint32_t i;
} sort_item;
static int sort_desc(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    if (x->v != y->v) return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : 1;
}

static double sort_baseline(const workload *w)
{
    if (w->in[0].dtype != EDML_TENSOR_DATA_TYPE_FLOAT32 || w->topk_axis != 1) return 0;
    UINT rows = w->in[0].sizes[0], cols = w->in[0].sizes[1];
    sort_item *items = malloc(sizeof(sort_item) * cols);
    double t[16];
    int reps = iters < 16 ? iters : 16;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (UINT row = 0; row < rows; row++) {
            const float *p = (const float *)(const void *)w->in[0].host + (size_t)row * cols;
            for (UINT i = 0; i < cols; i++) items[i] = (sort_item){p[i], i};
            qsort(items, cols, sizeof *items, sort_desc);
        }
        t[r] = now_s() - t0;
    }
    free(items);
    return median(t, reps);
}

typedef struct result {
    const char *workload, *backend, *mode; /* mode: "host", "gpu-resident" or "sweep" */
    double seconds, gbps, copy_gbps, ratio;
    uint32_t threads;
    bool ok, available;
    char note[160];
} result;

static result results[512];
static uint32_t bench_threads = 1;    /* --threads */
static uint32_t bench_one_thread = 1; /* --any-thread: 0, edml_device_desc.gles_one_thread's default */
static edml_pool *bench_pool;         /* its pool */
static edml_board bench_board;        /* --workgroup: the built-in board with another GLES workgroup */
static int nresults;

static void report(const result *r)
{
    if (nresults < (int)(sizeof results / sizeof *results)) results[nresults++] = *r;
    if (!r->available) {
        printf("%-15s %-5s %-13s %s\n", r->workload, r->backend, r->mode, r->note);
        return;
    }
    printf("%-15s %-5s %-13s %10.3f ms %9.2f GB/s %6.0f%% of copy (%.1f GB/s)%s%s\n", r->workload, r->backend, r->mode,
           r->seconds * 1e3, r->gbps, 100 * r->ratio, r->copy_gbps, r->ok ? "" : "  WRONG RESULT", r->note);
    fflush(stdout);
}

static bool same_outputs(const workload *w, uint8_t *const *ref)
{
    for (int o = 0; o < w->nout; o++)
        if (memcmp(w->out[o].host, ref[o], (size_t)w->out[o].bytes)) return false;
    return true;
}

/* ---- main ------------------------------------------------------------------ */

typedef struct options {
    const char *only, *json, *only_backend;
    double scale;
    bool crossover, sweep;
    int only_calls; /* --calls N: just N executions of one workload on one backend (instruction counts) */
    int chain;      /* --chain N: N executions one by one against one command list (GLES) */
    bool gpu_floor; /* --gpu-floor: gl_floor and gl_copy, bare GL */
    bool pipeline;  /* --pipeline: make demo's four steps, one by one and as a command list */
    bool gpu_time;  /* --gpu-time: each GLES call split by the GPU's clock */
    bool mapped;    /* --mapped: host memory, GPU buffers and mapped ones (tools/bench/mapped.c) */
} options;

static int parse_args(int argc, char **argv, options *o)
{
    *o = (options){NULL, NULL, NULL, 1, false, false, -1, 0, false, false, false, false};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--workload") && i + 1 < argc)
            o->only = argv[++i];
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            o->only_backend = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            o->json = argv[++i];
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            o->scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "--crossover"))
            o->crossover = true;
        else if (!strcmp(argv[i], "--sweep"))
            o->sweep = true;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= 64)
            bench_threads = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            o->only_calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--chain") && i + 1 < argc)
            o->chain = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gpu-floor"))
            o->gpu_floor = true;
        else if (!strcmp(argv[i], "--pipeline"))
            o->pipeline = true;
        else if (!strcmp(argv[i], "--gpu-time"))
            o->gpu_time = true;
        else if (!strcmp(argv[i], "--mapped"))
            o->mapped = true;
        else if (!strcmp(argv[i], "--topk") && i + 1 < argc) {
            topk_rows[3] = 1;
            int got = sscanf(argv[++i], "%u,%u,%u,%u", &topk_rows[0], &topk_rows[1], &topk_rows[2], &topk_rows[3]);
            if (got < 3 || !topk_rows[0] || !topk_rows[1] || !topk_rows[2] || topk_rows[2] > topk_rows[1]) {
                fprintf(stderr, "edml-bench: --topk ROWS,N,K[,0] with 1 <= K <= N\n");
                return 2;
            }
            o->only = "topk_rows";
        } else if (!strcmp(argv[i], "--any-thread"))
            bench_one_thread = 0;
        else if (!strcmp(argv[i], "--workgroup") && i + 1 < argc) { /* e.g. V3D's 256 on another GPU */
            bench_board = *edml_board_builtin();
            bench_board.gpu_workgroup = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--list")) {
            for (int k = 0; k < WORKLOADS; k++) printf("%s\n", workload_names[k]);
            return 0;
        } else {
            fprintf(
                stderr,
                "usage: edml-bench [--workload NAME] [--backend ref|neon|gles|auto] [--json FILE] [--iters N] "
                "[--scale F] [--threads 1..64] [--sweep] [--crossover] [--calls N] [--chain N] [--gpu-floor] "
                "[--gpu-time] [--pipeline] [--mapped] [--any-thread] [--workgroup N] [--topk ROWS,N,K[,0]] [--list]\n");
            return 2;
        }
    }
    return -1;
}

/* For bench-insns: the same set-up with N or 0 calls; the difference is the
 * kernel. Prints the workload's elements. */
static int count_calls(const options *o)
{
    int wi = 0;
    while (wi < WORKLOADS && (!o->only || strcmp(o->only, workload_names[wi]))) wi++;
    edml_backend be = EDML_BACKEND_REF;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (o->only_backend && !strcmp(o->only_backend, edml_backend_name((edml_backend)b))) be = (edml_backend)b;
    if (wi == WORKLOADS) return 2;
    workload w;
    make_workload(&w, wi, o->scale);
    size_t asz = edml_device_size() + (1 << 20);
    void *ar = aligned_alloc(16, asz);
    if (!ar) return 1;
    memset(ar, 0, asz);
    edml_device *d;
    edml_device_desc ddd = {0};
    ddd.backends = EDML_BACKEND_BIT(be);
    edml_operator *op;
    if (edml_device_create(&ddd, ar, asz, &d) || edml_operator_create(d, &w.desc, be, &op)) return 1;
    EDML_BUFFER_BINDING bi[3], bo[2];
    for (int k = 0; k < w.nin; k++) bi[k] = (EDML_BUFFER_BINDING){w.in[k].host, 0, w.in[k].bytes};
    for (int k = 0; k < w.nout; k++) bo[k] = (EDML_BUFFER_BINDING){w.out[k].host, 0, w.out[k].bytes};
    for (int c = 0; c < o->only_calls; c++)
        if (edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL)) return 1;
    printf("%llu\n", (unsigned long long)w.in[w.desc.Type == EDML_OPERATOR_ELEMENT_WISE_IF ? 1 : 0].count);
    return 0;
}

/* The cache evicted as tools/torch-bench.py --evict evicts it: EVICT_BYTES
 * written (copies of one small buffer, whose reads stay in the cache), more
 * than twice the 50 MB of the H100's, and waited for; less where the GPU
 * arena has less room (llvmpipe's is 128 MiB in all). */
#define EVICT_BYTES (128ull << 20)
#define EVICT_SOURCE (1ull << 20)
static uint64_t evict_scratch(edml_device *dev, edml_gpu_buffer **scratch, edml_gpu_buffer **source)
{
    if (edml_gpu_buffer_create(dev, EVICT_SOURCE, source) != EDML_STATUS_OK) return 0;
    for (uint64_t bytes = EVICT_BYTES; bytes >= 8 * EVICT_SOURCE; bytes /= 2)
        if (edml_gpu_buffer_create(dev, bytes, scratch) == EDML_STATUS_OK) return bytes;
    return 0;
}
static void evict(edml_gpu_buffer *scratch, edml_gpu_buffer *source, uint64_t bytes)
{
    for (uint64_t at = 0; at < bytes; at += EVICT_SOURCE) edml_gpu_buffer_copy(scratch, at, source, 0, EVICT_SOURCE);
}

/* The GLES operator again with its tensors in GPU buffers: after 100 ms or
 * more of warm-up (the GPU's clocks come up), the operator, a copy of as
 * many bytes (at most 64 MiB: the copy rate beside it) and an eviction of
 * the cache alternately, so that every call starts with the cache holding
 * none of its data and dirty lines of other data, as torch's do with
 * --evict; then the operator alone, call after call (row gpu-repeated). */
static void gpu_resident(edml_device *dev, edml_operator *op, workload *w, uint8_t **ref, const EDML_BUFFER_BINDING *tb,
                         result g, int *wrong)
{
    edml_gpu_buffer *gin[3] = {0}, *gout[2] = {0}, *ga = NULL, *gb = NULL, *ev = NULL, *evs = NULL;
    EDML_BUFFER_BINDING bi[3], bo[2];
    bool ok = true;
    for (int k = 0; k < w->nin && ok; k++)
        ok = edml_gpu_buffer_create(dev, w->in[k].bytes, &gin[k]) == EDML_STATUS_OK &&
             edml_gpu_buffer_write(gin[k], 0, w->in[k].host, w->in[k].bytes) == EDML_STATUS_OK;
    for (int k = 0; k < w->nout && ok; k++)
        ok = edml_gpu_buffer_create(dev, w->out[k].bytes, &gout[k]) == EDML_STATUS_OK;
    const uint64_t half = ((w->bytes < (128ull << 20) ? w->bytes : (128ull << 20)) / 2 + 15) & ~15ull;
    ok = ok && edml_gpu_buffer_create(dev, half, &ga) == EDML_STATUS_OK &&
         edml_gpu_buffer_create(dev, half, &gb) == EDML_STATUS_OK;
    const uint64_t evict_bytes = ok ? evict_scratch(dev, &ev, &evs) : 0;
    ok = ok && evict_bytes;
    g.mode = "gpu-resident";
    g.note[0] = '\0';
    if (!ok) {
        g.available = false;
        snprintf(g.note, sizeof g.note, "n/a: %s", edml_device_last_error(dev));
    } else {
        for (int k = 0; k < w->nin; k++) bi[k] = edml_gpu_binding(gin[k], 0, w->in[k].bytes);
        for (int k = 0; k < w->nout; k++) bo[k] = edml_gpu_binding(gout[k], 0, w->out[k].bytes);
        edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tb);
        for (int k = 0; k < w->nout; k++) edml_gpu_buffer_read(gout[k], 0, w->out[k].host, w->out[k].bytes);
        g.ok = same_outputs(w, ref);
        for (double t0 = now_s(); now_s() - t0 < 0.1;) {
            edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tb);
            edml_gpu_buffer_copy(gb, 0, ga, 0, half);
            evict(ev, evs, evict_bytes);
        }
        double t[256], tc[256];
        const int reps = iters < 256 ? iters : 256;
        for (int k = 0; k < reps; k++) {
            double t0 = now_s();
            edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tb);
            double t1 = now_s();
            edml_gpu_buffer_copy(gb, 0, ga, 0, half);
            t[k] = t1 - t0;
            tc[k] = now_s() - t1;
            evict(ev, evs, evict_bytes);
        }
        g.seconds = median(t, reps);
        g.copy_gbps = (double)(2 * half) / median(tc, reps) * 1e-9;
        g.gbps = (double)w->bytes / g.seconds * 1e-9;
        g.ratio = g.gbps / g.copy_gbps;
        if (!g.ok) (*wrong)++;
        report(&g);
        /* and back to back, as tools/torch-bench.py times torch: what fits
         * the GPU's cache stays there (the copies above evict it) */
        for (int k = 0; k < reps; k++) {
            double t0 = now_s();
            edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tb);
            t[k] = now_s() - t0;
        }
        g.mode = "gpu-repeated";
        g.seconds = median(t, reps);
        g.gbps = (double)w->bytes / g.seconds * 1e-9;
        g.ratio = g.gbps / g.copy_gbps;
    }
    report(&g);
    edml_gpu_buffer *all[9] = {ev, evs, gb, ga, gout[1], gout[0], gin[2], gin[1], gin[0]}; /* newest first */
    for (int k = 0; k < 9; k++)
        if (all[k]) edml_gpu_buffer_destroy(all[k]);
}

/* One workload on one backend, host to host (and resident on GLES); the
 * reference's outputs are kept in ref[] for the others to match. Returns
 * the median time, or a negative number where the backend cannot run it. */
static double bench_backend(edml_device *dev, workload *w, edml_backend be, uint8_t **ref, double cpu_copy_gbps,
                            const options *o, int *wrong)
{
    result r = {w->name, edml_backend_name(be), "host", 0, 0, cpu_copy_gbps, 0, bench_threads, true, true, ""};
    const bool quiet = o->only_backend && be == EDML_BACKEND_REF; /* run only for the outputs */
    edml_operator *op;
    edml_status s = edml_operator_create(dev, &w->desc, be, &op);
    if (s) {
        r.available = false;
        snprintf(r.note, sizeof r.note, "n/a: %s", edml_device_last_error(dev));
        if (!quiet) report(&r);
        return -1;
    }
    EDML_BINDING_PROPERTIES props;
    edml_operator_get_binding_properties(op, &props);
    void *tmp = props.TemporaryResourceSize ? aligned_alloc(16, (props.TemporaryResourceSize + 15) & ~15ull) : NULL;
    EDML_BUFFER_BINDING tb = {tmp, 0, props.TemporaryResourceSize}, bi[3], bo[2];
    for (int k = 0; k < w->nin; k++) bi[k] = (EDML_BUFFER_BINDING){w->in[k].host, 0, w->in[k].bytes};
    for (int k = 0; k < w->nout; k++) bo[k] = (EDML_BUFFER_BINDING){w->out[k].host, 0, w->out[k].bytes};
    if ((s = edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tmp ? &tb : NULL))) {
        snprintf(r.note, sizeof r.note, " (%s: %s)", edml_status_string(s), edml_device_last_error(dev));
        r.ok = false;
    }
    if (be == EDML_BACKEND_REF) {
        for (int k = 0; k < w->nout; k++) {
            ref[k] = malloc((size_t)w->out[k].bytes);
            memcpy(ref[k], w->out[k].host, (size_t)w->out[k].bytes);
        }
    } else if (!same_outputs(w, ref)) {
        r.ok = false;
    }
    double t[256];
    const int reps = iters < 256 ? iters : 256;
    for (int k = 0; k < reps; k++) {
        double t0 = now_s();
        edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tmp ? &tb : NULL);
        t[k] = now_s() - t0;
    }
    r.seconds = median(t, reps);
    r.gbps = (double)w->bytes / r.seconds * 1e-9;
    r.ratio = r.gbps / cpu_copy_gbps;
    if (be == EDML_BACKEND_AUTO)
        snprintf(r.note + strlen(r.note), sizeof r.note - strlen(r.note), " [auto: %s]",
                 edml_backend_name(edml_operator_backend(op)));
    if (!r.ok) (*wrong)++;
    if (!quiet) report(&r);
    if (be == EDML_BACKEND_GLES) gpu_resident(dev, op, w, ref, tmp ? &tb : NULL, r, wrong);
    free(tmp);
    edml_operator_destroy(op);
    return r.ok ? r.seconds : -1;
}

/* Every backend on one workload, then the sort baseline and AUTO's choice. */
static void bench_workload(edml_device *dev, int wi, const options *o, int *wrong)
{
    workload w;
    fprintf(stderr, "[%d/%d] %s: preparing\r", wi + 1, WORKLOADS, workload_name(wi));
    make_workload(&w, wi, o->scale);
    const double cpu_copy_gbps = (double)w.bytes / copy_time(w.bytes, bench_pool) * 1e-9;
    uint8_t *ref[2] = {NULL, NULL};
    double best = 1e30, autot = 0;
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_ + 1; b++) {
        edml_backend be = b == EDML_BACKEND_COUNT_ ? EDML_BACKEND_AUTO : (edml_backend)b;
        if (o->only_backend && strcmp(o->only_backend, edml_backend_name(be)) && be != EDML_BACKEND_REF) continue;
        fprintf(stderr, "[%d/%d] %s on %s...          \r", wi + 1, WORKLOADS, w.name, edml_backend_name(be));
        double sec = bench_backend(dev, &w, be, ref, cpu_copy_gbps, o, wrong);
        if (be == EDML_BACKEND_AUTO)
            autot = sec;
        else if (sec > 0 && sec < best)
            best = sec;
    }
    if (w.topk_k && !o->only_backend) {
        double sort = sort_baseline(&w);
        if (sort > 0)
            printf("%-15s %-5s %-13s %10.3f ms   (full stable sort of each row; best backend %.1fx faster)\n", w.name,
                   "qsort", "baseline", sort * 1e3, sort / best);
    }
    if (autot > 0 && best < 1e30)
        printf("%-15s auto is %.0f%% of the best backend's time%s\n", w.name, 100 * autot / best,
               autot <= best * 1.1 ? "" : "  (more than 10% slower)");
    printf("\n");
    for (int k = 0; k < 2; k++) free(ref[k]);
    free_workload(&w);
}

/* NEON against GLES over growing ElementWiseIf sizes, host to host: where a
 * board's AUTO threshold lies. */
static void crossover(edml_device *dev)
{
    printf("crossover, ElementWiseIf FLOAT32 (host to host):\n");
    for (UINT n = 1024; n <= (1u << 24); n *= 4) {
        workload w;
        memset(&w, 0, sizeof w);
        UINT s[1] = {n};
        if_workload(&w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, s, NULL);
        double tt[2] = {0, 0};
        for (int b = 0; b < 2; b++) {
            edml_operator *op;
            if (edml_operator_create(dev, &w.desc, b ? EDML_BACKEND_GLES : EDML_BACKEND_NEON, &op)) continue;
            EDML_BUFFER_BINDING bi[3], bo[1];
            for (int k = 0; k < 3; k++) bi[k] = (EDML_BUFFER_BINDING){w.in[k].host, 0, w.in[k].bytes};
            bo[0] = (EDML_BUFFER_BINDING){w.out[0].host, 0, w.out[0].bytes};
            double t[32];
            edml_operator_execute(op, bi, 3, bo, 1, NULL);
            for (int k = 0; k < 11; k++) {
                double t0 = now_s();
                edml_operator_execute(op, bi, 3, bo, 1, NULL);
                t[k] = now_s() - t0;
            }
            tt[b] = median(t, 11);
            edml_operator_destroy(op);
        }
        printf("  %9u elements: neon %8.3f ms, gles %8.3f ms%s\n", n, tt[0] * 1e3, tt[1] * 1e3,
               tt[1] < tt[0] ? "  <- GPU faster" : "");
        w.nout = 1;
        free_workload(&w);
    }
}

static int write_json(const char *json)
{
    FILE *f = fopen(json, "w");
    if (!f) return perror(json), 1;
    fprintf(f, "{\n  \"board\": \"%s\",\n  \"iterations\": %d,\n  \"results\": [\n", edml_board_builtin()->name, iters);
    for (int i = 0; i < nresults; i++) {
        const result *r = &results[i];
        fprintf(f,
                "    {\"workload\": \"%s\", \"backend\": \"%s\", \"mode\": \"%s\", \"threads\": %u, \"available\": %s",
                r->workload, r->backend, r->mode, (unsigned)r->threads, r->available ? "true" : "false");
        if (r->available)
            fprintf(f,
                    ", \"median_ms\": %.6f, \"gb_per_s\": %.4f, \"copy_gb_per_s\": %.4f, \"ratio_to_copy\": %.4f, "
                    "\"correct\": %s",
                    r->seconds * 1e3, r->gbps, r->copy_gbps, r->ratio, r->ok ? "true" : "false");
        fprintf(f, "}%s\n", i + 1 < nresults ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
    printf("wrote %s\n", json);
    return 0;
}

/* A device with edml's pool of `threads` (none for 1) and the backends of
 * `mask` (0: every one). */
typedef struct bench_device {
    edml_device *dev;
    edml_pool *pool;
    void *arena, *pool_memory;
} bench_device;

static bool bench_device_open(bench_device *b, uint32_t threads, uint32_t mask)
{
    memset(b, 0, sizeof *b);
    edml_device_desc dd = {0};
    dd.backends = mask;
    dd.gpu_arena_bytes =
        (512ull << 20) + (1u << 20);       /* the largest workload and its copy, and the operators' parameters */
    dd.gles_one_thread = bench_one_thread; /* 1: one thread makes every call */
    dd.board = bench_board.gpu_workgroup ? &bench_board : NULL;
    if (threads > 1) {
        size_t pb = edml_pool_size(threads, 0);
        if (!pb || posix_memalign(&b->pool_memory, 64, pb) ||
            edml_pool_create(threads, 0, b->pool_memory, pb, &b->pool) != EDML_STATUS_OK) {
            fprintf(stderr, "edml-bench: no pool of %u threads in this build\n", (unsigned)threads);
            return false;
        }
        dd.parallel_for = edml_pool_parallel_for;
        dd.parallel_context = b->pool;
        dd.workers = threads;
    }
    size_t arena_size = edml_device_size() + (1 << 20);
    b->arena = aligned_alloc(16, arena_size);
    if (b->arena) memset(b->arena, 0, arena_size);
    if (!b->arena || edml_device_create(&dd, b->arena, arena_size, &b->dev) != EDML_STATUS_OK) {
        fprintf(stderr, "edml-bench: no device\n");
        return false;
    }
    return true;
}

static void bench_device_close(bench_device *b)
{
    if (b->dev) edml_device_destroy(b->dev);
    if (b->pool) edml_pool_destroy(b->pool);
    free(b->arena);
    free(b->pool_memory);
}

/* Median time of the operator on `dev`; its outputs compared with `keep`
 * (taken from this run when keep[0] is NULL). Negative if it cannot run. */
static double time_outputs(edml_device *dev, workload *w, edml_backend be, uint8_t **keep, bool *same)
{
    edml_operator *op;
    if (edml_operator_create(dev, &w->desc, be, &op) != EDML_STATUS_OK) return -1;
    EDML_BINDING_PROPERTIES props;
    edml_operator_get_binding_properties(op, &props);
    void *tmp = props.TemporaryResourceSize ? aligned_alloc(16, (props.TemporaryResourceSize + 15) & ~15ull) : NULL;
    EDML_BUFFER_BINDING tb = {tmp, 0, props.TemporaryResourceSize}, bi[3], bo[2];
    for (int k = 0; k < w->nin; k++) bi[k] = (EDML_BUFFER_BINDING){w->in[k].host, 0, w->in[k].bytes};
    for (int k = 0; k < w->nout; k++) bo[k] = (EDML_BUFFER_BINDING){w->out[k].host, 0, w->out[k].bytes};
    for (int k = 0; k < w->nout; k++) memset(w->out[k].host, 0xa5, (size_t)w->out[k].bytes);
    edml_status s = edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tmp ? &tb : NULL);
    if (!keep[0])
        for (int k = 0; k < w->nout; k++) {
            keep[k] = malloc((size_t)w->out[k].bytes);
            memcpy(keep[k], w->out[k].host, (size_t)w->out[k].bytes);
        }
    *same = s == EDML_STATUS_OK && same_outputs(w, keep);
    double t[256];
    const int reps = iters < 256 ? iters : 256;
    for (int k = 0; k < reps; k++) {
        double t0 = now_s();
        edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, tmp ? &tb : NULL);
        t[k] = now_s() - t0;
    }
    free(tmp);
    edml_operator_destroy(op);
    return median(t, reps);
}

/* One workload on one backend at each thread count of `devs`: time,
 * scaling over the first, fraction of a copy on as many threads; outputs
 * equal to the reference's at every count. */
static void sweep_workload(bench_device *devs, const uint32_t *threads, int n, int wi, edml_backend be,
                           const options *o, int *wrong)
{
    workload w;
    make_workload(&w, wi, o->scale);
    uint8_t *ref[2] = {NULL, NULL};
    bool same;
    time_outputs(devs[0].dev, &w, EDML_BACKEND_REF, ref, &same);
    double t1 = 0;
    for (int k = 0; k < n; k++) {
        fprintf(stderr, "%s, %u threads...   \r", w.name, (unsigned)threads[k]);
        double sec = time_outputs(devs[k].dev, &w, be, ref, &same);
        double copy_gbps = (double)w.bytes / copy_time(w.bytes, devs[k].pool) * 1e-9;
        result r = {w.name, edml_backend_name(be), "sweep", sec, 0, copy_gbps, 0, threads[k], same, sec > 0, ""};
        if (!r.available) {
            printf("%-15s %2u threads  n/a\n", w.name, (unsigned)threads[k]);
            continue;
        }
        if (k == 0) t1 = sec;
        r.gbps = (double)w.bytes / sec * 1e-9;
        r.ratio = r.gbps / copy_gbps;
        results[nresults < (int)(sizeof results / sizeof *results) ? nresults++ : nresults - 1] = r;
        printf("%-15s %2u threads %10.3f ms  %5.2fx  %8.2f GB/s  %4.0f%% of a %u-thread copy (%.1f GB/s)%s\n", w.name,
               (unsigned)threads[k], sec * 1e3, t1 / sec, r.gbps, 100 * r.ratio, (unsigned)threads[k], copy_gbps,
               same ? "" : "  WRONG RESULT");
        if (!same) (*wrong)++;
    }
    printf("\n");
    for (int k = 0; k < 2; k++) free(ref[k]);
    free_workload(&w);
}

static int sweep(const options *o)
{
    static const uint32_t threads[] = {1, 2, 4, 8, 16};
    const int n = (int)(sizeof threads / sizeof *threads);
    edml_backend be = EDML_BACKEND_NEON;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (o->only_backend && !strcmp(o->only_backend, edml_backend_name((edml_backend)b))) be = (edml_backend)b;
    bench_device devs[5];
    for (int k = 0; k < n; k++)
        if (!bench_device_open(&devs[k], threads[k], EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(be)))
            return 1;
    printf("edml-bench --sweep: board %s, library %s, backend %s; median of %d calls after a warm-up; edml's pool\n"
           "of N threads, against a memcpy of the same bytes cut in N pieces on the same pool\n\n",
           edml_board_builtin()->name, edml_version(), edml_backend_name(be), iters);
    int wrong = 0;
    for (int wi = 0; wi < WORKLOADS; wi++)
        if (!o->only || !strcmp(o->only, workload_names[wi])) sweep_workload(devs, threads, n, wi, be, o, &wrong);
    fprintf(stderr, "%60s\r", "");
    for (int k = n; k-- > 0;) bench_device_close(&devs[k]);
    if (o->json && write_json(o->json)) return 1;
    if (wrong) printf("%d results differ from the reference backend\n", wrong);
    return wrong ? 1 : 0;
}

/* --chain N: N executions of one small operator (topk_cls, or --workload)
 * on GLES, each with its own outputs: one by one (a fence each) against
 * recorded in one command list (one submission, one fence), first with
 * host memory in and out (each entry uploads its input and downloads its
 * outputs), then with every tensor in GPU buffers; then the same with N
 * operators of the workload's descriptor, one an entry (a list runs N
 * executions of one operator whose tensors lie evenly as the layers of
 * one dispatch, not those of N operators). Prints the median times of the
 * N and the ratio; each entry's outputs must match the first's. */
typedef struct chain_run {
    edml_device *dev;
    edml_operator *op[64]; /* entry e's */
    const workload *w;
    int n;
    bool gpu, distinct;
} chain_run;

/* the bindings of one way: entry c's outputs at outs[c] (host memory) or
 * in buffer gout[k] at c times the output's size (GPU buffers) */
static bool chain_bind(const chain_run *c, EDML_BUFFER_BINDING *bi, EDML_BUFFER_BINDING (*bo)[2], uint8_t *(*outs)[2],
                       edml_gpu_buffer **gin, edml_gpu_buffer **gout)
{
    const workload *w = c->w;
    bool ok = true;
    for (int k = 0; k < w->nin && ok; k++)
        if (c->gpu) {
            ok = !edml_gpu_buffer_create(c->dev, w->in[k].bytes, &gin[k]) &&
                 !edml_gpu_buffer_write(gin[k], 0, w->in[k].host, w->in[k].bytes);
            bi[k] = edml_gpu_binding(gin[k], 0, w->in[k].bytes);
        } else {
            bi[k] = (EDML_BUFFER_BINDING){w->in[k].host, 0, w->in[k].bytes};
        }
    for (int k = 0; k < w->nout && ok; k++) {
        const uint64_t each = (w->out[k].bytes + 15) & ~15ull;
        ok = !c->gpu || !edml_gpu_buffer_create(c->dev, each * (uint64_t)c->n, &gout[k]);
        for (int e = 0; e < c->n && ok; e++) {
            outs[e][k] = aligned_alloc(16, each);
            bo[e][k] = c->gpu ? edml_gpu_binding(gout[k], each * (uint64_t)e, w->out[k].bytes)
                              : (EDML_BUFFER_BINDING){outs[e][k], 0, w->out[k].bytes};
        }
    }
    return ok;
}

/* times one way: one by one, as one list, and when the submission returned; false if a call failed */
static bool chain_time(const chain_run *c, const EDML_BUFFER_BINDING *bi, EDML_BUFFER_BINDING (*bo)[2], double *t)
{
    const workload *w = c->w;
    edml_command_list *list;
    if (edml_command_list_create(c->dev, (UINT)c->n, &list)) return false;
    bool ok = true;
    for (int e = 0; e < c->n; e++)
        ok = ok && !edml_command_list_record(list, c->op[e], bi, (UINT)w->nin, bo[e], (UINT)w->nout, NULL);
    double one[200], listed[200], submit[200];
    const int m = iters < 200 ? iters : 200;
    for (int it = 0; it < m + 3 && ok; it++) { /* three warm-up rounds */
        double t0 = now_s();
        for (int e = 0; e < c->n; e++)
            ok = ok && !edml_operator_execute(c->op[e], bi, (UINT)w->nin, bo[e], (UINT)w->nout, NULL);
        double t1 = now_s();
        ok = ok && !edml_command_list_submit(list);
        double ts = now_s();
        ok = ok && !edml_command_list_wait(list, UINT64_MAX);
        double t2 = now_s();
        if (it >= 3) one[it - 3] = t1 - t0, listed[it - 3] = t2 - t1, submit[it - 3] = ts - t1;
    }
    edml_command_list_destroy(list);
    t[0] = median(one, m), t[1] = median(listed, m), t[2] = median(submit, m);
    return ok;
}

/* every entry's outputs (read back from GPU buffers) equal the first's */
static bool chain_same(const chain_run *c, uint8_t *(*outs)[2], edml_gpu_buffer **gout)
{
    bool ok = true;
    for (int e = 0; e < c->n && ok; e++)
        for (int k = 0; k < c->w->nout && ok; k++) {
            const uint64_t bytes = c->w->out[k].bytes, each = (bytes + 15) & ~15ull;
            ok = !c->gpu || !edml_gpu_buffer_read(gout[k], each * (uint64_t)e, outs[e][k], bytes);
            ok = ok && !memcmp(outs[e][k], outs[0][k], (size_t)bytes);
        }
    return ok;
}

static bool chain_way(const chain_run *c)
{
    EDML_BUFFER_BINDING bi[3], bo[64][2];
    uint8_t *outs[64][2] = {{0}};
    edml_gpu_buffer *gin[3] = {0}, *gout[2] = {0};
    double t[3];
    bool ok = chain_bind(c, bi, bo, outs, gin, gout) && chain_time(c, bi, bo, t) && chain_same(c, outs, gout);
    if (ok)
        printf("chain of %d %s on gles (%s), %s: one by one %.1f us (%.1f us each), one command list %.1f us (%.1f us "
               "each): %.2fx; the submission returned after %.1f us\n",
               c->n, c->w->name, c->distinct ? "an operator an entry" : "one operator",
               c->gpu ? "GPU buffers" : "host memory", t[0] * 1e6, t[0] * 1e6 / c->n, t[1] * 1e6, t[1] * 1e6 / c->n,
               t[0] / t[1], t[2] * 1e6);
    else
        printf("chain of %d %s: failed: %s\n", c->n, c->w->name, edml_device_last_error(c->dev));
    for (int e = 0; e < c->n; e++) free(outs[e][0]), free(outs[e][1]);
    for (int k = 2; k-- > 0;)
        if (gout[k]) edml_gpu_buffer_destroy(gout[k]);
    for (int k = 3; k-- > 0;)
        if (gin[k]) edml_gpu_buffer_destroy(gin[k]);
    return ok;
}

static int chain(const options *o, int n)
{
    int wi = 0;
    while (wi < WORKLOADS && strcmp(o->only ? o->only : "topk_cls", workload_names[wi])) wi++;
    bench_device bd;
    if (wi == WORKLOADS || n < 1 || !bench_device_open(&bd, 1, 0)) return 2;
    workload w;
    make_workload(&w, wi, o->scale);
    chain_run c = {.dev = bd.dev, .w = &w, .n = n < 64 ? n : 64};
    bool ok = true;
    for (int e = 0; e < c.n && ok; e++) {
        ok = !edml_operator_create(bd.dev, &w.desc, EDML_BACKEND_GLES, &c.op[e]);
        if (!ok) fprintf(stderr, "edml-bench: %s\n", edml_device_last_error(bd.dev));
    }
    for (int way = 0; way < 4 && ok; way++) { /* host memory, GPU buffers; one operator, then one an entry */
        chain_run u = c;
        u.gpu = way & 1;
        u.distinct = way >= 2;
        for (int e = 0; e < c.n; e++) u.op[e] = u.distinct ? c.op[e] : c.op[0];
        ok = chain_way(&u);
    }
    for (int e = c.n; e-- > 0;)
        if (c.op[e]) edml_operator_destroy(c.op[e]);
    free_workload(&w);
    bench_device_close(&bd);
    return ok ? 0 : 1;
}

/* --pipeline: make demo's post-processing (ArgMax over the class scores,
 * ElementWiseIf on the objectness, TopK 100, GatherND of the boxes) of a
 * {1,25200,85} detector output in GPU buffers, on GLES: the four executed one
 * by one, and recorded as one command list submitted and waited for once. */
#define PIPE_N 25200u
#define PIPE_C 85u
#define PIPE_KEEP 100u
static EDML_TENSOR_DESC *pipe_td(EDML_BUFFER_TENSOR_DESC *b, EDML_TENSOR_DESC *d, EDML_TENSOR_DATA_TYPE dt, UINT rank,
                                 const UINT *sizes, const UINT *strides)
{
    *b = (EDML_BUFFER_TENSOR_DESC){dt, EDML_TENSOR_FLAG_NONE, rank, sizes, strides, 0, 0};
    *d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, b};
    return d;
}

static bool pipeline_ops(edml_device *dev, edml_operator **op)
{
    static const UINT s_cls[3] = {1, PIPE_N, 80}, st_cls[3] = {PIPE_N * PIPE_C, PIPE_C, 1}, s_out[3] = {1, PIPE_N, 1};
    static const UINT axes[1] = {2}, s_n[2] = {1, PIPE_N}, st_obj[2] = {PIPE_N * PIPE_C, PIPE_C}, st_zero[2] = {0, 0};
    static const UINT s_k[2] = {1, PIPE_KEEP}, s_box[2] = {PIPE_N, 4}, st_box[2] = {PIPE_C, 1};
    static const UINT s_ix[2] = {PIPE_KEEP, 1}, s_bo[2] = {PIPE_KEEP, 4};
    EDML_BUFFER_TENSOR_DESC b[11];
    EDML_TENSOR_DESC d[11];
    EDML_ARGMAX_OPERATOR_DESC am = {pipe_td(&b[0], &d[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 3, s_cls, st_cls),
                                    pipe_td(&b[1], &d[1], EDML_TENSOR_DATA_TYPE_UINT32, 3, s_out, NULL), 1, axes,
                                    EDML_AXIS_DIRECTION_INCREASING};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC iff = {pipe_td(&b[2], &d[2], EDML_TENSOR_DATA_TYPE_UINT8, 2, s_n, NULL),
                                              pipe_td(&b[3], &d[3], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, st_obj),
                                              pipe_td(&b[4], &d[4], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, st_zero),
                                              pipe_td(&b[5], &d[5], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, NULL)};
    EDML_TOP_K1_OPERATOR_DESC tk = {&d[5],
                                    pipe_td(&b[6], &d[6], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_k, NULL),
                                    pipe_td(&b[7], &d[7], EDML_TENSOR_DATA_TYPE_UINT32, 2, s_k, NULL),
                                    1,
                                    PIPE_KEEP,
                                    EDML_AXIS_DIRECTION_DECREASING};
    EDML_GATHER_ND_OPERATOR_DESC gb = {pipe_td(&b[8], &d[8], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_box, st_box),
                                       pipe_td(&b[9], &d[9], EDML_TENSOR_DATA_TYPE_UINT32, 2, s_ix, NULL),
                                       pipe_td(&b[10], &d[10], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_bo, NULL), 2, 2};
    const EDML_OPERATOR_DESC descs[4] = {{EDML_OPERATOR_ARGMAX, &am},
                                         {EDML_OPERATOR_ELEMENT_WISE_IF, &iff},
                                         {EDML_OPERATOR_TOP_K1, &tk},
                                         {EDML_OPERATOR_GATHER_ND, &gb}};
    for (int i = 0; i < 4; i++)
        if (edml_operator_create(dev, &descs[i], EDML_BACKEND_GLES, &op[i])) return false;
    return true;
}

/* The GPU buffers (pred, cond, -inf; classes, masked, scores, indices,
 * boxes) and each step's bindings. */
typedef struct pipe_io {
    edml_gpu_buffer *buf[8];
    EDML_BUFFER_BINDING in[4][3], out[4][2];
} pipe_io;

static bool pipeline_buffers(edml_device *dev, pipe_io *p)
{
    static const UINT64 bytes[8] = {PIPE_N * PIPE_C * 4, PIPE_N,        16, PIPE_N * 4, PIPE_N * 4, PIPE_KEEP * 4,
                                    PIPE_KEEP * 4,       PIPE_KEEP * 16};
    float *pred = malloc(bytes[0]);
    uint8_t cond[PIPE_N];
    const float neg_inf[4] = {-INFINITY, 0, 0, 0};
    bool ok = pred != NULL;
    for (uint64_t i = 0; ok && i < (uint64_t)PIPE_N * PIPE_C; i++) pred[i] = uniform();
    for (UINT i = 0; ok && i < PIPE_N; i++) cond[i] = pred[(uint64_t)i * PIPE_C + 4] > 0.5f;
    for (int k = 0; k < 8 && ok; k++) ok = !edml_gpu_buffer_create(dev, bytes[k], &p->buf[k]);
    ok = ok && !edml_gpu_buffer_write(p->buf[0], 0, pred, bytes[0]) &&
         !edml_gpu_buffer_write(p->buf[1], 0, cond, bytes[1]) && !edml_gpu_buffer_write(p->buf[2], 0, neg_inf, 16);
    free(pred);
    if (!ok) return false;
    const UINT64 pb = bytes[0];
    p->in[0][0] = edml_gpu_binding(p->buf[0], 5 * 4, pb - 5 * 4);
    p->out[0][0] = edml_gpu_binding(p->buf[3], 0, bytes[3]);
    p->in[1][0] = edml_gpu_binding(p->buf[1], 0, bytes[1]);
    p->in[1][1] = edml_gpu_binding(p->buf[0], 4 * 4, pb - 4 * 4);
    p->in[1][2] = edml_gpu_binding(p->buf[2], 0, 4);
    p->out[1][0] = edml_gpu_binding(p->buf[4], 0, bytes[4]);
    p->in[2][0] = p->out[1][0];
    p->out[2][0] = edml_gpu_binding(p->buf[5], 0, bytes[5]);
    p->out[2][1] = edml_gpu_binding(p->buf[6], 0, bytes[6]);
    p->in[3][0] = edml_gpu_binding(p->buf[0], 0, pb);
    p->in[3][1] = p->out[2][1];
    p->out[3][0] = edml_gpu_binding(p->buf[7], 0, bytes[7]);
    return true;
}

static int pipeline(void)
{
    static const UINT nin[4] = {1, 3, 1, 2}, nout[4] = {1, 1, 2, 1};
    bench_device bd;
    if (!bench_device_open(&bd, 1, EDML_BACKEND_BIT(EDML_BACKEND_GLES))) return 2;
    edml_operator *op[4];
    pipe_io p;
    edml_command_list *list = NULL;
    bool ok = pipeline_ops(bd.dev, op) && pipeline_buffers(bd.dev, &p) && !edml_command_list_create(bd.dev, 4, &list);
    for (int s = 0; s < 4 && ok; s++)
        ok = !edml_command_list_record(list, op[s], p.in[s], nin[s], p.out[s], nout[s], NULL);
    double one[200], listed[200];
    float box_one[PIPE_KEEP * 4], box_list[PIPE_KEEP * 4];
    const int m = iters < 200 ? iters : 200;
    for (int it = 0; it < m + 3 && ok; it++) { /* three warm-up rounds */
        double t0 = now_s();
        for (int s = 0; s < 4 && ok; s++) ok = !edml_operator_execute(op[s], p.in[s], nin[s], p.out[s], nout[s], NULL);
        double t1 = now_s();
        ok = ok && !edml_gpu_buffer_read(p.buf[7], 0, box_one, sizeof box_one);
        double t2 = now_s();
        ok = ok && !edml_command_list_submit(list) && !edml_command_list_wait(list, UINT64_MAX);
        double t3 = now_s();
        ok = ok && !edml_gpu_buffer_read(p.buf[7], 0, box_list, sizeof box_list) &&
             !memcmp(box_one, box_list, sizeof box_one);
        if (it >= 3) one[it - 3] = t1 - t0, listed[it - 3] = t3 - t2;
    }
    if (ok)
        printf("pipeline (make demo's four steps, GPU buffers) on gles: one by one %.1f us, one command list %.1f us "
               "(%.2fx)\n",
               median(one, m) * 1e6, median(listed, m) * 1e6, median(one, m) / median(listed, m));
    else
        printf("pipeline: failed: %s\n", edml_device_last_error(bd.dev));
    bench_device_close(&bd);
    return ok ? 0 : 1;
}

/* --gpu-floor: the GL driver's floor in the same process, through the
 * port's context but none of edml: gl_floor, a one-workgroup dispatch and a
 * fence waited for (median of 200); gl_copy, a compute-shader copy of 64 MiB
 * between two buffers (median of 20, read + written bytes over the time);
 * the least kernels of three workloads' work (below), each back to back
 * with its fence (median of 50). */
static const char *const gl_floor_src = "#version 310 es\nlayout(local_size_x = 64) in;\n"
                                        "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                                        "void main() { if (gl_GlobalInvocationID.x == 0u) v[0] += 1u; }\n";
static const char *const gl_copy_src = "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                       "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
                                       "layout(std430, binding = 1) writeonly buffer D { uvec4 d[]; };\n"
                                       "void main() { d[gl_GlobalInvocationID.x] = s[gl_GlobalInvocationID.x]; }\n";
/* a storage buffer of `bytes`, bound at `binding` */
static GLuint_ gl_storage(const edmli_gl *gl, uint64_t bytes, GLuint_ binding)
{
    GLuint_ buf = 0;
    gl->glGenBuffers(1, &buf);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf);
    gl->glBufferData(EDMLI_GL_SHADER_STORAGE_BUFFER, (GLsizeiptr_)bytes, NULL, EDMLI_GL_DYNAMIC_COPY);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, binding, buf);
    return buf;
}

static unsigned gl_program(const edmli_gl *gl, const char *src)
{
    GLuint_ sh = gl->glCreateShader(EDMLI_GL_COMPUTE_SHADER), prog = gl->glCreateProgram();
    GLint_ ok = 0;
    gl->glShaderSource(sh, 1, &src, NULL);
    gl->glCompileShader(sh);
    gl->glGetShaderiv(sh, EDMLI_GL_COMPILE_STATUS, &ok);
    gl->glAttachShader(prog, sh);
    gl->glLinkProgram(prog);
    gl->glDeleteShader(sh);
    GLint_ linked = 0;
    gl->glGetProgramiv(prog, EDMLI_GL_LINK_STATUS, &linked);
    return ok && linked ? prog : 0;
}

static double gl_timed(const edmli_gl *gl, GLuint_ x)
{
    double t0 = now_s();
    gl->glDispatchCompute(x, 1, 1);
    GLsync_ f = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->glClientWaitSync(f, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(f);
    return now_s() - t0;
}

/* What an edml execution adds to gl_floor, one thing at a time: the steps
 * of its path (gles_run.c), each row the floor with the steps up to it. */
enum {
    STEP_FLOOR,
    STEP_BARRIER,
    STEP_ERRORS,
    STEP_BINDINGS,
    STEP_WIDE,
    STEP_COPY_MAP,
    STEP_DIRECT_MAP,
    STEP_PERSISTENT,
    STEP_PERSISTENT_IDLE,
    STEP_POLLED,
    STEP_MAPPED_BARRIER,
    STEPS
};
/* the steps that read a persistent mapping (GL_EXT_buffer_storage) */
static bool step_mapped(int k) { return k == STEP_PERSISTENT || k == STEP_PERSISTENT_IDLE || k == STEP_MAPPED_BARRIER; }
static const char *const step_names[STEPS] = {"gl_floor",
                                              "+ glMemoryBarrier before the fence",
                                              "+ glGetError before and after",
                                              "+ program, parameter range, 3 uniforms",
                                              "+ 1024 invocations, not 64",
                                              "+ 8 bytes copied to a buffer, mapped after",
                                              "instead, the kernel writes that buffer",
                                              "instead, it writes a persistent coherent mapping",
                                              "instead, the mapping read; the kernel leaves it",
                                              "gl_floor, its fence polled (waits of 0)",
                                              "gl_floor, its barrier with the client-mapped bit"};

typedef struct floor_gl {
    const edmli_gl *gl;
    GLuint_ narrow, wide, buf, arena, readback, persistent;
    GLint_ loc_bind[2], loc_base[2], loc_count[2];
    const volatile uint64_t *mapped; /* the persistent buffer's mapping; NULL without EXT_buffer_storage */
} floor_gl;

/* A buffer of 4 KiB mapped persistently and coherently for reading, where
 * the driver has GL_EXT_buffer_storage (the port loads its entry point);
 * else none. */
static void gl_persistent(floor_gl *f)
{
    const char *ext = (const char *)f->gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!f->gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage")) return;
    const GLbitfield_ bits = EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
    f->gl->glGenBuffers(1, &f->persistent);
    f->gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->persistent);
    f->gl->glBufferStorageEXT(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, bits);
    f->mapped = f->gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 4096, bits);
}

/* after the fence: 8 bytes of the readback buffer mapped and read */
static uint64_t gl_read_back(const floor_gl *f)
{
    const edmli_gl *gl = f->gl;
    uint64_t v = 0;
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
    const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 8, EDMLI_GL_MAP_READ_BIT);
    if (p) memcpy(&v, p, 8);
    gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
    return v;
}

static double gl_step_timed(const floor_gl *f, int steps)
{
    const edmli_gl *gl = f->gl;
    const int polled = steps == STEP_POLLED, mapped_bit = steps == STEP_MAPPED_BARRIER;
    if (polled) steps = STEP_FLOOR;
    if (mapped_bit) steps = STEP_BARRIER;
    const int w = steps >= STEP_WIDE;
    const uint32_t bind[2] = {0, 0};
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0,
                         steps == STEP_DIRECT_MAP   ? f->readback
                         : steps == STEP_PERSISTENT ? f->persistent
                                                    : f->arena);
    double t0 = now_s();
    if (steps >= STEP_ERRORS)
        while (gl->glGetError() != EDMLI_GL_NO_ERROR) {}
    if (steps >= STEP_BINDINGS) {
        gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, f->buf, 256, 256);
        gl->glUseProgram(w ? f->wide : f->narrow);
        gl->glUniform1uiv(f->loc_bind[w], 2, bind);
        gl->glUniform1ui(f->loc_base[w], 0);
        gl->glUniform1ui(f->loc_count[w], 1);
    }
    gl->glDispatchCompute(1, 1, 1);
    if (steps >= STEP_BARRIER)
        gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT | EDMLI_GL_SHADER_STORAGE_BARRIER_BIT |
                            (steps >= STEP_PERSISTENT || mapped_bit ? EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT : 0u));
    if (steps == STEP_COPY_MAP) {
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, f->arena);
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, 0, 0, 8);
    }
    GLsync_ s = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (polled) {
        GLbitfield_ flush = EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT;
        while (gl->glClientWaitSync(s, flush, 0) == EDMLI_GL_TIMEOUT_EXPIRED && now_s() - t0 < 5) flush = 0;
    } else
        gl->glClientWaitSync(s, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(s);
    if (steps >= STEP_PERSISTENT)
        (void)f->mapped[0];
    else if (steps >= STEP_COPY_MAP)
        (void)gl_read_back(f);
    if (steps >= STEP_ERRORS) (void)gl->glGetError();
    return now_s() - t0;
}

static const char *const floor_src =
    "#version 310 es\nlayout(local_size_x = %d) in;\n"
    "layout(std430, binding = 0) buffer B { uint v[]; };\n"
    "layout(std430, binding = 1) readonly buffer P { uint p[]; };\n"
    "uniform uint u_bind[2];\nuniform uint u_base;\nuniform uint u_count;\n"
    "void main() { if (gl_GlobalInvocationID.x + u_base < u_count) v[u_bind[0]] += p[u_bind[1]] + 1u; }\n";

/* the rows of the breakdown, interleaved (200 rounds), medians in us */
static void gl_floor_steps(const edmli_gl *gl, const GLuint_ *buf, double *us)
{
    floor_gl f = {.gl = gl, .buf = buf[1], .arena = buf[0]};
    gl->glGenBuffers(1, &f.readback);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.readback);
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, EDMLI_GL_STREAM_READ);
    char src[512];
    snprintf(src, sizeof src, floor_src, 64);
    f.narrow = gl_program(gl, src);
    snprintf(src, sizeof src, floor_src, 1024);
    f.wide = gl_program(gl, src);
    gl_persistent(&f);
    const GLuint_ progs[2] = {f.narrow, f.wide};
    for (int w = 0; w < 2; w++) {
        f.loc_bind[w] = gl->glGetUniformLocation(progs[w], "u_bind");
        f.loc_base[w] = gl->glGetUniformLocation(progs[w], "u_base");
        f.loc_count[w] = gl->glGetUniformLocation(progs[w], "u_count");
    }
    static double t[STEPS][200];
    gl->glUseProgram(f.narrow);
    for (int i = 0; i < 210; i++)
        for (int k = 0; k < STEPS; k++) {
            if (!f.mapped && step_mapped(k)) continue;
            if (k < STEP_BINDINGS || k >= STEP_POLLED) gl->glUseProgram(f.narrow);
            double d = gl_step_timed(&f, k);
            if (i >= 10) t[k][i - 10] = d;
        }
    for (int k = 0; k < STEPS; k++) us[k] = f.mapped || !step_mapped(k) ? median(t[k], 200) * 1e6 : -1;
    if (f.mapped) {
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.persistent);
        gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
        gl->glDeleteBuffers(1, &f.persistent);
    }
    gl->glDeleteProgram(f.narrow);
    gl->glDeleteProgram(f.wide);
    gl->glDeleteBuffers(1, &f.readback);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, f.arena);
}

/* A command list of CHAIN_N small entries in bare GL, four ways, to see
 * what an entry costs: as edml records one with host memory (upload its
 * input, dispatch, barrier, copy its output to the readback buffer), with
 * the uploads first and the copies last, with one copy of every output at
 * the end, and the dispatches alone; one fence and one mapping each. */
#define CHAIN_N 16
#define CHAIN_WORDS 1024u /* an entry's input: topk_cls's 1000 floats */
enum {
    CHAIN_AS_EDML,
    CHAIN_UPLOADS_FIRST,
    CHAIN_ONE_COPY,
    CHAIN_DISPATCHES,
    CHAIN_WAYS
};
static const char *const chain_names[CHAIN_WAYS] = {
    "upload, dispatch, barrier, copy out, each entry", "uploads first, then dispatches, then copies",
    "uploads first, dispatches, one copy of all outputs", "dispatches alone"};

static double gl_chain_timed(const floor_gl *f, GLuint_ prog, GLint_ loc, int way, const uint32_t *host)
{
    const edmli_gl *gl = f->gl;
    const intptr_t in_at = 0, out_at = CHAIN_N * CHAIN_WORDS * 4, out_bytes = 64;
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, f->arena);
    gl->glUseProgram(prog);
    double t0 = now_s();
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, f->arena);
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, f->arena);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
    for (int pass = 0; pass < 3; pass++) /* as edml: every step in one pass; else uploads, dispatches, copies */
        for (int e = 0; e < CHAIN_N; e++) {
            const bool all = way == CHAIN_AS_EDML;
            if (way != CHAIN_DISPATCHES && pass == 0)
                gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, in_at + e * CHAIN_WORDS * 4, CHAIN_WORDS * 4, host);
            if (pass == (all ? 0 : 1)) {
                if (!all && e == 0) gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
                const uint32_t at[2] = {(uint32_t)(in_at / 4) + (uint32_t)e * CHAIN_WORDS,
                                        (uint32_t)(out_at / 4) + (uint32_t)e * 16u};
                gl->glUniform1uiv(loc, 2, at);
                gl->glDispatchCompute(1, 1, 1);
                if (all) gl->glMemoryBarrier(EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
            }
            if (pass == (all ? 0 : 2) && (way == CHAIN_AS_EDML || way == CHAIN_UPLOADS_FIRST)) {
                if (!all && e == 0) gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
                gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, out_at + e * out_bytes,
                                        e * out_bytes, out_bytes);
            }
        }
    if (way == CHAIN_ONE_COPY) {
        gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, out_at, 0, CHAIN_N * out_bytes);
    }
    GLsync_ s = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->glClientWaitSync(s, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(s);
    if (way != CHAIN_DISPATCHES) {
        const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, CHAIN_N * out_bytes, EDMLI_GL_MAP_READ_BIT);
        if (p) gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
    }
    return now_s() - t0;
}

static void gl_chain(const edmli_gl *gl, const GLuint_ *buf)
{
    floor_gl f = {.gl = gl, .arena = buf[0]};
    const GLuint_ prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                        "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                                        "uniform uint u_at[2];\n"
                                        "void main() { uint t = gl_LocalInvocationID.x, s = 0u;\n"
                                        "  for (uint i = t; i < 1024u; i += 256u) s += v[u_at[0] + i];\n"
                                        "  if (t < 16u) v[u_at[1] + t] = s; }\n");
    const GLint_ loc = gl->glGetUniformLocation(prog, "u_at");
    static uint32_t host[CHAIN_WORDS];
    static double t[CHAIN_WAYS][50];
    gl->glGenBuffers(1, &f.readback);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.readback);
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, CHAIN_N * 64, NULL, EDMLI_GL_STREAM_READ);
    for (int i = 0; i < 55; i++)
        for (int w = 0; w < CHAIN_WAYS; w++) {
            host[0] = (uint32_t)i;
            const double d = gl_chain_timed(&f, prog, loc, w, host);
            if (i >= 5) t[w][i - 5] = d;
        }
    printf("a list of %d small entries in bare GL, one fence (interleaved, median of 50):\n", CHAIN_N);
    for (int w = 0; w < CHAIN_WAYS; w++) {
        const double us = median(t[w], 50) * 1e6;
        printf("  %-52s %6.1f us, %5.1f us an entry\n", chain_names[w], us, us / CHAIN_N);
    }
    gl->glDeleteBuffers(1, &f.readback);
    gl->glDeleteProgram(prog);
}

/* A floor kernel's time: program `prog` (0: it did not build, -1
 * returned) over buf[0] at binding 0 and buf[1] at binding 1, `groups`
 * workgroups and its fence back to back, median of 50 after 5; then the
 * program deleted. */
static double gl_kernel_timed(const edmli_gl *gl, const GLuint_ *buf, GLuint_ prog, GLuint_ groups)
{
    if (!prog) return -1;
    double t[50];
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    gl->glUseProgram(prog);
    for (int i = 0; i < 55; i++) {
        const double d = gl_timed(gl, groups);
        if (i >= 5) t[i - 5] = d;
    }
    gl->glDeleteProgram(prog);
    return median(t, 50);
}

/* gl_read: argmin_inner's reading in bare GL: 64 MiB (buf[0]) read as
 * 16-byte vectors, `per` an invocation with their loads independent, each
 * invocation's minimum written (to buf[1]), back to back with its fence. */
static GLuint_ gl_read_program(const edmli_gl *gl, uint64_t bytes, uint32_t per)
{
    const uint32_t invocations = (uint32_t)(bytes / 16 / per);
    char src[1024];
    snprintf(src, sizeof src,
             "#version 310 es\nlayout(local_size_x = 256) in;\n"
             "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
             "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
             "void main() { uint i = gl_GlobalInvocationID.x; uvec4 v[%u];\n"
             "    for (uint k = 0u; k < %uu; k++) v[k] = s[i + k * %uu];\n"
             "    uvec4 m = v[0];\n"
             "    for (uint k = 1u; k < %uu; k++) m = min(m, v[k]);\n"
             "    d[i] = min(min(m.x, m.y), min(m.z, m.w)); }\n",
             per, per, invocations, per);
    return gl_program(gl, src);
}

static double gl_read(const edmli_gl *gl, const GLuint_ *buf, uint64_t bytes, uint32_t per)
{
    return gl_kernel_timed(gl, buf, gl_read_program(gl, bytes, per), (GLuint_)(bytes / 16 / per / 256));
}

/* gl_rowread: the same 64 MiB read in argreduce_partial's order for
 * argmin_inner: 4096-element rows, 64 invocations a row, 1024 a workgroup,
 * each stepping through its row two 16-byte loads at a time. */
static double gl_rowread(const edmli_gl *gl, const GLuint_ *buf)
{
    const GLuint_ prog = gl_program(
        gl, "#version 310 es\nlayout(local_size_x = 1024) in;\n"
            "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
            "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
            "void main() { uint i = gl_GlobalInvocationID.x, a = (i / 64u) * 1024u + i % 64u;\n"
            "    uvec4 m = uvec4(0xffffffffu);\n"
            "    for (uint k = 0u; k < 16u; k += 2u) m = min(m, min(s[a + k * 64u], s[a + k * 64u + 64u]));\n"
            "    d[i] = min(min(m.x, m.y), min(m.z, m.w)); }\n");
    return gl_kernel_timed(gl, buf, prog, 4096u * 64u / 1024u);
}

/* gl_gather: gather_points' work in bare GL, the least a kernel can do for
 * it: 2^20 random (row, column) INT64 tuples, one 16-byte load each, over a
 * 1024 x 1024 FLOAT32 input; each output word written (median of 50, back
 * to back). buf[0] holds the tuples (16 MiB) and, 16 MiB in, the input;
 * buf[1] the output. */
#define GATHER_POINTS (1u << 20)
static void gl_gather_tuples(const edmli_gl *gl, const GLuint_ *buf)
{
    static uint32_t tuples[GATHER_POINTS * 4];
    uint32_t r = 12345;
    for (uint32_t i = 0; i < GATHER_POINTS; i++) {
        r = r * 1664525u + 1013904223u;
        tuples[4 * i] = r >> 22, tuples[4 * i + 1] = 0, tuples[4 * i + 2] = (r >> 12) & 1023u, tuples[4 * i + 3] = 0;
    }
    static uint32_t input[1u << 20];
    for (uint32_t i = 0; i < (1u << 20); i++) input[i] = i * 2654435761u;
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[0]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof tuples, tuples);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, sizeof tuples, sizeof input, input);
    gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 2, buf[0], sizeof tuples, sizeof input);
}

static GLuint_ gl_gather_program(const edmli_gl *gl, uint32_t per)
{
    char src[1024];
    snprintf(src, sizeof src,
             "#version 310 es\nlayout(local_size_x = 256) in;\n"
             "layout(std430, binding = 0) readonly buffer T { uvec4 tup[]; };\n"
             "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
             "layout(std430, binding = 2) readonly buffer S { uint s[]; };\n"
             "void main() { uint i = gl_GlobalInvocationID.x * %uu; uvec4 t[%u];\n"
             "    for (uint k = 0u; k < %uu; k++) t[k] = tup[i + k];\n"
             "    for (uint k = 0u; k < %uu; k++) d[i + k] = s[t[k].x * 1024u + t[k].z]; }\n",
             per, per, per, per);
    return gl_program(gl, src);
}

static double gl_gather(const edmli_gl *gl, const GLuint_ *buf, uint32_t per)
{
    const GLuint_ prog = gl_gather_program(gl, per);
    if (!prog) return -1;
    gl_gather_tuples(gl, buf);
    return gl_kernel_timed(gl, buf, prog, GATHER_POINTS / 256 / per);
}

/* gl_rows: gather_rows' work in bare GL: 8192 random rows of 512 FLOAT32
 * (2 KiB) out of 32000, an invocation a 16-byte vector (median of 50).
 * buf[0] holds the INT32 row indices and, 32 KiB in, the input; buf[1] the
 * output. */
#define GATHER_ROWS 8192u
static double gl_rows(const edmli_gl *gl, const GLuint_ *buf)
{
    const GLuint_ prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                        "layout(std430, binding = 0) readonly buffer T { uint row[]; };\n"
                                        "layout(std430, binding = 1) writeonly buffer D { uvec4 d[]; };\n"
                                        "layout(std430, binding = 2) readonly buffer S { uvec4 s[]; };\n"
                                        "void main() { uint i = gl_GlobalInvocationID.x;\n"
                                        "    d[i] = s[row[i >> 7] * 128u + (i & 127u)]; }\n");
    if (!prog) return -1;
    static uint32_t rows[GATHER_ROWS];
    uint32_t r = 54321;
    for (uint32_t i = 0; i < GATHER_ROWS; i++) {
        r = r * 1664525u + 1013904223u;
        rows[i] = (uint32_t)(((uint64_t)r * 32000u) >> 32);
    }
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[0]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof rows, rows);
    gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 2, buf[0], sizeof rows, 32000u * 2048u);
    return gl_kernel_timed(gl, buf, prog, GATHER_ROWS * 128u / 256u);
}

static edmli_port_gl *gpu_time_gl; /* --gpu-time: the port whose entry points it calls */

static int gpu_floor(void)
{
    static edmli_port_gl port;
    char why[256];
    if (!edmli_port_gl_open(&port, 0, why, sizeof why)) {
        printf("gl_floor: no GL: %s\n", why);
        return 1;
    }
    const edmli_gl *gl = &port.gl;
    const GLuint_ floor_prog = gl_program(gl, gl_floor_src), copy_prog = gl_program(gl, gl_copy_src);
    const uint64_t bytes = 64ull << 20;
    GLuint_ buf[2] = {gl_storage(gl, bytes, 0), gl_storage(gl, bytes, 1)};
    if (!floor_prog || !copy_prog) {
        printf("gl_floor: the shaders did not build\n");
        return 1;
    }
    double f[200], c[20], steps[STEPS];
    gl->glUseProgram(floor_prog);
    for (int i = 0; i < 10; i++) gl_timed(gl, 1);
    for (int i = 0; i < 200; i++) f[i] = gl_timed(gl, 1);
    gl_floor_steps(gl, buf, steps);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    gl->glUseProgram(copy_prog);
    for (int i = 0; i < 3; i++) gl_timed(gl, (GLuint_)(bytes / 16 / 256));
    for (int i = 0; i < 20; i++) c[i] = gl_timed(gl, (GLuint_)(bytes / 16 / 256));
    const double tf = median(f, 200), tc = median(c, 20), tg = gl_gather(gl, buf, 1), tg4 = gl_gather(gl, buf, 4),
                 tr = gl_rows(gl, buf), tr4 = gl_read(gl, buf, bytes, 4), tr16 = gl_read(gl, buf, bytes, 16),
                 trr = gl_rowread(gl, buf);
    printf("gl_floor: one workgroup and a fence, %.1f us\n", tf * 1e6);
    printf("gl_copy:  64 MiB, %.3f ms, %.0f GB/s read + written\n", tc * 1e3, 2.0 * (double)bytes / tc / 1e9);
    if (tg < 0 || tg4 < 0 || tr < 0 || tr4 < 0 || tr16 < 0 || trr < 0)
        printf("gl_gather, gl_rows, gl_read, gl_rowread: a shader did not build (rowread takes 1024 invocations)\n");
    if (tg >= 0 && tg4 >= 0)
        printf("gl_gather: gather_points' 2^20 tuples, one 16-byte load each, %.1f us; four an invocation %.1f us\n",
               tg * 1e6, tg4 * 1e6);
    if (tr >= 0)
        printf("gl_rows: gather_rows' 8192 rows of 2 KiB, a 16-byte vector an invocation, %.1f us\n", tr * 1e6);
    if (tr4 >= 0 && tr16 >= 0)
        printf("gl_read: 64 MiB read and reduced, 4 loads an invocation %.1f us (%.0f GB/s), 16 %.1f us (%.0f GB/s)\n",
               tr4 * 1e6, (double)bytes / tr4 / 1e9, tr16 * 1e6, (double)bytes / tr16 / 1e9);
    if (trr >= 0)
        printf("gl_rowread: the same in ArgMin's order, 64 invocations a 4096-element row, %.1f us\n", trr * 1e6);
    printf("what an execution adds to the floor, step by step (interleaved, median of 200):\n");
    for (int k = 0; k < STEPS; k++)
        if (steps[k] >= 0) printf("  %-48s %5.1f us\n", step_names[k], steps[k]);
    gl_chain(gl, buf);
    gl->glDeleteBuffers(2, buf);
    gl->glDeleteProgram(floor_prog);
    gl->glDeleteProgram(copy_prog);
    edmli_port_gl_close(&port);
    return 0;
}

/* --gpu-time: where a GLES call's time goes, by the GPU's own clock
 * (GL_EXT_disjoint_timer_query). A timestamp is queued before the work and
 * one after its fence (the GL records it once everything before it has
 * completed), so a call splits into the GPU's busy span (from the first to
 * the last timestamp) and the rest (submitting on the CPU, the GPU's
 * front end reaching the work, the wake-up after the fence). Bare GL first:
 * a fence alone, gl_floor's one workgroup (also with edml's closing barrier,
 * with a third timestamp between the dispatch and the fence, twice, and
 * waited for without a fence: by polling the last timestamp, or by spinning
 * on a mapped word a one-invocation kernel bumps after a barrier), a 64 MiB
 * read and a 64 MiB copy, each a dispatch and a fence; then edml
 * workloads on GLES with their tensors in GPU buffers, recorded as a command
 * list of one entry (its submission returns at once, so the last timestamp
 * can follow its fence), the plain execution timed alternately. */
typedef struct gpu_clock {
    const edmli_gl *gl;
    GLuint_ q[3]; /* before the work, between (optional), after the fence */
    bool mid;
    double c0;
} gpu_clock;

static bool gpu_clock_open(gpu_clock *k, const edmli_gl *gl)
{
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_disjoint_timer_query") || !gl->glGenQueriesEXT || !gl->glDeleteQueriesEXT ||
        !gl->glQueryCounterEXT || !gl->glGetQueryObjectui64vEXT || !gl->glGetInteger64v)
        return false;
    k->gl = gl;
    gl->glGenQueriesEXT(3, k->q);
    return true;
}

static void gpu_clock_start(gpu_clock *k)
{
    k->c0 = now_s();
    k->mid = false;
    k->gl->glQueryCounterEXT(k->q[0], EDMLI_GL_TIMESTAMP);
}

static void gpu_clock_mid(gpu_clock *k)
{
    k->mid = true;
    k->gl->glQueryCounterEXT(k->q[1], EDMLI_GL_TIMESTAMP);
}

/* after the work and its fence, before the wait */
static void gpu_clock_mark(const gpu_clock *k)
{
    k->gl->glQueryCounterEXT(k->q[2], EDMLI_GL_TIMESTAMP);
    k->gl->glFlush();
}

/* after the wait: part[0] the call, [1] the GPU's busy span, [2] the rest,
 * [3] the span's part up to the middle timestamp (0 without one), in
 * seconds; false where the GPU's clock was disjoint */
static bool gpu_clock_end(const gpu_clock *k, double *part)
{
    const double c1 = now_s();
    uint64_t t[3] = {0, 0, 0};
    int64_t disjoint = 0;
    for (int j = 0; j < 3; j++)
        if (j != 1 || k->mid) k->gl->glGetQueryObjectui64vEXT(k->q[j], EDMLI_GL_QUERY_RESULT, &t[j]);
    k->gl->glGetInteger64v(EDMLI_GL_GPU_DISJOINT, &disjoint);
    part[0] = c1 - k->c0;
    part[1] = (double)(int64_t)(t[2] - t[0]) * 1e-9;
    part[2] = part[0] - part[1];
    part[3] = k->mid ? (double)(int64_t)(t[1] - t[0]) * 1e-9 : 0;
    return !disjoint;
}

#define GPU_TIME_N 100
/* the medians of the parts of n calls, and of `plain` (an execution's time) where given */
static void gpu_time_row(const char *name, double (*part)[4], int n, const double *plain)
{
    double col[GPU_TIME_N], m[4];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < n; i++) col[i] = part[i][j];
        m[j] = median(col, n);
    }
    printf("%-24s %7.1f %8.1f %7.1f", name, m[0] * 1e6, m[1] * 1e6, m[2] * 1e6);
    if (plain) printf(" %9.1f", median((double *)plain, n) * 1e6);
    if (m[3] > 0) printf("   (dispatch %.1f, then the fence %.1f)", m[3] * 1e6, (m[1] - m[3]) * 1e6);
    printf("\n");
}

enum {
    BARE_NO_DISPATCH = 1,
    BARE_BARRIER = 2,
    BARE_MID = 4,
    BARE_TWICE = 8,
    BARE_MARK_FIRST = 16,
    BARE_BY_QUERY = 32,
    BARE_FLAG = 64,        /* no fence: after a barrier, a one-invocation kernel bumps a word the CPU spins on */
    BARE_FLAG_CLIENT = 128 /* the same, the word's buffer made with the client-storage bit */
};

/* the wait for the last timestamp: polled until the GL marks it available
 * (it is recorded once every command before it has completed); false
 * after 5 s */
static bool gpu_clock_poll(const gpu_clock *k)
{
    uint64_t done = 0;
    for (double t0 = now_s(); !done; k->gl->glGetQueryObjectui64vEXT(k->q[2], EDMLI_GL_QUERY_RESULT_AVAILABLE, &done))
        if (now_s() - t0 > 5) return false;
    return true;
}

/* a bare kernel of `groups` workgroups, its dispatch and fence, GPU_TIME_N
 * times; BARE_MARK_FIRST: the last timestamp before the fence, not after;
 * BARE_BY_QUERY: no fence, the last timestamp polled instead */
/* BARE_FLAG's word: in a buffer mapped persistently and coherently
 * (GL_EXT_buffer_storage), without and with the client-storage bit */
typedef struct gpu_flag {
    GLuint_ buf[2], prog;
    const volatile uint32_t *mapped[2];
    uint32_t count[2];
} gpu_flag;
static gpu_flag flag;

static void gpu_flag_open(const edmli_gl *gl)
{
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage")) return;
    flag.prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 1) in;\n"
                               "layout(std430, binding = 3) buffer F { uint f[]; };\n"
                               "void main() { f[0] += 1u; }\n");
    gl->glGenBuffers(2, flag.buf);
    for (int i = 0; i < 2; i++) {
        const GLbitfield_ bits = EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, flag.buf[i]);
        gl->glBufferStorageEXT(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, bits | (i ? 0x0200u : 0u));
        flag.mapped[i] = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 4096, bits);
        flag.count[i] = flag.mapped[i] ? flag.mapped[i][0] : 0;
    }
}

/* the flag's kernel after the work; false if the word did not change within 5 s */
static bool gpu_flag_wait(const gpu_clock *k, GLuint_ prog, int which)
{
    const edmli_gl *gl = k->gl;
    gl->glMemoryBarrier(EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 3, flag.buf[which]);
    gl->glUseProgram(flag.prog);
    gl->glDispatchCompute(1, 1, 1);
    gl->glUseProgram(prog);
    gpu_clock_mark(k);
    const uint32_t want = ++flag.count[which];
    for (double t0 = now_s(); flag.mapped[which][0] != want;)
        if (now_s() - t0 > 5) return false;
    return true;
}

static void gpu_time_bare(gpu_clock *k, const char *name, GLuint_ prog, GLuint_ groups, int how)
{
    if ((how & (BARE_FLAG | BARE_FLAG_CLIENT)) && !flag.mapped[how & BARE_FLAG_CLIENT ? 1 : 0]) return;
    const edmli_gl *gl = k->gl;
    double part[GPU_TIME_N][4];
    int n = 0;
    if (!prog) return;
    gl->glUseProgram(prog);
    for (int i = 0; i < GPU_TIME_N + 5; i++) {
        gpu_clock_start(k);
        for (int d = 0; d < (how & BARE_TWICE ? 2 : 1) && !(how & BARE_NO_DISPATCH); d++)
            gl->glDispatchCompute(groups, 1, 1);
        if (how & BARE_MID) gpu_clock_mid(k);
        if (how & BARE_BARRIER)
            gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT | EDMLI_GL_SHADER_STORAGE_BARRIER_BIT);
        if (how & (BARE_FLAG | BARE_FLAG_CLIENT)) {
            const bool seen = gpu_flag_wait(k, prog, how & BARE_FLAG_CLIENT ? 1 : 0);
            if (gpu_clock_end(k, part[n]) && seen && i >= 5) n++;
            continue;
        }
        if (how & (BARE_MARK_FIRST | BARE_BY_QUERY)) gpu_clock_mark(k);
        GLsync_ f = how & BARE_BY_QUERY ? NULL : gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (!(how & (BARE_MARK_FIRST | BARE_BY_QUERY))) gpu_clock_mark(k);
        if (f) gl->glClientWaitSync(f, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
        if (f) gl->glDeleteSync(f);
        const bool done = !(how & BARE_BY_QUERY) || gpu_clock_poll(k);
        if (gpu_clock_end(k, part[n]) && done && i >= 5) n++;
    }
    if (n) gpu_time_row(name, part, n, NULL);
}

/* one workload on GLES, its tensors in GPU buffers: a list of one entry
 * with the clock, and the plain execution, alternately */
static bool gpu_time_workload(edml_device *dev, int wi, double scale)
{
    workload w;
    make_workload(&w, wi, scale);
    chain_run c = {.dev = dev, .w = &w, .n = 1, .gpu = true};
    EDML_BUFFER_BINDING bi[3], bo[64][2];
    uint8_t *outs[64][2] = {{0}};
    edml_gpu_buffer *gin[3] = {0}, *gout[2] = {0};
    edml_command_list *list = NULL;
    bool ok = !edml_operator_create(dev, &w.desc, EDML_BACKEND_GLES, &c.op[0]) &&
              chain_bind(&c, bi, bo, outs, gin, gout) && !edml_command_list_create(dev, 1, &list) &&
              !edml_command_list_record(list, c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL);
    gpu_clock k = {0};
    ok = ok && !edml_operator_execute(c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL); /* its context current */
    ok = ok && gpu_clock_open(&k, &gpu_time_gl->gl);
    double part[GPU_TIME_N][4], plain[GPU_TIME_N];
    int n = 0;
    for (int i = 0; i < GPU_TIME_N + 5 && ok; i++) {
        gpu_clock_start(&k);
        ok = !edml_command_list_submit(list);
        gpu_clock_mark(&k);
        ok = ok && !edml_command_list_wait(list, UINT64_MAX);
        const bool kept = gpu_clock_end(&k, part[n]) && i >= 5;
        const double t0 = now_s();
        ok = ok && !edml_operator_execute(c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL);
        if (kept) plain[n++] = now_s() - t0;
    }
    if (ok && n) gpu_time_row(w.name, part, n, plain);
    if (!ok) printf("%-16s failed: %s\n", w.name, edml_device_last_error(dev));
    if (k.gl) k.gl->glDeleteQueriesEXT(3, k.q);
    if (list) edml_command_list_destroy(list);
    free(outs[0][0]), free(outs[0][1]);
    for (int j = 2; j-- > 0;)
        if (gout[j]) edml_gpu_buffer_destroy(gout[j]);
    for (int j = 3; j-- > 0;)
        if (gin[j]) edml_gpu_buffer_destroy(gin[j]);
    if (c.op[0]) edml_operator_destroy(c.op[0]);
    free_workload(&w);
    return ok;
}

static void gl_read_words(const edmli_gl *gl, GLuint_ buf, uint32_t *host, size_t bytes)
{
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, buf);
    const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_READ_BUFFER, 0, (GLsizeiptr_)bytes, EDMLI_GL_MAP_READ_BIT);
    if (p) memcpy(host, p, bytes);
    gl->glUnmapBuffer(EDMLI_GL_COPY_READ_BUFFER);
}

/* gather_points' work in bare GL (gl_gather), and the same with the
 * input read through a buffer texture (GL_EXT_texture_buffer: texelFetch,
 * the texture path) */
static void gpu_time_gather(gpu_clock *k, const GLuint_ *buf)
{
    const edmli_gl *gl = k->gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    gl_gather_tuples(gl, buf);
    const GLuint_ ssbo = gl_gather_program(gl, 1);
    gpu_time_bare(k, "gl_gather", ssbo, GATHER_POINTS / 256, 0);
    if (ssbo) gl->glDeleteProgram(ssbo);
    static uint32_t before[GATHER_POINTS], after[GATHER_POINTS];
    gl_read_words(gl, buf[1], before, sizeof before);
    if (!ext || !strstr(ext, "GL_EXT_texture_buffer") || !gl->glTexBufferRangeEXT || !gl->glGenTextures ||
        !gl->glBindTexture || !gl->glActiveTexture || !gl->glDeleteTextures)
        return;
    const GLuint_ tex_prog =
        gl_program(gl, "#version 310 es\n#extension GL_EXT_texture_buffer : require\nlayout(local_size_x = 256) in;\n"
                       "layout(std430, binding = 0) readonly buffer T { uvec4 tup[]; };\n"
                       "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
                       "layout(binding = 0) uniform highp usamplerBuffer S;\n"
                       "void main() { uint i = gl_GlobalInvocationID.x; uvec4 t = tup[i];\n"
                       "    d[i] = texelFetch(S, int(t.x * 1024u + t.z)).x; }\n");
    GLuint_ tex = 0;
    gl->glActiveTexture(EDMLI_GL_TEXTURE0);
    gl->glGenTextures(1, &tex);
    gl->glBindTexture(EDMLI_GL_TEXTURE_BUFFER, tex);
    gl->glTexBufferRangeEXT(EDMLI_GL_TEXTURE_BUFFER, EDMLI_GL_R32UI, buf[0], (GLintptr_)GATHER_POINTS * 16, 4u << 20);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[1]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof after, after); /* zeros */
    gpu_time_bare(k, "gl_gather, a buffer texture", tex_prog, GATHER_POINTS / 256, 0);
    gl_read_words(gl, buf[1], after, sizeof after);
    printf("  (its outputs %s gl_gather's; word 1000 %08x)\n",
           memcmp(before, after, sizeof after) ? "differ from" : "equal", (unsigned)after[1000]);
    if (tex_prog) gl->glDeleteProgram(tex_prog);
    gl->glDeleteTextures(1, &tex);
}

/* random bytes into a buffer: the bare kernels read data like the
 * workloads' (a buffer never written reads as zeros, which the GPU may
 * move compressed) */
static void gl_fill_random(const edmli_gl *gl, GLuint_ buf, uint64_t bytes)
{
    static uint64_t chunk[1u << 17]; /* 1 MiB */
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf);
    for (uint64_t at = 0; at < bytes; at += sizeof chunk) {
        for (size_t i = 0; i < sizeof chunk / 8; i++) chunk[i] = rng();
        const uint64_t n = bytes - at < sizeof chunk ? bytes - at : sizeof chunk;
        gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, (GLintptr_)at, (GLsizeiptr_)n, chunk);
    }
}

/* if_f32's work in bare GL (gl_select): 2^24 FLOAT32 elements of A and B
 * selected by UINT8 conditions, four elements (16 bytes) an invocation,
 * with the ElementWiseIf kernel's masks: in four buffers read-only and
 * write-only, in four plain ones, and in one buffer as edml's arena
 * (offsets as uniforms; also with a coherent view of it declared, unused) */
static const char *const select_src[4] = {
    "layout(std430, binding = 4) readonly buffer C { uint c[]; };\n"
    "layout(std430, binding = 5) readonly buffer A { uvec4 a[]; };\n"
    "layout(std430, binding = 6) readonly buffer B { uvec4 b[]; };\n"
    "layout(std430, binding = 7) writeonly buffer D { uvec4 d[]; };\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = c[u];\n"
    "    d[u] = (a[u] & mask(w)) | (b[u] & ~mask(w)); }\n",
    "layout(std430, binding = 4) buffer C { uint c[]; };\n"
    "layout(std430, binding = 5) buffer A { uvec4 a[]; };\n"
    "layout(std430, binding = 6) buffer B { uvec4 b[]; };\n"
    "layout(std430, binding = 7) buffer D { uvec4 d[]; };\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = c[u];\n"
    "    d[u] = (a[u] & mask(w)) | (b[u] & ~mask(w)); }\n",
    "layout(std430, binding = 8) buffer M { uint m[]; };\n"
    "layout(std430, binding = 8) buffer M4 { uvec4 m4[]; };\n"
    "uniform uint u_at[4];\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = m[u_at[0] + u];\n"
    "    m4[u_at[3] + u] = (m4[u_at[1] + u] & mask(w)) | (m4[u_at[2] + u] & ~mask(w)); }\n",
    "layout(std430, binding = 8) buffer M { uint m[]; };\n"
    "layout(std430, binding = 8) buffer M4 { uvec4 m4[]; };\n"
    "layout(std430, binding = 8) coherent buffer MC { uint mc[]; };\n"
    "uniform uint u_at[4];\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = m[u_at[0] + u];\n"
    "    m4[u_at[3] + u] = (m4[u_at[1] + u] & mask(w)) | (m4[u_at[2] + u] & ~mask(w)); }\n"};
static const char *const select_names[4] = {"gl_select (if_f32's work)", "gl_select, plain buffers",
                                            "gl_select, one buffer", "gl_select, one, coherent view"};

static void gpu_time_select(gpu_clock *k)
{
    const edmli_gl *gl = k->gl;
    const uint64_t n = 1u << 24, sizes[5] = {n, 4 * n, 4 * n, 4 * n, 13 * n}; /* conditions, A, B, output; all */
    const GLuint_ at[4] = {0, (GLuint_)(n / 16), (GLuint_)(5 * n / 16), (GLuint_)(9 * n / 16)};
    GLuint_ buf[5];
    for (int i = 0; i < 5; i++) {
        buf[i] = gl_storage(gl, sizes[i], (GLuint_)(4 + i));
        if (i != 3) gl_fill_random(gl, buf[i], sizes[i]);
    }
    for (int v = 0; v < 4; v++) {
        char src[2048];
        snprintf(src, sizeof src,
                 "#version 310 es\nlayout(local_size_x = 1024) in;\n"
                 "uint bm(uint w, uint k) { return ((w >> (k * 8u)) & 0xffu) != 0u ? 0xffffffffu : 0u; }\n"
                 "uvec4 mask(uint w) { return uvec4(bm(w, 0u), bm(w, 1u), bm(w, 2u), bm(w, 3u)); }\n%s",
                 select_src[v]);
        const GLuint_ prog = gl_program(gl, src);
        if (!prog) continue;
        gl->glUseProgram(prog);
        if (v >= 2) gl->glUniform1uiv(gl->glGetUniformLocation(prog, "u_at"), 4, at);
        gpu_time_bare(k, select_names[v], prog, (GLuint_)(n / 4 / 1024), 0);
        gl->glDeleteProgram(prog);
    }
    gl->glDeleteBuffers(5, buf);
}

static int gpu_time(const options *o)
{
    static edmli_port_gl port; /* its entry points serve edml's context too */
    char why[256];
    if (!edmli_port_gl_open(&port, 0, why, sizeof why)) {
        printf("gpu-time: no GL: %s\n", why);
        return 1;
    }
    const edmli_gl *gl = &port.gl;
    gpu_time_gl = &port;
    gpu_clock k = {0};
    if (!gpu_clock_open(&k, gl)) {
        printf("gpu-time: the driver has no GL_EXT_disjoint_timer_query\n");
        edmli_port_gl_close(&port);
        return 1;
    }
    printf("gpu-time: medians of %d calls, us: the call, the GPU busy from a timestamp before its work to one after "
           "its fence, the rest; an edml execution's own time beside\n%-24s %7s %8s %7s %9s\n",
           GPU_TIME_N, "", "call", "on GPU", "rest", "execute");
    const uint64_t bytes = o->scale < 1 ? 1ull << 20 : 64ull << 20; /* the read and the copy: 1 MiB for quick runs */
    GLuint_ buf[2] = {gl_storage(gl, bytes, 0), gl_storage(gl, bytes, 1)};
    char read_name[32], copy_name[32];
    snprintf(read_name, sizeof read_name, "gl_read %u MiB", (unsigned)(bytes >> 20));
    snprintf(copy_name, sizeof copy_name, "gl_copy %u MiB", (unsigned)(bytes >> 20));
    const GLuint_ floor_prog = gl_program(gl, gl_floor_src), read_prog = gl_read_program(gl, bytes, 4),
                  copy_prog = gl_program(gl, gl_copy_src);
    gpu_time_bare(&k, "two timestamps alone", floor_prog, 1, BARE_NO_DISPATCH | BARE_MARK_FIRST);
    gpu_time_bare(&k, "a fence alone", floor_prog, 1, BARE_NO_DISPATCH);
    gpu_time_bare(&k, "gl_floor", floor_prog, 1, 0);
    gpu_time_bare(&k, "gl_floor, edml's barrier", floor_prog, 1, BARE_BARRIER);
    gpu_time_bare(&k, "gl_floor, a mark", floor_prog, 1, BARE_MID);
    gpu_time_bare(&k, "gl_floor twice", floor_prog, 1, BARE_TWICE);
    gpu_time_bare(&k, "gl_floor, timestamp first", floor_prog, 1, BARE_BARRIER | BARE_MARK_FIRST);
    gpu_time_bare(&k, "gl_floor, no fence", floor_prog, 1, BARE_BARRIER | BARE_BY_QUERY);
    gpu_flag_open(gl);
    gpu_time_bare(&k, "gl_floor, a flag spun on", floor_prog, 1, BARE_FLAG);
    gpu_time_bare(&k, "the same, client storage", floor_prog, 1, BARE_FLAG_CLIENT);
    gpu_time_bare(&k, "a flag alone", floor_prog, 1, BARE_FLAG | BARE_NO_DISPATCH);
    gpu_time_bare(&k, "gl_read, never written", read_prog, (GLuint_)(bytes / 16 / 4 / 256), 0);
    gpu_time_bare(&k, "gl_copy, never written", copy_prog, (GLuint_)(bytes / 16 / 256), 0);
    gl_fill_random(gl, buf[0], bytes); /* the rows below read random data */
    gpu_time_bare(&k, read_name, read_prog, (GLuint_)(bytes / 16 / 4 / 256), 0);
    gpu_time_bare(&k, "gl_read, a mark", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_MID);
    gpu_time_bare(&k, "gl_read, no fence", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_BARRIER | BARE_BY_QUERY);
    gpu_time_bare(&k, "gl_read, a flag spun on", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_FLAG);
    gpu_time_bare(&k, copy_name, copy_prog, (GLuint_)(bytes / 16 / 256), 0);
    if (bytes >= (20u << 20)) gpu_time_gather(&k, buf); /* its tuples and input: 20 MiB */
    if (o->scale >= 1) gpu_time_select(&k);
    gl->glDeleteProgram(floor_prog);
    gl->glDeleteProgram(read_prog);
    gl->glDeleteProgram(copy_prog);
    if (flag.prog) gl->glDeleteProgram(flag.prog);
    if (flag.buf[0]) gl->glDeleteBuffers(2, flag.buf); /* unmapped with them */
    gl->glDeleteQueriesEXT(3, k.q);
    gl->glDeleteBuffers(2, buf);
    bench_device bd;
    bool ok = bench_device_open(&bd, 1, 0);
    for (int wi = 0; wi < WORKLOADS && ok; wi++)
        if (!o->only || !strcmp(o->only, workload_names[wi])) ok = gpu_time_workload(bd.dev, wi, o->scale);
    if (bd.dev) bench_device_close(&bd);
    edmli_port_gl_close(&port);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    if (o.only_calls >= 0) return count_calls(&o);
    if (iters < 10) iters = 10;
    if (o.gpu_floor && gpu_floor()) return 1;
    if (o.gpu_floor && !o.only) return 0;
    if (o.chain) return chain(&o, o.chain);
    if (o.pipeline) return pipeline();
    if (o.gpu_time) return gpu_time(&o);
    if (o.mapped) return bench_mapped(o.json, iters);
    if (o.sweep) return sweep(&o);
    bench_device bd;
    if (!bench_device_open(&bd, bench_threads, 0)) return 1;
    edml_device *dev = bd.dev;
    bench_pool = bd.pool;
    char info[300];
    printf("edml-bench: board %s, library %s, backends:", edml_board_builtin()->name, edml_version());
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
        if (edml_device_backends(dev) & EDML_BACKEND_BIT(b)) printf(" %s", edml_backend_name((edml_backend)b));
    printf("\n%s\nmedian of %d calls after a warm-up; %u thread%s\n\n", edml_device_gles_info(dev, info, sizeof info),
           iters, (unsigned)bench_threads, bench_threads > 1 ? "s (edml's pool; the copy on as many)" : "");
    int wrong = 0;
    for (int wi = 0; wi < WORKLOADS + (topk_rows[0] != 0); wi++) /* topk_rows only with --topk */
        if (!o.only || !strcmp(o.only, workload_name(wi))) bench_workload(dev, wi, &o, &wrong);
    fprintf(stderr, "%60s\r", "");
    if (o.crossover && (edml_device_backends(dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) crossover(dev);
    if (o.json && write_json(o.json)) return 1;
    bench_device_close(&bd);
    if (wrong) printf("%d results differ from the reference backend\n", wrong);
    return wrong ? 1 : 0;
}
