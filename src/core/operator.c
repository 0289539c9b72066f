/* Operators: validation and planning, backend choice, bindings, dispatch. */
#include "internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* AUTO: a backend off the CPU that wants the operator (its thresholds: a GPU
 * submission costs tens of microseconds and a trip through memory), else the
 * best on the CPU; with a cost model of both sides, or placement measured or
 * saved, the backend off the CPU whatever its thresholds say (the model or
 * thresholds decide for each kind of bindings until a measurement does),
 * unless the board bars it (a software GPU): then neither. */
static edml_backend edmli_choose(const edml_device *dev, edml_operator *op)
{
    char why[EDMLI_MESSAGE_BYTES / 2];
    for (int b = EDML_BACKEND_COUNT_ - 1; b > EDML_BACKEND_AUTO; b--) {
        const edmli_backend *be = edmli_device_backend(dev, (edml_backend)b);
        if (!be || be->on_cpu || !be->kernels[op->kind] || !be->wants) continue;
        op->threshold_gpu = be->wants(dev, op, why, sizeof why);
        const edml_backend side[2] = {edmli_cpu_backend(dev, op->kind), (edml_backend)b};
        op->measurable = (dev->desc.placement != EDML_PLACEMENT_THRESHOLDS || edmli_cost_covers(dev, op, side)) &&
                         !(be->barred && be->barred(dev, why, sizeof why));
        if (op->threshold_gpu || op->measurable) return (edml_backend)b;
    }
    op->measurable = false;
    return edmli_cpu_backend(dev, op->kind);
}

/* Why backend b cannot run the planned operator (its plan derived), or NULL. */
static const char *edmli_cannot_run(const edml_device *dev, edml_backend b, edml_operator *op, char *buf, size_t cap)
{
    const edmli_backend *be = edmli_backends[b];
    if (!be->kernels[op->kind]) {
        edmli_format(buf, cap, "it has no kernel for %s", edmli_op_name(op->type));
        return buf;
    }
    return be->plan ? be->plan(dev, op, buf, cap) : NULL;
}

/* Scratch: the backend's, and for one off the CPU the CPU's too (an AUTO
 * operator falls back to it). */
static uint64_t edmli_temp_bytes(const edml_device *dev, const edml_operator *op)
{
    const edmli_backend *be = edmli_backends[op->backend];
    uint64_t n = be->temp_bytes ? be->temp_bytes(op) : 0;
    if (!be->on_cpu) {
        const edmli_backend *cpu = edmli_backends[edmli_cpu_backend(dev, op->kind)];
        uint64_t c = cpu->temp_bytes ? cpu->temp_bytes(op) : 0;
        if (c > n) n = c;
    }
    return n;
}

/* The backend of an operator: the one asked for, or AUTO's choice, which
 * moves to the CPU (and says so) where the chosen one cannot run it. */
static edml_status edmli_place_op(edml_device *dev, edml_backend backend, edml_operator *op)
{
    edmli_errbuf *e = &dev->err;
    edml_backend b = backend;
    op->requested = backend; /* a backend's plan may decline only AUTO's choice */
    op->declined_memory = false;
    if (b == EDML_BACKEND_AUTO)
        b = edmli_choose(dev, op);
    else if (!(dev->backends & EDML_BACKEND_BIT(b)))
        return edmli_fail(e, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(b), dev->why[b]);
    char why[EDMLI_MESSAGE_BYTES / 2];
    const char *no = edmli_cannot_run(dev, b, op, why, sizeof why);
    if (no && backend != EDML_BACKEND_AUTO && op->declined_memory)
        return edmli_fail(e, EDML_STATUS_ARENA_TOO_SMALL, "backend %s cannot hold %s: %s", edml_backend_name(b),
                          edmli_op_name(op->type), no);
    if (no && backend != EDML_BACKEND_AUTO)
        return edmli_fail(e, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(b), no);
    if (no) {
        char msg[EDMLI_MESSAGE_BYTES];
        const edml_backend cpu = edmli_cpu_backend(dev, op->kind);
        edmli_format(op->declined, sizeof op->declined, "%s", no);
        op->measurable = false;
        edmli_format(msg, sizeof msg, "%s runs on %s: the %s backend cannot: %s", edmli_op_name(op->type),
                     edml_backend_name(cpu), edmli_backend_title(b), no);
        if (e->log) e->log(e->log_user, EDML_STATUS_OK, msg);
        b = cpu;
        op->backend_bytes = 0; /* what the refusing backend's plan sized is not kept */
        op->backend_gpu_bytes = 0;
        memset(op->backend_plan, 0, sizeof op->backend_plan);
    }
    op->backend = b;
    op->requested = backend;
    return EDML_STATUS_OK;
}

/* A tensor larger than this target's address space can never be bound. */
static edml_status edmli_check_address_space(edmli_errbuf *e, const edml_operator *op)
{
    for (uint32_t i = 0; i < op->input_count + op->output_count; i++) {
        const bool in = i < op->input_count;
        const edmli_tensor *t = in ? &op->inputs[i] : &op->outputs[i - op->input_count];
        if (t->total_bytes > SIZE_MAX)
            return edmli_fail(e, EDMLI_MSG_TENSOR_ADDRESS_SPACE,
                              in ? op->input_names[i] : op->output_names[i - op->input_count],
                              (unsigned long long)t->total_bytes, (unsigned)(sizeof(size_t) * 8));
    }
    return EDML_STATUS_OK;
}

/* Plans into `op` and fills `sizes`; shared by query and create. */
static edml_status edmli_prepare(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator *op, edml_operator_sizes *sizes)
{
    edmli_errbuf *e = &dev->err;
    if (!desc) return edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "desc");
    if ((unsigned)backend >= EDML_BACKEND_COUNT_) return edmli_fail(e, EDMLI_MSG_BACKEND_UNKNOWN, (unsigned)backend);
    edml_status s = edmli_operator_plan(e, desc, op);
    if (s) return s;
    if ((s = edmli_check_address_space(e, op))) return s;
    op->obj.device = dev;
    op->workers = dev->par.workers;
    if ((s = edmli_place_op(dev, backend, op))) return s;
    op->temp_bytes = edmli_temp_bytes(dev, op);
    /* a 32-bit board cannot address every size a 64-bit one can */
    if ((uint64_t)(size_t)op->temp_bytes != op->temp_bytes)
        return edmli_fail(e, EDMLI_MSG_SCRATCH_ADDRESS_SPACE, edmli_op_name(op->type), edml_backend_name(op->backend),
                          (unsigned long long)op->temp_bytes, (unsigned)(sizeof(size_t) * 8));
    sizes->persistent_bytes =
        edmli_align_up(sizeof(edml_operator), EDMLI_ALIGN) + edmli_align_up(op->backend_bytes, EDMLI_ALIGN);
    if (dev->desc.reserve_scratch && op->temp_bytes) {
        const size_t own = edmli_align_up((size_t)op->temp_bytes, EDMLI_ALIGN);
        if (own > SIZE_MAX - sizes->persistent_bytes)
            return edmli_fail(e, EDMLI_MSG_SCRATCH_ADDRESS_SPACE, edmli_op_name(op->type),
                              edml_backend_name(op->backend), (unsigned long long)op->temp_bytes,
                              (unsigned)(sizeof(size_t) * 8));
        op->own_scratch = sizes->persistent_bytes;
        sizes->persistent_bytes += own;
    }
    sizes->gpu_persistent_bytes = op->backend_gpu_bytes;
    sizes->temporary_bytes = (size_t)op->temp_bytes;
    sizes->backend = op->backend;
    return EDML_STATUS_OK;
}

edml_status edml_operator_query(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                edml_operator_sizes *sizes)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    edml_operator op;
    if (!sizes)
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "sizes");
    else
        s = edmli_prepare(dev, desc, backend, &op, sizes);
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
    edml_operator *o = (edml_operator *)mem;
    const edmli_backend *be = edmli_backends[o->backend];
    uint64_t gpu_mark = EDMLI_NO_GPU_MARK;
    if (be->bake) {
        gpu_mark = be->buffers->mark(dev->state[o->backend]);
        if ((s = be->bake(dev, o))) {
            be->buffers->release_to(dev->state[o->backend], gpu_mark);
            dev->arena.head = mark;
            return s;
        }
    }
    edmli_place_init(dev, o);
    edmli_object_push(dev, &o->obj, EDMLI_OBJ_OPERATOR, mark, gpu_mark);
    *out = (edml_operator *)edmli_object_handle(&((edml_operator *)mem)->obj);
    return EDML_STATUS_OK;
}

edml_status edml_operator_create(edml_device *dev, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator **out)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!out)
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "op");
    else
        *out = NULL, s = edmli_create(dev, desc, backend, out);
    edmli_device_leave(dev, s, true);
    return s;
}

/* The operator a handle names, its device held by this call. */
static edml_status edmli_op_enter(const edml_operator *handle, edml_operator **op)
{
    edmli_object *o;
    edml_status s = edmli_object_enter(handle, EDMLI_OBJ_OPERATOR, NULL, &o);
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
    edml_backend b = edmli_place_backend(op, (edmli_bind_kind)op->last_kind);
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
    /* its size first, then what it declares against the arena (a short
     * buffer just below the arena is short, not inside the arena) */
    if (b->SizeInBytes < bytes)
        return edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes, (unsigned long long)bytes);
    const edmli_range arena = {(uintptr_t)dev->arena.base, dev->arena.size, false};
    const edmli_range handle = {edmli_handle_address(b->Buffer), 1, false}; /* an edml handle given as memory */
    const edmli_range declared = {start, b->SizeInBytes, false};
    *r = (edmli_range){start, bytes, false};
    if (edmli_overlap(&declared, &arena) || edmli_overlap(&handle, &arena))
        return edmli_fail(e, EDMLI_MSG_BIND_ARENA, name);
    if (start % align) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, align);
    return EDML_STATUS_OK;
}

/* A GPU buffer of this device (edml_gpu_binding()), for the operators of
 * the backend that keeps them. */
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
    uint32_t al = t->elem_size < 4 ? 4 : t->elem_size;
    if (offset % al) return edmli_fail(e, EDMLI_MSG_BIND_ALIGN, name, al);
    if (b->SizeInBytes < t->total_bytes)
        return edmli_fail(e, EDMLI_MSG_BIND_SIZE, name, (unsigned long long)b->SizeInBytes,
                          (unsigned long long)t->total_bytes);
    if (offset > g->bytes || t->total_bytes > g->bytes - offset)
        return edmli_fail(e, EDMLI_MSG_BIND_GPU_RANGE, name, (unsigned long long)offset,
                          (unsigned long long)t->total_bytes, (unsigned long long)g->bytes);
    *r = (edmli_range){(uintptr_t)(g->gpu_offset + offset), t->total_bytes, true};
    return EDML_STATUS_OK;
}

static edml_status edmli_bind(const edml_operator *op, edmli_errbuf *e, const char *name, const EDML_BUFFER_BINDING *b,
                              const edmli_tensor *t, edmli_range *r)
{
    if (b->Offset & EDML_GPU_BINDING_BIT) return edmli_bind_gpu(op, e, name, b, t, r);
    return edmli_bind_host(op->obj.device, e, name, b, t->total_bytes, t->elem_size, r);
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
                                   const edmli_range *in_r, const edmli_range *out_r, edmli_exec *ex, bool *from_arena,
                                   const char *scratch_of)
{
    edml_device *dev = op->obj.device;
    const char *name = "the temporary buffer";
    *from_arena = false;
    if (!op->temp_bytes) return EDML_STATUS_OK;
    if (!temporary && op->own_scratch) { /* kept since its creation */
        ex->scratch = (uint8_t *)(uintptr_t)op + op->own_scratch;
        return EDML_STATUS_OK;
    }
    if (!temporary) {
        void *p;
        edml_status s = edmli_arena_scratch(&dev->arena, e, scratch_of, (size_t)op->temp_bytes, &p);
        ex->scratch = (uint8_t *)p;
        *from_arena = s == EDML_STATUS_OK;
        return s;
    }
    if (temporary->Offset & EDML_GPU_BINDING_BIT)
        return edmli_fail(e, EDMLI_MSG_TEMP_GPU, (unsigned long long)temporary->Offset);
    if (temporary->Buffer && temporary->SizeInBytes < op->temp_bytes)
        return edmli_fail(e, EDMLI_MSG_TEMP_SMALL, (unsigned long long)temporary->SizeInBytes,
                          (unsigned long long)op->temp_bytes);
    edmli_range tr;
    edml_status s = edmli_bind_host(dev, e, name, temporary, op->temp_bytes, EDMLI_ALIGN, &tr);
    if (s) return s;
    for (uint32_t i = 0; i < op->input_count; i++)
        if (edmli_overlap(&tr, &in_r[i])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, name, op->input_names[i]);
    for (uint32_t o = 0; o < op->output_count; o++)
        if (edmli_overlap(&tr, &out_r[o])) return edmli_fail(e, EDMLI_MSG_BIND_OVERLAP, name, op->output_names[o]);
    ex->scratch = (uint8_t *)tr.start;
    return EDML_STATUS_OK;
}

/* ---- running ------------------------------------------------------------------ */

/* The kernel of backend b; one on the CPU reads and writes GPU-buffer
 * tensors through the CPU's view of them. */
static edml_status edmli_run_on(edml_operator *op, const edmli_exec *ex, edml_backend b, bool resident)
{
    const edmli_backend *be = edmli_backends[b];
    if (resident && be->on_cpu) return edmli_gpu_view_run(op, ex, be->kernels[op->kind]);
    return be->kernels[op->kind](op, ex);
}

/* An AUTO operator on the CPU after its backend could not run it. */
static edml_status edmli_run_on_cpu(edml_operator *op, const edmli_exec *ex, edml_status status, bool for_good,
                                    bool resident)
{
    edml_device *dev = op->obj.device;
    const edml_backend cpu = edmli_cpu_backend(dev, op->kind), was = op->backend;
    char msg[EDMLI_MESSAGE_BYTES];
    edmli_format(msg, sizeof msg, "%s: %s could not run it (%s); %s on %s", edmli_op_name(op->type),
                 edmli_backend_title(was), ex->err->text, for_good ? "this device continues" : "this call runs",
                 edml_backend_name(cpu));
    if (ex->err->log) ex->err->log(ex->err->log_user, status, msg);
    if (for_good) op->backend = cpu;
    ex->err->text[0] = '\0';
    return edmli_run_on(op, ex, cpu, resident);
}

/* Whether the operator's backend can run it now: an AUTO operator whose
 * kernels are still being built, or could not be checked yet, runs this
 * call on the CPU (*cpu; said once); one whose kernels can never run (a
 * known-answer test failed) moves to the CPU for good, said; with `wait` (a
 * named backend, GPU-resident tensors, a command list) the build is waited
 * for, and a kernel that cannot run, or not yet, is the call's status. */
static EDMLI_NOINLINE edml_status edmli_settle(edml_operator *op, const edmli_exec *ex, bool wait, bool *cpu)
{
    edml_device *dev = op->obj.device;
    const edmli_backend *be = edmli_backends[op->backend];
    *cpu = false;
    if (!be->ready || !(dev->backends & EDML_BACKEND_BIT(op->backend))) return EDML_STATUS_OK;
    char why[EDMLI_MESSAGE_BYTES / 2], msg[EDMLI_MESSAGE_BYTES];
    wait = wait || op->requested != EDML_BACKEND_AUTO;
    const edmli_readiness r = be->ready(op, wait, ex->scratch, why, sizeof why);
    if (r == EDMLI_READY) return EDML_STATUS_OK;
    const edml_backend cpu_be = edmli_cpu_backend(dev, op->kind);
    const char *name = edml_backend_name(op->backend);
    if (wait && r == EDMLI_SHORT) return edmli_fail(ex->err, EDMLI_MSG_NOT_READY_SHORT, name, why);
    if (wait && r == EDMLI_MAPPED) return edmli_fail(ex->err, EDMLI_MSG_NOT_READY_MAPPED, name, why);
    if (wait) return edmli_fail(ex->err, EDMLI_MSG_BACKEND_FAILED, name, why);
    if (r != EDMLI_NEVER && op->later_logged) {
        *cpu = true;
        return EDML_STATUS_OK;
    }
    edmli_format(msg, sizeof msg, "%s runs on %s %s: %s", edmli_op_name(op->type), edml_backend_name(cpu_be),
                 r == EDMLI_LATER   ? "until its GPU kernels are built"
                 : r == EDMLI_NEVER ? "from now on"
                                    : "until its GPU kernels could be checked",
                 why);
    if (ex->err->log) ex->err->log(ex->err->log_user, EDML_STATUS_OK, msg);
    if (r == EDMLI_NEVER) op->backend = cpu_be;
    op->later_logged = true;
    *cpu = r != EDMLI_NEVER;
    return EDML_STATUS_OK;
}

static bool edmli_resident(const edml_operator *op, const edmli_exec *ex)
{
    bool resident = false;
    for (uint32_t i = 0; i < op->input_count; i++) resident |= ex->in_gpu[i] != EDMLI_HOST;
    for (uint32_t o = 0; o < op->output_count; o++) resident |= ex->out_gpu[o] != EDMLI_HOST;
    return resident;
}

/* Runs the kernel where placement puts it. A failure of a backend off the
 * CPU (a GL error, a fence that timed out) on an operator created with AUTO
 * takes that backend off the device for good, with the reason logged, and
 * the operator reruns on the CPU; its own memory running out (the GPU arena
 * full) moves this call only (*moved either way). An operator that asked
 * for the backend by name fails with the status instead. Such a backend
 * writes no output when it fails. */
static edml_status edmli_run_placed(edml_operator *op, const edmli_exec *ex, edml_backend b, bool resident, bool *moved)
{
    edml_device *dev = op->obj.device;
    const edmli_backend *be = edmli_backends[b];
    edml_status s = edmli_run_on(op, ex, b, resident);
    if (be->on_cpu || (s != EDML_STATUS_BACKEND_FAILED && s != EDML_STATUS_ARENA_TOO_SMALL)) return s;
    *moved = true;
    const bool failed = s == EDML_STATUS_BACKEND_FAILED; /* else its own memory ran out */
    if (failed) edmli_backend_lost(dev, op->backend, ex->err->text);
    /* GPU buffers are out of the CPU's reach once the GPU failed */
    if (op->requested != EDML_BACKEND_AUTO || (resident && failed)) return s;
    return edmli_run_on_cpu(op, ex, s, failed, resident);
}

/* Runs the kernel: on the CPU while the GPU's kernels are not ready
 * (cpu_now), else where placement says (measuring it where it may). */
static edml_status edmli_run(edml_operator *op, const edmli_exec *ex, bool resident, bool cpu_now)
{
    edml_device *dev = op->obj.device;
    if (!(dev->backends & EDML_BACKEND_BIT(op->backend))) { /* lost since creation */
        if (op->requested != EDML_BACKEND_AUTO)
            return edmli_fail(ex->err, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name(op->backend),
                              dev->why[op->backend]);
        op->backend = edmli_cpu_backend(dev, op->kind);
    }
    if (cpu_now) return edmli_run_on(op, ex, edmli_cpu_backend(dev, op->kind), resident);
    bool moved = false;
    if (!op->measurable) return edmli_run_placed(op, ex, op->backend, resident, &moved);
    edmli_place_call pc;
    const edmli_bind_kind kind = resident ? EDMLI_BIND_GPU : EDMLI_BIND_HOST;
    const edml_backend b = edmli_place_begin(op, kind, ex->timed, &pc);
    const edml_status s = edmli_run_placed(op, ex, b, resident, &moved);
    edmli_place_end(op, &pc, s, moved);
    return s;
}

edml_status edmli_operator_run(edml_operator *op, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                               const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                               const EDML_BUFFER_BINDING *temporary, edmli_run_mode mode, uint32_t entry)
{
    edml_device *dev = op->obj.device;
    edmli_errbuf *e = &dev->err;
    edmli_range in_r[EDMLI_MAX_INPUTS], out_r[EDMLI_MAX_OUTPUTS];
    edmli_exec ex;
    memset(&ex, 0, sizeof ex);
    ex.err = e;
    ex.par = dev->par;
    ex.entry = entry;
    ex.timed = mode == EDMLI_RUN_TIMED;
    const bool check_only = mode == EDMLI_RUN_CHECK;
    bool arena_scratch = false;
    edml_status s = EDML_STATUS_OK;
    if (inputCount != op->input_count)
        s = edmli_fail(e, EDMLI_MSG_BIND_COUNT, "inputCount", inputCount, op->input_count);
    else if (outputCount != op->output_count)
        s = edmli_fail(e, EDMLI_MSG_BIND_COUNT, "outputCount", outputCount, op->output_count);
    else if (!inputs)
        s = edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "inputs");
    else if (!outputs)
        s = edmli_fail(e, EDMLI_MSG_NULL_ARGUMENT, "outputs");
    if (!s) s = edmli_bind_all(op, e, inputs, outputs, in_r, out_r, &ex);
    /* what a short arena's message names: constants, no formatting on the hot path */
    const char *scratch_of = check_only                ? "scratch of edml_command_list_record"
                             : entry != EDMLI_NO_ENTRY ? "scratch of edml_command_list_submit"
                                                       : "scratch of edml_operator_execute";
    if (!s) s = edmli_bind_temp(op, e, temporary, in_r, out_r, &ex, &arena_scratch, scratch_of);
    /* ready first (a GPU kernel's first check runs in the execution's scratch); a list's entries are
     * made ready as they are recorded */
    bool cpu_now = false;
    const bool resident = !s && edmli_resident(op, &ex);
    if (!s) s = edmli_settle(op, &ex, check_only || resident || entry != EDMLI_NO_ENTRY, &cpu_now);
    if (!s && !check_only) s = edmli_run(op, &ex, resident, cpu_now);
    if (arena_scratch) edmli_arena_release_scratch(&dev->arena);
    return s;
}

/* A command list's batched execution that clamped indices: its bindings
 * bound again (checked when it ran), its status worded by its backend as
 * its execute would have worded it. */
edml_status edmli_operator_clamped(edml_operator *op, const EDML_BUFFER_BINDING *inputs,
                                   const EDML_BUFFER_BINDING *outputs, const uint32_t status[2])
{
    edml_device *dev = op->obj.device;
    edmli_range in_r[EDMLI_MAX_INPUTS], out_r[EDMLI_MAX_OUTPUTS];
    edmli_exec ex;
    memset(&ex, 0, sizeof ex);
    ex.err = &dev->err;
    ex.par = dev->par;
    const edmli_backend *be = edmli_backends[op->backend];
    edml_status s = edmli_bind_all(op, ex.err, inputs, outputs, in_r, out_r, &ex);
    if (!s && !be->batch_clamped) /* a batch's clamps come only from a backend that words them */
        s = edmli_fail(ex.err, EDMLI_MSG_BACKEND_FAILED, edml_backend_name(op->backend), "it clamped indices unworded");
    return s ? s : be->batch_clamped(op, &ex, status);
}

edml_status edml_operator_execute(edml_operator *handle, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                                  const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                  const EDML_BUFFER_BINDING *temporary)
{
    edml_operator *op;
    edml_status s = edmli_op_enter(handle, &op);
    if (s) return s;
    edml_device *dev = op->obj.device;
    s = edmli_operator_run(op, inputs, inputCount, outputs, outputCount, temporary, EDMLI_RUN_TIMED, EDMLI_NO_ENTRY);
    /* clamped indices come back every call, but are logged once per operator */
    bool log = s != EDML_STATUS_INDEX_OUT_OF_RANGE || !op->index_oor_logged;
    if (s == EDML_STATUS_INDEX_OUT_OF_RANGE) op->index_oor_logged = true;
    edmli_device_leave(dev, s, log);
    return s;
}
