/* The GLES backend as the core sees it: which operators it can run, with
 * how much GPU arena, which ones AUTO gives it, and its table. */
#include "gles.h"

#include <string.h>

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

/* The kernel path the plan runs: TopK's kernel, ArgMin's reduction by the
 * shape 16-byte aligned inputs take; one dispatch pattern for the others. */
static void edmli_gles_path(const edml_operator *op, edmli_cost_path *out)
{
    const edmli_gles_plan *plan = EDMLI_GLES_PLAN(op);
    out->parts = 1;
    if (op->kind == EDMLI_OP_TOPK) {
        out->path = plan->topk_small    ? EDMLI_COST_PATH_GLES_TOPK_SMALL
                    : plan->topk_chunks ? EDMLI_COST_PATH_GLES_TOPK_LISTS
                    : plan->topk_rank   ? EDMLI_COST_PATH_GLES_TOPK_RANK
                                        : EDMLI_COST_PATH_GLES_TOPK_SELECT;
    } else if (op->kind == EDMLI_OP_ARGREDUCE) {
        const edmli_gles_prog prog = plan->reduce[plan->reduce_vec_layout].prog;
        out->path = prog == EDMLI_GLES_PROG_ARGREDUCE_COLS ? EDMLI_COST_PATH_GLES_ARG_COLS
                    : prog == EDMLI_GLES_PROG_ARGREDUCE_PARTIAL || prog == EDMLI_GLES_PROG_ARGREDUCE_PARTIAL_VEC
                        ? EDMLI_COST_PATH_GLES_ARG_ALONG
                        : EDMLI_COST_PATH_GLES_ARG_STRIDED;
    } else {
        out->path = op->kind == EDMLI_OP_GATHER_ND ? EDMLI_COST_PATH_GLES_GATHER : EDMLI_COST_PATH_GLES_IF;
    }
}

/* The plan hook: the operator's plan derived, then its programs made
 * ready (built, and checked once on a known answer). AUTO does not wait
 * for programs the driver still builds in its threads: the operator is
 * placed here and its executions run on the CPU until they are ready. */
static const char *edmli_gles_plan_op(const edml_device *dev, edml_operator *op, char *buf, size_t cap)
{
    uint32_t programs = 0;
    const char *no = edmli_gles_derive(dev, op, &programs, true, buf, cap);
    if (no) return no;
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    edmli_gles_plan *plan = (edmli_gles_plan *)(void *)op->backend_plan;
    plan->programs = programs;
    const bool wait = op->requested != EDML_BACKEND_AUTO;
    /* a query checks them as a creation does, so that it says the backend
     * creation will choose */
    const edmli_readiness r = edmli_gles_ready(g, op->obj.device, programs, wait, EDMLI_GLES_CHECK_OR_DEFER, buf, cap);
    if (r == EDMLI_NEVER) return buf;
    plan->waiting = r == EDMLI_LATER || !edmli_gles_checked(g, programs);
    return op->requested == EDML_BACKEND_AUTO && edmli_gles_spilled(g, programs, buf, cap) ? buf : NULL;
}

/* The ready hook: an operator placed while its programs were still being
 * built (AUTO), or before their known-answer tests could run, asks again
 * before each execution until they are built and checked; it never runs
 * them before. */
static edmli_readiness edmli_gles_op_ready(edml_operator *op, bool wait, uint8_t *scratch, char *why, size_t cap)
{
    edmli_gles_plan *plan = (edmli_gles_plan *)(void *)op->backend_plan;
    if (!plan->waiting) return EDMLI_READY;
    edmli_gles *g = EDMLI_GLES_STATE(op);
    g->check_mem = scratch; /* temp_bytes of it: the most its kernels' tests take (edmli_gles_temp_bytes) */
    g->check_mem_bytes = op->temp_bytes;
    const edmli_readiness r = edmli_gles_ready(g, op->obj.device, plan->programs, wait, EDMLI_GLES_CHECK_NOW, why, cap);
    g->check_mem = NULL, g->check_mem_bytes = 0;
    if (r == EDMLI_READY && op->requested == EDML_BACKEND_AUTO && edmli_gles_spilled(g, plan->programs, why, cap))
        return EDMLI_NEVER;
    plan->waiting = r != EDMLI_READY; /* READY: every kernel it dispatches passed its tests */
    return r;
}

/* AUTO: the GPU for work above the board's thresholds (a submission costs
 * tens of microseconds and a trip through memory), which are measured on one
 * core: with W workers the CPU's side is up to W times faster, so the
 * thresholds are W times higher (TopK's row length is not: one row is
 * still one GPU workgroup's job). Never a software
 * rasterizer (Mesa's llvmpipe runs shaders on the CPU it would take from the
 * NEON kernels: measured slower on every workload) unless the board allows. */
static bool edmli_gles_barred(const edml_device *dev, char *why, size_t cap)
{
    const edmli_gles *g = (const edmli_gles *)dev->state[EDML_BACKEND_GLES];
    if (dev->board.gpu_software_ok || !edmli_gles_is_software(g)) return false;
    edmli_format(why, cap, "a software GPU (%s), which the board's gpu_software_ok keeps from work", g->renderer);
    return true;
}

static bool edmli_gles_wants(const edml_device *dev, const edml_operator *op, char *why, size_t cap)
{
    if (edmli_gles_barred(dev, why, cap)) return false;
    uint64_t n = 0;
    for (uint32_t i = 0; i < op->input_count; i++) n = op->inputs[i].elem_count > n ? op->inputs[i].elem_count : n;
    for (uint32_t o = 0; o < op->output_count; o++) n = op->outputs[o].elem_count > n ? op->outputs[o].elem_count : n;
    /* copy-like work moves every byte through the host<->GPU transfers */
    const bool copy_like =
        op->kind == EDMLI_OP_ELEMENTWISE_IF || (op->kind == EDMLI_OP_GATHER_ND && op->plan.gather_nd.slice_rank > 0);
    const uint64_t workers = op->workers ? op->workers : 1;
    const uint32_t min = copy_like ? dev->board.gpu_min_elements_copy : dev->board.gpu_min_elements;
    const bool big = n >= min * workers;
    edmli_format(why, cap, "%llu elements, %s the board's %s%u x %u workers", (unsigned long long)n,
                 big ? "at or above" : "under", copy_like ? "gpu_min_elements_copy " : "gpu_min_elements ",
                 (unsigned)min, (unsigned)workers);
    if (!big || op->kind != EDMLI_OP_TOPK || op->plan.topk.axis_size >= dev->board.gpu_topk_min_row) return big;
    edmli_format(why, cap, "TopK rows of %u, shorter than the board's gpu_topk_min_row %u",
                 (unsigned)op->plan.topk.axis_size, (unsigned)dev->board.gpu_topk_min_row);
    return false;
}

static uint32_t edmli_gles_identity(const void *state) { return ((const edmli_gles *)state)->identity; }

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

/* Scratch: the host memory its kernels' known-answer tests take at most,
 * whether they ran already or not, so that its size never changes (the
 * GPU's own staging is in the GPU arena). */
static uint64_t edmli_gles_temp_bytes(const edml_operator *op)
{
    return edmli_gles_check_bytes(EDMLI_GLES_STATE(op), op->obj.device, EDMLI_GLES_PLAN(op)->programs);
}

static void edmli_gles_cache_stats_hook(const void *state, edml_program_cache_stats *stats)
{
    edmli_gles_cache_stats((const edmli_gles *)state, stats);
}

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
    .path = edmli_gles_path,
    .temp_bytes = edmli_gles_temp_bytes,
    .ready = edmli_gles_op_ready,
    .bake = edmli_gles_bake_op,
    .wants = edmli_gles_wants,
    .barred = edmli_gles_barred,
    .identity = edmli_gles_identity,
    .state_bytes = edmli_gles_state_bytes,
    .open = edmli_gles_device_open,
    .close = edmli_gles_device_close,
    .info = edmli_gles_device_info,
    .release_thread = edmli_gles_release_thread,
    .cache_stats = edmli_gles_cache_stats_hook,
    .buffers = &edmli_gles_buffers,
    .kernels =
        {
            [EDMLI_OP_TOPK] = edmli_gles_topk_released,
            [EDMLI_OP_GATHER_ND] = edmli_gles_gather_nd_released,
            [EDMLI_OP_ARGREDUCE] = edmli_gles_argreduce_released,
            [EDMLI_OP_ELEMENTWISE_IF] = edmli_gles_elementwise_if_released,
        },
};
