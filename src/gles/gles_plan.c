/* An operator's GLES plan: its kernels' shapes, the GPU arena it stages
 * through, the programs it dispatches. */
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

/* Derives the operator's plan (kernel shapes, staging) once, at creation;
 * or says why this GPU cannot run it: K above what TopK's kernel holds,
 * more staging than the GPU arena has free (with `fit`). */
const char *edmli_gles_derive(const edml_device *dev, edml_operator *op, uint32_t *programs, bool fit, char *buf,
                              size_t cap)
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
        plan->topk_lists = edmli_gles_topk_lists(op, g);
        plan->topk_chunks = plan->topk_lists ? edmli_gles_topk_chunks(op, g) : 0; /* else rank, select */
        plan->topk_small = edmli_gles_topk_is_small(op, g);
        plan->topk_rank = edmli_gles_topk_by_rank(op, plan);
        plan->topk_rows_per_group = edmli_gles_topk_rows_per_group(g, op->plan.topk.axis_size);
        if (edmli_gles_topk_watchdog(op, g, plan, buf, cap)) return buf;
    }
    if (op->kind == EDMLI_OP_ARGREDUCE) edmli_gles_plan_argreduce(op, g, plan);
    plan->stage_bytes = edmli_gles_stage_bytes(op, plan);
    *programs = edmli_gles_bake_size(op, g);
    const uint64_t have = g->arena_bytes - g->persistent,
                   need = edmli_add_sat(plan->stage_bytes, op->backend_gpu_bytes);
    if (fit && need > have) {
        edmli_format(buf, cap, "it needs %llu bytes of the GPU arena, %llu available: %llu missing (%s)",
                     (unsigned long long)need, (unsigned long long)have, (unsigned long long)(need - have),
                     g->arena_bound);
        op->declined_memory = true;
        return buf;
    }
    return NULL;
}
