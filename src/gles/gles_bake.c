/* Parameters baked at creation: an operator's parameter blocks (bindings
 * taken out: see shaders/params.h) are computed once, when it is created, by
 * running its dispatcher with every tensor bound at a 16-byte aligned and
 * at an unaligned offset (the two layouts its kernels choose between), and
 * uploaded into the GPU arena, with host copies after the operator in the
 * device arena. An execution finds each of its blocks among them and binds
 * its range: no parameter upload on the hot path. */
#include "gles.h"

#include <string.h>

/* Where a kernel run records its blocks instead of dispatching. */
struct edmli_gles_bake {
    edmli_gles_baked *into; /* NULL: sizing only */
    uint32_t count, copy_bytes;
    uint64_t gpu_bytes, gpu_base;
    uint32_t align;      /* of a block's GPU offset (a binding's) */
    uint64_t zero_bytes; /* the most zeros a run asked for */
    /* sizing: each block's hash and size, so that a block both runs make
     * (most are: the layouts differ only where a kernel has a 16-byte path)
     * is counted once, as baking keeps it once */
    uint32_t hash[EDMLI_GLES_BAKED_MAX], hash_bytes[EDMLI_GLES_BAKED_MAX];
    uint32_t copy_cap; /* baking: what sizing counted, never exceeded */
    uint64_t gpu_cap;
    uint32_t programs; /* the programs dispatched (bits of edmli_gles_prog) */
};

static const edmli_kernel_fn edmli_gles_kernel_of[EDMLI_OP_KIND_COUNT] = {
    [EDMLI_OP_TOPK] = edmli_gles_topk,
    [EDMLI_OP_GATHER_ND] = edmli_gles_gather_nd,
    [EDMLI_OP_ARGREDUCE] = edmli_gles_argreduce,
    [EDMLI_OP_ELEMENTWISE_IF] = edmli_gles_elementwise_if,
};

static const uint8_t *edmli_gles_copies(const edmli_gles_baked *b) { return (const uint8_t *)(b + 1); }

static int edmli_gles_baked_find(const edmli_gles_baked *b, const void *words, uint32_t bytes, uint32_t hint)
{
    for (uint32_t n = 0; n < b->count; n++) {
        const uint32_t i = (hint + n) % b->count; /* the next block of the bake's order first */
        const edmli_gles_block *k = &b->block[i];
        if (k->bytes == bytes && !memcmp(edmli_gles_copies(b) + k->copy_at, words, bytes)) return (int)i;
    }
    return -1;
}

static uint32_t edmli_gles_block_hash(const uint8_t *p, uint32_t bytes)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (uint32_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Sizing: whether an equal block was counted (equal hash and size: two
 * different blocks that collide are counted once, and baking then keeps
 * only what was counted; the other is uploaded by each execution). */
static bool edmli_gles_sized_before(edmli_gles_bake *k, const void *words, uint32_t bytes)
{
    const uint32_t h = edmli_gles_block_hash(words, bytes);
    for (uint32_t i = 0; i < k->count; i++)
        if (k->hash[i] == h && k->hash_bytes[i] == bytes) return true;
    if (k->count < EDMLI_GLES_BAKED_MAX) k->hash[k->count] = h, k->hash_bytes[k->count] = bytes;
    return false;
}

void edmli_gles_bake_record(edmli_gles_run *r, const void *words, uint32_t bytes)
{
    edmli_gles_bake *k = r->g->bake;
    if (k->into ? edmli_gles_baked_find(k->into, words, bytes, 0) >= 0 : edmli_gles_sized_before(k, words, bytes))
        return;
    const uint64_t gpu = ((uint64_t)bytes + k->align - 1) / k->align * k->align;
    if (k->count == EDMLI_GLES_BAKED_MAX) return; /* a later execution uploads it */
    if (k->into && (k->copy_bytes + bytes > k->copy_cap || k->gpu_bytes + gpu > k->gpu_cap)) return; /* as above */
    if (k->into) {
        edmli_gles_block *b = &k->into->block[k->into->count++];
        b->gpu_offset = (uint32_t)(k->gpu_base + k->gpu_bytes);
        b->bytes = bytes;
        b->copy_at = k->copy_bytes;
        memcpy((uint8_t *)(k->into + 1) + k->copy_bytes, words, bytes);
    }
    k->count++;
    k->copy_bytes += bytes;
    k->gpu_bytes += gpu;
}

void edmli_gles_bake_zeros(edmli_gles_run *r, uint64_t bytes)
{
    if (bytes > r->g->bake->zero_bytes) r->g->bake->zero_bytes = bytes;
}

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

void edmli_gles_bake_program(edmli_gles_run *r, edmli_gles_prog prog) { r->g->bake->programs |= 1u << prog; }

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

edmli_gles_baked *edmli_gles_baked_of(const edml_operator *op)
{
    if (!op->backend_bytes) return NULL;
    return (edmli_gles_baked *)(void *)((uint8_t *)(uintptr_t)op + edmli_align_up(sizeof *op, EDMLI_ALIGN));
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
        if (g->port.gl.glGetError() != EDMLI_GL_NO_ERROR) b->count = 0, b->zero_bytes = 0;
    }
    edmli_gles_release(g);
    return EDML_STATUS_OK;
}

bool edmli_gles_baked_at(const edmli_gles_run *r, const void *bytes, uint32_t n, uint32_t *offset)
{
    const int i = r->baked ? edmli_gles_baked_find(r->baked, bytes, n, 0) : -1;
    if (i >= 0) *offset = r->baked->block[i].gpu_offset;
    return i >= 0;
}

bool edmli_gles_find_baked(edmli_gles_run *r, const uint32_t *words, uint32_t bytes, uint32_t *offset,
                           const void **copy)
{
    if (!r->baked) return false;
    const int i = edmli_gles_baked_find(r->baked, words, bytes, r->next_block);
    if (i < 0) return false;
    *offset = r->baked->block[i].gpu_offset;
    *copy = edmli_gles_copies(r->baked) + r->baked->block[i].copy_at;
    r->next_block = (uint32_t)i + 1;
    return true;
}
