/* The caller's arena: persistent objects from the low end, scratch from the
 * high end, and the most ever used at once. */
#include "internal.h"

static void edmli_arena_note(edmli_arena *a)
{
    size_t used = a->head + a->scratch;
    if (used > a->high_water) a->high_water = used;
}

edml_status edmli_arena_alloc(edmli_arena *a, edmli_errbuf *e, const char *what, size_t bytes, void **out)
{
    size_t start = edmli_align_up(a->head, EDMLI_ALIGN);
    size_t avail = a->size - a->scratch;
    size_t have = start <= avail ? avail - start : 0;
    if (bytes > have) return edmli_fail(e, EDMLI_MSG_ARENA_TOO_SMALL, what, bytes, have, bytes - have);
    *out = a->base + start;
    a->head = start + bytes;
    edmli_arena_note(a);
    return EDML_STATUS_OK;
}

edml_status edmli_arena_scratch(edmli_arena *a, edmli_errbuf *e, const char *what, size_t bytes, void **out)
{
    /* scratch starts 16-aligned below the top of the arena */
    size_t top = a->size & ~(size_t)(EDMLI_ALIGN - 1);
    size_t rounded = edmli_align_up(bytes, EDMLI_ALIGN);
    size_t head = a->head;
    size_t have = top > head ? (top - head) & ~(size_t)(EDMLI_ALIGN - 1) : 0;
    if (rounded > have || rounded < bytes)
        return edmli_fail(e, EDMLI_MSG_ARENA_TOO_SMALL, what, bytes, have, bytes - have);
    a->scratch = a->size - (top - rounded);
    *out = a->base + (top - rounded);
    edmli_arena_note(a);
    return EDML_STATUS_OK;
}

void edmli_arena_release_scratch(edmli_arena *a) { a->scratch = 0; }
