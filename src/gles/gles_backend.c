/* The GLES backend as the core sees it: device state and the backend table. */
#include "gles.h"

extern const edmli_backend_ops edmli_gles_backend;
const edmli_backend_ops *const edmli_gles_backend_ptr = &edmli_gles_backend;

size_t edmli_gles_device_bytes(void) { return sizeof(edmli_gles); }

bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap)
{
    if (!edmli_gles_open((edmli_gles *)state, dev, dev->faults, why, cap)) return false;
    edmli_gles *g = (edmli_gles *)state;
    /* the context is made current for each submission, on the calling thread */
    g->port.eglMakeCurrent(g->port.display, NULL, NULL, NULL);
    return true;
}

void edmli_gles_device_close(edml_device *dev)
{
    if (dev->gles) edmli_gles_close((edmli_gles *)dev->gles);
    dev->gles = NULL;
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
