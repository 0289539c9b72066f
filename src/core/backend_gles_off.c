/* A build without the GLES backend (PORT=none): no GPU state, and the reason. */
#include "internal.h"

const edmli_backend_ops *const edmli_gles_backend_ptr = NULL;

size_t edmli_gles_device_bytes(void) { return 0; }

bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap)
{
    (void)dev;
    (void)state;
    edmli_format(why, cap, "this library was built without the GLES backend (PORT=none)");
    return false;
}

void edmli_gles_device_close(edml_device *dev) { (void)dev; }

const char *edmli_gles_device_info(const edml_device *dev, char *buf, size_t cap)
{
    edmli_format(buf, cap, "no GLES: %s", dev->gles_reason);
    return buf;
}

edml_status edmli_gles_buffer_reserve(edml_device *dev, uint64_t bytes, uint64_t *offset)
{
    (void)bytes;
    (void)offset;
    return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
}

uint64_t edmli_gles_buffer_mark(const edml_device *dev) { (void)dev; return 0; }
void edmli_gles_buffer_release_to(edml_device *dev, uint64_t mark) { (void)dev; (void)mark; }

edml_status edmli_gles_buffer_io(edml_device *dev, uint64_t offset, void *host, uint64_t bytes, bool write)
{
    (void)offset, (void)host, (void)bytes, (void)write;
    return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
}

edml_status edmli_gles_buffer_copy(edml_device *dev, uint64_t dst, uint64_t src, uint64_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
}

bool edmli_gles_device_is_software(const edml_device *dev) { (void)dev; return false; }
