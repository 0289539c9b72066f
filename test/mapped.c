/* Mapped GPU buffers (edml_gpu_buffer_map): inputs written and outputs read
 * through the CPU's view of GPU buffers give the same bytes as host
 * bindings and as NEON, with the GPU arena mapped persistently
 * (gpu_arena_mapped) and without (a range mapped at a time, the device's
 * other GPU calls refused meanwhile), and with gpu_arena_mapped on a driver
 * without GL_EXT_buffer_storage; and the misuse of mappings. Fails where the
 * machine has no GLES (make test installs Mesa). */
#include "testlib.h"

#define N 3000

typedef struct if_data {
    uint8_t cond[N];
    float a[N], b[N], out[N];
} if_data;

static const UINT sizes[1] = {N};

static edml_operator *if_op(edml_device *dev, edml_backend be)
{
    static EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0},
                                   cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0};
    static EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, ct = {EDML_TENSOR_TYPE_BUFFER, &cb};
    static EDML_ELEMENT_WISE_IF_OPERATOR_DESC wi = {&ct, &ft, &ft, &ft};
    static const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ELEMENT_WISE_IF, &wi};
    edml_operator *op = NULL;
    CHECK(edml_operator_create(dev, &desc, be, &op) == EDML_STATUS_OK, "%s: %s", edml_backend_name(be),
          edml_device_last_error(dev));
    return op;
}

static void fill(if_data *d, uint32_t round)
{
    for (uint32_t i = 0; i < N; i++) {
        d->cond[i] = (uint8_t)((i * 7 + round) % 3 == 0);
        d->a[i] = (float)(i + round), d->b[i] = -(float)i - 0.5f;
    }
}

/* the reference: the same operator with host bindings on NEON */
static void expected(edml_device *dev, const if_data *d, float *out)
{
    edml_operator *op = if_op(dev, EDML_BACKEND_NEON);
    EDML_BUFFER_BINDING in[3] = {{(void *)(uintptr_t)d->cond, 0, N},
                                 {(void *)(uintptr_t)d->a, 0, sizeof d->a},
                                 {(void *)(uintptr_t)d->b, 0, sizeof d->b}},
                        o = {out, 0, sizeof d->out};
    CHECK(op && edml_operator_execute(op, in, 3, &o, 1, NULL) == EDML_STATUS_OK, "neon");
    if (op) edml_operator_destroy(op);
}

/* buffers[0..2] inputs, [3] the output: written and read through mappings */
static void run_mapped(edml_device *dev, edml_operator *op, edml_gpu_buffer **buf, const if_data *d, bool persistent,
                       const char *mode, uint32_t round)
{
    void *p[4] = {0};
    const uint64_t bytes[4] = {N, sizeof d->a, sizeof d->b, sizeof d->out};
    const void *src[3] = {d->cond, d->a, d->b};
    for (int i = 0; i < 3; i++) {
        CHECK(edml_gpu_buffer_map(buf[i], 0, bytes[i], &p[i]) == EDML_STATUS_OK && p[i], "%s: map %d: %s", mode, i,
              edml_device_last_error(dev));
        if (p[i]) memcpy(p[i], src[i], (size_t)bytes[i]);
        if (!persistent) CHECK(edml_gpu_buffer_unmap(buf[i]) == EDML_STATUS_OK, "%s: unmap %d", mode, i);
    }
    EDML_BUFFER_BINDING in[3], o = edml_gpu_binding(buf[3], 0, bytes[3]);
    for (int i = 0; i < 3; i++) in[i] = edml_gpu_binding(buf[i], 0, bytes[i]);
    edml_status s = edml_operator_execute(op, in, 3, &o, 1, NULL);
    CHECK(s == EDML_STATUS_OK, "%s round %u: execute with mapped inputs: %s", mode, round, edml_device_last_error(dev));
    float want[N];
    expected(dev, d, want);
    CHECK(edml_gpu_buffer_map(buf[3], 0, bytes[3], &p[3]) == EDML_STATUS_OK && p[3], "%s: map the output", mode);
    CHECK(p[3] && !memcmp(p[3], want, sizeof want), "%s round %u: the output read through the mapping differs", mode,
          round);
    CHECK(edml_gpu_buffer_unmap(buf[3]) == EDML_STATUS_OK, "%s: unmap the output", mode);
    for (int i = 0; persistent && i < 3; i++) CHECK(edml_gpu_buffer_unmap(buf[i]) == EDML_STATUS_OK, "unmap");
}

/* NEON and the reference on GPU buffers (through the CPU's view of them),
 * the output bound on A in place too: the bytes GLES gives; and while
 * another buffer is mapped without persistence, BUSY with nothing written. */
static void run_cpu_on_buffers(edml_device *dev, edml_gpu_buffer **buf, const if_data *d, bool persistent,
                               const char *mode)
{
    const uint64_t bytes[4] = {N, sizeof d->a, sizeof d->b, sizeof d->out};
    const void *src[3] = {d->cond, d->a, d->b};
    float want[N], got[N];
    expected(dev, d, want);
    for (int be = EDML_BACKEND_REF; be <= EDML_BACKEND_NEON; be++)
        for (int in_place = 0; in_place < 2; in_place++) {
            edml_operator *op = if_op(dev, (edml_backend)be);
            for (int i = 0; i < 3; i++) edml_gpu_buffer_write(buf[i], 0, src[i], bytes[i]);
            static const float junk[N] = {0};
            edml_gpu_buffer_write(buf[3], 0, junk, sizeof junk);
            EDML_BUFFER_BINDING in[3], o = edml_gpu_binding(buf[in_place ? 1 : 3], 0, bytes[3]);
            for (int i = 0; i < 3; i++) in[i] = edml_gpu_binding(buf[i], 0, bytes[i]);
            CHECK(op && edml_operator_execute(op, in, 3, &o, 1, NULL) == EDML_STATUS_OK, "%s: %s on GPU buffers: %s",
                  mode, edml_backend_name((edml_backend)be), edml_device_last_error(dev));
            memset(got, 0, sizeof got);
            edml_gpu_buffer_read(buf[in_place ? 1 : 3], 0, got, sizeof got);
            CHECK(!memcmp(got, want, sizeof want), "%s: %s on GPU buffers%s: the output differs", mode,
                  edml_backend_name((edml_backend)be), in_place ? ", in place on A" : "");
            if (op) edml_operator_destroy(op);
        }
    if (persistent) return;
    edml_operator *op = if_op(dev, EDML_BACKEND_NEON);
    void *p = NULL;
    float before[N], after[N];
    edml_gpu_buffer_read(buf[3], 0, before, sizeof before);
    CHECK(edml_gpu_buffer_map(buf[0], 0, 16, &p) == EDML_STATUS_OK, "%s: map", mode);
    EDML_BUFFER_BINDING in[3], o = edml_gpu_binding(buf[3], 0, bytes[3]);
    for (int i = 0; i < 3; i++) in[i] = edml_gpu_binding(buf[i], 0, bytes[i]);
    const edml_status s = op ? edml_operator_execute(op, in, 3, &o, 1, NULL) : EDML_STATUS_OK;
    CHECK(s == EDML_STATUS_BUSY && strstr(edml_device_last_error(dev), "unmap"),
          "%s: NEON on GPU buffers while one is mapped: %s '%s'", mode, edml_status_string(s),
          edml_device_last_error(dev));
    CHECK(edml_gpu_buffer_unmap(buf[0]) == EDML_STATUS_OK, "%s: unmap", mode);
    edml_gpu_buffer_read(buf[3], 0, after, sizeof after);
    CHECK(!memcmp(before, after, sizeof after), "%s: the refused call wrote its output", mode);
    if (op) edml_operator_destroy(op);
}

/* misuse: out of range, zero bytes, twice, unmapped; a plain mapping holds the GPU back */
static void check_misuse(edml_device *dev, edml_operator *op, edml_gpu_buffer **buf, bool persistent, const char *mode)
{
    void *p = (void *)1;
    CHECK(edml_gpu_buffer_map(buf[0], 16, N, &p) == EDML_STATUS_INVALID_ARGUMENT && !p, "%s: out of range", mode);
    p = (void *)1;
    CHECK(edml_gpu_buffer_map(buf[0], 0, 0, &p) == EDML_STATUS_INVALID_ARGUMENT && !p &&
              strstr(edml_device_last_error(dev), "bytes is 0"),
          "%s: zero bytes, as edml_gpu_buffer_create refuses them: '%s'", mode, edml_device_last_error(dev));
    CHECK(edml_gpu_buffer_unmap(buf[0]) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(edml_device_last_error(dev), "not mapped"),
          "%s: unmapped: '%s'", mode, edml_device_last_error(dev));
    CHECK(edml_gpu_buffer_map(buf[0], 0, 16, &p) == EDML_STATUS_OK, "%s: map", mode);
    CHECK(edml_gpu_buffer_map(buf[0], 0, 16, &p) == EDML_STATUS_INVALID_ARGUMENT, "%s: twice", mode);
    if_data *d = calloc(1, sizeof *d);
    EDML_BUFFER_BINDING in[3] = {{d->cond, 0, N}, {d->a, 0, sizeof d->a}, {d->b, 0, sizeof d->b}},
                        o = {d->out, 0, sizeof d->out};
    memset(d->out, 0x5a, sizeof d->out);
    const edml_status s = edml_operator_execute(op, in, 3, &o, 1, NULL);
    if (persistent)
        CHECK(s == EDML_STATUS_OK, "%s: a GPU call while mapped: %s", mode, edml_device_last_error(dev));
    else
        CHECK(s == EDML_STATUS_BUSY && strstr(edml_device_last_error(dev), "unmap") && ((uint8_t *)d->out)[0] == 0x5a,
              "%s: a GPU call while mapped: %s '%s'", mode, edml_status_string(s), edml_device_last_error(dev));
    CHECK(edml_gpu_buffer_unmap(buf[0]) == EDML_STATUS_OK, "%s: unmap", mode);
    CHECK(edml_operator_execute(op, in, 3, &o, 1, NULL) == EDML_STATUS_OK, "%s: after unmap", mode);
    free(d);
}

static void check_mode(uint32_t arena_mapped, uint32_t faults, const char *mode)
{
    tl_device t;
    t.size = edml_device_size() + (1 << 16);
    if (posix_memalign(&t.arena, 16, t.size)) abort();
    memset(t.arena, 0, t.size);
    edml_device_desc dd = {0};
    dd.gpu_arena_bytes = 1 << 20;
    dd.gpu_arena_mapped = arena_mapped;
    dd.inject_faults = faults;
    CHECK(edml_device_create(&dd, t.arena, t.size, &t.dev) == EDML_STATUS_OK, "device");
    char info[400];
    edml_device_gles_info(t.dev, info, sizeof info);
    const bool persistent = strstr(info, "mapped persistently") != NULL;
    CHECK(persistent == (arena_mapped && !faults), "%s: %s", mode, info);
    printf("mapped: %s: %s\n", mode, info);
    edml_operator *op = if_op(t.dev, EDML_BACKEND_GLES);
    edml_gpu_buffer *buf[4] = {0};
    const uint64_t bytes[4] = {N, N * 4, N * 4, N * 4};
    for (int i = 0; i < 4; i++) CHECK(edml_gpu_buffer_create(t.dev, bytes[i], &buf[i]) == EDML_STATUS_OK, "buffer");
    static if_data d;
    for (uint32_t round = 0; op && round < 3; round++) {
        fill(&d, round);
        run_mapped(t.dev, op, buf, &d, persistent, mode, round);
    }
    if (op) check_misuse(t.dev, op, buf, persistent, mode);
    fill(&d, 5);
    run_cpu_on_buffers(t.dev, buf, &d, persistent, mode);
    void *p = NULL; /* destroying a mapped buffer unmaps it: the device goes on */
    CHECK(edml_gpu_buffer_map(buf[3], 0, 4, &p) == EDML_STATUS_OK, "map before destroy");
    for (int i = 4; i-- > 0;) CHECK(edml_gpu_buffer_destroy(buf[i]) == EDML_STATUS_OK, "destroy %d", i);
    if (op) {
        fill(&d, 7);
        EDML_BUFFER_BINDING in[3] = {{d.cond, 0, N}, {d.a, 0, sizeof d.a}, {d.b, 0, sizeof d.b}},
                            o = {d.out, 0, sizeof d.out};
        float want[N];
        expected(t.dev, &d, want);
        CHECK(edml_operator_execute(op, in, 3, &o, 1, NULL) == EDML_STATUS_OK && !memcmp(d.out, want, sizeof want),
              "%s: host bindings after the buffers: %s", mode, edml_device_last_error(t.dev));
        edml_operator_destroy(op);
    }
    tl_device_free(&t);
}

int main(void)
{
    char info[300];
    tl_device probe;
    if (tl_device_make(&probe, edml_device_size() + 4096, 0) ||
        !(edml_device_backends(probe.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) {
        printf("mapped: no GLES here: %s\n", probe.dev ? edml_device_gles_info(probe.dev, info, sizeof info) : "");
        return 1;
    }
    tl_device_free(&probe);
    check_mode(1, 0, "the GPU arena mapped persistently");
    check_mode(0, 0, "a range mapped at a time");
    check_mode(1, EDML_FAULT_NO_BUFFER_STORAGE, "gpu_arena_mapped without GL_EXT_buffer_storage");
    return tl_summary("mapped");
}
