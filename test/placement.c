/* AUTO's measured placement (edml_device_desc.placement) on this machine's
 * GPU, with a board whose thresholds send every operator to it: each
 * operator's first executions with host memory and with GPU buffers run on
 * both sides, timed; where the GPU (llvmpipe here) is the slower by far,
 * by the test's own clock, the operator ends on the CPU; the fault modes
 * that slow one side make it choose the other; every output is the
 * reference's, before, during and after measuring, one by one and in
 * command lists. The placement cache: decisions used at once by a device
 * re-created on it, refused for another board or GPU driver, checked like
 * the program cache (inside the arena or over the program cache refused,
 * damaged entries dropped, at creation and after it, a full cache said,
 * two live devices on one cache's memory: the last created holds it),
 * and operator sizes the same whatever it held. Fails where the machine
 * has no GLES (make test installs Mesa). */
#define _POSIX_C_SOURCE 200809L
#include "placement.h"

#include "../src/core/cost_figures.h"

/* Whether a measured placement's words agree with its own figures:
 * "B: measured with host memory: neon X ms, gles Y ms" places B on the
 * side its figures say is faster, unless they were within 5% (the
 * thresholds' choice). No expectation of which side a machine makes
 * faster: the clock decides nothing here. */
static bool placement_consistent(const char *why)
{
    const char *n = strstr(why, "neon "), *g = strstr(why, "gles ");
    double neon, gles;
    if (!n || !g || sscanf(strstr(why, ": neon ") ? strstr(why, ": neon ") + 7 : "", "%lf", &neon) != 1 ||
        sscanf(strstr(why, ", gles ") ? strstr(why, ", gles ") + 7 : "", "%lf", &gles) != 1)
        return false;
    if (strstr(why, "within 5%")) return true;
    return strncmp(why, neon <= gles ? "neon:" : "gles:", 5) == 0;
}

/* Every sample measured: each answer right, the placement said at every
 * step, and the side it ends on the one its own figures favour. With
 * EDML_FAULT_SLOW_GPU each GPU run counts 50 ms longer: every sample moves
 * to NEON, where the thresholds had put it on the GPU, on any machine. */
static void check_measured_all(uint32_t fault)
{
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, fault, NULL, 0);
    for (int i = 0; dev && i < ops_count_on(EDML_BACKEND_GLES); i++) {
        ops_case c;
        ops_make_on(&c, i, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        char why[300];
        CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
        CHECK(strstr(edml_operator_placement(op, why, sizeof why), "gles: threshold (until measured"), "%s: %s", c.name,
              why);
        measure(dev, &c, op, fault ? "GPU slowed" : "measured");
        edml_operator_placement(op, why, sizeof why);
        CHECK(placement_consistent(why), "%s: the placement disagrees with its own figures: %s", c.name, why);
        if (fault) CHECK(edml_operator_backend(op) == EDML_BACKEND_NEON, "%s: GPU slowed, placed: %s", c.name, why);
        printf("placement: %s%s: %s\n", c.name, fault ? " (GPU slowed)" : "", why);
        edml_operator_destroy(op);
        ops_free(&c);
    }
    tl_device_free(&d);
}

/* A side made 50 ms slower by a fault loses, whatever the clock says. */
static void check_slow(uint32_t fault, edml_backend want)
{
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, fault, NULL, 0);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    char why[300];
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
    if (op) measure(dev, &c, op, fault == EDML_FAULT_SLOW_CPU ? "CPU slowed" : "GPU slowed");
    if (op) keep_said(edml_operator_placement(op, why, sizeof why));
    CHECK(op && edml_operator_backend(op) == want, "%s: placed %s", c.name, op ? why : "");
    CHECK(strstr(last_log, "measured") && strstr(last_log, edml_backend_name(want)), "the decision said: %s", last_log);
    ops_free(&c);
    tl_device_free(&d);
}

/* Tensors in GPU buffers are a kind of their own: measured apart, the
 * CPU side through the CPU's view of the buffers, every answer right; a
 * command list's entries use the decisions and measure nothing. */
static void check_gpu_kind(void)
{
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, NULL, 0);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    edml_gpu_buffer *g[CASE_MAX_INPUTS + CASE_MAX_OUTPUTS] = {0};
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
    if (dev) gpu_bindings(dev, &c, g, in, out);
    ops_reset_outputs(&c); /* the outputs' padding, which nothing writes, as the expected outputs hold it */
    for (int o = 0; dev && o < c.nout; o++) edml_gpu_buffer_write(g[c.nin + o], 0, c.out[o].buf, c.out[o].total);
    char why[300];
    for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS + 1; k++) {
        CHECK(edml_operator_execute(op, in, (UINT)c.nin, out, (UINT)c.nout, NULL) == EDML_STATUS_OK, "%s: run %d: %s",
              c.name, k, edml_device_last_error(dev));
        for (int o = 0; o < c.nout; o++) edml_gpu_buffer_read(g[c.nin + o], 0, c.out[o].buf, c.out[o].total);
        CHECK(ops_outputs_match(&c), "%s: GPU buffers, run %d: wrong output", c.name, k);
    }
    CHECK(op && strstr(edml_operator_placement(op, why, sizeof why), "neon: measured with GPU buffers"), "%s: %s",
          c.name, why);
    ops_execute(&c, op, NULL); /* host memory: not measured yet */
    CHECK(op && strstr(edml_operator_placement(op, why, sizeof why), "measuring with host memory: 1 of 11"), "%s", why);
    edml_command_list *l = NULL;
    CHECK(edml_command_list_create(dev, 4, &l) == EDML_STATUS_OK, "list");
    for (int k = 0; k < 4 && l; k++) edml_command_list_record(l, op, in, (UINT)c.nin, out, (UINT)c.nout, NULL);
    CHECK(l && edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == 0, "list: %s",
          edml_device_last_error(dev));
    for (int o = 0; o < c.nout; o++) edml_gpu_buffer_read(g[c.nin + o], 0, c.out[o].buf, c.out[o].total);
    CHECK(ops_outputs_match(&c), "%s: a list on GPU buffers: wrong output", c.name);
    ops_execute(&c, op, NULL);
    CHECK(strstr(edml_operator_placement(op, why, sizeof why), "measuring with host memory: 2 of 11"),
          "a list measured: %s", why);
    keep_said(why);
    if (l) edml_command_list_destroy(l);
    gpu_unbind(&c, g);
    ops_free(&c);
    tl_device_free(&d);
}

/* An operator that only ever runs through command lists is measured
 * there: each entry whose operator is still measuring runs alone (outside
 * the list's GPU batch) and is timed as an execution; a GPU slowed by a
 * fault sends it to NEON within one list of as many entries as measuring
 * takes, every output right, and the list submitted again runs there. */
static void check_list_measured(void)
{
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, NULL, 0);
    for (int i = 0; dev && i < 2; i++) {
        ops_case c;
        ops_make_on(&c, i, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
        edml_command_list *l = NULL;
        CHECK(edml_command_list_create(dev, EDML_PLACEMENT_MEASURE_RUNS, &l) == EDML_STATUS_OK, "list");
        for (int round = 0; op && l && round < 2; round++) {
            ops_reset_outputs(&c);
            EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
            ops_bindings(&c, in, out);
            for (int k = 0; round == 0 && k < (int)EDML_PLACEMENT_MEASURE_RUNS; k++)
                edml_command_list_record(l, op, in, (UINT)c.nin, out, (UINT)c.nout, NULL);
            CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == 0,
                  "%s: list %d: %s", c.name, round, edml_device_last_error(dev));
            CHECK(ops_outputs_match(&c), "%s: list %d: wrong output", c.name, round);
            char why[300];
            CHECK(strstr(edml_operator_placement(op, why, sizeof why), "neon: measured with host memory"),
                  "%s: list %d: %s", c.name, round, why);
        }
        if (l) edml_command_list_destroy(l);
        ops_free(&c);
    }
    tl_device_free(&d);
}

/* A cost model of both sides for every family: a call's fixed time on the
 * CPU and on the GPU with host memory, then with GPU buffers. */
static edml_cost_term model[16];
static uint32_t model_of(float cpu_host, float gpu_host, float cpu_buffers, float gpu_buffers)
{
    uint32_t n = 0;
    for (uint8_t f = 0; f < 4; f++) {
        model[n++] =
            (edml_cost_term){f, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 1, cpu_host, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
        model[n++] =
            (edml_cost_term){f, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 0, gpu_host, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
        model[n++] = (edml_cost_term){
            f, EDML_BACKEND_NEON, EDML_COST_GPU_BUFFERS, 1, cpu_buffers, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
        model[n++] = (edml_cost_term){
            f, EDML_BACKEND_GLES, EDML_COST_GPU_BUFFERS, 0, gpu_buffers, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    }
    return n;
}

/* Sample 0 created AUTO on dev, run with host memory (and with GPU
 * buffers), right each time: where it ran and why, for each kind. */
static void model_run(edml_device *dev, edml_backend host_b, const char *host_why, edml_backend gpu_b,
                      const char *gpu_why)
{
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    char why[300];
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "model: create");
    ops_reset_outputs(&c);
    CHECK(op && ops_execute(&c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "model: host memory run");
    CHECK(op && edml_operator_backend(op) == host_b && strstr(edml_operator_placement(op, why, sizeof why), host_why),
          "model, host memory: %s (wanted \"%s\")", why, host_why);
    if (op) keep_said(why);
    edml_gpu_buffer *g[CASE_MAX_INPUTS + CASE_MAX_OUTPUTS] = {0};
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    gpu_bindings(dev, &c, g, in, out);
    ops_reset_outputs(&c); /* the outputs' padding, which nothing writes, as the expected outputs hold it */
    for (int o = 0; o < c.nout; o++) edml_gpu_buffer_write(g[c.nin + o], 0, c.out[o].buf, c.out[o].total);
    CHECK(op && edml_operator_execute(op, in, (UINT)c.nin, out, (UINT)c.nout, NULL) == EDML_STATUS_OK,
          "model: GPU buffers run: %s", edml_device_last_error(dev));
    for (int o = 0; o < c.nout; o++) edml_gpu_buffer_read(g[c.nin + o], 0, c.out[o].buf, c.out[o].total);
    CHECK(ops_outputs_match(&c), "model: GPU buffers: wrong output");
    CHECK(op && edml_operator_backend(op) == gpu_b && strstr(edml_operator_placement(op, why, sizeof why), gpu_why),
          "model, GPU buffers: %s (wanted \"%s\")", why, gpu_why);
    gpu_unbind(&c, g);
    if (op) edml_operator_destroy(op);
    ops_free(&c);
}

/* The device's model from a blob edml_cost_model_write() made: used where
 * it is this board's and whole; another board's, or one damaged, is not
 * used (the log says why) and the thresholds decide (this board's send
 * everything to the GPU). */
static void check_model_blob(void)
{
    static uint8_t blob[EDML_COST_MODEL_BYTES(16)];
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    const uint32_t n = model_of(1, 1000, 1, 1000);
    CHECK(edml_cost_model_write(dev, model, n, blob, sizeof blob - 1) == 0, "a blob written past its bytes");
    CHECK(edml_cost_model_write(NULL, model, n, blob, sizeof blob) == 0 && strstr(edml_error_without_device(), "NULL"),
          "a blob for no device: %s", edml_error_without_device());
    CHECK(edml_cost_model_write(dev, model, n, blob, sizeof blob) == EDML_COST_MODEL_BYTES(n), "the blob's bytes");
    tl_device_free(&d);
    for (int k = 0; k < 6; k++) {
        const edml_board keep = board;
        /* 2: a line's bit (a line is 44 bytes); 4, 5: the header's GPU driver key, edml's version (an update) */
        uint8_t *damaged = k == 2 ? &blob[32 + 44 * 3 + 5] : k == 4 ? &blob[12] : k == 5 ? &blob[16] : NULL;
        if (damaged) *damaged ^= 0x10;
        if (k == 3) board.name = "another board";
        edml_device_desc dd = {0};
        dd.board = &board, dd.log = log_fn, dd.cost_model = blob;
        dd.cost_model_bytes = k == 1 ? 40 : sizeof blob; /* 1: fewer lines than the header says */
        last_log[0] = 0;
        CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
        static const char *const said_why[6] = {"cost model: 16 lines taken",
                                                "fewer lines",
                                                "checksum",
                                                "another board",
                                                "(stale: its GLES lines made on another GPU driver",
                                                "(stale: its lines made by another edml version"};
        CHECK(strstr(last_log, said_why[k]) != NULL, "blob %d: log %s", k, last_log);
        if (k == 0)
            model_run(d.dev, EDML_BACKEND_NEON, "neon: model: neon 0.001 ms, gles 1.000 ms (host memory, 1 worker)",
                      EDML_BACKEND_NEON, "neon: model:");
        else if (k >= 4) /* used, and said stale: never the thresholds silently */
            model_run(d.dev, EDML_BACKEND_NEON,
                      k == 4 ? "neon: model: neon 0.001 ms, gles 1.000 ms (host memory, 1 worker) (stale: the model's "
                               "GLES lines made on another GPU driver"
                             : "(stale: the model's lines made by another edml version)",
                      EDML_BACKEND_NEON, "(stale: the model's ");
        else
            model_run(d.dev, EDML_BACKEND_GLES, "gles: threshold: ", EDML_BACKEND_GLES, "gles: threshold: ");
        tl_device_free(&d);
        if (damaged) *damaged ^= 0x10;
        board = keep;
    }
}

/* A line's checksum as the blob keeps it (FNV-1a of its 40 bytes, mixed):
 * to make a blob whose figures are bad and whose checksums hold. */
static uint32_t line_sum(const edml_cost_term *t)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof *t; i++) h = (h ^ ((const uint8_t *)t)[i]) * 16777619u;
    return h ^ 0x5bd1e995u;
}

/* Figures that are not a finite time of 0 or more (NaN, infinities, a
 * negative), as untrusted input: edml_cost_model_write() refuses them
 * naming the line and member, writing nothing; a blob that holds one (its
 * checksums right) is not used, said with the line; a board's compiled-in
 * model with one refuses the device, naming it. A -0 is a 0. */
static void check_model_untrusted(void)
{
    static uint8_t blob[EDML_COST_MODEL_BYTES(16)];
    uint32_t nan_bits = 0x7fc00000u, inf_bits = 0x7f800000u;
    float bad[4] = {0, 0, -1.0f, -0.0f};
    memcpy(&bad[0], &nan_bits, 4), memcpy(&bad[1], &inf_bits, 4);
    for (int k = 0; k < 4; k++) {
        tl_device d;
        edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
        const uint32_t n = model_of(1, 1000, 1, 1000);
        model[3].us_per_mrow = bad[k];
        memset(blob, 0xee, sizeof blob);
        const size_t wrote = edml_cost_model_write(dev, model, n, blob, sizeof blob);
        if (k == 3) {
            CHECK(wrote == EDML_COST_MODEL_BYTES(n), "a -0 figure: %s", edml_device_last_error(dev));
        } else {
            CHECK(wrote == 0 && strstr(edml_device_last_error(dev), "terms[3].us_per_mrow is not a finite") &&
                      blob[0] == 0xee,
                  "figure %d: wrote %zu: %s", k, wrote, edml_device_last_error(dev));
            model[3].us_per_mrow = 0;
            CHECK(edml_cost_model_write(dev, model, n, blob, sizeof blob) == EDML_COST_MODEL_BYTES(n), "a good blob");
            edml_cost_term t = model[3]; /* the bad figure put back, with its checksum */
            t.us_per_mrow = bad[k];
            const uint32_t sum = line_sum(&t);
            memcpy(blob + 32 + 44 * 3, &t, sizeof t), memcpy(blob + 32 + 44 * 3 + sizeof t, &sum, 4);
        }
        tl_device_free(&d);
        edml_device_desc dd = {0};
        dd.board = &board, dd.log = log_fn, dd.cost_model = blob, dd.cost_model_bytes = sizeof blob;
        last_log[0] = 0;
        CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
        CHECK(strstr(last_log, k == 3 ? "16 lines taken" : "line 3's us_per_mrow is not a finite"),
              "a blob with figure %d: %s", k, last_log);
        tl_device_free(&d);
        const edml_board keep = board;
        model[3].us_per_mrow = bad[k];
        board.cost_model = model, board.cost_model_terms = n;
        dd.cost_model = NULL, dd.cost_model_bytes = 0;
        char msg[300];
        dd.error_buffer = msg, dd.error_buffer_bytes = sizeof msg;
        const edml_status s = tl_device_create(&d, edml_device_size() + (1u << 18), &dd);
        if (k == 3)
            CHECK(s == EDML_STATUS_OK, "a board with a -0 figure: %s", msg);
        else
            CHECK(s == EDML_STATUS_INVALID_ARGUMENT && strstr(msg, "edml_board.cost_model[3].us_per_mrow"),
                  "a board with figure %d: %s %s", k, edml_status_string(s), msg);
        tl_device_free(&d); /* the arena, whether or not a device took it */
        board = keep;
        model[3].us_per_mrow = 0;
    }
}

/* The operator of `od` created with AUTO on dev: what its placement says. */
static void auto_placed(edml_device *dev, const EDML_OPERATOR_DESC *od, char *why, size_t cap)
{
    edml_operator *op = NULL;
    why[0] = 0;
    CHECK(edml_operator_create(dev, od, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "placed: create: %s",
          edml_device_last_error(dev));
    if (op) edml_operator_placement(op, why, cap), edml_operator_destroy(op);
}

/* ElementWiseIf of 256 x 3 (`dt`, its condition broadcast along the 3
 * where `bcast`) placed by AUTO on dev: what the placement says. */
static void if_placed(edml_device *dev, EDML_TENSOR_DATA_TYPE dt, bool bcast, char *why, size_t cap)
{
    UINT sizes[2] = {256, 3}, cs[2] = {1, 0};
    const UINT64 bytes = edml_calc_buffer_tensor_size(dt, 2, sizes, NULL);
    EDML_BUFFER_TENSOR_DESC cb = {EDML_TENSOR_DATA_TYPE_UINT8, 0, 2, sizes, bcast ? cs : NULL, bcast ? 256 : 768, 0};
    EDML_BUFFER_TENSOR_DESC vb = {dt, 0, 2, sizes, NULL, bytes, 0};
    EDML_TENSOR_DESC c = {EDML_TENSOR_TYPE_BUFFER, &cb}, v = {EDML_TENSOR_TYPE_BUFFER, &vb};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC d = {&c, &v, &v, &v};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_ELEMENT_WISE_IF, &d};
    auto_placed(dev, &od, why, cap);
}

/* TopK of 4 along `axis` of a FLOAT32 tensor of `rows` x 1024 / rows
 * (axis 0: down its columns), placed by AUTO on dev: what the placement
 * says. */
static void topk_placed(edml_device *dev, UINT rows, UINT axis, char *why, size_t cap)
{
    UINT sizes[2] = {rows, 1024 / rows}, out[2] = {axis ? rows : 4, axis ? 4 : 1024 / rows};
    const UINT64 out_bytes = 4ull * out[0] * out[1];
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, sizes, NULL, 4096, 0};
    EDML_BUFFER_TENSOR_DESC vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, out, NULL, out_bytes, 0};
    EDML_BUFFER_TENSOR_DESC xb = {EDML_TENSOR_DATA_TYPE_UINT32, 0, 2, out, NULL, out_bytes, 0};
    EDML_TENSOR_DESC i = {EDML_TENSOR_TYPE_BUFFER, &ib}, v = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     x = {EDML_TENSOR_TYPE_BUFFER, &xb};
    EDML_TOP_K1_OPERATOR_DESC d = {&i, &v, &x, axis, 4, EDML_AXIS_DIRECTION_DECREASING};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &d};
    auto_placed(dev, &od, why, cap);
}

/* A row's elements and the elements down columns: TopK of 1024 elements
 * as 1 row, as 16 rows of 64, and down the 64 columns of 16, priced by
 * them on the GPU's line alone. */
static void check_model_row(void)
{
    tl_device d;
    const edml_board keep = board;
    static edml_cost_term lines[2];
    lines[0] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[1] = (edml_cost_term){EDML_COST_TOPK,
                                EDML_BACKEND_GLES,
                                EDML_COST_HOST_MEMORY,
                                0,
                                10,
                                0,
                                0,
                                0,
                                0,
                                1e5f /* 0.1 us an element of a row */,
                                1e5f /* 0.1 us an element down columns */,
                                0,
                                0,
                                0,
                                {0}};
    board.cost_model = lines, board.cost_model_terms = 2;
    edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    char why[300];
    topk_placed(dev, 1, 1, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.050 ms, gles 0.112 ms"), "model, a row of 1024: %s", why);
    topk_placed(dev, 16, 1, why, sizeof why);
    CHECK(strstr(why, "gles: model: neon 0.050 ms, gles 0.016 ms"), "model, 16 rows of 64: %s", why);
    topk_placed(dev, 16, 0, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.050 ms, gles 0.11"), "model, down 64 columns of 16: %s", why);
    tl_device_free(&d);
    board = keep;
}

static void serial_for(void *context, edml_task_fn task, void *arg, uint32_t parts)
{
    (void)context;
    for (uint32_t p = 0; p < parts; p++) task(arg, p, 0);
}

/* A GPU line for each worker count: the device's workers pick the GPU's
 * line as they pick the CPU's (the most at or below its own), so that a
 * GPU slower beside one worker's long calls than beside four's short
 * ones is priced so; a GPU line of 0 workers serves them all. */
static void check_model_workers(void)
{
    const edml_board keep = board;
    static edml_cost_term lines[4];
    lines[0] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[1] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 1, 90, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[2] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 4, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[3] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 0, 70, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    board.cost_model = lines;
    static const struct {
        uint32_t workers, lines;
        const char *want;
    } cases[4] = {{1, 3, "neon: model: neon 0.050 ms, gles 0.090 ms (host memory, 1 worker)"},
                  {4, 3, "gles: model: neon 0.050 ms, gles 0.020 ms (host memory, 4 workers)"},
                  {8, 3, "gles: model: neon 0.050 ms, gles 0.020 ms (host memory, 8 workers)"},
                  {4, 4, "gles: model: neon 0.050 ms, gles 0.020 ms (host memory, 4 workers)"}};
    for (int k = 0; k < 4; k++) {
        board.cost_model_terms = cases[k].lines;
        tl_device d;
        edml_device_desc dd = {0};
        dd.board = &board, dd.log = log_fn;
        dd.workers = cases[k].workers, dd.parallel_for = serial_for;
        CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
        char why[300];
        topk_placed(d.dev, 1, 1, why, sizeof why);
        CHECK(strstr(why, cases[k].want), "model, GPU line of %u workers: %s", cases[k].workers, why);
        tl_device_free(&d);
    }
    lines[1].workers = lines[2].workers = 9; /* none at or below: 0's */
    board.cost_model_terms = 4;
    tl_device d;
    make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    char why[300];
    topk_placed(d.dev, 1, 1, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.050 ms, gles 0.070 ms"), "model, a GPU line of 0 workers: %s", why);
    tl_device_free(&d);
    board = keep;
}

/* The figures a model weighs apart from size: ElementWiseIf's innermost
 * runs (a broadcast along the last dim cuts 768 elements into 256 runs of
 * 3) and FLOAT16 inputs, each priced on the CPU's line alone. */
static void check_model_figures(void)
{
    tl_device d;
    const edml_board keep = board;
    static edml_cost_term lines[2];
    lines[0] = (edml_cost_term){EDML_COST_ELEMENT_WISE_IF,
                                EDML_BACKEND_NEON,
                                EDML_COST_HOST_MEMORY,
                                1,
                                1,
                                0,
                                0,
                                1e6f /* 1 us a run */,
                                1e5f /* 0.1 us a half */,
                                0,
                                0,
                                0,
                                0,
                                0,
                                {0}};
    lines[1] = (edml_cost_term){
        EDML_COST_ELEMENT_WISE_IF, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    board.cost_model = lines, board.cost_model_terms = 2;
    edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    char why[300];
    if_placed(dev, EDML_TENSOR_DATA_TYPE_FLOAT32, false, why, sizeof why); /* 1 run */
    CHECK(strstr(why, "neon: model: neon 0.002 ms, gles 0.100 ms"), "model, one run: %s", why);
    if_placed(dev, EDML_TENSOR_DATA_TYPE_FLOAT32, true, why, sizeof why); /* 256 runs */
    CHECK(strstr(why, "gles: model: neon 0.257 ms, gles 0.100 ms"), "model, 256 runs of 3: %s", why);
    if_placed(dev, EDML_TENSOR_DATA_TYPE_FLOAT16, false, why, sizeof why); /* 1 run, 1536 halves */
    CHECK(strstr(why, "gles: model: neon 0.155 ms, gles 0.100 ms"), "model, FLOAT16: %s", why);
    tl_device_free(&d);
    board = keep;
}

/* TopK of 4 along the rows of a FLOAT32 [rows, cols], placed by AUTO on
 * dev: what the placement says. */
static void topk_rows_placed(edml_device *dev, UINT rows, UINT cols, char *why, size_t cap)
{
    UINT sizes[2] = {rows, cols}, out[2] = {rows, 4};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, sizes, NULL, 4ull * rows * cols, 0};
    EDML_BUFFER_TENSOR_DESC vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, 0, 2, out, NULL, 16ull * rows, 0};
    EDML_BUFFER_TENSOR_DESC xb = {EDML_TENSOR_DATA_TYPE_UINT32, 0, 2, out, NULL, 16ull * rows, 0};
    EDML_TENSOR_DESC i = {EDML_TENSOR_TYPE_BUFFER, &ib}, v = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     x = {EDML_TENSOR_TYPE_BUFFER, &xb};
    EDML_TOP_K1_OPERATOR_DESC d = {&i, &v, &x, 1, 4, EDML_AXIS_DIRECTION_DECREASING};
    EDML_OPERATOR_DESC od = {EDML_OPERATOR_TOP_K1, &d};
    auto_placed(dev, &od, why, cap);
}

/* The model prices the path each side's plan runs, in the parts it runs
 * in: on a device of 4 workers, TopK along 1 row of 1024 is NEON's "rows"
 * path in 1 part (4 KiB: too little to split), priced by that path's
 * 1-worker line over the family's path-0 line; along 8 rows of 8192 (256
 * KiB) the same path in 4 parts, by its 4-worker line; down columns a path
 * with no line of its own, by the path-0 line. */
static void check_model_paths(void)
{
    const edml_board keep = board;
    static edml_cost_term lines[6];
    const uint8_t rows = EDMLI_COST_PATH_NEON_TOPK_ROWS;
    lines[0] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[1] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 1, 10, 0, 0, 0, 0, 0, 0, 0, rows, 0, {0}};
    lines[2] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_NEON, EDML_COST_HOST_MEMORY, 4, 2, 0, 0, 0, 0, 0, 0, 0, rows, 0, {0}};
    lines[3] = (edml_cost_term){
        EDML_COST_TOPK, EDML_BACKEND_GLES, EDML_COST_HOST_MEMORY, 0, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    lines[4] = lines[1], lines[4].elem_bytes = 8, lines[4].fixed_us = 1; /* INT64's, FLOAT64's: not FLOAT32's */
    lines[5] = lines[1], lines[5].elem_bytes = 4, lines[5].fixed_us = 7; /* 32-bit elements' */
    board.cost_model = lines, board.cost_model_terms = 5;
    tl_device d;
    edml_device_desc dd = {0};
    dd.board = &board, dd.log = log_fn, dd.workers = 4, dd.parallel_for = serial_for;
    CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
    char why[300];
    topk_placed(d.dev, 1, 1, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.010 ms, gles 0.030 ms (host memory, 4 workers); neon rows in 1 part"),
          "model, a path's line, 1 part: %s", why);
    topk_rows_placed(d.dev, 8, 8192, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.002 ms, gles 0.030 ms (host memory, 4 workers); neon rows in 4 parts"),
          "model, a path's line, 4 parts: %s", why);
    topk_placed(d.dev, 16, 0, why, sizeof why);
    CHECK(strstr(why, "gles: model: neon 0.050 ms, gles 0.030 ms (host memory, 4 workers); neon down columns in 1 "
                      "part"),
          "model, a path without a line: %s", why);
    tl_device_free(&d);
    board.cost_model_terms = 6; /* a line of the path for its elements' bytes, over the path's for any */
    CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
    topk_placed(d.dev, 1, 1, why, sizeof why);
    CHECK(strstr(why, "neon: model: neon 0.007 ms, gles 0.030 ms"), "model, 4-byte elements' line: %s", why);
    lines[5].us_per_mkept = 1e6f; /* 1 us a candidate kept: 16 rows of 64, K = 4, keep 64 */
    topk_placed(d.dev, 16, 1, why, sizeof why);
    CHECK(strstr(why, "gles: model: neon 0.071 ms, gles 0.030 ms"), "model, candidates kept: %s", why);
    tl_device_free(&d);
    board = keep;
}

/* A line's path is its family's and backend's or 0, its reserved bytes 0:
 * edml_cost_model_write() refuses others naming the line and member; a
 * blob of the format before paths ("edmlcm3") is refused, said so. */
static void check_model_format(void)
{
    static uint8_t blob[EDML_COST_MODEL_BYTES(16)];
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    const uint32_t n = model_of(1, 1000, 1, 1000);
    static const struct {
        uint8_t path, elem, reserved;
        const char *said;
    } bad[5] = {{EDMLI_COST_PATH_GLES_TOPK_SELECT, 0, 0, "terms[0].path is no kernel path"}, /* line 0: NEON's */
                {EDMLI_COST_PATH_COUNT, 0, 0, "terms[0].path is no kernel path"},
                {0, 3, 0, "terms[0].elem_bytes is not 0, 1, 2, 4 or 8"},
                {0, 16, 0, "terms[0].elem_bytes is not 0, 1, 2, 4 or 8"},
                {0, 0, 1, "terms[0].reserved is not 0"}};
    for (int k = 0; k < 5; k++) {
        const edml_cost_term keep = model[0];
        model[0].path = bad[k].path, model[0].elem_bytes = bad[k].elem, model[0].reserved[1] = bad[k].reserved;
        memset(blob, 0xee, sizeof blob);
        CHECK(edml_cost_model_write(dev, model, n, blob, sizeof blob) == 0 &&
                  strstr(edml_device_last_error(dev), bad[k].said) && blob[0] == 0xee,
              "a line with path %u, elem_bytes %u, reserved %u: %s", bad[k].path, bad[k].elem, bad[k].reserved,
              edml_device_last_error(dev));
        model[0] = keep;
    }
    CHECK(edml_cost_model_write(dev, model, n, blob, sizeof blob) == EDML_COST_MODEL_BYTES(n), "a good blob");
    tl_device_free(&d);
    memcpy(blob, "edmlcm3", 8);
    edml_device_desc dd = {0};
    dd.board = &board, dd.log = log_fn, dd.cost_model = blob, dd.cost_model_bytes = sizeof blob;
    last_log[0] = 0;
    CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
    CHECK(strstr(last_log, "cost model: not used: its format is an older edml's"), "an old blob: %s", last_log);
    tl_device_free(&d);
}

/* Sample 0 measured with both sides timed alike (EDML_FAULT_SLOW_CPU and
 * _GPU: every run 50 ms, a tie) under the board's model of `terms` lines:
 * the call is too close, so it runs on `want` (NULL: where a device placing
 * by the board's thresholds puts it) and says whose choice that is. */
static void check_tie(uint32_t terms, const edml_backend *want, const char *words)
{
    tl_device d;
    board.cost_model = model, board.cost_model_terms = terms;
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    edml_backend expect = want ? *want : EDML_BACKEND_REF;
    if (!want) { /* the thresholds' choice */
        make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "tie: create");
        expect = op ? edml_operator_backend(op) : expect;
        tl_device_free(&d);
    }
    make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_CPU | EDML_FAULT_SLOW_GPU, NULL, 0);
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "tie: create");
    if (op) measure(d.dev, &c, op, "in a tie");
    char why[300] = "";
    if (op) edml_operator_placement(op, why, sizeof why);
    CHECK(op && edml_operator_backend(op) == expect && strstr(why, words), "a tie, %u model lines: on %s, want %s: %s",
          (unsigned)terms, op ? edml_backend_name(edml_operator_backend(op)) : "-", edml_backend_name(expect), why);
    ops_free(&c);
    tl_device_free(&d);
}

/* AUTO by a cost model: the board's lines or a blob the device was given
 * (one made for another board, or damaged, is not used, and said); per kind
 * of bindings; predictions within 5% take the thresholds' choice; a
 * software GPU the board bars stays barred; measuring refines the model,
 * and a measured tie keeps the model's clear choice. */
static void check_model(void)
{
    tl_device d;
    const edml_board keep = board;
    board.cost_model = model, board.cost_model_terms = model_of(1000, 1, 1, 1000);
    make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    model_run(d.dev, EDML_BACKEND_GLES, "gles: model: neon 1.000 ms, gles 0.001 ms (host memory, 1 worker)",
              EDML_BACKEND_NEON, "neon: model: neon 0.001 ms, gles 1.000 ms (GPU buffers, 1 worker)");
    tl_device_free(&d);
    make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, NULL, 0); /* measured, a slowed GPU loses */
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "model, measured: create");
    char why[300];
    CHECK(op && strstr(edml_operator_placement(op, why, sizeof why), "gles: model: neon 1.000 ms"),
          "model, until measured: %s", why);
    if (op) measure(d.dev, &c, op, "over a model");
    CHECK(op && edml_operator_backend(op) == EDML_BACKEND_NEON, "model, measured: %s",
          op ? edml_operator_placement(op, why, sizeof why) : "");
    ops_free(&c);
    tl_device_free(&d);
    /* measured runs too close to call: the model's clear choice, else the thresholds' */
    const edml_backend gles = EDML_BACKEND_GLES, neon = EDML_BACKEND_NEON;
    check_tie(model_of(1000, 1, 1, 1000), &gles, "(within 5%: the model's choice)");
    check_tie(model_of(1, 1000, 1000, 1), &neon, "(within 5%: the model's choice)");
    check_tie(model_of(1000, 990, 1000, 990), NULL, "(within 5%: the thresholds' choice)");
    check_tie(0, NULL, "(within 5%: the thresholds' choice)");
    board.cost_model_terms = model_of(1000, 990, 1000, 990);
    make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    model_run(d.dev, EDML_BACKEND_GLES, "(within 5%: the thresholds' choice)", EDML_BACKEND_GLES, "within 5%");
    tl_device_free(&d);
    board.cost_model_terms = model_of(1000, 1, 1000, 1);
    board.gpu_software_ok = 0; /* a software GPU barred: the model's GPU side only on a hardware one */
    make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    if (software_gpu(d.dev))
        model_run(d.dev, EDML_BACKEND_NEON, "software GPU", EDML_BACKEND_NEON, "software GPU");
    else
        model_run(d.dev, EDML_BACKEND_GLES, "gles: model:", EDML_BACKEND_GLES, "gles: model:");
    tl_device_free(&d);
    board = keep;
    check_model_blob();
    check_model_untrusted();
    check_model_figures();
    check_model_row();
    check_model_workers();
    check_model_paths();
    check_model_format();
}

/* Memory the device owns is refused, as is a mode that does not exist. */
static void check_refused(void)
{
    tl_device d;
    d.size = edml_device_size() + 65536;
    if (posix_memalign(&d.arena, 16, d.size)) abort();
    memset(d.arena, 0, d.size);
    char why[300] = "";
    edml_device_desc dd = {0};
    dd.error_buffer = why, dd.error_buffer_bytes = sizeof why;
    dd.placement_cache = (uint8_t *)d.arena + d.size - 1024, dd.placement_cache_bytes = 4096;
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(why, "overlaps the device arena"),
          "inside the arena: %s", why);
    dd.placement_cache = cache, dd.placement_cache_bytes = CACHE_BYTES;
    dd.program_cache = cache + 1024, dd.program_cache_bytes = 1024;
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(why, "overlaps program_cache"),
          "over the program cache: %s", why);
    dd.program_cache = NULL, dd.program_cache_bytes = 0;
    dd.placement = 3;
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(why, "placement is 3"),
          "mode 3: %s", why);
    free(d.arena);
}

/* What edml_operator_placement says of operators not measured. */
static void check_said(void)
{
    tl_device d;
    char why[300];
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_device *dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    edml_operator *named = NULL, *aut = NULL;
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_NEON, &named) == EDML_STATUS_OK &&
              edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &aut) == EDML_STATUS_OK,
          "create");
    CHECK(strstr(edml_operator_placement(named, why, sizeof why), "neon: asked for by name"), "named: %s", why);
    CHECK(strstr(edml_operator_placement(aut, why, sizeof why), "gles: threshold: ") &&
              strstr(why, "at or above the board's"),
          "thresholds: %s", why);
    tl_device_free(&d);
    const edml_board keep = board;
    board.gpu_software_ok = 0;
    dev = make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0);
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &aut) == EDML_STATUS_OK, "create");
    CHECK(strstr(edml_operator_placement(aut, why, sizeof why),
                 software_gpu(dev) ? "neon: threshold: a software GPU" : "gles: threshold: "),
          "software barred (this GPU %s): %s", software_gpu(dev) ? "software" : "hardware", why);
    board = keep;
    tl_device_free(&d);
    CHECK(strstr(edml_operator_placement(NULL, why, sizeof why),
                 "EDML_STATUS_INVALID_ARGUMENT: the operator (op) is NULL"),
          "NULL: %s", why);
    ops_free(&c);
}

/* A board that keeps a software GPU from work (gpu_software_ok 0) keeps
 * every AUTO operator off llvmpipe however AUTO decides: measured (even
 * with the CPU's runs made 50 ms slower) and saved (a cache whose decision
 * for it is the GPU's) alike. Skips where the GPU is not a software one. */
static void check_software_barred(void)
{
    tl_device d;
    char info[300], why[300];
    const edml_board keep = board;
    fill_cache(cache, CACHE_BYTES, &keep); /* a decision for sample 0, made with software allowed */
    board.gpu_software_ok = 0;
    const uint32_t modes[2] = {EDML_PLACEMENT_MEASURE, EDML_PLACEMENT_SAVED};
    for (int m = 0; m < 2; m++) {
        edml_device *dev = make(&d, modes[m], EDML_FAULT_SLOW_CPU, cache, CACHE_BYTES);
        if (!dev || !strstr(edml_device_gles_info(dev, info, sizeof info), "llvmpipe")) {
            printf("placement: not a software GPU here: gpu_software_ok not tested\n");
            tl_device_free(&d);
            break;
        }
        ops_case c;
        ops_make_on(&c, 0, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
        for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS + 2; k++) ops_execute(&c, op, NULL);
        CHECK(op && edml_operator_backend(op) != EDML_BACKEND_GLES &&
                  strstr(edml_operator_placement(op, why, sizeof why), "gpu_software_ok keeps from work"),
              "mode %u: a software GPU barred by the board: %s", modes[m], why);
        ops_free(&c);
        tl_device_free(&d);
    }
    board = keep;
}

/* edml.h's examples of edml_operator_placement(), read from the header
 * (the quoted strings of its comment, lines joined), each one a string an
 * operator here wrote, figures aside; then the thresholds' and a named
 * operator's words, from operators made for them. */
static void check_header_examples(void)
{
    tl_device d;
    ops_case c;
    char why[300], text[2048] = "", line[256];
    edml_operator *op = NULL;
    const edml_board keep = board;
    board = *edml_board_builtin(); /* its thresholds, a software GPU allowed */
    board.gpu_software_ok = 1;
    board.cost_model = NULL, board.cost_model_terms = 0; /* the thresholds alone */
    CHECK(make(&d, EDML_PLACEMENT_THRESHOLDS, 0, NULL, 0) != NULL, "device");
    board = keep;
    ops_make_type(&c, EDML_OPERATOR_ARGMIN);
    if (edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK)
        keep_said(edml_operator_placement(op, why, sizeof why)), edml_operator_destroy(op);
    if (edml_operator_create(d.dev, &c.desc, EDML_BACKEND_NEON, &op) == EDML_STATUS_OK)
        keep_said(edml_operator_placement(op, why, sizeof why)), edml_operator_destroy(op);
    ops_free(&c);
    tl_device_free(&d);
    FILE *f = fopen("include/edml.h", "r");
    CHECK(f != NULL, "include/edml.h (run from the project's root)");
    bool in = false;
    while (f && fgets(line, sizeof line, f) && !(in && strstr(line, "*/"))) {
        in = in || strstr(line, "Why the operator runs where it does");
        const char *body = strstr(line, "*  ") ? strstr(line, "*  ") + 3 : line;
        if (in && strlen(text) + strlen(body) + 2 < sizeof text) strcat(strcat(text, " "), body);
    }
    if (f) fclose(f);
    for (char *p = text; (p = strchr(p, '\n'));) memmove(p, p + 1, strlen(p));
    int examples = 0;
    for (char *q = strchr(text, '"'); q && strchr(q + 1, '"'); q = strchr(strchr(q + 1, '"') + 1, '"')) {
        char ex[300], norm[300];
        const size_t n = (size_t)(strchr(q + 1, '"') - q - 1);
        snprintf(ex, sizeof ex, "%.*s", (int)n, q + 1);
        for (char *p = ex; (p = strstr(p, "  "));) memmove(p, p + 1, strlen(p)); /* a line's break */
        normalize(norm, sizeof norm, ex);
        bool found = false;
        for (int k = 0; k < nsaid && !found; k++) found = !strcmp(said[k], norm);
        CHECK(found, "edml.h's example \"%s\" is not what the code writes", ex);
        examples++;
    }
    CHECK(examples == 5, "edml.h's examples of edml_operator_placement(): %d found", examples);
}

int main(void)
{
    if (!placement_setup("placement")) return 1;
    check_measured_all(0);
    check_measured_all(EDML_FAULT_SLOW_GPU);
    check_slow(EDML_FAULT_SLOW_CPU, EDML_BACKEND_GLES);
    check_slow(EDML_FAULT_SLOW_GPU, EDML_BACKEND_NEON);
    check_gpu_kind();
    check_list_measured();
    check_model();
    check_refused();
    check_said();
    check_software_barred();
    check_header_examples();
    return tl_summary("placement");
}
