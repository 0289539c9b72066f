/* edml-bench --report FILE: the board report, what a user runs on a board
 * to see what edml does there (make board-report builds it for a board).
 * Written as JSON to FILE, and printed as it goes:
 *   identity   the board, CPU, cores, clocks, kernel, GL driver and limits
 *   heat       the temperature and the firmware's throttling flags, before
 *              and after; each workload's rows marked when taken throttled
 *   start      what GLES's first start costs: each workload's operator
 *              created with nothing compiled (its kernels built and checked
 *              on their known answers), then again from the program cache
 *   workloads  the 16 workloads at --scale on NEON at 1, 2, 4 ... cores
 *              threads, and on GLES (host memory and GPU buffers)
 *   crossover  NEON against GLES over growing sizes, one thread: a
 *              copy-like operator and a reduction
 *   model      AUTO's cost model of the board (report_model.c): every
 *              workload at four sizes on NEON and GLES with each thread
 *              count's device, host memory and GPU buffers, fitted; also
 *              to FILE.model, the blob firmware gives
 *              edml_device_desc.cost_model; model_points:
 *              each point, its time and its line's prediction
 *   placement  where measured placement puts each workload on all cores,
 *              and why; the decisions also go to FILE.placement, a
 *              placement cache that firmware loads (EDML_PLACEMENT_SAVED)
 *   caps       a boards/<board>/caps.h block from the crossovers and model
 * tools/perf_table.py report FILE makes the docs' tables of it. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPORT_CACHE (4u << 20)      /* programs' binaries: a few hundred KiB on Mesa's drivers */
#define REPORT_PLACEMENT (64u << 10) /* 32 decisions of 40 bytes and a header: room to spare */

static int comma(FILE *f, int n) { return fprintf(f, n ? ",\n" : "\n"), n + 1; }

double bench_time_resident(edml_device *dev, workload *w, edml_backend be, uint8_t **ref, bool *same)
{
    edml_operator *op = NULL;
    edml_gpu_buffer *g[5] = {0};
    EDML_BUFFER_BINDING bi[3], bo[2];
    double t[256], sec = -1;
    bool ok = edml_operator_create(dev, &w->desc, be, &op) == EDML_STATUS_OK;
    for (int k = 0; ok && k < w->nin + w->nout; k++) {
        const tensor *x = k < w->nin ? &w->in[k] : &w->out[k - w->nin];
        ok = edml_gpu_buffer_create(dev, x->bytes, &g[k]) == EDML_STATUS_OK;
        if (ok && k < w->nin) ok = edml_gpu_buffer_write(g[k], 0, x->host, x->bytes) == EDML_STATUS_OK;
        if (ok && k < w->nin) bi[k] = edml_gpu_binding(g[k], 0, x->bytes);
        if (ok && k >= w->nin) bo[k - w->nin] = edml_gpu_binding(g[k], 0, x->bytes);
    }
    *same = false;
    if (ok && edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, NULL) == EDML_STATUS_OK) {
        for (int k = 0; k < w->nout; k++) edml_gpu_buffer_read(g[w->nin + k], 0, w->out[k].host, w->out[k].bytes);
        *same = !ref || same_outputs(w, ref); /* ref NULL: the caller checks w's outputs */
        const int reps = iters < 256 ? iters : 256;
        for (int k = 0; k < reps; k++) {
            const double t0 = now_s();
            edml_operator_execute(op, bi, (UINT)w->nin, bo, (UINT)w->nout, NULL);
            t[k] = now_s() - t0;
        }
        sec = median(t, reps);
    }
    for (int k = 5; k-- > 0;)
        if (g[k]) edml_gpu_buffer_destroy(g[k]);
    if (op) edml_operator_destroy(op);
    return sec;
}

/* The first start of a firmware that runs one workload's operator on the
 * GPU, for each workload apart: a new device with an empty program cache
 * (its programs compiled and checked), then a new one given what that
 * left (loaded); programs are never shared between workloads here, so
 * each row is what that operator's first start costs. */
static void report_start_one(FILE *f, const options *o, int wi, uint8_t *cache, size_t cache_bytes, int *n)
{
    memset(cache, 0, cache_bytes);
    for (int pass = 0; pass < 2; pass++) {
        bench_device bd;
        edml_device_desc base = {0};
        base.program_cache = cache, base.program_cache_bytes = cache_bytes;
        const double t0 = now_s();
        if (!bench_device_open_with(&bd, 1, &base, NULL)) return;
        const double created = now_s() - t0;
        workload w;
        make_workload(&w, wi, o->scale < 0.01 ? o->scale : 0.01);
        edml_operator *op = NULL;
        const double t1 = now_s();
        const edml_status s = edml_operator_create(bd.dev, &w.desc, EDML_BACKEND_GLES, &op);
        const double ms = (now_s() - t1) * 1e3;
        edml_program_cache_stats st = {0};
        edml_device_program_cache_stats(bd.dev, &st);
        *n = comma(f, *n);
        fprintf(f,
                "    {\"workload\": \"%s\", \"cache\": \"%s\", \"device_ms\": %.3f, \"create_ms\": %.3f, "
                "\"compiled\": %u, \"loaded\": %u, \"used_bytes\": %zu, \"ok\": %s}",
                w.name, pass ? "loaded" : "empty", created * 1e3, ms, st.compiled, st.loaded, st.used,
                s ? "false" : "true");
        printf("start: %-15s %s cache: operator on GLES in %.1f ms (%u programs compiled, %u loaded)%s\n", w.name,
               pass ? "from the" : "an empty", ms, st.compiled, st.loaded, s ? " (refused)" : "");
        if (op) edml_operator_destroy(op);
        free_workload(&w);
        bench_device_close(&bd);
    }
}

static void report_start(FILE *f, const options *o)
{
    static uint8_t cache[REPORT_CACHE];
    fprintf(f, "  \"start\": [");
    int n = 0;
    for (int wi = 0; wi < WORKLOADS; wi++) report_start_one(f, o, wi, cache, sizeof cache, &n);
    char info[600];
    bench_device bd;
    if (bench_device_open(&bd, 1, 0)) { /* the kernels checked, any taken off */
        n = comma(f, n);
        fprintf(f, "    {\"gles\": ");
        json_str(f, edml_device_gles_info(bd.dev, info, sizeof info));
        fprintf(f, "}");
        bench_device_close(&bd);
    }
    fprintf(f, "\n  ],\n");
}

/* One workload's rows: NEON at each thread count, GLES with host memory
 * and with GPU buffers where the device has GLES; every output the
 * reference's. */
static void report_workload(FILE *f, bench_device *devs, const uint32_t *threads, int nt, bool gpu, int wi,
                            const options *o, int *n)
{
    workload w;
    make_workload(&w, wi, o->scale);
    report_heat h;
    report_thermal(&h);
    uint8_t *ref[2] = {NULL, NULL};
    bool same;
    bench_time_outputs(devs[0].dev, &w, EDML_BACKEND_REF, ref, &same);
    for (int k = 0; k < (gpu ? nt + 2 : nt); k++) {
        const bool gles = k >= nt;
        const edml_backend be = gles ? EDML_BACKEND_GLES : EDML_BACKEND_NEON;
        double ms = gles && k == nt + 1 ? bench_time_resident(devs[0].dev, &w, EDML_BACKEND_GLES, ref, &same)
                                        : bench_time_outputs(devs[gles ? 0 : k].dev, &w, be, ref, &same);
        ms *= 1e3;
        *n = comma(f, *n);
        fprintf(f,
                "    {\"workload\": \"%s\", \"backend\": \"%s\", \"binding\": \"%s\", \"threads\": %u, "
                "\"median_ms\": ",
                w.name, edml_backend_name(be), k == nt + 1 ? "gpu" : "host", gles ? 1u : (unsigned)threads[k]);
        ms > 0 ? fprintf(f, "%.6f", ms) : fprintf(f, "null");
        fprintf(f, ", \"correct\": %s, \"throttled\": %s}", ms > 0 && same ? "true" : "false",
                !h.has_flags && !h.has_temp ? "null"
                : h.throttled               ? "true"
                                            : "false");
        printf("%-15s %-4s %-4s %2u threads %10.3f ms%s%s\n", w.name, edml_backend_name(be),
               k == nt + 1 ? "gpu" : "host", gles ? 1u : (unsigned)threads[k], ms,
               ms > 0 && !same ? "  WRONG RESULT" : "", h.throttled ? "  (throttled)" : "");
    }
    for (int k = 0; k < 2; k++) free(ref[k]);
    free_workload(&w);
}

/* NEON and GLES on one thread over growing sizes of ElementWiseIf FLOAT32
 * (copy-like) and ArgMin along rows of 4096 (a reduction); the smallest
 * size from which GLES stays ahead, or 0 where it never is. */
static void report_crossover(FILE *f, edml_device *dev, report_plan *p, uint32_t found[2])
{
    fprintf(f, "  \"crossover\": [");
    int n = 0;
    /* to the plan's size: 16M elements at scale 1, fewer at a smaller one,
     * past the board's thresholds whatever the scale, within its memory */
    for (int fam = 0; fam < 2; fam++) {
        found[fam] = p->swept[fam] = 0;
        for (UINT e = 4096; e <= p->sweep_top; e *= 4) {
            double t[2];
            bench_crossover_point(dev, fam, e, t);
            if (t[1] > 0 && t[1] < t[0] && !found[fam]) found[fam] = e;
            if (t[1] > 0 && t[1] >= t[0]) found[fam] = 0; /* it must stay ahead */
            if (t[1] > 0) p->swept[fam] = e;
            n = comma(f, n);
            fprintf(f, "    {\"family\": \"%s\", \"elements\": %u, \"neon_ms\": %.6f, \"gles_ms\": ",
                    fam ? "reduction" : "copy", (unsigned)e, t[0] * 1e3);
            t[1] > 0 ? fprintf(f, "%.6f}", t[1] * 1e3) : fprintf(f, "null}");
            printf("crossover %-9s %9u elements: neon %9.3f ms, gles ", fam ? "reduction" : "copy", (unsigned)e,
                   t[0] * 1e3);
            t[1] > 0 ? printf("%9.3f ms\n", t[1] * 1e3) : printf("n/a: %s\n", edml_device_last_error(dev));
            if (t[1] <= 0) break; /* larger sizes no more */
        }
    }
    fprintf(f, "\n  ],\n");
}

/* Measured placement of every workload on all cores, host memory and GPU
 * buffers (the backend each ran on in placed[]); the decisions saved to `path`. */
static void report_placement(FILE *f, uint32_t cores, const options *o, const char *path,
                             report_placed (*placed_all)[2])
{
    static uint8_t decisions[REPORT_PLACEMENT];
    bench_device bd;
    fprintf(f, "  \"placement\": [");
    int n = 0;
    edml_device_desc base = {0};
    base.placement = EDML_PLACEMENT_MEASURE;
    base.placement_cache = decisions, base.placement_cache_bytes = sizeof decisions;
    if (bench_device_open_with(&bd, cores, &base, NULL)) {
        for (int wi = 0; wi < WORKLOADS; wi++) {
            workload w;
            make_workload(&w, wi, o->scale);
            char why[2][200], placed[2][8];
            bench_place(bd.dev, &w, why, placed);
            for (int b = 0; b < 2; b++) {
                memcpy(placed_all[wi][b].backend, placed[b], sizeof placed[b]);
                placed_all[wi][b].how = report_placement_how(why[b]);
                n = comma(f, n);
                fprintf(f, "    {\"workload\": \"%s\", \"binding\": \"%s\", \"placed\": \"%s\", \"why\": ", w.name,
                        b ? "gpu" : "host", placed[b]);
                json_str(f, why[b]);
                fprintf(f, "}");
                printf("placement %-15s %-4s %s\n", w.name, b ? "gpu" : "host", why[b]);
            }
            free_workload(&w);
        }
        edml_placement_cache_stats st = {0};
        edml_device_placement_cache_stats(bd.dev, &st);
        FILE *p = fopen(path, "wb");
        if (p && st.used) fwrite(decisions, 1, st.used, p);
        if (p) fclose(p);
        printf("placement: %u decisions in %s (%zu bytes: edml_device_desc.placement_cache, EDML_PLACEMENT_SAVED)\n",
               st.decisions, path, st.used);
        bench_device_close(&bd);
    }
    fprintf(f, "\n  ],\n");
}

static void report_caps(FILE *f, const uint32_t found[2], uint32_t cores, const uint32_t swept[2],
                        const edml_cost_term *terms, uint32_t nterms)
{
    static char caps[1u << 17];
    char gles[300];
    bench_device bd;
    gles[0] = '\0';
    if (bench_device_open(&bd, 1, 0)) {
        edml_device_gles_info(bd.dev, gles, sizeof gles);
        /* the renderer (which may hold commas and brackets of its own), not the settings after it */
        char *cut = strstr(gles, " display, ");
        while (cut && cut > gles && strncmp(cut, " (", 2)) cut--;
        if (cut && cut > gles) *cut = '\0';
        bench_device_close(&bd);
    }
    char emulation[200];
    const bool emulated = report_emulated(emulation, sizeof emulation);
    if (emulated) cores = edml_board_builtin()->cores; /* the host's count says nothing of the board */
    char never[2][96];
    for (int fam = 0; fam < 2; fam++)
        swept[fam] ? snprintf(never[fam], sizeof never[fam],
                              " /* never: GLES was not ahead from 4096 to %u elements */", (unsigned)swept[fam])
                   : snprintf(never[fam], sizeof never[fam], " /* never: GLES did not run here */");
    snprintf(caps, sizeof caps,
             "%s/* AUTO thresholds from edml-bench --report (one thread's crossovers) on %s */\n"
             "#define EDML_BOARD_GPU_MIN_ELEMENTS %uu%s\n"
             "#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY %uu%s\n"
             "#define EDML_BOARD_CORES %u\n",
             emulated ? "/* measured UNDER EMULATION (qemu-user): not the board's own figures; the cores are "
                        "the built-in board's */\n"
                      : "",
             gles, found[1] ? found[1] : 4294967295u, found[1] ? "" : never[1], found[0] ? found[0] : 4294967295u,
             found[0] ? "" : never[0], (unsigned)cores);
    if (nterms) {
        const size_t at = strlen(caps);
        snprintf(caps + at, sizeof caps - at, "/* AUTO's cost model from the same report (fitted lines) */\n");
        report_model_caps(caps + strlen(caps), sizeof caps - strlen(caps), terms, nterms);
    }
    fprintf(f, "  \"caps\": ");
    json_str(f, caps);
    fprintf(f, ",\n");
    printf("\n%s\n", caps);
}

/* 1, 2, 4 ... and the cores themselves */
static int thread_counts(uint32_t cores, uint32_t *t)
{
    int n = 0;
    for (uint32_t k = 1; k < cores && n < 7; k *= 2) t[n++] = k;
    t[n++] = cores;
    return n;
}

/* The plan in the JSON: what the report was sized for, and how long it took. */
static void report_plan_json(FILE *f, const options *o, const report_plan *p)
{
    fprintf(f,
            "  \"plan\": {\"scale\": %g, \"scale_given\": %s, \"memory_bytes\": %llu, \"largest_bytes\": %llu, "
            "\"peak_bytes\": %llu, \"gpu_arena_bytes\": %llu, \"crossover_elements\": %u, \"guess_s\": %.0f, "
            "\"took_s\": %.1f},\n",
            o->scale, o->scale_given ? "true" : "false", (unsigned long long)p->memory, (unsigned long long)p->largest,
            (unsigned long long)p->peak, (unsigned long long)p->gpu_arena, (unsigned)p->sweep_top, p->seconds,
            now_s() - p->t0);
}

int bench_report(const options *given)
{
    options opts = *given, *o = &opts;
    FILE *f = fopen(o->report, "w");
    if (!f) return perror(o->report), 1;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    const uint32_t cores = online < 1 ? 1u : online > 64 ? 64u : (uint32_t)online;
    uint32_t threads[8], found[2] = {0, 0};
    const int nt = thread_counts(cores, threads);
    report_plan plan;
    report_plan_make(o, o->scale_given, (uint32_t)nt, &plan);
    report_heat before, after;
    report_thermal(&before);
    fprintf(f, "{\n  \"kind\": \"board-report\",\n  \"board\": \"%s\",\n  \"library\": \"%s\",\n",
            edml_board_builtin()->name, edml_version());
    fprintf(f, "  \"scale\": %g,\n  \"iterations\": %d,\n", o->scale, iters);
    report_identity(f);
    bench_device devs[8];
    int opened = 0, n = 0;
    while (opened < nt && bench_device_open(&devs[opened], threads[opened], 0)) opened++;
    const bool gpu = opened && (edml_device_backends(devs[0].dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES));
    if (gpu) report_start(f, o), report_plan_step(&plan, REPORT_STEP_START);
    fprintf(f, "  \"results\": [");
    plan.rows_t0 = now_s();
    for (int wi = 0; opened == nt && wi < WORKLOADS; wi++) {
        report_workload(f, devs, threads, nt, gpu, wi, o, &n);
        report_plan_progress(&plan, wi + 1);
    }
    report_plan_step(&plan, REPORT_STEP_ROWS);
    fprintf(f, "\n  ],\n");
    if (gpu) report_crossover(f, devs[0].dev, &plan, found), report_plan_step(&plan, REPORT_STEP_CROSSOVERS);
    static edml_cost_term terms[REPORT_MODEL_TERMS];
    uint32_t nterms = 0;
    char path[512];
    static report_placed placed[WORKLOADS][2];
    snprintf(path, sizeof path, "%s.model", o->report);
    if (gpu && opened == nt) nterms = report_model(f, devs, threads, nt, o->scale, path, terms);
    if (gpu && opened == nt) report_plan_step(&plan, REPORT_STEP_MODEL);
    for (int k = opened; k-- > 0;) bench_device_close(&devs[k]);
    memset(placed, 0, sizeof placed);
    snprintf(path, sizeof path, "%s.placement", o->report);
    if (gpu) report_placement(f, cores, o, path, placed), report_plan_step(&plan, REPORT_STEP_PLACEMENT);
    report_caps(f, found, cores, plan.swept, terms, nterms);
    report_thermal(&after);
    fprintf(f, "  \"heat_before\": ");
    report_heat_json(f, &before);
    fprintf(f, ",\n  \"heat_after\": ");
    report_heat_json(f, &after);
    fprintf(f, ",\n");
    report_plan_json(f, o, &plan);
    fprintf(f, "  \"end\": true\n}\n");
    fclose(f);
    report_plan_summary(&plan, found, (const report_placed(*)[2])placed, gpu);
    printf("wrote %s\n", o->report);
    return opened == nt ? 0 : 1;
}
