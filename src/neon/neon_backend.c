/* The NEON backend's table. */
#include "neon.h"

static uint64_t edmli_neon_temp_bytes(const edml_operator *op)
{
    if (op->kind == EDMLI_OP_TOPK) return edmli_neon_topk_temp_bytes(op);
    if (op->kind == EDMLI_OP_ARGREDUCE) return edmli_neon_argreduce_temp_bytes(op);
    if (op->kind == EDMLI_OP_GATHER_ND) return edmli_gather_temp_bytes(op);
    return 0;
}

/* The kernel path the plan takes, and its parts (the cost model's line). */
static void edmli_neon_path(const edml_operator *op, edmli_cost_path *out)
{
    static void (*const by_kind[EDMLI_OP_KIND_COUNT])(const edml_operator *, edmli_cost_path *) = {
        [EDMLI_OP_TOPK] = edmli_neon_topk_path,
        [EDMLI_OP_GATHER_ND] = edmli_neon_gather_nd_path,
        [EDMLI_OP_ARGREDUCE] = edmli_neon_argreduce_path,
        [EDMLI_OP_ELEMENTWISE_IF] = edmli_neon_elementwise_if_path,
    };
    out->path = EDMLI_COST_PATH_ANY, out->parts = 1;
    if (by_kind[op->kind]) by_kind[op->kind](op, out);
}

/* Only where the board description says the CPU has NEON. */
static bool edmli_neon_open(edml_device *dev, void *state, char *why, size_t cap)
{
    (void)state;
    if (dev->board.has_neon) return true;
    edmli_format(why, cap, "board %s says its CPU has no NEON (boards/%s/caps.h)", dev->board.name, dev->board.name);
    return false;
}

static const char *edmli_neon_info(const edml_device *dev, const void *state, char *buf, size_t cap)
{
    (void)state;
    edmli_format(buf, cap, "NEON on %s (%s FP16 arithmetic)", dev->board.cpu,
                 dev->board.has_fp16_arith ? "with" : "without");
    return buf;
}

const edmli_backend edmli_neon_backend = {
    .on_cpu = true,
    .open = edmli_neon_open,
    .info = edmli_neon_info,
    .kernels =
        {
            [EDMLI_OP_TOPK] = edmli_neon_topk,
            [EDMLI_OP_GATHER_ND] = edmli_neon_gather_nd,
            [EDMLI_OP_ARGREDUCE] = edmli_neon_argreduce,
            [EDMLI_OP_ELEMENTWISE_IF] = edmli_neon_elementwise_if,
        },
    .temp_bytes = edmli_neon_temp_bytes,
    .path = edmli_neon_path,
};
