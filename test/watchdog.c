/* V3D's watchdog (src/gles/gles_watchdog.c, gles_shapes.h), from inside:
 * under V3D's limits the planners keep each invocation's loops within the
 * caps the model was checked for (make gpu-targets), and the answers stay
 * the reference's: ArgMin down a long strided axis takes more chunks;
 * argreduce_cols's batches stay capped (its workgroups widened, or argreduce
 * taking the shape); TopK of a row too long for one workgroup goes to the
 * per-invocation lists where they hold K, and is refused by name (AUTO on
 * the CPU) where they do not. On this GPU's own limits the plans are as
 * before. */
#define _POSIX_C_SOURCE 200809L
#include "gles/gles.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static edml_device *make(uint32_t faults, uint32_t backends)
{
    const size_t size = edml_device_size() + (1u << 20);
    void *arena = aligned_alloc(16, size);
    if (!arena) abort();
    memset(arena, 0, size);
    edml_device_desc dd = {0};
    dd.inject_faults = faults;
    dd.backends = backends;
    dd.gpu_arena_bytes = 128u << 20;
    edml_device *dev = NULL;
    if (edml_device_create(&dd, arena, size, &dev) != EDML_STATUS_OK) abort();
    return dev;
}

static void destroy(edml_device *dev)
{
    edml_device_destroy(dev);
    free(dev); /* the device sits at the start of its arena */
}

static edml_device *ref_dev;

/* The GLES plan of an operator (a handle carries a generation beside the
 * address: the object is at the address). */
static const edmli_gles_plan *plan_of(edml_operator *handle)
{
    return EDMLI_GLES_PLAN((const edml_operator *)edmli_handle_address(handle));
}

/* Runs desc on op and on the reference: whether the outputs are equal (each
 * output `out_bytes[o]` bytes; the input `in_bytes` of small whole numbers). */
static bool same_as_ref(edml_operator *op, const EDML_OPERATOR_DESC *desc, size_t in_bytes, const size_t *out_bytes,
                        UINT nout, bool bytes)
{
    float *in = malloc(in_bytes);
    uint8_t *out[2], *want[2];
    EDML_BUFFER_BINDING bi = {in, 0, in_bytes}, bo[2], bw[2];
    for (size_t i = 0; !bytes && i < in_bytes / 4; i++) in[i] = (float)((i * 2654435761u >> 7) % 1000u);
    for (size_t i = 0; bytes && i < in_bytes; i++) ((uint8_t *)in)[i] = (uint8_t)((i * 2654435761u) >> 13);
    for (UINT o = 0; o < nout; o++) {
        out[o] = malloc(out_bytes[o]), want[o] = malloc(out_bytes[o]);
        memset(out[o], 0xcd, out_bytes[o]);
        bo[o] = (EDML_BUFFER_BINDING){out[o], 0, out_bytes[o]}, bw[o] = (EDML_BUFFER_BINDING){want[o], 0, out_bytes[o]};
    }
    edml_operator *r = NULL;
    bool same = edml_operator_create(ref_dev, desc, EDML_BACKEND_REF, &r) == EDML_STATUS_OK &&
                edml_operator_execute(r, &bi, 1, bw, nout, NULL) == EDML_STATUS_OK &&
                edml_operator_execute(op, &bi, 1, bo, nout, NULL) == EDML_STATUS_OK;
    for (UINT o = 0; o < nout; o++) same = same && !memcmp(out[o], want[o], out_bytes[o]), free(out[o]), free(want[o]);
    if (r) edml_operator_destroy(r);
    free(in);
    return same;
}

/* ArgMin down axis 0 of rows x cols floats (or bytes): its plan, right. */
static edmli_gles_reduce_shape argmin_rows(edml_device *dev, UINT rows, UINT cols, bool bytes, const char *what)
{
    const UINT in_sizes[2] = {rows, cols}, out_sizes[2] = {1, cols}, axis[1] = {0};
    const EDML_TENSOR_DATA_TYPE dt = bytes ? EDML_TENSOR_DATA_TYPE_UINT8 : EDML_TENSOR_DATA_TYPE_FLOAT32;
    EDML_BUFFER_TENSOR_DESC ib = {dt, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0},
                            ob = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, ot = {EDML_TENSOR_TYPE_BUFFER, &ob};
    EDML_ARGMIN_OPERATOR_DESC am = {&it, &ot, 1, axis, EDML_AXIS_DIRECTION_INCREASING};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ARGMIN, &am};
    edml_operator *op = NULL;
    edmli_gles_reduce_shape sh = {0};
    CHECK(edml_operator_create(dev, &desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s: %s", what,
          edml_device_last_error(dev));
    if (!op) return sh;
    sh = plan_of(op)->reduce[plan_of(op)->reduce_vec_layout];
    const size_t ob_bytes = (size_t)cols * 4;
    CHECK(same_as_ref(op, &desc, (size_t)rows * cols * (bytes ? 1 : 4), &ob_bytes, 1, bytes),
          "%s: the reference's answer: %s", what, edml_device_last_error(dev));
    edml_operator_destroy(op);
    return sh;
}

/* TopK of one row of n floats, K given: the plan (NULL where refused). */
static const edmli_gles_plan *topk_row(edml_device *dev, UINT n, UINT k, edml_backend b, edmli_gles_plan *keep)
{
    const UINT in_sizes[1] = {n}, out_sizes[1] = {k};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, in_sizes, NULL, 0, 0},
                            vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, out_sizes, NULL, 0, 0},
                            xb = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 1, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, vt = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     xt = {EDML_TENSOR_TYPE_BUFFER, &xb};
    EDML_TOP_K1_OPERATOR_DESC tk = {&it, &vt, &xt, 0, k, EDML_AXIS_DIRECTION_DECREASING};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_TOP_K1, &tk};
    edml_operator *op = NULL;
    if (edml_operator_create(dev, &desc, b, &op) != EDML_STATUS_OK) return NULL;
    const bool gpu = edml_operator_backend(op) == EDML_BACKEND_GLES;
    if (gpu) *keep = *plan_of(op);
    const size_t ob[2] = {(size_t)k * 4, (size_t)k * 4};
    CHECK(same_as_ref(op, &desc, (size_t)n * 4, ob, 2, false), "TopK of %u, K %u on %s: the reference's answer", n, k,
          edml_backend_name(edml_operator_backend(op)));
    edml_operator_destroy(op);
    return gpu ? keep : NULL;
}

static void check_v3d(void)
{
    edml_device *dev = make(EDML_FAULT_LIMITS_V3D, 0);
    /* 65536 outputs: one chunk a set would be an invocation's 1024 bytes */
    edmli_gles_reduce_shape sh = argmin_rows(dev, 1024, 65536, true, "ArgMin down 1024 rows of 65536 bytes");
    CHECK(sh.prog == EDMLI_GLES_PROG_ARGREDUCE && sh.chunk_len <= EDMLI_GLES_WATCHDOG_REDUCE_CHUNK,
          "ArgMin: an invocation reduces %u elements", sh.chunk_len);
    /* 16 units of four outputs: 16 invocations a unit would take 128 batches */
    sh = argmin_rows(dev, 32768, 64, false, "ArgMin down 32768 rows of 64");
    CHECK(sh.prog == EDMLI_GLES_PROG_ARGREDUCE_COLS && sh.batches <= EDMLI_GLES_WATCHDOG_COLS_BATCHES && sh.G > 16,
          "argreduce_cols: %u batches an invocation, %u invocations a unit", sh.batches, sh.G);
    edmli_gles_plan plan;
    const edmli_gles_plan *p = topk_row(dev, 100000, 5, EDML_BACKEND_GLES, &plan);
    CHECK(p && p->topk_chunks > 1 && (100000 + p->topk_chunks - 1) / p->topk_chunks <= EDMLI_GLES_WATCHDOG_TOPK_CHUNK,
          "TopK of a row of 100000, K 5: the lists, %u chunks", p ? p->topk_chunks : 0);
    CHECK(!topk_row(dev, 100000, 20, EDML_BACKEND_GLES, &plan) && strstr(edml_device_last_error(dev), "watchdog"),
          "TopK of a row of 100000, K 20, named: refused: %s", edml_device_last_error(dev));
    CHECK(!topk_row(dev, 100000, 20, EDML_BACKEND_AUTO, &plan), "AUTO: on the CPU");
    p = topk_row(dev, 20000, 20, EDML_BACKEND_GLES, &plan);
    CHECK(p && !p->topk_chunks, "TopK of a row of 20000, K 20: one workgroup (topk_select)");
    destroy(dev);
}

static void check_unchanged(void)
{
    edml_device *dev = make(0, 0);
    edmli_gles_reduce_shape sh = argmin_rows(dev, 1024, 65536, true, "ArgMin (this GPU's limits)");
    CHECK(sh.chunk_len > EDMLI_GLES_WATCHDOG_REDUCE_CHUNK, "no cap without V3D: %u", sh.chunk_len);
    edmli_gles_plan plan;
    const edmli_gles_plan *p = topk_row(dev, 100000, 20, EDML_BACKEND_GLES, &plan);
    CHECK(p && !p->topk_chunks, "TopK of a row of 100000, K 20: one workgroup without V3D");
    destroy(dev);
}

int main(void)
{
    ref_dev = make(0, EDML_BACKEND_BIT(EDML_BACKEND_REF));
    edml_device *probe = make(0, 0);
    const bool gles = edml_device_backends(probe) & EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    destroy(probe);
    if (!gles) {
        printf("watchdog: no GLES on this machine: nothing to test\n");
    } else {
        check_v3d();
        check_unchanged();
    }
    destroy(ref_dev);
    return tl_summary("watchdog");
}
