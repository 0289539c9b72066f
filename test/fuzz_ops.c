/* libFuzzer target: random operator descriptors and data, for every
 * operator of the schema (edml_operator_schemas()), those with a shaper
 * below more often valid. Any data type, rank 0
 * to 9, random sizes, strides, buffer sizes, axes, K, index and condition
 * types. The library must either reject the descriptor or the data with a
 * status, or produce exactly the reference backend's outputs, on every
 * backend (GLES on every 16th input: a GPU submission costs milliseconds on
 * llvmpipe). Buffers are exactly as large as declared, so AddressSanitizer
 * sees any access outside them. */
#include "edml.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint32_t take(reader *r, uint32_t bound)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        v = v << 8;
        if (r->n) v |= *r->p++, r->n--;
    }
    return bound ? v % bound : v;
}

typedef struct ftensor {
    UINT sizes[9], strides[9];
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
    UINT64 bytes;
} ftensor;

static const EDML_TENSOR_DATA_TYPE types[12] = {
    EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_DATA_TYPE_FLOAT16, EDML_TENSOR_DATA_TYPE_UINT32,
    EDML_TENSOR_DATA_TYPE_UINT16,  EDML_TENSOR_DATA_TYPE_UINT8,   EDML_TENSOR_DATA_TYPE_INT32,
    EDML_TENSOR_DATA_TYPE_INT16,   EDML_TENSOR_DATA_TYPE_INT8,    EDML_TENSOR_DATA_TYPE_FLOAT64,
    EDML_TENSOR_DATA_TYPE_UINT64,  EDML_TENSOR_DATA_TYPE_INT64,   (EDML_TENSOR_DATA_TYPE)12};

/* a tensor like `like` (when given) with small random changes */
static void make_tensor(reader *r, ftensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes)
{
    for (UINT i = 0; i < rank && i < 9; i++) {
        t->sizes[i] = sizes ? sizes[i] : 1 + take(r, 5);
        if (take(r, 64) == 0) t->sizes[i] = take(r, 0); /* 0 or huge now and then */
    }
    bool strided = take(r, 3) == 0;
    for (UINT i = 0; i < rank && i < 9; i++) t->strides[i] = take(r, 4) == 0 ? 0 : 1 + take(r, 40);
    t->b = (EDML_BUFFER_TENSOR_DESC){dt,
                                     take(r, 32) == 0 ? EDML_TENSOR_FLAG_OWNED_BY_DML : EDML_TENSOR_FLAG_NONE,
                                     rank,
                                     t->sizes,
                                     strided ? t->strides : NULL,
                                     0,
                                     0};
    UINT64 calc = edml_calc_buffer_tensor_size(dt, rank, t->sizes, strided ? t->strides : NULL);
    uint32_t how = take(r, 8);
    t->b.TotalTensorSizeInBytes = how == 0 ? calc - (calc ? 1 : 0) : how == 1 ? calc + 4 * take(r, 4) : 0;
    t->bytes = t->b.TotalTensorSizeInBytes ? t->b.TotalTensorSizeInBytes : calc;
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
}

static edml_device *devices[EDML_BACKEND_COUNT_];
static void *arenas[EDML_BACKEND_COUNT_];

static edml_device *device_for(edml_backend b)
{
    if (!devices[b]) {
        size_t size = edml_device_size() + 4096;
        arenas[b] = aligned_alloc(16, (size + 15) & ~(size_t)15);
        if (arenas[b]) memset(arenas[b], 0, size);
        edml_device_desc dd = {0};
        dd.backends = EDML_BACKEND_BIT(b);
        if (edml_device_create(&dd, arenas[b], size, &devices[b]) != EDML_STATUS_OK) devices[b] = NULL;
    }
    return devices[b];
}

#define MAX_BYTES (1u << 20)

/* one fuzzed operator: its tensors, its descriptor, its operands as bound */
#define MAX_OPERANDS 8

typedef struct fcase {
    ftensor t[MAX_OPERANDS];
    UINT axes[10];
    union {
        EDML_TOP_K1_OPERATOR_DESC topk;
        EDML_GATHER_ND1_OPERATOR_DESC gather_nd;
        EDML_ARGMIN_OPERATOR_DESC argreduce;
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC elementwise_if;
        _Alignas(16) unsigned char bytes[256]; /* any operator's, written from its schema */
    } u;
    EDML_OPERATOR_DESC desc;
    int nin, nout;
    ftensor *ops[MAX_OPERANDS]; /* inputs then outputs */
} fcase;

/* Any operator, from its schema alone: tensors like the first input (or
 * not), random members. An operator with no shaper above is fuzzed so too. */
static void make_generic(reader *r, fcase *c, const edml_operator_schema *sc, EDML_TENSOR_DATA_TYPE dt, UINT rank)
{
    if (sc->input_count + sc->output_count > MAX_OPERANDS || sc->desc_size > sizeof c->u.bytes) abort();
    int n = 0, nin = 0;
    ftensor *ins[MAX_OPERANDS], *outs[MAX_OPERANDS];
    c->nin = c->nout = 0;
    for (UINT f = 0; f < sc->field_count; f++) {
        const edml_schema_field *fd = &sc->fields[f];
        unsigned char *at = c->u.bytes + fd->offset;
        const UINT *list = c->axes;
        UINT v = take(r, rank + 2);
        if (fd->type == EDML_SCHEMA_FIELD_INPUT_TENSOR || fd->type == EDML_SCHEMA_FIELD_OUTPUT_TENSOR) {
            ftensor *t = &c->t[n];
            if (n++ > 0)
                make_tensor(r, t, take(r, 4) ? dt : types[take(r, 12)], rank, take(r, 2) ? c->t[0].sizes : NULL);
            const EDML_TENSOR_DESC *d = &t->d;
            memcpy(at, &d, sizeof d);
            if (fd->type == EDML_SCHEMA_FIELD_INPUT_TENSOR)
                ins[nin++] = t, c->nin++;
            else
                outs[c->nout++] = t;
        } else if (fd->type == EDML_SCHEMA_FIELD_UINT_ARRAY) {
            for (UINT i = 0; i < 10; i++) c->axes[i] = take(r, rank + 1);
            if (take(r, 16) == 0) list = NULL;
            memcpy(at, &list, sizeof list);
        } else {
            if (fd->type == EDML_SCHEMA_FIELD_AXIS_DIRECTION) v = take(r, 3);
            if (fd->type == EDML_SCHEMA_FIELD_UINT_COUNT) v = take(r, 11);
            memcpy(at, &v, sizeof v);
        }
    }
    for (int i = 0; i < c->nin; i++) c->ops[i] = ins[i];
    for (int o = 0; o < c->nout; o++) c->ops[c->nin + o] = outs[o];
    c->desc = (EDML_OPERATOR_DESC){sc->type, &c->u};
}

static void make_topk(reader *r, fcase *c, EDML_TENSOR_DATA_TYPE dt, UINT rank)
{
    ftensor *t = c->t;
    UINT axis = take(r, rank + 1), k = take(r, 8);
    UINT os[9];
    memcpy(os, t[0].sizes, sizeof os);
    if (axis < rank && axis < 9) os[axis] = k;
    make_tensor(r, &t[1], take(r, 8) ? dt : types[take(r, 12)], rank, os);
    make_tensor(r, &t[2], take(r, 2) ? EDML_TENSOR_DATA_TYPE_UINT32 : types[take(r, 12)], rank, os);
    c->u.topk = (EDML_TOP_K1_OPERATOR_DESC){&t[0].d, &t[1].d, &t[2].d, axis, k, (EDML_AXIS_DIRECTION)take(r, 3)};
    /* TOP_K's descriptor is TOP_K1's without AxisDirection */
    c->desc = (EDML_OPERATOR_DESC){take(r, 4) ? EDML_OPERATOR_TOP_K1 : EDML_OPERATOR_TOP_K, &c->u};
    c->nin = 1, c->nout = 2;
}

static void make_argreduce(reader *r, fcase *c, UINT rank)
{
    ftensor *t = c->t;
    UINT na = take(r, rank + 2);
    for (UINT i = 0; i < na && i < 10; i++) c->axes[i] = take(r, rank + 1);
    UINT os[9];
    memcpy(os, t[0].sizes, sizeof os);
    for (UINT i = 0; i < na && i < 10; i++)
        if (c->axes[i] < 9) os[c->axes[i]] = 1;
    make_tensor(r, &t[1], take(r, 2) ? EDML_TENSOR_DATA_TYPE_UINT32 : types[take(r, 12)], rank, os);
    c->u.argreduce = (EDML_ARGMIN_OPERATOR_DESC){&t[0].d, &t[1].d, na, take(r, 16) ? c->axes : NULL,
                                                 (EDML_AXIS_DIRECTION)take(r, 3)};
    c->desc = (EDML_OPERATOR_DESC){take(r, 2) ? EDML_OPERATOR_ARGMIN : EDML_OPERATOR_ARGMAX, &c->u};
    c->nin = 1, c->nout = 1;
}

static void make_case(reader *r, fcase *c)
{
    memset(c, 0, sizeof *c);
    ftensor *t = c->t;
    UINT rank = take(r, 10); /* 0..9 */
    EDML_TENSOR_DATA_TYPE dt = types[take(r, 12)];
    UINT n_types;
    const edml_operator_schema *schemas = edml_operator_schemas(&n_types);
    uint32_t kind = take(r, 4 + n_types);
    make_tensor(r, &t[0], dt, rank, NULL);
    for (int i = 0; i < 4; i++) c->ops[i] = &t[i];
    if (kind >= 4) {
        make_generic(r, c, &schemas[kind - 4], dt, rank);
    } else if (kind == 0) {
        make_topk(r, c, dt, rank);
    } else if (kind == 1) {
        make_argreduce(r, c, rank);
    } else if (kind == 2) {
        make_tensor(r, &t[1], take(r, 2) ? EDML_TENSOR_DATA_TYPE_INT32 : types[take(r, 12)], rank, NULL);
        make_tensor(r, &t[2], dt, rank, NULL);
        c->u.gather_nd = (EDML_GATHER_ND1_OPERATOR_DESC){&t[0].d,           &t[1].d,           &t[2].d,
                                                         take(r, rank + 1), take(r, rank + 1), take(r, rank + 1)};
        /* GATHER_ND's descriptor is GATHER_ND1's without BatchDimensionCount */
        c->desc = (EDML_OPERATOR_DESC){take(r, 4) ? EDML_OPERATOR_GATHER_ND1 : EDML_OPERATOR_GATHER_ND, &c->u};
        c->nin = 2, c->nout = 1;
    } else {
        make_tensor(r, &t[1], take(r, 4) ? EDML_TENSOR_DATA_TYPE_UINT8 : types[take(r, 12)], rank, t[0].sizes);
        make_tensor(r, &t[2], dt, rank, t[0].sizes);
        make_tensor(r, &t[3], dt, rank, t[0].sizes);
        c->u.elementwise_if = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&t[1].d, &t[0].d, &t[2].d, &t[3].d};
        c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &c->u};
        c->nin = 3, c->nout = 1;
        c->ops[0] = &t[1], c->ops[1] = &t[0];
    }
}

/* keep each operand quick: bytes and elements (broadcasts) */
static bool small_enough(const fcase *c)
{
    for (int i = 0; i < c->nin + c->nout; i++) {
        const ftensor *t = c->ops[i];
        if (t->bytes > MAX_BYTES) return false;
        uint64_t elems = 1;
        for (UINT d = 0; d < t->b.DimensionCount && d < 9; d++) {
            elems *= t->sizes[d] ? t->sizes[d] : 1;
            if (elems > MAX_BYTES) return false;
        }
    }
    return true;
}

/* runs the case on one backend into fresh outputs (sentinel 0x5a); a rejected
 * call must leave them as they were */
static edml_status run_on(const fcase *c, edml_backend b, uint8_t *const in[MAX_OPERANDS], uint8_t *out[MAX_OPERANDS])
{
    edml_device *dev = device_for(b);
    if (!dev) return EDML_STATUS_BACKEND_UNAVAILABLE;
    for (int o = 0; o < c->nout; o++) {
        out[o] = malloc((size_t)c->ops[c->nin + o]->bytes + 1);
        memset(out[o], 0x5a, (size_t)c->ops[c->nin + o]->bytes);
    }
    edml_operator *op = NULL;
    edml_status s = edml_operator_create(dev, &c->desc, b, &op);
    if (!s) {
        EDML_BUFFER_BINDING bi[MAX_OPERANDS], bo[MAX_OPERANDS];
        for (int i = 0; i < c->nin; i++) bi[i] = (EDML_BUFFER_BINDING){in[i], 0, c->ops[i]->bytes};
        for (int o = 0; o < c->nout; o++) bo[o] = (EDML_BUFFER_BINDING){out[o], 0, c->ops[c->nin + o]->bytes};
        EDML_BINDING_PROPERTIES props;
        edml_operator_get_binding_properties(op, &props);
        void *tmp = aligned_alloc(16, (props.TemporaryResourceSize + 15) & ~15ull);
        EDML_BUFFER_BINDING tb = {tmp, 0, props.TemporaryResourceSize};
        s = edml_operator_execute(op, bi, (UINT)c->nin, bo, (UINT)c->nout, &tb);
        free(tmp);
        edml_operator_destroy(op);
    }
    if (s != EDML_STATUS_OK && s != EDML_STATUS_INDEX_OUT_OF_RANGE)
        for (int o = 0; o < c->nout; o++) /* a rejected call writes nothing */
            for (UINT64 j = 0; j < c->ops[c->nin + o]->bytes; j++)
                if (out[o][j] != 0x5a) abort();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned long long count;
    static fcase c;
    reader r = {data, size};
    make_case(&r, &c);
    if (!small_enough(&c)) return 0;

    /* the data: exact-size buffers */
    uint8_t *in[MAX_OPERANDS], *ref_out[MAX_OPERANDS] = {0}, *out[MAX_OPERANDS] = {0};
    for (int i = 0; i < c.nin; i++) {
        in[i] = malloc((size_t)c.ops[i]->bytes + 1);
        for (UINT64 j = 0; j < c.ops[i]->bytes; j++) in[i][j] = (uint8_t)take(&r, 256);
    }
    count++;
    edml_status ref_status = run_on(&c, EDML_BACKEND_REF, in, ref_out);
    for (int b = EDML_BACKEND_REF + 1; b < EDML_BACKEND_COUNT_; b++) {
        if (b == EDML_BACKEND_GLES && count % 16) continue;
        if (!device_for((edml_backend)b)) continue;
        edml_status s = run_on(&c, (edml_backend)b, in, out);
        if (s != EDML_STATUS_BACKEND_UNAVAILABLE) { /* e.g. GLES's K limit */
            if (s != ref_status) abort();           /* every backend agrees with the reference */
            if (s == EDML_STATUS_OK || s == EDML_STATUS_INDEX_OUT_OF_RANGE)
                for (int o = 0; o < c.nout; o++)
                    if (memcmp(out[o], ref_out[o], (size_t)c.ops[c.nin + o]->bytes)) abort();
        }
        for (int o = 0; o < c.nout; o++) free(out[o]);
    }
    for (int o = 0; o < c.nout; o++) free(ref_out[o]);
    for (int i = 0; i < c.nin; i++) free(in[i]);
    return 0;
}
