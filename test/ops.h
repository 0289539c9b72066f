/* One small operator of each of the seven types with known results (from the
 * DirectML pages' examples), for unit, allocation and thread tests. */
#ifndef EDML_TEST_OPS_H
#define EDML_TEST_OPS_H

#include "testlib.h"

enum {
    OPS_TOPK,
    OPS_TOPK0,
    OPS_GATHER,
    OPS_GATHER0,
    OPS_ARGMIN,
    OPS_ARGMAX,
    OPS_ELEMENTWISE_IF,
    OPS_COUNT
};

typedef struct ops_case {
    const char *name;
    int nin, nout;
    tl_tensor in[3], out[2];
    uint8_t *expected[2];
    UINT axes[2];
    union {
        EDML_TOP_K1_OPERATOR_DESC topk;
        EDML_TOP_K_OPERATOR_DESC topk0;
        EDML_GATHER_ND1_OPERATOR_DESC gather_nd;
        EDML_GATHER_ND_OPERATOR_DESC gather_nd0;
        EDML_ARGMIN_OPERATOR_DESC argreduce;
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC elementwise_if;
    } u;
    EDML_OPERATOR_DESC desc;
} ops_case;

#define OPS_SENTINEL 0xcd

static inline void ops_tensor(tl_tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const void *data)
{
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->rank = rank;
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    tl_layout(t, NULL, 0);
    tl_finish(t, NULL, data ? 0 : OPS_SENTINEL);
    if (data) memcpy(t->buf, data, (size_t)tl_count(t) * tl_type_size(dt));
}

static inline void ops_expect(ops_case *c, int o, const void *data)
{
    c->expected[o] = malloc((size_t)c->out[o].total);
    memset(c->expected[o], OPS_SENTINEL, (size_t)c->out[o].total);
    memcpy(c->expected[o], data, (size_t)tl_count(&c->out[o]) * tl_type_size(c->out[o].dtype));
}

static inline void ops_make(ops_case *c, int which)
{
    memset(c, 0, sizeof *c);
    static const float topk_in[12] = {0, 1, 10, 11, 3, 2, 9, 8, 4, 5, 6, 7};
    static const UINT s4[4] = {1, 1, 3, 4}, s4k[4] = {1, 1, 3, 2};
    static const float topk_val[6] = {11, 10, 9, 8, 7, 6};
    static const uint32_t topk_idx[6] = {3, 2, 2, 3, 3, 2};
    static const float arg_in[9] = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    static const UINT s33[2] = {3, 3}, s13[2] = {1, 3};
    switch (which) {
    case OPS_TOPK:
    case OPS_TOPK0:
        c->name = which == OPS_TOPK ? "TOP_K1" : "TOP_K";
        c->nin = 1, c->nout = 2;
        ops_tensor(&c->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 4, s4, topk_in);
        ops_tensor(&c->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 4, s4k, NULL);
        ops_tensor(&c->out[1], EDML_TENSOR_DATA_TYPE_UINT32, 4, s4k, NULL);
        ops_expect(c, 0, topk_val);
        ops_expect(c, 1, topk_idx);
        if (which == OPS_TOPK) {
            c->u.topk = (EDML_TOP_K1_OPERATOR_DESC){
                &c->in[0].d, &c->out[0].d, &c->out[1].d, 3, 2, EDML_AXIS_DIRECTION_DECREASING};
            c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_TOP_K1, &c->u};
        } else {
            c->u.topk0 = (EDML_TOP_K_OPERATOR_DESC){&c->in[0].d, &c->out[0].d, &c->out[1].d, 3, 2};
            c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_TOP_K, &c->u};
        }
        break;
    case OPS_GATHER:
    case OPS_GATHER0: {
        static const float gin[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        static const uint32_t gix[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
        static const float gout[6] = {0, 3, 7, 4, 9, 10};
        static const UINT si[4] = {1, 3, 2, 2}, so[4] = {1, 1, 3, 2};
        static const float g0in[4] = {0, 1, 2, 3};
        static const uint32_t g0ix[2] = {1, 0};
        static const float g0out[4] = {2, 3, 0, 1};
        static const UINT s22[2] = {2, 2}, s21[2] = {2, 1};
        c->nin = 2, c->nout = 1;
        if (which == OPS_GATHER) {
            c->name = "GATHER_ND1";
            ops_tensor(&c->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 4, si, gin);
            ops_tensor(&c->in[1], EDML_TENSOR_DATA_TYPE_UINT32, 4, si, gix);
            ops_tensor(&c->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 4, so, NULL);
            ops_expect(c, 0, gout);
            c->u.gather_nd = (EDML_GATHER_ND1_OPERATOR_DESC){&c->in[0].d, &c->in[1].d, &c->out[0].d, 3, 3, 1};
            c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_GATHER_ND1, &c->u};
        } else {
            c->name = "GATHER_ND";
            ops_tensor(&c->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s22, g0in);
            ops_tensor(&c->in[1], EDML_TENSOR_DATA_TYPE_UINT32, 2, s21, g0ix);
            ops_tensor(&c->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s22, NULL);
            ops_expect(c, 0, g0out);
            c->u.gather_nd0 = (EDML_GATHER_ND_OPERATOR_DESC){&c->in[0].d, &c->in[1].d, &c->out[0].d, 2, 2};
            c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_GATHER_ND, &c->u};
        }
        break;
    }
    case OPS_ARGMIN:
    case OPS_ARGMAX: {
        static const uint32_t amin[3] = {0, 1, 2}, amax[3] = {1, 2, 1};
        c->name = which == OPS_ARGMIN ? "ARGMIN" : "ARGMAX";
        c->nin = 1, c->nout = 1;
        ops_tensor(&c->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s33, arg_in);
        ops_tensor(&c->out[0], EDML_TENSOR_DATA_TYPE_UINT32, 2, s13, NULL);
        ops_expect(c, 0, which == OPS_ARGMIN ? amin : amax);
        c->axes[0] = 0;
        c->u.argreduce =
            (EDML_ARGMIN_OPERATOR_DESC){&c->in[0].d, &c->out[0].d, 1, c->axes, EDML_AXIS_DIRECTION_INCREASING};
        c->desc = (EDML_OPERATOR_DESC){which == OPS_ARGMIN ? EDML_OPERATOR_ARGMIN : EDML_OPERATOR_ARGMAX, &c->u};
        break;
    }
    default: {
        static const uint8_t cond[4] = {1, 0, 1, 1};
        static const float a[4] = {1, 2, 3, 4}, b[4] = {9, 8, 7, 6}, o[4] = {1, 8, 3, 4};
        static const UINT s22[2] = {2, 2};
        c->name = "ELEMENT_WISE_IF";
        c->nin = 3, c->nout = 1;
        ops_tensor(&c->in[0], EDML_TENSOR_DATA_TYPE_UINT8, 2, s22, cond);
        ops_tensor(&c->in[1], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s22, a);
        ops_tensor(&c->in[2], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s22, b);
        ops_tensor(&c->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, 2, s22, NULL);
        ops_expect(c, 0, o);
        c->u.elementwise_if = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&c->in[0].d, &c->in[1].d, &c->in[2].d, &c->out[0].d};
        c->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &c->u};
        break;
    }
    }
}

static inline void ops_reset_outputs(ops_case *c)
{
    for (int o = 0; o < c->nout; o++) memset(c->out[o].buf, OPS_SENTINEL, (size_t)c->out[o].total);
}

static inline void ops_bindings(const ops_case *c, EDML_BUFFER_BINDING *in, EDML_BUFFER_BINDING *out)
{
    for (int i = 0; i < c->nin; i++) in[i] = tl_bind(&c->in[i]);
    for (int o = 0; o < c->nout; o++) out[o] = tl_bind(&c->out[o]);
}

static inline edml_status ops_execute(ops_case *c, edml_operator *op, const EDML_BUFFER_BINDING *temp)
{
    EDML_BUFFER_BINDING in[3], out[2];
    ops_bindings(c, in, out);
    return edml_operator_execute(op, in, (UINT)c->nin, out, (UINT)c->nout, temp);
}

static inline bool ops_outputs_match(const ops_case *c)
{
    for (int o = 0; o < c->nout; o++)
        if (memcmp(c->out[o].buf, c->expected[o], (size_t)c->out[o].total)) return false;
    return true;
}

static inline bool ops_buffer_matches_expected(const ops_case *c, const uint8_t *buf)
{
    return memcmp(buf, c->expected[0], (size_t)c->out[0].total) == 0;
}

static inline bool ops_outputs_untouched(const ops_case *c)
{
    for (int o = 0; o < c->nout; o++)
        for (uint64_t i = 0; i < c->out[o].total; i++)
            if (c->out[o].buf[i] != OPS_SENTINEL) return false;
    return true;
}

static inline void ops_free(ops_case *c)
{
    for (int i = 0; i < c->nin; i++) tl_free(&c->in[i]);
    for (int o = 0; o < c->nout; o++) tl_free(&c->out[o]), free(c->expected[o]);
}

#endif
