/* edml-bench --placement [--rounds R]: where AUTO puts each workload against
 * where it should. For every workload, with its tensors in host memory and
 * in GPU buffers, six variants: NEON alone, GLES alone, AUTO by the
 * board's thresholds (by a cost model where the board has one, or with
 * --model FILE that one: variant "model"), and AUTO measured (a device with
 * EDML_PLACEMENT_MEASURE, timed after its measuring runs), then NEON and
 * GLES alone on that measuring device. Timed in rounds (each round times
 * every variant, --iters calls, starting one device or binding later than
 * the round before), so that neither the machine's drift nor the order
 * decides; every variant's outputs checked against the reference's first.
 * A device's three variants are timed call for call in turn (place_time),
 * then each AUTO alone beside the backend it ran on, by name on its own
 * device (place_pair): that ratio is what AUTO itself costs, printed for
 * each workload (the median of the rounds' ratios). With --json FILE, rows
 * of kind "placement": workload, binding ("host" or "gpu"), variant
 * ("neon", "gles", "auto" or "model", "measured", "neon_m", "gles_m"; the
 * pairs' "auto_pair" or "model_pair" with "auto_named" or "model_named",
 * and "measured_pair" with "measured_named"), threads, round, median_ms,
 * predicted_ms (NEON's and GLES's by name: the device's cost model's time,
 * -1 without a line), correct, placed (the backend an AUTO variant, or a
 * pair, ran on) and why (edml_operator_placement()). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "cost_figures.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIANTS 6
#define NAMES 10 /* the variants, then the pairs' rows: each AUTO, and its backend by name beside it */
#define PLACE_ROWS 4096

static const char *variant_names[NAMES] = {"neon",   "gles",      "auto",       "measured",      "neon_m",
                                           "gles_m", "auto_pair", "auto_named", "measured_pair", "measured_named"};
static const char *const binding_names[2] = {"host", "gpu"};

typedef struct place_row {
    char workload[64]; /* a copy: a case's name goes with its workload */
    int binding, variant, round;
    double ms, predicted; /* predicted: the device's model's time (NEON's, GLES's by name), else -1 */
    bool correct;
    char placed[8], why[256];
} place_row;

static place_row rows[PLACE_ROWS];
static int nrows;

/* One workload's operators and bindings: variants 0-2 on the thresholds'
 * device, 3-5 on the measuring one; GPU buffers on each. */
typedef struct place_set {
    workload *w;
    edml_device *dev[2]; /* thresholds, measured */
    edml_operator *op[VARIANTS];
    edml_gpu_buffer *buf[2][5];                    /* a device's inputs, then outputs */
    EDML_BUFFER_BINDING in[2][2][3], out[2][2][2]; /* [device][binding] */
    uint8_t *ref[2];
} place_set;

static int dev_of(int variant) { return variant >= 3; }

static edml_status place_run(place_set *s, int v, int b)
{
    const int d = dev_of(v);
    return edml_operator_execute(s->op[v], s->in[d][b], (UINT)s->w->nin, s->out[d][b], (UINT)s->w->nout, NULL);
}

/* The variant's outputs with bindings b against the reference's (a
 * refused call is said with its status and message). */
static bool place_correct(place_set *s, int v, int b)
{
    workload *w = s->w;
    for (int o = 0; o < w->nout; o++) {
        memset(w->out[o].host, 0xcd, (size_t)w->out[o].bytes);
        if (b) edml_gpu_buffer_write(s->buf[dev_of(v)][w->nin + o], 0, w->out[o].host, w->out[o].bytes);
    }
    const edml_status st = place_run(s, v, b);
    if (st) {
        printf("%-15s %-5s %-9s refused: %s: %s\n", w->name, binding_names[b], variant_names[v], edml_status_string(st),
               edml_device_last_error(s->dev[dev_of(v)]));
        return false;
    }
    for (int o = 0; b && o < w->nout; o++)
        edml_gpu_buffer_read(s->buf[dev_of(v)][w->nin + o], 0, w->out[o].host, w->out[o].bytes);
    if (same_outputs(w, s->ref)) return true;
    printf("%-15s %-5s %-9s WRONG RESULT\n", w->name, binding_names[b], variant_names[v]);
    return false;
}

/* GPU buffers of device d holding the workload's inputs, and its bindings. */
static bool place_buffers(place_set *s, int d)
{
    workload *w = s->w;
    for (int k = 0; k < w->nin + w->nout; k++) {
        const tensor *t = k < w->nin ? &w->in[k] : &w->out[k - w->nin];
        if (edml_gpu_buffer_create(s->dev[d], t->bytes, &s->buf[d][k])) return false;
        if (k < w->nin && edml_gpu_buffer_write(s->buf[d][k], 0, t->host, t->bytes)) return false;
        EDML_BUFFER_BINDING host = {t->host, 0, t->bytes}, gpu = edml_gpu_binding(s->buf[d][k], 0, t->bytes);
        if (k < w->nin) s->in[d][0][k] = host, s->in[d][1][k] = gpu;
        if (k >= w->nin) s->out[d][0][k - w->nin] = host, s->out[d][1][k - w->nin] = gpu;
    }
    return true;
}

static void place_close(place_set *s)
{
    for (int v = VARIANTS; v-- > 0;)
        if (s->op[v]) edml_operator_destroy(s->op[v]);
    for (int d = 2; d-- > 0;)
        for (int k = 5; k-- > 0;)
            if (s->buf[d][k]) edml_gpu_buffer_destroy(s->buf[d][k]);
    for (int o = 0; o < 2; o++) free(s->ref[o]);
}

/* The reference's outputs, the operators, the buffers, and the measured
 * variant's measuring runs (both bindings), none of it timed. */
static bool place_open(place_set *s)
{
    workload *w = s->w;
    edml_operator *ref = NULL;
    if (edml_operator_create(s->dev[0], &w->desc, EDML_BACKEND_REF, &ref)) return false;
    EDML_BUFFER_BINDING bi[3], bo[2];
    for (int k = 0; k < w->nin; k++) bi[k] = (EDML_BUFFER_BINDING){w->in[k].host, 0, w->in[k].bytes};
    for (int k = 0; k < w->nout; k++) bo[k] = (EDML_BUFFER_BINDING){w->out[k].host, 0, w->out[k].bytes};
    const bool ran = edml_operator_execute(ref, bi, (UINT)w->nin, bo, (UINT)w->nout, NULL) == EDML_STATUS_OK;
    edml_operator_destroy(ref);
    for (int o = 0; ran && o < w->nout; o++) {
        s->ref[o] = malloc((size_t)w->out[o].bytes);
        memcpy(s->ref[o], w->out[o].host, (size_t)w->out[o].bytes);
    }
    static const edml_backend backends[VARIANTS] = {EDML_BACKEND_NEON, EDML_BACKEND_GLES, EDML_BACKEND_AUTO,
                                                    EDML_BACKEND_AUTO, EDML_BACKEND_NEON, EDML_BACKEND_GLES};
    for (int v = 0; ran && v < VARIANTS; v++)
        if (edml_operator_create(s->dev[dev_of(v)], &w->desc, backends[v], &s->op[v])) return false;
    if (!ran || !place_buffers(s, 0) || !place_buffers(s, 1)) return false;
    edml_device_release_thread(s->dev[0]); /* the measuring device's context alone, as in place_time */
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < (int)EDML_PLACEMENT_MEASURE_RUNS + 4; k++) place_run(s, 3, b); /* measuring, warm-ups */
    return true;
}

/* The variant of device d that is AUTO, and the one by name on its device
 * of the backend it runs on now. */
static int place_auto(int d) { return d ? 3 : 2; }
static int place_named(const place_set *s, int d)
{
    const bool gles = edml_operator_backend(s->op[place_auto(d)]) == EDML_BACKEND_GLES;
    return d ? (gles ? 5 : 4) : (gles ? 1 : 0);
}

static void place_row_add(place_set *s, int v, int b, int round, double ms, bool correct)
{
    if (nrows == PLACE_ROWS) return;
    place_row *r = &rows[nrows++];
    *r = (place_row){"", b, v, round, ms, -1.0, correct, "", ""};
    if ((v == 0 || v == 1) && !edmli_cost_predicted(s->op[v], b == 1, &r->predicted)) r->predicted = -1.0;
    snprintf(r->workload, sizeof r->workload, "%s", s->w->name);
    const int on = v >= VARIANTS ? place_auto((v - VARIANTS) / 2) : v; /* a pair's row: its AUTO's backend */
    if (on == 2 || on == 3)
        snprintf(r->placed, sizeof r->placed, "%s", edml_backend_name(edml_operator_backend(s->op[on])));
    if (v == 2 || v == 3) edml_operator_placement(s->op[v], r->why, sizeof r->why);
    printf("%-15s %-5s %-9s round %d %10.3f ms%s%s%s\n", r->workload, binding_names[b], variant_names[v], round, ms,
           correct ? "" : "  WRONG RESULT", r->why[0] ? "  " : "", r->why);
}

/* A device's three variants (0-2 on the thresholds' device, 3-5 on the
 * measuring one) with bindings b, timed call for call in a cycle of 12 in
 * which each variant follows each ordered pair of the others once (every
 * triple of variants, no two alike in a row, once): so that each meets the
 * machine as the others do (the GPU's clocks, a driver's threads that spin
 * after the GPU's work, the caches). A CPU call right after a GLES call in
 * host memory (which uploads its inputs, evicting the caches) costs several
 * times one after two CPU calls, and the second after it about half as
 * much more, so a variant's calls fall into populations by the two calls
 * before them; its time is the mean of the medians of its four (one median
 * of them all lands anywhere between). The round's start moves along the
 * cycle, with the two calls before it run first, untimed. */
static void place_time(place_set *s, int d, int b, int round, double ms[3])
{
    static const uint8_t cycle[12] = {0, 1, 0, 1, 2, 0, 2, 1, 2, 1, 0, 2};
    double t[3][9][64];
    const int reps = iters < 192 ? iters : 192, start = 4 * round;
    int n[3] = {0, 0, 0}, after[3][9] = {{0}}, prev[2] = {cycle[(start + 10) % 12], cycle[(start + 11) % 12]};
    /* the other device's GL context let go, as an application with one
     * device has only its own: else each call would switch contexts twice */
    edml_device_release_thread(s->dev[!d]);
    for (int j = 0; j < 3; j++) place_run(s, 3 * d + j, b);
    for (int j = 0; j < 2; j++) place_run(s, 3 * d + prev[j], b);
    for (int i = 0; n[0] < reps || n[1] < reps || n[2] < reps; i++) {
        const int v = cycle[(start + i) % 12], c = 3 * prev[0] + prev[1];
        if (n[v] == reps) continue;
        const double t0 = now_s();
        place_run(s, 3 * d + v, b);
        const double dt = now_s() - t0;
        n[v]++;
        if (after[v][c] < 64) t[v][c][after[v][c]++] = dt;
        prev[0] = prev[1], prev[1] = v;
    }
    for (int j = 0; j < 3; j++) {
        double sum = 0;
        int parts = 0;
        for (int c = 0; c < 9; c++)
            if (after[j][c]) sum += median(t[j][c], after[j][c]), parts++;
        ms[j] = parts ? sum / parts * 1e3 : -1;
    }
}

/* What AUTO itself costs: device d's AUTO and the backend it runs on, by
 * name on that device, alone, in turns (A N N A: each after each once)
 * with bindings b, three times --iters calls each (the faster backend's
 * calls mostly, cheap beside the cycle's; a short call on many workers
 * swings from one stretch of calls to the next); ms[0] AUTO's median,
 * ms[1] the named one's. Beside the third variant, each would pay for its history: a call
 * two after a GLES call in host memory is dearer than one three after. */
static void place_pair(place_set *s, int d, int b, int round, double ms[2])
{
    static const uint8_t turns[4] = {0, 1, 1, 0};
    double t[2][256];
    const int reps = 3 * iters < 256 ? 3 * iters : 256, v[2] = {place_auto(d), place_named(s, d)};
    int n[2] = {0, 0};
    edml_device_release_thread(s->dev[!d]);
    for (int j = 0; j < 2; j++) place_run(s, v[j], b);
    for (int i = 0; n[0] < reps || n[1] < reps; i++) {
        const int k = turns[(i + round) % 4];
        if (n[k] == reps) continue;
        const double t0 = now_s();
        place_run(s, v[k], b);
        t[k][n[k]++] = now_s() - t0;
    }
    for (int k = 0; k < 2; k++) ms[k] = median(t[k], reps) * 1e3;
}

/* Pair rows p (AUTO) over p + 1 (its backend by name) with bindings b,
 * round by round among rows[from..], the median over the rounds: the
 * rounds' drift cancels; -1 where none. */
static double place_paired(int from, int p, int b)
{
    double t[64];
    int n = 0;
    for (int i = from; i < nrows && n < 64; i++) {
        if (rows[i].variant != p || rows[i].binding != b) continue;
        for (int j = from; j < nrows; j++)
            if (rows[j].variant == p + 1 && rows[j].binding == b && rows[j].round == rows[i].round && rows[j].ms > 0)
                t[n++] = rows[i].ms / rows[j].ms;
    }
    return n ? median(t, n) : -1;
}

/* Each AUTO variant against the backend it ran on, by name on its own
 * device (timed in the same turns): what AUTO itself costs. */
static void place_ratios(const place_set *s, int from)
{
    for (int b = 0; b < 2; b++)
        for (int d = 0; d < 2; d++) {
            const int v = place_auto(d);
            const edml_backend on = edml_operator_backend(s->op[v]);
            const double r = place_paired(from, 6 + 2 * d, b);
            if (r > 0)
                printf("%-15s %-5s %-9s on %s: %.2fx %s by name on its device (the median of the rounds' ratios)\n",
                       s->w->name, binding_names[b], variant_names[v], edml_backend_name(on), r, edml_backend_name(on));
        }
}

/* One workload placed and timed: the built-in workload wi, or case file `path`. */
static int place_workload(edml_device *const dev[2], int wi, const char *path, const options *o)
{
    workload w;
    char err[600];
    if (path && !workload_from_case(&w, path, err, sizeof err)) return printf("%s\n", err), 1;
    if (!path) make_workload(&w, wi, o->scale);
    place_set s;
    memset(&s, 0, sizeof s);
    s.w = &w, s.dev[0] = dev[0], s.dev[1] = dev[1];
    int wrong = 0;
    if (!place_open(&s)) {
        printf("%-15s n/a: %s / %s\n", w.name, edml_device_last_error(dev[0]), edml_device_last_error(dev[1]));
        wrong = 1;
    }
    for (int v = 0; !wrong && v < VARIANTS; v++)
        for (int b = 0; b < 2; b++)
            if (!place_correct(&s, v, b)) wrong++;
    const int from = nrows;
    for (int round = 1; !wrong && round <= o->rounds; round++)
        for (int k = 0; k < 4; k++) { /* the devices and bindings, starting one later each round */
            const int d = (k + round) / 2 % 2, b = (k + round) % 2;
            double ms[3];
            place_time(&s, d, b, round, ms);
            for (int j = 0; j < 3; j++) place_row_add(&s, 3 * d + j, b, round, ms[j], true);
            place_pair(&s, d, b, round, ms);
            for (int j = 0; j < 2; j++) place_row_add(&s, 6 + 2 * d + j, b, round, ms[j], true);
        }
    if (!wrong) place_ratios(&s, from);
    place_close(&s);
    free_workload(&w);
    return wrong;
}

static int place_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return perror(path), 1;
    fprintf(f, "{\n  \"board\": \"%s\",\n  \"iterations\": %d,\n  \"results\": [\n", edml_board_builtin()->name, iters);
    for (int i = 0; i < nrows; i++) {
        const place_row *r = &rows[i];
        fprintf(f,
                "    {\"kind\": \"placement\", \"workload\": \"%s\", \"binding\": \"%s\", \"variant\": \"%s\", "
                "\"threads\": %u, \"round\": %d, \"median_ms\": %.6f, \"predicted_ms\": %.6f, \"correct\": %s, "
                "\"placed\": \"%s\", \"why\": \"%s\"}%s\n",
                r->workload, binding_names[r->binding], variant_names[r->variant], (unsigned)bench_threads, r->round,
                r->ms, r->predicted, r->correct ? "true" : "false", r->placed, r->why, i + 1 < nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
    printf("wrote %s\n", path);
    return 0;
}

/* The device's log: its lines on the cost model (taken, or why not). */
static void place_log(void *user, edml_status s, const char *line)
{
    (void)user, (void)s;
    if (strstr(line, "cost model")) printf("log: %s\n", line);
}

const void *bench_model_blob(const char *path, size_t *bytes)
{
    static uint8_t blob[64u << 10];
    FILE *f = path ? fopen(path, "rb") : NULL;
    *bytes = f ? fread(blob, 1, sizeof blob, f) : 0;
    if (f) fclose(f);
    if (path && !*bytes) printf("--model %s: nothing read\n", path);
    return *bytes ? blob : NULL;
}

int bench_placement(const options *o)
{
    bench_device thr, mea;
    /* the largest workload's GPU buffers and its staging, and the operators' parameters */
    const uint64_t gpu_arena = (1024ull << 20) + (1u << 20);
    edml_device_desc base = {0};
    base.placement = EDML_PLACEMENT_THRESHOLDS;
    base.gpu_arena_bytes = gpu_arena;
    base.cost_model = bench_model_blob(o->model, &base.cost_model_bytes);
    if (o->model && !base.cost_model) return 1;
    if (base.cost_model || edml_board_builtin()->cost_model_terms)
        variant_names[2] = "model", variant_names[6] = "model_pair", variant_names[7] = "model_named";
    base.log = place_log;
    if (!bench_device_open_with(&thr, bench_threads, &base, NULL)) return 1;
    if (!bench_device_open_placed(&mea, bench_threads, 0, EDML_PLACEMENT_MEASURE, thr.pool, gpu_arena)) return 1;
    edml_device *dev[2] = {thr.dev, mea.dev};
    char info[300];
    printf("edml-bench --placement: board %s, %u thread%s, median of %d calls, %d rounds\n%s\n\n",
           edml_board_builtin()->name, (unsigned)bench_threads, bench_threads > 1 ? "s" : "", iters, o->rounds,
           edml_device_gles_info(dev[0], info, sizeof info));
    int wrong = 0;
    for (int wi = 0; !o->ncases && wi < WORKLOADS; wi++)
        if (!o->only || !strcmp(o->only, workload_name(wi))) wrong += place_workload(dev, wi, NULL, o);
    for (int k = 0; k < o->ncases; k++) wrong += place_workload(dev, 0, o->cases[k], o);
    if (o->json && place_json(o->json)) wrong++;
    bench_device_close(&mea);
    bench_device_close(&thr);
    if (wrong) printf("%d rows wrong or not run\n", wrong);
    return wrong ? 1 : 0;
}

void bench_place(edml_device *dev, workload *w, char why[2][200], char placed[2][8])
{
    edml_operator *op = NULL;
    edml_gpu_buffer *g[5] = {0};
    EDML_BUFFER_BINDING bi[2][3], bo[2][2];
    for (int b = 0; b < 2; b++) snprintf(why[b], 200, "not run"), placed[b][0] = 0;
    if (edml_operator_create(dev, &w->desc, EDML_BACKEND_AUTO, &op)) return;
    bool gpu = true;
    for (int k = 0; k < w->nin + w->nout; k++) {
        const tensor *t = k < w->nin ? &w->in[k] : &w->out[k - w->nin];
        EDML_BUFFER_BINDING host = {t->host, 0, t->bytes};
        gpu = gpu && edml_gpu_buffer_create(dev, t->bytes, &g[k]) == EDML_STATUS_OK;
        if (gpu && k < w->nin) gpu = edml_gpu_buffer_write(g[k], 0, t->host, t->bytes) == EDML_STATUS_OK;
        const EDML_BUFFER_BINDING on_gpu = gpu ? edml_gpu_binding(g[k], 0, t->bytes) : host;
        if (k < w->nin) bi[0][k] = host, bi[1][k] = on_gpu;
        if (k >= w->nin) bo[0][k - w->nin] = host, bo[1][k - w->nin] = on_gpu;
    }
    for (int b = 0; b < (gpu ? 2 : 1); b++) {
        for (int k = 0; k < (int)EDML_PLACEMENT_MEASURE_RUNS + 1; k++)
            edml_operator_execute(op, bi[b], (UINT)w->nin, bo[b], (UINT)w->nout, NULL);
        edml_operator_placement(op, why[b], 200);
        snprintf(placed[b], 8, "%s", edml_backend_name(edml_operator_backend(op)));
    }
    for (int k = 5; k-- > 0;)
        if (g[k]) edml_gpu_buffer_destroy(g[k]);
    edml_operator_destroy(op);
}
