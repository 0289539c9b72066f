/* Programs made ready before their first use: built when an operator first
 * needs them (device creation compiles nothing, or starts every program in
 * the driver's threads), then each checked once on a known answer: a tiny
 * operator that dispatches it runs on the GPU and on the reference, and the
 * answers must be equal bit for bit. A driver that skips a dispatch it
 * could not compile (Mesa's V3D does, after a failed register allocation,
 * with no GL error) or runs it wrong takes that program off the device,
 * with the reason, instead of answering with whatever the output held. */
#include "gles.h"

#include <string.h>

/* A known-answer test: an operator on a `rows` x `cols` input (cols 0: four
 * of the device's workgroups, as long rows need). arg: TopK's K; ArgMin's
 * and ArgMax's axes (bits); GatherND's slices gathered; ElementWiseIf's
 * condition broadcast along the rows (1) or not (0). */
typedef struct edmli_gles_kat {
    EDML_OPERATOR_TYPE type;
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rows, cols, arg;
} edmli_gles_kat;

static const edmli_gles_kat edmli_gles_kats[] = {
    {EDML_OPERATOR_ELEMENT_WISE_IF, EDML_TENSOR_DATA_TYPE_FLOAT32, 4, 16, 0}, /* elementwise_if_vec */
    {EDML_OPERATOR_ELEMENT_WISE_IF, EDML_TENSOR_DATA_TYPE_UINT16, 3, 5, 1},   /* elementwise_if */
    {EDML_OPERATOR_GATHER_ND1, EDML_TENSOR_DATA_TYPE_FLOAT32, 8, 24, 3},      /* gather_nd, 16-byte vectors */
    {EDML_OPERATOR_GATHER_ND1, EDML_TENSOR_DATA_TYPE_UINT16, 8, 3, 5},        /* gather_nd, words */
    {EDML_OPERATOR_ARGMAX, EDML_TENSOR_DATA_TYPE_FLOAT32, 64, 4, 1},          /* argreduce_cols */
    {EDML_OPERATOR_ARGMIN, EDML_TENSOR_DATA_TYPE_FLOAT32, 16, 24, 3},         /* argreduce, argreduce_final */
    {EDML_OPERATOR_ARGMAX, EDML_TENSOR_DATA_TYPE_UINT8, 1, 0, 2},             /* argreduce_partial */
    {EDML_OPERATOR_ARGMIN, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 0, 2},           /* argreduce_partial_vec */
    {EDML_OPERATOR_TOP_K1, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 40, 3},          /* topk_small */
    {EDML_OPERATOR_TOP_K1, EDML_TENSOR_DATA_TYPE_FLOAT32, 4, 20, 5},          /* topk_rank, topk_out */
    {EDML_OPERATOR_TOP_K1, EDML_TENSOR_DATA_TYPE_FLOAT32, 2, 200, 4},         /* topk_select */
    {EDML_OPERATOR_TOP_K1, EDML_TENSOR_DATA_TYPE_UINT8, 256, 16, 8},          /* topk_thread_8 */
    {EDML_OPERATOR_TOP_K1, EDML_TENSOR_DATA_TYPE_UINT8, 256, 10, 9},          /* topk_thread */
};
#define EDMLI_GLES_KATS (uint32_t)(sizeof edmli_gles_kats / sizeof *edmli_gles_kats)

/* The descriptors of one test: its tensors' sizes and descriptors. */
typedef struct edmli_gles_kat_desc {
    UINT sizes[4][2], axes[2], axis_count;
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
        d->op.topk =
            (EDML_TOP_K1_OPERATOR_DESC){&d->t[0], &d->t[1], &d->t[2], 1, k->arg, EDML_AXIS_DIRECTION_DECREASING};
    } else { /* ArgMin, ArgMax: the same descriptor */
        for (UINT a = 0; a < 2; a++)
            if (k->arg >> a & 1u) d->axes[d->axis_count++] = a;
        edmli_gles_kat_tensor(d, 1, EDML_TENSOR_DATA_TYPE_UINT32, k->arg & 1u ? 1 : k->rows, k->arg & 2u ? 1 : cols);
        d->op.arg =
            (EDML_ARGMIN_OPERATOR_DESC){&d->t[0], &d->t[1], d->axis_count, d->axes, EDML_AXIS_DIRECTION_INCREASING};
    }
}

/* Inputs of many ties and no NaN, at the start of `m` one after another:
 * small whole numbers (in range for a GatherND's indices, 0 or 1 for a
 * condition). */
static void edmli_gles_kat_fill(const edml_operator *op, uint8_t *m)
{
    uint32_t x = 12345u;
    for (uint32_t i = 0; i < op->input_count; m += edmli_align16(op->inputs[i++].total_bytes)) {
        const edmli_tensor *t = &op->inputs[i];
        const uint32_t range = op->kind == EDMLI_OP_GATHER_ND && i == 1        ? op->inputs[0].sizes[0]
                               : op->kind == EDMLI_OP_ELEMENTWISE_IF && i == 0 ? 2u
                                                                               : 13u;
        for (uint64_t e = 0; e < t->total_bytes / t->elem_size; e++) {
            x = x * 1103515245u + 12345u;
            const uint32_t v = (x >> 16) % range;
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

/* The host memory a test's tensors take (from the free top of the device
 * arena while it runs): inputs, the GPU's outputs, the reference's, its
 * scratch. */
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

/* Plans test k on this device (into op): the programs it dispatches, 0
 * where the GPU cannot run it. */
static uint32_t edmli_gles_kat_plan(edmli_gles *g, edml_device *dev, const edmli_gles_kat *k, edml_operator *op,
                                    edmli_errbuf *err)
{
    edmli_gles_kat_desc d;
    edmli_gles_kat_make(k, k->cols ? k->cols : 4 * g->local, &d);
    if (edmli_operator_plan(err, &d.desc, op)) return 0;
    op->obj.device = dev;
    op->workers = 1;
    op->backend = op->requested = EDML_BACKEND_GLES;
    uint32_t programs = 0;
    char why[EDMLI_MESSAGE_BYTES / 2];
    if (edmli_gles_derive(dev, op, &programs, why, sizeof why)) return 0;
    op->backend_bytes = 0, op->backend_gpu_bytes = 0; /* unbaked: its parameters are uploaded */
    return programs;
}

/* Runs test k (planned) on the GPU and on the reference: whether the
 * answers are equal; `ran` gets the programs dispatched (0: it could not
 * run, for want of GPU arena). */
static bool edmli_gles_kat_run(edmli_gles *g, const edml_operator *op, uint8_t *mem, uint32_t *ran, char *why,
                               size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    edmli_exec gpu, ref;
    memset(&gpu, 0, sizeof gpu), memset(&ref, 0, sizeof ref);
    gpu.err = ref.err = &err;
    gpu.par.workers = ref.par.workers = 1;
    gpu.entry = ref.entry = EDMLI_NO_ENTRY;
    *ran = 0;
    edmli_gles_kat_layout(mem, op, &gpu, &ref);
    edmli_gles_kat_fill(op, mem);
    g->check_seen = 0;
    const edml_status s = edmli_gles_kernel_of[op->kind](op, &gpu);
    if (s) return true; /* not run (GPU arena), or the GPU failed: executions meet that themselves */
    *ran = g->check_seen;
    if ((&edmli_ref_backend)->kernels[op->kind](op, &ref) != EDML_STATUS_OK) {
        *ran = 0;
        return true;
    }
    for (uint32_t o = 0; o < op->output_count; o++)
        if (memcmp(gpu.out[o], ref.out[o], (size_t)op->outputs[o].total_bytes)) {
            edmli_format(why, cap,
                         "its known answer (%s on %ux%u) came back wrong: the driver did not run it as written",
                         edmli_op_name(op->type), op->inputs[0].sizes[0], op->inputs[0].sizes[1]);
            return false;
        }
    return true;
}

/* The GPU-buffer copy's test: 96 bytes through the free top of the GPU arena. */
static bool edmli_gles_kat_copy(edmli_gles *g, uint32_t *ran, char *why, size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    edmli_gles_run r;
    uint32_t src = 0, dst = 0;
    uint8_t want[96], got[96];
    for (uint32_t i = 0; i < 96; i++) want[i] = (uint8_t)(i * 37u + 11u), got[i] = 0;
    *ran = 0;
    edml_status s = edmli_gles_begin(&r, g, &err);
    if (!s) s = edmli_gles_alloc(&r, 96, &src);
    if (!s) s = edmli_gles_alloc(&r, 96, &dst);
    if (!s) {
        g->check_seen = 0;
        edmli_gles_write(g, src, want, 96);
        edmli_gles_copy_dispatch(&r, dst + 4, src + 4, 88); /* words, not vectors: the copy's both paths */
        edmli_gles_copy_dispatch(&r, dst, src, 96);
        edmli_gles_fetch(&r, dst, got, 96);
        s = edmli_gles_finish(&r);
    }
    if (s) return true; /* not run (GPU arena), or the GPU failed: a copy meets that itself */
    *ran = g->check_seen;
    if (!memcmp(want, got, 96)) return true;
    edmli_format(why, cap, "its known answer (a copy of 96 bytes) came back wrong");
    return false;
}

/* Builds the programs given, waiting for the driver: false where one fails. */
static bool edmli_gles_build_all(edmli_gles *g, uint32_t programs)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if (programs >> id & 1u) {
            if (g->prog_state[id] == EDMLI_GLES_PROG_NONE) edmli_gles_build_start(g, (edmli_gles_prog)id);
            edmli_gles_build_end(g, (edmli_gles_prog)id);
        }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_FAILED) return false;
    return true;
}

/* Test i (planned into op) on the GPU and the reference, in memory from the
 * free top of the device arena: false where that is too short (why in
 * `why`); else the programs it dispatched in *ran and whether they gave
 * its known answer in *ok. */
static bool edmli_gles_kat_in_arena(edmli_gles *g, edml_device *dev, const edml_operator *op, uint32_t *ran, bool *ok,
                                    char *why, size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    const uint64_t bytes = edmli_gles_kat_bytes(op);
    if (g->check_mem && g->check_mem_bytes >= bytes) { /* an execution's scratch */
        *ok = edmli_gles_kat_run(g, op, g->check_mem, ran, why, cap);
        return true;
    }
    void *mem;
    if (edmli_arena_scratch(&dev->arena, &err, "the known-answer test of a GPU kernel", (size_t)bytes, &mem)) {
        edmli_format(why, cap, "%s", err.text);
        return false;
    }
    *ok = edmli_gles_kat_run(g, op, (uint8_t *)mem, ran, why, cap);
    edmli_arena_release_scratch(&dev->arena);
    return true;
}

/* Runs test i if it dispatches one of `want` (its programs built first):
 * *ran gets the programs it dispatched (0: it did not run) and *ok whether
 * they gave its known answer (else why in `why`); false where the device
 * arena's free top was too short for it (why in `why`). */
static bool edmli_gles_run_test(edmli_gles *g, edml_device *dev, uint32_t i, uint32_t want, uint32_t *ran, bool *ok,
                                char *why, size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    *ran = 0, *ok = true;
    if (i == EDMLI_GLES_KATS) {
        const uint32_t copy = 1u << EDMLI_GLES_PROG_COPY;
        if ((want & copy) && edmli_gles_build_all(g, copy)) *ok = edmli_gles_kat_copy(g, ran, why, cap);
        return true;
    }
    edml_operator op;
    const uint32_t programs = edmli_gles_kat_plan(g, dev, &edmli_gles_kats[i], &op, &err);
    if (!(programs & want) || !edmli_gles_build_all(g, programs)) return true;
    return edmli_gles_kat_in_arena(g, dev, &op, ran, ok, why, cap);
}

/* Test i: the programs it checked, each marked CHECKED, or FAILED with why;
 * false where its memory was short (`short_why` says so). */
static bool edmli_gles_check_one(edmli_gles *g, edml_device *dev, uint32_t i, uint32_t unchecked, char *short_why,
                                 size_t cap)
{
    char why[EDMLI_GLES_WHY_BYTES];
    uint32_t ran;
    bool ok;
    if (!edmli_gles_run_test(g, dev, i, unchecked, &ran, &ok, why, sizeof why)) {
        edmli_format(short_why, cap, "%s", why);
        return false;
    }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++) {
        if (!(ran >> id & 1u) || g->prog_state[id] != EDMLI_GLES_PROG_BUILT) continue;
        char text[EDMLI_GLES_WHY_BYTES];
        edmli_format(text, sizeof text, "kernel %s: %s", edmli_gles_src_name[id], why);
        if (!ok)
            edmli_gles_failed(g, (edmli_gles_prog)id, text);
        else
            g->prog_state[id] = EDMLI_GLES_PROG_CHECKED;
    }
    return true;
}

/* Checks the BUILT programs among `programs` on their known answers (false:
 * the device arena's free top was too short for one, why in `why`; those
 * programs stay unchecked, so unused). */
static bool edmli_gles_check(edmli_gles *g, edml_device *dev, uint32_t programs, char *why, size_t cap)
{
    if (g->faults & EDML_FAULT_UNCHECKED) {
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
            if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_BUILT)
                g->prog_state[id] = EDMLI_GLES_PROG_CHECKED;
        return true;
    }
    bool fits = true;
    g->checking = true;
    for (uint32_t i = 0; i <= EDMLI_GLES_KATS && fits; i++) {
        uint32_t unchecked = 0;
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
            if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_BUILT) unchecked |= 1u << id;
        if (!unchecked) break;
        fits = edmli_gles_check_one(g, dev, i, unchecked, why, cap);
    }
    g->checking = false;
    return fits;
}

/* The host memory the first check of these programs takes from the device
 * arena (0 once they are checked): the largest of their tests'. */
uint64_t edmli_gles_check_bytes(edmli_gles *g, edml_device *dev, uint32_t programs)
{
    if (!g->check_sized) {
        edmli_errbuf err = {{0}, NULL, NULL};
        for (uint32_t i = 0; i < EDMLI_GLES_KATS; i++) {
            edml_operator op;
            const uint32_t ps = edmli_gles_kat_plan(g, dev, &edmli_gles_kats[i], &op, &err);
            for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
                if ((ps >> id & 1u) && !g->check_need[id]) g->check_need[id] = (uint32_t)edmli_gles_kat_bytes(&op);
        }
        g->check_sized = true;
    }
    uint64_t need = 0;
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] != EDMLI_GLES_PROG_CHECKED && g->check_need[id] > need)
            need = g->check_need[id];
    return need;
}

/* The programs' readiness once started: LATER while one still compiles
 * (without `wait`), NEVER where one failed, else READY. */
static edmli_readiness edmli_gles_built_now(edmli_gles *g, uint32_t programs, bool wait, char *why, size_t cap)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && !wait && !edmli_gles_build_done(g, (edmli_gles_prog)id)) return EDMLI_LATER;
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if (programs >> id & 1u) {
            edmli_gles_build_end(g, (edmli_gles_prog)id);
            if (g->prog_state[id] == EDMLI_GLES_PROG_FAILED) {
                edmli_gles_why(g, (edmli_gles_prog)id, why, cap);
                return EDMLI_NEVER;
            }
        }
    return EDMLI_READY;
}

bool edmli_gles_checked(const edmli_gles *g, uint32_t programs)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] != EDMLI_GLES_PROG_CHECKED) return false;
    return true;
}

edmli_readiness edmli_gles_ready(edmli_gles *g, edml_device *dev, uint32_t programs, bool wait,
                                 edmli_gles_check_mode mode, char *why, size_t cap)
{
    if (edmli_gles_checked(g, programs)) return EDMLI_READY;
    if (!edmli_port_gl_make_current(&g->port)) {
        edmli_format(why, cap, "eglMakeCurrent failed");
        return EDMLI_NEVER;
    }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_NONE)
            edmli_gles_build_start(g, (edmli_gles_prog)id);
    edmli_readiness r = edmli_gles_built_now(g, programs, wait, why, cap);
    const bool check = mode != EDMLI_GLES_BUILD_ONLY && !g->checking && !g->batching; /* a list's batch: later */
    if (r == EDMLI_READY && check && !edmli_gles_check(g, dev, programs, why, cap))
        r = mode == EDMLI_GLES_CHECK_OR_DEFER ? EDMLI_READY : wait ? EDMLI_NEVER : EDMLI_LATER;
    if (r == EDMLI_READY && check) {
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT && r == EDMLI_READY; id++)
            if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_FAILED) {
                edmli_gles_why(g, (edmli_gles_prog)id, why, cap);
                r = EDMLI_NEVER;
            }
    }
    edmli_gles_release(g);
    return r;
}

uint32_t edmli_gles_check_count(void) { return EDMLI_GLES_KATS + 1; }

uint32_t edmli_gles_check_programs(edmli_gles *g, edml_device *dev, uint32_t i)
{
    char why[EDMLI_GLES_WHY_BYTES];
    uint32_t ran = 0;
    bool ok = true;
    if (i > EDMLI_GLES_KATS || !edmli_port_gl_make_current(&g->port)) return 0;
    g->checking = true;
    if (!edmli_gles_run_test(g, dev, i, ~0u, &ran, &ok, why, sizeof why)) ran = 0;
    g->checking = false;
    edmli_gles_release(g);
    return ok ? ran : 0;
}
