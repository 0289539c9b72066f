/* edml-bench --predict --model FILE [--cases FILE...]: the cost model's
 * time for each workload (or case) on NEON and on GLES by name, with host
 * memory and with GPU buffers, beside its time measured alone as the board
 * report measures its points (a median of --iters calls, nothing else
 * running between them), and the kernel path and parts each side's plan
 * runs it by. With --json FILE, rows of kind "predict": workload, backend,
 * binding ("host" or "gpu"), threads, path, parts, measured_ms,
 * predicted_ms (-1: no line). tools/perf_table.py predict tabulates them. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "cost_figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct predict_row {
    char workload[64], path[40];
    edml_backend be;
    int binding;
    uint32_t parts;
    double measured, predicted;
} predict_row;

#define PREDICT_ROWS 512
static predict_row prows[PREDICT_ROWS];
static int nprows;

/* The model's time, path and parts for w on backend be (an operator made by name). */
static bool predict_of(edml_device *dev, const workload *w, edml_backend be, bool gpu, predict_row *r)
{
    edml_operator *op;
    edmli_cost_path cp = {0};
    if (edml_operator_create(dev, &w->desc, be, &op) != EDML_STATUS_OK) return false;
    if (!edmli_cost_predicted(op, gpu, &r->predicted)) r->predicted = -1;
    const bool ok = edmli_cost_path_of(op, false, &cp);
    edml_operator_destroy(op);
    snprintf(r->path, sizeof r->path, "%s", edmli_cost_path_name(cp.path));
    r->parts = cp.parts;
    return ok;
}

/* One workload (wi) or case (path) on both backends and both bindings. */
static int predict_workload(edml_device *dev, int wi, const char *path, const options *o)
{
    workload w;
    char err[600];
    if (path && !workload_from_case(&w, path, err, sizeof err)) return printf("%s\n", err), 1;
    if (!path) make_workload(&w, wi, o->scale);
    int wrong = 0;
    for (int k = 0; k < 4 && nprows < PREDICT_ROWS; k++) {
        const edml_backend be = k < 2 ? EDML_BACKEND_NEON : EDML_BACKEND_GLES;
        const bool gpu = k % 2;
        predict_row *r = &prows[nprows];
        memset(r, 0, sizeof *r);
        snprintf(r->workload, sizeof r->workload, "%s", w.name);
        r->be = be, r->binding = gpu;
        uint8_t *keep[2] = {NULL, NULL};
        bool same = false;
        const double sec =
            gpu ? bench_time_resident(dev, &w, be, NULL, &same) : bench_time_outputs(dev, &w, be, keep, &same);
        for (int j = 0; j < 2; j++) free(keep[j]);
        if (sec <= 0 || !predict_of(dev, &w, be, gpu, r)) {
            printf("%-18s %-4s %-4s not run: %s\n", w.name, edml_backend_name(be), gpu ? "gpu" : "host",
                   edml_device_last_error(dev));
            wrong++;
            continue;
        }
        r->measured = sec * 1e3;
        nprows++;
        printf("%-18s %-4s %-4s %10.3f ms, predicted %10.3f ms (%.2fx) %s in %u part%s\n", w.name,
               edml_backend_name(be), gpu ? "gpu" : "host", r->measured, r->predicted, r->predicted / r->measured,
               r->path, (unsigned)r->parts, r->parts == 1 ? "" : "s");
    }
    free_workload(&w);
    return wrong;
}

static int predict_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return perror(path), 1;
    fprintf(f, "{\n  \"board\": \"%s\",\n  \"iterations\": %d,\n  \"results\": [\n", edml_board_builtin()->name, iters);
    for (int i = 0; i < nprows; i++) {
        const predict_row *r = &prows[i];
        fprintf(f,
                "    {\"kind\": \"predict\", \"workload\": \"%s\", \"backend\": \"%s\", \"binding\": \"%s\", "
                "\"threads\": %u, \"path\": \"%s\", \"parts\": %u, \"measured_ms\": %.6f, \"predicted_ms\": %.6f}%s\n",
                r->workload, edml_backend_name(r->be), r->binding ? "gpu" : "host", (unsigned)bench_threads, r->path,
                (unsigned)r->parts, r->measured, r->predicted, i + 1 < nprows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
    printf("wrote %s\n", path);
    return 0;
}

int bench_predict(const options *o)
{
    bench_device d;
    edml_device_desc base = {0};
    base.gpu_arena_bytes = (1024ull << 20) + (1u << 20);
    base.cost_model = bench_model_blob(o->model, &base.cost_model_bytes);
    if (o->model && !base.cost_model) return 1;
    if (!bench_device_open_with(&d, bench_threads, &base, NULL)) return 1;
    printf("edml-bench --predict: board %s, %u thread%s, median of %d calls\n", edml_board_builtin()->name,
           (unsigned)bench_threads, bench_threads > 1 ? "s" : "", iters);
    int wrong = 0;
    for (int wi = 0; !o->ncases && wi < WORKLOADS; wi++)
        if (!o->only || !strcmp(o->only, workload_name(wi))) wrong += predict_workload(d.dev, wi, NULL, o);
    for (int k = 0; k < o->ncases; k++) wrong += predict_workload(d.dev, 0, o->cases[k], o);
    if (o->json && predict_json(o->json)) wrong++;
    bench_device_close(&d);
    return wrong ? 1 : 0;
}
