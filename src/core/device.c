/* Devices: created at the start of the caller's arena. */
#include "internal.h"

#include <stddef.h>
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
    dev->gles_one_thread = dd.gles_one_thread != 0;
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
    for (edmli_object *o = dev->last_obj; o; o = o->prev) {
        if (o->is_gpu_buffer) ((edml_gpu_buffer *)((uint8_t *)o - offsetof(edml_gpu_buffer, obj)))->magic = 0;
        else ((edml_operator *)((uint8_t *)o - offsetof(edml_operator, obj)))->magic = 0;
    }
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

void edmli_object_push(edml_device *dev, edmli_object *o, size_t mark)
{
    o->prev = dev->last_obj;
    o->arena_mark = mark;
    o->destroyed = false;
    dev->last_obj = o;
}

void edmli_object_release(edml_device *dev, edmli_object *o)
{
    o->destroyed = true;
    while (dev->last_obj && dev->last_obj->destroyed) {
        edmli_object *top = dev->last_obj;
        dev->arena.head = top->arena_mark;
        if (top->is_gpu_buffer) edmli_gles_buffer_release_to(dev, top->gpu_mark);
        dev->last_obj = top->prev;
    }
}

/* ---- GPU buffers ------------------------------------------------------------ */

static edml_status edmli_check_gpu_buffer(const edml_gpu_buffer *b)
{
    if (!b) return EDML_STATUS_INVALID_ARGUMENT;
    if (b->magic != EDMLI_GPU_BUFFER_MAGIC || b->obj.destroyed || !b->device || b->device->magic != EDMLI_DEVICE_MAGIC)
        return EDML_STATUS_INVALID_DEVICE;
    return EDML_STATUS_OK;
}

edml_status edml_gpu_buffer_create(edml_device *dev, UINT64 bytes, edml_gpu_buffer **out)
{
    if (!dev) return EDML_STATUS_INVALID_ARGUMENT;
    if (dev->magic != EDMLI_DEVICE_MAGIC) return EDML_STATUS_INVALID_DEVICE;
    if (!out) return edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "buffer");
    *out = NULL;
    if (!(dev->backends & EDML_BACKEND_BIT(EDML_BACKEND_GLES)))
        return edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
    size_t mark = dev->arena.head;
    uint64_t gpu_mark = edmli_gles_buffer_mark(dev), offset;
    void *mem;
    edml_status s = edmli_arena_alloc(&dev->arena, &dev->err, "edml_gpu_buffer_create", sizeof(edml_gpu_buffer), &mem);
    if (s) return s;
    s = edmli_gles_buffer_reserve(dev, bytes, &offset);
    if (s) {
        dev->arena.head = mark;
        return s;
    }
    edml_gpu_buffer *b = (edml_gpu_buffer *)mem;
    memset(b, 0, sizeof *b);
    b->magic = EDMLI_GPU_BUFFER_MAGIC;
    b->device = dev;
    b->gpu_offset = offset;
    b->bytes = bytes;
    b->obj.is_gpu_buffer = true;
    b->obj.gpu_mark = gpu_mark;
    edmli_object_push(dev, &b->obj, mark);
    *out = b;
    return EDML_STATUS_OK;
}

edml_status edml_gpu_buffer_destroy(edml_gpu_buffer *b)
{
    edml_status s = edmli_check_gpu_buffer(b);
    if (s) return s;
    edmli_object_release(b->device, &b->obj);
    return EDML_STATUS_OK;
}

static edml_status edmli_gpu_range(edml_gpu_buffer *b, UINT64 offset, UINT64 bytes, const char *what)
{
    if (offset > b->bytes || bytes > b->bytes - offset) {
        char m[120];
        edmli_format(m, sizeof m, "%s of %llu bytes at %llu is outside the GPU buffer of %llu bytes", what,
                     (unsigned long long)bytes, (unsigned long long)offset, (unsigned long long)b->bytes);
        return edmli_fail(&b->device->err, EDMLI_MSG_GPU_RANGE, m);
    }
    return EDML_STATUS_OK;
}

edml_status edml_gpu_buffer_write(edml_gpu_buffer *b, UINT64 offset, const void *data, UINT64 bytes)
{
    edml_status s = edmli_check_gpu_buffer(b);
    if (s) return s;
    if (!data) return edmli_fail(&b->device->err, EDMLI_MSG_NULL_ARGUMENT, "data");
    if ((s = edmli_gpu_range(b, offset, bytes, "a write"))) return s;
    return edmli_gles_buffer_io(b->device, b->gpu_offset + offset, (void *)(uintptr_t)data, bytes, true);
}

edml_status edml_gpu_buffer_read(edml_gpu_buffer *b, UINT64 offset, void *data, UINT64 bytes)
{
    edml_status s = edmli_check_gpu_buffer(b);
    if (s) return s;
    if (!data) return edmli_fail(&b->device->err, EDMLI_MSG_NULL_ARGUMENT, "data");
    if ((s = edmli_gpu_range(b, offset, bytes, "a read"))) return s;
    return edmli_gles_buffer_io(b->device, b->gpu_offset + offset, data, bytes, false);
}

edml_status edml_gpu_buffer_copy(edml_gpu_buffer *dst, UINT64 dst_offset, edml_gpu_buffer *src, UINT64 src_offset, UINT64 bytes)
{
    edml_status s = edmli_check_gpu_buffer(dst);
    if (s) return s;
    if ((s = edmli_check_gpu_buffer(src))) return s;
    if (dst->device != src->device) return edmli_fail(&dst->device->err, EDMLI_MSG_GPU_RANGE, "the buffers belong to different devices");
    if ((dst_offset | src_offset | bytes) % 4)
        return edmli_fail(&dst->device->err, EDMLI_MSG_GPU_RANGE, "a copy's offsets and size must be multiples of 4");
    if ((s = edmli_gpu_range(dst, dst_offset, bytes, "a copy"))) return s;
    if ((s = edmli_gpu_range(src, src_offset, bytes, "a copy"))) return s;
    return edmli_gles_buffer_copy(dst->device, dst->gpu_offset + dst_offset, src->gpu_offset + src_offset, bytes);
}
