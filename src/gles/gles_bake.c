/* Parameters baked at creation: an operator's parameter blocks (bindings
 * taken out: see shaders/params.h) are computed once, when it is created, by
 * running its dispatcher with every tensor bound at a 16-byte aligned and
 * at an unaligned offset (the two layouts its kernels choose between), and
 * uploaded into the GPU arena, with host copies after the operator in the
 * device arena. An execution finds each of its blocks among them and binds
 * its range: no parameter upload on the hot path. */
#include "gles.h"

#include <string.h>

/* Runs the operator's dispatcher twice, recording its blocks. */
static edml_status edmli_gles_bake_runs(const edml_operator *op, edmli_gles_bake *k)
{
    edmli_gles *g = EDMLI_GLES_STATE(op);
    const edmli_kernel_fn fn = edmli_gles_kernel_of[op->kind];
    edmli_errbuf err = {{0}, NULL, NULL};
    edml_status s = EDML_STATUS_OK;
    for (uint64_t at = 0; at <= 4 && !s; at += 4) {
        edmli_exec ex = {.err = &err};
        for (uint32_t i = 0; i < EDMLI_MAX_INPUTS; i++) ex.in_gpu[i] = at;
        for (uint32_t o = 0; o < EDMLI_MAX_OUTPUTS; o++) ex.out_gpu[o] = at;
        g->bake = k;
        s = fn ? fn(op, &ex) : EDML_STATUS_OK;
        g->bake = NULL;
    }
    return s;
}

uint32_t edmli_gles_bake_size(edml_operator *op, const edmli_gles *g)
{
    edmli_gles_bake k = {.align = g->param_align};
    op->backend_bytes = 0;
    op->backend_gpu_bytes = 0;
    if (edmli_gles_bake_runs(op, &k)) return 0;
    if (!k.count) return k.programs;
    op->backend_bytes = (uint32_t)(sizeof(edmli_gles_baked) + k.copy_bytes);
    /* room to align the first block; the zeros after the blocks */
    op->backend_gpu_bytes = k.gpu_bytes + g->param_align + 16 + edmli_align16(k.zero_bytes);
    return k.programs;
}

/* The bake hook: GPU-arena room from the persistent end, the blocks, their upload. */
edml_status edmli_gles_bake_op(edml_device *dev, edml_operator *op)
{
    edmli_gles *g = EDMLI_GLES_STATE(op);
    edmli_gles_baked *b = edmli_gles_baked_of(op);
    if (!b) return EDML_STATUS_OK;
    const uint64_t have = g->arena_bytes - g->persistent;
    if (op->backend_gpu_bytes > have)
        return edmli_gles_arena_short(g, &dev->err, "parameters of edml_operator_create", op->backend_gpu_bytes, have);
    memset(b, 0, sizeof *b);
    edmli_gles_bake sized = {.align = g->param_align}; /* the caps: what edmli_gles_bake_size counted */
    (void)edmli_gles_bake_runs(op, &sized);
    edmli_gles_bake k = {.into = b, .align = g->param_align, .copy_cap = sized.copy_bytes, .gpu_cap = sized.gpu_bytes};
    k.gpu_base = (g->persistent + g->param_align - 1) / g->param_align * g->param_align;
    g->persistent += op->backend_gpu_bytes;
    /* no fence: GL runs the uploads before any later dispatch. A failure
     * leaves the blocks unbaked: executions then upload them, and meet the
     * failure themselves (their fallback to the CPU, their message). */
    edmli_gles_run r;
    edmli_errbuf err = {{0}, NULL, NULL};
    if (edmli_gles_bake_runs(op, &k) || edmli_gles_begin(&r, g, &err)) {
        b->count = 0;
    } else {
        b->zero_offset = (uint32_t)edmli_align16(k.gpu_base + k.gpu_bytes);
        b->zero_bytes = (uint32_t)k.zero_bytes;
        for (uint32_t i = 0; i < b->count; i++)
            edmli_gles_write(g, b->block[i].gpu_offset, edmli_gles_copies(b) + b->block[i].copy_at, b->block[i].bytes);
        edmli_gles_write_zeros(g, b->zero_offset, b->zero_bytes);
        if (edmli_gles_take_error(g) != EDMLI_GL_NO_ERROR) b->count = 0, b->zero_bytes = 0;
    }
    edmli_gles_release(g);
    return EDML_STATUS_OK;
}
