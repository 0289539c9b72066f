/* Operators: validation and planning, backend choice, bindings, dispatch. */
#include "internal.h"

#include <stddef.h>
#include <string.h>

static edml_status edmli_check_device(edml_device *dev)
{
    if (!dev) return EDML_STATUS_INVALID_ARGUMENT;
    if (dev->magic != EDMLI_DEVICE_MAGIC) return EDML_STATUS_INVALID_DEVICE;
    return EDML_STATUS_OK;
}

static edml_status edmli_plan(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    memset(op, 0, sizeof *op);
    op->type = desc->Type;
    switch (desc->Type) {
    case EDML_OPERATOR_TOP_K:
    case EDML_OPERATOR_TOP_K1: op->kind = EDMLI_OP_TOPK; break;
    case EDML_OPERATOR_GATHER_ND:
    case EDML_OPERATOR_GATHER_ND1: op->kind = EDMLI_OP_GATHER_ND; break;
    case EDML_OPERATOR_ARGMIN:
    case EDML_OPERATOR_ARGMAX: op->kind = EDMLI_OP_ARGREDUCE; break;
    case EDML_OPERATOR_ELEMENT_WISE_IF: op->kind = EDMLI_OP_IF; break;
    default: return edmli_fail(e, EDMLI_MSG_OPERATOR_TYPE, (unsigned)desc->Type);
    }
    if (!desc->Desc) return edmli_fail(e, EDMLI_MSG_OPERATOR_DESC_NULL);
    switch (op->kind) {
    case EDMLI_OP_TOPK: return edmli_plan_topk(e, desc, op);
    case EDMLI_OP_GATHER_ND: return edmli_plan_gather_nd(e, desc, op);
    case EDMLI_OP_ARGREDUCE: return edmli_plan_argreduce(e, desc, op);
    default: return edmli_plan_if(e, desc, op);
    }
}

static const char *edmli_unavailable_reason(const edml_device *dev, edml_backend b)
{
    if (b == EDML_BACKEND_NEON && !edmli_neon_backend_ptr) return "this library was built without NEON kernels";
    if (b == EDML_BACKEND_NEON && !dev->board.has_neon) return "the board description says it has no NEON";
    if (b == EDML_BACKEND_GLES) return dev->gles_reason;
    return "edml_device_desc.backends does not allow it";
}

/* The best CPU backend the device has. */
static edml_backend edmli_cpu_backend(const edml_device *dev)
{
    return (dev->backends & EDML_BACKEND_BIT(EDML_BACKEND_NEON)) ? EDML_BACKEND_NEON : EDML_BACKEND_REF;
}

/* AUTO: the GPU for work above the board's thresholds (a GPU submission
 * costs tens of microseconds and a trip through memory), else the CPU. */
static edml_backend edmli_choose(const edml_device *dev, const edml_operator *op)
{
    /* a software rasterizer (Mesa's llvmpipe) runs shaders on the CPU it would
     * take from the NEON kernels: measured slower on every workload */
    if ((dev->backends & EDML_BACKEND_BIT(EDML_BACKEND_GLES)) &&
        (dev->board.gpu_software_ok || !edmli_gles_device_is_software(dev))) {
        uint64_t n = 0;
        for (uint32_t i = 0; i < op->input_count; i++) if (op->inputs[i].elem_count > n) n = op->inputs[i].elem_count;
        for (uint32_t o = 0; o < op->output_count; o++) if (op->outputs[o].elem_count > n) n = op->outputs[o].elem_count;
        /* copy-like work moves every byte through the host<->GPU transfers */
        bool copy_like = op->kind == EDMLI_OP_IF || (op->kind == EDMLI_OP_GATHER_ND && op->plan.gather.slice_rank > 0);
        bool big = n >= (copy_like ? dev->board.gpu_min_elements_copy : dev->board.gpu_min_elements);
        if (op->kind == EDMLI_OP_TOPK) big = big && op->plan.topk.axis_size >= dev->board.gpu_topk_min_row;
        if (big) return EDML_BACKEND_GLES;
    }
    return edmli_cpu_backend(dev);
}

/* Plans into `op` and fills `sizes`; shared by query and create. */
static edml_status edmli_prepare(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator *op, edml_operator_sizes *sizes)
{
    edmli_errbuf *e = &dev->err;
    e->text[0] = '\0';
    if (!desc) return edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "desc");
    if ((unsigned)backend >= EDML_BACKEND_COUNT_) return edmli_fail(e, EDMLI_MSG_BACKEND_UNKNOWN, (unsigned)backend);
    edml_status s = edmli_plan(e, desc, op);
    if (s) return s;
    edml_backend b = backend;
    op->device = dev;
    if (b == EDML_BACKEND_AUTO) {
        b = edmli_choose(dev, op);
    } else if (!(dev->backends & EDML_BACKEND_BIT(b))) {
        return edmli_fail(e, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(b), edmli_unavailable_reason(dev, b));
    }
    const edmli_backend_ops *ops = edmli_backend_ops_for(b);
    char why[160];
    const char *no = ops->unsupported ? ops->unsupported(op, why, sizeof why) : NULL;
    if (no && backend != EDML_BACKEND_AUTO) return edmli_fail(e, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(b), no);
    if (no) {
        /* AUTO moves to the CPU, and says so */
        char msg[EDMLI_MESSAGE_BYTES];
        b = edmli_cpu_backend(dev);
        edmli_format(msg, sizeof msg, "%s runs on %s: the GLES backend cannot: %s", edmli_op_name(op->type),
                     edml_backend_name(b), no);
        if (e->log) e->log(e->log_user, EDML_STATUS_OK, msg);
        ops = edmli_backend_ops_for(b);
    }
    op->backend = b;
    op->requested = backend;
    op->temp_bytes = ops->temp_bytes ? ops->temp_bytes(op) : 0;
    op->device = dev;
    sizes->persistent_bytes = edmli_align_up(sizeof(edml_operator), EDMLI_ALIGN);
    sizes->temporary_bytes = (size_t)op->temp_bytes;
    sizes->backend = b;
    return EDML_STATUS_OK;
}

edml_status edml_operator_query(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                edml_operator_sizes *sizes)
{
    edml_status s = edmli_check_device(dev);
    if (s) return s;
    if (!sizes) return edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "sizes");
    edml_operator op;
    return edmli_prepare(dev, desc, backend, &op, sizes);
}

edml_status edml_operator_create(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator **out)
{
    edml_status s = edmli_check_device(dev);
    if (s) return s;
    if (!out) return edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "op");
    *out = NULL;
    edml_operator op;
    edml_operator_sizes sizes;
    s = edmli_prepare(dev, desc, backend, &op, &sizes);
    if (s) return s;
    size_t mark = dev->arena.head;
    void *mem;
    s = edmli_arena_alloc(&dev->arena, &dev->err, "edml_operator_create", sizes.persistent_bytes, &mem);
    if (s) return s;
    op.magic = EDMLI_OPERATOR_MAGIC;
    memcpy(mem, &op, sizeof op);
    edmli_object_push(dev, &((edml_operator *)mem)->obj, mark);
    *out = (edml_operator *)mem;
    return EDML_STATUS_OK;
}

static edml_status edmli_check_op(const edml_operator *op)
{
    if (!op) return EDML_STATUS_INVALID_ARGUMENT;
    if (op->magic != EDMLI_OPERATOR_MAGIC || op->obj.destroyed) return EDML_STATUS_INVALID_DEVICE;
    if (!op->device || op->device->magic != EDMLI_DEVICE_MAGIC) return EDML_STATUS_INVALID_DEVICE;
    return EDML_STATUS_OK;
}

edml_status edml_operator_destroy(edml_operator *op)
{
    edml_status s = edmli_check_op(op);
    if (s) return s;
    edmli_object_release(op->device, &op->obj);
    return EDML_STATUS_OK;
}

edml_backend edml_operator_backend(const edml_operator *op)
{
    return edmli_check_op(op) ? EDML_BACKEND_AUTO : op->backend;
}

edml_status edml_operator_get_binding_properties(const edml_operator *op, EDML_BINDING_PROPERTIES *props)
{
    edml_status s = edmli_check_op(op);
    if (s) return s;
    if (!props) return edmli_fail(&op->device->err, EDMLI_MSG_NULL_ARGUMENT, "props");
    props->RequiredDescriptorCount = 0;
    props->TemporaryResourceSize = op->temp_bytes;
    props->PersistentResourceSize = 0;
    return EDML_STATUS_OK;
}

/* One bound tensor: [start, start + bytes) in host memory or in the GPU arena. */
typedef struct edmli_range {
    uintptr_t start;
    uint64_t bytes;
    bool gpu;
} edmli_range;

static edml_status edmli_bind(const edml_operator *op, edmli_errbuf *e, const char *name, const EDML_BUFFER_BINDING *b,
                              const edmli_tensor *t, edmli_range *r)
{
    r->bytes = t->total_bytes;
    /* a GPU buffer of this device? (addresses compared, nothing unknown read) */
    const edml_gpu_buffer *g = NULL;
    for (const edmli_object *o = op->device->last_obj; o && b->Buffer; o = o->prev)
        if (o->is_gpu_buffer && !o->destroyed &&
            (const void *)((const uint8_t *)o - offsetof(edml_gpu_buffer, obj)) == b->Buffer)
            g = (const edml_gpu_buffer *)b->Buffer;
    if (g) {
        if (op->backend != EDML_BACKEND_GLES)
            return edmli_fail(e, EDMLI_MSG_BIND_GPU_CPU, name, edml_backend_name(op->backend));
        uint32_t al = t->elem_size < 4 ? 4 : t->elem_size;
        if (b->Offset % al) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, al);
        if (b->SizeInBytes < t->total_bytes)
            return edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes,
                              (unsigned long long)t->total_bytes);
        if (b->Offset > g->bytes || t->total_bytes > g->bytes - b->Offset)
            return edmli_fail(e, EDMLI_MSG_BIND_GPU_RANGE, name, (unsigned long long)b->Offset,
                              (unsigned long long)t->total_bytes, (unsigned long long)g->bytes);
        r->start = (uintptr_t)(g->gpu_offset + b->Offset);
        r->gpu = true;
        return EDML_STATUS_OK;
    }
    if (!b->Buffer) return edmli_fail(e, EDMLI_MSG_BIND_NULL, name);
    uintptr_t base = (uintptr_t)b->Buffer;
    if (b->Offset > UINTPTR_MAX - base || b->SizeInBytes > UINTPTR_MAX - base - b->Offset)
        return edmli_fail(e, EDMLI_MSG_BIND_WRAP, name);
    uintptr_t start = base + (uintptr_t)b->Offset;
    if (start % t->elem_size) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, t->elem_size);
    if (b->SizeInBytes < t->total_bytes)
        return edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes,
                          (unsigned long long)t->total_bytes);
    r->start = start;
    r->gpu = false;
    return EDML_STATUS_OK;
}

static bool edmli_overlap(const edmli_range *a, const edmli_range *b)
{
    return a->gpu == b->gpu && a->start < b->start + b->bytes && b->start < a->start + a->bytes;
}

static bool edmli_same_layout(const edmli_tensor *a, const edmli_tensor *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank || a->total_bytes != b->total_bytes) return false;
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->sizes[i] != b->sizes[i] || (a->sizes[i] > 1 && a->strides[i] != b->strides[i])) return false;
    return true;
}

/* Runs the kernel. A GLES failure on an operator created with AUTO moves the
 * device to its CPU backend for good, with the reason logged; a GLES
 * operator asked for by name fails with the status instead. Nothing has been
 * written to the outputs when a GLES submission fails. */
static edml_status edmli_run(edml_operator *op, const edmli_exec *ex)
{
    edml_device *dev = op->device;
    const uint32_t gles = EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    if (op->backend == EDML_BACKEND_GLES && !(dev->backends & gles)) {
        if (op->requested != EDML_BACKEND_AUTO)
            return edmli_fail(ex->err, EDMLI_MSG_BACKEND_UNAVAILABLE, "gles", dev->gles_reason);
        op->backend = edmli_cpu_backend(dev);
    }
    bool resident = false;
    for (uint32_t i = 0; i < op->input_count; i++) resident |= ex->in_gpu[i] != EDMLI_HOST;
    for (uint32_t o = 0; o < op->output_count; o++) resident |= ex->out_gpu[o] != EDMLI_HOST;
    if (resident && op->backend != EDML_BACKEND_GLES)
        return edmli_fail(ex->err, EDMLI_MSG_BIND_GPU_CPU, "a tensor", edml_backend_name(op->backend));
    edml_status s = edmli_backend_ops_for(op->backend)->kernels[op->kind](op, ex);
    if (s != EDML_STATUS_BACKEND_FAILED || op->backend != EDML_BACKEND_GLES) return s;
    edmli_format(dev->gles_reason, sizeof dev->gles_reason, "it failed: %s", ex->err->text);
    dev->backends &= ~gles;
    if (op->requested != EDML_BACKEND_AUTO || resident) return s;   /* GPU data cannot move to the CPU */
    op->backend = edmli_cpu_backend(dev);
    char msg[EDMLI_MESSAGE_BYTES];
    edmli_format(msg, sizeof msg, "GLES failed (%s); this device continues on %s", ex->err->text, edml_backend_name(op->backend));
    if (ex->err->log) ex->err->log(ex->err->log_user, EDML_STATUS_BACKEND_FAILED, msg);
    ex->err->text[0] = '\0';
    return edmli_backend_ops_for(op->backend)->kernels[op->kind](op, ex);
}

edml_status edml_operator_execute(edml_operator *op, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                                  const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                  const EDML_BUFFER_BINDING *temporary)
{
    edml_status s = edmli_check_op(op);
    if (s) return s;
    edml_device *dev = op->device;
    edmli_errbuf *e = &dev->err;
    e->text[0] = '\0';
    if (inputCount != op->input_count) return edmli_fail(e, EDMLI_MSG_BIND_COUNT, "inputCount", inputCount, op->input_count);
    if (outputCount != op->output_count)
        return edmli_fail(e, EDMLI_MSG_BIND_COUNT, "outputCount", outputCount, op->output_count);
    if (!inputs) return edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "inputs");
    if (!outputs) return edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "outputs");

    edmli_range in_r[EDMLI_MAX_INPUTS], out_r[EDMLI_MAX_OUTPUTS];
    edmli_exec ex;
    memset(&ex, 0, sizeof ex);
    ex.err = e;
    for (uint32_t i = 0; i < op->input_count; i++) {
        s = edmli_bind(op, e, op->input_names[i], &inputs[i], &op->inputs[i], &in_r[i]);
        if (s) return s;
        ex.in[i] = in_r[i].gpu ? NULL : (const uint8_t *)in_r[i].start;
        ex.in_gpu[i] = in_r[i].gpu ? (uint64_t)in_r[i].start : EDMLI_HOST;
    }
    for (uint32_t o = 0; o < op->output_count; o++) {
        s = edmli_bind(op, e, op->output_names[o], &outputs[o], &op->outputs[o], &out_r[o]);
        if (s) return s;
        ex.out[o] = out_r[o].gpu ? NULL : (uint8_t *)out_r[o].start;
        ex.out_gpu[o] = out_r[o].gpu ? (uint64_t)out_r[o].start : EDMLI_HOST;
        for (uint32_t i = 0; i < op->input_count; i++) {
            if (!edmli_overlap(&out_r[o], &in_r[i])) continue;
            bool in_place = op->kind == EDMLI_OP_IF && i >= 1 && out_r[o].start == in_r[i].start &&
                            edmli_same_layout(&op->outputs[o], &op->inputs[i]);
            if (!in_place) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, op->output_names[o], op->input_names[i]);
        }
        for (uint32_t p = 0; p < o; p++)
            if (edmli_overlap(&out_r[o], &out_r[p]))
                return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, op->output_names[o], op->output_names[p]);
    }

    bool arena_scratch = false;
    if (op->temp_bytes) {
        if (temporary) {
            if (!temporary->Buffer) return edmli_fail(e, EDMLI_MSG_TEMP_NULL);
            uintptr_t base = (uintptr_t)temporary->Buffer;
            if (temporary->Offset > UINTPTR_MAX - base - temporary->SizeInBytes)
                return edmli_fail(e, EDMLI_MSG_BIND_WRAP, "the temporary buffer");
            uintptr_t aligned = base + (uintptr_t)temporary->Offset;
            if (aligned % EDMLI_ALIGN) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, "the temporary buffer", EDMLI_ALIGN);
            if (temporary->SizeInBytes < op->temp_bytes)
                return edmli_fail(e, EDMLI_MSG_TEMP_SMALL, (unsigned long long)temporary->SizeInBytes,
                                  (unsigned long long)op->temp_bytes);
            edmli_range tr = {aligned, op->temp_bytes, false};
            for (uint32_t i = 0; i < op->input_count; i++)
                if (edmli_overlap(&tr, &in_r[i])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, "the temporary buffer", op->input_names[i]);
            for (uint32_t o = 0; o < op->output_count; o++)
                if (edmli_overlap(&tr, &out_r[o])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, "the temporary buffer", op->output_names[o]);
            ex.scratch = (uint8_t *)aligned;
        } else {
            void *p;
            s = edmli_arena_scratch(&dev->arena, e, (size_t)op->temp_bytes, &p);
            if (s) return s;
            ex.scratch = (uint8_t *)p;
            arena_scratch = true;
        }
    }

    s = edmli_run(op, &ex);
    if (arena_scratch) edmli_arena_release_scratch(&dev->arena);
    return s;
}
