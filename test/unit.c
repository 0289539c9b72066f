/* Unit tests: size math, devices, arenas (exhaustion at every size), the
 * operator life cycle, bindings, and that rejected calls write nothing. */
#include "testlib.h"
#include "ops.h"

static void test_sizes(void)
{
    UINT s4[4] = {1, 1, 3, 4};
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_FLOAT32, 4, s4, NULL) == 48, "packed f32");
    UINT s1[1] = {3};
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 1, s1, NULL) == 4, "rounded up to 4");
    UINT s2[2] = {2, 3}, st[2] = {0, 1};
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 2, s2, st) == 4, "broadcast");
    UINT st2[2] = {1, 2};
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_INT64, 2, s2, st2) == 48, "transposed: last index 5");
    UINT big[2] = {0xffffffffu, 0xffffffffu}, bst[2] = {0xffffffffu, 0xffffffffu};
    uint64_t v = edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 1, big, bst);
    CHECK(v == ((0xfffffffeull * 0xffffffffull + 1 + 3) & ~3ull), "64-bit: %llu", (unsigned long long)v);
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 2, big, bst) == 0, "past 64 bits gives 0");
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_FLOAT64, 1, big, bst) == 0, "bytes past 64 bits give 0");
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UNKNOWN, 1, s1, NULL) == 0, "unknown type");
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 0, s1, NULL) == 0, "rank 0");
    CHECK(edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE_UINT8, 9, s4, NULL) == 0, "rank 9");
    CHECK(edml_data_type_size(EDML_TENSOR_DATA_TYPE_FLOAT16) == 2, "f16 size");
    CHECK(!strcmp(edml_status_string(EDML_STATUS_ARENA_TOO_SMALL), "EDML_STATUS_ARENA_TOO_SMALL"), "status name");
    CHECK(!strcmp(edml_status_string((edml_status)99), "EDML_STATUS_UNKNOWN"), "unknown status");
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", EDML_VERSION_MAJOR, EDML_VERSION_MINOR, EDML_VERSION_PATCH);
    CHECK(!strcmp(edml_version(), want), "version %s", edml_version());
}

static int log_calls;
static char log_last[512];
static void log_fn(void *user, edml_status s, const char *m)
{
    (void)user;
    (void)s;
    log_calls++;
    snprintf(log_last, sizeof log_last, "%s", m);
}

static void test_device(void)
{
    uint8_t *mem;
    if (posix_memalign((void **)&mem, 16, 1 << 16)) abort();
    edml_device *dev;
    edml_device_desc dd = {0};
    dd.backends = tl_backends_default;
    dd.log = log_fn;
    CHECK(edml_device_create(&dd, NULL, 100, &dev) == EDML_STATUS_INVALID_ARGUMENT, "NULL arena");
    CHECK(!strcmp(log_last, "arena is NULL"), "log: %s", log_last);
    CHECK(edml_device_create(&dd, mem + 4, 4096, &dev) == EDML_STATUS_INVALID_ARGUMENT, "misaligned arena");
    size_t need = edml_device_size();
    for (size_t sz = 0; sz < need; sz += 7) {
        memset(mem, 0x77, need);
        edml_status s = edml_device_create(&dd, mem, sz, &dev);
        CHECK(s == EDML_STATUS_ARENA_TOO_SMALL && dev == NULL, "size %zu", sz);
        char m[200];
        snprintf(m, sizeof m, "edml_device_create needs %zu bytes of arena, %zu available: %zu missing", need, sz,
                 need - sz);
        CHECK(!strcmp(log_last, m), "message '%s'", log_last);
        size_t touched = 0;
        for (size_t i = 0; i < need; i++) touched += mem[i] != 0x77;
        CHECK(touched == 0, "a failed create wrote %zu arena bytes", touched);
    }
    CHECK(edml_device_create(&dd, mem, need, &dev) == EDML_STATUS_OK, "exact size");
    edml_arena_stats st;
    CHECK(edml_device_arena_stats(dev, &st) == EDML_STATUS_OK && st.persistent == need && st.high_water == need,
          "stats");
    CHECK(edml_device_backends(dev) & EDML_BACKEND_BIT(EDML_BACKEND_REF), "ref always there");
    CHECK(edml_device_destroy(dev) == EDML_STATUS_OK, "destroy");
    CHECK(edml_device_destroy(dev) == EDML_STATUS_INVALID_DEVICE, "destroy twice");
    CHECK(edml_device_backends(dev) == 0, "destroyed device has no backends");
    dd.backends = 1u << 20; /* no backend of it exists */
    CHECK(edml_device_create(&dd, mem, need, &dev) == EDML_STATUS_INVALID_ARGUMENT, "no backend allowed");
    CHECK(strstr(log_last, "no backend of it is built in") != NULL, "message %s", log_last);
    CHECK(edml_board_builtin() && edml_board_builtin()->name, "builtin board");
    free(mem);
}

/* Every operator type, against an arena of every size up to the one needed:
 * a clean ARENA_TOO_SMALL with the numbers, no byte written outside the arena,
 * nothing written to the outputs; then the exact size works. */
static void test_arena_exhaustion(void)
{
    for (int which = 0; which < ops_count(); which++) {
        ops_case c;
        ops_make(&c, which);
        /* the size needed: device + operator + scratch */
        tl_device probe;
        tl_device_make(&probe, 1 << 16, EDML_BACKEND_BIT(EDML_BACKEND_REF));
        edml_operator_sizes sz;
        CHECK(edml_operator_query(probe.dev, &c.desc, EDML_BACKEND_REF, &sz) == EDML_STATUS_OK, "%s query: %s", c.name,
              edml_device_last_error(probe.dev));
        tl_device_free(&probe);
        size_t need_dev = edml_device_size(), need = need_dev + sz.persistent_bytes + sz.temporary_bytes;
        if (sz.temporary_bytes % 16) need += 16 - sz.temporary_bytes % 16;
        const size_t guard = 64;
        uint8_t *mem;
        if (posix_memalign((void **)&mem, 16, need + 2 * guard)) abort();
        int ok_at = -1;
        for (size_t size = need_dev; size <= need; size++) {
            memset(mem, 0xee, need + 2 * guard);
            uint8_t *arena = mem + guard;
            edml_device *dev;
            edml_device_desc dd = {0};
            dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF);
            CHECK(edml_device_create(&dd, arena, size, &dev) == EDML_STATUS_OK, "device at %zu", size);
            ops_reset_outputs(&c);
            edml_operator *op;
            edml_status s = edml_operator_create(dev, &c.desc, EDML_BACKEND_REF, &op);
            const char *m = edml_device_last_error(dev);
            if (s == EDML_STATUS_OK) {
                s = ops_execute(&c, op, NULL);
                m = edml_device_last_error(dev);
            }
            if (s == EDML_STATUS_OK) {
                if (ok_at < 0) ok_at = (int)size;
                CHECK(ops_outputs_match(&c), "%s: wrong result at arena size %zu", c.name, size);
            } else {
                CHECK(s == EDML_STATUS_ARENA_TOO_SMALL, "%s at %zu: %s", c.name, size, edml_status_string(s));
                unsigned long long req, avail, miss;
                const char *p = strstr(m, "needs ");
                CHECK(p &&
                          sscanf(p, "needs %llu bytes of arena, %llu available: %llu missing", &req, &avail, &miss) ==
                              3 &&
                          req == avail + miss && req > 0,
                      "%s: message '%s'", c.name, m);
                CHECK(ops_outputs_untouched(&c), "%s: a failed call wrote an output (arena %zu)", c.name, size);
            }
            size_t outside = 0;
            for (size_t i = 0; i < guard; i++) outside += (mem[i] != 0xee) + (mem[guard + size + i] != 0xee);
            CHECK(outside == 0, "%s: %zu bytes written outside an arena of %zu", c.name, outside, size);
            edml_device_destroy(dev);
        }
        CHECK(ok_at >= 0 && (size_t)ok_at <= need, "%s: never succeeded up to %zu", c.name, need);
        free(mem);
        ops_free(&c);
    }
}

static void test_lifecycle(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, 0) == EDML_STATUS_OK, "device");
    edml_arena_stats st0, st;
    edml_device_arena_stats(d.dev, &st0);
    edml_operator *a, *b;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &a) == EDML_STATUS_OK, "create a");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &b) == EDML_STATUS_OK, "create b");
    CHECK(edml_operator_backend(b) != EDML_BACKEND_AUTO, "auto resolves to a backend");
    EDML_BINDING_PROPERTIES props;
    CHECK(edml_operator_get_binding_properties(a, &props) == EDML_STATUS_OK && props.TemporaryResourceSize > 0 &&
              props.PersistentResourceSize == 0,
          "binding properties");
    /* scratch from the arena shows in the high-water mark */
    edml_device_arena_stats(d.dev, &st);
    size_t before = st.high_water;
    CHECK(ops_execute(&c, a, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "execute with arena scratch");
    edml_device_arena_stats(d.dev, &st);
    CHECK(st.high_water >= st.persistent + props.TemporaryResourceSize && st.high_water >= before, "high water %zu",
          st.high_water);
    /* an explicit temporary binding */
    void *tmp;
    if (posix_memalign(&tmp, 16, (size_t)props.TemporaryResourceSize)) abort();
    EDML_BUFFER_BINDING tb = {tmp, 0, props.TemporaryResourceSize};
    ops_reset_outputs(&c);
    CHECK(ops_execute(&c, a, &tb) == EDML_STATUS_OK && ops_outputs_match(&c), "execute with temporary");
    tb.SizeInBytes--;
    ops_reset_outputs(&c);
    CHECK(ops_execute(&c, a, &tb) == EDML_STATUS_INVALID_BINDING && ops_outputs_untouched(&c), "temporary too small");
    CHECK(strstr(edml_device_last_error(d.dev), "expected at least TemporaryResourceSize") != NULL, "%s",
          edml_device_last_error(d.dev));
    tb = (EDML_BUFFER_BINDING){(uint8_t *)tmp + 8, 0, props.TemporaryResourceSize};
    CHECK(ops_execute(&c, a, &tb) == EDML_STATUS_INVALID_BINDING, "misaligned temporary");
    free(tmp);
    /* the arena is a stack: a's bytes come back once b is gone */
    edml_device_arena_stats(d.dev, &st);
    size_t with_both = st.persistent;
    CHECK(edml_operator_destroy(a) == EDML_STATUS_OK, "destroy a");
    edml_device_arena_stats(d.dev, &st);
    CHECK(st.persistent == with_both, "a is not on top: nothing comes back yet");
    CHECK(ops_execute(&c, a, NULL) == EDML_STATUS_INVALID_HANDLE, "a used after destroy");
    CHECK(edml_operator_destroy(b) == EDML_STATUS_OK, "destroy b");
    edml_device_arena_stats(d.dev, &st);
    CHECK(st.persistent == st0.persistent, "all back: %zu vs %zu", st.persistent, st0.persistent);
    /* many cycles keep the high-water mark */
    edml_device_arena_stats(d.dev, &st0);
    for (int i = 0; i < 100; i++) {
        edml_operator *op;
        edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op);
        ops_execute(&c, op, NULL);
        edml_operator_destroy(op);
    }
    edml_device_arena_stats(d.dev, &st);
    CHECK(st.high_water == st0.high_water && st.persistent == st0.persistent, "steady high water");
    /* query agrees with create */
    edml_operator_sizes sz;
    CHECK(edml_operator_query(d.dev, &c.desc, EDML_BACKEND_REF, &sz) == EDML_STATUS_OK &&
              sz.temporary_bytes == props.TemporaryResourceSize && sz.backend == EDML_BACKEND_REF,
          "query");
    /* unavailable backends */
    edml_operator *g;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &g) == EDML_STATUS_BACKEND_UNAVAILABLE ||
              (edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)),
          "gles");
    CHECK(edml_operator_create(d.dev, &c.desc, (edml_backend)9, &g) == EDML_STATUS_INVALID_ARGUMENT, "bad backend");
    EDML_OPERATOR_DESC bad = {(EDML_OPERATOR_TYPE)55, c.desc.Desc};
    CHECK(edml_operator_create(d.dev, &bad, EDML_BACKEND_REF, &g) == EDML_STATUS_UNSUPPORTED, "unknown operator");
    CHECK(strstr(edml_device_last_error(d.dev), "Type is 55") != NULL, "%s", edml_device_last_error(d.dev));
    CHECK(edml_operator_create(d.dev, NULL, EDML_BACKEND_REF, &g) == EDML_STATUS_INVALID_ARGUMENT, "NULL desc");
    edml_operator *live;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &live) == EDML_STATUS_OK, "create");
    edml_device_destroy(d.dev); /* the arena stays the caller's: still readable */
    CHECK(ops_execute(&c, live, NULL) == EDML_STATUS_INVALID_DEVICE, "operator after its device's destroy");
    d.dev = NULL;
    tl_device_free(&d);
    ops_free(&c);
}

/* Tensor-level descriptor errors not reachable from .case files. */
static void test_tensor_desc(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    tl_device d;
    tl_device_make(&d, 1 << 16, 0);
    edml_operator *op;
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC *iff = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC *)c.desc.Desc;
    const EDML_TENSOR_DESC *keep = iff->ATensor;
    iff->ATensor = NULL;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              !strcmp(edml_device_last_error(d.dev), "ATensor is NULL"),
          "%s", edml_device_last_error(d.dev));
    EDML_TENSOR_DESC t = *keep;
    EDML_BUFFER_TENSOR_DESC b = *(const EDML_BUFFER_TENSOR_DESC *)keep->Desc;
    iff->ATensor = &t;
    t.Type = EDML_TENSOR_TYPE_INVALID;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              strstr(edml_device_last_error(d.dev), "ATensor.Type is 0"),
          "%s", edml_device_last_error(d.dev));
    t.Type = EDML_TENSOR_TYPE_BUFFER;
    t.Desc = &b;
    struct {
        UINT rank;
        const char *msg;
    } ranks[2] = {{0, "ATensor.DimensionCount is 0, expected 1 to 8"},
                  {9, "ATensor.DimensionCount is 9, expected 1 to 8"}};
    for (int i = 0; i < 2; i++) {
        EDML_BUFFER_TENSOR_DESC bb = b;
        bb.DimensionCount = ranks[i].rank;
        t.Desc = &bb;
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
                  !strcmp(edml_device_last_error(d.dev), ranks[i].msg),
              "%s", edml_device_last_error(d.dev));
    }
    EDML_BUFFER_TENSOR_DESC bb = b;
    t.Desc = &bb;
    bb.Flags = EDML_TENSOR_FLAG_OWNED_BY_DML;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_UNSUPPORTED, "owned by DML");
    bb = b;
    bb.DataType = (EDML_TENSOR_DATA_TYPE)12;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              strstr(edml_device_last_error(d.dev), "ATensor.DataType is 12"),
          "%s", edml_device_last_error(d.dev));
    bb = b;
    bb.GuaranteedBaseOffsetAlignment = 3;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR, "alignment 3");
    bb.GuaranteedBaseOffsetAlignment = 16;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_OK, "alignment 16");
    bb = b;
    bb.Sizes = NULL;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              !strcmp(edml_device_last_error(d.dev), "ATensor.Sizes is NULL"),
          "%s", edml_device_last_error(d.dev));
    UINT many[8] = {65536, 65536, 2, 1, 1, 1, 1, 1};
    bb = b;
    bb.DimensionCount = 8;
    bb.Sizes = many;
    bb.Strides = NULL;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              strstr(edml_device_last_error(d.dev), "at most 4294967295"),
          "%s", edml_device_last_error(d.dev));
    tl_device_free(&d);
    ops_free(&c);
}

static void test_bindings(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    tl_device d;
    tl_device_make(&d, 1 << 16, 0);
    edml_operator *op;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_OK, "create");
    EDML_BUFFER_BINDING in[3], out[1];
    ops_bindings(&c, in, out);
#define EXPECT_BIND(st, text, what)                                                                                  \
    do {                                                                                                             \
        ops_reset_outputs(&c);                                                                                       \
        edml_status s_ = edml_operator_execute(op, in, 3, out, 1, NULL);                                             \
        CHECK(s_ == (st), "%s: %s", what, edml_status_string(s_));                                                   \
        CHECK(strstr(edml_device_last_error(d.dev), text) != NULL, "%s: '%s'", what, edml_device_last_error(d.dev)); \
        CHECK(ops_outputs_untouched(&c), "%s: output written", what);                                                \
        ops_bindings(&c, in, out);                                                                                   \
    } while (0)
    in[1].Buffer = NULL;
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "binding of ATensor: Buffer is NULL", "null A");
    in[1].Offset = 2;
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "binding of ATensor: Buffer + Offset is not aligned to 4 bytes",
                "misaligned A");
    in[2].SizeInBytes -= 1;
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "binding of BTensor: SizeInBytes is", "short B");
    out[0].Buffer = in[0].Buffer;
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "binding of OutputTensor overlaps the binding of ConditionTensor",
                "overlap");
    out[0].Buffer = (uint8_t *)in[1].Buffer + 4;
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "binding of OutputTensor overlaps the binding of ATensor",
                "partial overlap");
    in[0].Buffer = (void *)(UINTPTR_MAX - 2);
    EXPECT_BIND(EDML_STATUS_INVALID_BINDING, "wraps around", "wrap");
    {
        ops_reset_outputs(&c);
        CHECK(edml_operator_execute(op, in, 2, out, 1, NULL) == EDML_STATUS_INVALID_BINDING, "input count");
        CHECK(strstr(edml_device_last_error(d.dev), "inputCount is 2, expected 3"), "%s",
              edml_device_last_error(d.dev));
        CHECK(edml_operator_execute(op, NULL, 3, out, 1, NULL) == EDML_STATUS_INVALID_ARGUMENT, "NULL inputs");
        CHECK(ops_outputs_untouched(&c), "count errors wrote");
    }
    /* in place on A: allowed, same result as out of place */
    uint8_t *a_copy = malloc((size_t)in[1].SizeInBytes);
    memcpy(a_copy, in[1].Buffer, (size_t)in[1].SizeInBytes);
    out[0] = in[1];
    CHECK(edml_operator_execute(op, in, 3, out, 1, NULL) == EDML_STATUS_OK, "in place: %s",
          edml_device_last_error(d.dev));
    CHECK(ops_buffer_matches_expected(&c, (const uint8_t *)in[1].Buffer), "in-place result");
    memcpy(in[1].Buffer, a_copy, (size_t)in[1].SizeInBytes);
    free(a_copy);
    tl_device_free(&d);
    ops_free(&c);
}

/* A parallel-for that counts its calls and runs the parts on this thread,
 * last first. */
typedef struct count_pf {
    int calls;
    uint32_t most_parts;
} count_pf;
static void count_parallel_for(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    count_pf *c = (count_pf *)ctx;
    c->calls++;
    if (parts > c->most_parts) c->most_parts = parts;
    for (uint32_t p = parts; p-- > 0;) task(arg, p, 0);
}

/* The descriptor of an ElementWiseIf of n FLOAT32 elements. */
typedef struct if_f32_desc {
    UINT sz[1];
    EDML_BUFFER_TENSOR_DESC bc, bf;
    EDML_TENSOR_DESC c, f;
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC d;
    EDML_OPERATOR_DESC od;
} if_f32_desc;

static void if_f32_make(if_f32_desc *x, UINT n)
{
    x->sz[0] = n;
    x->bc = (EDML_BUFFER_TENSOR_DESC){EDML_TENSOR_DATA_TYPE_UINT8, 0, 1, x->sz, NULL, (n + 3) & ~3u, 0};
    x->bf = (EDML_BUFFER_TENSOR_DESC){EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 1, x->sz, NULL, 4ull * n, 0};
    x->c = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &x->bc};
    x->f = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &x->bf};
    x->d = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&x->c, &x->f, &x->f, &x->f};
    x->od = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &x->d};
}

/* ElementWiseIf of n FLOAT32 elements on `dev`: its result right (A where
 * the condition is set, B elsewhere). */
static bool run_if_f32(edml_device *dev, UINT n)
{
    if_f32_desc x;
    if_f32_make(&x, n);
    const EDML_BUFFER_TENSOR_DESC bc = x.bc, bf = x.bf;
    const EDML_OPERATOR_DESC od = x.od;
    uint8_t *cond = malloc(bc.TotalTensorSizeInBytes);
    float *a = malloc(bf.TotalTensorSizeInBytes), *b = malloc(bf.TotalTensorSizeInBytes),
          *o = malloc(bf.TotalTensorSizeInBytes);
    for (UINT i = 0; i < n; i++) cond[i] = (uint8_t)(i % 3 == 0), a[i] = (float)i, b[i] = -(float)i, o[i] = 0.5f;
    edml_operator *op;
    bool ok = edml_operator_create(dev, &od, EDML_BACKEND_NEON, &op) == EDML_STATUS_OK;
    EDML_BUFFER_BINDING in[3] = {{cond, 0, bc.TotalTensorSizeInBytes},
                                 {a, 0, bf.TotalTensorSizeInBytes},
                                 {b, 0, bf.TotalTensorSizeInBytes}},
                        out[1] = {{o, 0, bf.TotalTensorSizeInBytes}};
    ok = ok && edml_operator_execute(op, in, 3, out, 1, NULL) == EDML_STATUS_OK;
    for (UINT i = 0; ok && i < n; i++) ok = o[i] == (i % 3 == 0 ? a[i] : b[i]);
    if (op) edml_operator_destroy(op);
    free(cond), free(a), free(b), free(o);
    return ok;
}

/* ArgMax along rows of `cols` FLOAT16 elements, `rows` of them, on `dev`
 * (NEON): each row's index right (its largest element at row * 7 % cols). */
static bool run_argmax_f16(edml_device *dev, UINT rows, UINT cols)
{
    UINT sz[2] = {rows, cols}, osz[2] = {rows, 1}, axes[1] = {1};
    const UINT64 in_bytes = 2ull * rows * cols, out_bytes = 4ull * rows;
    EDML_BUFFER_TENSOR_DESC bi = {EDML_TENSOR_DATA_TYPE_FLOAT16, 0, 2, sz, NULL, in_bytes, 0};
    EDML_BUFFER_TENSOR_DESC bo = {EDML_TENSOR_DATA_TYPE_UINT32, 0, 2, osz, NULL, out_bytes, 0};
    EDML_TENSOR_DESC ti = {EDML_TENSOR_TYPE_BUFFER, &bi}, to = {EDML_TENSOR_TYPE_BUFFER, &bo};
    EDML_ARGMAX_OPERATOR_DESC d = {&ti, &to, 1, axes, EDML_AXIS_DIRECTION_INCREASING};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_ARGMAX, &d};
    uint16_t *x = malloc((size_t)in_bytes);
    uint32_t *o = calloc(rows, 4);
    for (UINT r = 0; r < rows; r++)
        for (UINT c = 0; c < cols; c++)
            x[(size_t)r * cols + c] = c == r * 7 % cols ? 0x5000u : (uint16_t)(0x3c00u + c % 97);
    edml_operator *op;
    EDML_BINDING_PROPERTIES bp = {0};
    bool ok = edml_operator_create(dev, &od, EDML_BACKEND_NEON, &op) == EDML_STATUS_OK &&
              edml_operator_get_binding_properties(op, &bp) == EDML_STATUS_OK;
    void *scratch = NULL; /* edml wants a scratch binding aligned to 16 (malloc gives 8 on ARMv7) */
    if (posix_memalign(&scratch, 64, bp.TemporaryResourceSize + 64)) abort();
    EDML_BUFFER_BINDING in[1] = {{x, 0, in_bytes}}, out[1] = {{o, 0, out_bytes}},
                        tmp = {scratch, 0, bp.TemporaryResourceSize};
    ok = ok && edml_operator_execute(op, in, 1, out, 1, bp.TemporaryResourceSize ? &tmp : NULL) == EDML_STATUS_OK;
    for (UINT r = 0; ok && r < rows; r++) ok = o[r] == r * 7 % cols;
    if (op) edml_operator_destroy(op);
    free(x), free(o), free(scratch);
    return ok;
}

/* edml_device_desc.workers and parallel_for: their checks and messages, the
 * scratch that grows with the workers, and the cost model (small operators
 * stay on the calling thread, large ones get at most a part a worker). */
static void test_parallel(void)
{
    const size_t size = edml_device_size() + (1u << 20);
    uint8_t *mem;
    if (posix_memalign((void **)&mem, 16, size)) abort();
    memset(mem, 0, size);
    edml_device *dev;
    count_pf cpf = {0, 0};
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    dd.log = log_fn;
    dd.workers = 3;
    CHECK(edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_INVALID_ARGUMENT, "workers without parallel_for");
    CHECK(!strcmp(log_last, "edml_device_desc.workers is 3 but parallel_for is NULL: give a parallel-for, or leave "
                            "workers 0"),
          "message: %s", log_last);
    dd.parallel_for = count_parallel_for;
    dd.parallel_context = &cpf;
    dd.workers = 65;
    CHECK(edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_INVALID_ARGUMENT, "65 workers");
    CHECK(!strcmp(log_last, "edml_device_desc.workers is 65, expected 0 (the board's cores) to 64"), "message: %s",
          log_last);
    ops_case tk;
    ops_make_type(&tk, EDML_OPERATOR_TOP_K1);
    edml_operator_sizes one, four;
    dd.workers = 1;
    CHECK(edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_OK, "1 worker");
    CHECK(edml_operator_query(dev, &tk.desc, EDML_BACKEND_NEON, &one) == EDML_STATUS_OK, "query, 1 worker");
    edml_device_destroy(dev);
    dd.workers = 4;
    CHECK(edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_OK, "4 workers");
    CHECK(edml_operator_query(dev, &tk.desc, EDML_BACKEND_NEON, &four) == EDML_STATUS_OK, "query, 4 workers");
    CHECK(one.temporary_bytes && four.temporary_bytes == 4 * one.temporary_bytes,
          "TopK scratch grows with the workers: %zu, %zu", one.temporary_bytes, four.temporary_bytes);
    ops_free(&tk);
    CHECK(run_if_f32(dev, 1000) && cpf.calls == 0, "4 KiB: on the calling thread (%d calls)", cpf.calls);
    CHECK(run_if_f32(dev, 1u << 20) && cpf.calls == 1 && cpf.most_parts == 4, "4 MiB: 4 parts (%d calls, %u parts)",
          cpf.calls, cpf.most_parts);
    /* fewer outputs than workers, each a part's worth: one call, side by side */
    cpf.calls = 0, cpf.most_parts = 0;
    CHECK(run_argmax_f16(dev, 2, 32000) && cpf.calls == 1 && cpf.most_parts == 2,
          "ArgMax of 2 rows of 64 KB: one call of 2 parts (%d calls, %u parts)", cpf.calls, cpf.most_parts);
    cpf.calls = 0, cpf.most_parts = 0;
    CHECK(run_argmax_f16(dev, 1, 200000) && cpf.calls == 1 && cpf.most_parts == 4,
          "ArgMax of 1 row of 400 KB: one call of 4 parts (%d calls, %u parts)", cpf.calls, cpf.most_parts);
    edml_device_destroy(dev);
    free(mem);
}

/* AUTO's thresholds are for one core: with 4 workers the GPU needs 4 times
 * the elements (a board that lets llvmpipe count as a GPU, thresholds 1000). */
static void test_auto_workers(void)
{
    edml_board board = *edml_board_builtin();
    board.gpu_software_ok = 1;
    board.cost_model = NULL, board.cost_model_terms = 0; /* the thresholds alone */
    board.gpu_min_elements = board.gpu_min_elements_copy = 1000;
    if_f32_desc x;
    if_f32_make(&x, 3000);
    edml_backend chosen[2] = {EDML_BACKEND_AUTO, EDML_BACKEND_AUTO};
    count_pf cpf = {0, 0};
    for (int k = 0; k < 2; k++) {
        const size_t size = edml_device_size() + (1u << 16);
        void *mem;
        if (posix_memalign(&mem, 16, size)) abort();
        memset(mem, 0, size);
        edml_device *dev;
        edml_device_desc dd = {0};
        dd.board = &board;
        dd.backends = tl_backends_default;
        dd.parallel_for = count_parallel_for;
        dd.parallel_context = &cpf;
        dd.workers = k ? 4 : 1;
        edml_operator_sizes sz;
        if (edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_OK) {
            if (!(edml_device_backends(dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) {
                edml_device_destroy(dev);
                free(mem);
                return; /* no GL here */
            }
            if (edml_operator_query(dev, &x.od, EDML_BACKEND_AUTO, &sz) == EDML_STATUS_OK) chosen[k] = sz.backend;
            edml_device_destroy(dev);
        }
        free(mem);
    }
    CHECK(chosen[0] == EDML_BACKEND_GLES && chosen[1] == EDML_BACKEND_NEON,
          "3000 elements, threshold 1000: auto chose %s with 1 worker, %s with 4", edml_backend_name(chosen[0]),
          edml_backend_name(chosen[1]));
}

static void pool_task(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    __atomic_fetch_add(&((int *)arg)[part], 1, __ATOMIC_RELAXED);
}

/* PORT=linux's pool: its checks, every part run exactly once; PORT=none
 * says UNSUPPORTED. */
static void test_pool(void)
{
    edml_pool *pool = (edml_pool *)1;
    CHECK(edml_pool_size(65, 0) == 0, "65 workers: no size");
    size_t bytes = edml_pool_size(3, 0);
    if (!bytes) {
        CHECK(edml_pool_create(3, 0, NULL, 0, &pool) == EDML_STATUS_UNSUPPORTED && !pool, "PORT=none: unsupported");
        return;
    }
    uint8_t *mem;
    if (posix_memalign((void **)&mem, 64, bytes + 64)) abort();
    CHECK(edml_pool_create(3, 0, NULL, bytes, &pool) == EDML_STATUS_INVALID_ARGUMENT, "NULL memory");
    CHECK(edml_pool_create(3, 0, mem + 8, bytes, &pool) == EDML_STATUS_INVALID_ARGUMENT, "misaligned memory");
    CHECK(edml_pool_create(3, 0, mem, bytes - 1, &pool) == EDML_STATUS_ARENA_TOO_SMALL, "memory too small");
    CHECK(edml_pool_create(65, 0, mem, bytes, &pool) == EDML_STATUS_INVALID_ARGUMENT, "65 workers");
    CHECK(edml_pool_create(3, 0, mem, bytes, &pool) == EDML_STATUS_OK && edml_pool_workers(pool) == 3, "pool of 3");
    int counts[200];
    for (uint32_t parts = 0; parts <= 200; parts += 7) {
        memset(counts, 0, sizeof counts);
        edml_pool_parallel_for(pool, pool_task, counts, parts);
        int bad = 0;
        for (uint32_t p = 0; p < 200; p++) bad += counts[p] != (p < parts);
        CHECK(bad == 0, "%u parts: %d run other than once", parts, bad);
    }
    CHECK(edml_pool_destroy(pool) == EDML_STATUS_OK, "destroy");
    CHECK(edml_pool_destroy(pool) == EDML_STATUS_INVALID_ARGUMENT && edml_pool_workers(pool) == 0, "destroy twice");
    memset(counts, 0, sizeof counts);
    edml_pool_parallel_for(pool, pool_task, counts, 5); /* a stopped pool: on the calling thread */
    CHECK(counts[0] == 1 && counts[4] == 1, "a stopped pool still runs the parts");
    free(mem);
}

/* ArgMin/ArgMax of one FLOAT32 {rows, cols} tensor over `axis` on the
 * reference and on NEON: 1 if they differ. */
static int argreduce_differs(edml_device *dev, const uint32_t *data, UINT rows, UINT cols, UINT axis,
                             EDML_OPERATOR_TYPE type, EDML_AXIS_DIRECTION dir)
{
    UINT in_sizes[2] = {rows, cols}, out_sizes[2] = {axis ? rows : 1, axis ? 1 : cols}, axes[1] = {axis};
    const UINT64 outn = (UINT64)out_sizes[0] * out_sizes[1];
    EDML_BUFFER_TENSOR_DESC bi = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, in_sizes, NULL, (UINT64)rows * cols * 4, 0};
    EDML_BUFFER_TENSOR_DESC bo = {EDML_TENSOR_DATA_TYPE_UINT32, 0, 2, out_sizes, NULL, outn * 4, 0};
    EDML_TENSOR_DESC ti = {EDML_TENSOR_TYPE_BUFFER, &bi}, to = {EDML_TENSOR_TYPE_BUFFER, &bo};
    EDML_ARGMIN_OPERATOR_DESC d = {&ti, &to, 1, axes, dir};
    EDML_OPERATOR_DESC od = {type, &d};
    uint32_t out[2][1024];
    for (int b = 0; b < 2; b++) {
        edml_operator *op;
        EDML_BUFFER_BINDING in[1] = {{(void *)data, 0, bi.TotalTensorSizeInBytes}}, o[1] = {{out[b], 0, outn * 4}};
        if (edml_operator_create(dev, &od, b ? EDML_BACKEND_NEON : EDML_BACKEND_REF, &op) ||
            edml_operator_execute(op, in, 1, o, 1, NULL))
            return 1;
        edml_operator_destroy(op);
    }
    return memcmp(out[0], out[1], outn * 4) != 0;
}

/* ArgMin/ArgMax over FLOAT32 tensors whose elements come from a random few
 * of 16 values: -0 and +0, NaNs of both signs, the infinities, subnormals
 * (which ARMv7 NEON compares as zero) and floats one step apart: ties
 * everywhere. Along rows (blocks of 32 and a tail) and down columns (16 side
 * by side, and 4 and 1), both operators and both tie rules: NEON matches the
 * reference. */
static void test_argreduce_ties(void)
{
    static const uint32_t alphabet[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u, 0xffc00001u,
                                        0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u, 0x00000002u, 0x80000002u,
                                        0x3f800001u, 0xbf800001u, 0x7f7fffffu, 0xff7fffffu};
    static const UINT shapes[][3] = {{4, 100, 1}, {2, 1000, 1}, {100, 16, 0}, {30, 23, 0}};
    tl_device d;
    CHECK(tl_device_make(&d, edml_device_size() + (1u << 16),
                         EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON)) == EDML_STATUS_OK,
          "device");
    uint32_t data[2000];
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int trial = 0; trial < 4000; trial++) {
        uint32_t pick[16], kinds = 0; /* a random few of the values */
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        for (uint32_t v = 0; v < 16; v++)
            if ((rng >> (33 + v)) & 1 && (rng >> (49 + v % 8)) & 1) pick[kinds++] = alphabet[v];
        if (!kinds) pick[kinds++] = alphabet[1];
        for (int i = 0; i < 2000; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            data[i] = pick[(rng >> 33) % kinds];
        }
        const UINT *sh = shapes[trial % 4];
        bad +=
            argreduce_differs(d.dev, data, sh[0], sh[1], sh[2], trial & 4 ? EDML_OPERATOR_ARGMAX : EDML_OPERATOR_ARGMIN,
                              trial & 8 ? EDML_AXIS_DIRECTION_DECREASING : EDML_AXIS_DIRECTION_INCREASING);
    }
    CHECK(bad == 0, "%d of 4000 tie-heavy ArgMin/ArgMax tensors differ between NEON and the reference", bad);
    tl_device_free(&d);
}

/* ArgMin/ArgMax along an innermost dim of 2 or 3 (NEON's de-interleaving
 * kernel) on the reference and on NEON, [2, rows, n] of type t, the output
 * packed or every other element (strided): 1 if they differ. */
static int short_differs(edml_device *dev, EDML_TENSOR_DATA_TYPE t, const void *data, UINT rows, UINT n,
                         EDML_TENSOR_DATA_TYPE it, bool strided, EDML_OPERATOR_TYPE type, EDML_AXIS_DIRECTION dir)
{
    UINT in_sizes[3] = {2, rows, n}, out_sizes[3] = {2, rows, 1}, ost[3] = {2 * rows, 2, 1}, axes[1] = {2};
    const UINT64 os = edml_data_type_size(it), outb = (strided ? 4ull * rows : 2ull * rows) * os;
    EDML_BUFFER_TENSOR_DESC bi = {t, 0, 3, in_sizes, NULL, (2ull * rows * n * edml_data_type_size(t) + 3) & ~3ull, 0};
    EDML_BUFFER_TENSOR_DESC bo = {it, 0, 3, out_sizes, strided ? ost : NULL, outb, 0};
    EDML_TENSOR_DESC ti = {EDML_TENSOR_TYPE_BUFFER, &bi}, to = {EDML_TENSOR_TYPE_BUFFER, &bo};
    EDML_ARGMIN_OPERATOR_DESC d = {&ti, &to, 1, axes, dir};
    EDML_OPERATOR_DESC od = {type, &d};
    static uint8_t out[2][4 * 200 * 8];
    memset(out, 0x5a, sizeof out);
    for (int b = 0; b < 2; b++) {
        edml_operator *op;
        EDML_BUFFER_BINDING in[1] = {{(void *)data, 0, bi.TotalTensorSizeInBytes}}, o[1] = {{out[b], 0, outb}};
        if (edml_operator_create(dev, &od, b ? EDML_BACKEND_NEON : EDML_BACKEND_REF, &op) ||
            edml_operator_execute(op, in, 1, o, 1, NULL))
            return 1;
        edml_operator_destroy(op);
    }
    return memcmp(out[0], out[1], outb) != 0;
}

/* Rows of 2 and 3 (an NHWC image's channels) of every 8-, 16- and 32-bit
 * type, and of 4 to 31 of the 32-bit ones, from a few values each (the types' extremes, and for FLOAT32 -0,
 * NaNs and the infinities): ties everywhere, whole vectors and tails,
 * both operators and tie rules, 32- and 64-bit indices, packed and strided
 * outputs: NEON matches the reference. */
static void test_argreduce_short_rows(void)
{
    static const EDML_TENSOR_DATA_TYPE types[7] = {EDML_TENSOR_DATA_TYPE_UINT8,  EDML_TENSOR_DATA_TYPE_INT8,
                                                   EDML_TENSOR_DATA_TYPE_UINT16, EDML_TENSOR_DATA_TYPE_INT16,
                                                   EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_DATA_TYPE_INT32,
                                                   EDML_TENSOR_DATA_TYPE_FLOAT32};
    static const uint32_t ints[5] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    static const uint32_t floats[8] = {0,           0x80000000u, 0x3f800000u, 0xbf800000u,
                                       0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u};
    static const UINT row_counts[4] = {1, 16, 33, 200};
    static uint8_t data[2 * 200 * 31 * 4];
    tl_device d;
    CHECK(tl_device_make(&d, edml_device_size() + (1u << 16),
                         EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON)) == EDML_STATUS_OK,
          "device");
    uint64_t rng = 0x2545f4914f6cdd1dull;
    int bad = 0, runs = 0;
    for (int trial = 0; trial < 7 * 2 * 4 * 16; trial++, runs++) {
        const EDML_TENSOR_DATA_TYPE t = types[trial % 7];
        const UINT es = edml_data_type_size(t), rows = row_counts[(trial / 14) % 4];
        static const UINT long_rows[5] = {4, 5, 8, 21, 31}; /* a vector of rows at a time */
        const UINT n = trial % 3 == 0 ? long_rows[(trial / 3) % 5] : 2u + (UINT)(trial / 7) % 2u;
        for (UINT i = 0; i < 2 * rows * n; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const uint32_t v = t == EDML_TENSOR_DATA_TYPE_FLOAT32 ? floats[(rng >> 33) % 8]
                                                                  : ints[(rng >> 33) % 5] >> (32 - 8 * es) % 32;
            memcpy(data + i * es, &v, es); /* little-endian: the low bytes */
        }
        const int k = trial / 56;
        bad +=
            short_differs(d.dev, t, data, rows, n, k & 1 ? EDML_TENSOR_DATA_TYPE_INT64 : EDML_TENSOR_DATA_TYPE_UINT32,
                          k & 2, k & 4 ? EDML_OPERATOR_ARGMAX : EDML_OPERATOR_ARGMIN,
                          k & 8 ? EDML_AXIS_DIRECTION_DECREASING : EDML_AXIS_DIRECTION_INCREASING);
    }
    CHECK(bad == 0, "%d of %d ArgMin/ArgMax over rows of 2 to 31 differ between NEON and the reference", bad, runs);
    tl_device_free(&d);
}

/* TopK of one tensor on the reference and on NEON: 1 if they differ. */
static int topk_differs(edml_device *dev, EDML_TENSOR_DATA_TYPE t, void *data, UINT rows, UINT cols, UINT axis, UINT k,
                        EDML_AXIS_DIRECTION dir, void *out)
{
    const UINT es = edml_data_type_size(t);
    UINT in_sizes[2] = {rows, cols}, out_sizes[2] = {axis ? rows : k, axis ? k : cols};
    const UINT64 outn = (UINT64)out_sizes[0] * out_sizes[1];
    EDML_BUFFER_TENSOR_DESC bi = {t, 0, 2, in_sizes, NULL, (UINT64)rows * cols * es, 0};
    EDML_BUFFER_TENSOR_DESC bv = {t, 0, 2, out_sizes, NULL, outn * es, 0};
    EDML_BUFFER_TENSOR_DESC bx = {EDML_TENSOR_DATA_TYPE_UINT32, 0, 2, out_sizes, NULL, outn * 4, 0};
    EDML_TENSOR_DESC ti = {EDML_TENSOR_TYPE_BUFFER, &bi}, tv = {EDML_TENSOR_TYPE_BUFFER, &bv};
    EDML_TENSOR_DESC tx = {EDML_TENSOR_TYPE_BUFFER, &bx};
    EDML_TOP_K1_OPERATOR_DESC d = {&ti, &tv, &tx, axis, k, dir};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &d};
    uint8_t *o[2] = {out, (uint8_t *)out + outn * (es + 4)};
    for (int b = 0; b < 2; b++) {
        edml_operator *op;
        EDML_BUFFER_BINDING in[1] = {{data, 0, bi.TotalTensorSizeInBytes}};
        EDML_BUFFER_BINDING bo[2] = {{o[b], 0, outn * es}, {o[b] + outn * es, 0, outn * 4}};
        if (edml_operator_create(dev, &od, b ? EDML_BACKEND_NEON : EDML_BACKEND_REF, &op) ||
            edml_operator_execute(op, in, 1, bo, 2, NULL))
            return 1;
        edml_operator_destroy(op);
    }
    return memcmp(o[0], o[1], outn * (es + 4)) != 0;
}

/* TopK over every bit pattern of the 8- and 16-bit types (and 65536 float
 * patterns: every sign, exponent and top mantissa bits, with NaNs, -0 and
 * subnormals among them), shuffled: along a packed row, down 16 columns side
 * by side and down 8 (one at a time), both directions, K a sixteenth and K
 * the whole axis, and a small K along rows of 4096 and down 16 columns
 * (where NEON starts from floors). NEON's keys, thresholds and candidate order match the
 * reference's for every value. */
static void test_topk_every_value(void)
{
    static const EDML_TENSOR_DATA_TYPE types[] = {EDML_TENSOR_DATA_TYPE_FLOAT16, EDML_TENSOR_DATA_TYPE_UINT16,
                                                  EDML_TENSOR_DATA_TYPE_INT16,   EDML_TENSOR_DATA_TYPE_UINT8,
                                                  EDML_TENSOR_DATA_TYPE_INT8,    EDML_TENSOR_DATA_TYPE_FLOAT32,
                                                  EDML_TENSOR_DATA_TYPE_INT32,   EDML_TENSOR_DATA_TYPE_UINT32};
    void *data, *out;
    uint32_t *perm;
    if (posix_memalign(&data, 16, 65536 * 4) || posix_memalign(&out, 16, 2 * 65536 * 8) ||
        posix_memalign((void **)&perm, 16, 65536 * sizeof *perm))
        abort();
    tl_device d;
    CHECK(tl_device_make(&d, edml_device_size() + (4u << 20),
                         EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON)) == EDML_STATUS_OK,
          "device");
    edml_device *dev = d.dev;
    uint64_t rng = 0x2545f4914f6cdd1dull;
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        const EDML_TENSOR_DATA_TYPE t = types[ti];
        const UINT es = edml_data_type_size(t), n = es == 1 ? 256 : 65536;
        for (UINT i = 0; i < n; i++) perm[i] = es == 4 ? i << 16 | (i * 2654435761u >> 16) : i;
        for (UINT i = n; i-- > 1;) { /* Fisher-Yates */
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            UINT j = (UINT)((rng >> 33) % (i + 1)), x = perm[i];
            perm[i] = perm[j], perm[j] = x;
        }
        for (UINT i = 0; i < n; i++) memcpy((uint8_t *)data + (size_t)i * es, &perm[i], es);
        int bad = 0;
        for (int dir = 0; dir < 2; dir++) {
            const EDML_AXIS_DIRECTION d = dir ? EDML_AXIS_DIRECTION_INCREASING : EDML_AXIS_DIRECTION_DECREASING;
            bad += topk_differs(dev, t, data, 1, n, 1, n / 16, d, out);
            bad += topk_differs(dev, t, data, 1, n, 1, n, d, out);
            bad += topk_differs(dev, t, data, n / 16, 16, 0, n / 64, d, out);
            bad += topk_differs(dev, t, data, n / 8, 8, 0, n / 32, d, out);
            /* small K: the floors (a row's lane-wise bests, each column's bests over groups of rows) */
            bad += topk_differs(dev, t, data, n / (es == 1 ? 256 : 4096), es == 1 ? 256 : 4096, 1, 16, d, out);
            bad += topk_differs(dev, t, data, n / 16, 16, 0, es == 1 ? 4 : 8, d, out);
        }
        CHECK(bad == 0,
              "TopK of every %u-byte pattern (type %d): %d of 12 layouts differ between NEON and the reference", es,
              (int)t, bad);
    }
    tl_device_free(&d);
    free(data);
    free(out);
    free(perm);
}

/* Float32 TopK rows and columns shaped against NEON's floors (a lane-wise
 * best for a small K, a sample's r-th best for a large one, per column a
 * best of groups of rows; then the elements that reach it): sorted rows, whose first chunk holds the sample's best, so
 * fewer than K reach the floor and the row is done again; negative
 * subnormals, which ARMv7 flushes (so a lane-wise best can sit above every
 * element); all equal; three values; NaNs among random values. */
static void test_topk_floors(void)
{
    static const UINT ns[] = {1000, 4000, 25200}, ks[] = {1, 5, 16, 32, 33, 40, 300};
    float *data;
    void *out;
    if (posix_memalign((void **)&data, 16, 25200 * 4) || posix_memalign(&out, 16, 2 * 25200 * 8)) abort();
    tl_device d;
    CHECK(tl_device_make(&d, edml_device_size() + (4u << 20),
                         EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON)) == EDML_STATUS_OK,
          "device");
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int bad = 0, runs = 0;
    for (int pattern = 0; pattern < 7; pattern++) {
        for (UINT i = 0; i < 25200; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const uint32_t r = (uint32_t)(rng >> 32);
            const float u = (float)(r >> 8) / 16777216.0f;
            switch (pattern) {
            case 0: data[i] = u; break;
            case 1: data[i] = (float)i; break;
            case 2: data[i] = -(float)i; break;
            case 3: { /* a negative subnormal */
                const uint32_t b = 0x80000000u | (r & 0x7fffffu) | 1u;
                memcpy(&data[i], &b, 4);
                break;
            }
            case 4: data[i] = 0.5f; break;
            case 5: data[i] = (float)(r % 3); break;
            default: { /* NaNs of both signs and any payload among random values */
                const uint32_t b = (r & 0x803fffffu) | 0x7fc00000u;
                if (r % 64)
                    data[i] = u;
                else
                    memcpy(&data[i], &b, 4);
                break;
            }
            }
        }
        for (int dir = 0; dir < 2; dir++) {
            const EDML_AXIS_DIRECTION dn = dir ? EDML_AXIS_DIRECTION_INCREASING : EDML_AXIS_DIRECTION_DECREASING;
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
                for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++, runs++)
                    bad += topk_differs(d.dev, EDML_TENSOR_DATA_TYPE_FLOAT32, data, 1, ns[ni], 1, ks[ki], dn, out);
            for (UINT k = 1; k <= 17; k += 4, runs += 2) { /* down 16 and 20 columns: the column floors */
                bad += topk_differs(d.dev, EDML_TENSOR_DATA_TYPE_FLOAT32, data, 1000, 16, 0, k, dn, out);
                bad += topk_differs(d.dev, EDML_TENSOR_DATA_TYPE_FLOAT32, data, 1000, 20, 0, k, dn, out);
            }
        }
    }
    CHECK(bad == 0, "%d of %d TopK rows shaped against the floors differ between NEON and the reference", bad, runs);
    tl_device_free(&d);
    free(data);
    free(out);
}

/* GatherND of single elements by packed tuples of each index type (NEON's
 * point loop; unsigned ones never from the end, the bad ones past the end or
 * above 2^31 and 2^63) with an index out of range first, in the middle, last, or two
 * of them, in four parts run last first: NEON's status, message and output
 * match the reference's, as its part hands over to the CPU's walk at the
 * first bad tuple. */
static void test_gather_points(void)
{
    enum {
        ROWS = 48,
        COLS = 40,
        N = 3000
    };
    static const EDML_TENSOR_DATA_TYPE ix_types[] = {EDML_TENSOR_DATA_TYPE_INT32, EDML_TENSOR_DATA_TYPE_INT64,
                                                     EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_DATA_TYPE_UINT64};
    static const int64_t bad_at[][2] = {{-1, -1}, {0, -1}, {1717, -1}, {N - 1, -1}, {5, 2999}, {2250, 760}};
    const size_t size = edml_device_size() + (1 << 20);
    void *mem, *in, *ix, *out[2];
    if (posix_memalign(&mem, 16, size) || posix_memalign(&in, 16, ROWS * COLS * 4) ||
        posix_memalign(&ix, 16, N * 2 * 8) || posix_memalign(&out[0], 16, N * 4) || posix_memalign(&out[1], 16, N * 4))
        abort();
    memset(mem, 0, size);
    for (uint32_t i = 0; i < ROWS * COLS; i++) ((float *)in)[i] = (float)i * 0.5f - 100.0f;
    count_pf cpf = {0};
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    dd.workers = 4;
    dd.parallel_for = count_parallel_for;
    dd.parallel_context = &cpf;
    dd.inject_faults = EDML_FAULT_SMALL_PARTS;
    edml_device *dev;
    CHECK(edml_device_create(&dd, mem, size, &dev) == EDML_STATUS_OK, "device");
    int bad = 0, runs = 0;
    for (size_t t = 0; t < 4; t++) {
        const UINT es = t & 1 ? 8 : 4;
        const bool sgn = t < 2; /* unsigned: none from the end; the bad ones huge or past the end */
        UINT in_sizes[2] = {ROWS, COLS}, ix_sizes[2] = {N, 2}, out_sizes[2] = {1, N};
        EDML_BUFFER_TENSOR_DESC bi = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, in_sizes, NULL, ROWS * COLS * 4, 0};
        EDML_BUFFER_TENSOR_DESC bx = {ix_types[t], 0, 2, ix_sizes, NULL, (UINT64)N * 2 * es, 0};
        EDML_BUFFER_TENSOR_DESC bo = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, out_sizes, NULL, N * 4, 0};
        EDML_TENSOR_DESC ti = {EDML_TENSOR_TYPE_BUFFER, &bi}, tx = {EDML_TENSOR_TYPE_BUFFER, &bx};
        EDML_TENSOR_DESC to = {EDML_TENSOR_TYPE_BUFFER, &bo};
        EDML_GATHER_ND1_OPERATOR_DESC d = {&ti, &tx, &to, 2, 2, 0};
        EDML_OPERATOR_DESC od = {EDML_OPERATOR_GATHER_ND1, &d};
        for (size_t b = 0; b < sizeof bad_at / sizeof bad_at[0]; b++, runs++) {
            for (int64_t i = 0; i < 2 * N; i++) { /* valid, a third of them from the end */
                int64_t lim = i & 1 ? COLS : ROWS, v = (i * 7919) % lim;
                if (i % 3 == 0 && sgn) v -= lim;
                if (i / 2 == bad_at[b][0] || i / 2 == bad_at[b][1]) v = i & 1 ? -COLS - 1 : ROWS + (i % 5);
                if (t & 1)
                    memcpy((uint8_t *)ix + i * 8, &v, 8);
                else {
                    int32_t w = (int32_t)v;
                    memcpy((uint8_t *)ix + i * 4, &w, 4);
                }
            }
            char msg[2][300];
            edml_status st[2];
            for (int k = 0; k < 2; k++) {
                edml_operator *op;
                memset(out[k], 0x5a, N * 4);
                EDML_BUFFER_BINDING bin[2] = {{in, 0, ROWS * COLS * 4}, {ix, 0, (UINT64)N * 2 * es}};
                EDML_BUFFER_BINDING bout[1] = {{out[k], 0, N * 4}};
                st[k] = edml_operator_create(dev, &od, k ? EDML_BACKEND_NEON : EDML_BACKEND_REF, &op);
                if (st[k] == EDML_STATUS_OK) {
                    st[k] = edml_operator_execute(op, bin, 2, bout, 1, NULL);
                    edml_operator_destroy(op);
                }
                snprintf(msg[k], sizeof msg[k], "%s", edml_device_last_error(dev));
            }
            const bool want_bad = bad_at[b][0] >= 0;
            bad += st[0] != st[1] || st[0] != (want_bad ? EDML_STATUS_INDEX_OUT_OF_RANGE : EDML_STATUS_OK) ||
                   (want_bad && strcmp(msg[0], msg[1])) || memcmp(out[0], out[1], N * 4);
        }
    }
    CHECK(bad == 0, "%d of %d point gathers differ between NEON and the reference (status, message or output)", bad,
          runs);
    CHECK(cpf.most_parts == 16, "the point gathers ran in %u parts, not 16 (4 workers, 4 parts each)", cpf.most_parts);
    edml_device_destroy(dev);
    free(mem), free(in), free(ix), free(out[0]), free(out[1]);
}

/* A 12 GiB tensor can never be bound on a 32-bit target: refused when the
 * operator is queried or created there (once only at execute), with the
 * member named; fine on 64-bit ones. */
static void test_tensor_address_space(void)
{
    static const UINT sizes[2] = {3, 1u << 30};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0},
                            cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, ct = {EDML_TENSOR_TYPE_BUFFER, &cb};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC wi = {&ct, &ft, &ft, &ft};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ELEMENT_WISE_IF, &wi};
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, EDML_BACKEND_BIT(EDML_BACKEND_REF)) == EDML_STATUS_OK, "device");
    edml_operator_sizes sz;
    edml_status s = edml_operator_query(d.dev, &desc, EDML_BACKEND_REF, &sz);
    if (sizeof(size_t) == 4)
        CHECK(s == EDML_STATUS_UNSUPPORTED && strstr(edml_device_last_error(d.dev), "ATensor.TotalTensorSizeInBytes") &&
                  strstr(edml_device_last_error(d.dev), "could never be bound"),
              "12 GiB on 32 bits: %s '%s'", edml_status_string(s), edml_device_last_error(d.dev));
    else
        CHECK(s == EDML_STATUS_OK, "12 GiB on 64 bits: %s", edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* Sizes from counts on a 32-bit target: a count whose bytes wrap says
 * SIZE_MAX, and edml_cost_model_write() refuses it reading no line and
 * writing nothing; on 64 bits the same count's bytes are exact. */
static void test_size_macros(void)
{
    static edml_cost_term terms[1];
    static uint8_t blob[EDML_COST_MODEL_BYTES(1)];
    tl_device d;
    CHECK(tl_device_make(&d, edml_device_size() + (1u << 16), EDML_BACKEND_BIT(EDML_BACKEND_REF)) == EDML_STATUS_OK,
          "device");
    const size_t cm = EDML_COST_MODEL_BYTES(0xFFFFFFFFu), pc = EDML_PLACEMENT_CACHE_BYTES(0xFFFFFFFFu);
    if (sizeof(size_t) == 4)
        CHECK(cm == SIZE_MAX && pc == SIZE_MAX, "sizes that wrap on 32 bits: %zu %zu", cm, pc);
    else
        CHECK(cm == 32u + 44u * (size_t)0xFFFFFFFFu && pc == 32u + 40u * (size_t)0xFFFFFFFFu, "sizes: %zu %zu", cm, pc);
    memset(blob, 0xee, sizeof blob);
    CHECK(edml_cost_model_write(d.dev, terms, 0xFFFFFFFFu, blob, sizeof(size_t) == 4 ? SIZE_MAX : sizeof blob) == 0 &&
              blob[0] == 0xee,
          "a blob of 2^32 - 1 lines");
    tl_device_free(&d);
}

int unit_main(void);
int unit_main(void)
{
    test_tensor_address_space();
    test_gather_points();
    test_argreduce_ties();
    test_argreduce_short_rows();
    test_topk_every_value();
    test_topk_floors();
    test_parallel();
    test_auto_workers();
    test_pool();
    test_sizes();
    test_device();
    test_arena_exhaustion();
    test_lifecycle();
    test_tensor_desc();
    test_bindings();
    test_size_macros();
    return tl_summary("unit");
}

#ifndef EDML_TEST_IMAGE
int main(int argc, char **argv)
{
    /* --cpu-only: no GPU driver in the process (for valgrind) */
    if (argc > 1 && !strcmp(argv[1], "--cpu-only"))
        tl_backends_default = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    return unit_main();
}
#endif
