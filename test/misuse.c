/* Misuse of the API, as a new user or a hostile caller would: every case is
 * refused with a status and a message (or made safe), a refused call writes
 * no output, and nothing returns OK with a wrong answer. Two threads on one
 * device are tested by test/threads.c --shared, a static program by make
 * test's "static program" steps, command lists by test/lists.c. */
#include "misuse.h"

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
    if (sizeof(size_t) == 4) { /* a 32-bit target: no backend could bind it */
        CHECK(s == EDML_STATUS_UNSUPPORTED && strstr(MSG(d), "more than a 32-bit address space holds"),
              "2^64 - 1 bytes on gles, 32 bits: %s '%s'", edml_status_string(s), MSG(d));
        s = edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &autop);
        CHECK(s == EDML_STATUS_UNSUPPORTED, "2^64 - 1 bytes on auto, 32 bits: %s", edml_status_string(s));
    } else {
        CHECK(s == EDML_STATUS_ARENA_TOO_SMALL && strstr(MSG(d), "needs 18446744073709551615 bytes of the GPU arena") &&
                  strstr(MSG(d), "missing"),
              "2^64 - 1 bytes on gles: %s '%s'", edml_status_string(s), MSG(d));
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK &&
                  edml_operator_backend(autop) != EDML_BACKEND_GLES,
              "auto moves it to the CPU");
    }
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
