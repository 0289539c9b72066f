/* libFuzzer target: random sequences of public calls over two devices in two
 * arenas, checked against a model of what must happen. Each input is a
 * program: devices created (odd arena sizes, GPU arenas, context modes,
 * parallel-fors that run parts in reverse or random order, reserved
 * scratch) and destroyed; operators of four kinds created, run and
 * destroyed; GPU buffers written, read, copied and bound; command lists
 * recorded over shared memory (host and GPU) with read/write hazards
 * between entries, in-place ElementWiseIf, submitted and waited for; and
 * handles used after their object or device is gone. The model: a call on
 * a destroyed or foreign handle fails and writes nothing; any other call
 * either succeeds with outputs equal to the reference backend's (run on a
 * device of its own, entry by entry for a list) or fails with a status and
 * writes nothing (a failed list: the entries before the failing one wrote
 * theirs, it and those after it nothing). Devices also take a program
 * cache (one blob shared by both devices, now and then a byte of it
 * flipped, or moved, or inside the device arena: refused), limits
 * profiles and faults (slow builds, skipped and dropped dispatches: an
 * operator named for GLES may then fail, writing nothing, AUTO never);
 * operators are queried (the sizes creation then takes); GPU buffers are
 * mapped, written through the mapping and read back, an execution run
 * while a mapping is held (BUSY where it is not persistent); and two
 * executions run at once on two threads (BUSY on one device). No crash,
 * hang or sanitizer report. Buffers are exactly as large as their
 * tensors, so AddressSanitizer sees any access outside them. */
#include "edml.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0xA5
#define WORLD_BYTES 8192u /* a list's shared memory: host, and a GPU buffer's */
#define MAX_TMPL 6
#define MAX_OPS 12
#define MAX_BUFS 6
#define MAX_ENTRIES 8

static void fail(const char *what, int line, const char *detail)
{
    fprintf(stderr, "fuzz_api:%d: %s: %s\n", line, what, detail ? detail : "");
    abort();
}
#define MUST(cond, detail)                          \
    do {                                            \
        if (!(cond)) fail(#cond, __LINE__, detail); \
    } while (0)
/* A GPU call on a device whose dispatches a fault dropped: it failed, or
 * GLES had already left the device (unavailable since). */
#define GONE(s, dropped) ((dropped) && ((s) == EDML_STATUS_BACKEND_FAILED || (s) == EDML_STATUS_BACKEND_UNAVAILABLE))

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint32_t take(reader *r, uint32_t bound)
{
    uint32_t v = 0;
    for (int i = 0; i < 2; i++) {
        v <<= 8;
        if (r->n) v |= *r->p++, r->n--;
    }
    return bound ? v % bound : v;
}

/* ---- operator templates ------------------------------------------------------ */

enum {
    K_ARGMAX,
    K_TOPK,
    K_IF,
    K_GATHER,
    K_COUNT
};

typedef struct tensor {
    EDML_TENSOR_DATA_TYPE dt;
    UINT sizes[2];
    UINT rank;
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
    uint32_t bytes;
} tensor;

typedef struct tmpl {
    int kind;
    int nin, nout;
    tensor t[5]; /* inputs, then outputs */
    UINT axis[1];
    union {
        EDML_ARGMAX_OPERATOR_DESC argmax;
        EDML_TOP_K1_OPERATOR_DESC topk;
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC wif;
        EDML_GATHER_ND1_OPERATOR_DESC gather;
    } u;
    EDML_OPERATOR_DESC desc;
    edml_operator *model; /* on the model's device */
} tmpl;

static void tensor_set(tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, UINT s0, UINT s1)
{
    t->dt = dt;
    t->rank = rank;
    t->sizes[0] = s0;
    t->sizes[1] = s1;
    t->b = (EDML_BUFFER_TENSOR_DESC){dt, EDML_TENSOR_FLAG_NONE, rank, t->sizes, NULL, 0, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    t->bytes = (uint32_t)edml_calc_buffer_tensor_size(dt, rank, t->sizes, NULL);
}

static UINT dim(reader *r, UINT most) { return take(r, 8) == 0 ? 1 + take(r, most * 8) : 1 + take(r, most); }

static void tmpl_make(tmpl *t, reader *r)
{
    memset(t, 0, sizeof *t);
    t->kind = (int)take(r, K_COUNT);
    const EDML_AXIS_DIRECTION dir = (EDML_AXIS_DIRECTION)take(r, 2);
    const EDML_TENSOR_DATA_TYPE f32 = EDML_TENSOR_DATA_TYPE_FLOAT32, u32 = EDML_TENSOR_DATA_TYPE_UINT32;
    UINT rows = dim(r, 4), cols = dim(r, 120);
    t->axis[0] = 1;
    switch (t->kind) {
    case K_ARGMAX:
        t->nin = 1, t->nout = 1;
        tensor_set(&t->t[0], f32, 2, rows, cols);
        tensor_set(&t->t[1], u32, 2, rows, 1);
        t->u.argmax = (EDML_ARGMAX_OPERATOR_DESC){&t->t[0].d, &t->t[1].d, 1, t->axis, dir};
        t->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ARGMAX, &t->u.argmax};
        break;
    case K_TOPK: {
        const UINT k = 1 + take(r, cols < 20 ? cols : 20);
        t->nin = 1, t->nout = 2;
        tensor_set(&t->t[0], f32, 2, rows, cols);
        tensor_set(&t->t[1], f32, 2, rows, k);
        tensor_set(&t->t[2], u32, 2, rows, k);
        t->u.topk = (EDML_TOP_K1_OPERATOR_DESC){&t->t[0].d, &t->t[1].d, &t->t[2].d, 1, k, dir};
        t->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_TOP_K1, &t->u.topk};
        break;
    }
    case K_IF:
        t->nin = 3, t->nout = 1;
        tensor_set(&t->t[0], EDML_TENSOR_DATA_TYPE_UINT8, 1, rows * cols, 1);
        for (int i = 1; i < 4; i++) tensor_set(&t->t[i], f32, 1, rows * cols, 1);
        t->u.wif = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&t->t[0].d, &t->t[1].d, &t->t[2].d, &t->t[3].d};
        t->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &t->u.wif};
        break;
    default: { /* GatherND1 of rows: indices [m, 1] */
        const UINT m = dim(r, 16);
        t->nin = 2, t->nout = 1;
        tensor_set(&t->t[0], f32, 2, rows, cols);
        tensor_set(&t->t[1], EDML_TENSOR_DATA_TYPE_INT32, 2, m, 1);
        tensor_set(&t->t[2], f32, 2, m, cols);
        t->u.gather = (EDML_GATHER_ND1_OPERATOR_DESC){&t->t[0].d, &t->t[1].d, &t->t[2].d, 2, 2, 0};
        t->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_GATHER_ND1, &t->u.gather};
        break;
    }
    }
}

/* Data from a generator seeded by the input (the input's bytes go to the
 * program, not to kilobytes of data). */
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
    return *s;
}

/* Input data for tensor i of t: small values (ties), now and then a NaN;
 * GatherND's indices mostly in range. */
static void fill_input(const tmpl *t, int i, uint8_t *p, reader *r)
{
    const tensor *x = &t->t[i];
    const uint32_t n = x->bytes / (x->dt == EDML_TENSOR_DATA_TYPE_UINT8 ? 1u : 4u);
    uint32_t seed = take(r, 0) | 0x10000u;
    for (uint32_t e = 0; e < n; e++) {
        const uint32_t v = next(&seed) >> 8;
        if (x->dt == EDML_TENSOR_DATA_TYPE_UINT8) {
            p[e] = (uint8_t)(v & 1);
        } else if (x->dt == EDML_TENSOR_DATA_TYPE_INT32) {
            const int32_t rows = (int32_t)t->t[0].sizes[0], k = (int32_t)(v % (uint32_t)(2 * rows + 2)) - rows - 1;
            const int32_t idx = v % 61 == 0 ? k : (int32_t)(v % (uint32_t)rows);
            memcpy(p + 4 * e, &idx, 4);
        } else {
            const float f = v % 97 == 0 ? __builtin_nanf("") : (float)(int)(v % 9) - 4.0f;
            memcpy(p + 4 * e, &f, 4);
        }
    }
    for (uint32_t b = n * (x->dt == EDML_TENSOR_DATA_TYPE_UINT8 ? 1u : 4u); b < x->bytes; b++) p[b] = 0;
}

/* ---- the world: devices, objects, the model ----------------------------------- */

typedef struct dev_slot {
    edml_device *dev; /* as created (kept after destroy: a dead handle) */
    bool live, gles;
    uint8_t *arena;
    size_t size;
    uint32_t order_seed; /* the parallel-for's part order */
    int order;           /* 0 none, 1 reverse, 2 shuffled */
    uint32_t workers;
    bool dropped;    /* EDML_FAULT_DROPPED_DISPATCH: GLES may fail from a submission on, and go */
    bool persistent; /* the GPU arena mapped persistently: a mapping holds nothing back */
    /* its placement's memory (placement_choose), valid while it lives */
    edml_cost_term lines[8];
    edml_board board;
    uint8_t model_blob[EDML_COST_MODEL_BYTES(8)];
    uint8_t place_blob[EDML_PLACEMENT_CACHE_BYTES(32)];
} dev_slot;

typedef struct op_slot op_slot;

struct op_slot {
    edml_operator *h;
    int dev, tmpl;
    bool live;
    edml_backend asked; /* the backend it was created with */
};

typedef struct buf_slot {
    edml_gpu_buffer *h;
    int dev;
    bool live;
    uint64_t bytes;
} buf_slot;

typedef struct world {
    dev_slot d[2];
    tmpl t[MAX_TMPL];
    int ntmpl;
    op_slot op[MAX_OPS];
    int nops;
    buf_slot buf[MAX_BUFS];
    int nbufs;
} world;

static edml_device *model_dev;
static uint8_t *model_arena;

/* parallel-fors that run every part once, on the calling thread, in reverse
 * or shuffled order, with workers spread below the device's count */
static void odd_order_for(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    dev_slot *d = (dev_slot *)ctx;
    uint32_t order[64], s = d->order_seed | 1u;
    for (uint32_t p = 0; p < parts && p < 64; p++) order[p] = d->order == 1 ? parts - 1 - p : p;
    for (uint32_t p = parts < 64 ? parts : 64; d->order == 2 && p > 1; p--) {
        s = s * 1103515245u + 12345u;
        const uint32_t j = (s >> 8) % p, x = order[p - 1];
        order[p - 1] = order[j], order[j] = x;
    }
    for (uint32_t p = 0; p < parts; p++) task(arg, p < 64 ? order[p] : p, (p * 7u) % d->workers);
}

static void model_open(void)
{
    if (model_dev) return;
    const size_t size = edml_device_size() + (4u << 20);
    model_arena = aligned_alloc(16, size);
    memset(model_arena, 0, size);
    edml_device_desc dd = {0};
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF);
    MUST(edml_device_create(&dd, model_arena, size, &model_dev) == EDML_STATUS_OK, "the model's device");
}

/* The model's operator of a template (created once an input). */
static edml_operator *model_op(tmpl *t)
{
    if (!t->model)
        MUST(edml_operator_create(model_dev, &t->desc, EDML_BACKEND_REF, &t->model) == EDML_STATUS_OK,
             edml_device_last_error(model_dev));
    return t->model;
}

/* The program cache: one blob both devices may share (each keeps its own
 * count of bytes used: entries the other wrote over must never be loaded
 * wrong), and a place to move it to. */
#define CACHE_BYTES (768u << 10)
static uint8_t cache_blob[2][CACHE_BYTES];

/* A device's cache, from bits of its seed: none; the blob; the blob with a
 * byte flipped (a flash error); the blob moved elsewhere, or memory inside
 * the device arena (refused: returns true). */
static bool cache_choose(edml_device_desc *dd, const dev_slot *d, uint32_t seed)
{
    const uint32_t mode = (seed >> 4) & 3, size = (seed >> 13) & 1 ? 4096u : CACHE_BYTES;
    if (mode == 0) return false;
    dd->program_cache = cache_blob[0], dd->program_cache_bytes = size;
    if (mode == 2) cache_blob[0][(seed * 2654435761u) % 8192u] ^= (uint8_t)(1u << (seed & 7));
    if (mode != 3) return false;
    if ((seed >> 12) & 1) { /* inside the arena */
        dd->program_cache = d->arena + edml_device_size() / 2, dd->program_cache_bytes = 4096;
        return true;
    }
    memcpy(cache_blob[1], cache_blob[0], CACHE_BYTES);
    dd->program_cache = cache_blob[1];
    return false;
}

/* A device's faults and limits, from bits of its seed: mostly none; a slow
 * build; GatherND's dispatch skipped; the dispatches of one submission
 * dropped; a small GPU's limits. */
static uint32_t fault_choose(edml_device_desc *dd, dev_slot *d, uint32_t seed)
{
    static const uint32_t limits[4] = {EDML_FAULT_LIMITS_V3D, EDML_FAULT_LIMITS_MALI, EDML_FAULT_LIMITS_ADRENO,
                                       EDML_FAULT_LIMITS_GLES31};
    const uint32_t kind = (seed >> 6) & 7, arg = (seed >> 9) & 7;
    dd->inject_fault_at = 1 + arg;
    d->dropped = kind == 6;
    return kind == 4   ? EDML_FAULT_SLOW_COMPILE
           : kind == 5 ? EDML_FAULT_SKIPPED_DISPATCH
           : kind == 6 ? EDML_FAULT_DROPPED_DISPATCH
           : kind == 7 ? limits[arg & 3]
                       : 0u;
}

/* A cost model's 8 lines from a seed: every family and both backends,
 * figures drawn from it, one of them (where `odd` says) a NaN, an
 * infinity, a negative or -0. Returns whether a figure is bad. */
static bool model_lines_of(edml_cost_term lines[8], uint32_t seed, bool odd)
{
    uint32_t nan_bits = 0x7fc00000u, inf_bits = 0x7f800000u;
    float oddity[4] = {-1.0f, 0, 0, -0.0f};
    memcpy(&oddity[1], &inf_bits, 4), memcpy(&oddity[2], &nan_bits, 4);
    for (uint32_t i = 0; i < 8; i++) {
        const uint32_t h = (seed ^ i * 0x9E3779B1u) * 2654435761u;
        lines[i] = (edml_cost_term){(uint8_t)(i & 3),
                                    i & 4 ? EDML_BACKEND_GLES : EDML_BACKEND_NEON,
                                    (uint8_t)(h % 3),
                                    (uint8_t)(h >> 8 & 3),
                                    (float)(h & 1023),
                                    (float)(h >> 10 & 255),
                                    (float)(h >> 18 & 7),
                                    (float)(h >> 21 & 1023),
                                    0,
                                    (float)(h >> 24 & 15),
                                    (float)(h >> 28),
                                    0,
                                    0,
                                    0,
                                    {0}};
    }
    if (!odd) return false;
    const uint32_t which = seed >> 26 & 3;
    lines[seed >> 23 & 7].us_per_mib = oddity[which];
    return which != 3;
}

/* A device's placement, from bits of its seed: its mode (3: no such mode,
 * refused); a placement cache (none, the slot's, with a byte flipped, or
 * room for one decision); a cost model (none; a blob the model's device
 * wrote, maybe with a byte flipped, which a bad figure keeps from being
 * written; or a board's compiled-in lines, refused with a bad figure).
 * Returns whether creation must be refused. */
static bool placement_choose(edml_device_desc *dd, dev_slot *d, uint32_t seed)
{
    const uint32_t mode = (seed >> 16) & 3, cache = (seed >> 18) & 3, model = (seed >> 20) & 7;
    dd->placement = mode;
    if (cache) dd->placement_cache = d->place_blob, dd->placement_cache_bytes = cache == 3 ? 72 : sizeof d->place_blob;
    if (cache == 2) d->place_blob[(seed * 2654435761u) % sizeof d->place_blob] ^= (uint8_t)(1u << (seed & 7));
    if (!model) return mode == 3;
    const bool bad = model_lines_of(d->lines, seed, model >= 4);
    if (model & 1) {
        const size_t n = edml_cost_model_write(model_dev, d->lines, 8, d->model_blob, sizeof d->model_blob);
        MUST(bad ? n == 0 && strstr(edml_device_last_error(model_dev), "us_per_mib is not a finite")
                 : n == sizeof d->model_blob,
             "edml_cost_model_write");
        if (model & 2) d->model_blob[(seed * 40503u) % sizeof d->model_blob] ^= (uint8_t)(1u << (seed >> 3 & 7));
        dd->cost_model = d->model_blob, dd->cost_model_bytes = sizeof d->model_blob;
        return mode == 3;
    }
    d->board = *edml_board_builtin();
    d->board.cost_model = d->lines, d->board.cost_model_terms = 8;
    dd->board = &d->board;
    return mode == 3 || bad;
}

static void dev_create(world *w, reader *r)
{
    dev_slot *d = &w->d[take(r, 2)];
    static const size_t extra[6] = {0, 1000, 4096 + 8, 20000, 1 << 16, 1 << 18};
    edml_device_desc dd = {0};
    const uint32_t b = take(r, 8);
    dd.backends = EDML_BACKEND_BIT(EDML_BACKEND_REF) | (b & 1 ? EDML_BACKEND_BIT(EDML_BACKEND_NEON) : 0) |
                  (b >= 4 ? EDML_BACKEND_BIT(EDML_BACKEND_GLES) : 0);
    static const uint64_t gpu[4] = {0, 256, 1048578, 65536 + 4};
    dd.gpu_arena_bytes = gpu[take(r, 4)];
    dd.gles_one_thread = take(r, 2);
    dd.reserve_scratch = take(r, 2);
    dd.inject_faults = (take(r, 2) ? EDML_FAULT_SMALL_PARTS : 0) | (take(r, 2) ? EDML_FAULT_REORDER : 0);
    /* one allocation a slot for the whole input (dead handles point into
     * it), given to each device at a size of the input's choosing */
    if (!d->arena) {
        d->arena = aligned_alloc(16, edml_device_size() + (1 << 18));
        memset(d->arena, 0, edml_device_size() + (1 << 18));
    }
    if (!d->live) d->size = edml_device_size() + extra[take(r, 6)];
    const int order = (int)take(r, 3);
    const uint32_t order_seed = take(r, 0), workers = 1 + take(r, 8);
    if (!d->live) d->order = order, d->order_seed = order_seed, d->workers = workers; /* a live one's stay */
    if (order) dd.parallel_for = odd_order_for, dd.parallel_context = d, dd.workers = workers;
    /* no byte of their own, so that the corpus keeps its meaning: the seed's bits */
    dd.gpu_arena_mapped = (order_seed >> 3) & 1;
    const bool inside = cache_choose(&dd, d, order_seed);
    const bool refused = !d->live && placement_choose(&dd, d, order_seed);
    const bool dropped = d->dropped;
    dd.inject_faults |= fault_choose(&dd, d, order_seed);
    if (d->live) d->dropped = dropped; /* a live one's stay */
    edml_device *dev = NULL;
    const edml_status s = edml_device_create(&dd, d->arena, d->size, &dev);
    if (d->live) {
        MUST(s != EDML_STATUS_OK && !dev, "a second device on a live arena");
        return;
    }
    MUST(inside || refused ? s == EDML_STATUS_INVALID_ARGUMENT
                           : s == EDML_STATUS_OK || s == EDML_STATUS_ARENA_TOO_SMALL,
         edml_status_string(s));
    if (s) return;
    d->dev = dev;
    d->live = true;
    d->gles = (edml_device_backends(dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)) != 0;
    char info[600];
    d->persistent = strstr(edml_device_gles_info(dev, info, sizeof info), "mapped persistently") != NULL;
}

static void dev_destroy(world *w, reader *r)
{
    const int i = (int)take(r, 2);
    dev_slot *d = &w->d[i];
    if (!d->dev) return;
    const edml_status s = edml_device_destroy(d->dev);
    MUST((s == EDML_STATUS_OK) == d->live, edml_status_string(s));
    d->live = false;
    for (int k = 0; k < w->nops; k++)
        if (w->op[k].dev == i) w->op[k].live = false;
    for (int k = 0; k < w->nbufs; k++)
        if (w->buf[k].dev == i) w->buf[k].live = false;
}

static void op_create(world *w, reader *r)
{
    if (w->ntmpl < MAX_TMPL && (w->ntmpl == 0 || take(r, 3) == 0)) tmpl_make(&w->t[w->ntmpl++], r);
    const int ti = (int)take(r, (uint32_t)w->ntmpl), di = (int)take(r, 2);
    dev_slot *d = &w->d[di];
    if (!d->dev || w->nops == MAX_OPS) return;
    static const edml_backend backends[4] = {EDML_BACKEND_AUTO, EDML_BACKEND_REF, EDML_BACKEND_NEON, EDML_BACKEND_GLES};
    edml_operator *h = NULL;
    const edml_backend asked = backends[take(r, 4)];
    const edml_status s = edml_operator_create(d->dev, &w->t[ti].desc, asked, &h);
    if (!d->live) {
        MUST(s != EDML_STATUS_OK && !h, "an operator on a destroyed device");
        return;
    }
    MUST(s == EDML_STATUS_OK || s == EDML_STATUS_ARENA_TOO_SMALL || s == EDML_STATUS_BACKEND_UNAVAILABLE,
         edml_device_last_error(d->dev));
    if (s) return;
    w->op[w->nops++] = (op_slot){h, di, ti, true, asked};
}

static void op_destroy(world *w, reader *r)
{
    if (!w->nops) return;
    op_slot *o = &w->op[take(r, (uint32_t)w->nops)];
    const edml_status s = edml_operator_destroy(o->h);
    MUST((s == EDML_STATUS_OK) == o->live, edml_status_string(s));
    o->live = false;
}

static bool all_sentinel(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != SENTINEL) return false;
    return true;
}

/* A live GPU buffer of device di of at least `bytes`, or -1. */
static int buf_of(const world *w, int di, uint64_t bytes)
{
    for (int k = 0; k < w->nbufs; k++)
        if (w->buf[k].live && w->buf[k].dev == di && w->buf[k].bytes >= bytes) return k;
    return -1;
}

/* How an execution binds: host memory; its own temporary; its first input
 * from a GPU buffer; a dead or foreign GPU buffer; an output over an input. */
enum {
    BIND_HOST,
    BIND_TEMP,
    BIND_GPU_IN,
    BIND_DEAD_GPU,
    BIND_OVERLAP,
    BIND_COUNT
};

/* Whether the binding was one edml must refuse. */
static bool bind_inputs(world *w, const op_slot *o, int how, uint8_t **in, EDML_BUFFER_BINDING *bi)
{
    const tmpl *t = &w->t[o->tmpl];
    for (int i = 0; i < t->nin; i++) bi[i] = (EDML_BUFFER_BINDING){in[i], 0, t->t[i].bytes};
    if (how == BIND_GPU_IN) {
        const int k = buf_of(w, o->dev, t->t[0].bytes);
        if (k < 0 || edml_operator_backend(o->h) != EDML_BACKEND_GLES) return false;
        const edml_status s = edml_gpu_buffer_write(w->buf[k].h, 0, in[0], t->t[0].bytes);
        MUST(s == EDML_STATUS_OK || GONE(s, w->d[o->dev].dropped), "write");
        bi[0] = edml_gpu_binding(w->buf[k].h, 0, t->t[0].bytes);
        return false;
    }
    if (how == BIND_DEAD_GPU) {
        for (int k = 0; k < w->nbufs; k++)
            if (!w->buf[k].live || w->buf[k].dev != o->dev) {
                bi[0] = edml_gpu_binding(w->buf[k].h, 0, t->t[0].bytes);
                return true;
            }
    }
    return false;
}

/* One execution of an operator, prepared (inputs drawn, the model's
 * answer computed) so that it may run on another thread. */
typedef struct exec_run {
    const op_slot *o;
    tmpl *t;
    int how, dev;
    bool refuse, live, busy_ok; /* busy_ok: BUSY allowed (a mapping held, another thread's call) */
    uint8_t *in[3], *out[2], *want[2];
    EDML_BUFFER_BINDING bi[3], bo[2], temp;
    edml_status s, m;
} exec_run;

static void exec_prepare(world *w, reader *r, const op_slot *o, exec_run *x)
{
    memset(x, 0, sizeof *x);
    x->o = o, x->t = &w->t[o->tmpl], x->dev = o->dev;
    tmpl *t = x->t;
    x->how = (int)take(r, BIND_COUNT);
    for (int i = 0; i < t->nin; i++) x->in[i] = malloc(t->t[i].bytes), fill_input(t, i, x->in[i], r);
    for (int k = 0; k < t->nout; k++) {
        const uint32_t n = t->t[t->nin + k].bytes;
        x->out[k] = malloc(n), x->want[k] = malloc(n);
        memset(x->out[k], SENTINEL, n), memset(x->want[k], SENTINEL, n);
        x->bo[k] = (EDML_BUFFER_BINDING){x->out[k], 0, n};
    }
    x->refuse = bind_inputs(w, o, x->how, x->in, x->bi);
    if (x->how == BIND_OVERLAP && t->kind != K_IF)
        x->bo[0] = (EDML_BUFFER_BINDING){x->in[0], 0, t->t[t->nin].bytes}, x->refuse = true;
    EDML_BINDING_PROPERTIES p = {0};
    if (x->how == BIND_TEMP && o->live && edml_operator_get_binding_properties(o->h, &p) == EDML_STATUS_OK)
        x->temp = (EDML_BUFFER_BINDING){malloc(p.TemporaryResourceSize + 16), 0, p.TemporaryResourceSize};
    x->live = o->live && w->d[o->dev].live;
    EDML_BUFFER_BINDING mi[3], mo[2];
    for (int i = 0; i < t->nin; i++) mi[i] = (EDML_BUFFER_BINDING){x->in[i], 0, t->t[i].bytes};
    for (int k = 0; k < t->nout; k++) mo[k] = (EDML_BUFFER_BINDING){x->want[k], 0, t->t[t->nin + k].bytes};
    x->m = edml_operator_execute(model_op(t), mi, (UINT)t->nin, mo, (UINT)t->nout, NULL);
}

static void exec_run_it(exec_run *x)
{
    x->s = edml_operator_execute(x->o->h, x->bi, (UINT)x->t->nin, x->bo, (UINT)x->t->nout,
                                 x->temp.Buffer ? &x->temp : NULL);
}

/* The outcome against the model: right, or refused with nothing written
 * (a named GLES operator, or GPU-resident tensors, may fail on a device
 * that drops a submission; BUSY where allowed). */
static void exec_judge(world *w, exec_run *x, const char *why)
{
    const tmpl *t = x->t;
    const edml_status s = x->s;
    if (!x->live || x->refuse) MUST(s != EDML_STATUS_OK && s != EDML_STATUS_INDEX_OUT_OF_RANGE, why);
    const bool wrote = s == EDML_STATUS_OK || s == EDML_STATUS_INDEX_OUT_OF_RANGE;
    if (wrote) MUST(s == x->m, why);
    for (int k = 0; k < t->nout; k++) {
        const uint32_t n = t->t[t->nin + k].bytes;
        MUST(wrote ? !memcmp(x->out[k], x->want[k], n) : all_sentinel(x->out[k], n), why);
    }
    const bool gpu_may_fail = w->d[x->dev].dropped && (x->o->asked == EDML_BACKEND_GLES || x->how == BIND_GPU_IN);
    if (x->live && !x->refuse && !wrote)
        MUST(s == EDML_STATUS_ARENA_TOO_SMALL || s == EDML_STATUS_INVALID_BINDING || /* memory, overlaps */
                 (x->busy_ok && s == EDML_STATUS_BUSY) ||
                 (gpu_may_fail && (s == EDML_STATUS_BACKEND_FAILED || s == EDML_STATUS_BACKEND_UNAVAILABLE)),
             why);
}

static void exec_free(exec_run *x)
{
    for (int k = 0; k < x->t->nout; k++) free(x->out[k]), free(x->want[k]);
    for (int i = 0; i < x->t->nin; i++) free(x->in[i]);
    free(x->temp.Buffer);
}

static const char *exec_why(const world *w, const exec_run *x)
{
    return x->live ? edml_device_last_error(w->d[x->dev].dev) : edml_error_without_device();
}

/* Runs an operator once as the input says and checks it against the model. */
static void op_execute(world *w, reader *r)
{
    if (!w->nops) return;
    exec_run x;
    exec_prepare(w, r, &w->op[take(r, (uint32_t)w->nops)], &x);
    exec_run_it(&x);
    exec_judge(w, &x, exec_why(w, &x));
    exec_free(&x);
}

/* Two executions at once, one on another thread (a GL context of its own
 * there): each right, or BUSY where both are on one device. */
typedef struct pair_arg {
    exec_run *x;
    edml_device *dev; /* its device while live: the thread lets its GL context go before it ends */
} pair_arg;

static void *exec_thread(void *arg)
{
    pair_arg *a = (pair_arg *)arg;
    exec_run_it(a->x);
    while (a->dev && edml_device_release_thread(a->dev) == EDML_STATUS_BUSY) sched_yield();
    return NULL;
}

static void op_pair(world *w, reader *r)
{
    if (!w->nops) return;
    exec_run x[2];
    for (int k = 0; k < 2; k++) exec_prepare(w, r, &w->op[take(r, (uint32_t)w->nops)], &x[k]);
    x[0].busy_ok = x[1].busy_ok = x[0].dev == x[1].dev;
    pthread_t th;
    pair_arg a = {&x[1], w->d[x[1].dev].live ? w->d[x[1].dev].dev : NULL};
    const bool spawned = pthread_create(&th, NULL, exec_thread, &a) == 0;
    exec_run_it(&x[0]);
    if (spawned) pthread_join(th, NULL);
    if (!spawned) exec_run_it(&x[1]);
    for (int k = 0; k < 2; k++) {
        /* the other thread's message may have replaced this call's: judged by status and data */
        exec_judge(w, &x[k], edml_status_string(x[k].s));
        exec_free(&x[k]);
    }
}

/* A query, then the creation it describes: the arena grows by the bytes
 * it said, and the temporary bytes are the operator's. */
static void op_query(world *w, reader *r)
{
    if (w->ntmpl < MAX_TMPL && (w->ntmpl == 0 || take(r, 3) == 0)) tmpl_make(&w->t[w->ntmpl++], r);
    const int ti = (int)take(r, (uint32_t)w->ntmpl), di = (int)take(r, 2);
    dev_slot *d = &w->d[di];
    static const edml_backend backends[4] = {EDML_BACKEND_AUTO, EDML_BACKEND_REF, EDML_BACKEND_NEON, EDML_BACKEND_GLES};
    const edml_backend asked = backends[take(r, 4)];
    edml_operator_sizes q;
    edml_arena_stats before, after;
    if (!d->live || w->nops == MAX_OPS) return;
    if (edml_operator_query(d->dev, &w->t[ti].desc, asked, &q) != EDML_STATUS_OK) return;
    MUST(edml_device_arena_stats(d->dev, &before) == EDML_STATUS_OK, "stats");
    edml_operator *h = NULL;
    if (edml_operator_create(d->dev, &w->t[ti].desc, asked, &h) != EDML_STATUS_OK) return;
    MUST(edml_device_arena_stats(d->dev, &after) == EDML_STATUS_OK, "stats");
    EDML_BINDING_PROPERTIES p;
    MUST(edml_operator_get_binding_properties(h, &p) == EDML_STATUS_OK, "properties");
    MUST(edml_operator_backend(h) == q.backend && p.TemporaryResourceSize == q.temporary_bytes &&
             after.persistent - before.persistent >= q.persistent_bytes &&
             after.persistent - before.persistent < q.persistent_bytes + 16,
         "the query's sizes are the creation's");
    w->op[w->nops++] = (op_slot){h, di, ti, true, asked};
}

/* ---- GPU buffers ------------------------------------------------------------------ */

static void buf_create(world *w, reader *r)
{
    const int di = (int)take(r, 2);
    dev_slot *d = &w->d[di];
    if (!d->dev || w->nbufs == MAX_BUFS) return;
    const uint64_t bytes = take(r, 4) == 0 ? take(r, 3) : WORLD_BYTES;
    edml_gpu_buffer *h = NULL;
    const edml_status s = edml_gpu_buffer_create(d->dev, bytes, &h);
    if (!d->live || !bytes) {
        MUST(s != EDML_STATUS_OK && !h, "a GPU buffer of 0 bytes or on a destroyed device");
        return;
    }
    MUST(s == EDML_STATUS_OK || s == EDML_STATUS_ARENA_TOO_SMALL || s == EDML_STATUS_BACKEND_UNAVAILABLE,
         edml_device_last_error(d->dev));
    MUST(s || d->gles, "a GPU buffer on a device without GLES");
    if (!s) w->buf[w->nbufs++] = (buf_slot){h, di, true, bytes};
}

static void buf_destroy(world *w, reader *r)
{
    if (!w->nbufs) return;
    buf_slot *b = &w->buf[take(r, (uint32_t)w->nbufs)];
    const edml_status s = edml_gpu_buffer_destroy(b->h);
    MUST((s == EDML_STATUS_OK) == b->live, edml_status_string(s));
    b->live = false;
}

/* A write and a read back at random places (offsets and lengths in range or
 * not), and a copy between two buffers: data as written, or a refusal that
 * changed nothing. */
static void buf_io(world *w, reader *r)
{
    if (!w->nbufs) return;
    buf_slot *a = &w->buf[take(r, (uint32_t)w->nbufs)], *b = &w->buf[take(r, (uint32_t)w->nbufs)];
    const uint64_t off = take(r, 4) * 4, n = 4 + take(r, 256) * 4;
    uint8_t data[1028], back[1028];
    uint32_t seed = take(r, 0) | 0x10000u;
    for (uint64_t i = 0; i < n; i++) data[i] = (uint8_t)next(&seed);
    const bool fits = a->live && off + n <= a->bytes;
    edml_status s = edml_gpu_buffer_write(a->h, off, data, n);
    if (fits && GONE(s, w->d[a->dev].dropped)) return; /* GLES went off the device */
    MUST((s == EDML_STATUS_OK) == fits, edml_status_string(s));
    memset(back, SENTINEL, sizeof back);
    s = edml_gpu_buffer_read(a->h, off, back, n);
    MUST((s == EDML_STATUS_OK) == fits, edml_status_string(s));
    MUST(fits ? !memcmp(back, data, n) : all_sentinel(back, n), "read back");
    const bool same_dev = a->dev == b->dev && w->d[a->dev].live;
    const bool copy_ok = fits && b->live && same_dev && off + n <= b->bytes;
    s = edml_gpu_buffer_copy(b->h, off, a->h, off, n);
    if (copy_ok && GONE(s, w->d[a->dev].dropped)) return;
    MUST((s == EDML_STATUS_OK) == copy_ok, edml_status_string(s));
    if (!copy_ok) return;
    memset(back, SENTINEL, sizeof back);
    MUST(edml_gpu_buffer_read(b->h, off, back, n) == EDML_STATUS_OK && !memcmp(back, data, n), "copied");
}

/* A mapping (in range or not, now and then of no bytes): written through,
 * read back; now and then an execution runs while it is held (BUSY on the
 * buffer's device where the arena is not mapped persistently). */
static void buf_map(world *w, reader *r)
{
    if (!w->nbufs) return;
    buf_slot *b = &w->buf[take(r, (uint32_t)w->nbufs)];
    const dev_slot *d = &w->d[b->dev];
    const uint64_t off = take(r, 4) * 4, n = take(r, 5) == 0 ? 0 : 4 + take(r, 256) * 4;
    uint8_t data[1028], back[1028];
    uint32_t seed = take(r, 0) | 0x10000u;
    for (uint64_t i = 0; i < n; i++) data[i] = (uint8_t)next(&seed);
    void *p = (void *)1;
    edml_status s = edml_gpu_buffer_map(b->h, off, n, &p);
    const bool fits = b->live && n && off + n <= b->bytes;
    if (fits && GONE(s, d->dropped)) return;
    MUST((s == EDML_STATUS_OK) == fits && (s == EDML_STATUS_OK) == (p != NULL), edml_status_string(s));
    if (s) return;
    memcpy(p, data, n);
    if (w->nops && take(r, 2)) {
        exec_run x;
        exec_prepare(w, r, &w->op[take(r, (uint32_t)w->nops)], &x);
        x.busy_ok = x.dev == b->dev && !d->persistent;
        exec_run_it(&x);
        exec_judge(w, &x, exec_why(w, &x));
        exec_free(&x);
    }
    s = edml_gpu_buffer_unmap(b->h);
    if (GONE(s, d->dropped)) return;
    MUST(s == EDML_STATUS_OK, edml_status_string(s));
    s = edml_gpu_buffer_read(b->h, off, back, n);
    if (GONE(s, d->dropped)) return;
    MUST(s == EDML_STATUS_OK && !memcmp(back, data, n), "written through the mapping, read back");
}

/* ---- command lists over shared memory ---------------------------------------------- */

typedef struct entry {
    int op;
    uint32_t at[5]; /* each tensor's offset in its world */
    bool gpu[5];    /* in the GPU world (else the host one) */
} entry;

typedef struct list_run {
    int di, gbuf;          /* the device; the GPU world's buffer, or -1 */
    uint8_t *host, *gpu;   /* the worlds as the list left them */
    uint8_t *mhost, *mgpu; /* the model's */
    entry e[MAX_ENTRIES];
    int n;
} list_run;

/* An entry of a live operator of the list's device (or now and then any
 * operator: a dead or foreign one is refused), its tensors placed at random
 * in the worlds, ElementWiseIf's output now and then exactly on A. */
static int pick_op(const world *w, int di, reader *r)
{
    int mine[MAX_OPS], n = 0;
    for (int k = 0; k < w->nops; k++)
        if (w->op[k].live && w->op[k].dev == di) mine[n++] = k;
    return n && take(r, 8) ? mine[take(r, (uint32_t)n)] : (int)take(r, (uint32_t)w->nops);
}

static void list_entry(world *w, list_run *l, edml_command_list *list, reader *r)
{
    if (!w->nops) return;
    entry e = {.op = pick_op(w, l->di, r)};
    const op_slot *o = &w->op[e.op];
    const tmpl *t = &w->t[o->tmpl];
    const bool on_gpu = l->gbuf >= 0 && o->live && edml_operator_backend(o->h) == EDML_BACKEND_GLES;
    EDML_BUFFER_BINDING b[5];
    for (int i = 0; i < t->nin + t->nout; i++) {
        if (t->t[i].bytes > WORLD_BYTES) return;
        e.gpu[i] = on_gpu && take(r, 2);
        e.at[i] = take(r, (WORLD_BYTES - t->t[i].bytes) / 16 + 1) * 16;
        if (t->kind == K_IF && i == 3 && take(r, 3) == 0) e.gpu[3] = e.gpu[1], e.at[3] = e.at[1]; /* in place */
        b[i] = e.gpu[i] ? edml_gpu_binding(w->buf[l->gbuf].h, e.at[i], t->t[i].bytes)
                        : (EDML_BUFFER_BINDING){l->host + e.at[i], 0, t->t[i].bytes};
    }
    const edml_status s = edml_command_list_record(list, o->h, b, (UINT)t->nin, b + t->nin, (UINT)t->nout, NULL);
    const bool valid = o->live && o->dev == l->di && w->d[l->di].live;
    if (!valid) MUST(s != EDML_STATUS_OK, "a dead or foreign operator recorded");
    if (s) {
        MUST(!valid || s == EDML_STATUS_INVALID_BINDING || s == EDML_STATUS_INVALID_ARGUMENT ||
                 s == EDML_STATUS_ARENA_TOO_SMALL ||
                 (w->d[l->di].dropped && (s == EDML_STATUS_BACKEND_FAILED || s == EDML_STATUS_BACKEND_UNAVAILABLE)),
             edml_device_last_error(w->d[l->di].dev));
        return;
    }
    l->e[l->n++] = e;
}

/* The model: entries [0, upto) one by one on the reference backend over
 * the model's copies of the worlds. */
static void list_model(world *w, list_run *l, int upto)
{
    for (int k = 0; k < upto; k++) {
        const entry *e = &l->e[k];
        tmpl *t = &w->t[w->op[e->op].tmpl];
        EDML_BUFFER_BINDING b[5];
        for (int i = 0; i < t->nin + t->nout; i++)
            b[i] = (EDML_BUFFER_BINDING){(e->gpu[i] ? l->mgpu : l->mhost) + e->at[i], 0, t->t[i].bytes};
        const edml_status s = edml_operator_execute(model_op(t), b, (UINT)t->nin, b + t->nin, (UINT)t->nout, NULL);
        MUST(s == EDML_STATUS_OK || s == EDML_STATUS_INDEX_OUT_OF_RANGE, edml_device_last_error(model_dev));
    }
}

/* Submits, waits, and compares both worlds with the model's. */
static void list_check(world *w, list_run *l, edml_command_list *list)
{
    edml_status s = edml_command_list_submit(list);
    if (!s) s = edml_command_list_wait(list, UINT64_MAX);
    int upto = l->n;
    const char *why = edml_device_last_error(w->d[l->di].dev);
    unsigned failed = 0;
    if (w->d[l->di].dropped && (s == EDML_STATUS_BACKEND_FAILED || s == EDML_STATUS_BACKEND_UNAVAILABLE)) return;
    if (s && s != EDML_STATUS_INDEX_OUT_OF_RANGE) {
        const char *at = strstr(why, "command list entry ");
        MUST(at && sscanf(at, "command list entry %u", &failed) == 1 && failed < (unsigned)l->n, why);
        MUST(s == EDML_STATUS_ARENA_TOO_SMALL, why); /* the only failure a valid list may meet: memory */
        upto = (int)failed;
    }
    list_model(w, l, upto);
    MUST(!memcmp(l->host, l->mhost, WORLD_BYTES), why);
    if (l->gbuf < 0) return;
    const edml_status rs = edml_gpu_buffer_read(w->buf[l->gbuf].h, 0, l->gpu, WORLD_BYTES);
    if (GONE(rs, w->d[l->di].dropped)) return;
    MUST(rs == EDML_STATUS_OK, "GPU world");
    MUST(!memcmp(l->gpu, l->mgpu, WORLD_BYTES), why);
}

static void list_action(world *w, reader *r)
{
    list_run l = {.di = (int)take(r, 2), .gbuf = -1};
    dev_slot *d = &w->d[l.di];
    if (!d->dev) return;
    edml_command_list *list = NULL;
    edml_status s = edml_command_list_create(d->dev, 1 + take(r, MAX_ENTRIES), &list);
    if (!d->live || s) {
        MUST(!d->live ? s != EDML_STATUS_OK : s == EDML_STATUS_ARENA_TOO_SMALL, edml_status_string(s));
        return;
    }
    l.host = malloc(WORLD_BYTES), l.gpu = malloc(WORLD_BYTES);
    l.mhost = malloc(WORLD_BYTES), l.mgpu = malloc(WORLD_BYTES);
    uint32_t seed = take(r, 0) | 0x10000u;
    for (uint32_t i = 0; i < WORLD_BYTES; i += 4) {
        const float f = (float)(int)(next(&seed) % 9) - 4.0f;
        memcpy(l.host + i, &f, 4);
        memcpy(l.gpu + i, &f, 4);
    }
    l.gbuf = d->gles ? buf_of(w, l.di, WORLD_BYTES) : -1;
    if (d->gles && l.gbuf < 0 && w->nbufs < MAX_BUFS) { /* a GPU world where the GPU arena has room */
        edml_gpu_buffer *h = NULL;
        if (edml_gpu_buffer_create(d->dev, WORLD_BYTES, &h) == EDML_STATUS_OK)
            w->buf[l.gbuf = w->nbufs++] = (buf_slot){h, l.di, true, WORLD_BYTES};
    }
    if (l.gbuf >= 0 && edml_gpu_buffer_write(w->buf[l.gbuf].h, 0, l.gpu, WORLD_BYTES) != EDML_STATUS_OK) {
        MUST(d->dropped, "write"); /* GLES went off the device */
        l.gbuf = -1;
    }
    memcpy(l.mhost, l.host, WORLD_BYTES);
    memcpy(l.mgpu, l.gpu, WORLD_BYTES);
    for (uint32_t k = take(r, MAX_ENTRIES + 1); k-- > 0;) list_entry(w, &l, list, r);
    list_check(w, &l, list);
    MUST(edml_command_list_destroy(list) == EDML_STATUS_OK, "destroy");
    MUST(edml_command_list_submit(list) != EDML_STATUS_OK, "a destroyed list submitted");
    free(l.host), free(l.gpu), free(l.mhost), free(l.mgpu);
}

/* ---- the program ------------------------------------------------------------------ */

static void world_end(world *w)
{
    for (int i = 0; i < 2; i++) {
        if (w->d[i].live) MUST(edml_device_destroy(w->d[i].dev) == EDML_STATUS_OK, "destroy");
        free(w->d[i].arena);
    }
    for (int t = 0; t < w->ntmpl; t++)
        if (w->t[t].model) MUST(edml_operator_destroy(w->t[t].model) == EDML_STATUS_OK, "the model's operator");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    model_open();
    reader r = {data, size};
    static world w;
    memset(&w, 0, sizeof w);
    typedef void (*action)(world *, reader *);
    static const action actions[10] = {dev_create, dev_create, dev_destroy, op_create,   op_create,
                                       op_destroy, op_execute, buf_create,  buf_destroy, buf_io};
    static const action more[3] = {op_query, buf_map, op_pair};
    for (int steps = 0; r.n && steps < 64; steps++) {
        const uint32_t v = take(&r, 0), a = v % 12;
        if (a < 10)
            actions[a](&w, &r);
        else if ((v / 12) % 8 != 7) /* the corpus's lists keep their meaning, but for an eighth */
            list_action(&w, &r);
        else
            more[(v / 96) % 3](&w, &r);
    }
    world_end(&w);
    return 0;
}
