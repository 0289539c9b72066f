/* edml-bench --chain and --pipeline: N executions one by one and as one
 * command list; make demo's four steps both ways. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the bindings of one way: entry c's outputs at outs[c] (host memory) or
 * in buffer gout[k] at c times the output's size (GPU buffers) */
bool chain_bind(const chain_run *c, EDML_BUFFER_BINDING *bi, EDML_BUFFER_BINDING (*bo)[2], uint8_t *(*outs)[2],
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
    if (ok) {
        char name[80];
        snprintf(name, sizeof name, "%d %s, %s, %s", c->n, c->w->name,
                 c->distinct ? "an operator an entry" : "one operator", c->gpu ? "GPU buffers" : "host memory");
        bench_figure("chain", name, 3, (const char *[]){"one_by_one_us", "one_list_us", "submit_us"},
                     (double[]){t[0] * 1e6, t[1] * 1e6, t[2] * 1e6});
    } else
        printf("chain of %d %s: failed: %s\n", c->n, c->w->name, edml_device_last_error(c->dev));
    for (int e = 0; e < c->n; e++) free(outs[e][0]), free(outs[e][1]);
    for (int k = 2; k-- > 0;)
        if (gout[k]) edml_gpu_buffer_destroy(gout[k]);
    for (int k = 3; k-- > 0;)
        if (gin[k]) edml_gpu_buffer_destroy(gin[k]);
    return ok;
}

int chain(const options *o, int n)
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

int pipeline(void)
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
    if (ok)
        bench_figure("pipeline", "make demo's four steps, GPU buffers, gles", 2,
                     (const char *[]){"one_by_one_us", "one_list_us"},
                     (double[]){median(one, m) * 1e6, median(listed, m) * 1e6});
    else
        printf("pipeline: failed: %s\n", edml_device_last_error(bd.dev));
    bench_device_close(&bd);
    return ok ? 0 : 1;
}
