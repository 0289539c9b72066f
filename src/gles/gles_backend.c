/* The GLES backend as the core sees it: device state and the backend table. */
#include "gles.h"

#include <string.h>

extern const edmli_backend_ops edmli_gles_backend;
const edmli_backend_ops *const edmli_gles_backend_ptr = &edmli_gles_backend;

size_t edmli_gles_device_bytes(void) { return sizeof(edmli_gles); }

bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap)
{
    if (!edmli_gles_open((edmli_gles *)state, dev, dev->faults, why, cap)) return false;
    edmli_gles *g = (edmli_gles *)state;
    /* the context is made current for each call, on the calling thread, and
     * released after it unless one thread makes every call */
    g->one_thread = dev->gles_one_thread;
    g->current = false;
    g->port.eglMakeCurrent(g->port.display, NULL, NULL, NULL);
    return true;
}

void edmli_gles_device_close(edml_device *dev)
{
    if (dev->gles) edmli_gles_close((edmli_gles *)dev->gles);
    dev->gles = NULL;
}

bool edmli_gles_device_is_software(const edml_device *dev)
{
    const edmli_gles *g = (const edmli_gles *)dev->gles;
    return g && (strstr(g->renderer, "llvmpipe") || strstr(g->renderer, "softpipe") || strstr(g->renderer, "SwiftShader"));
}

const char *edmli_gles_device_info(const edml_device *dev, char *buf, size_t cap)
{
    const edmli_gles *g = (const edmli_gles *)dev->gles;
    if (!g) {
        edmli_format(buf, cap, "no GLES: %s", dev->gles_reason);
        return buf;
    }
    edmli_format(buf, cap, "GLES on %s (%s display, %s context), %u invocations a workgroup, %llu MiB GPU arena",
                 g->renderer, g->port.display_kind, g->port.context_kind, g->local,
                 (unsigned long long)(g->arena_bytes >> 20));
    return buf;
}

/* ---- GPU buffers: the persistent low end of the GPU arena ------------------ */

edml_status edmli_gles_buffer_reserve(edml_device *dev, uint64_t bytes, uint64_t *offset)
{
    edmli_gles *g = (edmli_gles *)dev->gles;
    uint64_t need = (bytes + 15) & ~(uint64_t)15;
    uint64_t have = g->arena_bytes - g->persistent;
    if (need > have || need < bytes) {
        uint64_t want = need < bytes ? bytes : need;   /* rounding up wrapped: the size asked for */
        return edmli_fail(&dev->err, EDMLI_MSG_GPU_ARENA_TOO_SMALL, "edml_gpu_buffer_create", (unsigned long long)want,
                          (unsigned long long)have, (unsigned long long)(want - have));
    }
    *offset = g->persistent;
    g->persistent += need;
    return EDML_STATUS_OK;
}

uint64_t edmli_gles_buffer_mark(const edml_device *dev)
{
    return dev->gles ? ((const edmli_gles *)dev->gles)->persistent : 0;
}

void edmli_gles_buffer_release_to(edml_device *dev, uint64_t mark)
{
    if (dev->gles) ((edmli_gles *)dev->gles)->persistent = mark;
}

edml_status edmli_gles_buffer_io(edml_device *dev, uint64_t offset, void *host, uint64_t bytes, bool write)
{
    edmli_gles *g = (edmli_gles *)dev->gles;
    if (!g) return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, g, &dev->err);
    if (!s) {
        if (write) {
            edmli_gl *gl = &g->port.gl;
            gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, g->arena_buf);
            gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, (intptr_t)offset, (intptr_t)bytes, host);
        }
        if (!write) edmli_gles_fetch(&r, (uint32_t)offset, host, bytes);
        s = edmli_gles_finish(&r);
    }
    edmli_gles_release(g);
    return s;
}

/* One copy dispatch of `bytes` (16-byte vectors where everything is 16-aligned). */
static void edmli_gles_copy_dispatch(edmli_gles_run *r, uint64_t dst, uint64_t src, uint64_t bytes)
{
    const bool vec = ((src | dst | bytes) & 15) == 0;
    r->words[0] = (uint32_t)src;
    r->words[1] = (uint32_t)dst;
    r->words[2] = vec;
    edmli_gles_dispatch(r, EDMLI_GLES_PROG_COPY, (uint32_t)(bytes / (vec ? 16 : 4)), false);
}

edml_status edmli_gles_buffer_copy(edml_device *dev, uint64_t dst, uint64_t src, uint64_t bytes)
{
    edmli_gles *g = (edmli_gles *)dev->gles;
    if (!g) return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
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
    return s;
}
