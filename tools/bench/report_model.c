/* The board report's cost model: every workload and shape point
 * (make_shape_workload) at four sizes (the report's scale and a quarter, a
 * sixteenth and a sixty-fourth of it), on NEON and on GLES with each thread
 * count's device, with host memory and with GPU buffers; each point filed
 * under the kernel path its backend's plan ran it by and (NEON) the parts
 * it ran in, as the library itself says (edmli_cost_path_of). Then a line
 * for each family, backend, path, kind of bindings and worker count with
 * points enough, and one for each family over all its paths (path 0, for a
 * path no point took): a call's time fitted as a fixed cost plus terms in
 * the operator's MiB, millions of elements, of rows, of FLOAT16 input
 * elements, of elements of one row and of input elements gone through down
 * columns (edml_cost_term: what AUTO predicts with), by least squares on
 * relative error with no negative term, each line's median error printed.
 * Written to the JSON ("model", and "model_points": every point and its
 * line's prediction), to FILE.model (edml_cost_model_write(): the blob
 * firmware gives edml_device_desc.cost_model) and as caps.h lines. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "cost_figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_SCALES 4
#define MODEL_POINTS ((WORKLOADS + SHAPE_WORKLOADS) * MODEL_SCALES)
#define MODEL_MAX (MODEL_POINTS * 4 * 8) /* in four series on up to eight devices */
#define FIGURES EDMLI_COST_FIGURES /* MiB, M elements, rows, FLOAT16 inputs, a row's elements, down columns, kept */
#define COLS (FIGURES + 1)         /* and the fixed cost */

static const char *const fam_name[4] = {"topk", "gather_nd", "argreduce", "elementwise_if"}; /* EDML_COST_* */

typedef struct model_point {
    uint8_t family, backend, path, elem, binding, workers; /* its line's */
    int shape;                                             /* the workload or shape point it is a size of */
    double f[FIGURES];
    double us, model_us; /* measured; its line's prediction */
    int tier;            /* the line model_us is from (LINE_TIERS: none yet) */
} model_point;

/* A point's lines, as AUTO looks them up: its path's for its element
 * bytes, the path's for any, the family's over every path (path 0). */
#define LINE_TIERS 3

static uint32_t family_of(const workload *w)
{
    switch (w->desc.Type) {
    case EDML_OPERATOR_TOP_K1: return EDML_COST_TOPK;
    case EDML_OPERATOR_GATHER_ND1: return EDML_COST_GATHER_ND;
    case EDML_OPERATOR_ELEMENT_WISE_IF: return EDML_COST_ELEMENT_WISE_IF;
    default: return EDML_COST_ARGREDUCE;
    }
}

/* Solves the n x n system a x = b (n <= COLS) by elimination; false if
 * singular (a pivot below 1e-10 of the largest diagonal: columns that move
 * together, as elements and bytes do within one type). */
static bool solve(double a[COLS][COLS], double b[COLS], int n, double x[COLS])
{
    double big = 0;
    for (int c = 0; c < n; c++) big = fabs(a[c][c]) > big ? fabs(a[c][c]) : big;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        if (fabs(a[p][c]) <= big * 1e-10) return false;
        for (int k = 0; k < n; k++) {
            double t = a[c][k];
            a[c][k] = a[p][k], a[p][k] = t;
        }
        double t = b[c];
        b[c] = b[p], b[p] = t;
        for (int r = c + 1; r < n; r++) {
            const double m = a[r][c] / a[c][c];
            for (int k = c; k < n; k++) a[r][k] -= m * a[c][k];
            b[r] -= m * b[c];
        }
    }
    for (int r = n; r-- > 0;) {
        double s = b[r];
        for (int k = r + 1; k < n; k++) s -= a[r][k] * x[k];
        x[r] = s / a[r][r];
    }
    return true;
}

/* Weighted least squares (each point by 1/us: relative error) over the
 * active columns (1 and the figures); a column whose
 * coefficient comes out negative is dropped and the rest fitted again. */
static void fit(const model_point *pt, int n, double c[COLS])
{
    bool on[COLS];
    for (int col = 0; col < COLS; col++) on[col] = true;
    for (int col = 1; col < COLS; col++) { /* a column no point has */
        bool any = false;
        for (int i = 0; i < n; i++) any = any || pt[i].f[col - 1] > 0;
        on[col] = any;
    }
    for (int round = 0; round < 2 * COLS; round++) {
        int idx[COLS], m = 0;
        for (int col = 0; col < COLS; col++)
            if (on[col]) idx[m++] = col;
        double a[COLS][COLS] = {{0}}, b[COLS] = {0}, x[COLS] = {0};
        for (int i = 0; i < n; i++) {
            const double w = 1.0 / (pt[i].us * pt[i].us);
            double row[COLS] = {1};
            for (int col = 1; col < COLS; col++) row[col] = pt[i].f[col - 1];
            for (int r = 0; r < m; r++) {
                for (int k = 0; k < m; k++) a[r][k] += w * row[idx[r]] * row[idx[k]];
                b[r] += w * row[idx[r]] * pt[i].us;
            }
        }
        memset(c, 0, COLS * sizeof *c);
        if (!m) return;
        if (!solve(a, b, m, x)) { /* the last column moves with the others: without it */
            on[idx[m - 1]] = false;
            continue;
        }
        int worst = -1;
        for (int r = 0; r < m; r++) {
            c[idx[r]] = x[r];
            if (x[r] < 0 && (worst < 0 || x[r] < x[worst])) worst = r;
        }
        if (worst < 0) return;
        on[idx[worst]] = false;
    }
    for (int k = 0; k < COLS; k++) c[k] = c[k] < 0 ? 0 : c[k];
}

static double predicted(const double c[COLS], const double f[FIGURES])
{
    double t = c[0];
    for (int k = 0; k < FIGURES; k++) t += c[k + 1] * f[k];
    return t;
}

/* The median of |predicted / measured - 1| over a line's points. */
static double fit_error(const model_point *pt, int n, const double c[COLS])
{
    static double e[MODEL_MAX];
    for (int i = 0; i < n; i++) e[i] = fabs(predicted(c, pt[i].f) / pt[i].us - 1.0);
    return n ? median(e, n) : 0;
}

/* Series k % 4: NEON with host memory, NEON with GPU buffers, GLES with
 * host memory, GLES with GPU buffers. */
static bool series_gles(int k) { return k % 4 >= 2; }
static bool series_buffers(int k) { return k % 2; }

/* The point's outputs, as same_outputs compares them, hashed (FNV-1a). */
static uint64_t outputs_hash(const workload *w)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int o = 0; o < w->nout; o++) {
        const tensor *t = &w->out[o];
        const size_t bytes = t->strided ? (size_t)t->bytes : (size_t)t->count * edml_data_type_size(t->dtype);
        for (size_t i = 0; i < bytes; i++) h = (h ^ t->host[i]) * 0x100000001b3ull;
    }
    return h;
}

static void make_point(workload *w, int i, double scale)
{
    static const double part[MODEL_SCALES] = {1.0 / 64, 1.0 / 16, 1.0 / 4, 1.0};
    const int wi = i / MODEL_SCALES, s = i % MODEL_SCALES;
    if (wi < WORKLOADS)
        make_workload(w, wi, scale * part[s]);
    else
        make_shape_workload(w, wi - WORKLOADS, scale * part[s]);
}

/* The line a point of w on `be` (with GPU buffers: gpu) belongs to, as
 * AUTO will look it up, and its figures, the library's own (src/core/
 * cost_figures.h): the path the backend's plan takes on dev and, on NEON,
 * the most report thread counts at or below its parts (a point of 16
 * workers' device that does not split is one worker's); on GLES the
 * device's workers. */
static bool key_of(edml_device *dev, const workload *w, edml_backend be, bool gpu, uint32_t workers,
                   const uint32_t *threads, int nt, model_point *p)
{
    edml_operator *op;
    edmli_cost_path cp;
    if (edml_operator_create(dev, &w->desc, be, &op) != EDML_STATUS_OK) return false;
    const bool ok = edmli_cost_path_of(op, false, &cp) && edmli_cost_figures(op, gpu, p->f);
    edml_operator_destroy(op);
    if (!ok) return false;
    p->path = (uint8_t)cp.path;
    p->elem = (uint8_t)cp.elem_bytes;
    p->workers = (uint8_t)workers;
    if (be == EDML_BACKEND_NEON)
        for (int t = 0; t < nt; t++)
            if (threads[t] <= cp.parts) p->workers = (uint8_t)threads[t];
    return true;
}

/* One point's four series on device t: its time in each, where its outputs
 * are the reference's (hash want). */
static void time_point(edml_device *dev, workload *w, uint64_t want, const uint32_t *threads, int nt, int t,
                       model_point *pt, int *n)
{
    for (int k = 0; k < 4; k++) {
        const edml_backend be = series_gles(k) ? EDML_BACKEND_GLES : EDML_BACKEND_NEON;
        uint8_t *keep[2] = {NULL, NULL};
        bool same = false;
        const double sec = series_buffers(k) ? bench_time_resident(dev, w, be, NULL, &same)
                                             : bench_time_outputs(dev, w, be, keep, &same);
        for (int o = 0; o < 2; o++) free(keep[o]);
        model_point *p = &pt[*n];
        if (*n >= MODEL_MAX || sec <= 0 || !same || outputs_hash(w) != want ||
            !key_of(dev, w, be, series_buffers(k), threads[t], threads, nt, p))
            continue;
        (*n)++;
        p->family = (uint8_t)family_of(w);
        p->backend = (uint8_t)be;
        p->binding = series_buffers(k) ? EDML_COST_GPU_BUFFERS : EDML_COST_HOST_MEMORY;
        p->us = sec * 1e6;
        p->tier = LINE_TIERS;
    }
}

/* Every workload and shape point at every size, timed in every series,
 * its outputs against the reference's (made once, kept as a hash); points
 * that did not run or were wrong are left out. Thread count by thread
 * count, each point on NEON and on GLES with that count's device: the
 * GPU's clock follows its load (on the H200 machine 345 MHz while its
 * calls are sparse, 1980 MHz under steady use), and beside a few workers'
 * long CPU calls it is another GPU than beside many workers' short ones,
 * so GLES has a line for each worker count, measured in that company.
 * Each pass runs with no other device's context current on this thread:
 * a call finding one restores it after itself (two context switches a
 * call, which a firmware's one device never pays: about 100 us on the
 * H200 machine's driver). */
static void sweep_points(bench_device *devs, const uint32_t *threads, int nt, double scale, model_point *pt, int *n)
{
    static uint64_t want[MODEL_POINTS];
    static bool have[MODEL_POINTS];
    for (int i = 0; i < MODEL_POINTS; i++) {
        workload w;
        make_point(&w, i, scale);
        uint8_t *ref[2] = {NULL, NULL};
        bench_time_outputs(devs[0].dev, &w, EDML_BACKEND_REF, ref, &have[i]);
        want[i] = outputs_hash(&w);
        for (int k = 0; k < 2; k++) free(ref[k]);
        free_workload(&w);
    }
    for (int t = 0; t < nt; t++) {
        for (int d = 0; d < nt; d++)
            if (d != t) edml_device_release_thread(devs[d].dev);
        for (int i = 0; i < MODEL_POINTS; i++) {
            if (!have[i]) continue;
            workload w;
            make_point(&w, i, scale);
            const int from = *n;
            time_point(devs[t].dev, &w, want[i], threads, nt, t, pt, n);
            for (int k = from; k < *n; k++) pt[k].shape = i / MODEL_SCALES;
            free_workload(&w);
        }
    }
}

static bool same_line(const model_point *a, const model_point *b, int tier)
{
    return a->family == b->family && a->backend == b->backend && a->binding == b->binding && a->workers == b->workers &&
           (tier == 2 || a->path == b->path) && (tier > 0 || a->elem == b->elem);
}

/* One line fitted on the points of `key`'s line of `tier` (LINE_TIERS),
 * into terms[], said in the JSON and printed; each point's prediction by
 * the first line AUTO would look up for it kept in model_us. */
static void line_fit(FILE *f, model_point *all, int n, const model_point *key, int tier, edml_cost_term *terms,
                     uint32_t *nterms, int *rows)
{
    static const char *const bind_name[3] = {"host", "gpu", "mapped"};
    static model_point pt[MODEL_MAX];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (same_line(&all[i], key, tier)) pt[m++] = all[i];
    /* a line for an element size needs two shapes' points (one shape's
     * sizes alone would price other shapes by figures it never saw vary:
     * the path's line for any element does); a wider line whose points are
     * all one narrower line's says nothing more */
    bool wider = tier == 0, shapes = false;
    for (int i = 1; i < m && !wider; i++) wider = !same_line(&pt[i], &pt[0], tier - 1);
    for (int i = 1; i < m && !shapes; i++) shapes = pt[i].shape != pt[0].shape;
    const bool useful = tier == 0 ? shapes : tier == 1 ? wider || !shapes : wider;
    if (m < 2 || !useful || *nterms >= REPORT_MODEL_TERMS) return;
    double c[COLS];
    fit(pt, m, c);
    const double err = fit_error(pt, m, c);
    const uint8_t path = tier < 2 ? key->path : 0, elem = tier < 1 ? key->elem : 0;
    terms[(*nterms)++] = (edml_cost_term){key->family, key->backend, key->binding, key->workers, (float)c[0],
                                          (float)c[1], (float)c[2],  (float)c[3],  (float)c[4],  (float)c[5],
                                          (float)c[6], (float)c[7],  path,         elem,         {0}};
    for (int i = 0; i < n; i++)
        if (same_line(&all[i], key, tier) && all[i].tier > tier)
            all[i].model_us = predicted(c, all[i].f), all[i].tier = tier;
    const char *words = path ? edmli_cost_path_name(path) : "every path";
    fprintf(f, (*rows)++ ? ",\n" : "\n");
    fprintf(
        f,
        "    {\"family\": \"%s\", \"backend\": \"%s\", \"path\": %u, \"path_name\": \"%s\", \"elem_bytes\": %u, "
        "\"binding\": \"%s\", \"workers\": %u, \"fixed_us\": %.3f, \"us_per_mib\": %.3f, \"us_per_melement\": %.3f, "
        "\"us_per_mrow\": %.3f, \"us_per_mhalf\": %.3f, \"us_per_mlong\": %.3f, \"us_per_mstrided\": %.3f, "
        "\"us_per_mkept\": %.3f, \"points\": %d, \"median_error\": %.4f}",
        fam_name[key->family], edml_backend_name((edml_backend)key->backend), (unsigned)path, words, (unsigned)elem,
        bind_name[key->binding], key->workers, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], m, err);
    printf("model %-14s %-4s %-24s %ub %-4s %2u workers: %9.1f us + %8.1f us/MiB + %8.1f us/M elements + %8.1f us/M "
           "rows + %8.1f us/M halves + %8.1f us/M of a row + %8.1f us/M down columns + %8.1f us/M kept (%d points, "
           "median error %.0f%%)\n",
           fam_name[key->family], edml_backend_name((edml_backend)key->backend), words, (unsigned)elem,
           bind_name[key->binding], key->workers, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], m, err * 100);
}

/* Every line the points make: each path's for each element size, each
 * path's for any, each family's over all its paths, in the order of their
 * first points. */
static void fit_lines(FILE *f, model_point *pt, int n, edml_cost_term *terms, uint32_t *nterms)
{
    int rows = 0;
    for (int tier = 0; tier < LINE_TIERS; tier++)
        for (int i = 0; i < n; i++) {
            int first = 0;
            while (!same_line(&pt[first], &pt[i], tier)) first++;
            if (first == i) line_fit(f, pt, n, &pt[i], tier, terms, nterms, &rows);
        }
}

/* Every point the fits took, its figures, its time and its path's line's
 * prediction: "model_points" in the JSON (tools/perf_table.py model-svg
 * draws them). */
static void model_points_json(FILE *f, const model_point *pt, int n)
{
    static const char *const bind_name[3] = {"host", "gpu", "mapped"};
    fprintf(f, "  \"model_points\": [");
    for (int i = 0; i < n; i++) {
        const model_point *p = &pt[i];
        fprintf(f,
                "%s\n    {\"family\": \"%s\", \"backend\": \"%s\", \"path\": \"%s\", \"elem_bytes\": %u, "
                "\"binding\": \"%s\", \"workers\": %u, \"mib\": %.6f, \"melements\": %.6f, \"mrows\": %.6f, "
                "\"mhalves\": %.6f, "
                "\"mlong\": %.6f, \"mstrided\": %.6f, \"mkept\": %.6f, \"us\": %.3f, \"model_us\": %.3f}",
                i ? "," : "", fam_name[p->family], edml_backend_name((edml_backend)p->backend),
                edmli_cost_path_name(p->path), (unsigned)p->elem, bind_name[p->binding], p->workers, p->f[0], p->f[1],
                p->f[2], p->f[3], p->f[4], p->f[5], p->f[6], p->us, p->model_us);
    }
    fprintf(f, "\n  ],\n");
}

uint32_t report_model(FILE *f, bench_device *devs, const uint32_t *threads, int nt, double scale, const char *path,
                      edml_cost_term *terms)
{
    static model_point pt[MODEL_MAX];
    int n = 0;
    uint32_t nterms = 0;
    nt = nt < 8 ? nt : 8;
    memset(pt, 0, sizeof pt);
    sweep_points(devs, threads, nt, scale, pt, &n);
    fprintf(f, "  \"model\": [");
    fit_lines(f, pt, n, terms, &nterms);
    fprintf(f, "\n  ],\n");
    model_points_json(f, pt, n);
    static uint8_t blob[EDML_COST_MODEL_BYTES(REPORT_MODEL_TERMS)];
    const size_t bytes = edml_cost_model_write(devs[0].dev, terms, nterms, blob, sizeof blob);
    FILE *p = fopen(path, "wb");
    if (p && bytes) fwrite(blob, 1, bytes, p);
    if (p) fclose(p);
    printf("model: %u lines in %s (%zu bytes: edml_device_desc.cost_model)\n", nterms, path, bytes);
    return nterms;
}

/* The model as caps.h lines (EDML_BOARD_COST_MODEL, a line a term, kept
 * from clang-format's reflow), into buf. */
void report_model_caps(char *buf, size_t cap, const edml_cost_term *terms, uint32_t n)
{
    size_t at = (size_t)snprintf(
        buf, cap, "/* clang-format off */\n#define EDML_BOARD_COST_MODEL_MEASURED 1\n#define EDML_BOARD_COST_MODEL {%s",
        n ? " \\\n" : "");
    for (uint32_t i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(
            buf + at, cap - at,
            "    {%u, %u, %u, %u, %.3ff, %.3ff, %.3ff, %.3ff, %.3ff, %.3ff, %.3ff, %.3ff, %u, %u, {0}}%s \\\n",
            terms[i].family, terms[i].backend, terms[i].binding, terms[i].workers, terms[i].fixed_us,
            terms[i].us_per_mib, terms[i].us_per_melement, terms[i].us_per_mrow, terms[i].us_per_mhalf,
            terms[i].us_per_mlong, terms[i].us_per_mstrided, terms[i].us_per_mkept, terms[i].path, terms[i].elem_bytes,
            i + 1 < n ? "," : "");
    if (at < cap) snprintf(buf + at, cap - at, "}\n/* clang-format on */\n");
}
