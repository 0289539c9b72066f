/* GPU buffers: tensors that stay in the GPU arena between operators. Each
 * has a record in the device arena (an object, like an operator) and bytes
 * in the memory of the backend that keeps them (edmli_buffer_hooks). */
#include "internal.h"

#include <string.h>

/* The backend keeping GPU buffers, where the device has it. */
static const edmli_buffer_hooks *edmli_buffers(edml_device *dev, void **state, edml_status *s)
{
    const edml_backend b = edmli_buffer_backend();
    if (b == EDML_BACKEND_COUNT_) {
        *s = edmli_fail(&dev->err, EDMLI_MSG_NO_GPU_BUFFERS);
        return NULL;
    }
    if (!(dev->backends & EDML_BACKEND_BIT(b))) {
        *s = edmli_fail(&dev->err, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(b), dev->why[b]);
        return NULL;
    }
    *state = dev->state[b];
    *s = EDML_STATUS_OK;
    return edmli_backends[b]->buffers;
}

static edml_status edmli_gpu_create(edml_device *dev, UINT64 bytes, edml_gpu_buffer **out)
{
    void *state = NULL;
    edml_status s;
    const edmli_buffer_hooks *hooks = edmli_buffers(dev, &state, &s);
    if (s) return s;
    size_t mark = dev->arena.head;
    uint64_t gpu_mark = hooks->mark(state), offset = 0;
    void *mem = NULL;
    s = edmli_arena_alloc(&dev->arena, &dev->err, "edml_gpu_buffer_create", sizeof(edml_gpu_buffer), &mem);
    if (!s) s = hooks->reserve(dev, state, bytes, &offset);
    if (s) {
        dev->arena.head = mark;
        return s;
    }
    edml_gpu_buffer *b = (edml_gpu_buffer *)mem;
    memset(b, 0, sizeof *b);
    b->gpu_offset = offset;
    b->bytes = bytes;
    edmli_object_push(dev, &b->obj, EDMLI_OBJ_GPU_BUFFER, mark, gpu_mark);
    *out = (edml_gpu_buffer *)edmli_object_handle(&b->obj);
    return EDML_STATUS_OK;
}

edml_status edml_gpu_buffer_create(edml_device *dev, UINT64 bytes, edml_gpu_buffer **out)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!out)
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "buffer");
    else if (*out = NULL, !bytes)
        s = edmli_fail(&dev->err, EDMLI_MSG_GPU_BUFFER_EMPTY);
    else
        s = edmli_gpu_create(dev, bytes, out);
    edmli_device_leave(dev, s, true);
    return s;
}

static edml_status edmli_gpu_enter(edml_gpu_buffer *handle, const char *what, edml_gpu_buffer **b)
{
    edmli_object *o;
    edml_status s = edmli_object_enter(handle, EDMLI_OBJ_GPU_BUFFER, what, &o);
    *b = s ? NULL : (edml_gpu_buffer *)o;
    return s;
}

edml_status edml_gpu_buffer_destroy(edml_gpu_buffer *handle)
{
    edml_gpu_buffer *b;
    edml_status s = edmli_gpu_enter(handle, NULL, &b);
    if (s) return s;
    edml_device *dev = b->obj.device;
    if (b->mapped) { /* unmapped with it */
        void *state = NULL;
        const edmli_buffer_hooks *hooks = edmli_buffers(dev, &state, &s);
        if (!s) s = hooks->unmap(dev, state);
        b->mapped = false;
    }
    edmli_object_release(dev, &b->obj);
    edmli_device_leave(dev, s, true);
    return s;
}

static edml_status edmli_gpu_range(edml_gpu_buffer *b, UINT64 offset, UINT64 bytes, const char *what)
{
    if (offset > b->bytes || bytes > b->bytes - offset)
        return edmli_fail(&b->obj.device->err, EDMLI_MSG_GPU_RANGE, what, (unsigned long long)bytes,
                          (unsigned long long)offset, (unsigned long long)b->bytes);
    return EDML_STATUS_OK;
}

/* A write (host to buffer) or a read (buffer to host). */
static edml_status edmli_gpu_io(edml_gpu_buffer *handle, UINT64 offset, void *data, UINT64 bytes, bool write)
{
    edml_gpu_buffer *b;
    edml_status s = edmli_gpu_enter(handle, NULL, &b);
    if (s) return s;
    edml_device *dev = b->obj.device;
    if (!data)
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "data");
    else
        s = edmli_gpu_range(b, offset, bytes, write ? "a write" : "a read");
    void *state = NULL;
    const edmli_buffer_hooks *hooks = s ? NULL : edmli_buffers(dev, &state, &s);
    if (!s) s = hooks->io(dev, state, b->gpu_offset + offset, data, bytes, write);
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_gpu_buffer_write(edml_gpu_buffer *b, UINT64 offset, const void *data, UINT64 bytes)
{
    return edmli_gpu_io(b, offset, (void *)(uintptr_t)data, bytes, true);
}

edml_status edml_gpu_buffer_read(edml_gpu_buffer *b, UINT64 offset, void *data, UINT64 bytes)
{
    return edmli_gpu_io(b, offset, data, bytes, false);
}

edml_status edml_gpu_buffer_copy(edml_gpu_buffer *dst_handle, UINT64 dst_offset, edml_gpu_buffer *src_handle,
                                 UINT64 src_offset, UINT64 bytes)
{
    edml_gpu_buffer *dst;
    edml_status s = edmli_gpu_enter(dst_handle, "the destination GPU buffer (dst)", &dst);
    if (s) return s;
    edml_device *dev = dst->obj.device;
    edmli_object *o = NULL;
    s = edmli_object_check(dev, src_handle, EDMLI_OBJ_GPU_BUFFER, &o, "the source GPU buffer (src)");
    edml_gpu_buffer *src = (edml_gpu_buffer *)o;
    if (!s && (dst_offset | src_offset | bytes) % 4) s = edmli_fail(&dev->err, EDMLI_MSG_GPU_COPY_ALIGN);
    if (!s) s = edmli_gpu_range(dst, dst_offset, bytes, "a copy");
    if (!s) s = edmli_gpu_range(src, src_offset, bytes, "a copy");
    void *state = NULL;
    const edmli_buffer_hooks *hooks = s ? NULL : edmli_buffers(dev, &state, &s);
    if (!s) s = hooks->copy(dev, state, dst->gpu_offset + dst_offset, src->gpu_offset + src_offset, bytes);
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_gpu_buffer_map(edml_gpu_buffer *handle, UINT64 offset, UINT64 bytes, void **data)
{
    edml_gpu_buffer *b;
    if (data) *data = NULL; /* no view on any failure, the handle's included */
    edml_status s = edmli_gpu_enter(handle, NULL, &b);
    if (s) return s;
    edml_device *dev = b->obj.device;
    if (!data)
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "data");
    else if (b->mapped)
        s = edmli_fail(&dev->err, EDMLI_MSG_GPU_MAP_TWICE);
    else if (!bytes) /* no view of nothing, with or without the persistent mapping */
        s = edmli_fail(&dev->err, EDMLI_MSG_GPU_BUFFER_EMPTY);
    else
        s = edmli_gpu_range(b, offset, bytes, "a mapping");
    void *state = NULL;
    const edmli_buffer_hooks *hooks = s ? NULL : edmli_buffers(dev, &state, &s);
    if (!s) s = hooks->map(dev, state, b->gpu_offset + offset, bytes, data);
    if (!s) b->mapped = true;
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_gpu_buffer_unmap(edml_gpu_buffer *handle)
{
    edml_gpu_buffer *b;
    edml_status s = edmli_gpu_enter(handle, NULL, &b);
    if (s) return s;
    edml_device *dev = b->obj.device;
    void *state = NULL;
    const edmli_buffer_hooks *hooks = NULL;
    if (!b->mapped)
        s = edmli_fail(&dev->err, EDMLI_MSG_GPU_NOT_MAPPED);
    else
        hooks = edmli_buffers(dev, &state, &s);
    if (!s) s = hooks->unmap(dev, state);
    if (hooks) b->mapped = false;
    edmli_device_leave(dev, s, true);
    return s;
}

/* The span of the GPU arena an execution's GPU-buffer tensors lie in. */
static void edmli_gpu_span(const edml_operator *op, const edmli_exec *ex, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX, *hi = 0;
    for (uint32_t i = 0; i < op->input_count + op->output_count; i++) {
        const bool in = i < op->input_count;
        const uint64_t at = in ? ex->in_gpu[i] : ex->out_gpu[i - op->input_count];
        const uint64_t bytes = in ? op->inputs[i].total_bytes : op->outputs[i - op->input_count].total_bytes;
        if (at == EDMLI_HOST) continue;
        *lo = at < *lo ? at : *lo;
        *hi = at + bytes > *hi ? at + bytes : *hi;
    }
}

edml_status edmli_gpu_view_run(edml_operator *op, const edmli_exec *ex, edmli_kernel_fn kernel)
{
    edml_device *dev = op->obj.device;
    uint64_t lo, hi;
    edmli_gpu_span(op, ex, &lo, &hi);
    void *state = NULL, *view = NULL;
    edml_status s;
    const edmli_buffer_hooks *hooks = edmli_buffers(dev, &state, &s);
    if (s) return s;
    if ((uint64_t)(size_t)(hi - lo) != hi - lo) /* a 32-bit board's view of a span it cannot address */
        return edmli_fail(ex->err, EDMLI_MSG_GPU_VIEW_SPAN, (unsigned long long)(hi - lo),
                          (unsigned)(sizeof(size_t) * 8));
    if ((s = hooks->map(dev, state, lo, hi - lo, &view))) return s;
    edmli_exec cpu = *ex;
    for (uint32_t i = 0; i < op->input_count; i++)
        if (ex->in_gpu[i] != EDMLI_HOST) cpu.in[i] = (const uint8_t *)view + (ex->in_gpu[i] - lo);
    for (uint32_t o = 0; o < op->output_count; o++)
        if (ex->out_gpu[o] != EDMLI_HOST) cpu.out[o] = (uint8_t *)view + (ex->out_gpu[o] - lo);
    s = kernel(op, &cpu);
    const edml_status u = hooks->unmap(dev, state);
    return s ? s : u;
}

EDML_BUFFER_BINDING edml_gpu_binding(edml_gpu_buffer *buffer, UINT64 offset, UINT64 bytes)
{
    EDML_BUFFER_BINDING b = {buffer, offset | EDML_GPU_BINDING_BIT, bytes};
    return b;
}
