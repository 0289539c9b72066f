/* Command lists, after DirectML's command recorder: operator executions
 * recorded with their bindings (each checked as it is recorded, as
 * edml_operator_execute checks them), then run in order by one submission
 * and completed by a wait. A list is an object in the device arena, like an
 * operator, with room for `capacity` executions.
 *
 * In this version a submission runs the list before it returns, entry by
 * entry on the calling thread (the CPU backends through the device's
 * parallel-for, GLES one dispatch and fence an entry); the wait hands back
 * its outcome. A failed entry stops the list: entries before it have
 * written their outputs, it and those after it nothing, and the wait
 * returns its status with a message naming it. A GatherND entry that read
 * clamped indices does not stop it (its output is written); the wait
 * returns EDML_STATUS_INDEX_OUT_OF_RANGE for the first such entry. */
#include "internal.h"

#include <string.h>

#define EDMLI_LIST_MAX_CAPACITY (1u << 20)

typedef struct edmli_command {
    edml_operator *op; /* the handle, checked again at each submission */
    EDML_BUFFER_BINDING in[EDMLI_MAX_INPUTS], out[EDMLI_MAX_OUTPUTS], temp;
    uint32_t inputs, outputs;
    bool has_temp;
} edmli_command;

struct edml_command_list {
    edmli_object obj;
    uint32_t capacity, count;
    bool submitted; /* run, its outcome not yet taken by a wait */
    edml_status result;
    char message[EDMLI_MESSAGE_BYTES];
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
            edmli_object_push(dev, &l->obj, EDMLI_OBJ_COMMAND_LIST, mark);
            *out = (edml_command_list *)edmli_object_handle(&l->obj);
        }
    }
    edmli_device_leave(dev, s, true);
    return s;
}

static edml_status edmli_list_enter(edml_command_list *handle, edml_command_list **l)
{
    edmli_object *o;
    edml_status s = edmli_object_enter(handle, EDMLI_OBJ_COMMAND_LIST, &o);
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
    if (!s) s = edmli_object_check(dev, handle, EDMLI_OBJ_OPERATOR, &o, "the operator");
    if (s) return s;
    edml_operator *op = (edml_operator *)o;
    s = edmli_operator_run(op, inputs, inputCount, outputs, outputCount, temporary, true);
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
static edml_status edmli_list_run_one(edml_command_list *l, uint32_t i)
{
    edml_device *dev = l->obj.device;
    const edmli_command *c = &l->commands[i];
    edmli_object *o;
    edml_status s = edmli_object_check(dev, c->op, EDMLI_OBJ_OPERATOR, &o, "its operator");
    const char *name = "an operator";
    if (!s) {
        edml_operator *op = (edml_operator *)o;
        name = edmli_op_name(op->type);
        s = edmli_operator_run(op, c->in, c->inputs, c->out, c->outputs, c->has_temp ? &c->temp : NULL, false);
    }
    if (s && (s != EDML_STATUS_INDEX_OUT_OF_RANGE || l->result == EDML_STATUS_OK)) {
        l->result = s;
        edmli_format(l->message, sizeof l->message, "command list entry %u of %u (%s): %s", i, l->count, name,
                     dev->err.text);
    }
    dev->err.text[0] = '\0';
    return s;
}

/* Runs the entries in order, up to the first that fails (a clamped index is
 * not a failure: its output is written). */
static void edmli_list_run(edml_command_list *l)
{
    l->result = EDML_STATUS_OK;
    l->message[0] = '\0';
    for (uint32_t i = 0; i < l->count; i++) {
        const edml_status s = edmli_list_run_one(l, i);
        if (s && s != EDML_STATUS_INDEX_OUT_OF_RANGE) return;
    }
}

edml_status edml_command_list_submit(edml_command_list *handle)
{
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    s = edmli_list_idle(l, "edml_command_list_submit");
    if (!s) {
        edmli_list_run(l);
        l->submitted = true;
    }
    edmli_device_leave(l->obj.device, s, true);
    return s;
}

edml_status edml_command_list_wait(edml_command_list *handle, uint64_t timeout_ns)
{
    (void)timeout_ns; /* a submission is complete when it returns, in this version */
    edml_command_list *l;
    edml_status s = edmli_list_enter(handle, &l);
    if (s) return s;
    edml_device *dev = l->obj.device;
    bool log = true;
    if (!l->submitted) {
        s = edmli_fail(&dev->err, EDMLI_MSG_LIST_NOT_SUBMITTED);
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
    edmli_object_release(dev, &l->obj);
    edmli_device_leave(dev, s, true);
    return s;
}
