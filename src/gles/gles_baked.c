/* An operator's baked parameter blocks as a run sees them: recorded while
 * its dispatcher runs for the bake (gles_bake.c), found and bound by its
 * executions. Below the runs (gles_run.c), which call it. */
#include "gles.h"

#include <string.h>

const uint8_t *edmli_gles_copies(const edmli_gles_baked *b) { return (const uint8_t *)(b + 1); }

static int edmli_gles_baked_find(const edmli_gles_baked *b, const void *words, uint32_t bytes, uint32_t hint)
{
    for (uint32_t n = 0; n < b->count; n++) {
        const uint32_t i = (hint + n) % b->count; /* the next block of the bake's order first */
        const edmli_gles_block *k = &b->block[i];
        if (k->bytes == bytes && !memcmp(edmli_gles_copies(b) + k->copy_at, words, bytes)) return (int)i;
    }
    return -1;
}

/* Sizing: whether an equal block was counted (equal hash and size: two
 * different blocks that collide are counted once, and baking then keeps
 * only what was counted; the other is uploaded by each execution). */
static bool edmli_gles_sized_before(edmli_gles_bake *k, const void *words, uint32_t bytes)
{
    const uint32_t h = edmli_fnv1a(EDMLI_FNV1A_SEED, words, bytes);
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

void edmli_gles_bake_program(edmli_gles_run *r, edmli_gles_prog prog) { r->g->bake->programs |= 1u << prog; }

edmli_gles_baked *edmli_gles_baked_of(const edml_operator *op)
{
    if (!op->backend_bytes) return NULL;
    return (edmli_gles_baked *)(void *)((uint8_t *)(uintptr_t)op + edmli_align_up(sizeof *op, EDMLI_ALIGN));
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
