/* GLES faults: each injected fault leaves a working device on the CPU (AUTO
 * falls back, with the reason logged) and fails an operator that asked for
 * GLES by name with a clear status, writing nothing to its outputs. Skips
 * (and says so) where this machine has no GLES at all. */
#include "ops.h"

static char last_log[512];
static int logs;
static void log_fn(void *user, edml_status s, const char *m)
{
    (void)user;
    (void)s;
    logs++;
    snprintf(last_log, sizeof last_log, "%s", m);
}

/* a board like the built-in one whose thresholds send everything to the GPU */
static edml_board gpu_board(void)
{
    edml_board b = *edml_board_builtin();
    b.gpu_min_elements = 0;
    b.gpu_min_elements_copy = 0;
    b.gpu_topk_min_row = 0;
    b.gpu_software_ok = 1;
    b.cost_model = NULL, b.cost_model_terms = 0; /* the thresholds alone */
    return b;
}

static edml_status make_device(tl_device *d, uint32_t faults, const edml_board *board)
{
    edml_device_desc dd = {0};
    dd.board = board;
    dd.log = log_fn;
    dd.inject_faults = faults;
    return tl_device_create(d, edml_device_size() + (1 << 16), &dd);
}

/* faults at device creation: GLES absent, AUTO runs on the CPU */
static void check_init_faults(const edml_board *board, bool have_gles)
{
    static const struct {
        uint32_t fault;
        const char *says;
    } init_faults[] = {
        {EDML_FAULT_NO_GL, "libEGL.so.1 not loaded"},
        {EDML_FAULT_CONTEXT, "no GLES 3.1 context"},
        {EDML_FAULT_OUT_OF_MEMORY, "GL_OUT_OF_MEMORY"},
    };
    char info[300];
    tl_device d;
    for (size_t f = 0; f < sizeof init_faults / sizeof *init_faults; f++) {
        logs = 0;
        last_log[0] = '\0';
        CHECK(make_device(&d, init_faults[f].fault, board) == EDML_STATUS_OK, "device with fault 0x%x",
              init_faults[f].fault);
        CHECK(!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)), "GLES despite fault 0x%x",
              init_faults[f].fault);
        if (have_gles) {
            CHECK(strstr(edml_device_gles_info(d.dev, info, sizeof info), init_faults[f].says) != NULL, "reason: %s",
                  info);
            CHECK(logs == 1 && strstr(last_log, "GLES backend not available") && strstr(last_log, init_faults[f].says),
                  "log: %s", last_log);
        }
        for (int which = 0; which < ops_count(); which++) {
            ops_case c;
            ops_make(&c, which);
            edml_operator *op;
            CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
            CHECK(edml_operator_backend(op) != EDML_BACKEND_GLES, "%s on gles", c.name);
            CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "%s result", c.name);
            edml_operator *g;
            CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &g) == EDML_STATUS_BACKEND_UNAVAILABLE,
                  "%s: gles by name", c.name);
            CHECK(strstr(edml_device_last_error(d.dev), "backend gles is not available on this device") != NULL, "%s",
                  edml_device_last_error(d.dev));
            ops_free(&c);
        }
        tl_device_free(&d);
    }
}

/* only GLES allowed, and it fails: the device itself fails, with the reason */
static void check_gles_only(bool have_gles)
{
    tl_device d;
    d.size = edml_device_size();
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    dd.inject_faults = EDML_FAULT_NO_GL;
    dd.log = log_fn;
    edml_status s = edml_device_create(&dd, d.arena, d.size, &d.dev);
    CHECK(s == EDML_STATUS_BACKEND_UNAVAILABLE || (s == EDML_STATUS_INVALID_ARGUMENT && !have_gles),
          "GLES-only device: %s", edml_status_string(s));
    free(d.arena);
}

/* a fence that times out, during execution, for one operator */
static void check_fence_timeout(const edml_board *board, ops_case *c)
{
    tl_device d;
    CHECK(make_device(&d, EDML_FAULT_FENCE_TIMEOUT, board) == EDML_STATUS_OK, "device");
    edml_operator *named, *autop;
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &named) == EDML_STATUS_OK, "%s gles", c->name);
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK, "%s auto", c->name);
    CHECK(edml_operator_backend(autop) == EDML_BACKEND_GLES, "%s: auto on the GPU board", c->name);
    ops_reset_outputs(c);
    edml_status s = ops_execute(c, named, NULL);
    CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), "fence timed out"),
          "%s named: %s %s", c->name, edml_status_string(s), edml_device_last_error(d.dev));
    CHECK(ops_outputs_untouched(c), "%s: a failed GLES call wrote an output", c->name);
    CHECK(!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)), "GLES still on after a failure");
    /* the AUTO operator now runs on the CPU */
    logs = 0;
    CHECK(ops_execute(c, autop, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s auto after failure", c->name);
    CHECK(edml_operator_backend(autop) != EDML_BACKEND_GLES, "%s auto still on gles", c->name);
    tl_device_free(&d);

    /* an AUTO operator whose own submission fails falls back at once, logging why */
    CHECK(make_device(&d, EDML_FAULT_FENCE_TIMEOUT, board) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK, "%s auto", c->name);
    logs = 0;
    ops_reset_outputs(c);
    s = ops_execute(c, autop, NULL);
    CHECK(s == EDML_STATUS_OK && ops_outputs_match(c), "%s: fallback result (%s)", c->name, edml_status_string(s));
    CHECK(logs == 1 && strstr(last_log, "GLES could not run it (backend gles failed: the fence timed out") &&
              strstr(last_log, "this device continues on"),
          "log (%d lines): %s", logs, last_log);
    tl_device_free(&d);
}

/* edml_device_desc.gpu_fence_timeout_ms: the fence's wait said in the
 * failure; and a GPU arena mapped persistently (gpu_arena_mapped) whose
 * map finds its fence failed hands out no view. */
static void check_fence_wait_set(const edml_board *board, ops_case *c)
{
    tl_device d;
    edml_device_desc dd = {0};
    dd.board = board;
    dd.log = log_fn;
    dd.inject_faults = EDML_FAULT_FENCE_TIMEOUT;
    dd.gpu_fence_timeout_ms = 40;
    dd.gpu_arena_mapped = 1;
    CHECK(tl_device_create(&d, edml_device_size() + (1 << 16), &dd) == EDML_STATUS_OK, "device");
    edml_operator *named = NULL;
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_GLES, &named) == EDML_STATUS_OK, "%s gles", c->name);
    ops_reset_outputs(c);
    edml_status s = ops_execute(c, named, NULL);
    CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(edml_device_last_error(d.dev), "fence timed out after 40 ms"),
          "%s: %s %s", c->name, edml_status_string(s), edml_device_last_error(d.dev));
    tl_device_free(&d);
    CHECK(tl_device_create(&d, edml_device_size() + (1 << 16), &dd) == EDML_STATUS_OK, "device");
    edml_gpu_buffer *b = NULL;
    void *view = NULL;
    CHECK(edml_gpu_buffer_create(d.dev, 64, &b) == EDML_STATUS_OK, "buffer");
    s = b ? edml_gpu_buffer_map(b, 0, 64, &view) : EDML_STATUS_OK;
    CHECK(s == EDML_STATUS_BACKEND_FAILED && view == NULL, "a mapped arena's map with a failed fence: %s, view %p",
          edml_status_string(s), view);
    tl_device_free(&d);
}

/* Faults of one kernel, met when an operator first needs it (programs are
 * built then, and checked once on a known answer): a kernel that does not
 * compile, and GatherND's kernel skipped by the driver (as V3D does with
 * one it could not allocate registers for). The device keeps GLES; an
 * operator that needs the kernel is refused by name and runs on the CPU
 * with AUTO (said once), with a right answer; the others still run on it. */
static void check_kernel_faults(const edml_board *board)
{
    static const struct {
        uint32_t fault;
        const char *says;
    } faults[] = {
        {EDML_FAULT_SHADER_COMPILE, "does not compile"},
        {EDML_FAULT_SKIPPED_DISPATCH, "the GPU completed 0 of the 1 workgroups dispatched"},
    };
    char info[600];
    for (size_t f = 0; f < sizeof faults / sizeof *faults; f++)
        for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
            ops_case c;
            ops_make_on(&c, which, EDML_BACKEND_GLES);
            tl_device d;
            CHECK(make_device(&d, faults[f].fault, board) == EDML_STATUS_OK, "device");
            CHECK(edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES), "GLES with a kernel's fault");
            const bool hit = faults[f].fault == EDML_FAULT_SHADER_COMPILE || strstr(c.name, "GATHER_ND");
            edml_operator *named, *autop;
            edml_status s = edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &named);
            CHECK(hit ? s == EDML_STATUS_BACKEND_UNAVAILABLE && strstr(edml_device_last_error(d.dev), faults[f].says)
                      : s == EDML_STATUS_OK,
                  "%s by name, fault 0x%x: %s %s", c.name, faults[f].fault, edml_status_string(s),
                  edml_device_last_error(d.dev));
            logs = 0, last_log[0] = '\0';
            CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &autop) == EDML_STATUS_OK &&
                      (edml_operator_backend(autop) == EDML_BACKEND_GLES) == !hit,
                  "%s AUTO, fault 0x%x: %s", c.name, faults[f].fault, edml_backend_name(edml_operator_backend(autop)));
            CHECK(!hit || (logs == 1 && strstr(last_log, faults[f].says)), "%s: log %s", c.name, last_log);
            ops_reset_outputs(&c);
            CHECK(ops_execute(&c, autop, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "%s AUTO result", c.name);
            edml_device_gles_info(d.dev, info, sizeof info);
            CHECK(!hit || strstr(info, faults[f].says), "%s: info %s", c.name, info);
            tl_device_free(&d);
            ops_free(&c);
        }
}

/* A driver that builds programs in its own threads and has not finished:
 * an AUTO operator placed on the GPU runs on the CPU until its kernels are
 * built (said once), right each time; then on the GPU (its kernels then
 * checked). */
static void check_slow_compile(const edml_board *board, ops_case *c)
{
    tl_device d;
    char info[600];
    CHECK(make_device(&d, EDML_FAULT_SLOW_COMPILE, board) == EDML_STATUS_OK, "device");
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(strstr(info, "none used yet") && strstr(info, "built in the driver's threads"), "%s", info);
    edml_operator *op;
    logs = 0, last_log[0] = '\0';
    CHECK(edml_operator_create(d.dev, &c->desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
              edml_operator_backend(op) == EDML_BACKEND_GLES,
          "%s: AUTO placed on the GPU while its kernels are built", c->name);
    for (int i = 0; i < 6; i++) {
        ops_reset_outputs(c);
        CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s: execution %d", c->name, i);
    }
    CHECK(logs == 1 && strstr(last_log, "until its GPU kernels are built"), "%s: %d lines, %s", c->name, logs,
          last_log);
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(strstr(info, "checked and in use"), "%s: its kernels were checked: %s", c->name, info);
    tl_device_free(&d);
}

/* GLES's own limits: TopK with K above what the kernel holds */
static void check_gles_limits(const edml_board *board)
{
    tl_device d;
    CHECK(make_device(&d, 0, board) == EDML_STATUS_OK, "device");
    UINT in_sizes[1] = {5000}, out_sizes[1] = {4000};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, in_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, out_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC xb = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 1, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, vt = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     xt = {EDML_TENSOR_TYPE_BUFFER, &xb};
    EDML_TOP_K1_OPERATOR_DESC tk = {&it, &vt, &xt, 0, 4000, EDML_AXIS_DIRECTION_DECREASING};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &tk};
    edml_operator *op;
    CHECK(edml_operator_create(d.dev, &od, EDML_BACKEND_GLES, &op) == EDML_STATUS_BACKEND_UNAVAILABLE &&
              strstr(edml_device_last_error(d.dev), "K = 4000"),
          "%s", edml_device_last_error(d.dev));
    logs = 0;
    CHECK(edml_operator_create(d.dev, &od, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
              edml_operator_backend(op) != EDML_BACKEND_GLES,
          "auto TopK with a large K");
    CHECK(logs == 1 && strstr(last_log, "the GLES backend cannot"), "log: %s", last_log);
    tl_device_free(&d);
}

int main(void)
{
    edml_board board = gpu_board();
    tl_device d;
    CHECK(make_device(&d, 0, &board) == EDML_STATUS_OK, "device");
    bool have_gles = edml_device_backends(d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES);
    char info[300];
    printf("%s\n", edml_device_gles_info(d.dev, info, sizeof info));
    tl_device_free(&d);
    if (!have_gles) {
        printf("faults: no GLES on this machine: only the no-GPU paths are tested\n");
    }
    check_init_faults(&board, have_gles);
    check_gles_only(have_gles);
    if (have_gles) {
        for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
            ops_case c;
            ops_make_on(&c, which, EDML_BACKEND_GLES);
            check_fence_timeout(&board, &c);
            check_fence_wait_set(&board, &c);
            check_slow_compile(&board, &c);
            ops_free(&c);
        }
        check_kernel_faults(&board);
        check_gles_limits(&board);
    }
    return tl_summary("faults");
}
