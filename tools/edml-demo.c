/* edml-demo: a detector's post-processing on every backend.
 *
 * A YOLO-layout output {1,25200,85} (box cx,cy,w,h; objectness; 80 class
 * scores), synthetic from a fixed seed, goes through four operators:
 *   1. ARGMAX over the class scores (a strided view of the same buffer)
 *   2. ELEMENT_WISE_IF keeps the objectness of confident candidates, -inf else
 *      (the -inf is one value broadcast with zero strides)
 *   3. TOP_K1 keeps the best 100
 *   4. GATHER_ND fetches their boxes (a strided view) and their classes
 * It prints the detections, which backend ran each step and its time, for
 * each backend, and checks that the detections are identical everywhere. */
#define _POSIX_C_SOURCE 200809L
#include "edml.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 25200u
#define C 85u
#define KEEP 100u
#define RUNS 11 /* timed runs of each backend, after one that warms it up: the medians are shown */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static uint64_t seed = 0x5eed0fdeadbeefull;
static float frand(void)
{
    seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
    return (float)((seed * 2685821657736338717ull) >> 40) / 16777216.0f;
}

typedef struct tensor {
    UINT sizes[4], strides[4];
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
} tensor;

static EDML_TENSOR_DESC *td(tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *strides,
                            UINT64 total)
{
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    if (strides) memcpy(t->strides, strides, rank * sizeof(UINT));
    t->b = (EDML_BUFFER_TENSOR_DESC){dt, EDML_TENSOR_FLAG_NONE, rank, t->sizes, strides ? t->strides : NULL, total, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    return &t->d;
}

typedef struct result {
    float score[KEEP], box[KEEP][4];
    uint32_t cls[KEEP], idx[KEEP];
    edml_backend step_backend[4];
    double step_ms[4];
    double list_ms; /* the four recorded as one command list, submitted once */
    bool list_same; /* its detections equal the executes' */
} result;

/* The four steps recorded as one command list (the threshold test done
 * first), submitted and waited for once; their outputs in buffers of their
 * own, compared with the executes'. */
static void run_list(edml_device *dev, edml_operator *const *op, const float *pred, const uint8_t *cond,
                     const uint32_t *cls_all, const float *masked, result *res)
{
    static uint32_t cls2[N], idx2[KEEP];
    static float masked2[N], score2[KEEP], box2[KEEP][4];
    const float neg_inf = -INFINITY;
    const UINT64 pred_bytes = (UINT64)N * C * 4;
    EDML_BUFFER_BINDING b1i[1] = {{(void *)(uintptr_t)pred, 5 * 4, pred_bytes - 5 * 4}},
                        b1o[1] = {{cls2, 0, sizeof cls2}};
    EDML_BUFFER_BINDING b2i[3] = {{(void *)(uintptr_t)cond, 0, N},
                                  {(void *)(uintptr_t)pred, 4 * 4, pred_bytes - 4 * 4},
                                  {(void *)&neg_inf, 0, 4}};
    EDML_BUFFER_BINDING b2o[1] = {{masked2, 0, sizeof masked2}}, b3i[1] = {{masked2, 0, sizeof masked2}};
    EDML_BUFFER_BINDING b3o[2] = {{score2, 0, sizeof score2}, {idx2, 0, sizeof idx2}};
    EDML_BUFFER_BINDING b4i[2] = {{(void *)(uintptr_t)pred, 0, pred_bytes}, {idx2, 0, sizeof idx2}};
    EDML_BUFFER_BINDING b4o[1] = {{box2, 0, sizeof box2}};
    edml_command_list *list;
    res->list_same = false;
    if (edml_command_list_create(dev, 4, &list) != EDML_STATUS_OK) return;
    edml_status s = edml_command_list_record(list, op[0], b1i, 1, b1o, 1, NULL);
    if (!s) s = edml_command_list_record(list, op[1], b2i, 3, b2o, 1, NULL);
    if (!s) s = edml_command_list_record(list, op[2], b3i, 1, b3o, 2, NULL);
    if (!s) s = edml_command_list_record(list, op[3], b4i, 2, b4o, 1, NULL);
    const double t0 = now_ms();
    if (!s) s = edml_command_list_submit(list);
    if (!s) s = edml_command_list_wait(list, UINT64_MAX);
    res->list_ms = now_ms() - t0;
    res->list_same = !s && !memcmp(cls2, cls_all, sizeof cls2) && !memcmp(masked2, masked, sizeof masked2) &&
                     !memcmp(score2, res->score, sizeof score2) && !memcmp(idx2, res->idx, sizeof idx2) &&
                     !memcmp(box2, res->box, sizeof box2);
    edml_command_list_destroy(list);
}

static bool run(edml_device *dev, edml_backend backend, const float *pred, result *res)
{
    static uint32_t cls_all[N];
    static uint8_t cond[N];
    static float masked[N];
    const float neg_inf = -INFINITY;
    tensor t[12];
    edml_operator *op[4];

    /* 1. ArgMax over the 80 class scores: a view {1,N,80} at +5 floats */
    UINT s_cls[3] = {1, N, 80}, st_cls[3] = {N * C, C, 1}, s_out[3] = {1, N, 1};
    UINT axes[1] = {2};
    EDML_ARGMAX_OPERATOR_DESC am = {td(&t[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 3, s_cls, st_cls, 0),
                                    td(&t[1], EDML_TENSOR_DATA_TYPE_UINT32, 3, s_out, NULL, 0), 1, axes,
                                    EDML_AXIS_DIRECTION_INCREASING};
    /* 2. If objectness > 0.5 then objectness else -inf */
    UINT s_n[2] = {1, N}, st_obj[2] = {N * C, C}, st_zero[2] = {0, 0};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC iff = {td(&t[2], EDML_TENSOR_DATA_TYPE_UINT8, 2, s_n, NULL, 0),
                                              td(&t[3], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, st_obj, 0),
                                              td(&t[4], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, st_zero, 0),
                                              td(&t[5], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_n, NULL, 0)};
    /* 3. TopK 100 */
    UINT s_k[2] = {1, KEEP};
    EDML_TOP_K1_OPERATOR_DESC tk = {&t[5].d,
                                    td(&t[6], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_k, NULL, 0),
                                    td(&t[7], EDML_TENSOR_DATA_TYPE_UINT32, 2, s_k, NULL, 0),
                                    1,
                                    KEEP,
                                    EDML_AXIS_DIRECTION_DECREASING};
    /* 4. GatherND of the boxes: a view {N,4} of the predictions, indices {100,1} */
    UINT s_box[2] = {N, 4}, st_box[2] = {C, 1}, s_ix[2] = {KEEP, 1}, s_bo[2] = {KEEP, 4};
    EDML_GATHER_ND_OPERATOR_DESC gb = {td(&t[8], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_box, st_box, 0),
                                       td(&t[9], EDML_TENSOR_DATA_TYPE_UINT32, 2, s_ix, NULL, 0),
                                       td(&t[10], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s_bo, NULL, 0), 2, 2};
    EDML_OPERATOR_DESC descs[4] = {{EDML_OPERATOR_ARGMAX, &am},
                                   {EDML_OPERATOR_ELEMENT_WISE_IF, &iff},
                                   {EDML_OPERATOR_TOP_K1, &tk},
                                   {EDML_OPERATOR_GATHER_ND, &gb}};
    for (int i = 0; i < 4; i++) {
        if (edml_operator_create(dev, &descs[i], backend, &op[i]) != EDML_STATUS_OK) {
            printf("  step %d on %s: %s\n", i + 1, edml_backend_name(backend), edml_device_last_error(dev));
            while (i-- > 0) edml_operator_destroy(op[i]);
            return false;
        }
        res->step_backend[i] = edml_operator_backend(op[i]);
    }
    const UINT64 pred_bytes = (UINT64)N * C * 4;
    edml_status s;
    double t0 = now_ms();
    EDML_BUFFER_BINDING b1i[1] = {{(void *)(uintptr_t)pred, 5 * 4, pred_bytes - 5 * 4}};
    EDML_BUFFER_BINDING b1o[1] = {{cls_all, 0, sizeof cls_all}};
    s = edml_operator_execute(op[0], b1i, 1, b1o, 1, NULL);
    res->step_ms[0] = now_ms() - t0;
    for (UINT i = 0; i < N; i++) cond[i] = pred[i * C + 4] > 0.5f; /* the threshold test itself */
    t0 = now_ms();
    EDML_BUFFER_BINDING b2i[3] = {
        {cond, 0, sizeof cond}, {(void *)(uintptr_t)pred, 4 * 4, pred_bytes - 4 * 4}, {(void *)&neg_inf, 0, 4}};
    EDML_BUFFER_BINDING b2o[1] = {{masked, 0, sizeof masked}};
    if (!s) s = edml_operator_execute(op[1], b2i, 3, b2o, 1, NULL);
    res->step_ms[1] = now_ms() - t0;
    t0 = now_ms();
    EDML_BUFFER_BINDING b3i[1] = {{masked, 0, sizeof masked}};
    EDML_BUFFER_BINDING b3o[2] = {{res->score, 0, sizeof res->score}, {res->idx, 0, sizeof res->idx}};
    if (!s) s = edml_operator_execute(op[2], b3i, 1, b3o, 2, NULL);
    res->step_ms[2] = now_ms() - t0;
    t0 = now_ms();
    EDML_BUFFER_BINDING b4i[2] = {{(void *)(uintptr_t)pred, 0, pred_bytes}, {res->idx, 0, sizeof res->idx}};
    EDML_BUFFER_BINDING b4o[1] = {{res->box, 0, sizeof res->box}};
    if (!s) s = edml_operator_execute(op[3], b4i, 2, b4o, 1, NULL);
    res->step_ms[3] = now_ms() - t0;
    for (UINT k = 0; k < KEEP; k++) res->cls[k] = cls_all[res->idx[k]];
    if (!s) run_list(dev, op, pred, cond, cls_all, masked, res);
    for (int i = 3; i >= 0; i--) edml_operator_destroy(op[i]);
    if (s)
        printf("  execute on %s: %s: %s\n", edml_backend_name(backend), edml_status_string(s),
               edml_device_last_error(dev));
    return s == EDML_STATUS_OK;
}

static int cmp_ms(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The backend's pipeline run RUNS times after a warm-up: r holds the last
 * run's results and each step's and the list's median time. */
static bool timed(edml_device *dev, edml_backend be, const float *pred, result *r)
{
    double t[5][RUNS];
    if (!run(dev, be, pred, r)) return false;
    for (int k = 0; k < RUNS; k++) {
        if (!run(dev, be, pred, r)) return false;
        for (int i = 0; i < 4; i++) t[i][k] = r->step_ms[i];
        t[4][k] = r->list_ms;
    }
    for (int i = 0; i < 5; i++) qsort(t[i], RUNS, sizeof t[i][0], cmp_ms);
    for (int i = 0; i < 4; i++) r->step_ms[i] = t[i][RUNS / 2];
    r->list_ms = t[4][RUNS / 2];
    return true;
}

/* What the table's words mean. */
static void legend(void)
{
    printf("\nEach time is the median of %d runs after a warm-up. A step's backend in parentheses is where it ran\n"
           "(auto picks per step). \"total\" adds the four steps executed one by one; \"as a list\" is the same four\n"
           "recorded into one command list and submitted once (one fence for the GPU), detections checked too.\n",
           RUNS);
#if defined(__x86_64__) || defined(__i386__)
    printf("On this x86 CPU \"neon\" is SIMDe's portable translation of the NEON kernels (on ARM boards they are\n"
           "native: make bench-insns counts their instructions), so its times here say little about a board.\n");
#endif
}

int main(void)
{
    float *pred = malloc(sizeof(float) * N * C);
    for (UINT i = 0; i < N; i++) {
        float *p = pred + (size_t)i * C;
        p[0] = frand() * 640, p[1] = frand() * 640, p[2] = 8 + frand() * 120, p[3] = 8 + frand() * 120;
        float r = frand();
        p[4] = r * r * r; /* most candidates are unconfident */
        for (UINT c = 5; c < C; c++) p[c] = frand() * 0.2f;
        p[5 + (i * 7) % 80] += 0.8f; /* one class stands out */
    }
    size_t arena_size = edml_device_size() + 64 * 1024;
    void *arena = aligned_alloc(16, arena_size);
    if (!arena) return 1;
    memset(arena, 0, arena_size);
    edml_device *dev;
    edml_device_desc dd = {0};
    if (edml_device_create(&dd, arena, arena_size, &dev) != EDML_STATUS_OK) return 1;
    char info[300];
    printf("edml demo: YOLO post-processing of {1,%u,%u} predictions (synthetic, fixed seed)\n", N, C);
    printf("  ArgMax(classes) -> If(objectness > 0.5, objectness, -inf) -> TopK(%u) -> GatherND(boxes)\n", KEEP);
    printf("board %s; GPU: %s\n\n", edml_board_builtin()->name, edml_device_gles_info(dev, info, sizeof info));
    printf("%-8s %-18s %-18s %-18s %-18s %10s %11s  %s\n", "backend", "ArgMax", "ElementWiseIf", "TopK", "GatherND",
           "total", "as a list", "detections");
    static result res[EDML_BACKEND_COUNT_];
    int nres = 0, first = -1;
    bool same = true;
    for (int b = EDML_BACKEND_REF; b <= EDML_BACKEND_COUNT_; b++) {
        edml_backend be = b == EDML_BACKEND_COUNT_ ? EDML_BACKEND_AUTO : (edml_backend)b;
        if (be != EDML_BACKEND_AUTO && !(edml_device_backends(dev) & EDML_BACKEND_BIT(be))) continue;
        result *r = &res[nres];
        if (!timed(dev, be, pred, r)) {
            same = false;
            continue;
        }
        double total = 0;
        printf("%-8s", edml_backend_name(be));
        for (int i = 0; i < 4; i++) {
            char cell[32];
            snprintf(cell, sizeof cell, "%.3f ms (%s)", r->step_ms[i], edml_backend_name(r->step_backend[i]));
            printf(" %-18s", cell);
            total += r->step_ms[i];
        }
        int valid = 0;
        for (UINT k = 0; k < KEEP; k++) valid += !isinf(r->score[k]);
        bool equal =
            first < 0 ||
            (!memcmp(r->score, res[first].score, sizeof r->score) && !memcmp(r->idx, res[first].idx, sizeof r->idx) &&
             !memcmp(r->box, res[first].box, sizeof r->box) && !memcmp(r->cls, res[first].cls, sizeof r->cls));
        printf(" %7.3f ms %8.3f ms  %d kept%s%s\n", total, r->list_ms, valid,
               first < 0 ? ""
               : equal   ? ", identical"
                         : ", DIFFERENT",
               r->list_same ? "" : " (the list's DIFFER)");
        same = same && equal && r->list_same;
        if (first < 0) first = nres;
        nres++;
    }
    if (first >= 0) {
        const result *r = &res[first];
        printf("\nthe best 5 detections:\n");
        for (UINT k = 0; k < 5; k++)
            printf("  #%u candidate %5u class %2u score %.4f box (%.1f, %.1f, %.1f, %.1f)\n", k, r->idx[k], r->cls[k],
                   r->score[k], r->box[k][0], r->box[k][1], r->box[k][2], r->box[k][3]);
    }
    printf("detections identical on every backend: %s\n", same ? "yes" : "NO");
    legend();
    edml_device_destroy(dev);
    free(arena);
    free(pred);
    return same ? 0 : 1;
}
