/* GPU buffers: the persistent low end of the GPU arena (staging for an
 * execution grows down from its top), their data and copies. */
#include "gles.h"

#include <string.h>

/* A buffer starts at a multiple of EDMLI_GLES_BUFFER_ALIGN of the arena, so
 * that a warp's 16-byte loads of it fill whole cache lines and DRAM bursts
 * (what an operator created before it keeps is any multiple of 16). */
static edml_status edmli_gles_buffer_reserve(edml_device *dev, void *state, uint64_t bytes, uint64_t *offset)
{
    edmli_gles *g = (edmli_gles *)state;
    const uint64_t pad = (EDMLI_GLES_BUFFER_ALIGN - g->persistent % EDMLI_GLES_BUFFER_ALIGN) % EDMLI_GLES_BUFFER_ALIGN;
    const uint64_t have = g->arena_bytes - g->persistent; /* the padding included */
    const uint64_t need = bytes > UINT64_MAX - 15 - pad ? UINT64_MAX : pad + ((bytes + 15) & ~(uint64_t)15);
    if (need > have) return edmli_gles_arena_short(g, &dev->err, "edml_gpu_buffer_create", need, have);
    *offset = g->persistent + pad;
    g->persistent += need;
    return EDML_STATUS_OK;
}

static uint64_t edmli_gles_buffer_mark(const void *state) { return ((const edmli_gles *)state)->persistent; }

static void edmli_gles_buffer_release_to(void *state, uint64_t mark) { ((edmli_gles *)state)->persistent = mark; }

/* After a GPU buffer's call: where it lost GLES (a reset, a failed proof),
 * GLES leaves the device as an execution's loss takes it off (every AUTO
 * operator says so at once). */
static edml_status edmli_gles_buffer_done(edml_device *dev, const edmli_gles *g, edml_status s)
{
    if (s && g->lost[0]) edmli_backend_lost(dev, EDML_BACKEND_GLES, g->lost);
    return s;
}

static edml_status edmli_gles_buffer_io(edml_device *dev, void *state, uint64_t offset, void *host, uint64_t bytes,
                                        bool write)
{
    edmli_gles *g = (edmli_gles *)state;
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s) {
        if (write) {
            edmli_gles_write(g, offset, host, bytes);
        } else {
            edmli_gles_fetch(&r, (uint32_t)offset, host, bytes);
        }
        s = edmli_gles_finish(&r);
    }
    edmli_gles_release(g);
    return edmli_gles_buffer_done(dev, g, s);
}

static edml_status edmli_gles_buffer_copy(edml_device *dev, void *state, uint64_t dst, uint64_t src, uint64_t bytes)
{
    edmli_gles *g = (edmli_gles *)state;
    char why[EDMLI_MESSAGE_BYTES / 2];
    const edmli_readiness ready =
        edmli_gles_ready(g, dev, 1u << EDMLI_GLES_PROG_COPY, true, EDMLI_GLES_CHECK_NOW, why, sizeof why);
    if (ready == EDMLI_SHORT) return edmli_fail(&dev->err, EDMLI_MSG_NOT_READY_SHORT, "gles", why);
    if (ready == EDMLI_MAPPED) return edmli_fail(&dev->err, EDMLI_MSG_NOT_READY_MAPPED, "gles", why);
    if (ready != EDMLI_READY) return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_FAILED, "gles", why);
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s && dst < src + bytes && src < dst + bytes && dst != src) {
        /* overlapping ranges (memmove): through the free top of the GPU arena,
         * as the invocations of one copy run in no particular order */
        uint32_t tmp;
        s = edmli_gles_alloc(&r, bytes, &tmp);
        if (!s) {
            edmli_gles_copy_dispatch(&r, tmp, src, bytes);
            edmli_gles_barrier(&r);
            src = tmp;
        }
    }
    if (!s) {
        edmli_gles_copy_dispatch(&r, dst, src, bytes);
        s = edmli_gles_finish(&r);
    }
    edmli_gles_release(g);
    return edmli_gles_buffer_done(dev, g, s);
}

/* A persistently mapped arena: the GPU's work done (a submitted list's
 * included), a pointer into the mapping. Else the range fetched into the
 * readback buffer as outputs are (gles_fetch.c: proven), and that mapping
 * kept for reading and writing; the unmap copies it back (gles.h: the
 * arena itself is never mapped). */
static edml_status edmli_gles_buffer_map(edml_device *dev, void *state, uint64_t offset, uint64_t bytes, void **data)
{
    edmli_gles *g = (edmli_gles *)state;
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s && g->arena_map) {
        s = edmli_gles_finish(&r);             /* a fence: what ran before is complete and visible */
        if (!s) *data = g->arena_map + offset; /* a failed fence hands out no view */
    } else if (!s) {
        edmli_gles_fetch(&r, (uint32_t)offset, NULL, bytes);
        s = edmli_gles_finish_view(&r, data);
        g->mapped_plain = !s;
        g->view_map = s ? NULL : (uint8_t *)*data;
        g->view_at = offset, g->view_bytes = bytes;
        if (s) *data = NULL;
    }
    edmli_gles_release(g);
    return edmli_gles_buffer_done(dev, g, s);
}

/* The copy back, proven: the view's last bytes (up to 16) as the caller
 * left them are first overwritten in the arena with their complement, and
 * fetched after the copy: a copy back that did not run shows the
 * complement. */
static edml_status edmli_gles_copy_back(edmli_gles_run *r, const uint8_t last[16], uint32_t n)
{
    edmli_gles *g = r->g;
    edmli_gl *gl = &g->port.gl;
    uint8_t poison[16], got[16];
    for (uint32_t i = 0; i < n; i++) poison[i] = (uint8_t)~last[i];
    const uint64_t end = g->view_at + g->view_bytes;
    edmli_gles_write(g, end - n, poison, n);
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->readback_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
    if (!edmli_gles_copy_dropped(r))
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, EDMLI_GLES_RESERVED_HEAD,
                                (intptr_t)g->view_at, (intptr_t)g->view_bytes);
    edmli_gles_fetch(r, (uint32_t)(end - n), got, n);
    edml_status s = edmli_gles_finish(r); /* a fence: the copy is in the arena when the call returns */
    if (s || !memcmp(got, last, n) || (g->faults & EDML_FAULT_UNCHECKED)) return s;
    return edmli_gles_disproved(r, "the copy of a mapped range back into its GPU buffer did not run (its last bytes "
                                   "are not those the view was left with)");
}

static edml_status edmli_gles_buffer_unmap(edml_device *dev, void *state)
{
    edmli_gles *g = (edmli_gles *)state;
    if (!g->mapped_plain) return EDML_STATUS_OK; /* a persistent mapping stays */
    g->mapped_plain = false;
    uint8_t last[16];
    const uint32_t n = g->view_bytes < 16 ? (uint32_t)g->view_bytes : 16u;
    memcpy(last, g->view_map + g->view_bytes - n, n);
    g->view_map = NULL;
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s) {
        edmli_gl *gl = &g->port.gl;
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->readback_buf);
        if (!gl->glUnmapBuffer(EDMLI_GL_COPY_READ_BUFFER))
            s = edmli_gles_fail(&r, "glUnmapBuffer: the mapped data was lost (the driver says it is undefined)");
        if (!s) s = edmli_gles_copy_back(&r, last, n);
    }
    edmli_gles_release(g);
    return edmli_gles_buffer_done(dev, g, s);
}

const edmli_buffer_hooks edmli_gles_buffers = {
    .map = edmli_gles_buffer_map,
    .unmap = edmli_gles_buffer_unmap,
    .reserve = edmli_gles_buffer_reserve,
    .mark = edmli_gles_buffer_mark,
    .release_to = edmli_gles_buffer_release_to,
    .io = edmli_gles_buffer_io,
    .copy = edmli_gles_buffer_copy,
};
