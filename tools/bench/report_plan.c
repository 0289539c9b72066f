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

/* What one call set costs on this board, besides its calls: a device's
 * first start, an operator's (its buffers, warm-up and checks) on NEON
 * and on GLES, and a GLES call over a copy of its bytes; probed on an
 * ArgMin of 64K elements, then priced at the workloads' sizes. */
typedef struct report_costs {
    double open_s, cpu_s, gpu_s;  /* a device's start; an operator's fixed cost on NEON, on GLES */
    double gpu_call_s[WORKLOADS]; /* each workload's GLES call at its least size (a row is never cut) */
    double least[WORKLOADS];      /* and that size's bytes */
    double gpu_copies;            /* and its time in copies of its bytes (NEON's: 10) */
    double cross_s[2][2];         /* a crossover point of 64K elements, copy and reduction, NEON and GLES */
    double rate;                  /* bytes a second one core copies */
    bool gpu;
} report_costs;

/* A call set's wall time on backend be and its calls' median, in seconds. */
static double probe_one(edml_device *dev, workload *w, edml_backend be, double *median_s)
{
    uint8_t *keep[2] = {NULL, NULL};
    bool same;
    const double t0 = now_s();
    *median_s = bench_time_outputs(dev, w, be, keep, &same);
    for (int k = 0; k < 2; k++) free(keep[k]);
    return now_s() - t0;
}

static void report_probe(report_costs *c)
{
    *c = (report_costs){.open_s = 0.05, .cpu_s = 0.001, .gpu_s = 0.01, .gpu_copies = 10};
    c->rate = (8u << 20) / copy_time(8u << 20, NULL);
    bench_device bd, again;
    if (!bench_device_open(&bd, 1, 0)) return;
    const double t0 = now_s(); /* a device's start once GL is loaded, as the report's are */
    if (bench_device_open(&again, 1, 0)) c->open_s = now_s() - t0, bench_device_close(&again);
    c->gpu = (edml_device_backends(bd.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)) != 0;
    /* a new shape each (the model's points are): three workloads' fixed
     * costs, each at a size whose calls take little */
    const int probe[3] = {0, WORKLOADS / 2, WORKLOADS - 1};
    double over[2] = {0, 0}, copies = 0;
    for (int i = 0; i < 3; i++) {
        workload w, big;
        make_workload(&w, probe[i], 0.0002);
        for (int b = 0; b < (c->gpu ? 2 : 1); b++) {
            double m;
            const double wall = probe_one(bd.dev, &w, b ? EDML_BACKEND_GLES : EDML_BACKEND_NEON, &m);
            const double calls = (iters + 2.0) * (m > 0 ? m : 0);
            over[b] += (wall > calls ? wall - calls : 0) / 3;
        }
        make_workload(&big, probe[i], 0.004); /* 20 times the bytes: what a byte adds */
        double m0 = 0, m1 = 0;
        if (c->gpu) probe_one(bd.dev, &w, EDML_BACKEND_GLES, &m0), probe_one(bd.dev, &big, EDML_BACKEND_GLES, &m1);
        if (m1 > m0 && big.bytes > w.bytes) copies += (m1 - m0) / ((double)(big.bytes - w.bytes) / c->rate) / 3;
        free_workload(&w), free_workload(&big);
    }
    for (int wi = 0; c->gpu && wi < WORKLOADS; wi++) { /* one call each, after a first */
        workload w;
        make_workload(&w, wi, 0.0002);
        edml_operator *op;
        c->least[wi] = (double)w.bytes;
        if (edml_operator_create(bd.dev, &w.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK) {
            EDML_BUFFER_BINDING bi[3], bo[2];
            for (int k = 0; k < w.nin; k++) bi[k] = (EDML_BUFFER_BINDING){w.in[k].host, 0, w.in[k].bytes};
            for (int k = 0; k < w.nout; k++) bo[k] = (EDML_BUFFER_BINDING){w.out[k].host, 0, w.out[k].bytes};
            edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL);
            const double t1 = now_s();
            edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL);
            c->gpu_call_s[wi] = now_s() - t1;
            edml_operator_destroy(op);
        }
        free_workload(&w);
    }
    for (int fam = 0; c->gpu && fam < 2; fam++) bench_crossover_point(bd.dev, fam, 65536, c->cross_s[fam]);
    c->cpu_s = over[0], c->gpu_s = over[1];
    c->gpu_copies = copies > 10 ? copies : 10;
    bench_device_close(&bd);
}

/* A call set of workload wi at b bytes: its fixed cost and iters + 2
 * calls (NEON's ten copies' time; GLES's its least size's call and what
 * the bytes past that add). */
static double set_s(const report_costs *c, bool gles, int wi, double b)
{
    if (!gles) return c->cpu_s + (iters + 2.0) * b / c->rate * 10;
    const double past = b > c->least[wi] ? b - c->least[wi] : 0;
    return c->gpu_s + (iters + 2.0) * (c->gpu_call_s[wi] + past / c->rate * c->gpu_copies);
}

/* The report's steps, guessed from the probed costs: the GPU's first
 * start (two devices a workload), the workloads' rows (the reference,
 * NEON at each thread count, GLES twice), the crossovers, the model's
 * points (every workload and three shapes at four sizes summing to 1.33
 * of the report's, the reference once, NEON and GLES twice at each thread
 * count) and measured placement (both kinds of bindings, 12 runs). */
static void guess_steps(const report_costs *c, report_plan *p, uint32_t threads)
{
    double rows = 0, model = 0, place = 0;
    for (int wi = 0; wi < WORKLOADS; wi++) {
        const double b = p->bytes[wi];
        rows += set_s(c, false, wi, b) * (threads + 1) + (c->gpu ? 2 * set_s(c, true, wi, b) : 0);
        for (double q = 1; q >= 1.0 / 64; q /= 4)
            model += (1 + 2 * threads) * set_s(c, false, wi, q * b) + 2 * threads * set_s(c, true, wi, q * b);
        place += c->gpu_s + 2 * 12 * (c->gpu_call_s[wi] + b / c->rate * c->gpu_copies);
    }
    model *= (double)(WORKLOADS + SHAPE_WORKLOADS) / WORKLOADS; /* the shapes: as much as a workload, each */
    double cross = 0; /* each size's two sides, 12 calls each, as the 64K point's time scaled by the elements */
    for (double e = 4096; e <= p->sweep_top; e *= 4)
        for (int fam = 0; fam < 2; fam++)
            cross += c->cpu_s + c->gpu_s +
                     12 * e / 65536 *
                         ((c->cross_s[fam][0] > 0 ? c->cross_s[fam][0] : 0) +
                          (c->cross_s[fam][1] > 0 ? c->cross_s[fam][1] : 0));
    memset(p->step_s, 0, sizeof p->step_s);
    p->step_s[REPORT_STEP_ROWS] = rows;
    if (!c->gpu) return;
    p->step_s[REPORT_STEP_START] = WORKLOADS * 2 * (c->open_s + c->gpu_s);
    p->step_s[REPORT_STEP_CROSSOVERS] = cross, p->step_s[REPORT_STEP_MODEL] = model;
    p->step_s[REPORT_STEP_PLACEMENT] = place;
}

void report_plan_make(options *o, bool scale_given, uint32_t threads, report_plan *p)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time, also into a pipe or a file */
    double fixed[WORKLOADS], per[WORKLOADS];
    for (int wi = 0; wi < WORKLOADS; wi++) workload_terms(wi, &fixed[wi], &per[wi]);
    p->memory = board_memory();
    if (!scale_given && p->memory) o->scale = fitting_scale(fixed, per, (double)p->memory);
    p->largest = 0;
    for (int wi = 0; wi < WORKLOADS; wi++) {
        const double b = fixed[wi] + per[wi] * o->scale;
        p->bytes[wi] = b;
        if (b > (double)p->largest) p->largest = (uint64_t)b;
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
    p->t0 = now_s();
    report_costs c;
    report_probe(&c);
    guess_steps(&c, p, threads);
    p->seconds = now_s() - p->t0 + 1; /* the probe, and the identity and heat */
    for (int k = 0; k < REPORT_STEPS; k++) p->seconds += p->step_s[k];
    printf("board report: scale %g%s, the largest workload %.1f MB; at most %.0f MB with its copies and a %.0f MB GPU "
           "arena, of the board's %.0f MB; crossovers to %u elements; about %.0f s (a guess from this core's copy "
           "rate and a probe of its backends' costs); each step printed as it ends\n",
           o->scale,
           scale_given      ? ""
           : o->scale < 1.0 ? " (the largest whose workloads take a quarter of the board's memory at most)"
                            : " (the full size: it fits the board's memory)",
           (double)p->largest / MIB, (double)p->peak / MIB, (double)p->gpu_arena / MIB, (double)p->memory / MIB,
           (unsigned)p->sweep_top, p->seconds);
}

/* After a step of the report: the time so far, and about how much more:
 * the steps left as guessed, at the pace of the guess so far. */
void report_plan_step(const report_plan *p, report_step done)
{
    static const char *const names[REPORT_STEPS] = {"the GPU's first start", "the workloads", "the crossovers",
                                                    "the cost model's points and fit", "measured placement"};
    double guessed = 0, left = 0;
    for (int k = 0; k < REPORT_STEPS; k++) *(k <= (int)done ? &guessed : &left) += p->step_s[k];
    const double so_far = now_s() - p->t0, pace = guessed > 0 ? so_far / guessed : 1;
    printf("progress: %s done, %.0f s so far (guessed %.0f); about %.0f s more\n", names[done], so_far, guessed,
           left * pace);
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

/* How a placement was decided, from edml_operator_placement()'s words. */
const char *report_placement_how(const char *why)
{
    if (strstr(why, "gpu_software_ok")) return "a software GPU kept from work";
    if (strstr(why, ": measured with") || strstr(why, ": saved, measured")) return "measured";
    if (strstr(why, ": measuring")) return "still measuring";
    if (strstr(why, ": model:")) return "the model";
    if (strstr(why, ": threshold")) return "the thresholds";
    if (!strcmp(why, "not run")) return "not run";
    return "no GPU side";
}

/* One family's line: where its workloads ran with each kind of bindings,
 * and how each placement was decided (counted by kind of decision). */
static void report_summary_family(const char *family, const char *prefix, const report_placed (*placed)[2])
{
    int on_gpu[2] = {0, 0}, total = 0, nhow = 0, counts[8] = {0};
    const char *hows[8];
    for (int wi = 0; wi < WORKLOADS; wi++) {
        if (strncmp(workload_names[wi], prefix, strlen(prefix))) continue;
        total++;
        for (int b = 0; b < 2; b++) {
            on_gpu[b] += !strcmp(placed[wi][b].backend, "gles");
            const char *how = placed[wi][b].how ? placed[wi][b].how : "not run";
            int h = 0;
            while (h < nhow && strcmp(hows[h], how)) h++;
            if (h == nhow && nhow < 8) hows[nhow++] = how;
            if (h < 8) counts[h]++;
        }
    }
    char by[200] = "";
    for (int h = 0; h < nhow; h++)
        snprintf(by + strlen(by), sizeof by - strlen(by), "%s%s %d", h ? ", " : "", hows[h], counts[h]);
    printf("  %-13s GLES for %d of %d with host memory, %d of %d with GPU buffers; decided by: %s\n", family, on_gpu[0],
           total, on_gpu[1], total, by);
}

/* The summary: for each family, where AUTO put its workloads and how that
 * was decided, and from which size GLES stays ahead on one core (if ever,
 * within the sizes swept). */
void report_plan_summary(const report_plan *p, const uint32_t found[2], const report_placed (*placed)[2], bool gpu)
{
    static const char *const families[4] = {"TopK", "GatherND", "ArgMin/ArgMax", "ElementWiseIf"};
    static const char prefix[4][8] = {"topk", "gather", "arg", "if"};
    printf("\nsummary (%.0f s, guessed %.0f):\n", now_s() - p->t0, p->seconds);
    if (!gpu) printf("  no GPU on this device: every workload on NEON, no placement to decide\n");
    for (int fam = 0; gpu && fam < 4; fam++) report_summary_family(families[fam], prefix[fam], placed);
    const char *const kind[2] = {"copy-like (ElementWiseIf)", "reduction (ArgMin)"};
    for (int fam = 0; gpu && fam < 2; fam++)
        found[fam] ? printf("  %s: GLES ahead on one core from %u elements\n", kind[fam], (unsigned)found[fam])
                   : printf("  %s: GLES never ahead on one core from 4096 to %u elements (the largest it ran)\n",
                            kind[fam], (unsigned)p->swept[fam]);
}
