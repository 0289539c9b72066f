/* GPU buffers: tensors resident in the GPU arena (GLES). Every operator type
 * with its inputs and outputs in GPU buffers, and mixed with host memory;
 * copies; the GPU arena as a stack; and the statuses of misuse. Fails where
 * the machine has no GLES (make test installs Mesa). With --one-thread the
 * device keeps its GL context current between calls (gles_one_thread). */
#include "ops.h"

/* A buffer holding t at byte `at` */
static edml_gpu_buffer *upload_at(edml_device *dev, const tl_tensor *t, uint64_t at)
{
    edml_gpu_buffer *b = NULL;
    CHECK(edml_gpu_buffer_create(dev, t->total + at, &b) == EDML_STATUS_OK, "create: %s", edml_device_last_error(dev));
    if (b) CHECK(edml_gpu_buffer_write(b, at, t->buf, t->total) == EDML_STATUS_OK, "write");
    return b;
}

static edml_gpu_buffer *upload(edml_device *dev, const tl_tensor *t) { return upload_at(dev, t, 0); }

/* every operator with its inputs and outputs resident on the GPU, then with
 * its outputs on the host, then with its tensors at offsets that are not
 * 16-byte aligned (the kernels' other layout: its parameters baked too) */
static void check_resident(edml_device *dev)
{
    for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
        for (int mixed = 0; mixed < 3; mixed++) { /* 1: outputs on the host; 2: tensors at byte 4 of their buffers */
            const uint64_t at = mixed == 2 ? 4 : 0;
            ops_case c;
            ops_make_on(&c, which, EDML_BACKEND_GLES);
            edml_operator *op;
            CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s", c.name);
            edml_gpu_buffer *gin[3] = {0}, *gout[2] = {0};
            EDML_BUFFER_BINDING bi[3], bo[2];
            for (int i = 0; i < c.nin; i++) {
                gin[i] = upload_at(dev, &c.in[i], at);
                bi[i] = edml_gpu_binding(gin[i], at, c.in[i].total);
            }
            ops_reset_outputs(&c);
            for (int o = 0; o < c.nout; o++) {
                if (mixed == 1) {
                    bo[o] = tl_bind(&c.out[o]);
                    continue;
                }
                gout[o] = upload_at(dev, &c.out[o], at); /* the sentinel, so untouched bytes compare */
                bo[o] = edml_gpu_binding(gout[o], at, c.out[o].total);
            }
            edml_status s = edml_operator_execute(op, bi, (UINT)c.nin, bo, (UINT)c.nout, NULL);
            CHECK(s == EDML_STATUS_OK, "%s resident: %s", c.name, edml_device_last_error(dev));
            for (int o = 0; o < c.nout && mixed != 1; o++)
                CHECK(edml_gpu_buffer_read(gout[o], at, c.out[o].buf, c.out[o].total) == EDML_STATUS_OK, "read");
            CHECK(ops_outputs_match(&c), "%s: %s outputs differ", c.name, mixed == 1 ? "host" : "resident");
            for (int o = c.nout; o-- > 0;)
                if (gout[o]) edml_gpu_buffer_destroy(gout[o]);
            for (int i = c.nin; i-- > 0;) edml_gpu_buffer_destroy(gin[i]);
            edml_operator_destroy(op);
            ops_free(&c);
        }
    }
}

/* misuse of GPU buffers, copies, and the GPU arena as a stack */
static void check_misuse_and_copies(edml_device *dev, uint64_t gpu_bytes)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    edml_gpu_buffer *a = upload(dev, &c.in[1]);
    edml_operator *cpu, *gpu;
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_NEON, &cpu) == EDML_STATUS_OK, "neon op");
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_GLES, &gpu) == EDML_STATUS_OK, "gles op");
    EDML_BUFFER_BINDING bi[3], bo[1];
    ops_bindings(&c, bi, bo);
    bi[1] = edml_gpu_binding(a, 0, c.in[1].total);
    ops_reset_outputs(&c); /* NEON reads A through the CPU's view of the GPU arena */
    CHECK(edml_operator_execute(cpu, bi, 3, bo, 1, NULL) == EDML_STATUS_OK && ops_outputs_match(&c),
          "NEON with A in a GPU buffer: %s", edml_device_last_error(dev));
    ops_reset_outputs(&c);
    bi[1] = edml_gpu_binding(a, 2, c.in[1].total);
    CHECK(edml_operator_execute(gpu, bi, 3, bo, 1, NULL) == EDML_STATUS_INVALID_BINDING &&
              strstr(edml_device_last_error(dev), "not aligned to 4 bytes"),
          "%s", edml_device_last_error(dev));
    bi[1] = edml_gpu_binding(a, 16, c.in[1].total);
    CHECK(edml_operator_execute(gpu, bi, 3, bo, 1, NULL) == EDML_STATUS_INVALID_BINDING &&
              strstr(edml_device_last_error(dev), "does not fit the GPU buffer"),
          "%s", edml_device_last_error(dev));
    CHECK(ops_outputs_untouched(&c), "a rejected call wrote");
    uint8_t byte = 0;
    CHECK(edml_gpu_buffer_write(a, c.in[1].total, &byte, 1) == EDML_STATUS_INVALID_ARGUMENT, "write past the end");
    CHECK(edml_gpu_buffer_read(a, 0, NULL, 1) == EDML_STATUS_INVALID_ARGUMENT, "read to NULL");

    /* copies */
    edml_gpu_buffer *b;
    CHECK(edml_gpu_buffer_create(dev, c.in[1].total, &b) == EDML_STATUS_OK, "b");
    CHECK(edml_gpu_buffer_copy(b, 0, a, 0, 6) == EDML_STATUS_INVALID_ARGUMENT, "copy of 6 bytes");
    CHECK(edml_gpu_buffer_copy(b, 0, a, 0, c.in[1].total) == EDML_STATUS_OK, "copy");
    uint8_t back[64];
    CHECK(edml_gpu_buffer_read(b, 0, back, c.in[1].total) == EDML_STATUS_OK &&
              !memcmp(back, c.in[1].buf, (size_t)c.in[1].total),
          "copied bytes");

    /* the GPU arena: too much is refused with the numbers; released bytes come back */
    edml_gpu_buffer *big;
    CHECK(edml_gpu_buffer_create(dev, gpu_bytes, &big) == EDML_STATUS_ARENA_TOO_SMALL &&
              strstr(edml_device_last_error(dev), "missing"),
          "%s", edml_device_last_error(dev));
    edml_operator_destroy(gpu);
    edml_operator_destroy(cpu);
    edml_gpu_buffer_destroy(b);
    edml_gpu_buffer_destroy(a);
    CHECK(edml_gpu_buffer_create(dev, gpu_bytes, &big) == EDML_STATUS_OK, "the whole GPU arena after release: %s",
          edml_device_last_error(dev));
    CHECK(edml_gpu_buffer_write(big, 0, &byte, 1) == EDML_STATUS_OK, "write to it");
    edml_gpu_buffer_destroy(big);
    CHECK(edml_gpu_buffer_write(big, 0, &byte, 1) == EDML_STATUS_INVALID_HANDLE, "destroyed buffer");
    ops_free(&c);
}

/* GatherND with clamped indices in a GPU buffer: the status, and the output */
static void check_clamped_indices(edml_device *dev)
{
    ops_case c;
    edml_operator *gpu;
    EDML_BUFFER_BINDING bi[3], bo[1];
    ops_make_type(&c, EDML_OPERATOR_GATHER_ND);
    uint32_t bad[2] = {7, 0}; /* 7 is clamped to 1 */
    memcpy(c.in[1].buf, bad, sizeof bad);
    static const float want[4] = {2, 3, 0, 1};
    memcpy(c.expected[0], want, sizeof want);
    edml_gpu_buffer *ix = upload(dev, &c.in[1]);
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_GLES, &gpu) == EDML_STATUS_OK, "gather");
    ops_bindings(&c, bi, bo);
    bi[1] = edml_gpu_binding(ix, 0, c.in[1].total);
    ops_reset_outputs(&c);
    CHECK(edml_operator_execute(gpu, bi, 2, bo, 1, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE &&
              strstr(edml_device_last_error(dev), "IndicesTensor (in a GPU buffer): 1 index coordinates"),
          "%s", edml_device_last_error(dev));
    CHECK(ops_outputs_match(&c), "clamped output");
    /* the status words are the operator's own: each call starts from zero
     * (the count) and "none yet" (the first clamped element) again */
    static const uint32_t rounds[4][2] = {{1, 0}, {1, 9}, {1, 0}, {5, 9}};
    static const char *const want_msg[4] = {NULL,
                                            "1 index coordinates were out of range and clamped (the first at "
                                            "element 1)",
                                            NULL,
                                            "2 index coordinates were out of range and clamped (the first at "
                                            "element 0)"};
    for (int k = 0; k < 4; k++) {
        static const float clamped[4] = {2, 3, 2, 3};
        memcpy(c.expected[0], k % 2 ? clamped : want, sizeof want);
        CHECK(edml_gpu_buffer_write(ix, 0, rounds[k], sizeof rounds[k]) == EDML_STATUS_OK, "indices");
        ops_reset_outputs(&c);
        edml_status s = edml_operator_execute(gpu, bi, 2, bo, 1, NULL);
        CHECK(want_msg[k] ? s == EDML_STATUS_INDEX_OUT_OF_RANGE && strstr(edml_device_last_error(dev), want_msg[k])
                          : s == EDML_STATUS_OK,
              "round %d: %s: %s", k, edml_status_string(s), s ? edml_device_last_error(dev) : "");
        CHECK(ops_outputs_match(&c), "round %d: output", k);
    }
    edml_operator_destroy(gpu);
    edml_gpu_buffer_destroy(ix);
    ops_free(&c);
}

/* One ArgMin on GLES and on the reference backend, executed `rounds` times
 * with new data each time: large reductions count their chunks in counters
 * kept by the operator from one run to the next (zero again at each end). */
static void check_repeated_argmin(edml_device *dev, UINT rows, UINT cols, UINT axis_count, const UINT *axes)
{
    const UINT in_sizes[2] = {rows, cols};
    UINT out_sizes[2] = {rows, cols};
    for (UINT a = 0; a < axis_count; a++) out_sizes[axes[a]] = 1;
    const size_t n = (size_t)rows * cols, outs = (size_t)out_sizes[0] * out_sizes[1];
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC ob = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, ot = {EDML_TENSOR_TYPE_BUFFER, &ob};
    EDML_ARGMIN_OPERATOR_DESC am = {&it, &ot, axis_count, axes, EDML_AXIS_DIRECTION_INCREASING};
    EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ARGMIN, &am};
    edml_operator *op[2] = {NULL, NULL};
    float *in = malloc(n * sizeof *in);
    uint32_t *out[2] = {malloc(outs * 4), malloc(outs * 4)};
    CHECK(in && out[0] && out[1], "memory");
    for (int k = 0; k < 2; k++)
        CHECK(edml_operator_create(dev, &desc, k ? EDML_BACKEND_REF : EDML_BACKEND_GLES, &op[k]) == EDML_STATUS_OK,
              "argmin %ux%u: %s", rows, cols, edml_device_last_error(dev));
    tl_rng rng = {0x9e3779b97f4a7c15ull + n};
    int wrong = 0;
    for (int round = 0; round < 4 && op[0] && op[1]; round++) {
        for (size_t i = 0; i < n; i++) in[i] = (float)tl_below(&rng, 100000); /* ties too */
        EDML_BUFFER_BINDING bi[1] = {{in, 0, n * sizeof *in}};
        for (int k = 0; k < 2; k++) {
            memset(out[k], 0x5a, outs * 4);
            EDML_BUFFER_BINDING bo[1] = {{out[k], 0, outs * 4}};
            CHECK(edml_operator_execute(op[k], bi, 1, bo, 1, NULL) == EDML_STATUS_OK, "execute: %s",
                  edml_device_last_error(dev));
        }
        wrong += memcmp(out[0], out[1], outs * 4) != 0;
    }
    CHECK(wrong == 0, "argmin %ux%u over %u axes: %d of 4 runs of one operator differ from the reference", rows, cols,
          axis_count, wrong);
    for (int k = 0; k < 2; k++) edml_operator_destroy(op[k]);
    free(in), free(out[0]), free(out[1]);
}

/* A command list's executions of one operator (or of operators of one
 * descriptor, whose parameter blocks are alike) run on GLES as the layers
 * of one dispatch where their tensors lie a fixed step apart: each entry
 * must still read its own input and write its own outputs, as the
 * reference backend does. `uneven`: every third entry's tensors 16 bytes
 * further on (layers stop there). `mode`: the entries' operators: one
 * (LAYERS_ONE), three of the descriptor in turn (LAYERS_ALIKE), or it and
 * one of `other`, which differs in one member only (LAYERS_OTHER: no layers
 * may join them). Input: FLOAT32 values with ties. */
#define LAYER_ENTRIES 20
enum {
    LAYERS_ONE,
    LAYERS_ALIKE,
    LAYERS_OTHER,
    LAYER_MODES
};
typedef struct layer_op {
    const char *name;
    const EDML_OPERATOR_DESC *desc, *other;
    uint64_t in_bytes, out_bytes[2];
    int nout;
} layer_op;

static uint64_t layer_at(uint64_t each, int e, bool uneven)
{
    return (each + 48) * (uint64_t)e + (uneven ? (e % 3) * 16u : 0); /* tensors 48 bytes apart or more */
}

static bool layer_entry_ok(edml_operator *ref, const layer_op *l, const uint8_t *in, edml_gpu_buffer **gout, int e,
                           bool uneven)
{
    uint8_t want[2][4096], got[2][4096];
    EDML_BUFFER_BINDING bi = {(void *)(in + layer_at((l->in_bytes + 15) & ~15ull, e, uneven)), 0, l->in_bytes}, bo[2];
    for (int k = 0; k < l->nout; k++) bo[k] = (EDML_BUFFER_BINDING){want[k], 0, l->out_bytes[k]};
    bool ok = edml_operator_execute(ref, &bi, 1, bo, (UINT)l->nout, NULL) == EDML_STATUS_OK;
    for (int k = 0; k < l->nout && ok; k++) {
        const uint64_t at = layer_at((l->out_bytes[k] + 15) & ~15ull, e, uneven);
        ok = edml_gpu_buffer_read(gout[k], at, got[k], l->out_bytes[k]) == EDML_STATUS_OK &&
             !memcmp(got[k], want[k], (size_t)l->out_bytes[k]);
    }
    return ok;
}

static void check_layers(edml_device *dev, const layer_op *l, bool uneven, int mode)
{
    static const char *const mode_name[LAYER_MODES] = {"", ", three operators alike", ", two unlike"};
    edml_operator *op[3] = {NULL, NULL, NULL}, *ref[2] = {NULL, NULL};
    edml_command_list *list = NULL;
    edml_gpu_buffer *gin = NULL, *gout[2] = {NULL, NULL};
    const uint64_t in_all = layer_at((l->in_bytes + 15) & ~15ull, LAYER_ENTRIES, false) + 32;
    uint8_t *in = malloc(in_all);
    tl_rng rng = {0x51ed2701u + l->in_bytes};
    for (uint64_t i = 0; in && i < in_all / 4; i++) ((float *)in)[i] = (float)tl_below(&rng, 50);
    const EDML_OPERATOR_DESC *descs[3] = {l->desc, mode == LAYERS_OTHER ? l->other : l->desc, l->desc};
    const int ops = mode == LAYERS_ONE ? 1 : mode == LAYERS_ALIKE ? 3 : 2;
    bool ok = in != NULL;
    for (int k = 0; k < ops && ok; k++) ok = !edml_operator_create(dev, descs[k], EDML_BACKEND_GLES, &op[k]);
    for (int k = 0; k < 2 && ok; k++) ok = !edml_operator_create(dev, descs[k], EDML_BACKEND_REF, &ref[k]);
    ok = ok && !edml_command_list_create(dev, LAYER_ENTRIES, &list) && !edml_gpu_buffer_create(dev, in_all, &gin) &&
         !edml_gpu_buffer_write(gin, 0, in, in_all);
    for (int k = 0; k < l->nout && ok; k++)
        ok = !edml_gpu_buffer_create(dev, layer_at((l->out_bytes[k] + 15) & ~15ull, LAYER_ENTRIES, false) + 32,
                                     &gout[k]);
    for (int e = 0; e < LAYER_ENTRIES && ok; e++) {
        EDML_BUFFER_BINDING bi = edml_gpu_binding(gin, layer_at((l->in_bytes + 15) & ~15ull, e, uneven), l->in_bytes);
        EDML_BUFFER_BINDING bo[2];
        for (int k = 0; k < l->nout; k++)
            bo[k] = edml_gpu_binding(gout[k], layer_at((l->out_bytes[k] + 15) & ~15ull, e, uneven), l->out_bytes[k]);
        ok = !edml_command_list_record(list, op[e % ops], &bi, 1, bo, (UINT)l->nout, NULL);
    }
    ok = ok && !edml_command_list_submit(list) && !edml_command_list_wait(list, UINT64_MAX);
    CHECK(ok, "%s: %d entries in one list%s%s: %s", l->name, LAYER_ENTRIES, uneven ? ", uneven" : "", mode_name[mode],
          edml_device_last_error(dev));
    int wrong = 0;
    for (int e = 0; e < LAYER_ENTRIES && ok; e++)
        wrong += !layer_entry_ok(ref[mode == LAYERS_OTHER ? e % 2 : 0], l, in, gout, e, uneven);
    CHECK(wrong == 0, "%s: %d of %d entries of one list%s%s differ from the reference", l->name, wrong, LAYER_ENTRIES,
          uneven ? " (uneven)" : "", mode_name[mode]);
    for (int k = 2; k-- > 0;)
        if (gout[k]) edml_gpu_buffer_destroy(gout[k]);
    if (gin) edml_gpu_buffer_destroy(gin);
    if (list) edml_command_list_destroy(list);
    for (int k = 2; k-- > 0;)
        if (ref[k]) edml_operator_destroy(ref[k]);
    for (int k = 3; k-- > 0;)
        if (op[k]) edml_operator_destroy(op[k]);
    free(in);
}

/* a one-dispatch TopK (one row, small K) and an ArgMin along rows */
static void check_layered_lists(edml_device *dev)
{
    static const UINT row[2] = {1, 700}, best[2] = {1, 5}, rows[2] = {16, 48}, one[2] = {16, 1}, last[1] = {1};
    EDML_BUFFER_TENSOR_DESC rb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, row, NULL, 0, 0},
                            vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, best, NULL, 0, 0},
                            ib = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, best, NULL, 0, 0},
                            mb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, rows, NULL, 0, 0},
                            ab = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, one, NULL, 0, 0};
    EDML_TENSOR_DESC rt = {EDML_TENSOR_TYPE_BUFFER, &rb}, vt = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     it = {EDML_TENSOR_TYPE_BUFFER, &ib}, mt = {EDML_TENSOR_TYPE_BUFFER, &mb},
                     at = {EDML_TENSOR_TYPE_BUFFER, &ab};
    EDML_TOP_K1_OPERATOR_DESC tk = {&rt, &vt, &it, 1, 5, EDML_AXIS_DIRECTION_DECREASING}, tk_up = tk;
    EDML_ARGMIN_OPERATOR_DESC am = {&mt, &at, 1, last, EDML_AXIS_DIRECTION_DECREASING}, am_up = am;
    tk_up.AxisDirection = am_up.AxisDirection = EDML_AXIS_DIRECTION_INCREASING;
    const EDML_OPERATOR_DESC tkd = {EDML_OPERATOR_TOP_K1, &tk}, amd = {EDML_OPERATOR_ARGMIN, &am},
                             tku = {EDML_OPERATOR_TOP_K1, &tk_up}, amu = {EDML_OPERATOR_ARGMIN, &am_up};
    const layer_op ops[2] = {{"TopK of one row", &tkd, &tku, 700 * 4, {20, 20}, 2},
                             {"ArgMin", &amd, &amu, 16 * 48 * 4, {64}, 1}};
    for (int i = 0; i < 2; i++)
        for (int mode = 0; mode < LAYER_MODES; mode++)
            for (int uneven = 0; uneven < 2; uneven++) check_layers(dev, &ops[i], uneven, mode);
}

int main(int argc, char **argv)
{
    const uint64_t gpu_bytes = 1 << 20;
    tl_device d;
    d.size = edml_device_size() + (1 << 16);
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    edml_device_desc dd = {0};
    dd.gpu_arena_bytes = gpu_bytes;
    dd.inject_faults = EDML_FAULT_BAKED_ONLY; /* an operator's execution uploads no parameters */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--one-thread"))
            dd.gles_one_thread = 1;
        else if (!strcmp(argv[i], "--no-buffer-storage")) /* GatherND's status words copied back */
            dd.inject_faults |= EDML_FAULT_NO_BUFFER_STORAGE;
        else if (!strcmp(argv[i], "--arena-mapped")) /* the GPU arena mapped persistently */
            dd.gpu_arena_mapped = 1;
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_OK, "device");
    char info[300];
    if (!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) {
        printf("gpu: no GLES here: %s\n", edml_device_gles_info(d.dev, info, sizeof info));
        return 1;
    }
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(!(dd.inject_faults & EDML_FAULT_NO_BUFFER_STORAGE) || strstr(info, "status copied back"), "%s", info);
    printf("gpu: %s\n", info);
    edml_arena_stats st0, st;
    edml_device_arena_stats(d.dev, &st0);
    check_resident(d.dev);
    edml_device_arena_stats(d.dev, &st);
    CHECK(st.persistent == st0.persistent, "device arena given back: %zu vs %zu", st.persistent, st0.persistent);
    check_misuse_and_copies(d.dev, gpu_bytes);
    check_clamped_indices(d.dev);
    static const UINT last[1] = {1}, first[1] = {0}, both[2] = {0, 1};
    check_repeated_argmin(d.dev, 1, 98304, 1, last); /* 3 chunks of 32768 */
    check_repeated_argmin(d.dev, 8192, 16, 1, first);
    check_repeated_argmin(d.dev, 256, 256, 2, both);
    check_layered_lists(d.dev);
    tl_device_free(&d);
    return tl_summary("gpu");
}
