/* edml-bench --placement --cases FILE...: operators of the user's own
 * shapes, from .case files (docs/case-format.md) whose inputs may leave
 * out their data: such an input is filled at random, as its type allows
 * (floats in [-1, 1), integers any value), GatherND's indices within the
 * input's sizes, so that no call takes the out-of-range path. Their
 * outputs' data, if given, is not used: every backend's outputs are set
 * against the reference backend's, as the built-in workloads' are. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t case_rng = 0x2545f4914f6cdd1dull;

static uint64_t next_random(void)
{
    case_rng ^= case_rng << 13, case_rng ^= case_rng >> 7, case_rng ^= case_rng << 17;
    return case_rng;
}

/* One element at p of type dt, at random: floats uniform in [-1, 1). */
static void random_element(uint8_t *p, EDML_TENSOR_DATA_TYPE dt)
{
    const double u = (double)(next_random() >> 11) / 9007199254740992.0 * 2 - 1;
    uint64_t bits = next_random();
    if (dt == EDML_TENSOR_DATA_TYPE_FLOAT32) {
        const float f = (float)u;
        memcpy(p, &f, 4);
    } else if (dt == EDML_TENSOR_DATA_TYPE_FLOAT64) {
        memcpy(p, &u, 8);
    } else if (dt == EDML_TENSOR_DATA_TYPE_FLOAT16) {
        const uint16_t h = (uint16_t)((u < 0 ? 0x8000u : 0u) | (uint16_t)(0x3000u + (bits & 0x0bffu))); /* |x| < 1 */
        memcpy(p, &h, 2);
    } else {
        memcpy(p, &bits, edml_data_type_size(dt));
    }
}

/* The schema member `name`'s value in the case (0 where it has none). */
static UINT member(const edml_case *c, const char *name)
{
    for (UINT f = 0; f < c->schema->field_count; f++)
        if (!strcmp(c->schema->fields[f].name, name)) return c->value[f];
    return 0;
}

/* GatherND's indices: coordinate j of every tuple within the input's
 * size along its dimension B + j of the meaningful ones (docs/semantics.md). */
static void random_indices(const edml_case *c, case_tensor *t)
{
    const case_tensor *in = &c->inputs[0];
    const UINT tuple = t->sizes[t->rank - 1], batch = member(c, "BatchDimensionCount");
    const UINT first = in->rank - member(c, "InputDimensionCount") + batch;
    const uint64_t n = case_element_count(t);
    const UINT es = edml_data_type_size(t->dtype);
    for (uint64_t e = 0; e < n; e++) {
        const UINT j = (UINT)(e % tuple), size = first + j < in->rank ? in->sizes[first + j] : 1;
        case_int_store(t->data + case_element_offset(t, e), es, next_random() % (size ? size : 1));
    }
}

/* tensor t of the workload, laid out as the case's c says, its data the
 * case's (or none yet). */
static void tensor_of(tensor *t, const case_tensor *c)
{
    memset(t, 0, sizeof *t);
    t->dtype = c->dtype;
    t->rank = c->rank;
    memcpy(t->sizes, c->sizes, c->rank * sizeof(UINT));
    if (c->has_strides) memcpy(t->strides, c->strides, c->rank * sizeof(UINT)), t->strided = true;
    t->count = case_element_count(c);
    t->bytes = c->total_bytes;
    t->b = (EDML_BUFFER_TENSOR_DESC){
        c->dtype, EDML_TENSOR_FLAG_NONE, c->rank, t->sizes, t->strided ? t->strides : NULL, t->bytes, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    if (posix_memalign((void **)&t->host, 64, (size_t)t->bytes + 64)) abort();
    memset(t->host, 0, (size_t)t->bytes);
    if (c->data) memcpy(t->host, c->data, (size_t)t->bytes);
}

/* The case's inputs without data filled at random. */
static void fill_inputs(edml_case *c)
{
    for (int i = 0; i < c->ninputs; i++) {
        case_tensor *t = &c->inputs[i];
        if (t->has_data || t->data) continue;
        if (posix_memalign((void **)&t->data, 64, (size_t)t->total_bytes + 64)) abort();
        memset(t->data, 0, (size_t)t->total_bytes);
        if (c->op == EDML_OPERATOR_GATHER_ND1 && i == 1) {
            random_indices(c, t);
            continue;
        }
        const UINT es = edml_data_type_size(t->dtype);
        for (uint64_t at = 0; at + es <= t->total_bytes; at += es) random_element(t->data + at, t->dtype);
    }
}

bool workload_from_case(workload *w, const char *path, char *err, size_t cap)
{
    memset(w, 0, sizeof *w);
    edml_case *c = malloc(sizeof *c);
    if (!c || case_load_shapes(path, c, err, cap)) return free(c), false;
    if (c->ninputs > 3 || c->noutputs > 2) {
        snprintf(err, cap, "%s: %d inputs, %d outputs: more than a workload holds", path, c->ninputs, c->noutputs);
        return case_free(c), free(c), false;
    }
    for (int i = 0; i < c->ninputs + c->noutputs; i++) {
        const case_tensor *t = i < c->ninputs ? &c->inputs[i] : &c->outputs[i - c->ninputs];
        if (t->rank < 1 || t->rank > 8) {
            snprintf(err, cap, "%s: %s has %u dimensions, not 1 to 8", path, t->name, (unsigned)t->rank);
            return case_free(c), free(c), false;
        }
    }
    fill_inputs(c);
    const EDML_TENSOR_DESC *ins[3], *outs[2];
    w->nin = c->ninputs, w->nout = c->noutputs;
    for (int i = 0; i < w->nin; i++) tensor_of(&w->in[i], &c->inputs[i]), ins[i] = &w->in[i].d;
    for (int o = 0; o < w->nout; o++) {
        tensor_of(&w->out[o], &c->outputs[o]);
        memset(w->out[o].host, 0, (size_t)w->out[o].bytes); /* expected data, if any, is not the reference */
        outs[o] = &w->out[o].d;
    }
    case_build_desc(c, ins, outs);
    w->desc = c->desc;
    for (int i = 0; i < w->nin; i++) w->bytes += w->in[i].bytes;
    for (int o = 0; o < w->nout; o++) w->bytes += w->out[o].bytes;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* its name: the file's, without .case (in the case's path buffer, which lives with it) */
    snprintf(c->path, sizeof c->path, "%.*s",
             (int)(strlen(base) > 5 && !strcmp(base + strlen(base) - 5, ".case") ? strlen(base) - 5 : strlen(base)),
             base);
    w->name = c->path;
    w->owned = c; /* its descriptor's storage; free_workload frees it */
    return true;
}

void free_case_of(workload *w)
{
    edml_case *c = w->owned;
    if (c) case_free(c), free(c);
    w->owned = NULL;
}
