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
