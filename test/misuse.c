/* Misuse of the API, as a new user or a hostile caller would: every case is
 * refused with a status and a message (or made safe), a refused call writes
 * no output, and nothing returns OK with a wrong answer. Two threads on one
 * device are tested by test/threads.c --shared, a static program by make
 * test's "static program" steps. */
#include "ops.h"

static char log_text[512];
static int log_count;
static void log_fn(void *user, edml_status s, const char *m)
{
    (void)user;
    (void)s;
    log_count++;
    snprintf(log_text, sizeof log_text, "%s", m);
}

#define MSG(d) edml_device_last_error((d).dev)
#define CPU_BACKENDS (EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON))

/* a board like the built-in one that sends every operator to the GPU, llvmpipe too */
static edml_board gpu_board(void)
{
    edml_board b = *edml_board_builtin();
    b.gpu_min_elements = 0;
    b.gpu_min_elements_copy = 0;
    b.gpu_topk_min_row = 0;
    b.gpu_software_ok = 1;
    return b;
}

static edml_status gpu_device(tl_device *d, const edml_board *board, uint64_t gpu_bytes, uint32_t faults)
{
    d->size = edml_device_size() + (1 << 16);
    if (posix_memalign(&d->arena, 16, d->size)) abort();
    memset(d->arena, 0, d->size);
    edml_device_desc dd = {0};
    dd.board = board;
    dd.gpu_arena_bytes = gpu_bytes;
    dd.inject_faults = faults;
    dd.log = log_fn;
    return edml_device_create(&dd, d->arena, d->size, &d->dev);
}

static bool has_gles(const tl_device *d) { return edml_device_backends(d->dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES); }

/* A device on gpu_board() with GLES and a GPU arena of 1 MiB; false, the
 * device freed, where GLES is not there (the caller skips its checks). */
static bool gles_device(tl_device *d, uint32_t faults)
{
    static edml_board board;
    board = gpu_board();
    CHECK(gpu_device(d, &board, 1 << 20, faults) == EDML_STATUS_OK, "device");
    if (has_gles(d)) return true;
    tl_device_free(d);
    return false;
}

/* A TopK whose scratch does not fit a 32-bit address space on NEON (down
 * 16 columns side by side: 16 heaps of K + 1 = 2^25 + 1 8-byte candidates,
 * just over 2^32 bytes): refused at query and create there, with the
 * numbers; consistent everywhere else. */
static void scratch_beyond_the_address_space(void)
{
    UINT in_sizes[2] = {1u << 25, 16}, out_sizes[2] = {1u << 25, 16};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC xb = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC in = {EDML_TENSOR_TYPE_BUFFER, &ib}, val = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     idx = {EDML_TENSOR_TYPE_BUFFER, &xb};
    EDML_TOP_K1_OPERATOR_DESC tk = {&in, &val, &idx, 0, 1u << 25, EDML_AXIS_DIRECTION_DECREASING};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &tk};
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, CPU_BACKENDS) == EDML_STATUS_OK, "device");
    for (edml_backend b = EDML_BACKEND_REF; b <= EDML_BACKEND_NEON; b++) {
        if (!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(b))) continue;
        edml_operator_sizes sz;
        edml_status q = edml_operator_query(d.dev, &od, b, &sz);
        edml_operator *op = NULL;
        edml_status c = edml_operator_create(d.dev, &od, b, &op);
        CHECK(q == c, "%s: query %s, create %s", edml_backend_name(b), edml_status_string(q), edml_status_string(c));
        if (c == EDML_STATUS_OK) {
            EDML_BINDING_PROPERTIES p;
            CHECK(edml_operator_get_binding_properties(op, &p) == EDML_STATUS_OK, "properties");
            CHECK((UINT64)sz.temporary_bytes == p.TemporaryResourceSize && p.TemporaryResourceSize >= (UINT64)16 << 25,
                  "%s: query says %zu bytes of scratch, TemporaryResourceSize %llu", edml_backend_name(b),
                  sz.temporary_bytes, (unsigned long long)p.TemporaryResourceSize);
            edml_operator_destroy(op);
        } else {
            CHECK(
                sizeof(size_t) == 4 && c == EDML_STATUS_UNSUPPORTED && op == NULL &&
                    strstr(MSG(d), "bytes of scratch (TemporaryResourceSize), more than a 32-bit address space holds"),
                "%s: %s", edml_backend_name(b), MSG(d));
        }
        if (b == EDML_BACKEND_NEON && sizeof(size_t) == 4)
            CHECK(c == EDML_STATUS_UNSUPPORTED, "neon on 32 bits: refused");
    }
    tl_device_free(&d);
}

/* A second device on an arena whose device is live is refused; after
 * destroying the first, the arena takes a new device, and the first
 * device's operators are refused. */
static void device_on_a_live_arena(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ARGMIN);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, CPU_BACKENDS) == EDML_STATUS_OK, "device");
    edml_operator *op;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "operator");
    char err[200] = "";
    edml_device_desc dd = {0};
    dd.error_buffer = err;
    dd.error_buffer_bytes = sizeof err;
    edml_device *again = (edml_device *)&c;
    CHECK(edml_device_create(&dd, d.arena, d.size, &again) == EDML_STATUS_INVALID_ARGUMENT && again == NULL &&
              strstr(err, "the arena holds a live device"),
          "second device: '%s'", err);
    CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "the first device still works: %s",
          MSG(d));
    CHECK(edml_device_destroy(d.dev) == EDML_STATUS_OK, "destroy");
    CHECK(edml_device_create(&dd, d.arena, d.size, &again) == EDML_STATUS_OK, "a device after the first: '%s'", err);
    ops_reset_outputs(&c);
    edml_status s = ops_execute(&c, op, NULL);
    CHECK(s == EDML_STATUS_INVALID_HANDLE && strstr(edml_device_last_error(again), "the operator (op) was destroyed") &&
              ops_outputs_untouched(&c),
          "the first device's operator: %s '%s'", edml_status_string(s), edml_device_last_error(again));
    d.dev = again;
    tl_device_free(&d);
    ops_free(&c);
}

/* A destroyed operator whose place in the arena a newer one took is refused,
 * not run as the newer one; a double destroy says why. */
static void stale_operator_handles(void)
{
    ops_case mn, mx;
    ops_make_type(&mn, EDML_OPERATOR_ARGMIN);
    ops_make_type(&mx, EDML_OPERATOR_ARGMAX);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, CPU_BACKENDS) == EDML_STATUS_OK, "device");
    edml_operator *argmin, *argmax;
    CHECK(edml_operator_create(d.dev, &mn.desc, EDML_BACKEND_REF, &argmin) == EDML_STATUS_OK, "argmin");
    CHECK(edml_operator_destroy(argmin) == EDML_STATUS_OK, "destroy argmin");
    CHECK(edml_operator_create(d.dev, &mx.desc, EDML_BACKEND_REF, &argmax) == EDML_STATUS_OK, "argmax");
    ops_reset_outputs(&mn);
    edml_status s = ops_execute(&mn, argmin, NULL);
    CHECK(s == EDML_STATUS_INVALID_HANDLE && strstr(MSG(d), "the operator (op) was destroyed: its handle is stale"),
          "stale argmin: %s '%s'", edml_status_string(s), MSG(d));
    CHECK(ops_outputs_untouched(&mn), "a stale handle wrote an output");
    CHECK(edml_operator_destroy(argmin) == EDML_STATUS_INVALID_HANDLE && strstr(MSG(d), "stale"),
          "double destroy: '%s'", MSG(d));
    CHECK(ops_execute(&mx, argmax, NULL) == EDML_STATUS_OK && ops_outputs_match(&mx), "argmax still right");
    CHECK(edml_operator_destroy(argmax) == EDML_STATUS_OK, "destroy argmax");
    CHECK(edml_operator_destroy(argmax) == EDML_STATUS_INVALID_HANDLE &&
              !strcmp(MSG(d), "the operator (op) was destroyed"),
          "double destroy on top: '%s'", MSG(d));
    CHECK(edml_operator_destroy(NULL) == EDML_STATUS_INVALID_ARGUMENT, "NULL");
    tl_device_free(&d);
    ops_free(&mn);
    ops_free(&mx);
}

/* The temporary binding is checked as the tensors are: one that wraps around
 * the address space, or lies in the device arena, is refused. */
static void temporary_binding_checks(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, CPU_BACKENDS) == EDML_STATUS_OK, "device");
    edml_operator *op;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_OK, "create");
    static _Alignas(16) uint8_t scratch[4096];
    /* 2 KiB before the buffer, as an Offset that wraps */
    EDML_BUFFER_BINDING t = {scratch, (UINT64)0 - 2048, (UINT64)0 - (uintptr_t)scratch};
    ops_reset_outputs(&c);
    edml_status s = ops_execute(&c, op, &t);
    CHECK(s == EDML_STATUS_INVALID_BINDING && strstr(MSG(d), "temporary binding: Offset 18446744073709549568 has"),
          "temporary before its buffer: %s '%s'", edml_status_string(s), MSG(d));
    t = (EDML_BUFFER_BINDING){scratch, 0, UINT64_MAX};
    s = ops_execute(&c, op, &t);
    CHECK(s == EDML_STATUS_INVALID_BINDING &&
              strstr(MSG(d), "the temporary buffer: Buffer + Offset + SizeInBytes wraps"),
          "wrapping temporary: %s '%s'", edml_status_string(s), MSG(d));
    t = (EDML_BUFFER_BINDING){scratch, 16, UINTPTR_MAX - (uintptr_t)scratch - 8};
    s = ops_execute(&c, op, &t);
    CHECK(s == EDML_STATUS_INVALID_BINDING && strstr(MSG(d), "wraps"), "wrapping by 8: %s '%s'", edml_status_string(s),
          MSG(d));
    t = (EDML_BUFFER_BINDING){(uint8_t *)d.arena + d.size - 1024, 0, 1024};
    s = ops_execute(&c, op, &t);
    CHECK(s == EDML_STATUS_INVALID_BINDING && strstr(MSG(d), "lies inside the device arena"),
          "temporary in the arena: '%s'", MSG(d));
    CHECK(ops_outputs_untouched(&c), "a refused call wrote an output");
    t = (EDML_BUFFER_BINDING){scratch, 0, sizeof scratch};
    CHECK(ops_execute(&c, op, &t) == EDML_STATUS_OK && ops_outputs_match(&c), "a good temporary: %s", MSG(d));
    tl_device_free(&d);
    ops_free(&c);
}

/* Messages: a failed create says why without a log; a NULL descriptor means
 * defaults; a message belongs to the call that failed and success clears it;
 * clamped indices are reported every call and logged once per operator. */
static void messages(void)
{
    static _Alignas(16) uint8_t arena[1 << 17];
    char err[200] = "";
    edml_device_desc dd = {0};
    dd.error_buffer = err;
    dd.error_buffer_bytes = sizeof err;
    edml_device *dev;
    CHECK(edml_device_create(&dd, arena, 64, &dev) == EDML_STATUS_ARENA_TOO_SMALL && strstr(err, "64 available"),
          "too small: '%s'", err);
    CHECK(edml_device_create(&dd, arena + 4, sizeof arena - 4, &dev) == EDML_STATUS_INVALID_ARGUMENT &&
              !strcmp(err, "the arena must be aligned to 16 bytes"),
          "misaligned: '%s'", err);
    CHECK(strstr(edml_status_message(EDML_STATUS_BUSY), "another thread's call") &&
              strstr(edml_status_message(EDML_STATUS_BUSY), "mapped"),
          "status message");
    CHECK(edml_device_create(NULL, arena, sizeof arena, &dev) == EDML_STATUS_OK, "NULL descriptor: defaults");

    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    ((EDML_TOP_K1_OPERATOR_DESC *)c.src.desc_bytes)->K = 0;
    edml_operator *op;
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_INVALID_DESCRIPTOR &&
              !strcmp(edml_device_last_error(dev), "K is 0, expected at least 1"),
          "K = 0: '%s'", edml_device_last_error(dev));
    edml_arena_stats st;
    CHECK(edml_device_arena_stats(dev, &st) == EDML_STATUS_OK && !strcmp(edml_device_last_error(dev), ""),
          "a successful call clears the message: '%s'", edml_device_last_error(dev));
    ((EDML_TOP_K1_OPERATOR_DESC *)c.src.desc_bytes)->K = 2;
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
    CHECK(edml_operator_get_binding_properties(op, NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              !strcmp(edml_device_last_error(dev), "props is NULL"),
          "'%s'", edml_device_last_error(dev));
    CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && !strcmp(edml_device_last_error(dev), ""), "'%s'",
          edml_device_last_error(dev));
    CHECK(edml_device_destroy(dev) == EDML_STATUS_OK, "destroy");
    ops_free(&c);

    /* GatherND with an index out of range, five times: five statuses, one log line */
    ops_make_type(&c, EDML_OPERATOR_GATHER_ND1);
    ((uint32_t *)c.in[1].buf)[0] = 7;
    tl_device d;
    d.size = edml_device_size() + (1 << 14);
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    edml_device_desc ld = {0};
    ld.backends = CPU_BACKENDS;
    ld.log = log_fn;
    CHECK(edml_device_create(&ld, d.arena, d.size, &d.dev) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "gather");
    log_count = 0;
    int oor = 0;
    for (int i = 0; i < 5; i++) oor += ops_execute(&c, op, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE;
    CHECK(oor == 5 && log_count == 1 && strstr(log_text, "is 7, outside [0, 1]"), "%d statuses, %d log lines: %s", oor,
          log_count, log_text);
    tl_device_free(&d);
    ops_free(&c);
}

/* GPU buffers: a destroyed one, a stale one, another device's, or one passed
 * as host memory are refused, writing nothing anywhere. */
static void gpu_buffer_handles(void)
{
    edml_board board = gpu_board();
    tl_device d, other;
    CHECK(gpu_device(&d, &board, 1 << 20, 0) == EDML_STATUS_OK &&
              gpu_device(&other, &board, 1 << 20, 0) == EDML_STATUS_OK,
          "devices");
    if (!has_gles(&d)) {
        printf("misuse: no GLES here: GPU-buffer handles not tested\n");
        tl_device_free(&d);
        tl_device_free(&other);
        return;
    }
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    edml_operator *cpu, *gpu;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_NEON, &cpu) == EDML_STATUS_OK, "neon op");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &gpu) == EDML_STATUS_OK, "gles op");
    edml_gpu_buffer *a, *b, *f;
    CHECK(edml_gpu_buffer_create(d.dev, c.in[1].total, &a) == EDML_STATUS_OK, "buffer a");
    CHECK(edml_gpu_buffer_destroy(a) == EDML_STATUS_OK, "destroy a");
    EDML_BUFFER_BINDING bi[3], bo[1];
    struct {
        edml_operator *op;
        EDML_BUFFER_BINDING bind;
        const char *says;
    } cases[] = {
        {cpu, edml_gpu_binding(a, 0, c.in[1].total), "the GPU buffer bound to ATensor was destroyed"},
        {gpu, edml_gpu_binding(a, 0, c.in[1].total), "the GPU buffer bound to ATensor was destroyed"},
        {cpu, {a, 0, c.in[1].total}, "binding of ATensor lies inside the device arena"},
        {cpu, {(uint8_t *)d.arena + 64, 0, 16}, "binding of ATensor lies inside the device arena"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ops_bindings(&c, bi, bo);
        bi[1] = cases[i].bind;
        ops_reset_outputs(&c);
        edml_status s = edml_operator_execute(cases[i].op, bi, 3, bo, 1, NULL);
        CHECK(s == EDML_STATUS_INVALID_BINDING && strstr(MSG(d), cases[i].says), "case %zu: %s '%s'", i,
              edml_status_string(s), MSG(d));
        CHECK(ops_outputs_untouched(&c), "case %zu wrote an output", i);
    }
    /* a newer buffer in a's place: a's handle is stale, not the newer buffer */
    CHECK(edml_gpu_buffer_create(d.dev, c.in[1].total, &b) == EDML_STATUS_OK, "buffer b");
    CHECK(edml_gpu_buffer_write(b, 0, c.in[1].buf, c.in[1].total) == EDML_STATUS_OK, "write b");
    CHECK(edml_gpu_buffer_write(a, 0, c.in[2].buf, c.in[1].total) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "the GPU buffer (buffer) was destroyed: its handle is stale"),
          "write through a stale handle: '%s'", MSG(d));
    CHECK(edml_gpu_buffer_destroy(a) == EDML_STATUS_INVALID_HANDLE && strstr(MSG(d), "stale"), "double destroy: '%s'",
          MSG(d));
    uint8_t back[16];
    CHECK(edml_gpu_buffer_read(b, 0, back, sizeof back) == EDML_STATUS_OK && !strcmp(MSG(d), ""),
          "a successful GPU-buffer call clears the message: '%s'", MSG(d));
    ops_bindings(&c, bi, bo);
    bi[1] = edml_gpu_binding(a, 0, c.in[1].total);
    CHECK(edml_operator_execute(gpu, bi, 3, bo, 1, NULL) == EDML_STATUS_INVALID_BINDING && strstr(MSG(d), "stale"),
          "stale binding: '%s'", MSG(d));
    bi[1] = edml_gpu_binding(b, 0, c.in[1].total);
    CHECK(edml_operator_execute(gpu, bi, 3, bo, 1, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "b: %s", MSG(d));
    /* another device's buffer */
    CHECK(edml_gpu_buffer_create(other.dev, c.in[1].total, &f) == EDML_STATUS_OK, "foreign buffer");
    bi[1] = edml_gpu_binding(f, 0, c.in[1].total);
    ops_reset_outputs(&c);
    CHECK(edml_operator_execute(gpu, bi, 3, bo, 1, NULL) == EDML_STATUS_INVALID_BINDING &&
              strstr(MSG(d), "the GPU buffer bound to ATensor is not one of this device's") &&
              ops_outputs_untouched(&c),
          "foreign binding: '%s'", MSG(d));
    CHECK(edml_gpu_buffer_copy(b, 0, f, 0, 16) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "not one of this device's"),
          "foreign copy: '%s'", MSG(d));
    tl_device_free(&d);
    tl_device_free(&other);
    ops_free(&c);
}

/* Overlapping GPU copies move data as memmove does, both ways. */
static void gpu_overlapping_copies(void)
{
    tl_device d;
    CHECK(gpu_device(&d, NULL, 1 << 20, 0) == EDML_STATUS_OK, "device");
    if (!has_gles(&d)) {
        tl_device_free(&d);
        return;
    }
    enum {
        WORDS = 16384
    };
    static uint32_t host[WORDS], want[WORDS], got[WORDS];
    edml_gpu_buffer *b;
    CHECK(edml_gpu_buffer_create(d.dev, sizeof host, &b) == EDML_STATUS_OK, "buffer");
    static const struct {
        uint32_t dst, src, words;
    } moves[] = {{1, 0, 16383}, {0, 1, 16383}, {4, 0, 12000}, {0, 8, 16376}};
    for (size_t m = 0; m < sizeof moves / sizeof *moves; m++) {
        for (uint32_t i = 0; i < WORDS; i++) host[i] = want[i] = i * 2654435761u;
        memmove(want + moves[m].dst, want + moves[m].src, moves[m].words * 4u);
        CHECK(edml_gpu_buffer_write(b, 0, host, sizeof host) == EDML_STATUS_OK, "write");
        CHECK(edml_gpu_buffer_copy(b, moves[m].dst * 4u, b, moves[m].src * 4u, moves[m].words * 4u) == EDML_STATUS_OK,
              "copy: %s", MSG(d));
        CHECK(edml_gpu_buffer_read(b, 0, got, sizeof got) == EDML_STATUS_OK, "read");
        uint32_t bad = 0;
        for (uint32_t i = 0; i < WORDS; i++) bad += got[i] != want[i];
        CHECK(bad == 0, "move %zu: %u of %u words differ from memmove", m, bad, WORDS);
    }
    tl_device_free(&d);
}

/* An AUTO operator whose GPU arena is full runs on the CPU, logged; by name
 * it is refused; outputs of a GLES read back that fails are untouched; a
 * TotalTensorSizeInBytes near 2^64 is no small staging size. */
static void gpu_arena_and_readback(void)
{
    tl_device d;
    if (!gles_device(&d, 0)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    edml_operator *autop, *named;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK &&
              edml_operator_backend(autop) == EDML_BACKEND_GLES,
          "auto on gles");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &named) == EDML_STATUS_OK, "gles");
    edml_operator_sizes sz;
    CHECK(edml_operator_query(d.dev, &c.desc, EDML_BACKEND_GLES, &sz) == EDML_STATUS_OK &&
              sz.gpu_persistent_bytes > 0 && sz.gpu_persistent_bytes < 4096,
          "each keeps its parameters in the GPU arena (%llu bytes)", (unsigned long long)sz.gpu_persistent_bytes);
    edml_gpu_buffer *all;
    const uint64_t used = (2 * sz.gpu_persistent_bytes + 255) & ~(uint64_t)255; /* a buffer starts 256-aligned */
    CHECK(edml_gpu_buffer_create(d.dev, (1 << 20) - used, &all) == EDML_STATUS_OK, "the rest of the GPU arena");
    log_count = 0;
    ops_reset_outputs(&c);
    edml_status s = ops_execute(&c, autop, NULL);
    CHECK(s == EDML_STATUS_OK && ops_outputs_match(&c) && log_count == 1 && strstr(log_text, "this call runs on"),
          "auto, GPU arena full: %s '%s' (%d log lines: %s)", edml_status_string(s), MSG(d), log_count, log_text);
    ops_reset_outputs(&c);
    s = ops_execute(&c, named, NULL);
    CHECK(s == EDML_STATUS_ARENA_TOO_SMALL && strstr(MSG(d), "bytes of the GPU arena") && ops_outputs_untouched(&c),
          "gles, GPU arena full: %s '%s'", edml_status_string(s), MSG(d));
    CHECK(edml_gpu_buffer_destroy(all) == EDML_STATUS_OK, "free the arena");
    CHECK(ops_execute(&c, autop, NULL) == EDML_STATUS_OK && edml_operator_backend(autop) == EDML_BACKEND_GLES,
          "auto back on gles");
    tl_device_free(&d);
    ops_free(&c);

    static const EDML_OPERATOR_TYPE read_back[] = {EDML_OPERATOR_TOP_K1, EDML_OPERATOR_GATHER_ND1};
    for (size_t t = 0; t < sizeof read_back / sizeof *read_back; t++) {
        ops_make_type(&c, read_back[t]);
        CHECK(gles_device(&d, EDML_FAULT_MAP), "device with GLES");
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &named) == EDML_STATUS_OK, "gles");
        ops_reset_outputs(&c);
        s = ops_execute(&c, named, NULL);
        CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(MSG(d), "glMapBufferRange failed") && ops_outputs_untouched(&c),
              "%s, read back fails: %s '%s'", c.name, edml_status_string(s), MSG(d));
        tl_device_free(&d);
        ops_free(&c);
    }

    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    c.in[0].b.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK(gles_device(&d, 0), "device with GLES");
    s = edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &named);
    CHECK(s == EDML_STATUS_BACKEND_UNAVAILABLE && strstr(MSG(d), "18446744073709551615 bytes of GPU arena"),
          "2^64 - 1 bytes on gles: %s '%s'", edml_status_string(s), MSG(d));
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK &&
              edml_operator_backend(autop) != EDML_BACKEND_GLES,
          "auto moves it to the CPU");
    tl_device_free(&d);
    ops_free(&c);
}

/* A call on a device from inside one of its calls (here its log callback,
 * which runs while the failing call still holds the device) is refused with
 * BUSY and writes nothing, as a second thread's would be. */
static edml_device *reentered;
static edml_operator *reentered_op;
static edml_status reentry[3];
static void reenter_log(void *user, edml_status s, const char *m)
{
    ops_case *c = (ops_case *)user;
    (void)s;
    (void)m;
    edml_arena_stats st;
    reentry[0] = edml_device_arena_stats(reentered, &st);
    reentry[1] = ops_execute(c, reentered_op, NULL);
    reentry[2] = edml_operator_destroy(reentered_op);
}

static void one_call_at_a_time(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    tl_device d;
    d.size = edml_device_size() + (1 << 14);
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    edml_device_desc dd = {0};
    dd.backends = CPU_BACKENDS;
    dd.log = reenter_log;
    dd.log_user = &c;
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_OK, "device");
    reentered = d.dev;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &reentered_op) == EDML_STATUS_OK, "create");
    ops_reset_outputs(&c);
    CHECK(edml_operator_execute(reentered_op, NULL, 1, NULL, 2, NULL) == EDML_STATUS_INVALID_ARGUMENT,
          "a failing call");
    for (int i = 0; i < 3; i++)
        CHECK(reentry[i] == EDML_STATUS_BUSY, "call %d inside a call: %s", i, edml_status_string(reentry[i]));
    CHECK(ops_outputs_untouched(&c), "a refused call wrote an output");
    CHECK(!strcmp(MSG(d), "inputs is NULL"), "the held call's message kept: '%s'", MSG(d));
    CHECK(ops_execute(&c, reentered_op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "after it: %s", MSG(d));
    tl_device_free(&d);
    ops_free(&c);
}

/* Every operator type on every backend the device has, recorded into one
 * list per backend: one submission gives each its expected output, and a
 * second submission of the same list (outputs reset) does again. */
static void command_lists_run(void)
{
    edml_board board = gpu_board();
    tl_device d;
    CHECK(gpu_device(&d, &board, 1 << 20, 0) == EDML_STATUS_OK, "device");
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++) {
        if (!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(b))) continue;
        const int n = ops_count_on((edml_backend)b);
        ops_case c[OPS_MAX];
        edml_operator *op[OPS_MAX];
        edml_command_list *list = NULL;
        CHECK(edml_command_list_create(d.dev, (UINT)n, &list) == EDML_STATUS_OK, "list: %s", MSG(d));
        for (int i = 0; i < n; i++) {
            EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
            ops_make_on(&c[i], i, (edml_backend)b);
            CHECK(edml_operator_create(d.dev, &c[i].desc, (edml_backend)b, &op[i]) == EDML_STATUS_OK, "%s: %s",
                  c[i].name, MSG(d));
            ops_bindings(&c[i], in, out);
            CHECK(edml_command_list_record(list, op[i], in, (UINT)c[i].nin, out, (UINT)c[i].nout, NULL) ==
                      EDML_STATUS_OK,
                  "record %s: %s", c[i].name, MSG(d));
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) ops_reset_outputs(&c[i]);
            CHECK(edml_command_list_submit(list) == EDML_STATUS_OK &&
                      edml_command_list_wait(list, UINT64_MAX) == EDML_STATUS_OK,
                  "%s list, round %d: %s", edml_backend_name((edml_backend)b), round, MSG(d));
            int wrong = 0;
            for (int i = 0; i < n; i++) wrong += !ops_outputs_match(&c[i]);
            CHECK(wrong == 0 && edml_command_list_count(list) == (UINT)n, "%s list: %d of %d outputs wrong",
                  edml_backend_name((edml_backend)b), wrong, n);
        }
        CHECK(edml_command_list_destroy(list) == EDML_STATUS_OK, "destroy list");
        for (int i = n; i-- > 0;) edml_operator_destroy(op[i]), ops_free(&c[i]);
    }
    tl_device_free(&d);
}

/* A list misused: refused with a status and a message, recording nothing;
 * an operator destroyed after it was recorded stops the list at its entry
 * (earlier entries written, later ones not); a clamped GatherND does not. */
static void command_list_misuse(void)
{
    tl_device d, other;
    CHECK(tl_device_make(&d, edml_device_size() + (1 << 16), CPU_BACKENDS) == EDML_STATUS_OK &&
              tl_device_make(&other, edml_device_size() + (1 << 16), CPU_BACKENDS) == EDML_STATUS_OK,
          "devices");
    ops_case g, t, f;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    ops_make_type(&f, EDML_OPERATOR_ELEMENT_WISE_IF);
    edml_operator *og = NULL, *ot = NULL, *foreign = NULL;
    edml_command_list *l = NULL, *tiny = NULL;
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_NEON, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_NEON, &ot) == EDML_STATUS_OK &&
              edml_operator_create(other.dev, &f.desc, EDML_BACKEND_REF, &foreign) == EDML_STATUS_OK,
          "operators");
    CHECK(edml_command_list_create(d.dev, 0, &tiny) == EDML_STATUS_INVALID_ARGUMENT && strstr(MSG(d), "capacity is 0"),
          "capacity 0: %s", MSG(d));
    CHECK(edml_command_list_create(d.dev, 3, &l) == EDML_STATUS_OK, "list");
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2], fi[3], fo[1];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    ops_bindings(&f, fi, fo);
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 1, NULL) == EDML_STATUS_INVALID_BINDING &&
              strstr(MSG(d), "outputCount is 1, expected 2") && edml_command_list_count(l) == 0,
          "wrong count: %s", MSG(d));
    CHECK(edml_command_list_record(l, foreign, fi, 3, fo, 1, NULL) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "not one of this device's") && edml_command_list_count(l) == 0,
          "another device's operator: %s", MSG(d));
    CHECK(edml_command_list_wait(l, 0) == EDML_STATUS_INVALID_ARGUMENT && strstr(MSG(d), "not submitted"),
          "wait before submit: %s", MSG(d));
    const uint32_t index0 = ((uint32_t *)g.in[1].buf)[0];
    ((uint32_t *)g.in[1].buf)[0] = 7; /* clamped to 1: a status, not a stop */
    CHECK(edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK,
          "record: %s", MSG(d));
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(MSG(d), "full: it holds 3"),
          "full: %s", MSG(d));
    ops_reset_outputs(&t);
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK, "submit");
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_BUSY &&
              edml_command_list_reset(l) == EDML_STATUS_BUSY && edml_command_list_submit(l) == EDML_STATUS_BUSY &&
              strstr(MSG(d), "call edml_command_list_wait() first"),
          "while submitted: %s", MSG(d));
    CHECK(edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_INDEX_OUT_OF_RANGE &&
              strstr(MSG(d), "command list entry 0 of 3 (GATHER_ND1)") && ops_outputs_match(&t),
          "clamped: %s", MSG(d));
    /* the TopK destroyed: entry 1 stops the list, the gather before it still written */
    CHECK(edml_command_list_reset(l) == EDML_STATUS_OK, "reset");
    ((uint32_t *)g.in[1].buf)[0] = index0;
    CHECK(edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK,
          "record again");
    edml_operator_destroy(ot);
    ops_reset_outputs(&g);
    ops_reset_outputs(&t);
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK &&
              edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "command list entry 1 of 2 (an operator): its operator was destroyed"),
          "destroyed operator: %s", MSG(d));
    bool untouched = true;
    for (uint64_t i = 0; i < t.out[0].total; i++) untouched &= t.out[0].buf[i] == OPS_SENTINEL;
    CHECK(ops_outputs_match(&g) && untouched, "entry 0 written, entry 1 not");
    CHECK(edml_command_list_destroy(l) == EDML_STATUS_OK && edml_command_list_destroy(l) == EDML_STATUS_INVALID_HANDLE,
          "destroy twice: %s", MSG(d));
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t), ops_free(&f);
    tl_device_free(&d), tl_device_free(&other);
}

/* GLES entries as one submission: a chain through host memory (the second
 * ElementWiseIf reads the first's output as its A) gives what two executes
 * give, so the batch completes before an entry that depends on it; a fence
 * that times out inside a list takes GLES off the device: operators created
 * with AUTO run again on the CPU with the right answer (logged), one asked
 * for GLES by name fails the wait with BACKEND_FAILED, writing nothing. */
static void command_list_gles_batch(void)
{
    for (int fault = 0; fault < 3; fault++) {
        tl_device d;
        if (!gles_device(&d, fault ? EDML_FAULT_FENCE_TIMEOUT : 0)) return;
        ops_case c;
        ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
        const size_t bytes = (size_t)c.out[0].total;
        uint8_t *mid = malloc(bytes), *want = malloc(bytes), *first = malloc(bytes);
        edml_operator *op = NULL, *ref = NULL;
        edml_command_list *l = NULL;
        CHECK(edml_operator_create(d.dev, &c.desc, fault == 2 ? EDML_BACKEND_GLES : EDML_BACKEND_AUTO, &op) ==
                      EDML_STATUS_OK &&
                  edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &ref) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 4, &l) == EDML_STATUS_OK,
              "operators and list: %s", MSG(d));
        EDML_BUFFER_BINDING in[3], out[1], in2[3], out2[1];
        ops_bindings(&c, in, out);
        memcpy(in2, in, sizeof in2);
        in2[1] = (EDML_BUFFER_BINDING){mid, 0, bytes}; /* the second reads the first's output */
        out[0] = (EDML_BUFFER_BINDING){mid, 0, bytes};
        out2[0] = (EDML_BUFFER_BINDING){c.out[0].buf, 0, bytes};
        memset(mid, 0x5a, bytes);
        CHECK(edml_operator_execute(ref, in, 3, out, 1, NULL) == EDML_STATUS_OK &&
                  edml_operator_execute(ref, in2, 3, out2, 1, NULL) == EDML_STATUS_OK,
              "reference");
        memcpy(first, mid, bytes);
        memcpy(want, c.out[0].buf, bytes);
        memset(mid, 0x5a, bytes);
        memset(c.out[0].buf, 0x5a, bytes);
        CHECK(edml_command_list_record(l, op, in, 3, out, 1, NULL) == EDML_STATUS_OK &&
                  edml_command_list_record(l, op, in2, 3, out2, 1, NULL) == EDML_STATUS_OK,
              "record: %s", MSG(d));
        log_count = 0;
        const edml_status s =
            edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
        if (fault < 2) {
            CHECK(s == EDML_STATUS_OK && !memcmp(mid, first, bytes) && !memcmp(c.out[0].buf, want, bytes),
                  "chain through host memory (fault %d): %s", fault, MSG(d));
            CHECK(fault == 0 || (log_count >= 1 && strstr(log_text, "run again one by one")), "log: %s", log_text);
        } else {
            bool untouched = true;
            for (size_t i = 0; i < bytes; i++) untouched &= c.out[0].buf[i] == 0x5a;
            CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(MSG(d), "command list entry 0 of 2") && untouched,
                  "named GLES, fence timed out: %s", MSG(d));
        }
        edml_command_list_destroy(l);
        edml_operator_destroy(ref);
        edml_operator_destroy(op);
        free(mid), free(want), free(first);
        ops_free(&c);
        tl_device_free(&d);
    }
}

/* GatherNDs in a GLES batch (their counts of clamped indices come back
 * with it, a slot each): the wait names the first entry that clamped, with
 * the message its execute gives (host indices worded from the indices, GPU
 * ones from the kernel's count), every output is written; the slots start
 * clean at the next submission; a batch holds EDMLI_GLES_STATUS_SLOTS (32)
 * GatherNDs, more open the next. With every fence timing out, the log names
 * the batch's entries (a TopK and both gathers: one batch). */
#define GB_ENTRIES 40
static void gb_set(ops_case *g, int which, uint32_t index) { ((uint32_t *)g->in[1].buf)[which] = index; }

static void command_list_gles_gathers_fault(void)
{
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_FENCE_TIMEOUT)) return;
    ops_case g, t;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    edml_operator *og = NULL, *ot = NULL;
    edml_command_list *l = NULL;
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2];
    uint8_t second[64];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    const EDML_BUFFER_BINDING go2 = {second, 0, g.out[0].total};
    CHECK(g.out[0].total <= sizeof second, "sample size");
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_AUTO, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_AUTO, &ot) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, 3, &l) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, gi, 2, &go2, 1, NULL) == EDML_STATUS_OK,
          "operators and list: %s", MSG(d));
    log_count = 0;
    log_text[0] = '\0';
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK &&
              ops_outputs_match(&g) && ops_outputs_match(&t) && ops_buffer_matches_expected(&g, second),
          "after the fence: %s", MSG(d));
    CHECK(log_count >= 1 && strstr(log_text, "command list entries 0 to 2: gles"), "one batch: %s", log_text);
    edml_command_list_destroy(l);
    edml_operator_destroy(ot);
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t);
    tl_device_free(&d);
}

static void command_list_gles_gathers(void)
{
    tl_device d;
    if (!gles_device(&d, 0)) return;
    ops_case g, t;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    const size_t ib = (size_t)g.in[1].total, ob = (size_t)g.out[0].total;
    uint8_t host_ix[2][64], resident[64], outs[GB_ENTRIES][64], want_clamped[64];
    edml_operator *og = NULL, *ot = NULL;
    edml_gpu_buffer *rix = NULL;
    edml_command_list *l = NULL;
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    CHECK(ib <= 64 && ob <= 64, "sample sizes");
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_GLES, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_GLES, &ot) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, ib, &rix) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, GB_ENTRIES, &l) == EDML_STATUS_OK,
          "operators, buffer, list: %s", MSG(d));
    /* what an execute says: host indices {7, 0} and GPU indices {0, 9} clamp */
    char want_host[512], want_gpu[512];
    const uint32_t good0 = ((uint32_t *)g.in[1].buf)[0];
    gb_set(&g, 0, 7);
    memcpy(host_ix[1], g.in[1].buf, ib);
    CHECK(edml_operator_execute(og, gi, 2, go, 1, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE, "execute: %s", MSG(d));
    snprintf(want_host, sizeof want_host, "command list entry 2 of 5 (GATHER_ND1): %s", MSG(d));
    memcpy(want_clamped, g.out[0].buf, ob);
    gb_set(&g, 0, good0);
    memcpy(host_ix[0], g.in[1].buf, ib);
    memcpy(resident, g.in[1].buf, ib);
    ((uint32_t *)resident)[1] = 9;
    EDML_BUFFER_BINDING ri[2] = {gi[0], edml_gpu_binding(rix, 0, ib)};
    CHECK(edml_gpu_buffer_write(rix, 0, resident, ib) == EDML_STATUS_OK &&
              edml_operator_execute(og, ri, 2, go, 1, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE,
          "execute, GPU indices: %s", MSG(d));
    snprintf(want_gpu, sizeof want_gpu, "command list entry 3 of 5 (GATHER_ND1): %s", MSG(d));
    uint8_t want_gpu_out[64];
    memcpy(want_gpu_out, g.out[0].buf, ob);
    /* TopK, gather (good), gather (host indices clamp), gather (GPU indices clamp), TopK */
    EDML_BUFFER_BINDING in[3][2] = {{gi[0], {host_ix[0], 0, ib}}, {gi[0], {host_ix[1], 0, ib}}, {ri[0], ri[1]}};
    for (int e = 0; e < 3; e++) {
        memset(outs[e], OPS_SENTINEL, ob);
        EDML_BUFFER_BINDING o = {outs[e], 0, ob};
        if (e == 0) CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record TopK");
        CHECK(edml_command_list_record(l, og, in[e], 2, &o, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record TopK");
    for (int round = 0; round < 3; round++) {
        ops_reset_outputs(&t);
        for (int e = 0; e < 3; e++) memset(outs[e], OPS_SENTINEL, ob);
        const edml_status s =
            edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
        const char *want = round == 0 ? want_host : round == 1 ? want_gpu : NULL;
        CHECK(want ? s == EDML_STATUS_INDEX_OUT_OF_RANGE && !strcmp(MSG(d), want) : s == EDML_STATUS_OK,
              "round %d: %s: %s (want %s)", round, edml_status_string(s), MSG(d), want ? want : "OK");
        CHECK(ops_outputs_match(&t) && !memcmp(outs[0], g.expected[0], ob) &&
                  !memcmp(outs[1], round == 0 ? want_clamped : g.expected[0], ob) &&
                  !memcmp(outs[2], round < 2 ? want_gpu_out : g.expected[0], ob),
              "round %d: outputs", round);
        if (round == 0) memcpy(host_ix[1], host_ix[0], ib); /* then the GPU one clamps, then none */
        if (round == 1) CHECK(edml_gpu_buffer_write(rix, 0, host_ix[0], ib) == EDML_STATUS_OK, "indices");
    }
    /* 40 of one gather (as layers where the driver takes them), entry 35 clamping */
    CHECK(edml_command_list_reset(l) == EDML_STATUS_OK, "reset");
    uint8_t many_ix[GB_ENTRIES][64];
    for (int e = 0; e < GB_ENTRIES; e++) {
        memcpy(many_ix[e], host_ix[0], ib);
        if (e == 35) ((uint32_t *)many_ix[e])[0] = 7;
        EDML_BUFFER_BINDING i2[2] = {gi[0], {many_ix[e], 0, ib}}, o = {outs[e], 0, ob};
        memset(outs[e], OPS_SENTINEL, ob);
        CHECK(edml_command_list_record(l, og, i2, 2, &o, 1, NULL) == EDML_STATUS_OK, "record %d", e);
    }
    const edml_status s =
        edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
    CHECK(s == EDML_STATUS_INDEX_OUT_OF_RANGE && strstr(MSG(d), "command list entry 35 of 40 (GATHER_ND1): ") &&
              !strcmp(strstr(MSG(d), ": ") + 2, strstr(want_host, ": ") + 2),
          "40 gathers: %s", MSG(d));
    bool all = true;
    for (int e = 0; e < GB_ENTRIES; e++) all &= !memcmp(outs[e], e == 35 ? want_clamped : g.expected[0], ob);
    CHECK(all, "40 gathers: outputs");
    /* an entry that writes a batched gather's host indices ends the batch
     * first: the clamp is worded from the indices the gather read (7) */
    uint32_t shared[16];
    memcpy(shared, host_ix[0], ib);
    shared[0] = 7;
    EDML_BUFFER_BINDING i_shared[2] = {gi[0], {shared, 0, ib}}, i_good[2] = {gi[0], {host_ix[0], 0, ib}},
                        o_first = {outs[0], 0, ob}, o_shared = {shared, 0, ob};
    CHECK(ob <= sizeof shared && edml_command_list_reset(l) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, i_shared, 2, &o_first, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, i_good, 2, &o_shared, 1, NULL) == EDML_STATUS_OK,
          "record the overwrite: %s", MSG(d));
    const edml_status s2 =
        edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
    CHECK(s2 == EDML_STATUS_INDEX_OUT_OF_RANGE && strstr(MSG(d), "command list entry 0 of 2 (GATHER_ND1): ") &&
              !strcmp(strstr(MSG(d), ": ") + 2, strstr(want_host, ": ") + 2) && !memcmp(outs[0], want_clamped, ob) &&
              ops_buffer_matches_expected(&g, (const uint8_t *)shared),
          "indices overwritten by a later entry: %s", MSG(d));
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(rix);
    edml_operator_destroy(ot);
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t);
    tl_device_free(&d);
}

/* Entries of one batch that share GPU buffers, on a device that runs the
 * kernels no barrier separates backwards (EDML_FAULT_REORDER): each
 * ordering a barrier must keep (a read after a write, a write after a
 * write, a write after a read) gives wrong results if left out, and
 * entries on separate bytes of one buffer need none. ElementWiseIf f(A, B)
 * with host inputs A, B (the sample's condition); x = two outputs side by
 * side (x0, x1), y one more; h a host output. */
enum {
    HZ_A,
    HZ_B,
    HZ_X0,
    HZ_X1,
    HZ_Y,
    HZ_H,
    HZ_SOURCES
};
static const struct hz_entry {
    int a, b, out;
} hz_entries[] = {
    {HZ_A, HZ_B, HZ_X0}, /* x0 = f(A, B) */
    {HZ_X0, HZ_B, HZ_Y}, /* y = f(x0, B): reads what the entry before wrote (y wrong without a barrier) */
    {HZ_A, HZ_B, HZ_X1}, /* x1 = f(A, B): beside x0, independent */
    {HZ_B, HZ_B, HZ_X1}, /* x1 = f(B, B): writes what the entry before wrote (h wrong without) */
    {HZ_X1, HZ_A, HZ_H}, /* h = f(x1, A): reads it (h wrong without) */
    {HZ_A, HZ_A, HZ_X1}, /* x1 = f(A, A): writes what the entry before read (h wrong without) */
};
#define HZ_ENTRIES (int)(sizeof hz_entries / sizeof hz_entries[0])

/* what the list must leave in x0, x1, y and h: the entries one by one on
 * the reference backend, in host memory */
static void hz_expected(ops_case *c, edml_operator *ref, uint8_t (*want)[64], size_t bytes)
{
    memcpy(want[HZ_A], c->in[1].buf, bytes);
    memcpy(want[HZ_B], c->in[2].buf, bytes);
    for (int e = 0; e < HZ_ENTRIES; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c->in[0]),
                                     {want[hz_entries[e].a], 0, bytes},
                                     {want[hz_entries[e].b], 0, bytes}},
                            out[1] = {{want[hz_entries[e].out], 0, bytes}};
        CHECK(edml_operator_execute(ref, in, 3, out, 1, NULL) == EDML_STATUS_OK, "reference entry %d", e);
    }
}

static void command_list_hazards(void)
{
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_REORDER)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    const size_t bytes = (size_t)c.out[0].total;
    uint8_t want[HZ_SOURCES][64], got[HZ_SOURCES][64];
    edml_operator *op = NULL, *ref = NULL;
    edml_gpu_buffer *x = NULL, *y = NULL;
    edml_command_list *l = NULL;
    CHECK(bytes <= 64 && c.in[1].total == bytes && c.in[2].total == bytes, "the sample's A, B and output");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &ref) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 2 * 64, &x) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 64, &y) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, HZ_ENTRIES, &l) == EDML_STATUS_OK,
          "set-up: %s", MSG(d));
    hz_expected(&c, ref, want, bytes);
    memcpy(got[HZ_A], c.in[1].buf, bytes);
    memcpy(got[HZ_B], c.in[2].buf, bytes);
    const EDML_BUFFER_BINDING at[HZ_SOURCES] = {{got[HZ_A], 0, bytes},         {got[HZ_B], 0, bytes},
                                                edml_gpu_binding(x, 0, bytes), edml_gpu_binding(x, 64, bytes),
                                                edml_gpu_binding(y, 0, bytes), {got[HZ_H], 0, bytes}};
    for (int e = 0; e < HZ_ENTRIES; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c.in[0]), at[hz_entries[e].a], at[hz_entries[e].b]},
                            out[1] = {at[hz_entries[e].out]};
        CHECK(edml_command_list_record(l, op, in, 3, out, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(x, 0, got[HZ_X0], bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(x, 64, got[HZ_X1], bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(y, 0, got[HZ_Y], bytes) == EDML_STATUS_OK,
          "run: %s", MSG(d));
    static const char *const names[HZ_SOURCES] = {"A", "B", "x0", "x1", "y", "h"};
    for (int k = HZ_X0; k < HZ_SOURCES; k++) CHECK(!memcmp(got[k], want[k], bytes), "%s as one by one", names[k]);
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(y);
    edml_gpu_buffer_destroy(x);
    edml_operator_destroy(ref);
    edml_operator_destroy(op);
    ops_free(&c);
    tl_device_free(&d);
}

/* More entries than a batch's record of GPU-buffer ranges holds (each
 * reads A and B from one GPU buffer and writes its own 64 bytes of
 * another: three ranges, none clashing), kernels unordered run backwards:
 * the record fills, a barrier empties it, and every output is the sample's. */
static void command_list_many_ranges(void)
{
    enum {
        N = 40
    };
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_REORDER)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    const size_t bytes = (size_t)c.out[0].total;
    edml_operator *op = NULL;
    edml_gpu_buffer *ab = NULL, *out = NULL;
    edml_command_list *l = NULL;
    CHECK(bytes <= 64 && c.in[1].total == bytes && c.in[2].total == bytes, "the sample's A, B and output");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 2 * 64, &ab) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, N * 64, &out) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(ab, 0, c.in[1].buf, bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(ab, 64, c.in[2].buf, bytes) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, N, &l) == EDML_STATUS_OK,
          "set-up: %s", MSG(d));
    for (int e = 0; e < N; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c.in[0]), edml_gpu_binding(ab, 0, bytes),
                                     edml_gpu_binding(ab, 64, bytes)},
                            o[1] = {edml_gpu_binding(out, (UINT64)e * 64, bytes)};
        CHECK(edml_command_list_record(l, op, in, 3, o, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK,
          "run: %s", MSG(d));
    int wrong = 0;
    for (int e = 0; e < N; e++) {
        uint8_t got[64];
        CHECK(edml_gpu_buffer_read(out, (UINT64)e * 64, got, bytes) == EDML_STATUS_OK, "read %d", e);
        wrong += memcmp(got, c.expected[0], bytes) != 0;
    }
    CHECK(wrong == 0, "%d of %d entries' outputs differ from the sample's", wrong, N);
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(out);
    edml_gpu_buffer_destroy(ab);
    edml_operator_destroy(op);
    ops_free(&c);
    tl_device_free(&d);
}

/* A submission returns before the GPU is done: a poll (a wait of 0) says
 * EDML_STATUS_TIMEOUT while it runs, a full wait completes it; another GPU
 * call, or destroying the list, completes it first; a fence that times out
 * makes polls say TIMEOUT and a full wait BACKEND_FAILED, writing nothing. */
static void command_list_async(void)
{
    for (int fault = 0; fault < 2; fault++) {
        tl_device d;
        if (!gles_device(&d, fault ? EDML_FAULT_FENCE_TIMEOUT : 0)) return;
        ops_case t, f;
        ops_make_type(&t, EDML_OPERATOR_TOP_K1);
        ops_make_type(&f, EDML_OPERATOR_ELEMENT_WISE_IF);
        edml_operator *ot = NULL, *of = NULL;
        edml_command_list *l = NULL;
        CHECK(edml_operator_create(d.dev, &t.desc, EDML_BACKEND_GLES, &ot) == EDML_STATUS_OK &&
                  edml_operator_create(d.dev, &f.desc, EDML_BACKEND_GLES, &of) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 1, &l) == EDML_STATUS_OK,
              "set-up: %s", MSG(d));
        EDML_BUFFER_BINDING ti[1], to[2];
        ops_bindings(&t, ti, to);
        CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record");
        ops_reset_outputs(&t);
        CHECK(edml_command_list_submit(l) == EDML_STATUS_OK, "submit: %s", MSG(d));
        edml_status s = edml_command_list_wait(l, 0);
        CHECK(s == EDML_STATUS_OK || (s == EDML_STATUS_TIMEOUT && strstr(MSG(d), "still running")), "poll: %s: %s",
              edml_status_string(s), MSG(d));
        if (fault) {
            bool untouched = true;
            for (uint64_t i = 0; i < t.out[0].total; i++) untouched &= t.out[0].buf[i] == OPS_SENTINEL;
            CHECK(s == EDML_STATUS_TIMEOUT && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_BACKEND_FAILED &&
                      strstr(MSG(d), "command list entry 0 of 1") && untouched,
                  "fence timed out: %s", MSG(d));
        } else {
            if (s == EDML_STATUS_TIMEOUT)
                CHECK(edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK, "wait: %s", MSG(d));
            CHECK(ops_outputs_match(&t), "outputs after the wait");
            /* another GPU call completes the submission first */
            ops_reset_outputs(&t);
            CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && ops_execute(&f, of, NULL) == EDML_STATUS_OK &&
                      ops_outputs_match(&t) && ops_outputs_match(&f) && edml_command_list_wait(l, 0) == EDML_STATUS_OK,
                  "completed by an execute: %s", MSG(d));
            /* so does destroying the list */
            ops_reset_outputs(&t);
            CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_destroy(l) == EDML_STATUS_OK &&
                      ops_outputs_match(&t),
                  "completed by destroy: %s", MSG(d));
            l = NULL;
        }
        if (l) edml_command_list_destroy(l);
        edml_operator_destroy(of);
        edml_operator_destroy(ot);
        ops_free(&t), ops_free(&f);
        tl_device_free(&d);
    }
}

/* edml_device_release_thread: NULL refused; a CPU device has nothing to let
 * go; on GLES the thread's context goes and the next call takes one again
 * (in both context modes), with an application's context left alone. */
static void release_thread(void)
{
    CHECK(edml_device_release_thread(NULL) == EDML_STATUS_INVALID_ARGUMENT, "NULL device");
    tl_device cpu;
    CHECK(tl_device_make(&cpu, edml_device_size() + (1 << 16), EDML_BACKEND_BIT(EDML_BACKEND_NEON)) == EDML_STATUS_OK &&
              edml_device_release_thread(cpu.dev) == EDML_STATUS_OK,
          "CPU device: %s", edml_device_last_error(cpu.dev));
    tl_device_free(&cpu);
    tl_device d;
    if (!gles_device(&d, 0)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_TOP_K1);
    edml_operator *op;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "create");
    for (int round = 0; round < 2; round++) {
        ops_reset_outputs(&c);
        CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "execute %d", round);
        CHECK(edml_device_release_thread(d.dev) == EDML_STATUS_OK, "release %d", round);
        CHECK(edml_device_release_thread(d.dev) == EDML_STATUS_OK, "release again %d", round);
    }
    ops_free(&c);
    tl_device_free(&d);
}

int misuse_main(void);
int misuse_main(void)
{
    release_thread();
    command_lists_run();
    command_list_misuse();
    command_list_gles_batch();
    command_list_gles_gathers();
    command_list_gles_gathers_fault();
    command_list_async();
    command_list_hazards();
    command_list_many_ranges();
    scratch_beyond_the_address_space();
    one_call_at_a_time();
    device_on_a_live_arena();
    stale_operator_handles();
    temporary_binding_checks();
    messages();
    gpu_buffer_handles();
    gpu_overlapping_copies();
    gpu_arena_and_readback();
    return tl_summary("misuse");
}

#ifndef EDML_TEST_IMAGE
int main(void) { return misuse_main(); }
#endif
