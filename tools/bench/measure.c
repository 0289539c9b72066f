/* edml-bench: timing a workload on a backend, the copy it is compared
 * with, the report and its JSON. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- timing ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int iters = 10;

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
double copy_time(uint64_t bytes, edml_pool *pool)
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

result results[512];

uint32_t bench_threads = 1;    /* --threads */
uint32_t bench_one_thread = 1; /* --any-thread: 0, edml_device_desc.gles_one_thread's default */
edml_pool *bench_pool;         /* its pool */
edml_board bench_board;        /* --workgroup: the built-in board with another GLES workgroup */
int nresults;

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

/* The outputs' elements, not the padding TotalTensorSizeInBytes rounds up
 * to 4: no backend writes those bytes, and a GPU buffer's hold what its part
 * of the GPU arena held before (the workloads' outputs are packed). */
bool same_outputs(const workload *w, uint8_t *const *ref)
{
    for (int o = 0; o < w->nout; o++) {
        const tensor *t = &w->out[o];
        const size_t bytes = t->strided ? (size_t)t->bytes : (size_t)t->count * edml_data_type_size(t->dtype);
        if (memcmp(t->host, ref[o], bytes)) return false;
    }
    return true;
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
/* The one timing loop of the host-to-host rows (every backend's, the
 * sweep's): the workload's operator on a backend, its scratch and host
 * bindings, one execution (whose status `first` holds; its outputs are then
 * in the workload's buffers), then the median of `iters` more. */
edml_status timed_open(edml_device *dev, workload *w, edml_backend be, timed_op *t)
{
    memset(t, 0, sizeof *t);
    edml_status s = edml_operator_create(dev, &w->desc, be, &t->op);
    if (s) return s;
    EDML_BINDING_PROPERTIES props;
    edml_operator_get_binding_properties(t->op, &props);
    t->tmp = props.TemporaryResourceSize ? aligned_alloc(16, (props.TemporaryResourceSize + 15) & ~15ull) : NULL;
    t->tb = (EDML_BUFFER_BINDING){t->tmp, 0, props.TemporaryResourceSize};
    t->nin = (UINT)w->nin, t->nout = (UINT)w->nout;
    for (int k = 0; k < w->nin; k++) t->bi[k] = (EDML_BUFFER_BINDING){w->in[k].host, 0, w->in[k].bytes};
    for (int k = 0; k < w->nout; k++) t->bo[k] = (EDML_BUFFER_BINDING){w->out[k].host, 0, w->out[k].bytes};
    t->first = edml_operator_execute(t->op, t->bi, t->nin, t->bo, t->nout, t->tmp ? &t->tb : NULL);
    return EDML_STATUS_OK;
}

double timed_median(timed_op *t)
{
    double s[256];
    const int reps = iters < 256 ? iters : 256;
    for (int k = 0; k < reps; k++) {
        double t0 = now_s();
        edml_operator_execute(t->op, t->bi, t->nin, t->bo, t->nout, t->tmp ? &t->tb : NULL);
        s[k] = now_s() - t0;
    }
    return median(s, reps);
}

void timed_close(timed_op *t)
{
    free(t->tmp);
    if (t->op) edml_operator_destroy(t->op);
    memset(t, 0, sizeof *t);
}

static double bench_backend(edml_device *dev, workload *w, edml_backend be, uint8_t **ref, double cpu_copy_gbps,
                            const options *o, int *wrong)
{
    result r = {w->name, edml_backend_name(be), "host", 0, 0, cpu_copy_gbps, 0, bench_threads, true, true, ""};
    const bool quiet = o->only_backend && be == EDML_BACKEND_REF; /* run only for the outputs */
    timed_op t;
    edml_status s = timed_open(dev, w, be, &t);
    if (s) {
        r.available = false;
        snprintf(r.note, sizeof r.note, "n/a: %s", edml_device_last_error(dev));
        if (!quiet) report(&r);
        return -1;
    }
    if ((s = t.first)) {
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
    r.seconds = timed_median(&t);
    r.gbps = (double)w->bytes / r.seconds * 1e-9;
    r.ratio = r.gbps / cpu_copy_gbps;
    if (be == EDML_BACKEND_AUTO)
        snprintf(r.note + strlen(r.note), sizeof r.note - strlen(r.note), " [auto: %s]",
                 edml_backend_name(edml_operator_backend(t.op)));
    if (!r.ok) (*wrong)++;
    if (!quiet) report(&r);
    if (be == EDML_BACKEND_GLES) gpu_resident(dev, t.op, w, ref, t.tmp ? &t.tb : NULL, r, wrong);
    timed_close(&t);
    return r.ok ? r.seconds : -1;
}

/* Every backend on one workload, then the sort baseline and AUTO's choice. */
void bench_workload(edml_device *dev, int wi, const options *o, int *wrong)
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
void bench_crossover_point(edml_device *dev, int family, UINT elements, double t[2])
{
    workload w;
    memset(&w, 0, sizeof w);
    if (family == 0) {
        UINT s[1] = {elements};
        if_workload(&w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, s, NULL);
    } else {
        UINT s[2] = {elements / 4096 ? elements / 4096 : 1, 4096}, ax[1] = {1};
        argmin_workload(&w, EDML_OPERATOR_ARGMIN, 2, s, ax, 1);
    }
    for (int b = 0; b < 2; b++) {
        edml_operator *op;
        t[b] = -1;
        if (edml_operator_create(dev, &w.desc, b ? EDML_BACKEND_GLES : EDML_BACKEND_NEON, &op)) continue;
        EDML_BUFFER_BINDING bi[3], bo[2];
        for (int k = 0; k < w.nin; k++) bi[k] = (EDML_BUFFER_BINDING){w.in[k].host, 0, w.in[k].bytes};
        for (int k = 0; k < w.nout; k++) bo[k] = (EDML_BUFFER_BINDING){w.out[k].host, 0, w.out[k].bytes};
        double s[11];
        edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL);
        for (int k = 0; k < 11; k++) {
            double t0 = now_s();
            edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL);
            s[k] = now_s() - t0;
        }
        t[b] = median(s, 11);
        edml_operator_destroy(op);
    }
    free_workload(&w);
}

void crossover(edml_device *dev)
{
    printf("crossover, ElementWiseIf FLOAT32 (host to host):\n");
    for (UINT n = 1024; n <= (1u << 24); n *= 4) {
        double t[2];
        bench_crossover_point(dev, 0, n, t);
        printf("  %9u elements: neon %8.3f ms, gles %8.3f ms%s\n", n, t[0] * 1e3, t[1] * 1e3,
               t[1] > 0 && t[1] < t[0] ? "  <- GPU faster" : "");
    }
}

/* Every other figure the tool prints, as a JSON row too: its kind, what it
 * is, and up to four named numbers. */
typedef struct figure {
    const char *kind;
    char name[80];
    int n;
    const char *key[4];
    double val[4];
} figure;
static figure figures[512];
static int nfigures;

void bench_figure(const char *kind, const char *name, int n, const char *const *keys, const double *vals)
{
    if (nfigures >= (int)(sizeof figures / sizeof *figures)) return;
    figure *f = &figures[nfigures++];
    f->kind = kind;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->n = n < 4 ? n : 4;
    for (int i = 0; i < f->n; i++) f->key[i] = keys[i], f->val[i] = vals[i];
}

static void write_figures(FILE *f)
{
    fprintf(f, "  \"figures\": [\n");
    for (int i = 0; i < nfigures; i++) {
        const figure *g = &figures[i];
        fprintf(f, "    {\"kind\": \"%s\", \"name\": \"%s\"", g->kind, g->name);
        for (int k = 0; k < g->n; k++) fprintf(f, ", \"%s\": %.6f", g->key[k], g->val[k]);
        fprintf(f, "}%s\n", i + 1 < nfigures ? "," : "");
    }
    fprintf(f, "  ],\n");
}

int write_json(const char *json)
{
    FILE *f = fopen(json, "w");
    if (!f) return perror(json), 1;
    fprintf(f, "{\n  \"board\": \"%s\",\n  \"iterations\": %d,\n", edml_board_builtin()->name, iters);
    write_figures(f);
    fprintf(f, "  \"results\": [\n");
    for (int i = 0; i < nresults; i++) {
        const result *r = &results[i];
        fprintf(f,
                "    {\"kind\": \"%s\", \"workload\": \"%s\", \"backend\": \"%s\", \"mode\": \"%s\", \"threads\": %u, "
                "\"available\": %s",
                strcmp(r->mode, "sweep") ? "workload" : "sweep", r->workload, r->backend, r->mode, (unsigned)r->threads,
                r->available ? "true" : "false");
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
