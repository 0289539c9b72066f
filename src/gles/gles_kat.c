/* The known-answer tests: tiny operators that dispatch the GPU kernels,
 * each run on the GPU and on the reference, whose answers must be equal bit
 * for bit. A GPU that does nothing cannot pass one: the output staging in
 * the GPU arena is filled with a pattern before the dispatch (0xA5 bytes,
 * which no answer holds: the inputs are small whole numbers and indices
 * are small), so neither zeros nor a stale answer of an earlier test
 * match; ArgMin's and ArgMax's extremes are planted inside their sets, away
 * from the first and last element, and each reduction and TopK kernel is
 * tested in both directions (ArgMin keeping the first of ties and ArgMax
 * the last; TopK's largest and smallest). gles_ready.c runs them. */
#include "gles.h"

#include <string.h>

/* A test: an operator on a `rows` x `cols` input (cols 0: four of the
 * device's workgroups, as long rows need). arg: TopK's K; ArgMin's and
 * ArgMax's axes (bits 0 and 1), or EDMLI_KAT_ODOMETER; GatherND's slices gathered; ElementWiseIf's
 * condition broadcast along the rows (1) or not (0). flip: the other
 * direction (ArgMin <-> ArgMax, keeping the last of ties; TopK's smallest).
 * checks: the programs it is a test of (where the device dispatches them
 * for it); others it dispatches have tests of their own. */
typedef struct edmli_gles_kat {
    EDML_OPERATOR_TYPE type;
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rows, cols, arg;
    bool flip;
    uint32_t checks;
} edmli_gles_kat;

/* ArgMin's and ArgMax's arg: a view of [3, 5, 2, 5] with strides {126, 18, 6, 1}
 * reduced along dims 0, 1 and 3 (rows and cols unused): Mesa's softpipe
 * answered such a walk wrong where every other test passed */
#define EDMLI_KAT_ODOMETER 4u
#define EDMLI_KAT_F32 EDML_TENSOR_DATA_TYPE_FLOAT32
#define EDMLI_KAT_U8 EDML_TENSOR_DATA_TYPE_UINT8
#define EDMLI_KAT_P(id) (1u << EDMLI_GLES_PROG_##id)
#define EDMLI_KAT_BOTH(type, dtype, rows, cols, arg, checks) \
    {type, dtype, rows, cols, arg, false, checks}, { type, dtype, rows, cols, arg, true, checks }
static const edmli_gles_kat edmli_gles_kats[] = {
    {EDML_OPERATOR_ELEMENT_WISE_IF, EDMLI_KAT_F32, 4, 16, 0, false, EDMLI_KAT_P(ELEMENTWISE_IF_VEC)},
    {EDML_OPERATOR_ELEMENT_WISE_IF, EDML_TENSOR_DATA_TYPE_UINT16, 3, 5, 1, false, EDMLI_KAT_P(ELEMENTWISE_IF)},
    {EDML_OPERATOR_GATHER_ND1, EDMLI_KAT_F32, 8, 24, 3, false, EDMLI_KAT_P(GATHER_ND)}, /* 16-byte vectors */
    {EDML_OPERATOR_GATHER_ND1, EDML_TENSOR_DATA_TYPE_UINT16, 8, 3, 5, false, EDMLI_KAT_P(GATHER_ND)}, /* words */
    EDMLI_KAT_BOTH(EDML_OPERATOR_ARGMAX, EDMLI_KAT_F32, 64, 4, 1, EDMLI_KAT_P(ARGREDUCE_COLS)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_ARGMIN, EDMLI_KAT_F32, 16, 24, 3,
                   EDMLI_KAT_P(ARGREDUCE) | EDMLI_KAT_P(ARGREDUCE_FINAL)),
    /* three reduced dims of a strided view that do not merge: the odometer's walk */
    EDMLI_KAT_BOTH(EDML_OPERATOR_ARGMAX, EDMLI_KAT_F32, 0, 0, EDMLI_KAT_ODOMETER,
                   EDMLI_KAT_P(ARGREDUCE) | EDMLI_KAT_P(ARGREDUCE_FINAL)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_ARGMAX, EDMLI_KAT_U8, 1, 0, 2, EDMLI_KAT_P(ARGREDUCE_PARTIAL)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_ARGMIN, EDMLI_KAT_F32, 1, 0, 2, EDMLI_KAT_P(ARGREDUCE_PARTIAL_VEC)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_TOP_K1, EDMLI_KAT_F32, 1, 40, 3, EDMLI_KAT_P(TOPK_SMALL)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_TOP_K1, EDMLI_KAT_F32, 4, 20, 5, EDMLI_KAT_P(TOPK_RANK) | EDMLI_KAT_P(TOPK_OUT)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_TOP_K1, EDMLI_KAT_F32, 2, 200, 4, EDMLI_KAT_P(TOPK_SELECT)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_TOP_K1, EDMLI_KAT_U8, 256, 16, 8, EDMLI_KAT_P(TOPK_THREAD_8)),
    EDMLI_KAT_BOTH(EDML_OPERATOR_TOP_K1, EDMLI_KAT_U8, 256, 10, 9, EDMLI_KAT_P(TOPK_THREAD)),
};
#define EDMLI_GLES_OP_KATS (uint32_t)(sizeof edmli_gles_kats / sizeof *edmli_gles_kats)
_Static_assert(EDMLI_GLES_OP_KATS + 1 == EDMLI_GLES_KATS, "the tests: the operators' and the copy's");

/* The descriptors of one test: its tensors' sizes and descriptors. */
typedef struct edmli_gles_kat_desc {
    UINT sizes[4][2], axes[3], axis_count;
    EDML_BUFFER_TENSOR_DESC buf[4];
    EDML_TENSOR_DESC t[4];
    union {
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC wif;
        EDML_GATHER_ND1_OPERATOR_DESC gather;
        EDML_ARGMIN_OPERATOR_DESC arg;
        EDML_TOP_K1_OPERATOR_DESC topk;
    } op;
    UINT cond_strides[2];
    EDML_OPERATOR_DESC desc;
} edmli_gles_kat_desc;

static void edmli_gles_kat_tensor(edmli_gles_kat_desc *d, int i, EDML_TENSOR_DATA_TYPE type, UINT rows, UINT cols)
{
    d->sizes[i][0] = rows, d->sizes[i][1] = cols;
    d->buf[i] = (EDML_BUFFER_TENSOR_DESC){type, EDML_TENSOR_FLAG_NONE, 2, d->sizes[i], NULL, 0, 0};
    d->t[i] = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &d->buf[i]};
}

/* ArgMin's and ArgMax's descriptor (the same members), in k's direction. */
static void edmli_gles_kat_arg(const edmli_gles_kat *k, UINT cols, edmli_gles_kat_desc *d)
{
    const bool min = (k->type == EDML_OPERATOR_ARGMIN) != k->flip;
    d->desc.Type = min ? EDML_OPERATOR_ARGMIN : EDML_OPERATOR_ARGMAX;
    for (UINT a = 0; a < 2; a++)
        if (k->arg >> a & 1u) d->axes[d->axis_count++] = a;
    edmli_gles_kat_tensor(d, 1, EDML_TENSOR_DATA_TYPE_UINT32, k->arg & 1u ? 1 : k->rows, k->arg & 2u ? 1 : cols);
    if (k->arg == EDMLI_KAT_ODOMETER) {
        static const UINT sizes[4] = {3, 5, 2, 5}, strides[4] = {126, 18, 6, 1}, out[4] = {1, 1, 2, 1};
        d->buf[0].DimensionCount = d->buf[1].DimensionCount = 4;
        d->buf[0].Sizes = sizes, d->buf[0].Strides = strides, d->buf[1].Sizes = out;
        d->axes[0] = 0, d->axes[1] = 1, d->axes[2] = 3, d->axis_count = 3;
    }
    d->op.arg = (EDML_ARGMIN_OPERATOR_DESC){&d->t[0], &d->t[1], d->axis_count, d->axes,
                                            k->flip ? EDML_AXIS_DIRECTION_DECREASING : EDML_AXIS_DIRECTION_INCREASING};
}

static void edmli_gles_kat_make(const edmli_gles_kat *k, UINT cols, edmli_gles_kat_desc *d)
{
    memset(d, 0, sizeof *d);
    d->desc.Type = k->type;
    d->desc.Desc = &d->op;
    edmli_gles_kat_tensor(d, 0, k->dtype, k->rows, cols);
    if (k->type == EDML_OPERATOR_ELEMENT_WISE_IF) {
        edmli_gles_kat_tensor(d, 1, EDML_TENSOR_DATA_TYPE_UINT8, k->rows, cols);
        d->cond_strides[0] = k->arg ? 0 : cols, d->cond_strides[1] = 1;
        d->buf[1].Strides = d->cond_strides;
        edmli_gles_kat_tensor(d, 2, k->dtype, k->rows, cols);
        edmli_gles_kat_tensor(d, 3, k->dtype, k->rows, cols);
        d->op.wif = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&d->t[1], &d->t[0], &d->t[2], &d->t[3]};
    } else if (k->type == EDML_OPERATOR_GATHER_ND1) {
        edmli_gles_kat_tensor(d, 1, EDML_TENSOR_DATA_TYPE_INT32, k->arg, 1);
        edmli_gles_kat_tensor(d, 2, k->dtype, k->arg, cols);
        d->op.gather = (EDML_GATHER_ND1_OPERATOR_DESC){&d->t[0], &d->t[1], &d->t[2], 2, 2, 0};
    } else if (k->type == EDML_OPERATOR_TOP_K1) {
        edmli_gles_kat_tensor(d, 1, k->dtype, k->rows, k->arg);
        edmli_gles_kat_tensor(d, 2, EDML_TENSOR_DATA_TYPE_UINT32, k->rows, k->arg);
        d->op.topk = (EDML_TOP_K1_OPERATOR_DESC){
            &d->t[0], &d->t[1], &d->t[2],
            1,        k->arg,   k->flip ? EDML_AXIS_DIRECTION_INCREASING : EDML_AXIS_DIRECTION_DECREASING};
    } else {
        edmli_gles_kat_arg(k, cols, d);
    }
}

/* Element e's level (0 to 12) of n in input i: small whole numbers with
 * many ties (in range for GatherND's indices, 0 or 1 for a condition);
 * an ArgMin's or ArgMax's data holds its extremes only where planted: the
 * lowest (0) at a third and two thirds of the elements, the highest (12)
 * at a half and three quarters, so that every answer of a set holding
 * them lies inside it, the first of ties and the last differing. */
static uint32_t edmli_gles_kat_level(const edml_operator *op, uint32_t i, uint64_t e, uint64_t n, uint32_t *x)
{
    *x = *x * 1103515245u + 12345u;
    const uint32_t r = *x >> 16;
    if (op->kind == EDMLI_OP_GATHER_ND && i == 1) return r % op->inputs[0].sizes[0];
    if (op->kind == EDMLI_OP_ELEMENTWISE_IF && i == 0) return r % 2u;
    if (op->kind != EDMLI_OP_ARGREDUCE) return r % 13u;
    if (e == n / 3 || e == 2 * n / 3) return 0;
    if (e == n / 2 || e == 3 * n / 4) return 12;
    return 1u + r % 11u;
}

/* The inputs, at the start of `m` one after another: a level v as v - 6 in
 * floating point, v in an integer's low byte. */
static void edmli_gles_kat_fill(const edml_operator *op, uint8_t *m)
{
    uint32_t x = 12345u;
    for (uint32_t i = 0; i < op->input_count; m += edmli_align16(op->inputs[i++].total_bytes)) {
        const edmli_tensor *t = &op->inputs[i];
        const uint64_t n = t->total_bytes / t->elem_size;
        for (uint64_t e = 0; e < n; e++) {
            const uint32_t v = edmli_gles_kat_level(op, i, e, n, &x);
            const float f = (float)v - 6.0f;
            if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32)
                memcpy(m + e * 4, &f, 4);
            else if (t->elem_size == 4)
                memcpy(m + e * 4, &v, 4);
            else
                for (uint32_t b = 0; b < t->elem_size; b++) m[e * t->elem_size + b] = (uint8_t)(b ? 0 : v);
        }
    }
}

/* The host memory a test's tensors take: inputs, the GPU's outputs, the
 * reference's, its scratch. */
static uint64_t edmli_gles_kat_bytes(const edml_operator *op)
{
    uint64_t at = 0;
    for (uint32_t i = 0; i < op->input_count; i++) at += edmli_align16(op->inputs[i].total_bytes);
    for (uint32_t o = 0; o < op->output_count; o++) at += 2 * edmli_align16(op->outputs[o].total_bytes);
    return at + (edmli_ref_backend.temp_bytes ? edmli_ref_backend.temp_bytes(op) : 0);
}

/* Lays out a test's tensors at m (edmli_gles_kat_bytes of them). */
static void edmli_gles_kat_layout(uint8_t *m, const edml_operator *op, edmli_exec *gpu, edmli_exec *ref)
{
    uint64_t at = 0;
    for (uint32_t i = 0; i < op->input_count; at += edmli_align16(op->inputs[i++].total_bytes))
        gpu->in[i] = ref->in[i] = m + at;
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t o = 0; o < op->output_count; at += edmli_align16(op->outputs[o++].total_bytes))
            (k ? ref : gpu)->out[o] = m + at;
    ref->scratch = m + at;
    memset(m, 0, (size_t)edmli_gles_kat_bytes(op));
    for (uint32_t i = 0; i < EDMLI_MAX_INPUTS; i++) gpu->in_gpu[i] = ref->in_gpu[i] = EDMLI_HOST;
    for (uint32_t o = 0; o < EDMLI_MAX_OUTPUTS; o++) gpu->out_gpu[o] = ref->out_gpu[o] = EDMLI_HOST;
}

uint32_t edmli_gles_kat_plan(edmli_gles *g, edml_device *dev, uint32_t i, edml_operator *op, uint64_t *bytes,
                             uint32_t *needs)
{
    *bytes = 0;
    *needs = 0;
    if (i >= EDMLI_GLES_OP_KATS) { /* the copy's: 96 bytes of GPU arena, its host bytes on the stack */
        op->obj.device = NULL;
        *needs = edmli_gles_builds(g, EDMLI_GLES_PROG_COPY) ? 1u << EDMLI_GLES_PROG_COPY : 0u;
        return *needs;
    }
    const edmli_gles_kat *k = &edmli_gles_kats[i];
    edmli_errbuf err = {{0}, NULL, NULL};
    edmli_gles_kat_desc d;
    edmli_gles_kat_make(k, k->cols ? k->cols : 4 * g->local, &d);
    if (edmli_operator_plan(&err, &d.desc, op)) return 0;
    op->obj.device = dev;
    op->workers = 1;
    op->backend = op->requested = EDML_BACKEND_GLES;
    uint32_t programs = 0;
    char why[EDMLI_MESSAGE_BYTES / 2];
    if (edmli_gles_derive(dev, op, &programs, false, why, sizeof why)) return 0;
    op->backend_bytes = 0, op->backend_gpu_bytes = 0; /* unbaked: its parameters are uploaded */
    *bytes = edmli_gles_kat_bytes(op);
    *needs = programs;
    return programs & k->checks;
}

/* The pattern no answer holds, over `bytes` below the top of the GPU arena,
 * where a run stages its tensors: false where they do not fit (the GPU
 * buffers hold the rest) or GL may not write the arena now (a mapping). */
static bool edmli_gles_kat_pattern(edmli_gles *g, uint64_t bytes, edml_status *status, char *why, size_t cap)
{
#define EDMLI_P4 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u
#define EDMLI_P32 EDMLI_P4, EDMLI_P4, EDMLI_P4, EDMLI_P4, EDMLI_P4, EDMLI_P4, EDMLI_P4, EDMLI_P4
    static const uint32_t pattern[256] = {EDMLI_P32, EDMLI_P32, EDMLI_P32, EDMLI_P32,
                                          EDMLI_P32, EDMLI_P32, EDMLI_P32, EDMLI_P32}; /* read-only */
    const uint64_t free = g->arena_bytes - g->persistent;
    *status = g->mapped_plain ? EDML_STATUS_BUSY : bytes > free ? EDML_STATUS_ARENA_TOO_SMALL : EDML_STATUS_OK;
    if (*status == EDML_STATUS_BUSY)
        edmli_format(why, cap, "its known-answer test must wait until the mapped GPU buffer is unmapped");
    else if (*status)
        edmli_format(why, cap, "its known-answer test needs %llu bytes of GPU arena, %llu are free (%s)",
                     (unsigned long long)bytes, (unsigned long long)free, g->arena_bound);
    for (uint64_t done = 0; !*status && done < bytes; done += sizeof pattern)
        edmli_gles_write(g, g->arena_bytes - bytes + done, pattern,
                         bytes - done < sizeof pattern ? bytes - done : sizeof pattern);
    return *status == EDML_STATUS_OK;
}

/* A run's failure: not run (the GPU arena, a mapping: *status); failed,
 * its dispatches dropped (the driver could not run its kernels); or the
 * GPU failed (a fence that timed out, a GL error, a reset), which takes
 * GLES off the device. */
static edmli_gles_kat_outcome edmli_gles_kat_failed(edmli_gles *g, edml_status s, const edmli_errbuf *err,
                                                    edml_status *status, char *why, size_t cap)
{
    if (s == EDML_STATUS_ARENA_TOO_SMALL || s == EDML_STATUS_BUSY) {
        *status = s;
        edmli_format(why, cap, "its known-answer test could not run: %s", err->text);
        return EDMLI_GLES_KAT_NOT_RUN;
    }
    edmli_format(why, cap, "its known-answer test did not run: %s", err->text);
    if (!g->dropped) edmli_gles_lose(g, err->text);
    return EDMLI_GLES_KAT_FAILED;
}

/* Test (planned into op) on the GPU and the reference, in host memory `m`. */
static edmli_gles_kat_outcome edmli_gles_kat_op(edmli_gles *g, const edml_operator *op, uint8_t *m, uint32_t *ran,
                                                edml_status *status, char *why, size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    edmli_exec gpu, ref;
    memset(&gpu, 0, sizeof gpu), memset(&ref, 0, sizeof ref);
    gpu.err = ref.err = &err;
    gpu.par.workers = ref.par.workers = 1;
    gpu.entry = ref.entry = EDMLI_NO_ENTRY;
    edmli_gles_kat_layout(m, op, &gpu, &ref);
    edmli_gles_kat_fill(op, m);
    if (!edmli_gles_kat_pattern(g, EDMLI_GLES_PLAN(op)->stage_bytes, status, why, cap)) return EDMLI_GLES_KAT_NOT_RUN;
    g->check_seen = 0;
    g->dropped = false;
    const edml_status s = edmli_gles_kernel_of[op->kind](op, &gpu);
    *ran = g->check_seen;
    if (s) return edmli_gles_kat_failed(g, s, &err, status, why, cap);
    if (edmli_ref_backend.kernels[op->kind](op, &ref) != EDML_STATUS_OK) {
        edmli_format(why, cap, "its known answer could not be computed: %s", err.text);
        return EDMLI_GLES_KAT_FAILED;
    }
    for (uint32_t o = 0; o < op->output_count; o++)
        if (memcmp(gpu.out[o], ref.out[o], (size_t)op->outputs[o].total_bytes)) {
            edmli_format(why, cap,
                         "its known answer (%s on %ux%u) came back wrong: the driver did not run it as written",
                         edmli_op_name(op->type), op->inputs[0].sizes[0], op->inputs[0].sizes[1]);
            return EDMLI_GLES_KAT_FAILED;
        }
    return EDMLI_GLES_KAT_PASSED;
}

/* The GPU-buffer copy's test: 96 bytes through the free top of the GPU
 * arena, its destination holding the pattern first. */
static edmli_gles_kat_outcome edmli_gles_kat_copy(edmli_gles *g, uint32_t *ran, edml_status *status, char *why,
                                                  size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    edmli_gles_run r;
    uint32_t src = 0, dst = 0;
    uint8_t want[96], got[96];
    for (uint32_t i = 0; i < 96; i++) want[i] = (uint8_t)(i * 37u + 11u), got[i] = 0;
    if (!edmli_gles_kat_pattern(g, 2 * 96, status, why, cap)) return EDMLI_GLES_KAT_NOT_RUN;
    edml_status s = edmli_gles_begin(&r, g, &err);
    if (!s) s = edmli_gles_alloc(&r, 96, &src);
    if (!s) s = edmli_gles_alloc(&r, 96, &dst);
    if (!s) {
        g->check_seen = 0;
        g->dropped = false;
        edmli_gles_write(g, src, want, 96);
        edmli_gles_copy_dispatch(&r, dst + 4, src + 4, 88); /* words, not vectors: the copy's both paths */
        edmli_gles_copy_dispatch(&r, dst, src, 96);
        edmli_gles_fetch(&r, dst, got, 96);
        s = edmli_gles_finish(&r);
        *ran = g->check_seen;
    }
    if (s) return edmli_gles_kat_failed(g, s, &err, status, why, cap);
    if (!memcmp(want, got, 96)) return EDMLI_GLES_KAT_PASSED;
    edmli_format(why, cap, "its known answer (a copy of 96 bytes) came back wrong");
    return EDMLI_GLES_KAT_FAILED;
}

edmli_gles_kat_outcome edmli_gles_kat_run(edmli_gles *g, const edml_operator *op, uint32_t i, uint8_t *mem,
                                          uint32_t *ran, edml_status *status, char *why, size_t cap)
{
    *ran = 0;
    *status = EDML_STATUS_OK;
    if (i >= EDMLI_GLES_OP_KATS) return edmli_gles_kat_copy(g, ran, status, why, cap);
    return edmli_gles_kat_op(g, op, mem, ran, status, why, cap);
}
