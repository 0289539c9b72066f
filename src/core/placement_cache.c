/* The placement cache: measured placements in memory the application
 * gives (edml_device_desc.placement_cache) and keeps across boots, so that
 * an AUTO operator measured once is placed at once the next time. Laid out
 * as a header, then fixed-size entries:
 *   header: "edmlpl1", the board's key (its name and CPU), the GPU's (its
 *           driver's renderer and version), edml's version, entries, the
 *           claim of the device that holds it now
 *   entry:  the operator's key (its descriptor, the kind of bindings, the
 *           workers), the CPU's and the GPU's medians, the decision, the
 *           choice a close call kept (edmli_close), a checksum
 * The memory is the caller's, kept in flash or a file between boots: the
 * device trusts none of it. At creation every entry's checksum is checked
 * (a damaged one is dropped, those after it move down); a cache of another
 * board, or none, is emptied; one of another GPU driver or edml version
 * (an update under the firmware) keeps its decisions, each marked stale
 * (flags), the header taking the device's key: EDML_PLACEMENT_MEASURE
 * measures a stale decision again at its operator's first executions,
 * EDML_PLACEMENT_SAVED keeps it, and edml_operator_placement() says it is
 * stale, so that an update never turns decisions silently into the
 * thresholds' guesses. The device keeps
 * its own count of entries, and checks an entry's checksum again each time
 * it reads one. Entries are copied in and out (memcpy), so the memory may
 * have any alignment. Without a GPU on the device the memory is left as it
 * is. Two live devices given the same memory would write over each
 * other's entries: each device writes its own claim (a value of its own)
 * into the header when it takes the memory, and before every read or write
 * compares the header's with its own; the device created last holds the
 * memory, and one whose claim was overwritten lets go of it (said in its
 * log, `taken` in its stats), its decisions kept with its operators alone.
 * A claim saved with the bytes is overwritten by the next start's device:
 * a claim of a device that is gone keeps no one from the memory. */
#include "internal.h"
#include "edml_port.h"

#include <string.h>

typedef struct edmli_pc_head {
    char magic[8];
    uint32_t board, gpu, version, count;
    uint32_t claim, reserved;
} edmli_pc_head;

typedef struct edmli_pc_entry {
    uint64_t key;
    uint64_t ns[2];
    uint32_t gpu, close;
    uint32_t sum, flags;
} edmli_pc_entry;
#define EDMLI_PC_STALE 1u /* measured before a GPU driver or edml update */

static const char edmli_pc_magic[8] = "edmlpl1";
_Static_assert(sizeof(edmli_pc_head) == 32 && sizeof(edmli_pc_entry) == 40, "the sizes the log and docs give");

/* A string's bytes and its end, so that the name and the CPU keep apart. */
static uint32_t edmli_pc_fnv_str(uint32_t h, const char *s) { return edmli_fnv1a(edmli_fnv1a_str(h, s), "", 1); }

static uint32_t edmli_pc_sum(const edmli_pc_entry *e)
{
    edmli_pc_entry c = *e;
    c.sum = 0;
    return edmli_fnv1a(EDMLI_FNV1A_SEED, &c, sizeof c);
}

/* An entry as the device wrote it: its checksum, a decision of 0 or 1, an edmli_close. */
static bool edmli_pc_sound(const edmli_pc_entry *e)
{
    return e->sum == edmli_pc_sum(e) && e->gpu <= 1u && e->close <= EDMLI_CLOSE_MODEL && e->flags <= EDMLI_PC_STALE;
}

/* Entry i's bytes in the caller's memory (any alignment: copied, never
 * read through a struct pointer). */
static uint8_t *edmli_pc_at(const edmli_place_cache *c, uint32_t i)
{
    return c->mem + sizeof(edmli_pc_head) + (size_t)i * sizeof(edmli_pc_entry);
}

static void edmli_pc_load(const edmli_place_cache *c, uint32_t i, edmli_pc_entry *e)
{
    memcpy(e, edmli_pc_at(c, i), sizeof *e);
}

/* The entry count the device trusts, written back into the header. */
static void edmli_pc_set_count(edmli_place_cache *c, uint32_t n)
{
    c->count = n;
    memcpy(c->mem + offsetof(edmli_pc_head, count), &n, sizeof n);
    c->stats.decisions = n;
    c->stats.used = sizeof(edmli_pc_head) + (size_t)n * sizeof(edmli_pc_entry);
}

/* A notice to the device's log: a constant line (no buffer on the stack). */
static void edmli_pc_say(const edml_device *dev, const char *line)
{
    if (dev->err.log) dev->err.log(dev->err.log_user, EDML_STATUS_OK, line);
}

/* The device's claim on the memory: its address and the clock at its
 * creation, never 0. Written into the header when it takes the memory. */
static void edmli_pc_claim(edml_device *dev)
{
    edmli_place_cache *c = &dev->places;
    const uintptr_t at = (uintptr_t)dev;
    const uint64_t now = edmli_port_now_ns();
    c->claim = edmli_fnv1a(edmli_fnv1a(EDMLI_FNV1A_SEED, &at, sizeof at), &now, sizeof now) | 1u;
    memcpy(c->mem + offsetof(edmli_pc_head, claim), &c->claim, sizeof c->claim);
}

/* Whether the memory is still the device's: another device given it since
 * wrote its own claim, and this one lets go of it (once said). */
static bool edmli_pc_held(edml_device *dev)
{
    edmli_place_cache *c = &dev->places;
    uint32_t claim;
    if (!c->mem) return false;
    memcpy(&claim, c->mem + offsetof(edmli_pc_head, claim), sizeof claim);
    if (claim == c->claim) return true;
    c->mem = NULL;
    c->stats.taken = 1;
    edmli_pc_say(dev, "placement cache: let go: another device was given the same placement_cache memory and holds "
                      "it now (give each device memory of its own); this device's decisions stay with its operators");
    return false;
}

edml_status edmli_place_cache_check(const edml_device_desc *dd, const void *arena, size_t arena_size, edmli_errbuf *e)
{
    if (!dd->placement_cache || !dd->placement_cache_bytes) return EDML_STATUS_OK;
    const uintptr_t c = (uintptr_t)dd->placement_cache, a = (uintptr_t)arena, p = (uintptr_t)dd->program_cache;
    const size_t n = dd->placement_cache_bytes;
    if (n > UINTPTR_MAX - c) return edmli_fail(e, EDMLI_MSG_PLACE_CACHE_WRAPS, (unsigned long long)n);
    if (c < a + arena_size && a < c + n)
        return edmli_fail(e, EDMLI_MSG_PLACE_CACHE_IN_ARENA, (unsigned long long)n, (unsigned long long)arena_size);
    if (p && dd->program_cache_bytes && c < p + dd->program_cache_bytes && p < c + n)
        return edmli_fail(e, EDMLI_MSG_PLACE_CACHE_IN_PROGRAMS, (unsigned long long)n);
    return EDML_STATUS_OK;
}

uint32_t edmli_board_key(const edml_board *b)
{
    const char *name = b->name ? b->name : "", *cpu = b->cpu ? b->cpu : "";
    return edmli_pc_fnv_str(edmli_pc_fnv_str(EDMLI_FNV1A_SEED, name), cpu);
}

uint32_t edmli_gpu_key(const edml_device *dev)
{
    uint32_t gpu = 0;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if ((dev->backends & EDML_BACKEND_BIT(b)) && edmli_backends[b]->identity)
            gpu = edmli_backends[b]->identity(dev->state[b]);
    return gpu;
}

/* The device's key: its board, its GPU's driver, edml's version. */
static edmli_pc_head edmli_pc_key(const edml_device *dev, uint32_t gpu)
{
    edmli_pc_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, edmli_pc_magic, sizeof h.magic);
    h.board = edmli_board_key(&dev->board);
    h.gpu = gpu;
    h.version = EDML_VERSION;
    return h;
}

/* Why the memory's header is no cache of this board (it is emptied), or NULL. */
static const char *edmli_pc_other(const edmli_pc_head *got, const edmli_pc_head *want)
{
    if (memcmp(got->magic, want->magic, sizeof got->magic))
        return "placement cache: emptied: no placement cache there yet";
    if (got->board != want->board) return "placement cache: emptied: it was another board's";
    return NULL;
}

/* Why this board's cache was made before an update (its decisions are
 * kept, stale), or NULL. */
static const char *edmli_pc_outdated(const edmli_pc_head *got, const edmli_pc_head *want)
{
    if (got->gpu != want->gpu)
        return "placement cache: kept, stale: its decisions were measured on another GPU driver (renderer or "
               "version); EDML_PLACEMENT_MEASURE measures each again, EDML_PLACEMENT_SAVED keeps them";
    if (got->version != want->version)
        return "placement cache: kept, stale: its decisions were measured by another edml version; "
               "EDML_PLACEMENT_MEASURE measures each again, EDML_PLACEMENT_SAVED keeps them";
    return NULL;
}

/* Every entry marked stale (its checksum anew), the header the device's key. */
static void edmli_pc_mark_stale(edml_device *dev, const edmli_pc_head *want)
{
    edmli_place_cache *c = &dev->places;
    for (uint32_t i = 0; i < c->count; i++) {
        edmli_pc_entry e;
        edmli_pc_load(c, i, &e);
        e.flags |= EDMLI_PC_STALE;
        e.sum = edmli_pc_sum(&e);
        memcpy(edmli_pc_at(c, i), &e, sizeof e);
    }
    memcpy(c->mem + offsetof(edmli_pc_head, gpu), &want->gpu, sizeof want->gpu);
    memcpy(c->mem + offsetof(edmli_pc_head, version), &want->version, sizeof want->version);
    c->stats.stale = c->count;
}

/* Every entry's checksum at creation: the damaged dropped, the rest packed. */
static void edmli_pc_sweep(edml_device *dev, uint32_t count)
{
    edmli_place_cache *c = &dev->places;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        edmli_pc_entry e;
        edmli_pc_load(c, i, &e);
        if (!edmli_pc_sound(&e)) {
            c->stats.damaged++;
            continue;
        }
        if (kept != i) memcpy(edmli_pc_at(c, kept), &e, sizeof e);
        kept++;
    }
    if (kept != count) edmli_pc_say(dev, "placement cache: damaged entries dropped (a checksum did not match)");
    edmli_pc_set_count(c, kept);
}

void edmli_place_cache_open(edml_device *dev)
{
    edmli_place_cache *c = &dev->places;
    memset(c, 0, sizeof *c);
    const edml_device_desc *dd = &dev->desc;
    if (dd->placement_cache && dd->placement_cache_bytes < sizeof(edmli_pc_head) + sizeof(edmli_pc_entry)) {
        edmli_pc_say(dev, "placement cache: not used: placement_cache_bytes holds not even its 32-byte header and "
                          "one 40-byte decision");
        c->small = true;
        return;
    }
    if (!dd->placement_cache) return;
    const uint32_t gpu = edmli_gpu_key(dev);
    if (!gpu) {
        edmli_pc_say(dev, "placement cache: not used: no GPU on this device (the memory is left as it is)");
        return;
    }
    c->mem = (uint8_t *)dd->placement_cache;
    c->bytes = dd->placement_cache_bytes;
    const size_t cap = (c->bytes - sizeof(edmli_pc_head)) / sizeof(edmli_pc_entry);
    c->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    edmli_pc_head got, want = edmli_pc_key(dev, gpu);
    memcpy(&got, c->mem, sizeof got);
    const char *other = edmli_pc_other(&got, &want), *outdated = edmli_pc_outdated(&got, &want);
    if (other) {
        memcpy(c->mem, &want, sizeof want);
        c->stats.emptied = 1;
        edmli_pc_say(dev, other);
        edmli_pc_set_count(c, 0);
    } else {
        edmli_pc_sweep(dev, got.count < c->cap ? got.count : c->cap);
    }
    if (!other && outdated) edmli_pc_mark_stale(dev, &want), edmli_pc_say(dev, outdated);
    edmli_pc_claim(dev);
}

/* Entry i copied out, its checksum checked again (the memory is the
 * caller's); false: it was damaged and is dropped, the last entry moved
 * into its place. */
static bool edmli_pc_read(edml_device *dev, uint32_t i, edmli_pc_entry *e)
{
    edmli_place_cache *c = &dev->places;
    edmli_pc_load(c, i, e);
    if (edmli_pc_sound(e)) return true;
    c->stats.damaged++;
    edmli_pc_say(dev, "placement cache: a damaged entry dropped (its checksum changed after the device's creation)");
    if (i + 1u < c->count) memmove(edmli_pc_at(c, i), edmli_pc_at(c, c->count - 1u), sizeof *e);
    edmli_pc_set_count(c, c->count - 1u);
    return false;
}

/* The index of key's entry, or count. */
static uint32_t edmli_pc_find(edml_device *dev, uint64_t key, edmli_pc_entry *out)
{
    edmli_place_cache *c = &dev->places;
    for (uint32_t i = 0; i < c->count;) {
        if (!edmli_pc_read(dev, i, out)) continue; /* dropped: entry i is another one now */
        if (out->key == key) return i;
        i++;
    }
    return c->count;
}

bool edmli_place_cache_get(edml_device *dev, uint64_t key, edmli_place *p)
{
    edmli_pc_entry e;
    if (!edmli_pc_held(dev) || edmli_pc_find(dev, key, &e) == dev->places.count) return false;
    p->gpu = (uint8_t)e.gpu;
    p->close = (uint8_t)e.close;
    p->stale = (e.flags & EDMLI_PC_STALE) != 0;
    p->ns[0] = e.ns[0], p->ns[1] = e.ns[1];
    dev->places.stats.loaded++;
    return true;
}

void edmli_place_cache_put(edml_device *dev, uint64_t key, const edmli_place *p)
{
    edmli_place_cache *c = &dev->places;
    if (!c->mem) {
        c->stats.full += c->small; /* what EDML_PLACEMENT_CACHE_BYTES(full) would have held */
        return;
    }
    if (!edmli_pc_held(dev)) return;
    edmli_pc_entry e, old;
    memset(&e, 0, sizeof e);
    e.key = key;
    e.ns[0] = p->ns[0], e.ns[1] = p->ns[1];
    e.gpu = p->gpu, e.close = p->close;
    e.sum = edmli_pc_sum(&e);
    uint32_t i = edmli_pc_find(dev, key, &old);
    if (i == c->count && c->count == c->cap) {
        c->stats.full++;
        edmli_pc_say(dev, "placement cache: full: a decision was not kept (give it more bytes)");
        return;
    }
    memcpy(edmli_pc_at(c, i), &e, sizeof e);
    if (i == c->count) edmli_pc_set_count(c, c->count + 1u);
    c->stats.kept++;
}
