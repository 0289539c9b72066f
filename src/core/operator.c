/* Operators: validation and planning, backend choice, bindings, dispatch. */
#include "internal.h"

#include <stddef.h>
#include <string.h>

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
    case EDML_OPERATOR_ELEMENT_WISE_IF: op->kind = EDMLI_OP_ELEMENTWISE_IF; break;
    default: return edmli_fail(e, EDMLI_MSG_OPERATOR_TYPE, (unsigned)desc->Type);
    }
    if (!desc->Desc) return edmli_fail(e, EDMLI_MSG_OPERATOR_DESC_NULL);
    switch (op->kind) {
    case EDMLI_OP_TOPK: return edmli_plan_topk(e, desc, op);
    case EDMLI_OP_GATHER_ND: return edmli_plan_gather_nd(e, desc, op);
    case EDMLI_OP_ARGREDUCE: return edmli_plan_argreduce(e, desc, op);
    default: return edmli_plan_elementwise_if(e, desc, op);
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
        bool copy_like = op->kind == EDMLI_OP_ELEMENTWISE_IF || (op->kind == EDMLI_OP_GATHER_ND && op->plan.gather_nd.slice_rank > 0);
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
    if (!desc) return edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "desc");
    if ((unsigned)backend >= EDML_BACKEND_COUNT_) return edmli_fail(e, EDMLI_MSG_BACKEND_UNKNOWN, (unsigned)backend);
    edml_status s = edmli_plan(e, desc, op);
    if (s) return s;
    edml_backend b = backend;
    op->obj.device = dev;
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
    /* a 32-bit board cannot address every size a 64-bit one can */
    if ((uint64_t)(size_t)op->temp_bytes != op->temp_bytes)
        return edmli_fail(e, EDMLI_MSG_SCRATCH_ADDRESS_SPACE, edmli_op_name(op->type), edml_backend_name(b),
                          (unsigned long long)op->temp_bytes, (unsigned)(sizeof(size_t) * 8));
    sizes->persistent_bytes = edmli_align_up(sizeof(edml_operator), EDMLI_ALIGN);
    sizes->temporary_bytes = (size_t)op->temp_bytes;
    sizes->backend = b;
    return EDML_STATUS_OK;
}

edml_status edml_operator_query(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                edml_operator_sizes *sizes)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    edml_operator op;
    if (!sizes) s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "sizes");
    else s = edmli_prepare(dev, desc, backend, &op, sizes);
    edmli_device_leave(dev, s, true);
    return s;
}

static edml_status edmli_create(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                edml_operator **out)
{
    edml_operator op;
    edml_operator_sizes sizes;
    edml_status s = edmli_prepare(dev, desc, backend, &op, &sizes);
    if (s) return s;
    size_t mark = dev->arena.head;
    void *mem;
    s = edmli_arena_alloc(&dev->arena, &dev->err, "edml_operator_create", sizes.persistent_bytes, &mem);
    if (s) return s;
    memcpy(mem, &op, sizeof op);
    edmli_object_push(dev, &((edml_operator *)mem)->obj, EDMLI_OBJ_OPERATOR, mark);
    *out = (edml_operator *)edmli_object_handle(&((edml_operator *)mem)->obj);
    return EDML_STATUS_OK;
}

edml_status edml_operator_create(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator **out)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!out) s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "op");
    else *out = NULL, s = edmli_create(dev, desc, backend, out);
    edmli_device_leave(dev, s, true);
    return s;
}

/* The operator a handle names, its device held by this call. */
static edml_status edmli_op_enter(const edml_operator *handle, edml_operator **op)
{
    edmli_object *o;
    edml_status s = edmli_object_enter(handle, EDMLI_OBJ_OPERATOR, &o);
    *op = s ? NULL : (edml_operator *)o;
    return s;
}

edml_status edml_operator_destroy(edml_operator *handle)
{
    edml_operator *op;
    edml_status s = edmli_op_enter(handle, &op);
    if (s) return s;
    edml_device *dev = op->obj.device;
    edmli_object_release(dev, &op->obj);
    edmli_device_leave(dev, s, true);
    return s;
}

edml_backend edml_operator_backend(const edml_operator *handle)
{
    edml_operator *op;
    if (edmli_op_enter(handle, &op)) return EDML_BACKEND_AUTO;
    edml_backend b = op->backend;
    edmli_device_leave(op->obj.device, EDML_STATUS_OK, false);
    return b;
}

edml_status edml_operator_get_binding_properties(const edml_operator *handle, EDML_BINDING_PROPERTIES *props)
{
    edml_operator *op;
    edml_status s = edmli_op_enter(handle, &op);
    if (s) return s;
    if (!props) {
        s = edmli_fail(&op->obj.device->err, EDMLI_MSG_NULL_ARGUMENT, "props");
    } else {
        props->RequiredDescriptorCount = 0;
        props->TemporaryResourceSize = op->temp_bytes;
        props->PersistentResourceSize = 0;
    }
    edmli_device_leave(op->obj.device, s, true);
    return s;
}

/* ---- bindings ------------------------------------------------------------------- */

/* One bound tensor: [start, start + bytes) in host memory or in the GPU arena. */
typedef struct edmli_range {
    uintptr_t start;
    uint64_t bytes;
    bool gpu;
} edmli_range;

static bool edmli_overlap(const edmli_range *a, const edmli_range *b)
{
    return a->gpu == b->gpu && a->start < b->start + b->bytes && b->start < a->start + a->bytes;
}

/* Host memory: Buffer + Offset, aligned, SizeInBytes from there without
 * wrapping, and outside the device arena (the library's own memory: a
 * destroyed GPU buffer's record is there). The size is checked by the caller. */
static edml_status edmli_bind_host(const edml_device *dev, edmli_errbuf *e, const char *name,
                                   const EDML_BUFFER_BINDING *b, uint64_t bytes, uint32_t align, edmli_range *r)
{
    if (!b->Buffer) return edmli_fail(e, EDMLI_MSG_BIND_NULL, name);
    uintptr_t base = (uintptr_t)b->Buffer;
    if (b->Offset > UINTPTR_MAX - base) return edmli_fail(e, EDMLI_MSG_BIND_WRAP, name);
    uintptr_t start = base + (uintptr_t)b->Offset;
    if (b->SizeInBytes > UINTPTR_MAX - start) return edmli_fail(e, EDMLI_MSG_BIND_WRAP, name);
    const edmli_range arena = {(uintptr_t)dev->arena.base, dev->arena.size, false};
    *r = (edmli_range){start, bytes, false};
    if (edmli_overlap(r, &arena)) return edmli_fail(e, EDMLI_MSG_BIND_ARENA, name);
    if (start % align) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, align);
    return EDML_STATUS_OK;
}

/* A GPU buffer of this device (edml_gpu_binding()), for GLES operators. */
static edml_status edmli_bind_gpu(const edml_operator *op, edmli_errbuf *e, const char *name,
                                  const EDML_BUFFER_BINDING *b, const edmli_tensor *t, edmli_range *r)
{
    edml_device *dev = op->obj.device;
    char what[80];
    edmli_format(what, sizeof what, "the GPU buffer bound to %s", name);
    edmli_object *o;
    if (edmli_object_check(dev, b->Buffer, EDMLI_OBJ_GPU_BUFFER, &o, what)) return EDML_STATUS_INVALID_BINDING;
    const edml_gpu_buffer *g = (const edml_gpu_buffer *)o;
    const uint64_t offset = b->Offset & ~EDML_GPU_BINDING_BIT;
    if (op->backend != EDML_BACKEND_GLES) return edmli_fail(e, EDMLI_MSG_BIND_GPU_CPU, name, edml_backend_name(op->backend));
    uint32_t al = t->elem_size < 4 ? 4 : t->elem_size;
    if (offset % al) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, al);
    if (b->SizeInBytes < t->total_bytes)
        return edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes, (unsigned long long)t->total_bytes);
    if (offset > g->bytes || t->total_bytes > g->bytes - offset)
        return edmli_fail(e, EDMLI_MSG_BIND_GPU_RANGE, name, (unsigned long long)offset, (unsigned long long)t->total_bytes,
                          (unsigned long long)g->bytes);
    *r = (edmli_range){(uintptr_t)(g->gpu_offset + offset), t->total_bytes, true};
    return EDML_STATUS_OK;
}

static edml_status edmli_bind(const edml_operator *op, edmli_errbuf *e, const char *name, const EDML_BUFFER_BINDING *b,
                              const edmli_tensor *t, edmli_range *r)
{
    if (b->Offset & EDML_GPU_BINDING_BIT) return edmli_bind_gpu(op, e, name, b, t, r);
    edml_status s = edmli_bind_host(op->obj.device, e, name, b, t->total_bytes, t->elem_size, r);
    if (!s && b->SizeInBytes < t->total_bytes)
        s = edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes, (unsigned long long)t->total_bytes);
    return s;
}

static bool edmli_same_layout(const edmli_tensor *a, const edmli_tensor *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank || a->total_bytes != b->total_bytes) return false;
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->sizes[i] != b->sizes[i] || (a->sizes[i] > 1 && a->strides[i] != b->strides[i])) return false;
    return true;
}

/* Every input and output bound, outputs overlapping nothing (but
 * ELEMENT_WISE_IF's output on exactly A or B). */
static edml_status edmli_bind_all(const edml_operator *op, edmli_errbuf *e, const EDML_BUFFER_BINDING *inputs,
                                  const EDML_BUFFER_BINDING *outputs, edmli_range *in_r, edmli_range *out_r,
                                  edmli_exec *ex)
{
    edml_status s;
    for (uint32_t i = 0; i < op->input_count; i++) {
        if ((s = edmli_bind(op, e, op->input_names[i], &inputs[i], &op->inputs[i], &in_r[i]))) return s;
        ex->in[i] = in_r[i].gpu ? NULL : (const uint8_t *)in_r[i].start;
        ex->in_gpu[i] = in_r[i].gpu ? (uint64_t)in_r[i].start : EDMLI_HOST;
    }
    for (uint32_t o = 0; o < op->output_count; o++) {
        if ((s = edmli_bind(op, e, op->output_names[o], &outputs[o], &op->outputs[o], &out_r[o]))) return s;
        ex->out[o] = out_r[o].gpu ? NULL : (uint8_t *)out_r[o].start;
        ex->out_gpu[o] = out_r[o].gpu ? (uint64_t)out_r[o].start : EDMLI_HOST;
        for (uint32_t i = 0; i < op->input_count; i++) {
            if (!edmli_overlap(&out_r[o], &in_r[i])) continue;
            bool in_place = op->kind == EDMLI_OP_ELEMENTWISE_IF && i >= 1 && out_r[o].start == in_r[i].start &&
                            edmli_same_layout(&op->outputs[o], &op->inputs[i]);
            if (!in_place) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, op->output_names[o], op->input_names[i]);
        }
        for (uint32_t p = 0; p < o; p++)
            if (edmli_overlap(&out_r[o], &out_r[p]))
                return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, op->output_names[o], op->output_names[p]);
    }
    return EDML_STATUS_OK;
}

/* Scratch: the temporary binding (host memory, checked as the tensors are,
 * overlapping none of them) or the free top of the device arena. */
static edml_status edmli_bind_temp(const edml_operator *op, edmli_errbuf *e, const EDML_BUFFER_BINDING *temporary,
                                   const edmli_range *in_r, const edmli_range *out_r, edmli_exec *ex, bool *from_arena)
{
    edml_device *dev = op->obj.device;
    const char *name = "the temporary buffer";
    *from_arena = false;
    if (!op->temp_bytes) return EDML_STATUS_OK;
    if (!temporary) {
        void *p;
        edml_status s = edmli_arena_scratch(&dev->arena, e, (size_t)op->temp_bytes, &p);
        ex->scratch = (uint8_t *)p;
        *from_arena = s == EDML_STATUS_OK;
        return s;
    }
    if (temporary->Offset & EDML_GPU_BINDING_BIT) return edmli_fail(e, EDMLI_MSG_TEMP_GPU, (unsigned long long)temporary->Offset);
    edmli_range tr;
    edml_status s = edmli_bind_host(dev, e, name, temporary, op->temp_bytes, EDMLI_ALIGN, &tr);
    if (s) return s;
    if (temporary->SizeInBytes < op->temp_bytes)
        return edmli_fail(e, EDMLI_MSG_TEMP_SMALL, (unsigned long long)temporary->SizeInBytes,
                          (unsigned long long)op->temp_bytes);
    for (uint32_t i = 0; i < op->input_count; i++)
        if (edmli_overlap(&tr, &in_r[i])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, name, op->input_names[i]);
    for (uint32_t o = 0; o < op->output_count; o++)
        if (edmli_overlap(&tr, &out_r[o])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, name, op->output_names[o]);
    ex->scratch = (uint8_t *)tr.start;
    return EDML_STATUS_OK;
}

/* ---- running ------------------------------------------------------------------ */

/* An AUTO operator on the CPU after GLES could not run it. */
static edml_status edmli_run_on_cpu(edml_operator *op, const edmli_exec *ex, edml_status gles_status, bool for_good)
{
    edml_device *dev = op->obj.device;
    edml_backend cpu = edmli_cpu_backend(dev);
    char msg[EDMLI_MESSAGE_BYTES];
    edmli_format(msg, sizeof msg, "%s: GLES could not run it (%s); %s on %s", edmli_op_name(op->type), ex->err->text,
                 for_good ? "this device continues" : "this call runs", edml_backend_name(cpu));
    if (ex->err->log) ex->err->log(ex->err->log_user, gles_status, msg);
    if (for_good) op->backend = cpu;
    ex->err->text[0] = '\0';
    return edmli_backend_ops_for(cpu)->kernels[op->kind](op, ex);
}

/* Runs the kernel. A GLES failure on an operator created with AUTO moves the
 * device to its CPU backend for good, with the reason logged, and a full GPU
 * arena moves this call; a GLES operator asked for by name fails with the
 * status instead. Nothing has been written to the outputs when a GLES
 * submission fails. */
static edml_status edmli_run(edml_operator *op, const edmli_exec *ex)
{
    edml_device *dev = op->obj.device;
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
    if (op->backend != EDML_BACKEND_GLES || (s != EDML_STATUS_BACKEND_FAILED && s != EDML_STATUS_ARENA_TOO_SMALL)) return s;
    const bool failed = s == EDML_STATUS_BACKEND_FAILED;   /* else the GPU arena was full */
    if (failed) {
        edmli_format(dev->gles_reason, sizeof dev->gles_reason, "it failed: %s", ex->err->text);
        dev->backends &= ~gles;
    }
    if (op->requested != EDML_BACKEND_AUTO || resident) return s;   /* GPU data cannot move to the CPU */
    return edmli_run_on_cpu(op, ex, s, failed);
}

edml_status edml_operator_execute(edml_operator *handle, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                                  const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                  const EDML_BUFFER_BINDING *temporary)
{
    edml_operator *op;
    edml_status s = edmli_op_enter(handle, &op);
    if (s) return s;
    edml_device *dev = op->obj.device;
    edmli_errbuf *e = &dev->err;
    edmli_range in_r[EDMLI_MAX_INPUTS], out_r[EDMLI_MAX_OUTPUTS];
    edmli_exec ex;
    memset(&ex, 0, sizeof ex);
    ex.err = e;
    bool arena_scratch = false;
    if (inputCount != op->input_count) s = edmli_fail(e, EDMLI_MSG_BIND_COUNT, "inputCount", inputCount, op->input_count);
    else if (outputCount != op->output_count)
        s = edmli_fail(e, EDMLI_MSG_BIND_COUNT, "outputCount", outputCount, op->output_count);
    else if (!inputs) s = edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "inputs");
    else if (!outputs) s = edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "outputs");
    if (!s) s = edmli_bind_all(op, e, inputs, outputs, in_r, out_r, &ex);
    if (!s) s = edmli_bind_temp(op, e, temporary, in_r, out_r, &ex, &arena_scratch);
    if (!s) s = edmli_run(op, &ex);
    if (arena_scratch) edmli_arena_release_scratch(&dev->arena);
    /* clamped indices come back every call, but are logged once per operator */
    bool log = s != EDML_STATUS_INDEX_OUT_OF_RANGE || !op->index_oor_logged;
    if (s == EDML_STATUS_INDEX_OUT_OF_RANGE) op->index_oor_logged = true;
    edmli_device_leave(dev, s, log);
    return s;
}
