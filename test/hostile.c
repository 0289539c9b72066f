/* A hostile review's findings, each once a call that answered OK with a
 * wrong answer, crashed, hung or said the wrong thing, here as a check that
 * fails if it comes back: odd and oversized GPU arenas, settings the device
 * changed, AUTO's sizes, stale handles across devices of one arena, the
 * pool's sizes, nested and failing parallel-fors, the messages of refused
 * calls, GPU buffers that can never be bound. The GPU checks need GLES
 * (make test installs Mesa). */
#include "ops.h"

#include <unistd.h>

static char logged[1024];

static void log_to(void *user, edml_status s, const char *msg)
{
    (void)user;
    if (s == EDML_STATUS_OK) snprintf(logged, sizeof logged, "%s", msg);
}

/* a device as `dd` says, in an arena of its own (64 KiB after the device) */
static edml_status make_device(tl_device *d, const edml_device_desc *dd)
{
    return tl_device_create(d, edml_device_size() + (1 << 16), dd);
}

/* a device of `gpu_bytes` of GPU arena, its board given (NULL: built in) */
static bool gpu_device(tl_device *d, uint64_t gpu_bytes, const edml_board *board)
{
    edml_device_desc dd = {0};
    dd.gpu_arena_bytes = gpu_bytes;
    dd.board = board;
    dd.log = log_to;
    logged[0] = '\0';
    return make_device(d, &dd) == EDML_STATUS_OK &&
           (edml_device_backends(d->dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES));
}

/* every GLES operator sample right on a device */
static void samples_right(edml_device *dev, const char *where)
{
    for (int which = 0; which < ops_count_on(EDML_BACKEND_GLES); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        ops_reset_outputs(&c);
        edml_status s = edml_operator_create(dev, &c.desc, EDML_BACKEND_GLES, &op);
        if (!s) s = ops_execute(&c, op, NULL);
        CHECK(s == EDML_STATUS_OK || s == EDML_STATUS_INDEX_OUT_OF_RANGE, "%s, %s: %s", where, c.name,
              edml_device_last_error(dev));
        CHECK(s || ops_outputs_match(&c), "%s, %s: OK with outputs that differ from the sample's", where, c.name);
        if (op) edml_operator_destroy(op);
        ops_free(&c);
    }
}

/* an ArgMax of a row of 1024 and an ElementWiseIf of 1024 floats on the GPU */
static void staged_right(edml_device *dev, const char *where)
{
    static const UINT row[2] = {1, 1024}, one[2] = {1, 1}, axis[1] = {1};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, row, NULL, 0, 0},
                            cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 2, row, NULL, 0, 0},
                            ib = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, one, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, ct = {EDML_TENSOR_TYPE_BUFFER, &cb},
                     it = {EDML_TENSOR_TYPE_BUFFER, &ib};
    EDML_ARGMAX_OPERATOR_DESC am = {&ft, &it, 1, axis, EDML_AXIS_DIRECTION_INCREASING};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC wi = {&ct, &ft, &ft, &ft};
    const EDML_OPERATOR_DESC amd = {EDML_OPERATOR_ARGMAX, &am}, wid = {EDML_OPERATOR_ELEMENT_WISE_IF, &wi};
    static float a[1024], b[1024], out[1024];
    static uint8_t cond[1024];
    for (int i = 0; i < 1024; i++) a[i] = (float)(i % 97), b[i] = -(float)i, cond[i] = (uint8_t)(i % 3 == 0);
    a[777] = 1000.0f;
    uint32_t idx = 0;
    edml_operator *op = NULL;
    EDML_BUFFER_BINDING in[3] = {{a, 0, sizeof a}}, o = {&idx, 0, sizeof idx};
    edml_status s = edml_operator_create(dev, &amd, EDML_BACKEND_GLES, &op);
    if (!s) s = edml_operator_execute(op, in, 1, &o, 1, NULL), edml_operator_destroy(op);
    CHECK(s == EDML_STATUS_OK && idx == 777, "%s: ArgMax %u, expected 777: %s", where, idx,
          edml_device_last_error(dev));
    in[0] = (EDML_BUFFER_BINDING){cond, 0, sizeof cond}, in[1] = (EDML_BUFFER_BINDING){a, 0, sizeof a};
    in[2] = (EDML_BUFFER_BINDING){b, 0, sizeof b}, o = (EDML_BUFFER_BINDING){out, 0, sizeof out};
    s = edml_operator_create(dev, &wid, EDML_BACKEND_GLES, &op);
    if (!s) s = edml_operator_execute(op, in, 3, &o, 1, NULL), edml_operator_destroy(op);
    int wrong = 0;
    for (int i = 0; i < 1024; i++) wrong += memcmp(&out[i], cond[i] ? &a[i] : &b[i], 4) != 0;
    CHECK(s == EDML_STATUS_OK && wrong == 0, "%s: ElementWiseIf: %d of 1024 wrong: %s", where, wrong,
          edml_device_last_error(dev));
}

/* A GPU arena that is not a multiple of 4 (once: every staged tensor at an
 * odd byte, wrong answers with OK); one below the minimum; one larger than
 * the driver's storage blocks, and a workgroup that is no power of two:
 * adjusted, said at creation, and named in refusals. */
static void check_gpu_settings(void)
{
    tl_device d;
    char info[400];
    CHECK(gpu_device(&d, 1048578, NULL), "device with a GPU arena of 1048578 bytes");
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(strstr(info, "gpu_arena_bytes 1048578 rounded down to 1048576") && strstr(logged, "1048576"), "%s | %s", info,
          logged);
    samples_right(d.dev, "GPU arena of 1048578 bytes");
    staged_right(d.dev, "GPU arena of 1048578 bytes");
    tl_device_free(&d);

    CHECK(!gpu_device(&d, 100, NULL) && !d.dev, "a GPU arena of 100 bytes is refused");
    tl_device_free(&d);

    CHECK(gpu_device(&d, 1ull << 40, NULL), "device with a GPU arena of 1 TiB");
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(strstr(info, "gpu_arena_bytes 1099511627776 cut to") && strstr(info, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE") &&
              strstr(logged, "cut to"),
          "%s | %s", info, logged);
    edml_gpu_buffer *b = NULL;
    CHECK(edml_gpu_buffer_create(d.dev, 1ull << 39, &b) == EDML_STATUS_ARENA_TOO_SMALL &&
              strstr(edml_device_last_error(d.dev), "driver's GL_MAX_SHADER_STORAGE_BLOCK_SIZE") &&
              strstr(edml_device_last_error(d.dev), "cannot help"),
          "%s", edml_device_last_error(d.dev));
    CHECK(edml_gpu_buffer_create(d.dev, 0, &b) == EDML_STATUS_INVALID_ARGUMENT && !b &&
              strstr(edml_device_last_error(d.dev), "bytes is 0"),
          "a GPU buffer of 0 bytes: '%s'", edml_device_last_error(d.dev));
    samples_right(d.dev, "GPU arena cut to the driver's limit");
    staged_right(d.dev, "GPU arena cut to the driver's limit");
    tl_device_free(&d);

    edml_board board = *edml_board_builtin();
    board.gpu_workgroup = 100;
    CHECK(gpu_device(&d, 0, &board), "device with gpu_workgroup 100");
    edml_device_gles_info(d.dev, info, sizeof info);
    CHECK(strstr(info, "edml_board.gpu_workgroup 100 taken as 128") && strstr(logged, "taken as 128"), "%s | %s", info,
          logged);
    samples_right(d.dev, "gpu_workgroup 100");
    staged_right(d.dev, "gpu_workgroup 100");
    tl_device_free(&d);
}

/* AUTO's query: an operator the GPU would take, but whose staging its arena
 * cannot hold, runs on the CPU and needs no GPU arena */
static void check_query_auto(void)
{
    edml_board board = *edml_board_builtin();
    board.gpu_min_elements = board.gpu_min_elements_copy = board.gpu_topk_min_row = 0;
    board.gpu_software_ok = 1;
    board.cost_model = NULL, board.cost_model_terms = 0; /* the thresholds alone */
    tl_device d;
    CHECK(gpu_device(&d, 256, &board), "device with a GPU arena of 256 bytes");
    for (int which = 0; d.dev && which < ops_count_on(EDML_BACKEND_GLES); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_GLES);
        edml_operator_sizes sz;
        CHECK(edml_operator_query(d.dev, &c.desc, EDML_BACKEND_AUTO, &sz) == EDML_STATUS_OK, "%s", c.name);
        CHECK(sz.backend != EDML_BACKEND_GLES && sz.gpu_persistent_bytes == 0,
              "%s: AUTO on %s reports %llu bytes of GPU arena", c.name, edml_backend_name(sz.backend),
              (unsigned long long)sz.gpu_persistent_bytes);
        edml_operator *op = NULL;
        edml_arena_stats before, after;
        edml_device_arena_stats(d.dev, &before);
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
        edml_device_arena_stats(d.dev, &after);
        CHECK(after.persistent - before.persistent == sz.persistent_bytes, "%s: created with %zu bytes, query said %zu",
              c.name, after.persistent - before.persistent, sz.persistent_bytes);
        if (op) edml_operator_destroy(op);
        ops_free(&c);
    }
    tl_device_free(&d);
}

/* A handle of a destroyed device's operator, given to a new device in the
 * same arena whose operator took its place (once: generations restarted
 * with each device, so it ran the new operator with OK and destroyed it);
 * and one kept while 40 newer operators took its place in turn (once 4 bits:
 * the 16th was taken for it). */
static void check_stale_across_devices(void)
{
    ops_case mn, mx;
    ops_make_type(&mn, EDML_OPERATOR_ARGMIN);
    ops_make_type(&mx, EDML_OPERATOR_ARGMAX);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, EDML_BACKEND_BIT(EDML_BACKEND_REF)) == EDML_STATUS_OK, "device 1");
    edml_operator *old = NULL, *now = NULL;
    CHECK(edml_operator_create(d.dev, &mn.desc, EDML_BACKEND_REF, &old) == EDML_STATUS_OK, "ArgMin on device 1");
    CHECK(edml_device_destroy(d.dev) == EDML_STATUS_OK, "destroy device 1");
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF);
    CHECK(edml_device_create(&dd, d.arena, d.size, &d.dev) == EDML_STATUS_OK, "device 2 in the same arena");
    CHECK(edml_operator_create(d.dev, &mx.desc, EDML_BACKEND_REF, &now) == EDML_STATUS_OK, "ArgMax on device 2");
    CHECK((uintptr_t)old >> 4 != (uintptr_t)now >> 4 || old != now, "the same handle twice");
    ops_reset_outputs(&mn);
    edml_status s = ops_execute(&mn, old, NULL);
    CHECK(s == EDML_STATUS_INVALID_HANDLE && strstr(edml_device_last_error(d.dev), "stale") &&
              ops_outputs_untouched(&mn),
          "device 1's operator on device 2: %s '%s'", edml_status_string(s), edml_device_last_error(d.dev));
    CHECK(edml_operator_destroy(old) == EDML_STATUS_INVALID_HANDLE, "device 1's operator destroyed on device 2");
    ops_reset_outputs(&mx);
    CHECK(ops_execute(&mx, now, NULL) == EDML_STATUS_OK && ops_outputs_match(&mx), "device 2's operator: %s",
          edml_device_last_error(d.dev));
    CHECK(edml_operator_destroy(now) == EDML_STATUS_OK, "destroy");
    edml_operator *first = NULL;
    CHECK(edml_operator_create(d.dev, &mn.desc, EDML_BACKEND_REF, &first) == EDML_STATUS_OK, "ArgMin");
    edml_operator_destroy(first);
    int taken = 0;
    for (int i = 0; i < 40; i++) {
        CHECK(edml_operator_create(d.dev, &mx.desc, EDML_BACKEND_REF, &now) == EDML_STATUS_OK, "ArgMax %d", i);
        ops_reset_outputs(&mn);
        taken += ops_execute(&mn, first, NULL) != EDML_STATUS_INVALID_HANDLE || !ops_outputs_untouched(&mn);
        edml_operator_destroy(now);
    }
    CHECK(taken == 0 || sizeof(void *) < 8, "a stale handle was taken for %d of 40 newer operators in its place",
          taken);
    tl_device_free(&d);
    ops_free(&mn);
    ops_free(&mx);
}

/* ---- parallel-fors ------------------------------------------------------- */

/* An ElementWiseIf of 4096 floats on NEON in many parts, checked. */
typedef struct if_job {
    float a[4096], b[4096], out[4096];
    uint8_t cond[4096];
    char message[400]; /* the execution's */
} if_job;

static edml_status if_run(edml_device *dev, if_job *j, bool *right)
{
    static const UINT sizes[1] = {4096};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0},
                            cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, ct = {EDML_TENSOR_TYPE_BUFFER, &cb};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC wi = {&ct, &ft, &ft, &ft};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ELEMENT_WISE_IF, &wi};
    for (int i = 0; i < 4096; i++)
        j->a[i] = (float)i, j->b[i] = -(float)i, j->cond[i] = (uint8_t)(i % 5 == 1), j->out[i] = 0.5f;
    edml_operator *op = NULL;
    EDML_BUFFER_BINDING in[3] = {{j->cond, 0, 4096}, {j->a, 0, sizeof j->a}, {j->b, 0, sizeof j->b}},
                        o = {j->out, 0, sizeof j->out};
    edml_status s = edml_operator_create(dev, &desc, EDML_BACKEND_NEON, &op);
    if (!s) s = edml_operator_execute(op, in, 3, &o, 1, NULL);
    snprintf(j->message, sizeof j->message, "%s", edml_device_last_error(dev));
    if (op) edml_operator_destroy(op);
    *right = true;
    for (int i = 0; i < 4096; i++) *right = *right && j->out[i] == (j->cond[i] ? j->a[i] : j->b[i]);
    return s;
}

static edml_status device_with(tl_device *d, edml_parallel_for_fn fn, void *ctx, uint32_t workers)
{
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON);
    dd.parallel_for = fn;
    dd.parallel_context = ctx;
    dd.workers = workers;
    dd.inject_faults = EDML_FAULT_SMALL_PARTS;
    return make_device(d, &dd);
}

/* parallel-fors that break the contract */
enum {
    SKIP_ONE,
    WORKER_OUT,
    PART_OUT,
    TWICE
};
static void bad_for(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    const int how = *(const int *)ctx;
    for (uint32_t p = 0; p < parts; p++) {
        if (how == SKIP_ONE && p == 1) continue;
        task(arg, how == PART_OUT && p == 2 ? parts + 3 : p, how == WORKER_OUT && p == 1 ? 4 : p % 4);
        if (how == TWICE) task(arg, p, p % 4);
    }
}

static void check_bad_parallel_fors(void)
{
    static const char *const names[4] = {"skips a part", "gives a worker out of range", "gives a part out of range",
                                         "runs every part twice"};
    static if_job j;
    for (int how = 0; how < 4; how++) {
        tl_device d;
        int ctx = how;
        CHECK(device_with(&d, bad_for, &ctx, 4) == EDML_STATUS_OK, "device");
        bool right;
        edml_status s = if_run(d.dev, &j, &right);
        if (how == TWICE)
            CHECK(s == EDML_STATUS_OK && right, "a parallel-for that %s: %s '%s'", names[how], edml_status_string(s),
                  j.message);
        else
            CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(j.message, "parallel_for ran"),
                  "a parallel-for that %s: %s, %s, '%s'", names[how], edml_status_string(s), right ? "right" : "wrong",
                  j.message);
        tl_device_free(&d);
    }
}

/* An application's work on edml's pool whose parts run operators, each on a
 * device of its own that uses the same pool (once: a deadlock). */
typedef struct nested_job {
    tl_device dev[4];
    if_job work[4];
    edml_status status[4];
    bool right[4];
} nested_job;

static void nested_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    nested_job *n = (nested_job *)arg;
    n->status[part] = if_run(n->dev[part].dev, &n->work[part], &n->right[part]);
}

static void check_nested_pool(void)
{
    const size_t bytes = edml_pool_size(4, 0);
    void *mem = NULL;
    if (!bytes || posix_memalign(&mem, 64, bytes)) abort();
    edml_pool *pool = NULL;
    CHECK(edml_pool_create(4, 0, mem, bytes, &pool) == EDML_STATUS_OK, "pool: %s", (char *)mem);
    static nested_job n;
    for (int i = 0; i < 4; i++)
        CHECK(device_with(&n.dev[i], edml_pool_parallel_for, pool, 4) == EDML_STATUS_OK, "device %d", i);
    alarm(60); /* a deadlock ends the test */
    edml_pool_parallel_for(pool, nested_part, &n, 4);
    alarm(0);
    for (int i = 0; i < 4; i++) {
        CHECK(n.status[i] == EDML_STATUS_OK && n.right[i], "part %d's operator on the pool inside the pool: %s", i,
              edml_status_string(n.status[i]));
        tl_device_free(&n.dev[i]);
    }
    edml_pool_destroy(pool);
    free(mem);
}

/* sizes that overflow, and the pool's refusals with their messages */
static void check_pool_sizes(void)
{
    CHECK(edml_pool_size(4, SIZE_MAX) == 0, "stacks of SIZE_MAX: %zu", edml_pool_size(4, SIZE_MAX));
    CHECK(edml_pool_size(4, SIZE_MAX / 3) == 0, "3 stacks of SIZE_MAX / 3: %zu", edml_pool_size(4, SIZE_MAX / 3));
    CHECK(edml_pool_size(64, SIZE_MAX / 40) == 0, "63 stacks of SIZE_MAX / 40: %zu", edml_pool_size(64, SIZE_MAX / 40));
    CHECK(edml_pool_size(65, 0) == 0, "65 workers");
    static _Alignas(64) char mem[1 << 16];
    edml_pool *pool = (edml_pool *)mem;
    struct {
        uint32_t workers;
        size_t stack;
        void *memory;
        size_t bytes;
        edml_status s;
        const char *says;
    } cases[] = {
        {4, SIZE_MAX / 3, mem, sizeof mem, EDML_STATUS_INVALID_ARGUMENT, "do not fit the address space"},
        {100, 0, mem, sizeof mem, EDML_STATUS_INVALID_ARGUMENT, "workers is 100, expected 0"},
        {4, 0, mem + 8, sizeof mem - 8, EDML_STATUS_INVALID_ARGUMENT, "aligned to 64"},
        {4, 0, mem, sizeof mem, EDML_STATUS_ARENA_TOO_SMALL, "missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memset(mem, 0, sizeof mem);
        edml_status s = edml_pool_create(cases[i].workers, cases[i].stack, cases[i].memory, cases[i].bytes, &pool);
        CHECK(s == cases[i].s && !pool && strstr((const char *)cases[i].memory, cases[i].says), "case %zu: %s '%s'", i,
              edml_status_string(s), (const char *)cases[i].memory);
    }
}

/* Calls that reach no device say why through edml_error_without_device(),
 * leaving the device's message (an earlier call's) as it was. */
static void check_messages_without_device(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ARGMIN);
    tl_device d;
    CHECK(tl_device_make(&d, 1 << 16, EDML_BACKEND_BIT(EDML_BACKEND_REF)) == EDML_STATUS_OK, "device");
    edml_operator *op = NULL;
    CHECK(edml_operator_create(d.dev, NULL, EDML_BACKEND_REF, &op) == EDML_STATUS_INVALID_ARGUMENT, "NULL desc");
    const char *earlier = edml_device_last_error(d.dev);
    CHECK(ops_execute(&c, NULL, NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              !strcmp(edml_error_without_device(), "the operator (op) is NULL"),
          "a NULL operator: '%s'", edml_error_without_device());
    CHECK(!strcmp(edml_device_last_error(d.dev), earlier), "the device's message changed: '%s'",
          edml_device_last_error(d.dev));
    CHECK(edml_gpu_buffer_destroy(NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              !strcmp(edml_error_without_device(), "the GPU buffer (buffer) is NULL"),
          "a NULL GPU buffer: '%s'", edml_error_without_device());
    CHECK(edml_command_list_submit(NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              !strcmp(edml_error_without_device(), "the command list (list) is NULL"),
          "a NULL command list: '%s'", edml_error_without_device());
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_OK, "create");
    edml_device *gone = d.dev;
    CHECK(edml_device_destroy(gone) == EDML_STATUS_OK, "destroy");
    CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_INVALID_DEVICE && strstr(edml_error_without_device(), "destroyed"),
          "an operator of a destroyed device: '%s'", edml_error_without_device());
    CHECK(edml_device_arena_stats(gone, NULL) == EDML_STATUS_INVALID_DEVICE &&
              strstr(edml_error_without_device(), "the device was destroyed"),
          "a destroyed device: '%s'", edml_error_without_device());
    edml_device *none = NULL;
    uint8_t small[64] __attribute__((aligned(16))) = {0};
    CHECK(edml_device_create(NULL, small, sizeof small, &none) == EDML_STATUS_ARENA_TOO_SMALL &&
              strstr(edml_error_without_device(), "edml_device_create refused the device"),
          "a refused device creation: '%s'", edml_error_without_device());
    d.dev = NULL;
    tl_device_free(&d);
    ops_free(&c);
}

/* A full sort of 2000 floats on the reference backend (about 16 KiB of
 * scratch), run with no temporary binding: OK and sorted. */
static edml_status sort_2000(edml_device *dev, edml_operator *op, bool *right)
{
    static float in[2000], val[2000];
    static uint32_t idx[2000];
    for (int i = 0; i < 2000; i++) in[i] = (float)((i * 7919) % 2003);
    EDML_BUFFER_BINDING bi = {in, 0, sizeof in}, bo[2] = {{val, 0, sizeof val}, {idx, 0, sizeof idx}};
    edml_status s = edml_operator_execute(op, &bi, 1, bo, 2, NULL);
    *right = true;
    for (int i = 0; i < 2000; i++)
        *right = *right && idx[i] < 2000 && val[i] == in[idx[i]] && (i == 0 || val[i] <= val[i - 1]);
    (void)dev;
    return s;
}

/* Messages as users met them: a short binding just below the device
 * arena is short, not inside it; a call that reached a device clears the
 * thread's message of one that reached none; a command list's record short
 * of scratch names edml_command_list_record. */
static void check_messages_met(void)
{
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ARGMIN);
    const size_t below = 64, arena_bytes = 1 << 17;
    uint8_t *block = aligned_alloc(16, below + arena_bytes); /* a buffer, then the arena right after it */
    if (!block || c.in[0].total <= 16) abort();
    memset(block, 0, below + arena_bytes);
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF);
    edml_device *dev = NULL;
    edml_operator *op = NULL;
    CHECK(edml_device_create(&dd, block + below, arena_bytes, &dev) == EDML_STATUS_OK &&
              edml_operator_create(dev, &c.desc, EDML_BACKEND_REF, &op) == EDML_STATUS_OK,
          "device and operator");
    EDML_BUFFER_BINDING in[1] = {{block + below - 16, 0, 16}}, out[1] = {tl_bind(&c.out[0])};
    edml_status s = edml_operator_execute(op, in, 1, out, 1, NULL);
    CHECK(s == EDML_STATUS_INVALID_BINDING && strstr(edml_device_last_error(dev), "SizeInBytes is 16") &&
              !strstr(edml_device_last_error(dev), "device arena"),
          "a short binding just below the arena: '%s'", edml_device_last_error(dev));
    CHECK(ops_execute(&c, NULL, NULL) == EDML_STATUS_INVALID_ARGUMENT && edml_error_without_device()[0],
          "a NULL operator");
    CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && !edml_error_without_device()[0],
          "a call that reached a device clears the thread's message: '%s'", edml_error_without_device());
    edml_device_destroy(dev);
    free(block);
    ops_free(&c);

    static const UINT sizes[2] = {1, 2000};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0},
                            ib = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, it = {EDML_TENSOR_TYPE_BUFFER, &ib};
    EDML_TOP_K1_OPERATOR_DESC tk = {&ft, &ft, &it, 1, 2000, EDML_AXIS_DIRECTION_DECREASING};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_TOP_K1, &tk};
    static float x[2000], v[2000];
    static uint32_t ix[2000];
    tl_device d;
    edml_command_list *l = NULL, *fill;
    CHECK(make_device(&d, &dd) == EDML_STATUS_OK && edml_operator_create(d.dev, &desc, EDML_BACKEND_REF, &op) == 0 &&
              edml_command_list_create(d.dev, 1, &l) == EDML_STATUS_OK,
          "sort and list");
    while (edml_command_list_create(d.dev, 1, &fill) == EDML_STATUS_OK) {} /* the arena full */
    EDML_BUFFER_BINDING bi = {x, 0, sizeof x}, bo[2] = {{v, 0, sizeof v}, {ix, 0, sizeof ix}};
    s = edml_command_list_record(l, op, &bi, 1, bo, 2, NULL);
    CHECK(s == EDML_STATUS_ARENA_TOO_SMALL && strstr(edml_device_last_error(d.dev), "edml_command_list_record") &&
              !strstr(edml_device_last_error(d.dev), "edml_operator_execute"),
          "a record short of scratch: '%s'", edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* With reserve_scratch an operator that does not fit fails at creation;
 * one that was created runs with the device arena full (without it, the
 * same executions fail for memory). */
static void check_reserved_scratch(uint32_t reserve)
{
    static const UINT sizes[2] = {1, 2000};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0},
                            ib = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, it = {EDML_TENSOR_TYPE_BUFFER, &ib};
    EDML_TOP_K1_OPERATOR_DESC tk = {&ft, &ft, &it, 1, 2000, EDML_AXIS_DIRECTION_DECREASING};
    const EDML_OPERATOR_DESC desc = {EDML_OPERATOR_TOP_K1, &tk};
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF);
    dd.reserve_scratch = reserve;
    tl_device d;
    CHECK(make_device(&d, &dd) == EDML_STATUS_OK, "device");
    edml_operator_sizes sz;
    CHECK(edml_operator_query(d.dev, &desc, EDML_BACKEND_REF, &sz) == EDML_STATUS_OK && sz.temporary_bytes >= 16000 &&
              (sz.persistent_bytes > sz.temporary_bytes) == (reserve != 0),
          "query: %zu persistent, %zu temporary", sz.persistent_bytes, sz.temporary_bytes);
    edml_operator *op[8] = {0};
    int n = 0;
    edml_status s = EDML_STATUS_OK;
    while (n < 8 && (s = edml_operator_create(d.dev, &desc, EDML_BACKEND_REF, &op[n])) == EDML_STATUS_OK) n++;
    CHECK(n > 0 && (!reserve || (n < 8 && s == EDML_STATUS_ARENA_TOO_SMALL)), "%d created, then %s", n,
          edml_status_string(s));
    edml_command_list *fill;
    while (edml_command_list_create(d.dev, 1, &fill) == EDML_STATUS_OK) {} /* the arena full */
    int ran = 0;
    for (int i = 0; i < n; i++) {
        bool right = false;
        ran += sort_2000(d.dev, op[i], &right) == EDML_STATUS_OK && right;
    }
    if (reserve)
        CHECK(ran == n, "reserve_scratch: %d of %d created operators ran in a full arena: %s", ran, n,
              edml_device_last_error(d.dev));
    else
        CHECK(ran == 0 && strstr(edml_device_last_error(d.dev), "scratch"),
              "without reserve_scratch %d of %d ran in a full arena: '%s'", ran, n, edml_device_last_error(d.dev));
    tl_device_free(&d);
}

/* A kernel the driver's compiler said spilled (EDML_FAULT_SPILLED: TopK's
 * per-invocation one) is kept off the GPU for AUTO, with the reason logged
 * and in edml_device_gles_info; named, GLES still runs it, right; operators
 * that do not dispatch it still go to the GPU. */
static void check_spilled_kernels(void)
{
    static const UINT in_sizes[2] = {512, 64}, out_sizes[2] = {512, 4}, red[1] = {1}, one[2] = {512, 1};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0},
                            vb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0},
                            xb = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0},
                            ab = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, one, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, vt = {EDML_TENSOR_TYPE_BUFFER, &vb},
                     xt = {EDML_TENSOR_TYPE_BUFFER, &xb}, at = {EDML_TENSOR_TYPE_BUFFER, &ab};
    EDML_TOP_K1_OPERATOR_DESC tk = {&it, &vt, &xt, 1, 4, EDML_AXIS_DIRECTION_DECREASING}; /* 512 rows of 64, K 4 */
    EDML_ARGMAX_OPERATOR_DESC am = {&it, &at, 1, red, EDML_AXIS_DIRECTION_INCREASING};
    const EDML_OPERATOR_DESC tkd = {EDML_OPERATOR_TOP_K1, &tk}, amd = {EDML_OPERATOR_ARGMAX, &am};
    edml_board board = *edml_board_builtin();
    board.gpu_min_elements = board.gpu_min_elements_copy = board.gpu_topk_min_row = 0;
    board.gpu_software_ok = 1;
    board.cost_model = NULL, board.cost_model_terms = 0; /* the thresholds alone */
    for (int spilled = 0; spilled < 2; spilled++) {
        tl_device d;
        edml_device_desc dd = {0};
        dd.board = &board;
        dd.log = log_to;
        dd.inject_faults = spilled ? EDML_FAULT_SPILLED : 0;
        CHECK(make_device(&d, &dd) == EDML_STATUS_OK, "device");
        char info[600];
        edml_operator_sizes sz;
        logged[0] = '\0';
        CHECK(edml_operator_query(d.dev, &tkd, EDML_BACKEND_AUTO, &sz) == EDML_STATUS_OK &&
                  (sz.backend == EDML_BACKEND_GLES) == !spilled &&
                  (!spilled || strstr(logged, "topk_thread_8 spilled registers")),
              "TopK on many short rows, AUTO: %s, '%s'", edml_backend_name(sz.backend), logged);
        edml_device_gles_info(d.dev, info, sizeof info);
        CHECK(!spilled == !strstr(info, "spilled: topk_thread_8 7:9"), "%s", info);
        CHECK(edml_operator_query(d.dev, &amd, EDML_BACKEND_AUTO, &sz) == EDML_STATUS_OK &&
                  sz.backend == EDML_BACKEND_GLES,
              "ArgMax, AUTO: %s", edml_backend_name(sz.backend));
        CHECK(edml_operator_query(d.dev, &tkd, EDML_BACKEND_GLES, &sz) == EDML_STATUS_OK &&
                  sz.backend == EDML_BACKEND_GLES,
              "TopK named GLES: %s", edml_device_last_error(d.dev));
        tl_device_free(&d);
    }
}

/* Every board of boards/ in every build, by name (one image on several
 * boards): the built-in one the same as edml_board_builtin(), the Pis'
 * and Jetsons' as their caps.h say (rpi3: no GPU), a device made on each,
 * an unknown name or NULL none. */
static void check_boards_named(void)
{
    const edml_board *b = edml_board_builtin(), *n = edml_board_named(b->name);
    CHECK(n && n->cpu && !strcmp(n->cpu, b->cpu) && n->has_gpu == b->has_gpu && n->cores == b->cores &&
              n->gpu_min_elements == b->gpu_min_elements && n->gpu_workgroup == b->gpu_workgroup &&
              n->cost_model_terms == b->cost_model_terms,
          "the built-in board by name: %s", b->name);
    static const char *const names[6] = {"rpi3", "rpi4", "rpi4-armhf", "rpi5", "jetson-nano", "jetson-orin"};
    for (int i = 0; i < 6; i++) {
        n = edml_board_named(names[i]);
        CHECK(n && !strcmp(n->name, names[i]) && n->cores >= 4 && n->has_gpu == (i != 0), "board %s", names[i]);
        if (!n) continue;
        edml_device_desc dd = {0};
        dd.board = n;
        tl_device d;
        CHECK(tl_device_create(&d, edml_device_size() + 4096, &dd) == EDML_STATUS_OK, "a device on %s", names[i]);
        tl_device_free(&d);
    }
    CHECK(edml_board_named("rpi2") == NULL && edml_board_named(NULL) == NULL, "an unknown board");
}

int main(void)
{
    check_spilled_kernels();
    check_reserved_scratch(0);
    check_reserved_scratch(1);
    check_messages_without_device();
    check_messages_met();
    check_pool_sizes();
    check_bad_parallel_fors();
    check_nested_pool();
    check_stale_across_devices();
    check_gpu_settings();
    check_query_auto();
    check_boards_named();
    return tl_summary("hostile");
}
