/* The GLES backend as the core sees it: which operators it can run, with
 * how much GPU arena, which ones AUTO gives it, and its table. */
#include "gles.h"

#include <string.h>

/* GPU-arena bytes one execution stages (ArgMin/ArgMax scratch: the larger
 * of the two kernels the run-time alignment can pick). */
static uint64_t edmli_gles_stage_bytes(const edml_operator *op, const edmli_gles_plan *plan)
{
    uint64_t b = 0;
    for (uint32_t i = 0; i < op->input_count; i++) b = edmli_add_sat(b, edmli_align16(op->inputs[i].total_bytes));
    for (uint32_t o = 0; o < op->output_count; o++) b = edmli_add_sat(b, edmli_align16(op->outputs[o].total_bytes));
    if (op->kind == EDMLI_OP_TOPK) {
        const uint64_t rows = op->inputs[0].elem_count / op->plan.topk.axis_size, chunks = plan->topk_chunks;
        const uint64_t lists = rows * op->plan.topk.k * 12;
        b = edmli_add_sat(b, edmli_align16(rows * op->plan.topk.k * 4));
        if (chunks > 1) b = edmli_add_sat(b, edmli_align16(lists * chunks));
    } else if (op->kind == EDMLI_OP_ARGREDUCE) {
        uint64_t ac, vc, a = edmli_gles_reduce_scratch(op, &plan->reduce[0], &ac);
        uint64_t v = edmli_gles_reduce_scratch(op, &plan->reduce[1], &vc);
        b = edmli_add_sat(b, a + ac > v + vc ? a + ac : v + vc);
    } else if (op->kind == EDMLI_OP_GATHER_ND) {
        b = edmli_add_sat(b, 16);
    }
    return b;
}

/* Whether a kernel the operator dispatches spilled registers to memory on
 * this GPU, as its compiler said (then said in buf): AUTO keeps it on the
 * CPU, where it runs faster than a kernel whose every spill is a memory
 * access (Mesa's V3D makes each one a TMU round trip). */
static bool edmli_gles_spilled(const edmli_gles *g, uint32_t programs, char *buf, size_t cap)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->spills[id] > 0) {
            edmli_format(buf, cap,
                         "its kernel %s spilled registers on this GPU (%d:%d spills:fills, as its compiler said)",
                         edmli_gles_src_name[id], g->spills[id], g->fills[id]);
            return true;
        }
    return false;
}

/* Derives the operator's plan (kernel shapes, staging) once, at creation;
 * or says why this GPU cannot run it: K above what TopK's kernel holds, more
 * staging than the GPU arena has free. */
static const char *edmli_gles_plan_op(const edml_device *dev, edml_operator *op, char *buf, size_t cap)
{
    const edmli_gles *g = (const edmli_gles *)dev->state[EDML_BACKEND_GLES];
    edmli_gles_plan *plan = (edmli_gles_plan *)(void *)op->backend_plan;
    memset(plan, 0, sizeof *plan);
    if (op->kind == EDMLI_OP_TOPK && op->plan.topk.k > g->sort_max) {
        edmli_format(buf, cap, "K = %u is above the %u this GPU's TopK kernel holds in shared memory", op->plan.topk.k,
                     g->sort_max);
        return buf;
    }
    if (op->kind == EDMLI_OP_TOPK) {
        plan->topk_chunks = g->thread_topk ? edmli_gles_topk_chunks(op) : 0; /* else rank or select */
        plan->topk_small = edmli_gles_topk_is_small(op, g);
        plan->topk_rank = edmli_gles_topk_by_rank(op, plan);
        plan->topk_rows_per_group = edmli_gles_topk_rows_per_group(g, op->plan.topk.axis_size);
    }
    if (op->kind == EDMLI_OP_ARGREDUCE) edmli_gles_plan_argreduce(op, g, plan);
    plan->stage_bytes = edmli_gles_stage_bytes(op, plan);
    const uint32_t programs = edmli_gles_bake_size(op, g);
    if (op->requested == EDML_BACKEND_AUTO && edmli_gles_spilled(g, programs, buf, cap)) return buf;
    const uint64_t have = g->arena_bytes - g->persistent,
                   need = edmli_add_sat(plan->stage_bytes, op->backend_gpu_bytes);
    if (need > have) {
        edmli_format(buf, cap, "it needs %llu bytes of GPU arena, %llu are free (%s)", (unsigned long long)need,
                     (unsigned long long)have, g->arena_bound);
        return buf;
    }
    return NULL;
}

/* AUTO: the GPU for work above the board's thresholds (a submission costs
 * tens of microseconds and a trip through memory), which are measured on one
 * core: with W workers the CPU's side is up to W times faster, so the
 * thresholds are W times higher (TopK's row length is not: one row is
 * still one GPU workgroup's job). Never a software
 * rasterizer (Mesa's llvmpipe runs shaders on the CPU it would take from the
 * NEON kernels: measured slower on every workload) unless the board allows. */
static bool edmli_gles_wants(const edml_device *dev, const edml_operator *op)
{
    const edmli_gles *g = (const edmli_gles *)dev->state[EDML_BACKEND_GLES];
    if (!dev->board.gpu_software_ok && edmli_gles_is_software(g)) return false;
    uint64_t n = 0;
    for (uint32_t i = 0; i < op->input_count; i++) n = op->inputs[i].elem_count > n ? op->inputs[i].elem_count : n;
    for (uint32_t o = 0; o < op->output_count; o++) n = op->outputs[o].elem_count > n ? op->outputs[o].elem_count : n;
    /* copy-like work moves every byte through the host<->GPU transfers */
    const bool copy_like =
        op->kind == EDMLI_OP_ELEMENTWISE_IF || (op->kind == EDMLI_OP_GATHER_ND && op->plan.gather_nd.slice_rank > 0);
    const uint64_t workers = op->workers ? op->workers : 1;
    if (n < (copy_like ? dev->board.gpu_min_elements_copy : dev->board.gpu_min_elements) * workers) return false;
    return op->kind != EDMLI_OP_TOPK || op->plan.topk.axis_size >= dev->board.gpu_topk_min_row;
}

/* Each kernel ends its call as edmli_gles_release() says: a context that
 * was current before it is current again, the device's kept or let go. */
#define EDMLI_GLES_RELEASING(name)                                                    \
    static edml_status name##_released(const edml_operator *op, const edmli_exec *ex) \
    {                                                                                 \
        edml_status s = name(op, ex);                                                 \
        edmli_gles_release(EDMLI_GLES_STATE(op));                                     \
        return s;                                                                     \
    }
EDMLI_GLES_RELEASING(edmli_gles_topk)
EDMLI_GLES_RELEASING(edmli_gles_gather_nd)
EDMLI_GLES_RELEASING(edmli_gles_argreduce)
EDMLI_GLES_RELEASING(edmli_gles_elementwise_if)

static edml_status edmli_gles_hook_batch_begin(void *state, edmli_errbuf *err)
{
    return edmli_gles_batch_begin((edmli_gles *)state, err);
}
static bool edmli_gles_hook_batch_takes(const void *state, const edml_operator *op)
{
    return edmli_gles_batch_takes((const edmli_gles *)state, op);
}
static edml_status edmli_gles_hook_batch_flush(void *state, edmli_batch_ticket *ticket)
{
    return edmli_gles_batch_flush((edmli_gles *)state, ticket);
}
static edml_status edmli_gles_hook_batch_complete(void *state, edmli_batch_ticket *ticket, uint64_t timeout_ns)
{
    return edmli_gles_batch_complete((edmli_gles *)state, ticket, timeout_ns);
}

const edmli_backend edmli_gles_backend = {
    .batch_begin = edmli_gles_hook_batch_begin,
    .batch_takes = edmli_gles_hook_batch_takes,
    .batch_flush = edmli_gles_hook_batch_flush,
    .batch_complete = edmli_gles_hook_batch_complete,
    .batch_clamped = edmli_gles_gather_clamped,
    .on_cpu = false,
    .plan = edmli_gles_plan_op,
    .bake = edmli_gles_bake_op,
    .wants = edmli_gles_wants,
    .state_bytes = edmli_gles_state_bytes,
    .open = edmli_gles_device_open,
    .close = edmli_gles_device_close,
    .info = edmli_gles_device_info,
    .release_thread = edmli_gles_release_thread,
    .buffers = &edmli_gles_buffers,
    .kernels =
        {
            [EDMLI_OP_TOPK] = edmli_gles_topk_released,
            [EDMLI_OP_GATHER_ND] = edmli_gles_gather_nd_released,
            [EDMLI_OP_ARGREDUCE] = edmli_gles_argreduce_released,
            [EDMLI_OP_ELEMENTWISE_IF] = edmli_gles_elementwise_if_released,
        },
};
