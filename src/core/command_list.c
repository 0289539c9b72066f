/* Command lists, after DirectML's command recorder: operator executions
 * recorded with their bindings (each checked as it is recorded, as
 * edml_operator_execute checks them), then run in order by one submission
 * and completed by a wait. A list is an object in the device arena, like an
 * operator, with room for `capacity` executions.
 *
 * A submission runs CPU entries before it returns, on the calling thread
 * (through the device's parallel-for), and consecutive GLES entries as one
 * GPU submission (their uploads, dispatches with a barrier between entries,
 * one fence, then every download), unless an entry reads or writes host
 * memory that an earlier one of the batch writes (the batch completes
 * first). A batched GatherND's count of clamped indices comes back with
 * the batch, which words the first (its host indices read again). The
 * last batch is left running (flushed) when the submission returns; the
 * wait completes it, with a timeout, or any other GPU call on the device
 * does first (its outcome then waits in the list's ticket). */
#include "internal.h"

#include <string.h>

#define EDMLI_LIST_MAX_CAPACITY (1u << 20)

typedef struct edmli_command {
    edml_operator *op; /* the handle, checked again at each submission */
    EDML_BUFFER_BINDING in[EDMLI_MAX_INPUTS], out[EDMLI_MAX_OUTPUTS], temp;
    uint32_t inputs, outputs;
    bool has_temp;
} edmli_command;

struct edml_command_list;
typedef struct edmli_list_batch edmli_list_batch;

/* The open batch of a submission: entries [first, i) of one backend,
 * recorded but not yet complete. */
struct edmli_list_batch {
    const edmli_backend *be; /* NULL: none open */
    edml_backend backend;
    uint32_t first;
};

struct edml_command_list {
    edmli_object obj;
    uint32_t capacity, count;
    bool submitted; /* run, its outcome not yet taken by a wait */
    bool deferred;  /* submitted with edml_device_desc.poison_list_outputs: run by the wait */
    edml_status result;
    char message[EDMLI_MESSAGE_BYTES];
    edmli_list_batch pending; /* the submission's last batch, flushed, not yet complete */
    uint32_t pending_end;
    edmli_batch_ticket ticket;
    edmli_command commands[];
};

size_t edml_command_list_size(UINT capacity)
{
    if (capacity > EDMLI_LIST_MAX_CAPACITY) return 0;
    const size_t bytes = sizeof(edml_command_list) + (size_t)capacity * sizeof(edmli_command);
    return (bytes + EDMLI_ALIGN - 1) & ~(size_t)(EDMLI_ALIGN - 1);
}

edml_status edml_command_list_create(edml_device *dev, UINT capacity, edml_command_list **out)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!out) {
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "list");
    } else if (capacity == 0 || capacity > EDMLI_LIST_MAX_CAPACITY) {
        *out = NULL;
        s = edmli_fail(&dev->err, EDMLI_MSG_LIST_CAPACITY, capacity, EDMLI_LIST_MAX_CAPACITY);
    } else {
        *out = NULL;
        const size_t mark = dev->arena.head;
        void *mem = NULL;
        s = edmli_arena_alloc(&dev->arena, &dev->err, "edml_command_list_create", edml_command_list_size(capacity),
                              &mem);
        if (!s) {
            edml_command_list *l = (edml_command_list *)mem;
            memset(l, 0, sizeof *l);
            l->capacity = capacity;
            edmli_object_push(dev, &l->obj, EDMLI_OBJ_COMMAND_LIST, mark, EDMLI_NO_GPU_MARK);
            *out = (edml_command_list *)edmli_object_handle(&l->obj);
        }
    }
    edmli_device_leave(dev, s, true);
    return s;
}

static edml_status edmli_list_enter(edml_command_list *handle, edml_command_list **l)
{
    edmli_object *o;
    edml_status s = edmli_object_enter(handle, EDMLI_OBJ_COMMAND_LIST, NULL, &o);
    *l = s ? NULL : (edml_command_list *)o;
    return s;
}

/* Refuses to change or submit a list whose outcome no wait has taken. */
static edml_status edmli_list_idle(edml_command_list *l, const char *call)
{
    if (!l->submitted) return EDML_STATUS_OK;
    return edmli_fail(&l->obj.device->err, EDMLI_MSG_LIST_SUBMITTED, call);
}

static edml_status edmli_list_record(edml_command_list *l, edml_operator *handle, const EDML_BUFFER_BINDING *inputs,
                                     UINT inputCount, const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                     const EDML_BUFFER_BINDING *temporary)
{
    edml_device *dev = l->obj.device;
    edmli_object *o;
    edml_status s = edmli_list_idle(l, "edml_command_list_record");
    if (!s && l->count == l->capacity) s = edmli_fail(&dev->err, EDMLI_MSG_LIST_FULL, l->capacity);
    if (!s) s = edmli_object_check(dev, handle, EDMLI_OBJ_OPERATOR, &o, "the operator (op)");
    if (s) return s;
    edml_operator *op = (edml_operator *)o;
    s = edmli_operator_run(op, inputs, inputCount, outputs, outputCount, temporary, EDMLI_RUN_CHECK, l->count);
    if (s) return s;
    edmli_command *c = &l->commands[l->count++];
    memset(c, 0, sizeof *c);
    c->op = handle;
    c->inputs = inputCount;
    c->outputs = outputCount;
    memcpy(c->in, inputs, inputCount * sizeof inputs[0]);
    memcpy(c->out, outputs, outputCount * sizeof outputs[0]);
    c->has_temp = temporary != NULL;
    if (temporary) c->temp = *temporary;
    return EDML_STATUS_OK;
}

edml_status edml_command_list_record(edml_command_list *handle, edml_operator *op, const EDML_BUFFER_BINDING *inputs,
                                     UINT inputCount, const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                     const EDML_BUFFER_BINDING *temporary)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    s = edmli_list_record(l, op, inputs, inputCount, outputs, outputCount, temporary);
    edmli_device_leave(l->obj.device, s, true);
    return s;
}

/* Entry i: its operator checked again (it may have been destroyed since it
 * was recorded), then run. The list's outcome becomes a failure's status
 * and message, naming the entry, or the first clamped entry's. */
static edml_status edmli_list_run_one(edml_command_list *l, uint32_t i, edmli_run_mode mode)
{
    edml_device *dev = l->obj.device;
    const edmli_command *c = &l->commands[i];
    edmli_object *o;
    edml_status s = edmli_object_check(dev, c->op, EDMLI_OBJ_OPERATOR, &o, "its operator");
    const char *name = "an operator";
    if (!s) {
        edml_operator *op = (edml_operator *)o;
        name = edmli_op_name(op->type);
        s = edmli_operator_run(op, c->in, c->inputs, c->out, c->outputs, c->has_temp ? &c->temp : NULL, mode, i);
    }
    if (s && (s != EDML_STATUS_INDEX_OUT_OF_RANGE || l->result == EDML_STATUS_OK)) {
        l->result = s;
        edmli_format(l->message, sizeof l->message, "command list entry %u of %u (%s): %s", i, l->count, name,
                     dev->err.text);
    }
    dev->err.text[0] = '\0';
    return s;
}

static bool edmli_host_overlap(const EDML_BUFFER_BINDING *a, const EDML_BUFFER_BINDING *b)
{
    if ((a->Offset | b->Offset) & EDML_GPU_BINDING_BIT) return false; /* GPU data: ordered by barriers */
    const uintptr_t a0 = (uintptr_t)a->Buffer + (uintptr_t)a->Offset, b0 = (uintptr_t)b->Buffer + (uintptr_t)b->Offset;
    return a0 < b0 + (uintptr_t)b->SizeInBytes && b0 < a0 + (uintptr_t)a->SizeInBytes;
}

/* A command's operator, or NULL where it is no longer live (the device's
 * message left as it was: run_one reports a bad handle). */
static edml_operator *edmli_list_op(const edml_command_list *l, const edmli_command *c)
{
    edml_device *dev = l->obj.device;
    edmli_object *o;
    char keep[EDMLI_MESSAGE_BYTES];
    memcpy(keep, dev->err.text, sizeof keep);
    const bool live = edmli_object_check(dev, c->op, EDMLI_OBJ_OPERATOR, &o, "its operator") == 0;
    memcpy(dev->err.text, keep, sizeof keep);
    return live ? (edml_operator *)o : NULL;
}

/* Whether a command's operator is a GatherND (its indices are read again
 * when its batch completes, if it clamped one). */
static bool edmli_list_gathers(const edml_command_list *l, const edmli_command *c)
{
    const edml_operator *op = edmli_list_op(l, c);
    return op && op->kind == EDMLI_OP_GATHER_ND;
}

/* Whether entry c touches host memory that a batched entry before it
 * writes when the batch completes (read after write, write after write),
 * or writes the host indices of a batched GatherND (read again then). */
static bool edmli_list_depends(const edml_command_list *l, const edmli_list_batch *b, uint32_t i)
{
    const edmli_command *c = &l->commands[i];
    for (uint32_t e = b->first; e < i; e++) {
        const edmli_command *before = &l->commands[e];
        for (uint32_t o = 0; o < before->outputs; o++) {
            for (uint32_t k = 0; k < c->inputs; k++)
                if (edmli_host_overlap(&c->in[k], &before->out[o])) return true;
            for (uint32_t k = 0; k < c->outputs; k++)
                if (edmli_host_overlap(&c->out[k], &before->out[o])) return true;
        }
        for (uint32_t k = 0; k < c->outputs && before->inputs > 1; k++)
            if (edmli_host_overlap(&c->out[k], &before->in[1]) && edmli_list_gathers(l, before)) return true;
    }
    return false;
}

/* Entry i's operator and its backend's batch hooks, where it runs on one
 * that has them (AUTO's placement for the entry's kind of bindings). */
static const edmli_backend *edmli_list_batcher(const edml_command_list *l, uint32_t i, edml_operator **op)
{
    const edmli_command *c = &l->commands[i];
    edml_operator *live = edmli_list_op(l, c);
    if (!live) return NULL;
    *op = live;
    bool gpu = false;
    for (uint32_t k = 0; k < c->inputs; k++) gpu |= (c->in[k].Offset & EDML_GPU_BINDING_BIT) != 0;
    for (uint32_t k = 0; k < c->outputs; k++) gpu |= (c->out[k].Offset & EDML_GPU_BINDING_BIT) != 0;
    const edmli_bind_kind kind = gpu ? EDMLI_BIND_GPU : EDMLI_BIND_HOST;
    if (edmli_place_measuring(live, kind)) return NULL; /* run alone, so that measured placement times it */
    const edml_backend b = edmli_place_backend(live, kind);
    const edmli_backend *be = edmli_device_backend(l->obj.device, b);
    return be && be->batch_begin ? be : NULL;
}

/* A batch whose backend failed (its ticket says how): the device loses
 * that backend (as edml_operator_execute's would) and the batch's entries
 * run again one by one: on the CPU where created with AUTO, else failing. */
static edml_status edmli_list_batch_failed(edml_command_list *l, const edmli_list_batch *b, uint32_t end)
{
    edml_device *dev = l->obj.device;
    edml_status s = l->ticket.status;
    edmli_backend_lost(dev, b->backend, l->ticket.message);
    if (dev->err.log) {
        char line[EDMLI_MESSAGE_BYTES];
        edmli_format(line, sizeof line, "command list entries %u to %u: %s %s; they run again one by one", b->first,
                     end - 1, edml_backend_name(b->backend), dev->why[b->backend]);
        dev->err.log(dev->err.log_user, s, line);
    }
    for (uint32_t i = b->first; i < end; i++) {
        edml_operator *op = NULL;
        (void)edmli_list_batcher(l, i, &op);
        if (op && op->requested != EDML_BACKEND_AUTO) { /* asked for by name: the failure is its own */
            l->result = EDML_STATUS_BACKEND_FAILED;
            edmli_format(l->message, sizeof l->message, "command list entry %u of %u (%s): backend %s %s", i, l->count,
                         edmli_op_name(op->type), edml_backend_name(op->backend), dev->why[b->backend]);
            return l->result;
        }
        s = edmli_list_run_one(l, i, EDMLI_RUN_TIMED);
        if (s && s != EDML_STATUS_INDEX_OUT_OF_RANGE) return s;
    }
    return EDML_STATUS_OK;
}

/* Sends the open batch to its backend, which runs it while the caller goes
 * on (its outcome in l->ticket); l->pending keeps it for the wait. */
static edml_status edmli_list_flush_batch(edml_command_list *l, edmli_list_batch *b, uint32_t end)
{
    if (!b->be) return EDML_STATUS_OK;
    edml_device *dev = l->obj.device;
    l->pending = *b;
    l->pending_end = end;
    b->be = NULL;
    if (l->pending.be->batch_flush(dev->state[l->pending.backend], &l->ticket) == EDML_STATUS_OK) return EDML_STATUS_OK;
    l->pending.be = NULL;
    return edmli_list_batch_failed(l, b, end);
}

/* A completed batch's first entry that clamped indices: the list's
 * outcome, unless an entry before it (or a failure) gave it one. */
static void edmli_list_clamped(edml_command_list *l, uint32_t i)
{
    edml_device *dev = l->obj.device;
    const edmli_command *c = &l->commands[i];
    edmli_object *o;
    const char *name = "an operator";
    if (l->result != EDML_STATUS_OK || i >= l->count) return;
    edml_status s = edmli_object_check(dev, c->op, EDMLI_OBJ_OPERATOR, &o, "its operator");
    if (!s) {
        name = edmli_op_name(((edml_operator *)o)->type);
        s = edmli_operator_clamped((edml_operator *)o, c->in, c->out, l->ticket.clamped_status);
    }
    l->result = s;
    edmli_format(l->message, sizeof l->message, "command list entry %u of %u (%s): %s", i, l->count, name,
                 dev->err.text);
    dev->err.text[0] = '\0';
}

/* Waits up to timeout_ns for the flushed batch; EDML_STATUS_TIMEOUT while
 * it runs, else the outcome of its entries (after a failure, theirs run
 * again). */
static edml_status edmli_list_complete(edml_command_list *l, uint64_t timeout_ns)
{
    if (!l->pending.be) return EDML_STATUS_OK;
    edml_device *dev = l->obj.device;
    const edmli_list_batch b = l->pending;
    edml_status s = b.be->batch_complete(dev->state[b.backend], &l->ticket, timeout_ns);
    if (s == EDML_STATUS_TIMEOUT) return s;
    l->pending.be = NULL;
    if (s == EDML_STATUS_OK && l->ticket.clamped) edmli_list_clamped(l, l->ticket.clamped_entry);
    return s == EDML_STATUS_OK ? s : edmli_list_batch_failed(l, &b, l->pending_end);
}

/* Completes the open batch before what follows it. */
static edml_status edmli_list_end_batch(edml_command_list *l, edmli_list_batch *b, uint32_t end)
{
    edml_status s = edmli_list_flush_batch(l, b, end);
    return s ? s : edmli_list_complete(l, UINT64_MAX);
}

/* Entry i within the batching: it joins the open batch, or ends it and
 * (its backend batching) opens the next. An entry that ran out of the
 * batch's staging runs again after the batch is complete. */
static edml_status edmli_list_step(edml_command_list *l, edmli_list_batch *b, uint32_t i)
{
    edml_device *dev = l->obj.device;
    edml_operator *op = NULL;
    const edmli_backend *be = edmli_list_batcher(l, i, &op);
    const bool join =
        b->be && be == b->be && be->batch_takes(dev->state[op->backend], op) && !edmli_list_depends(l, b, i);
    edml_status s = EDML_STATUS_OK;
    if (b->be && !join) {
        if ((s = edmli_list_end_batch(l, b, i))) return s;
        be = edmli_list_batcher(l, i, &op); /* a failed batch may have moved op to the CPU */
    }
    if (be && !b->be && be->batch_takes(dev->state[op->backend], op) &&
        be->batch_begin(dev->state[op->backend], &dev->err) == EDML_STATUS_OK)
        *b = (edmli_list_batch){.be = be, .backend = op->backend, .first = i};
    const bool may_retry = b->be && b->first < i;
    const edml_status was = l->result;
    char message[EDMLI_MESSAGE_BYTES];
    if (may_retry) memcpy(message, l->message, sizeof message);
    s = edmli_list_run_one(l, i, b->be ? EDMLI_RUN_BATCHED : EDMLI_RUN_TIMED);
    if (s == EDML_STATUS_ARENA_TOO_SMALL && may_retry) {
        l->result = was;
        memcpy(l->message, message, sizeof message);
        if ((s = edmli_list_end_batch(l, b, i))) return s;
        s = edmli_list_run_one(l, i, b->be ? EDMLI_RUN_BATCHED : EDMLI_RUN_TIMED);
    }
    if (s && s != EDML_STATUS_INDEX_OUT_OF_RANGE) {
        edmli_list_end_batch(l, b, i); /* those before it are written; a failure there is theirs */
        return s;
    }
    return EDML_STATUS_OK;
}

/* Runs the entries in order, up to the first that fails (a clamped index is
 * not a failure: its output is written); consecutive entries of a batching
 * backend (GLES) as one submission. */
static void edmli_list_run(edml_command_list *l)
{
    l->result = EDML_STATUS_OK;
    l->message[0] = '\0';
    edmli_list_batch b = {0};
    for (uint32_t i = 0; i < l->count; i++)
        if (edmli_list_step(l, &b, i)) return;
    edmli_list_flush_batch(l, &b, l->count); /* the last batch runs on: the wait completes it */
}

/* The elements tensor t addresses at base set to 0xA5 (the bytes between
 * them left as they are). */
static void edmli_poison_tensor(uint8_t *base, const edmli_tensor *t)
{
    uint32_t at[EDMLI_MAX_DIMS] = {0};
    for (uint64_t n = 0; n < t->elem_count; n++) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < t->rank; d++) off += (uint64_t)at[d] * t->strides[d];
        memset(base + off * t->elem_size, 0xA5, t->elem_size);
        for (uint32_t d = t->rank; d-- > 0 && ++at[d] == t->sizes[d];) at[d] = 0;
    }
}

/* edml_device_desc.poison_list_outputs: the elements of every host output
 * of the list set to 0xA5 at the submission, as a GPU leaves outputs
 * undefined until the wait (an output that is also some entry's host input
 * is left as it is: that entry reads it). */
static void edmli_list_poison(edml_command_list *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        const edml_operator *op = edmli_list_op(l, &l->commands[i]);
        for (uint32_t o = 0; op && o < l->commands[i].outputs; o++) {
            const EDML_BUFFER_BINDING *b = &l->commands[i].out[o];
            bool read = (b->Offset & EDML_GPU_BINDING_BIT) != 0 || !b->Buffer;
            for (uint32_t e = 0; e < l->count && !read; e++)
                for (uint32_t k = 0; k < l->commands[e].inputs && !read; k++)
                    read = edmli_host_overlap(&l->commands[e].in[k], b);
            if (!read) edmli_poison_tensor((uint8_t *)b->Buffer + b->Offset, &op->outputs[o]);
        }
    }
}

edml_status edml_command_list_submit(edml_command_list *handle)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    s = edmli_list_idle(l, "edml_command_list_submit");
    l->deferred = !s && l->obj.device->desc.poison_list_outputs;
    if (l->deferred) edmli_list_poison(l);
    if (!s && !l->deferred) edmli_list_run(l);
    if (!s) l->submitted = true;
    edmli_device_leave(l->obj.device, s, true);
    return s;
}

edml_status edml_command_list_wait(edml_command_list *handle, uint64_t timeout_ns)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    edml_device *dev = l->obj.device;
    bool log = true;
    if (l->submitted && l->deferred) { /* poison_list_outputs: the work runs now */
        l->deferred = false;
        edmli_list_run(l);
    }
    if (!l->submitted) {
        s = edmli_fail(&dev->err, EDMLI_MSG_LIST_NOT_SUBMITTED);
    } else if (edmli_list_complete(l, timeout_ns) == EDML_STATUS_TIMEOUT) {
        s = edmli_fail(&dev->err, EDMLI_MSG_LIST_RUNNING, (unsigned long long)timeout_ns);
        log = false; /* a poll, not a failure */
    } else {
        l->submitted = false;
        s = l->result;
        if (s) edmli_fail(&dev->err, s, "%s", l->message);
        log = s != EDML_STATUS_INDEX_OUT_OF_RANGE; /* as a clamped execute: logged by its operator once */
    }
    edmli_device_leave(dev, s, log);
    return s;
}

edml_status edml_command_list_reset(edml_command_list *handle)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    s = edmli_list_idle(l, "edml_command_list_reset");
    if (!s) l->count = 0;
    edmli_device_leave(l->obj.device, s, true);
    return s;
}

UINT edml_command_list_count(const edml_command_list *handle)
{
    edml_command_list *l;
    if (edmli_list_enter((edml_command_list *)(uintptr_t)handle, &l)) return 0;
    const UINT n = l->count;
    edmli_device_leave(l->obj.device, EDML_STATUS_OK, true);
    return n;
}

edml_status edml_command_list_destroy(edml_command_list *handle)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    edml_device *dev = l->obj.device;
    (void)edmli_list_complete(l, UINT64_MAX); /* a submission still running completes first */
    edmli_object_release(dev, &l->obj);
    edmli_device_leave(dev, s, true);
    return s;
}
