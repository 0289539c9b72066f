/* The board report's plan, said before it starts (tools/bench/report.c):
 * the scale (where --scale is not given, the largest up to 1 whose
 * workloads and their copies take at most a quarter of the board's
 * memory: a 1 GB Pi 4 runs it as it is), the memory it takes, the GPU
 * arena its devices ask for, the sizes its crossovers sweep, and about how
 * long it runs; and, at its end, a summary a person reads first. */
#define _GNU_SOURCE
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)

/* Each workload's bytes (inputs read, outputs written) as a + b x scale:
 * the workloads scale their rows linearly (a row never), so two tiny
 * scales give both terms without allocating the full ones. */
static void workload_terms(int wi, double *fixed, double *per_scale)
{
    const double s1 = 0.001, s2 = 0.002;
    workload w;
    make_workload(&w, wi, s1);
    const double b1 = (double)w.bytes;
    free_workload(&w);
    make_workload(&w, wi, s2);
    const double b2 = (double)w.bytes;
    free_workload(&w);
    *per_scale = (b2 - b1) / (s2 - s1);
    *fixed = b1 - s1 * *per_scale;
}

/* A workload in the report takes its tensors, the reference's outputs, a
 * copy of as many bytes beside it (the copy rate) and, on GLES, its GPU
 * buffers: four times its bytes at most. */
#define REPORT_COPIES 4.0

static uint64_t board_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* The largest scale up to 1 at which the largest workload's copies take at
 * most a quarter of `memory` (GPU arena included). */
static double fitting_scale(const double *fixed, const double *per, double memory)
{
    double scale = 1;
    for (int wi = 0; wi < WORKLOADS; wi++) {
        const double room = memory / 4 / (REPORT_COPIES + 2) - fixed[wi]; /* 2: the GPU arena's share */
        if (per[wi] > 0 && room > 0 && room < per[wi] * scale) scale = room / per[wi];
    }
    return scale < 0.0001 ? 0.0001 : scale;
}

void report_plan_make(options *o, bool scale_given, uint32_t threads, report_plan *p)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time, also into a pipe or a file */
    double fixed[WORKLOADS], per[WORKLOADS];
    for (int wi = 0; wi < WORKLOADS; wi++) workload_terms(wi, &fixed[wi], &per[wi]);
    p->memory = board_memory();
    if (!scale_given && p->memory) o->scale = fitting_scale(fixed, per, (double)p->memory);
    p->largest = 0;
    double seconds = 0;
    const double rate = 1.0 / copy_time(8u << 20, NULL) * (8u << 20); /* bytes a second, one core */
    for (int wi = 0; wi < WORKLOADS; wi++) {
        const double b = fixed[wi] + per[wi] * o->scale;
        p->bytes[wi] = b;
        if (b > (double)p->largest) p->largest = (uint64_t)b;
        /* every row (NEON at each thread count, GLES twice, the reference),
         * iters calls and two more, each ten copies' time: a guess; then
         * the model's (NEON and GLES at each thread count, twice, at four
         * sizes summing to 1.33 of this one, the reference once) */
        seconds += (threads + 3.0) * (iters + 2.0) * b / rate * 10;
        seconds += (4.0 * threads * (iters + 2.0) + 1.0) * b * 1.33 / rate * 10;
    }
    /* the crossovers: to 16M elements at scale 1, and past the board's
     * thresholds whatever the scale, as far as the memory allows (sizes
     * 4096 x 4^k; ElementWiseIf's 13 bytes an element, and its copies) */
    const edml_board *board = edml_board_builtin();
    double top = (double)(1u << 24) * (o->scale < 1 ? o->scale : 1);
    const double past[2] = {(double)board->gpu_min_elements_copy, (double)board->gpu_min_elements};
    for (int fam = 0; fam < 2; fam++)
        if (past[fam] < 4294967295.0 && 2 * past[fam] > top) top = 2 * past[fam];
    const double fits = p->memory ? (double)p->memory / 4 / 13 / REPORT_COPIES : 1e12;
    p->sweep_top = 16384;
    while (p->sweep_top < top && p->sweep_top * 4.0 <= fits && p->sweep_top < (1u << 28)) p->sweep_top *= 4;
    /* the GPU arena: the largest workload's buffers and staging, or the
     * sweep's, within 512 MiB */
    const double sweep_bytes = 13.0 * p->sweep_top * 1.25;
    p->gpu_arena =
        (uint64_t)(2.0 * (double)p->largest > sweep_bytes ? 2.0 * (double)p->largest : sweep_bytes) + (16u << 20);
    if (p->gpu_arena > (512ull << 20)) p->gpu_arena = 512ull << 20;
    bench_gpu_arena = p->gpu_arena;
    p->peak = (uint64_t)(REPORT_COPIES * (double)p->largest) + p->gpu_arena;
    seconds += 2.0 * 2 * (iters + 2.0) * (double)p->sweep_top * 13 / rate * 10 * 4 / 3; /* sizes x4: a geometric sum */
    p->seconds = seconds + 5; /* the GPU's first start and measured placement: seconds */
    p->t0 = now_s();
    printf("board report: scale %g%s, the largest workload %.1f MB; at most %.0f MB with its copies and a %.0f MB GPU "
           "arena, of the board's %.0f MB; crossovers to %u elements; about %.0f s (a guess from this core's copy "
           "rate); each step printed as it ends\n",
           o->scale,
           scale_given      ? ""
           : o->scale < 1.0 ? " (the largest whose workloads take a quarter of the board's memory at most)"
                            : " (the full size: it fits the board's memory)",
           (double)p->largest / MIB, (double)p->peak / MIB, (double)p->gpu_arena / MIB, (double)p->memory / MIB,
           (unsigned)p->sweep_top, p->seconds);
}

/* After `done` workloads: the time so far, and the rest at the rate the
 * workloads' bytes went so far (the crossovers and placement after them). */
void report_plan_progress(const report_plan *p, int done)
{
    double so_far = 0, all = 0;
    for (int wi = 0; wi < WORKLOADS; wi++) all += p->bytes[wi], so_far += wi < done ? p->bytes[wi] : 0;
    const double t = now_s() - p->rows_t0;
    printf("progress: %d of %d workloads, %.0f s so far; about %.0f s more for the rest of them\n", done, WORKLOADS,
           now_s() - p->t0, so_far > 0 ? t / so_far * (all - so_far) : 0.0);
}

/* The summary: for each family, where measured placement put its
 * workloads, and from which size GLES stays ahead on one core (if ever,
 * within the sizes swept). */
void report_plan_summary(const report_plan *p, const uint32_t found[2], const char (*placed)[2][8], bool gpu)
{
    static const char *const families[4] = {"TopK", "GatherND", "ArgMin/ArgMax", "ElementWiseIf"};
    static const char prefix[4][8] = {"topk", "gather", "arg", "if"};
    printf("\nsummary (%.0f s):\n", now_s() - p->t0);
    for (int fam = 0; fam < 4; fam++) {
        int on_gpu[2] = {0, 0}, total = 0;
        for (int wi = 0; wi < WORKLOADS; wi++) {
            if (strncmp(workload_names[wi], prefix[fam], strlen(prefix[fam]))) continue;
            total++;
            for (int b = 0; b < 2; b++) on_gpu[b] += !strcmp(placed[wi][b], "gles");
        }
        printf("  %-13s measured placement: GLES for %d of %d with host memory, %d of %d with GPU buffers%s\n",
               families[fam], on_gpu[0], total, on_gpu[1], total, gpu ? "" : " (no GPU)");
    }
    const char *const kind[2] = {"copy-like (ElementWiseIf)", "reduction (ArgMin)"};
    for (int fam = 0; gpu && fam < 2; fam++)
        found[fam] ? printf("  %s: GLES ahead on one core from %u elements\n", kind[fam], (unsigned)found[fam])
                   : printf("  %s: GLES never ahead on one core from 4096 to %u elements (the largest it ran)\n",
                            kind[fam], (unsigned)p->swept[fam]);
}
