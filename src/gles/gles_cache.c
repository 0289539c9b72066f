/* The program cache: programs as the driver's binaries
 * (GL_PROGRAM_BINARY_FORMATS), in memory the application gives
 * (edml_device_desc.program_cache) and keeps across boots, so that a
 * device's operators start without compiling. Laid out as a header, then
 * entries one after another, each 16-byte aligned:
 *   header: "edmlpc1", the key (the driver's renderer and version and
 *           edml's version, hashed), bytes used, entries
 *   entry:  program, the hash of its sources (prelude included: limits and
 *           shapes), binary format, binary bytes, spills, fills, then the
 *           binary
 * A cache of another key is emptied when a device opens it; a binary the
 * driver refuses is compiled from source instead. */
#include "gles.h"

#include <string.h>

typedef struct edmli_cache_head {
    char magic[8];
    uint32_t key, used, count, reserved[3];
} edmli_cache_head;

typedef struct edmli_cache_entry {
    uint32_t prog, src_hash, format, bytes;
    int32_t spills, fills;
    uint32_t reserved[2];
} edmli_cache_entry;

static const char edmli_cache_magic[8] = "edmlpc1";

static uint32_t edmli_cache_align(uint32_t v) { return (v + 15u) & ~15u; }

void edmli_gles_cache_open(edmli_gles *g, void *mem, size_t bytes)
{
    edmli_gl *gl = &g->port.gl;
    int formats = 0;
    g->cache = NULL, g->cache_bytes = 0;
    if (!mem || bytes < sizeof(edmli_cache_head) || !gl->glGetProgramBinary || !gl->glProgramBinary) return;
    gl->glGetIntegerv(EDMLI_GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    while (gl->glGetError() != EDMLI_GL_NO_ERROR) {}
    if (formats <= 0) return;
    const char *version = (const char *)gl->glGetString(EDMLI_GL_VERSION);
    g->cache_key = edmli_gles_hash(edmli_gles_hash(edmli_gles_hash(2166136261u, g->renderer), version ? version : ""),
                                   edml_version());
    g->cache = (uint8_t *)mem;
    g->cache_bytes = bytes > UINT32_MAX ? UINT32_MAX : bytes;
    edmli_cache_head h;
    memcpy(&h, mem, sizeof h);
    if (memcmp(h.magic, edmli_cache_magic, sizeof h.magic) || h.key != g->cache_key || h.used < sizeof h ||
        h.used > g->cache_bytes) {
        memset(&h, 0, sizeof h);
        memcpy(h.magic, edmli_cache_magic, sizeof h.magic);
        h.key = g->cache_key;
        h.used = (uint32_t)sizeof h;
        memcpy(mem, &h, sizeof h);
    }
}

/* The entry of program id with these sources, or NULL. */
static const uint8_t *edmli_cache_find(const edmli_gles *g, edmli_gles_prog id, uint32_t src_hash, edmli_cache_entry *e)
{
    edmli_cache_head h;
    memcpy(&h, g->cache, sizeof h);
    uint32_t at = (uint32_t)sizeof h;
    for (uint32_t i = 0; i < h.count && at <= h.used - sizeof *e; i++) {
        memcpy(e, g->cache + at, sizeof *e);
        const uint32_t next = at + (uint32_t)sizeof *e + edmli_cache_align(e->bytes);
        if (e->bytes > h.used || next > h.used) return NULL; /* damaged: the rest is not used */
        if (e->prog == (uint32_t)id && e->src_hash == src_hash) return g->cache + at + sizeof *e;
        at = next;
    }
    return NULL;
}

bool edmli_gles_cache_load(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash)
{
    edmli_cache_entry e;
    const uint8_t *bin = g->cache ? edmli_cache_find(g, id, src_hash, &e) : NULL;
    if (!bin) return false;
    edmli_gl *gl = &g->port.gl;
    unsigned prog = gl->glCreateProgram();
    gl->glProgramBinary(prog, e.format, bin, (int)e.bytes);
    int ok = 0;
    gl->glGetProgramiv(prog, EDMLI_GL_LINK_STATUS, &ok);
    while (gl->glGetError() != EDMLI_GL_NO_ERROR) {}
    if (!ok) { /* the driver's own reasons (an update it was not told of): from source */
        gl->glDeleteProgram(prog);
        return false;
    }
    g->prog[id] = prog;
    g->spills[id] = e.spills, g->fills[id] = e.fills;
    return true;
}

void edmli_gles_cache_keep(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash)
{
    if (!g->cache) return;
    edmli_gl *gl = &g->port.gl;
    edmli_cache_head h;
    memcpy(&h, g->cache, sizeof h);
    int len = 0;
    gl->glGetProgramiv(g->prog[id], EDMLI_GL_PROGRAM_BINARY_LENGTH, &len);
    const uint64_t room = g->cache_bytes - h.used;
    if (len <= 0 || sizeof(edmli_cache_entry) + edmli_cache_align((uint32_t)len) > room) {
        while (gl->glGetError() != EDMLI_GL_NO_ERROR) {}
        return; /* the cache is full: this program is compiled at each start */
    }
    edmli_cache_entry e = {(uint32_t)id, src_hash, 0, 0, g->spills[id], g->fills[id], {0, 0}};
    int got = 0;
    unsigned format = 0;
    gl->glGetProgramBinary(g->prog[id], len, &got, &format, g->cache + h.used + sizeof e);
    if (gl->glGetError() != EDMLI_GL_NO_ERROR || got <= 0 || got > len) return;
    e.format = format, e.bytes = (uint32_t)got;
    memcpy(g->cache + h.used, &e, sizeof e);
    h.used += (uint32_t)sizeof e + edmli_cache_align(e.bytes);
    h.count++;
    memcpy(g->cache, &h, sizeof h);
}

size_t edmli_gles_cache_used(const edmli_gles *g)
{
    if (!g->cache) return 0;
    edmli_cache_head h;
    memcpy(&h, g->cache, sizeof h);
    return h.used;
}

uint32_t edmli_gles_hash(uint32_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) h = (h ^ *p) * 16777619u; /* FNV-1a */
    return h;
}
