/* What the measured-placement tests share (test/placement.c,
 * test/placement_cache.c): a board whose thresholds send every operator
 * to the GPU, a device made with a placement mode, faults and a placement
 * cache, the log's last line and what it said, the placement strings the
 * operators wrote, GPU bindings, and measuring an operator to the end. */
#ifndef EDML_TEST_PLACEMENT_H
#define EDML_TEST_PLACEMENT_H
#include "ops.h"

#define CACHE_BYTES 4096u

static edml_board board;

/* Placement strings the operators here wrote, their figures as '#': each
 * of edml.h's examples must be one of them. */
static char said[16][300];
static int nsaid;
static inline void normalize(char *out, size_t cap, const char *in)
{
    size_t n = 0;
    for (; *in && n + 1 < cap; in++)
        if (*in < '0' || *in > '9' || n == 0 || out[n - 1] != '#') out[n++] = (*in >= '0' && *in <= '9') ? '#' : *in;
    out[n] = '\0';
}
static inline void keep_said(const char *s)
{
    if (nsaid < 16) normalize(said[nsaid++], sizeof said[0], s);
}
static uint8_t cache[CACHE_BYTES + 64];
static char last_log[512];

static int too_small_said; /* log lines that said a cache was too small to use */
static int let_go_said;    /* log lines that said another device holds the cache now */
static inline void log_fn(void *user, edml_status s, const char *m)
{
    (void)user, (void)s;
    snprintf(last_log, sizeof last_log, "%s", m);
    too_small_said += strstr(m, "not used:") && strstr(m, "_bytes") ? 1 : 0;
    let_go_said += strstr(m, "placement cache: let go") ? 1 : 0;
}

static edml_device *make(tl_device *d, uint32_t placement, uint32_t faults, void *pc, size_t pc_bytes)
{
    edml_device_desc dd = {0};
    dd.board = &board;
    dd.placement = placement;
    dd.inject_faults = faults;
    dd.placement_cache = pc;
    dd.placement_cache_bytes = pc_bytes;
    dd.log = log_fn;
    CHECK(tl_device_create(d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device: %s", last_log);
    return d->dev;
}

/* Whether the device's GPU is a software one (as the library judges it:
 * llvmpipe, softpipe, SwiftShader): what a board with gpu_software_ok 0
 * keeps from work, and so what the checks of such a board expect. */
static inline bool software_gpu(edml_device *dev)
{
    char info[300];
    edml_device_gles_info(dev, info, sizeof info);
    return strstr(info, "llvmpipe") || strstr(info, "softpipe") || strstr(info, "SwiftShader");
}

/* A case's tensors in GPU buffers of dev (its inputs written there), and
 * the bindings of them; gpu_unbind destroys the buffers. */
static inline void gpu_bindings(edml_device *dev, const ops_case *c, edml_gpu_buffer **g, EDML_BUFFER_BINDING *in,
                                EDML_BUFFER_BINDING *out)
{
    for (int i = 0; i < c->nin + c->nout; i++) {
        const tl_tensor *t = i < c->nin ? &c->in[i] : &c->out[i - c->nin];
        CHECK(edml_gpu_buffer_create(dev, t->total, &g[i]) == EDML_STATUS_OK, "buffer");
        if (i < c->nin) edml_gpu_buffer_write(g[i], 0, t->buf, t->total), in[i] = edml_gpu_binding(g[i], 0, t->total);
        if (i >= c->nin) out[i - c->nin] = edml_gpu_binding(g[i], 0, t->total);
    }
}

static inline void gpu_unbind(const ops_case *c, edml_gpu_buffer **g)
{
    for (int i = c->nin + c->nout; i-- > 0;)
        if (g[i]) edml_gpu_buffer_destroy(g[i]);
}

/* Executions of an AUTO operator until measured (and two after), each
 * right; the placement said at every step. */
static inline void measure(edml_device *dev, ops_case *c, edml_operator *op, const char *what)
{
    char why[300];
    for (int k = 0; k < (int)EDML_PLACEMENT_MEASURE_RUNS + 2; k++) {
        ops_reset_outputs(c);
        CHECK(ops_execute(c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(c), "%s %s: execution %d: %s", c->name,
              what, k, edml_device_last_error(dev));
        edml_operator_placement(op, why, sizeof why);
        CHECK(strstr(why, k < (int)EDML_PLACEMENT_MEASURE_RUNS - 1 ? "measuring with host memory"
                                                                   : "measured with host memory"),
              "%s %s: %d: %s", c->name, what, k, why);
    }
}

/* The decision of sample 0 measured into `mem` (GPU made slow: NEON). */
static inline void fill_cache(uint8_t *mem, size_t bytes, const edml_board *b)
{
    tl_device d;
    const edml_board keep = board;
    board = *b;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, mem, bytes);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
    for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS; k++) ops_execute(&c, op, NULL);
    ops_free(&c);
    tl_device_free(&d);
    board = keep;
}

/* The test's board (the built-in one, every operator sent to the GPU by
 * its thresholds, a software GPU allowed, no cost model); false, said,
 * where this machine has no GLES. */
static inline bool placement_setup(const char *test)
{
    board = *edml_board_builtin();
    board.gpu_min_elements = board.gpu_min_elements_copy = board.gpu_topk_min_row = 0;
    board.gpu_software_ok = 1;
    board.cost_model = NULL, board.cost_model_terms = 0; /* the thresholds alone */
    tl_device probe;
    char info[300];
    if (tl_device_make(&probe, edml_device_size() + 4096, 0) ||
        !(edml_device_backends(probe.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) {
        printf("%s: no GLES here: %s\n", test, probe.dev ? edml_device_gles_info(probe.dev, info, sizeof info) : "");
        return false;
    }
    tl_device_free(&probe);
    return true;
}

#endif
