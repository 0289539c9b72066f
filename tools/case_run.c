/* The .case format: a parsed case's descriptor built, run on a device,
 * its outputs printed and compared (case.c parses). */
#include "case.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- descriptors and running ---------------------------------------------- */

static void build_tensor(case_tensor *t)
{
    UINT64 total = t->buffer.TotalTensorSizeInBytes;
    memset(&t->buffer, 0, sizeof t->buffer);
    t->buffer.DataType = t->dtype;
    t->buffer.Flags = EDML_TENSOR_FLAG_NONE;
    t->buffer.DimensionCount = t->rank;
    t->buffer.Sizes = t->sizes;
    t->buffer.Strides = t->has_strides ? t->strides : NULL;
    t->buffer.TotalTensorSizeInBytes = t->has_total ? total : 0;
    t->desc.Type = EDML_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buffer;
}

/* Writes one member into the descriptor at its schema offset. */
static void put_member(edml_case *c, UINT f, const EDML_TENSOR_DESC *const *inputs,
                       const EDML_TENSOR_DESC *const *outputs, int *in, int *out)
{
    const edml_schema_field *fd = &c->schema->fields[f];
    unsigned char *at = c->desc_bytes + fd->offset;
    const EDML_TENSOR_DESC *tensor;
    const UINT *list = c->list[f];
    const EDML_AXIS_DIRECTION dir = (EDML_AXIS_DIRECTION)c->value[f];
    switch (fd->type) {
    case EDML_SCHEMA_FIELD_INPUT_TENSOR:
        tensor = inputs ? inputs[*in] : &c->inputs[*in].desc;
        ++*in;
        memcpy(at, &tensor, sizeof tensor);
        break;
    case EDML_SCHEMA_FIELD_OUTPUT_TENSOR:
        tensor = outputs ? outputs[*out] : &c->outputs[*out].desc;
        ++*out;
        memcpy(at, &tensor, sizeof tensor);
        break;
    case EDML_SCHEMA_FIELD_UINT_ARRAY: memcpy(at, &list, sizeof list); break;
    case EDML_SCHEMA_FIELD_AXIS_DIRECTION: memcpy(at, &dir, sizeof dir); break;
    default: memcpy(at, &c->value[f], sizeof(UINT)); break;
    }
}

void case_build_desc(edml_case *c, const EDML_TENSOR_DESC *const *inputs, const EDML_TENSOR_DESC *const *outputs)
{
    for (int i = 0; i < c->ninputs; i++) build_tensor(&c->inputs[i]);
    for (int i = 0; i < c->noutputs; i++) build_tensor(&c->outputs[i]);
    memset(c->desc_bytes, 0, sizeof c->desc_bytes);
    int in = 0, out = 0;
    for (UINT f = 0; f < c->schema->field_count; f++) put_member(c, f, inputs, outputs, &in, &out);
    c->desc.Type = c->op;
    c->desc.Desc = c->desc_bytes;
}

/* 16-byte aligned copies so the library sees aligned buffers */
static void *aligned_buffer(uint64_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 16, bytes ? (size_t)bytes : 16)) return NULL;
    return p;
}

/* the pool of case_device_new's devices (tools run one device at a time) */
static edml_pool *case_pool;
static void *case_pool_memory;

static bool case_pool_start(uint32_t threads, char *why, size_t cap)
{
    size_t bytes = edml_pool_size(threads, 0);
    if (!bytes) {
        snprintf(why, cap, "--threads %u: edml's pool is not built here (PORT=none)", (unsigned)threads);
        return false;
    }
    if (posix_memalign(&case_pool_memory, 64, bytes)) case_pool_memory = NULL;
    edml_status s = case_pool_memory ? edml_pool_create(threads, 0, case_pool_memory, bytes, &case_pool)
                                     : EDML_STATUS_ARENA_TOO_SMALL;
    if (s) {
        snprintf(why, cap, "edml_pool_create(%u): %s", (unsigned)threads, edml_status_string(s));
        free(case_pool_memory);
        case_pool_memory = NULL;
        return false;
    }
    return true;
}

const edml_board *case_board;
uint32_t case_fault_at;

const edml_board *case_board_gpu_always(void)
{
    static edml_board b;
    b = *edml_board_builtin();
    b.gpu_min_elements = b.gpu_min_elements_copy = b.gpu_topk_min_row = 0;
    b.gpu_software_ok = 1;
    b.cost_model = NULL, b.cost_model_terms = 0; /* the thresholds alone */
    return &b;
}

bool case_refused(const edml_case *c, const case_result *r)
{
    const edml_status s = r->exec_status ? r->exec_status : r->create_status;
    if (s != EDML_STATUS_BACKEND_UNAVAILABLE && s != EDML_STATUS_BACKEND_FAILED && s != EDML_STATUS_ARENA_TOO_SMALL &&
        s != EDML_STATUS_BUSY)
        return false;
    for (int o = 0; o < c->noutputs; o++)
        for (uint64_t b = 0; r->out[o] && b < c->outputs[o].total_bytes; b++)
            if (r->out[o][b] != 0xcd) return false;
    return true;
}

edml_device *case_device_new(edml_backend backend, uint32_t threads, uint32_t faults, char *why, size_t cap)
{
    return case_device_new_sized(backend, threads, faults, 256 * 1024, why, cap);
}

edml_device *case_device_new_sized(edml_backend backend, uint32_t threads, uint32_t faults, size_t arena_bytes,
                                   char *why, size_t cap)
{
    size_t size = edml_device_size() + arena_bytes;
    edml_device_desc dd = {0};
    if (backend != EDML_BACKEND_AUTO) dd.backends = EDML_BACKEND_BIT(backend) | EDML_BACKEND_BIT(EDML_BACKEND_REF);
    dd.inject_faults = faults;
    dd.board = case_board;
    dd.inject_fault_at = case_fault_at;
    if (threads > 1) {
        if (!case_pool && !case_pool_start(threads, why, cap)) return NULL;
        dd.parallel_for = edml_pool_parallel_for;
        dd.parallel_context = case_pool;
        dd.workers = threads;
    }
    void *arena = aligned_buffer(size);
    if (arena) memset(arena, 0, size); /* edml_device_create reads the arena's head (a live device?) */
    edml_device *dev = NULL;
    edml_status s = arena ? edml_device_create(&dd, arena, size, &dev) : EDML_STATUS_ARENA_TOO_SMALL;
    if (s) {
        snprintf(why, cap, "edml_device_create: %s", edml_status_string(s));
        free(arena);
        return NULL;
    }
    return dev;
}

void case_device_free(edml_device *dev)
{
    if (!dev) return;
    edml_device_destroy(dev);
    free(dev); /* the device sits at the start of its arena */
    if (case_pool) edml_pool_destroy(case_pool);
    free(case_pool_memory);
    case_pool = NULL;
    case_pool_memory = NULL;
}

edml_status case_run(edml_case *c, edml_device *dev, edml_backend backend, case_result *r)
{
    memset(r, 0, sizeof *r);
    case_build_desc(c, NULL, NULL);
    edml_operator *op = NULL;
    r->create_status = edml_operator_create(dev, &c->desc, backend, &op);
    if (r->create_status) {
        snprintf(r->message, sizeof r->message, "%s", edml_device_last_error(dev));
        return r->create_status;
    }
    EDML_BINDING_PROPERTIES props;
    edml_operator_get_binding_properties(op, &props);
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS], temp;
    void *in_copy[CASE_MAX_INPUTS] = {0};
    for (int i = 0; i < c->ninputs; i++) {
        in_copy[i] = aligned_buffer(c->inputs[i].total_bytes);
        memcpy(in_copy[i], c->inputs[i].data, (size_t)c->inputs[i].total_bytes);
        in[i] = (EDML_BUFFER_BINDING){in_copy[i], 0, c->inputs[i].total_bytes};
    }
    for (int i = 0; i < c->noutputs; i++) {
        r->out[i] = aligned_buffer(c->outputs[i].total_bytes);
        memset(r->out[i], 0xcd, (size_t)c->outputs[i].total_bytes);
        out[i] = (EDML_BUFFER_BINDING){r->out[i], 0, c->outputs[i].total_bytes};
    }
    void *scratch = aligned_buffer(props.TemporaryResourceSize);
    temp = (EDML_BUFFER_BINDING){scratch, 0, props.TemporaryResourceSize};
    r->exec_status = edml_operator_execute(op, in, (UINT)c->ninputs, out, (UINT)c->noutputs, &temp);
    if (r->exec_status) snprintf(r->message, sizeof r->message, "%s", edml_device_last_error(dev));
    free(scratch);
    for (int i = 0; i < CASE_MAX_INPUTS; i++) free(in_copy[i]);
    edml_operator_destroy(op);
    return r->exec_status;
}

void case_result_free(case_result *r)
{
    for (int i = 0; i < CASE_MAX_OUTPUTS; i++) free(r->out[i]), r->out[i] = NULL;
}

/* ---- printing and comparing ----------------------------------------------- */

static void format_double(char *dst, size_t cap, double d, int max_digits)
{
    if (isnan(d)) {
        snprintf(dst, cap, "nan");
        return;
    }
    if (isinf(d)) {
        snprintf(dst, cap, d < 0 ? "-inf" : "inf");
        return;
    }
    if (d == 0) {
        snprintf(dst, cap, signbit(d) ? "-0" : "0");
        return;
    }
    /* the shortest text that reads back as the same value, plain decimal
     * where that is reasonable */
    bool plain = fabs(d) >= 1e-5 && fabs(d) < 1e16;
    for (int p = plain ? 0 : 1; p <= (plain ? 30 : max_digits); p++) {
        snprintf(dst, cap, plain ? "%.*f" : "%.*g", p, d);
        double back = strtod(dst, NULL);
        if (max_digits <= 9 ? (float)back == (float)d : back == d) return;
    }
    snprintf(dst, cap, "%.*g", max_digits, d);
}

void case_format_value(char *dst, size_t cap, EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT64: {
        double d;
        memcpy(&d, p, 8);
        format_double(dst, cap, d, 17);
        break;
    }
    case EDML_TENSOR_DATA_TYPE_FLOAT32: {
        float f;
        memcpy(&f, p, 4);
        format_double(dst, cap, f, 9);
        break;
    }
    case EDML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, p, 2);
        format_double(dst, cap, case_half_to_double(h), 17);
        break;
    }
    default: { /* integers */
        const bool is_signed = case_dtype_signed(t);
        const uint64_t v = case_int_load(p, edml_data_type_size(t), is_signed);
        if (is_signed)
            snprintf(dst, cap, "%" PRId64, (int64_t)v);
        else
            snprintf(dst, cap, "%" PRIu64, v);
        break;
    }
    }
}

void case_print_tensor(FILE *f, const case_tensor *t, const uint8_t *buffer)
{
    fprintf(f, "%s: (Sizes:{", t->name);
    for (UINT i = 0; i < t->rank; i++) fprintf(f, "%s%u", i ? "," : "", t->sizes[i]);
    fprintf(f, "}, DataType:%s)\n", case_dtype_name(t->dtype));
    uint64_t n = case_element_count(t);
    int width = 0;
    char v[64];
    for (uint64_t e = 0; e < n; e++) {
        case_format_value(v, sizeof v, t->dtype, buffer + case_element_offset(t, e));
        int l = (int)strlen(v);
        if (l > width) width = l;
    }
    UINT r = t->rank;
    for (uint64_t e = 0; e < n; e++) {
        /* open brackets of the dims that start here */
        UINT opening = 0;
        uint64_t q = e;
        for (UINT d = r; d-- > 0;) {
            if (q % t->sizes[d]) break;
            opening++;
            q /= t->sizes[d];
        }
        if (e > 0 && opening > 0) fprintf(f, "%*s", (int)(r - opening), "");
        for (UINT i = 0; i < opening; i++) fputc('[', f);
        case_format_value(v, sizeof v, t->dtype, buffer + case_element_offset(t, e));
        fprintf(f, "%*s", width, v);
        UINT closing = 0;
        q = e + 1;
        for (UINT d = r; d-- > 0;) {
            if (q % t->sizes[d]) break;
            closing++;
            q /= t->sizes[d];
        }
        for (UINT i = 0; i < closing; i++) fputc(']', f);
        if (e + 1 < n) fputs(closing ? ",\n" : ", ", f);
    }
    fputc('\n', f);
}

static bool is_nan_value(EDML_TENSOR_DATA_TYPE t, const uint8_t *p)
{
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT32) {
        uint32_t u;
        memcpy(&u, p, 4);
        return (u & 0x7fffffffu) > 0x7f800000u;
    }
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT64) {
        uint64_t u;
        memcpy(&u, p, 8);
        return (u & ~(1ull << 63)) > 0x7ff0000000000000ull;
    }
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t u;
        memcpy(&u, p, 2);
        return (u & 0x7fffu) > 0x7c00u;
    }
    return false;
}

bool case_compare(const edml_case *c, const case_result *r, char *msg, size_t cap)
{
    for (int o = 0; o < c->noutputs; o++) {
        const case_tensor *t = &c->outputs[o];
        if (!t->has_data) continue;
        UINT es = edml_data_type_size(t->dtype);
        uint64_t n = case_element_count(t);
        for (uint64_t e = 0; e < n; e++) {
            uint64_t off = case_element_offset(t, e);
            const uint8_t *want = t->data + off, *got = r->out[o] + off;
            if (memcmp(want, got, es) == 0) continue;
            if (is_nan_value(t->dtype, want) && is_nan_value(t->dtype, got)) continue;
            char ws[64], gs[64], pos[160];
            case_format_value(ws, sizeof ws, t->dtype, want);
            case_format_value(gs, sizeof gs, t->dtype, got);
            size_t pl = 0;
            uint64_t rem = e, coord[CASE_MAX_DIMS];
            for (UINT d = t->rank; d-- > 0;) {
                coord[d] = rem % t->sizes[d];
                rem /= t->sizes[d];
            }
            for (UINT d = 0; d < t->rank && pl < sizeof pos; d++)
                pl += (size_t)snprintf(pos + pl, sizeof pos - pl, "%s%" PRIu64, d ? "," : "", coord[d]);
            snprintf(msg, cap, "%s[%s] expected %s got %s", t->name, pos, ws, gs);
            return false;
        }
    }
    return true;
}

bool case_backend_has(const edml_case *c, edml_backend backend)
{
    return backend == EDML_BACKEND_AUTO || (edml_operator_backends(c->op) & EDML_BACKEND_BIT(backend));
}

bool case_check(edml_case *c, edml_device *dev, edml_backend backend, case_result *r, char *why, size_t cap)
{
    edml_status s = case_run(c, dev, backend, r);
    why[0] = '\0';
    if (s == EDML_STATUS_BACKEND_UNAVAILABLE) {
        snprintf(why, cap, "backend %s not available: %s", edml_backend_name(backend), r->message);
        return false;
    }
    if (c->expect_error) {
        if (s == EDML_STATUS_OK) {
            snprintf(why, cap, "expected an error, the call succeeded");
            return false;
        }
        if (c->expect_message[0] && !strstr(r->message, c->expect_message)) {
            snprintf(why, cap, "expected the message '%s', got %s: %s", c->expect_message, edml_status_string(s),
                     r->message);
            return false;
        }
        /* GatherND writes clamped outputs with its status: compare those too */
        if (s == EDML_STATUS_INDEX_OUT_OF_RANGE) return case_compare(c, r, why, cap);
        return true;
    }
    if (s != EDML_STATUS_OK) {
        snprintf(why, cap, "%s: %s", edml_status_string(s), r->message);
        return false;
    }
    return case_compare(c, r, why, cap);
}

uint32_t case_limits_fault(const char *name)
{
    static const struct {
        const char *name;
        uint32_t fault;
    } profiles[] = {{"v3d", EDML_FAULT_LIMITS_V3D},
                    {"mali", EDML_FAULT_LIMITS_MALI},
                    {"adreno", EDML_FAULT_LIMITS_ADRENO},
                    {"gles31", EDML_FAULT_LIMITS_GLES31}};
    for (size_t i = 0; i < sizeof profiles / sizeof *profiles; i++)
        if (!strcmp(name, profiles[i].name)) return profiles[i].fault;
    return 0;
}
