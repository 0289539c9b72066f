/* Devices: created at the start of the caller's arena. */
#include "internal.h"

#include <string.h>

size_t edml_device_size(void)
{
    return edmli_align_up(sizeof(struct edml_device), EDMLI_ALIGN) + edmli_align_up(edmli_gles_device_bytes(), EDMLI_ALIGN);
}

static uint32_t edmli_backends_built(const edml_board *board)
{
    uint32_t m = EDML_BACKEND_BIT(EDML_BACKEND_REF);
    if (edmli_neon_backend_ptr && board->has_neon) m |= EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    if (edmli_gles_backend_ptr) m |= EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    return m;
}

/* The GLES backend: probed now; any failure leaves the CPU backends, with
 * the reason logged and kept for edml_device_gles_info(). */
static void edmli_device_open_gles(edml_device *dev, uint32_t allowed)
{
    const uint32_t bit = EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    dev->backends &= ~bit;
    if (!edmli_gles_backend_ptr) {
        edmli_gles_device_open(dev, NULL, dev->gles_reason, sizeof dev->gles_reason);
        return;
    }
    if (!(allowed & bit)) {
        edmli_format(dev->gles_reason, sizeof dev->gles_reason, "edml_device_desc.backends does not allow it");
        return;
    }
    if (!dev->board.has_gpu) {
        edmli_format(dev->gles_reason, sizeof dev->gles_reason, "board %s has no GLES 3.1 GPU (boards/%s/caps.h)",
                     dev->board.name, dev->board.name);
        return;
    }
    void *state = dev->arena.base + edmli_align_up(sizeof(struct edml_device), EDMLI_ALIGN);
    if (!edmli_gles_device_open(dev, state, dev->gles_reason, sizeof dev->gles_reason)) {
        char msg[EDMLI_MESSAGE_BYTES];
        edmli_format(msg, sizeof msg, "GLES backend not available, operators run on the CPU: %s", dev->gles_reason);
        if (dev->err.log) dev->err.log(dev->err.log_user, EDML_STATUS_BACKEND_UNAVAILABLE, msg);
        return;
    }
    dev->gles = state;
    dev->backends |= bit;
}

const char *edml_device_gles_info(const edml_device *dev, char *buf, size_t cap)
{
    if (!buf || !cap) return "";
    if (!dev || dev->magic != EDMLI_DEVICE_MAGIC) {
        edmli_format(buf, cap, "not a device");
        return buf;
    }
    return edmli_gles_device_info(dev, buf, cap);
}

edml_status edml_device_create(const edml_device_desc *desc, void *arena, size_t arena_size,
                               edml_device **device)
{
    edml_device_desc dd = {0};
    if (desc) dd = *desc;
    edmli_errbuf tmp = {{0}, dd.log, dd.log_user};
    if (!device) return edmli_fail(&tmp, EDMLI_MSG_NULL_ARGUMENT, "device");
    *device = NULL;
    if (!arena) return edmli_fail(&tmp, EDMLI_MSG_NULL_ARGUMENT, "arena");
    if ((uintptr_t)arena % EDMLI_ALIGN) return edmli_fail(&tmp, EDMLI_MSG_ARENA_MISALIGNED);
    size_t need = edml_device_size();
    if (arena_size < need)
        return edmli_fail(&tmp, EDMLI_MSG_ARENA_TOO_SMALL, "edml_device_create", need, arena_size,
                          need - arena_size);

    const edml_board *board = dd.board ? dd.board : edml_board_builtin();
    uint32_t built = edmli_backends_built(board);
    uint32_t allowed = dd.backends ? dd.backends : 0xffffffffu;
    if ((allowed & built) == 0) return edmli_fail(&tmp, EDMLI_MSG_DEVICE_BACKENDS, dd.backends, built);

    edml_device *dev = (edml_device *)arena;
    memset(dev, 0, sizeof *dev);
    dev->magic = EDMLI_DEVICE_MAGIC;
    dev->board = *board;
    dev->backends = allowed & built;
    dev->gpu_arena_bytes = dd.gpu_arena_bytes ? dd.gpu_arena_bytes : (64u << 20);
    dev->err = tmp;
    dev->arena.base = (uint8_t *)arena;
    dev->arena.size = arena_size;
    dev->arena.head = need;
    dev->arena.high_water = need;
    dev->faults = dd.inject_faults;
    edmli_device_open_gles(dev, allowed);
    if (!dev->backends) { /* only GLES was allowed, and it did not start */
        dev->magic = 0;
        return edmli_fail(&tmp, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
    }
    *device = dev;
    return EDML_STATUS_OK;
}

edml_status edml_device_destroy(edml_device *dev)
{
    if (!dev) return EDML_STATUS_INVALID_ARGUMENT;
    if (dev->magic != EDMLI_DEVICE_MAGIC) return EDML_STATUS_INVALID_DEVICE;
    for (edml_operator *op = dev->last_op; op; op = op->prev) op->magic = 0;
    edmli_gles_device_close(dev);
    dev->magic = 0;
    return EDML_STATUS_OK;
}

const char *edml_device_last_error(const edml_device *dev)
{
    if (!dev) return "device is NULL";
    if (dev->magic != EDMLI_DEVICE_MAGIC) return "the device was destroyed or is not an edml device";
    return dev->err.text;
}

uint32_t edml_device_backends(const edml_device *dev)
{
    if (!dev || dev->magic != EDMLI_DEVICE_MAGIC) return 0;
    return dev->backends;
}

edml_status edml_device_arena_stats(const edml_device *dev, edml_arena_stats *stats)
{
    if (!dev || !stats) return EDML_STATUS_INVALID_ARGUMENT;
    if (dev->magic != EDMLI_DEVICE_MAGIC) return EDML_STATUS_INVALID_DEVICE;
    stats->size = dev->arena.size;
    stats->persistent = dev->arena.head;
    stats->high_water = dev->arena.high_water;
    return EDML_STATUS_OK;
}

const char *edml_backend_name(edml_backend b)
{
    switch (b) {
    case EDML_BACKEND_AUTO: return "auto";
    case EDML_BACKEND_REF: return "ref";
    case EDML_BACKEND_NEON: return "neon";
    case EDML_BACKEND_GLES: return "gles";
    default: return NULL;
    }
}

const edmli_backend_ops *edmli_backend_ops_for(edml_backend b)
{
    switch (b) {
    case EDML_BACKEND_REF: return &edmli_ref_backend;
    case EDML_BACKEND_NEON: return edmli_neon_backend_ptr;
    case EDML_BACKEND_GLES: return edmli_gles_backend_ptr;
    default: return NULL;
    }
}
