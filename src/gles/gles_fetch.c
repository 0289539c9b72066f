/* Fetches: what a submission hands back to the host, through the readback
 * buffer (the only buffer ever mapped), each byte of it proven this
 * submission's before the host is written.
 *
 * The readback buffer's layout, the same for every submission:
 *   [0, 16)   the proof head (gles.h), at a fixed place;
 *   [16, ..)  the copies, one after another: a copy's span (its bytes
 *             rounded up to 16, at least 16: the arena bytes after a fetch
 *             are read with it), then 16 bytes of stamp.
 * Queued before the fence, in this order: the head's serial (a new one each
 * submission) written where the head is kept; for each copy 32 bytes into
 * the readback buffer, a poison over the last 16 bytes of its span and the
 * stamp after them (both from the serial: written through the status
 * buffer's coherent mapping and copied from there, else uploaded); the
 * copies, which overwrite the poison; the head's copy last. After the fence, in one
 * mapping: the head's serial and count (a dropped head copy, or a mapping
 * stale at the head, shows an older serial wherever the call before put its
 * outputs), each copy's stamp (a mapping stale beside a fresh head shows
 * an older one), and no poison left (a copy dropped or cut short). Only
 * then is the host written. */
#include "gles.h"

#include <string.h>

#define EDMLI_GLES_STAMP 16u                  /* after each copy's span */
#define EDMLI_GLES_SEAL EDMLI_GLES_SEAL_BYTES /* poison and stamp, before each copy */

static uint64_t edmli_gles_span(uint64_t bytes) { return bytes < 16 ? 16 : (bytes + 15) & ~(uint64_t)15; }

/* The poison (words 0-3) and stamp (4-7) of copy k of the submission
 * numbered `serial`: a mix of both, so that no earlier submission's seal
 * and no small count equals it. */
static void edmli_gles_seal(uint32_t serial, uint32_t k, uint32_t w[8])
{
    uint32_t x = serial * 0x9E3779B1u ^ (k + 1u) * 0x85EBCA77u;
    for (uint32_t i = 0; i < 8; i++) {
        x ^= x >> 16;
        x *= 0x7FEB352Du;
        x ^= x >> 15;
        x *= 0x846CA68Bu;
        x ^= x >> 16;
        w[i] = x + i;
    }
}

/* The copies: one after another, one a fetch; or, where the fetches lie
 * close together in the arena (a batch's small outputs between its inputs,
 * an operator's outputs side by side), the one arena range that holds them
 * all. */
#define EDMLI_GLES_FETCH_GAP (256u << 10) /* the most bytes one copy carries that no fetch asked for */
typedef struct edmli_gles_layout {
    uint64_t base;  /* `one`: the range's start in the arena */
    uint64_t total; /* readback bytes, the head's included */
    bool one;
} edmli_gles_layout;

static void edmli_gles_layout_of(const edmli_gles_run *r, edmli_gles_layout *l)
{
    uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < r->nfetches; i++) {
        const edmli_gles_fetch_req *f = &r->fetches[i];
        sum += edmli_gles_span(f->bytes) + EDMLI_GLES_STAMP;
        lo = f->offset < lo ? f->offset : lo;
        hi = f->offset + edmli_gles_span(f->bytes) > hi ? f->offset + edmli_gles_span(f->bytes) : hi;
    }
    l->one = r->nfetches > 1 && hi - lo + EDMLI_GLES_STAMP <= sum + EDMLI_GLES_FETCH_GAP;
    l->base = lo;
    l->total = EDMLI_GLES_RESERVED_HEAD + (l->one ? hi - lo + EDMLI_GLES_STAMP : sum);
}

/* Copy k of the layout: its arena range [*from, *from + *span) and its place in the readback buffer. */
static uint64_t edmli_gles_copy_of(const edmli_gles_run *r, const edmli_gles_layout *l, uint32_t k, uint64_t *from,
                                   uint64_t *span)
{
    if (l->one) {
        *from = l->base;
        *span = l->total - EDMLI_GLES_RESERVED_HEAD - EDMLI_GLES_STAMP;
        return EDMLI_GLES_RESERVED_HEAD;
    }
    uint64_t at = EDMLI_GLES_RESERVED_HEAD;
    for (uint32_t i = 0; i < k; i++) at += edmli_gles_span(r->fetches[i].bytes) + EDMLI_GLES_STAMP;
    *from = r->fetches[k].offset;
    *span = edmli_gles_span(r->fetches[k].bytes);
    return at;
}

/* Where fetch i's bytes are in the readback buffer. */
static uint64_t edmli_gles_fetch_at(const edmli_gles_run *r, const edmli_gles_layout *l, uint32_t i)
{
    uint64_t from, span;
    const uint64_t at = edmli_gles_copy_of(r, l, l->one ? 0 : i, &from, &span);
    return at + (r->fetches[i].offset - from);
}

bool edmli_gles_readback_room(edmli_gles *g, uint64_t bytes)
{
    if (bytes <= g->readback_bytes) return true;
    edmli_gl *gl = &g->port.gl;
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
    g->readback_bytes = 0;
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)bytes, NULL, EDMLI_GL_STREAM_READ);
    if (edmli_gles_take_error(g) != EDMLI_GL_NO_ERROR) return false;
    g->readback_bytes = bytes;
    return true;
}

/* The status block's proof head: the status buffer's last bytes, else the arena's. */
static uint64_t edmli_gles_proof_head(const edmli_gles *g)
{
    return g->status_map ? EDMLI_GLES_STATUS_BYTES - EDMLI_GLES_RESERVED_HEAD
                         : g->arena_bytes + EDMLI_GLES_COUNTER_BYTES;
}

/* A new serial in the head (through the status buffer's coherent mapping,
 * else an upload into the arena's), before the head's copy. */
static void edmli_gles_stamp_head(edmli_gles_run *r)
{
    edmli_gles *g = r->g;
    r->serial = ++g->serial ? g->serial : ++g->serial;
    if (g->status_map) {
        g->status_map[edmli_gles_proof_head(g) / 4u + EDMLI_GLES_SERIAL_WORD] = r->serial;
        return;
    }
    g->port.gl.glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
    g->port.gl.glBufferSubData(EDMLI_GL_COPY_WRITE_BUFFER,
                               (intptr_t)(edmli_gles_proof_head(g) + 4u * EDMLI_GLES_SERIAL_WORD), 4, &r->serial);
}

bool edmli_gles_copy_dropped(edmli_gles_run *r)
{
    const bool first = r->copies++ == 0;
    return edmli_gles_struck(r->g, EDML_FAULT_STALE_READBACK) || edmli_gles_struck(r->g, EDML_FAULT_STALE_MAPPING) ||
           (first && edmli_gles_struck(r->g, EDML_FAULT_DROPPED_COPY));
}

/* Copy k's seal uploaded, then the copy (which overwrites its poison). */
static void edmli_gles_stage_copy(edmli_gles_run *r, uint32_t k, uint64_t from, uint64_t span, uint64_t at)
{
    edmli_gles *g = r->g;
    edmli_gl *gl = &g->port.gl;
    uint32_t seal[8];
    edmli_gles_seal(r->serial, k, seal);
    const bool stale =
        edmli_gles_struck(g, EDML_FAULT_STALE_MAPPING) || edmli_gles_struck(g, EDML_FAULT_STALE_READBACK);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
    if (!stale && g->status_map) { /* written through the status buffer's coherent mapping, copied on the GPU */
        const uint32_t from_seal = EDMLI_GLES_SEALS_AT + k * EDMLI_GLES_SEAL_BYTES;
        for (uint32_t i = 0; i < 8; i++) g->status_map[from_seal / 4u + i] = seal[i];
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->status_buf);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)from_seal,
                                (intptr_t)(at + span - 16u), EDMLI_GLES_SEAL);
    } else if (!stale) {
        gl->glBufferSubData(EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)(at + span - 16u), EDMLI_GLES_SEAL, seal);
    }
    if (edmli_gles_copy_dropped(r)) return;
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->arena_buf);
    gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)from, (intptr_t)at,
                            (intptr_t)span);
}

/* Queued before the fence (gl's barriers for the kernels' writes sent):
 * the head's serial, each copy sealed, then the head copied. Where nothing
 * is fetched and the status buffer is mapped, the head is read there
 * instead (no readback at all). */
edml_status edmli_gles_stage_fetches(edmli_gles_run *r)
{
    edmli_gles *g = r->g;
    edmli_gl *gl = &g->port.gl;
    edmli_gles_layout l;
    edmli_gles_layout_of(r, &l);
    if (!r->nfetches && g->status_map) return EDML_STATUS_OK;
    if (!edmli_gles_readback_room(g, l.total))
        return edmli_gles_fail(r, "the readback buffer cannot grow (GL_OUT_OF_MEMORY)");
    edmli_gles_stamp_head(r);
    const uint32_t copies = l.one ? 1u : r->nfetches;
    for (uint32_t k = 0; k < copies; k++) {
        uint64_t from, span;
        const uint64_t at = edmli_gles_copy_of(r, &l, k, &from, &span);
        edmli_gles_stage_copy(r, k, from, span, at);
    }
    if (edmli_gles_struck(g, EDML_FAULT_STALE_READBACK)) return EDML_STATUS_OK; /* the last bytes stay */
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->status_map ? g->status_buf : g->arena_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
    gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)edmli_gles_proof_head(g),
                            0, EDMLI_GLES_RESERVED_HEAD);
    return EDML_STATUS_OK;
}

/* Each copy's seal in the mapping: its stamp there, its poison gone. */
static edml_status edmli_gles_seals_check(edmli_gles_run *r, const edmli_gles_layout *l, const uint8_t *p)
{
    if (r->g->faults & EDML_FAULT_UNCHECKED) return EDML_STATUS_OK; /* a no-op shim's copies run nothing either */
    const uint32_t copies = l->one ? 1u : r->nfetches;
    for (uint32_t k = 0; k < copies; k++) {
        uint64_t from, span;
        const uint64_t at = edmli_gles_copy_of(r, l, k, &from, &span);
        uint32_t seal[8];
        edmli_gles_seal(r->serial, k, seal);
        const char *why = memcmp(p + at + span, seal + 4, 16) ? "its stamp is an earlier submission's: a stale mapping"
                          : !memcmp(p + at + span - 16, seal, 16) ? "its copy did not run (dropped or cut short)"
                                                                  : NULL;
        if (!why) continue;
        char what[EDMLI_GLES_WHY_BYTES];
        edmli_format(what, sizeof what, "the bytes read back (copy %u of %u, %llu bytes) are not this submission's: %s",
                     k + 1u, copies, (unsigned long long)span, why);
        return edmli_gles_disproved(r, what);
    }
    return EDML_STATUS_OK;
}

/* The mapping's checks: the head's serial and count, every seal. */
static edml_status edmli_gles_mapping_check(edmli_gles_run *r, const edmli_gles_layout *l, const uint8_t *p)
{
    uint32_t proof[EDMLI_GLES_RESERVED_HEAD / 4u];
    memcpy(proof, p, sizeof proof);
    edml_status s = edmli_gles_proof_check(r, proof);
    return s ? s : edmli_gles_seals_check(r, l, p);
}

/* After the fence: one mapping of exactly the bytes staged, every check
 * read there, and the host written only once all hold, so that a failure
 * writes nothing. With `view`, the mapping stays (read and write) and
 * *view is fetch 0's bytes in it. */
static edml_status edmli_gles_deliver(edmli_gles_run *r, void **view)
{
    edmli_gles *g = r->g;
    edmli_gl *gl = &g->port.gl;
    if (r->staged) /* worded again: a batch's staging wrote its message into the submission's buffer */
        return edmli_gles_fail(r, "the readback buffer cannot grow (GL_OUT_OF_MEMORY)");
    edmli_gles_layout l;
    edmli_gles_layout_of(r, &l);
    if (!r->nfetches && g->status_map) { /* nothing fetched: the status buffer's persistent mapping */
        uint32_t proof[EDMLI_GLES_RESERVED_HEAD / 4u];
        const volatile uint32_t *w = g->status_map + edmli_gles_proof_head(g) / 4u;
        for (uint32_t i = 0; i < EDMLI_GLES_RESERVED_HEAD / 4u; i++) proof[i] = w[i];
        return edmli_gles_proof_check(r, proof);
    }
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
    const unsigned access = EDMLI_GL_MAP_READ_BIT | (view ? EDMLI_GL_MAP_WRITE_BIT : 0u);
    uint8_t *p = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, (intptr_t)l.total, access);
    const bool fault = edmli_gles_faulted(g, EDML_FAULT_MAP);
    if (!p || fault) {
        if (p) gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
        return edmli_gles_fail(r, fault ? "glMapBufferRange failed (fault injected)" : "glMapBufferRange failed");
    }
    edml_status s = edmli_gles_mapping_check(r, &l, p);
    if (!s && view) {
        *view = p + edmli_gles_fetch_at(r, &l, 0);
        return EDML_STATUS_OK;
    }
    for (uint32_t i = 0; !s && i < r->nfetches; i++)
        memcpy(r->fetches[i].host, p + edmli_gles_fetch_at(r, &l, i), (size_t)r->fetches[i].bytes);
    if (!gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER) && !s)
        s = edmli_gles_fail(r, "glUnmapBuffer: the driver says the bytes read back (now in the outputs) were corrupted "
                               "while mapped");
    return s;
}

edml_status edmli_gles_deliver_fetches(edmli_gles_run *r) { return edmli_gles_deliver(r, NULL); }

edml_status edmli_gles_deliver_view(edmli_gles_run *r, void **view) { return edmli_gles_deliver(r, view); }

void edmli_gles_fetch(edmli_gles_run *r, uint32_t offset, void *host, uint64_t bytes)
{
    if (r->g->bake) { /* nothing ran: what the kernel reads back is zero */
        memset(host, 0, (size_t)bytes);
        return;
    }
    edmli_gles_fetch_req *f = &r->fetches[r->nfetches++];
    f->offset = offset;
    f->host = (uint8_t *)host;
    f->bytes = bytes;
}
