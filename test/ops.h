/* One small operator of each type with known results, for the unit, misuse,
 * fault, GPU-buffer, allocation and thread tests: every operator type of the
 * library's schema (edml_operator_schemas()) has one, the test/cases/ file
 * with a "// sample:" line, embedded at build time. A new operator's tests
 * come with its sample; a type without one fails the test that asks. */
#ifndef EDML_TEST_OPS_H
#define EDML_TEST_OPS_H

#include "testlib.h"
#include "case.h"
#include "image.h"

#define OPS_MAX 32 /* operator types a test may keep something for */

typedef struct ops_case {
    const char *name; /* the operator type, e.g. "TOP_K1" */
    int nin, nout;
    tl_tensor in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    uint8_t *expected[CASE_MAX_OUTPUTS];
    edml_case src; /* the sample as parsed; its descriptor names in[] and out[] */
    EDML_OPERATOR_DESC desc;
} ops_case;

#define OPS_SENTINEL 0xcd

/* how many operator types there are: ops_make(c, 0 .. ops_count() - 1) */
static inline int ops_count(void)
{
    UINT n;
    edml_operator_schemas(&n);
    return n < OPS_MAX ? (int)n : OPS_MAX;
}

/* The embedded sample of an operator type, parsed into c->src, or false. */
static inline bool ops_find_sample(ops_case *c, EDML_OPERATOR_TYPE type)
{
    char err[300];
    for (int i = 0; i < edml_embedded_case_count; i++) {
        const char *text = edml_embedded_cases[i].text;
        if (strncmp(text, "// sample:", 10) != 0 && !strstr(text, "\n// sample:")) continue;
        if (case_parse(text, edml_embedded_cases[i].path, &c->src, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            abort();
        }
        if (c->src.op == type) return true;
        case_free(&c->src);
    }
    return false;
}

/* A test tensor holding a case tensor's header and (inputs) its data. */
static inline void ops_tensor(tl_tensor *t, const case_tensor *ct, bool output)
{
    memset(t, 0, sizeof *t);
    t->dtype = ct->dtype;
    t->rank = ct->rank;
    memcpy(t->sizes, ct->sizes, ct->rank * sizeof(UINT));
    tl_layout(t, NULL, 0);
    tl_finish(t, NULL, OPS_SENTINEL);
    if (!output) memcpy(t->buf, ct->data, (size_t)tl_count(t) * tl_type_size(t->dtype));
}

/* The sample of an operator type: its tensors (outputs full of OPS_SENTINEL),
 * the expected outputs, its descriptor. */
static inline void ops_make_type(ops_case *c, EDML_OPERATOR_TYPE type)
{
    memset(c, 0, sizeof *c);
    if (!ops_find_sample(c, type)) {
        const edml_operator_schema *sc = edml_operator_schema_of(type);
        fprintf(stderr, "test/ops.h: %s has no sample: give one of its test/cases/ files a \"// sample:\" line\n",
                sc ? sc->name : "an unknown type");
        abort();
    }
    const edml_case *s = &c->src;
    c->name = s->schema->name;
    c->nin = s->ninputs, c->nout = s->noutputs;
    const EDML_TENSOR_DESC *in[CASE_MAX_INPUTS], *out[CASE_MAX_OUTPUTS];
    for (int i = 0; i < c->nin; i++) {
        if (s->inputs[i].has_strides) abort(); /* samples are packed */
        ops_tensor(&c->in[i], &s->inputs[i], false);
        in[i] = &c->in[i].d;
    }
    for (int o = 0; o < c->nout; o++) {
        ops_tensor(&c->out[o], &s->outputs[o], true);
        out[o] = &c->out[o].d;
        c->expected[o] = malloc((size_t)c->out[o].total);
        memset(c->expected[o], OPS_SENTINEL, (size_t)c->out[o].total);
        memcpy(c->expected[o], s->outputs[o].data, (size_t)tl_count(&c->out[o]) * tl_type_size(c->out[o].dtype));
    }
    case_build_desc(&c->src, in, out);
    c->desc = c->src.desc;
}

/* The sample of the which-th operator type of the schema. */
static inline void ops_make(ops_case *c, int which)
{
    UINT n;
    const edml_operator_schema *all = edml_operator_schemas(&n);
    if (which < 0 || (UINT)which >= n) abort();
    ops_make_type(c, all[which].type);
}

/* The operator types backend b has a kernel for (AUTO: every one), in
 * schema order: ops_make_on(c, i, b) for i below ops_count_on(b). A backend
 * may leave operators out (edml_operator_backends()); the tests that name
 * one run what it has. */
static inline int ops_count_on(edml_backend b)
{
    UINT n;
    const edml_operator_schema *all = edml_operator_schemas(&n);
    int count = 0;
    for (UINT i = 0; i < n && count < OPS_MAX; i++)
        count += b == EDML_BACKEND_AUTO || (edml_operator_backends(all[i].type) & EDML_BACKEND_BIT(b));
    return count;
}

static inline void ops_make_on(ops_case *c, int which, edml_backend b)
{
    UINT n;
    const edml_operator_schema *all = edml_operator_schemas(&n);
    for (UINT i = 0; i < n; i++)
        if (b == EDML_BACKEND_AUTO || (edml_operator_backends(all[i].type) & EDML_BACKEND_BIT(b)))
            if (which-- == 0) {
                ops_make_type(c, all[i].type);
                return;
            }
    abort();
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
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
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
    case_free(&c->src);
}

#endif
