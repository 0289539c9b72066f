/* GPU buffers: the persistent low end of the GPU arena (staging for an
 * execution grows down from its top), their data and copies. */
#include "gles.h"

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
 * included), a pointer into the mapping. Else the range copied into the
 * readback buffer, which is mapped for reading and writing (GL's own wait
 * for the copy first); the unmap copies it back (gles.h: the arena itself
 * is never mapped). */
static edml_status edmli_gles_buffer_map(edml_device *dev, void *state, uint64_t offset, uint64_t bytes, void **data)
{
    edmli_gles *g = (edmli_gles *)state;
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s && g->arena_map) {
        s = edmli_gles_finish(&r);             /* a fence: what ran before is complete and visible */
        if (!s) *data = g->arena_map + offset; /* a failed fence hands out no view */
    } else if (!s && !edmli_gles_readback_room(g, bytes)) {
        s = edmli_gles_fail(&r, "the readback buffer cannot hold the mapped range (GL_OUT_OF_MEMORY)");
    } else if (!s) {
        edmli_gl *gl = &g->port.gl;
        gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->arena_buf);
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)offset, 0,
                                (intptr_t)bytes);
        *data = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, (intptr_t)bytes,
                                     EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_WRITE_BIT);
        if (!*data) s = edmli_gles_fail(&r, "glMapBufferRange of a GPU buffer's copy failed");
        g->mapped_plain = *data != NULL;
        g->view_at = offset, g->view_bytes = bytes;
    }
    edmli_gles_release(g);
    return edmli_gles_buffer_done(dev, g, s);
}

static edml_status edmli_gles_buffer_unmap(edml_device *dev, void *state)
{
    edmli_gles *g = (edmli_gles *)state;
    if (!g->mapped_plain) return EDML_STATUS_OK; /* a persistent mapping stays */
    g->mapped_plain = false;
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s) {
        edmli_gl *gl = &g->port.gl;
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->readback_buf);
        if (!gl->glUnmapBuffer(EDMLI_GL_COPY_READ_BUFFER))
            s = edmli_gles_fail(&r, "glUnmapBuffer: the mapped data was lost (the driver says it is undefined)");
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
        if (!s)
            gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, 0, (intptr_t)g->view_at,
                                    (intptr_t)g->view_bytes);
        if (!s) s = edmli_gles_finish(&r); /* a fence: the copy is in the arena when the call returns */
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
