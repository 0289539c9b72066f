/* edml-bench --sweep: one backend at 1, 2, 4, 8 and 16 threads. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool bench_device_open(bench_device *b, uint32_t threads, uint32_t mask)
{
    edml_device_desc base = {0};
    base.backends = mask;
    return bench_device_open_with(b, threads, &base, NULL);
}

uint64_t bench_gpu_arena;

bool bench_device_open_placed(bench_device *b, uint32_t threads, uint32_t mask, uint32_t placement, edml_pool *pool,
                              uint64_t gpu_arena)
{
    edml_device_desc base = {0};
    base.backends = mask;
    base.placement = placement;
    base.gpu_arena_bytes = gpu_arena;
    return bench_device_open_with(b, threads, &base, pool);
}

bool bench_device_open_with(bench_device *b, uint32_t threads, const edml_device_desc *base, edml_pool *pool)
{
    memset(b, 0, sizeof *b);
    edml_device_desc dd = *base;
    /* the largest workload and its copy, and the operators' parameters */
    if (!dd.gpu_arena_bytes) dd.gpu_arena_bytes = bench_gpu_arena ? bench_gpu_arena : (512ull << 20) + (1u << 20);
    dd.gles_one_thread = bench_one_thread; /* 1: one thread makes every call */
    dd.board = bench_board.gpu_workgroup ? &bench_board : NULL;
    if (threads > 1 && pool) { /* another device's pool: it runs one device's call at a time */
        dd.parallel_for = edml_pool_parallel_for;
        dd.parallel_context = pool;
        dd.workers = threads;
    } else if (threads > 1) {
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

void bench_device_close(bench_device *b)
{
    if (b->dev) edml_device_destroy(b->dev);
    if (b->pool) edml_pool_destroy(b->pool);
    free(b->arena);
    free(b->pool_memory);
}

/* Median time of the operator on `dev`; its outputs compared with `keep`
 * (taken from this run when keep[0] is NULL). Negative if it cannot run. */
double bench_time_outputs(edml_device *dev, workload *w, edml_backend be, uint8_t **keep, bool *same)
{
    for (int k = 0; k < w->nout; k++) memset(w->out[k].host, 0xa5, (size_t)w->out[k].bytes);
    timed_op t;
    if (timed_open(dev, w, be, &t)) return -1;
    const edml_status s = t.first;
    if (!keep[0])
        for (int k = 0; k < w->nout; k++) {
            keep[k] = malloc((size_t)w->out[k].bytes);
            memcpy(keep[k], w->out[k].host, (size_t)w->out[k].bytes);
        }
    *same = s == EDML_STATUS_OK && same_outputs(w, keep);
    const double m = timed_median(&t);
    timed_close(&t);
    return m;
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
    bench_time_outputs(devs[0].dev, &w, EDML_BACKEND_REF, ref, &same);
    double t1 = 0;
    for (int k = 0; k < n; k++) {
        fprintf(stderr, "%s, %u threads...   \r", w.name, (unsigned)threads[k]);
        double sec = bench_time_outputs(devs[k].dev, &w, be, ref, &same);
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

int sweep(const options *o)
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
