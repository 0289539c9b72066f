/* GPU work that did not run is never an answer. A dispatch the driver drops
 * (EDML_FAULT_DROPPED_DISPATCH: as Mesa's V3D skips a kernel it could not
 * compile, or a GPU reset drops a job) or a GPU reset
 * (EDML_FAULT_GPU_RESET) at a submission after the known-answer tests:
 * an operator named for GLES fails that call (BACKEND_FAILED, nothing
 * written) and GLES goes off the device, said by edml_device_gles_info();
 * AUTO answers right from the CPU, said once; a command list's submission
 * reports it; GPU-resident tensors fail. And a kernel whose known-answer
 * tests could not run (the GPU arena full, a GPU buffer mapped) is never
 * used: the execution is refused with ARENA_TOO_SMALL or BUSY, or with
 * AUTO runs on the CPU, until they ran. Operator sizes never depend on
 * whether the tests ran. Skips where this machine has no GLES. */
#include "ops.h"

static char last_log[512];
static int logs;
static void log_fn(void *user, edml_status s, const char *m)
{
    (void)user, (void)s;
    logs++;
    snprintf(last_log, sizeof last_log, "%s", m);
}

/* a board like the built-in one whose thresholds send everything to the GPU */
static edml_board gpu_board(void)
{
    edml_board b = *edml_board_builtin();
    b.gpu_min_elements = b.gpu_min_elements_copy = b.gpu_topk_min_row = 0;
    b.gpu_software_ok = 1;
    b.cost_model = NULL, b.cost_model_terms = 0; /* the thresholds alone */
    return b;
}
static edml_board board;
static uint32_t reserve; /* edml_device_desc.reserve_scratch of the devices make_device makes */

static edml_status make_device(tl_device *d, uint32_t faults, uint32_t at, uint64_t gpu_bytes)
{
    edml_device_desc dd = {0};
    dd.board = &board;
    dd.log = log_fn;
    dd.inject_faults = faults;
    dd.inject_fault_at = at;
    dd.gpu_arena_bytes = gpu_bytes;
    dd.reserve_scratch = reserve;
    logs = 0, last_log[0] = '\0';
    return tl_device_create(d, edml_device_size() + (1 << 18), &dd);
}

/* A named GLES operator: right at the first submission, failed at the
 * second (the fault's), refused after it with the reason. */
static void check_named(ops_case *c, uint32_t fault, const char *says)
{
    tl_device d;
    char info[700];
    edml_operator *op = NULL;
    CHECK(make_device(&d, fault, 2, 0) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s", c->name);
    ops_reset_outputs(c);
    CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: the first submission", c->name);
    ops_reset_outputs(c);
    edml_status s = ops_execute(c, op, NULL);
    CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), says), "%s: %s %s", c->name,
          edml_status_string(s), edml_device_last_error(d.dev));
    CHECK(ops_outputs_untouched(c), "%s: the failed call wrote an output", c->name);
    s = ops_execute(c, op, NULL);
    CHECK(s == EDML_STATUS_BACKEND_UNAVAILABLE && strstr(edml_device_last_error(d.dev), says) &&
              ops_outputs_untouched(c),
          "%s: after it: %s %s", c->name, edml_status_string(s), edml_device_last_error(d.dev));
    CHECK(strstr(edml_device_gles_info(d.dev, info, sizeof info), says), "%s: info %s", c->name, info);
    tl_device_free(&d);
}

/* AUTO: every answer right, the CPU's from the fault on, said once; an
 * AUTO operator not run since says at once that it runs on the CPU now,
 * and a named one that its backend is off the device. */
static void check_auto(ops_case *c, uint32_t fault, const char *says)
{
    tl_device d;
    edml_operator *op = NULL, *idle = NULL, *named = NULL;
    char why[400];
    CHECK(make_device(&d, fault, 2, 0) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &idle) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &named) == EDML_STATUS_OK &&
              edml_operator_backend(op) == EDML_BACKEND_GLES && edml_operator_backend(idle) == EDML_BACKEND_GLES,
          "%s: AUTO on the GPU", c->name);
    logs = 0;
    for (int i = 0; i < 4; i++) {
        ops_reset_outputs(c);
        CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: AUTO execution %d", c->name, i);
    }
    CHECK(logs == 1 && strstr(last_log, says) && strstr(last_log, "this device continues on"), "%s: %d lines: %s",
          c->name, logs, last_log);
    CHECK(edml_operator_backend(op) != EDML_BACKEND_GLES, "%s: AUTO still on the GPU", c->name);
    CHECK(edml_operator_backend(idle) != EDML_BACKEND_GLES &&
              strstr(edml_operator_placement(idle, why, sizeof why), "failed"),
          "%s: an AUTO operator not run since the fault: %s, '%s'", c->name,
          edml_backend_name(edml_operator_backend(idle)), why);
    CHECK(
        strstr(edml_operator_placement(named, why, sizeof why), "gles: asked for by name, off this device: it failed"),
        "%s: a named operator after the fault: '%s'", c->name, why);
    tl_device_free(&d);
}

/* A command list of two executions: its first submission struck. Named:
 * the submission fails, nothing written; AUTO: right from the CPU. */
static void check_list(ops_case *c, uint32_t fault, const char *says, edml_backend b)
{
    tl_device d;
    edml_operator *op = NULL;
    edml_command_list *l = NULL;
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    CHECK(make_device(&d, fault, 1, 0) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c->desc, b, &op) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, 2, &l) == EDML_STATUS_OK,
          "%s: operator and list", c->name);
    ops_bindings(c, in, out);
    for (int k = 0; k < 2 && l; k++)
        CHECK(edml_command_list_record(l, op, in, (UINT)c->nin, out, (UINT)c->nout, NULL) == EDML_STATUS_OK,
              "%s: record: %s", c->name, edml_device_last_error(d.dev));
    ops_reset_outputs(c);
    edml_status s = l ? edml_command_list_submit(l) : EDML_STATUS_INVALID_ARGUMENT;
    if (!s) s = edml_command_list_wait(l, UINT64_MAX);
    if (b == EDML_BACKEND_GLES)
        CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), says) &&
                  ops_outputs_untouched(c),
              "%s: named list: %s %s", c->name, edml_status_string(s), edml_device_last_error(d.dev));
    else
        CHECK(s == EDML_STATUS_OK && ops_outputs_match(c), "%s: AUTO list: %s %s", c->name, edml_status_string(s),
              edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* Inputs and outputs in GPU buffers: the struck call fails. */
static void check_resident(ops_case *c, uint32_t fault, const char *says)
{
    tl_device d;
    edml_operator *op = NULL;
    edml_gpu_buffer *buf[CASE_MAX_INPUTS + CASE_MAX_OUTPUTS] = {NULL};
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    CHECK(make_device(&d, fault, (uint32_t)c->nin + 1, 0) == EDML_STATUS_OK, "device"); /* after the writes */
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s", c->name);
    bool ok = true;
    for (int i = 0; i < c->nin + c->nout; i++) {
        const tl_tensor *t = i < c->nin ? &c->in[i] : &c->out[i - c->nin];
        ok = ok && edml_gpu_buffer_create(d.dev, t->total, &buf[i]) == EDML_STATUS_OK;
        if (ok && i < c->nin) ok = edml_gpu_buffer_write(buf[i], 0, t->buf, t->total) == EDML_STATUS_OK;
        if (ok) *(i < c->nin ? &in[i] : &out[i - c->nin]) = edml_gpu_binding(buf[i], 0, t->total);
    }
    edml_status s = ok ? edml_operator_execute(op, in, (UINT)c->nin, out, (UINT)c->nout, NULL) : EDML_STATUS_OK;
    CHECK(ok && s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), says), "%s: resident: %s %s",
          c->name, edml_status_string(s), edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* A GPU reset struck while a GPU buffer is written: the write fails, GLES
 * leaves the device, and an AUTO operator created before says at once
 * that it runs on the CPU (and answers right there). */
static void check_buffer_struck(ops_case *c)
{
    tl_device d;
    edml_operator *op = NULL;
    edml_gpu_buffer *b = NULL;
    char why[400];
    uint8_t bytes[64] = {0};
    CHECK(make_device(&d, EDML_FAULT_GPU_RESET, 1, 0) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
              edml_operator_backend(op) == EDML_BACKEND_GLES && edml_gpu_buffer_create(d.dev, 64, &b) == 0,
          "%s: AUTO on the GPU, a GPU buffer", c->name);
    const edml_status s = b ? edml_gpu_buffer_write(b, 0, bytes, 64) : EDML_STATUS_OK;
    CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), "reset"), "%s: the write: %s %s",
          c->name, edml_status_string(s), edml_device_last_error(d.dev));
    CHECK(edml_operator_backend(op) != EDML_BACKEND_GLES &&
              strstr(edml_operator_placement(op, why, sizeof why), "reset"),
          "%s: AUTO after the reset: %s '%s'", c->name, edml_backend_name(edml_operator_backend(op)), why);
    ops_reset_outputs(c);
    CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: AUTO answers on the CPU", c->name);
    tl_device_free(&d);
}

/* A GPU buffer's read dispatches nothing, so its proof is a serial: with
 * the readback mapping stale (EDML_FAULT_STALE_READBACK on the read, the
 * write before it submission 1), the read fails instead of handing back
 * the bytes the mapping held, and writes nothing. */
static void check_stale_read(void)
{
    tl_device d;
    edml_gpu_buffer *b = NULL;
    uint8_t bytes[64], got[64];
    for (int i = 0; i < 64; i++) bytes[i] = (uint8_t)(i * 7 + 1), got[i] = 0xcd;
    CHECK(make_device(&d, EDML_FAULT_STALE_READBACK, 2, 0) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 64, &b) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(b, 0, bytes, 64) == EDML_STATUS_OK,
          "a GPU buffer written");
    const edml_status s = b ? edml_gpu_buffer_read(b, 0, got, 64) : EDML_STATUS_OK;
    bool untouched = true;
    for (int i = 0; i < 64; i++) untouched = untouched && got[i] == 0xcd;
    CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), "not this submission's") &&
              untouched,
          "a stale read: %s %s", edml_status_string(s), edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* A GPU buffer's view (no persistent mapping) proven as a read is: with
 * the map struck (`fault` at submission 2, after the write), no view and
 * BACKEND_FAILED saying `says`. */
static void check_view_struck(uint32_t fault, const char *says)
{
    tl_device d;
    edml_gpu_buffer *b = NULL;
    uint8_t bytes[100];
    void *p = (void *)bytes;
    for (int i = 0; i < 100; i++) bytes[i] = (uint8_t)(i * 5 + 3);
    CHECK(make_device(&d, fault, 2, 0) == EDML_STATUS_OK && edml_gpu_buffer_create(d.dev, 100, &b) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(b, 0, bytes, 100) == EDML_STATUS_OK,
          "a GPU buffer written");
    const edml_status s = b ? edml_gpu_buffer_map(b, 0, 100, &p) : EDML_STATUS_OK;
    CHECK(s == EDML_STATUS_BACKEND_FAILED && !p && strstr(edml_device_last_error(d.dev), says),
          "a struck view (fault 0x%x): %s %s", (unsigned)fault, edml_status_string(s), edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* A view's copy back dropped (the unmap, submission 3): the unmap fails,
 * and a view that was copied back (another device, unstruck) reads back
 * what was written in it, at every length up to 40 bytes and at an odd offset. */
static void check_view_copy_back(void)
{
    for (uint64_t n = 1; n <= 40; n += 13) {
        for (int struck = 0; struck < 2; struck++) {
            tl_device d;
            edml_gpu_buffer *b = NULL;
            uint8_t bytes[64] = {0}, got[64];
            uint8_t *p = NULL;
            CHECK(make_device(&d, struck ? EDML_FAULT_DROPPED_COPY : 0, 3, 0) == EDML_STATUS_OK &&
                      edml_gpu_buffer_create(d.dev, 64, &b) == EDML_STATUS_OK &&
                      edml_gpu_buffer_write(b, 0, bytes, 64) == EDML_STATUS_OK &&
                      edml_gpu_buffer_map(b, 3, n, (void **)&p) == EDML_STATUS_OK,
                  "a view of %llu bytes", (unsigned long long)n);
            for (uint64_t i = 0; p && i < n; i++) p[i] = (uint8_t)(i + 1);
            const edml_status s = p ? edml_gpu_buffer_unmap(b) : EDML_STATUS_OK;
            if (struck) {
                CHECK(s == EDML_STATUS_BACKEND_FAILED &&
                          strstr(edml_device_last_error(d.dev), "copy of a mapped range back"),
                      "a dropped copy back of %llu bytes: %s %s", (unsigned long long)n, edml_status_string(s),
                      edml_device_last_error(d.dev));
            } else {
                bool right = s == EDML_STATUS_OK && edml_gpu_buffer_read(b, 0, got, 64) == EDML_STATUS_OK;
                for (uint64_t i = 0; right && i < 64; i++)
                    right = got[i] == (i >= 3 && i < 3 + n ? (uint8_t)(i - 2) : 0);
                CHECK(right, "a view of %llu bytes copied back: %s", (unsigned long long)n,
                      edml_device_last_error(d.dev));
            }
            tl_device_free(&d);
        }
    }
}

/* A fault striking every operator: named and AUTO, one by one and in
 * lists; with `resident`, also on GPU buffers (the copies' faults skip it:
 * a GPU-resident call copies nothing back), else GPU buffers' views. */
static void check_struck(uint32_t fault, const char *says, bool resident)
{
    for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_GLES);
        check_named(&c, fault, says);
        check_auto(&c, fault, says);
        check_list(&c, fault, says, EDML_BACKEND_GLES);
        check_list(&c, fault, says, EDML_BACKEND_AUTO);
        if (resident) check_resident(&c, fault, says);
        ops_free(&c);
    }
    if (!resident) check_view_struck(fault, says);
}

/* The GPU arena full but for `leave` bytes when the operator first runs:
 * right, or refused (its kernels' tests could not run) with nothing
 * written; after the arena is freed (the operator created again: GPU
 * buffers and operators' parameters share one stack), right. Returns
 * whether refused. */
static bool run_cramped(ops_case *c, edml_backend b, uint64_t leave)
{
    tl_device d;
    const uint64_t gpu = 1u << 20;
    edml_operator *op = NULL;
    edml_gpu_buffer *fill = NULL;
    if (make_device(&d, 0, 0, gpu) != EDML_STATUS_OK) abort();
    bool refused = false;
    if (edml_gpu_buffer_create(d.dev, gpu - leave, &fill) == EDML_STATUS_OK &&
        edml_operator_create(d.dev, &c->desc, b, &op) == EDML_STATUS_OK) {
        ops_reset_outputs(c);
        const edml_status s = ops_execute(c, op, NULL);
        refused = s == EDML_STATUS_ARENA_TOO_SMALL && strstr(edml_device_last_error(d.dev), "cannot run it yet");
        CHECK((s == EDML_STATUS_OK && ops_outputs_match(c)) ||
                  ((s == EDML_STATUS_ARENA_TOO_SMALL || b == EDML_BACKEND_AUTO) && ops_outputs_untouched(c)),
              "%s on %s, %llu bytes of GPU arena free: %s %s", c->name, edml_backend_name(b), (unsigned long long)leave,
              edml_status_string(s), edml_device_last_error(d.dev));
        CHECK(b == EDML_BACKEND_GLES || s == EDML_STATUS_OK, "%s: AUTO is never refused for it: %s", c->name,
              edml_device_last_error(d.dev));
        edml_operator_destroy(op);
        edml_gpu_buffer_destroy(fill);
        ops_reset_outputs(c);
        CHECK(edml_operator_create(d.dev, &c->desc, b, &op) == EDML_STATUS_OK && ops_execute(c, op, NULL) == 0 &&
                  ops_outputs_match(c),
              "%s: after the arena was freed: %s", c->name, edml_device_last_error(d.dev));
    }
    tl_device_free(&d);
    return refused;
}

/* Known-answer tests that cannot run yet: their kernels are not used. */
static void check_cramped(void)
{
    int refused = 0;
    for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_GLES);
        for (uint64_t leave = 256; leave <= 16384; leave *= 2) {
            refused += run_cramped(&c, EDML_BACKEND_GLES, leave);
            (void)run_cramped(&c, EDML_BACKEND_AUTO, leave);
        }
        ops_free(&c);
    }
    CHECK(refused > 0, "some operator fit the GPU arena while its kernels' tests did not: %d", refused);
}

/* A GPU buffer mapped (without a persistent mapping) while a named
 * operator is created and first run: BUSY, nothing written; after the
 * unmap its kernels are checked, then run. */
static void check_mapped(ops_case *c)
{
    tl_device d;
    edml_operator *op = NULL;
    edml_gpu_buffer *b = NULL;
    void *p = NULL;
    if (make_device(&d, 0, 0, 0) != EDML_STATUS_OK) abort();
    CHECK(edml_gpu_buffer_create(d.dev, 64, &b) == EDML_STATUS_OK &&
              edml_gpu_buffer_map(b, 0, 64, &p) == EDML_STATUS_OK,
          "map");
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s: create while mapped",
          c->name);
    ops_reset_outputs(c);
    const edml_status s = ops_execute(c, op, NULL);
    CHECK(s == EDML_STATUS_BUSY && ops_outputs_untouched(c), "%s: while mapped: %s %s", c->name, edml_status_string(s),
          edml_device_last_error(d.dev));
    CHECK(edml_gpu_buffer_unmap(b) == EDML_STATUS_OK, "unmap");
    CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: after the unmap: %s", c->name,
          edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* An operator's sizes queried on a fresh device whose GPU arena is full
 * but for 2 KiB (no test planned or run then): false where the operator
 * itself does not fit. */
static bool query_cramped(ops_case *c, tl_device *d, edml_operator_sizes *q)
{
    edml_gpu_buffer *fill = NULL;
    if (make_device(d, 0, 0, 1u << 20) != EDML_STATUS_OK) abort();
    CHECK(edml_gpu_buffer_create(d->dev, (1u << 20) - 2048, &fill) == EDML_STATUS_OK, "fill the GPU arena");
    const bool fits = edml_operator_query(d->dev, &c->desc, EDML_BACKEND_GLES, q) == EDML_STATUS_OK;
    edml_gpu_buffer_destroy(fill);
    if (!fits) printf("dropped: %s needs more than 2 KiB of GPU arena: not sized cramped\n", c->name);
    return fits;
}

/* Those sizes and the sizes after its kernels were checked: the same; one
 * given a temporary binding of exactly temporary_bytes runs right the
 * first time (its kernels' tests in that scratch). */
static void check_sizes(ops_case *c)
{
    tl_device d;
    edml_operator_sizes cold, warm;
    edml_operator *op = NULL;
    if (!query_cramped(c, &d, &cold)) return tl_device_free(&d);
    uint8_t *temp = malloc(cold.temporary_bytes + 16);
    EDML_BUFFER_BINDING tb = {temp, 0, cold.temporary_bytes};
    CHECK(temp && edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "%s", c->name);
    ops_reset_outputs(c);
    CHECK(ops_execute(c, op, cold.temporary_bytes ? &tb : NULL) == EDML_STATUS_OK && ops_outputs_match(c),
          "%s: first run in a temporary binding of exactly %zu bytes: %s", c->name, cold.temporary_bytes,
          edml_device_last_error(d.dev));
    CHECK(edml_operator_query(d.dev, &c->desc, EDML_BACKEND_GLES, &warm) == EDML_STATUS_OK &&
              warm.temporary_bytes == cold.temporary_bytes && warm.persistent_bytes == cold.persistent_bytes &&
              warm.gpu_persistent_bytes == cold.gpu_persistent_bytes,
          "%s: sizes before and after its kernels' tests: %zu/%zu, %zu/%zu", c->name, cold.temporary_bytes,
          warm.temporary_bytes, cold.persistent_bytes, warm.persistent_bytes);
    free(temp);
    tl_device_free(&d);
}

/* reserve_scratch in a device arena of exactly what the device and the
 * operator take, as those sizes say: the first execution, whose kernels'
 * tests then run in its reserved scratch, never fails for memory. */
static void check_reserved(ops_case *c)
{
    tl_device d;
    edml_operator *op = NULL;
    edml_operator_sizes q;
    reserve = 1;
    const bool fits = query_cramped(c, &d, &q);
    reserve = 0;
    tl_device_free(&d);
    if (!fits) return;
    edml_device_desc dd = {0};
    dd.reserve_scratch = 1;
    dd.board = &board;
    d.size = edml_device_size() + q.persistent_bytes; /* its scratch included */
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK,
          "%s in %zu bytes: %s", c->name, d.size, d.dev ? edml_device_last_error(d.dev) : "");
    edml_arena_stats st;
    CHECK(d.dev && edml_device_arena_stats(d.dev, &st) == EDML_STATUS_OK && st.persistent + 64 > d.size,
          "%s: the device arena is full but for its alignment", c->name);
    ops_reset_outputs(c);
    CHECK(op && ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: reserved scratch: %s", c->name,
          edml_device_last_error(d.dev));
    tl_device_free(&d);
}

int main(void)
{
    board = gpu_board();
    tl_device d;
    if (make_device(&d, 0, 0, 0) != EDML_STATUS_OK) abort();
    const bool have_gles = edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    tl_device_free(&d);
    if (!have_gles) {
        printf("dropped: no GLES on this machine: nothing to test\n");
        return tl_summary("dropped");
    }
    check_struck(EDML_FAULT_DROPPED_DISPATCH, "workgroups dispatched: the driver dropped a dispatch", true);
    check_struck(EDML_FAULT_GPU_RESET, "the GPU was reset", true);
    check_stale_read();
    check_struck(EDML_FAULT_DROPPED_COPY, "its copy did not run (dropped or cut short)", false);
    check_struck(EDML_FAULT_STALE_MAPPING, "its stamp is an earlier submission's: a stale mapping", false);
    check_struck(EDML_FAULT_STALE_READBACK, "not this submission's (serial", false);
    check_view_copy_back();
    check_cramped();
    for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_GLES);
        check_mapped(&c);
        check_buffer_struck(&c);
        check_sizes(&c);
        check_reserved(&c);
        ops_free(&c);
    }
    return tl_summary("dropped");
}
