/* The program cache: programs as the driver's binaries
 * (GL_PROGRAM_BINARY_FORMATS), in memory the application gives
 * (edml_device_desc.program_cache) and keeps across boots, so that a
 * device's operators start without compiling. Laid out as a header, then
 * entries one after another, each 16-byte aligned:
 *   header: "edmlpc2", the key (the driver's renderer and version and
 *           edml's version, hashed), bytes used, entries, the claim of
 *           the device that holds it now
 *   entry:  program, the hash of its sources (prelude included: limits and
 *           shapes), binary format, binary bytes, spills, fills, a checksum
 *           of the entry and its binary, then the binary
 * The memory is the caller's, kept in flash or a file between boots: the
 * device trusts none of it. At creation every entry is checked (its size
 * within the bytes used, its checksum): a damaged one is dropped and the
 * entries after it move down; a cache of another key, or no cache, is
 * emptied. The device keeps its own count of bytes used and entries, so
 * that memory changed under it never leads a read or write past
 * program_cache_bytes; an entry's checksum is checked again before the
 * driver sees its binary. A binary the driver refuses (an update it was not
 * told of) is removed, and the program compiled and kept anew, so the next
 * boot loads it. Memory given to two live devices is held by the one
 * created last, as the placement cache is: each writes its own claim at
 * creation, and one that finds another's there lets go of the memory (said
 * in its log, `taken` in its stats) and compiles what it still needs,
 * writing nothing over the other's programs. What happened goes to the log
 * and edml_device_program_cache_stats(). */
#include "gles.h"

#include <string.h>

typedef struct edmli_cache_head {
    char magic[8];
    uint32_t key, used, count, claim, reserved[2];
} edmli_cache_head;
_Static_assert(sizeof(edmli_cache_head) == 32, "the size the log gives");

typedef struct edmli_cache_entry {
    uint32_t prog, src_hash, format, bytes;
    int32_t spills, fills;
    uint32_t sum, reserved;
} edmli_cache_entry;

static const char edmli_cache_magic[8] = "edmlpc2";

static uint32_t edmli_cache_align(uint32_t v) { return (v + 15u) & ~15u; }

/* A line to the device's log (status OK: a notice). */
static void edmli_cache_say(const edmli_gles *g, const char *what, const char *detail)
{
    if (!g->log) return;
    char line[EDMLI_MESSAGE_BYTES];
    edmli_format(line, sizeof line, "gles: program cache: %s%s", what, detail);
    g->log(g->log_user, EDML_STATUS_OK, line);
}

/* The checksum of an entry (its sum field aside) and its binary. */
static uint32_t edmli_cache_sum(const edmli_cache_entry *e, const uint8_t *bin)
{
    edmli_cache_entry head = *e;
    head.sum = 0;
    return edmli_fnv1a(edmli_fnv1a(EDMLI_FNV1A_SEED, &head, sizeof head), bin, e->bytes);
}

/* The header as the device counts it, written for the next boot. */
static void edmli_cache_write_head(const edmli_gles *g)
{
    edmli_cache_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, edmli_cache_magic, sizeof h.magic);
    h.key = g->cache_key;
    h.used = g->cache_used;
    h.count = g->cache_count;
    h.claim = g->cache_claim;
    memcpy(g->cache, &h, sizeof h);
}

/* The device's claim: its state's address and the clock when it took the
 * memory, never 0. */
static void edmli_cache_claim(edmli_gles *g)
{
    const uintptr_t at = (uintptr_t)g;
    const uint64_t now = edmli_port_now_ns();
    g->cache_claim = edmli_fnv1a(edmli_fnv1a(EDMLI_FNV1A_SEED, &at, sizeof at), &now, sizeof now) | 1u;
}

/* Whether the memory is still the device's: another device given it since
 * wrote its own claim, and this one lets go of it (once said). */
static bool edmli_cache_held(edmli_gles *g)
{
    if (!g->cache) return false;
    edmli_cache_head h;
    memcpy(&h, g->cache, sizeof h);
    if (h.claim == g->cache_claim) return true;
    g->cache = NULL;
    g->cache_stats.taken = 1;
    edmli_cache_say(g,
                    "let go: another device was given the same program_cache memory and holds it now (give "
                    "each device memory of its own); this device compiles what it has not loaded",
                    "");
    return false;
}

/* The entry at `at` (within the bytes used), its binary's end in *next;
 * false where it runs past them or its checksum does not match. */
static bool edmli_cache_entry_at(const edmli_gles *g, uint32_t at, edmli_cache_entry *e, uint32_t *next)
{
    *next = 0;
    if (at > g->cache_used || g->cache_used - at < sizeof *e) return false;
    memcpy(e, g->cache + at, sizeof *e);
    const uint32_t room = g->cache_used - at - (uint32_t)sizeof *e;
    if (e->bytes > room || edmli_cache_align(e->bytes) > room || e->prog >= EDMLI_GLES_PROG_COUNT) return false;
    *next = at + (uint32_t)sizeof *e + edmli_cache_align(e->bytes);
    return edmli_cache_sum(e, g->cache + at + sizeof *e) == e->sum;
}

/* Entry bytes [at, next) removed, those after it moved down. */
static void edmli_cache_remove(edmli_gles *g, uint32_t at, uint32_t next)
{
    memmove(g->cache + at, g->cache + next, g->cache_used - next);
    g->cache_used -= next - at;
    g->cache_count--;
    edmli_cache_write_head(g);
}

/* Every entry checked, as many as the header says: a damaged one is
 * dropped (with all after it where its size cannot be trusted). */
static void edmli_cache_check_all(edmli_gles *g, uint32_t count)
{
    uint32_t at = (uint32_t)sizeof(edmli_cache_head);
    edmli_cache_entry e;
    g->cache_count = count;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t next = 0;
        if (edmli_cache_entry_at(g, at, &e, &next)) {
            at = next;
        } else if (next) { /* its size fits: it alone goes */
            edmli_cache_remove(g, at, next);
            g->cache_stats.damaged++;
        } else { /* the rest cannot be walked */
            g->cache_stats.damaged += count - i;
            g->cache_used = at;
            g->cache_count -= count - i;
            break;
        }
    }
    g->cache_used = at;
    edmli_cache_write_head(g);
    if (g->cache_stats.damaged)
        edmli_cache_say(g, "damaged entries dropped (a checksum or size that did not match)", "");
}

void edmli_gles_cache_open(edmli_gles *g, void *mem, size_t bytes)
{
    edmli_gl *gl = &g->port.gl;
    int formats = 0;
    g->cache = NULL, g->cache_bytes = 0;
    if (mem && bytes < sizeof(edmli_cache_head)) { /* given, but not even its header fits: said, not silent */
        edmli_cache_say(g, "not used: program_cache_bytes is smaller than its 32-byte header", "");
        g->cache_small = gl->glGetProgramBinary != NULL;
        return;
    }
    if (!mem || !gl->glGetProgramBinary || !gl->glProgramBinary) return;
    gl->glGetIntegerv(EDMLI_GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    edmli_gles_take_error(g);
    if (formats <= 0) {
        edmli_cache_say(g, "not used: the driver gives no program binaries", "");
        return;
    }
    const char *version = (const char *)gl->glGetString(EDMLI_GL_VERSION);
    g->cache_key = edmli_fnv1a_str(
        edmli_fnv1a_str(edmli_fnv1a_str(EDMLI_FNV1A_SEED, g->renderer), version ? version : ""), edml_version());
    g->cache = (uint8_t *)mem;
    g->cache_bytes = bytes > UINT32_MAX ? UINT32_MAX : bytes;
    edmli_cache_claim(g);
    edmli_cache_head h;
    memcpy(&h, mem, sizeof h);
    const bool ours = !memcmp(h.magic, edmli_cache_magic, sizeof h.magic) && h.key == g->cache_key;
    if (!ours || h.used < sizeof h || h.used > g->cache_bytes) {
        g->cache_stats.emptied = 1;
        edmli_cache_say(g, "emptied: ",
                        ours ? "its header was damaged"
                             : "not a cache of this driver, renderer and edml version (or none yet)");
        g->cache_used = (uint32_t)sizeof h;
        g->cache_count = 0;
        edmli_cache_write_head(g);
        return;
    }
    g->cache_used = h.used;
    edmli_cache_check_all(g, h.count);
}

/* The entry of program id with these sources: its offset (0: none). */
static uint32_t edmli_cache_find(const edmli_gles *g, edmli_gles_prog id, uint32_t src_hash, edmli_cache_entry *e,
                                 uint32_t *next)
{
    uint32_t at = (uint32_t)sizeof(edmli_cache_head);
    for (uint32_t i = 0; i < g->cache_count; i++, at = *next) {
        if (!edmli_cache_entry_at(g, at, e, next)) return *next ? at : 0; /* damaged since creation */
        if (e->prog == (uint32_t)id && e->src_hash == src_hash) return at;
    }
    return 0;
}

bool edmli_gles_cache_load(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash)
{
    if (!edmli_cache_held(g)) return false;
    edmli_cache_entry e;
    uint32_t next = 0;
    const uint32_t at = edmli_cache_find(g, id, src_hash, &e, &next);
    if (!at) return false;
    char name[64];
    edmli_format(name, sizeof name, "kernel %s", edmli_gles_src_name[id]);
    if (edmli_cache_sum(&e, g->cache + at + sizeof e) != e.sum) { /* changed in the caller's memory */
        edmli_cache_remove(g, at, next);
        g->cache_stats.damaged++;
        edmli_cache_say(g, "damaged entry dropped: ", name);
        return false;
    }
    edmli_gl *gl = &g->port.gl;
    unsigned prog = gl->glCreateProgram();
    gl->glProgramBinary(prog, e.format, g->cache + at + sizeof e, (int)e.bytes);
    int ok = 0;
    gl->glGetProgramiv(prog, EDMLI_GL_LINK_STATUS, &ok);
    edmli_gles_take_error(g);
    if (!ok) { /* the driver's own reasons (an update it was not told of): removed, compiled, kept anew */
        gl->glDeleteProgram(prog);
        edmli_cache_remove(g, at, next);
        g->cache_stats.refused++;
        edmli_cache_say(g, "the driver refused a binary (compiled from source and kept anew): ", name);
        return false;
    }
    g->prog[id] = prog;
    g->spills[id] = e.spills, g->fills[id] = e.fills;
    g->cache_stats.loaded++;
    return true;
}

void edmli_gles_cache_keep(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash)
{
    const bool let_go = g->cache && !edmli_cache_held(g);
    if (!g->cache && !g->cache_small && !let_go) return;
    g->cache_stats.compiled++;
    if (let_go) return;
    edmli_gl *gl = &g->port.gl;
    int len = 0;
    gl->glGetProgramiv(g->prog[id], EDMLI_GL_PROGRAM_BINARY_LENGTH, &len);
    const uint64_t room = g->cache ? g->cache_bytes - g->cache_used : 0,
                   need = sizeof(edmli_cache_entry) + (len > 0 ? edmli_cache_align((uint32_t)len) : 0u);
    if (len <= 0 || need > room) {
        edmli_gles_take_error(g);
        if (len <= 0) return;
        g->cache_stats.full++;
        g->cache_short += need;
        if (!g->cache) return; /* said once, at creation */
        char what[96];
        edmli_format(what, sizeof what, "kernel %s (%llu bytes; %llu free)", edmli_gles_src_name[id],
                     (unsigned long long)need, (unsigned long long)room);
        edmli_cache_say(g, "full, not kept (compiled at each start): ", what);
        return;
    }
    edmli_cache_entry e = {(uint32_t)id, src_hash, 0, 0, g->spills[id], g->fills[id], 0, 0};
    int got = 0;
    unsigned format = 0;
    uint8_t *bin = g->cache + g->cache_used + sizeof e;
    gl->glGetProgramBinary(g->prog[id], len, &got, &format, bin);
    if (edmli_gles_take_error(g) != EDMLI_GL_NO_ERROR || got <= 0 || got > len) return;
    e.format = format, e.bytes = (uint32_t)got;
    e.sum = edmli_cache_sum(&e, bin);
    memcpy(g->cache + g->cache_used, &e, sizeof e);
    g->cache_used += (uint32_t)sizeof e + edmli_cache_align(e.bytes);
    g->cache_count++;
    g->cache_stats.kept++;
    edmli_cache_write_head(g);
}

void edmli_gles_cache_stats(const edmli_gles *g, edml_program_cache_stats *stats)
{
    *stats = g->cache_stats;
    stats->used = g->cache ? g->cache_used : 0;
    const uint64_t base = g->cache ? g->cache_used : sizeof(edmli_cache_head);
    stats->needed = g->cache || g->cache_small ? (size_t)(base + g->cache_short) : 0;
}
