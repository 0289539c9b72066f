/* Devices: created at the start of the caller's arena, with the state of
 * each backend after it; every call holds its device for its duration (one
 * thread at a time). */
#include "internal.h"
#include "edml_port.h"

#include <stddef.h>
#include <string.h>

size_t edml_device_size(void)
{
    size_t n = edmli_align_up(sizeof(struct edml_device), EDMLI_ALIGN);
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (edmli_backends[b] && edmli_backends[b]->state_bytes)
            n += edmli_align_up(edmli_backends[b]->state_bytes(), EDMLI_ALIGN);
    return n;
}

static uint32_t edmli_backends_built(void)
{
    uint32_t m = 0;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (edmli_backends[b]) m |= EDML_BACKEND_BIT(b);
    return m;
}

/* Each backend built and allowed opens on the device, its state placed after
 * the device in the order of edml_device_size(); one that cannot says why
 * (kept for edml_device_backend_info(), and logged). */
static void edmli_device_open_backends(edml_device *dev, uint32_t allowed)
{
    uint8_t *state = dev->arena.base + edmli_align_up(sizeof(struct edml_device), EDMLI_ALIGN);
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++) {
        const edmli_backend *be = edmli_backends[b];
        const size_t bytes = be && be->state_bytes ? edmli_align_up(be->state_bytes(), EDMLI_ALIGN) : 0;
        char *why = dev->why[b];
        const size_t cap = sizeof dev->why[b];
        if (!be) {
            edmli_format(why, cap, "%s", edmli_backend_not_built[b] ? edmli_backend_not_built[b] : "not a backend");
        } else if (!(allowed & EDML_BACKEND_BIT(b))) {
            edmli_format(why, cap, "edml_device_desc.backends does not allow it");
        } else if (be->open && !be->open(dev, bytes ? state : NULL, why, cap)) {
            char msg[EDMLI_MESSAGE_BYTES];
            edmli_format(msg, sizeof msg, "%s backend not available%s: %s", edmli_backend_title((edml_backend)b),
                         be->on_cpu ? "" : ", operators run on the CPU", why);
            if (dev->err.log) dev->err.log(dev->err.log_user, EDML_STATUS_BACKEND_UNAVAILABLE, msg);
        } else {
            dev->backends |= EDML_BACKEND_BIT(b);
            dev->state[b] = bytes ? state : NULL;
        }
        state += bytes;
    }
}

const char *edml_device_backend_info(const edml_device *dev, edml_backend b, char *buf, size_t cap)
{
    if (!buf || !cap) return "";
    if (!dev || dev->magic != EDMLI_DEVICE_MAGIC || dev->self != dev) {
        edmli_format(buf, cap, "not a device");
    } else if (b <= EDML_BACKEND_AUTO || b >= EDML_BACKEND_COUNT_) {
        edmli_format(buf, cap, "not a backend");
    } else if (!(dev->backends & EDML_BACKEND_BIT(b))) {
        edmli_format(buf, cap, "no %s: %s%s", edmli_backend_title(b), dev->why[b],
                     edmli_backends[b] && !edmli_backends[b]->on_cpu ? "; operators run on the CPU" : "");
    } else if (edmli_backends[b]->info) {
        return edmli_backends[b]->info(dev, dev->state[b], buf, cap);
    } else {
        edmli_format(buf, cap, "%s on the CPU", edmli_backend_title(b));
    }
    return buf;
}

const char *edml_device_gles_info(const edml_device *device, char *buf, size_t cap)
{
    return edml_device_backend_info(device, EDML_BACKEND_GLES, buf, cap);
}

/* A failed edml_device_create: its message goes to the descriptor's buffer
 * and to the log, as there is no device to keep it. */
static edml_status edmli_create_failed(const edml_device_desc *dd, const edmli_errbuf *e, edml_status s)
{
    /* the thread's channel holds constant strings: this one points to the whole message */
    edmli_port_set_unrouted("edml_device_create refused the device: its message is in edml_device_desc.error_buffer "
                            "and the log");
    if (dd->error_buffer && dd->error_buffer_bytes)
        edmli_format(dd->error_buffer, dd->error_buffer_bytes, "%s", e->text);
    if (dd->log) dd->log(dd->log_user, s, e->text);
    return s;
}

static void edmli_device_init(edml_device *dev, const edml_device_desc *dd, const edml_board *board, void *arena,
                              size_t arena_size)
{
    memset(dev, 0, sizeof *dev);
    dev->magic = EDMLI_DEVICE_MAGIC;
    dev->self = dev;
    atomic_init(&dev->busy, 0u);
    dev->board = *board;
    dev->desc = *dd;
    dev->desc.board = &dev->board;
    dev->desc.error_buffer = NULL;
    dev->desc.error_buffer_bytes = 0;
    dev->err.log = dd->log;
    dev->err.log_user = dd->log_user;
    dev->arena.base = (uint8_t *)arena;
    dev->arena.size = arena_size;
    dev->arena.head = edml_device_size();
    dev->arena.high_water = dev->arena.head;
}

/* The caller's parallel-for and its workers: 0 means the board's cores (the
 * OS's count where the board says 0); without a parallel-for, one. */
static edml_status edmli_parallel_of(const edml_device_desc *dd, const edml_board *board, edmli_errbuf *e,
                                     edmli_parallel *par)
{
    if (dd->workers > EDMLI_MAX_WORKERS) return edmli_fail(e, EDMLI_MSG_WORKERS_RANGE, dd->workers, EDMLI_MAX_WORKERS);
    if (!dd->parallel_for && dd->workers > 1) return edmli_fail(e, EDMLI_MSG_WORKERS_NO_FOR, dd->workers);
    par->fn = dd->parallel_for;
    par->ctx = dd->parallel_context;
    uint32_t w = dd->workers ? dd->workers : board->cores ? board->cores : edmli_port_cpu_count();
    par->workers = !par->fn ? 1 : w > EDMLI_MAX_WORKERS ? EDMLI_MAX_WORKERS : w;
    return EDML_STATUS_OK;
}

/* The program cache: memory of the caller's apart from the device arena
 * (the device writes program binaries into it) that does not wrap around. */
static edml_status edmli_check_cache_memory(const edml_device_desc *dd, const void *arena, size_t arena_size,
                                            edmli_errbuf *e)
{
    if (!dd->program_cache || !dd->program_cache_bytes) return EDML_STATUS_OK;
    const uintptr_t c = (uintptr_t)dd->program_cache, a = (uintptr_t)arena;
    if (dd->program_cache_bytes > UINTPTR_MAX - c)
        return edmli_fail(e, EDMLI_MSG_CACHE_WRAPS, (unsigned long long)dd->program_cache_bytes);
    if (c < a + arena_size && a < c + dd->program_cache_bytes)
        return edmli_fail(e, EDMLI_MSG_CACHE_IN_ARENA, (unsigned long long)dd->program_cache_bytes,
                          (unsigned long long)arena_size);
    return EDML_STATUS_OK;
}

edml_status edml_device_create(const edml_device_desc *desc, void *arena, size_t arena_size, edml_device **device)
{
    edml_device_desc dd = {0};
    if (desc) dd = *desc;
    edmli_errbuf tmp = {{0}, NULL, NULL};
    if (!device) return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_NULL_ARGUMENT, "device"));
    *device = NULL;
    if (!arena) return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_NULL_ARGUMENT, "arena"));
    if ((uintptr_t)arena % EDMLI_ALIGN)
        return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_ARENA_MISALIGNED));
    size_t need = edml_device_size();
    if (arena_size < need)
        return edmli_create_failed(
            &dd, &tmp,
            edmli_fail(&tmp, EDMLI_MSG_ARENA_TOO_SMALL, "edml_device_create", need, arena_size, need - arena_size));
#ifdef EDMLI_HANDLE_HIGH_SHIFT
    if (((uintptr_t)arena + (arena_size - 1)) >> EDMLI_HANDLE_HIGH_SHIFT)
        return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_ARENA_ADDRESS, EDMLI_HANDLE_HIGH_SHIFT));
#endif
    const edml_device *old = (const edml_device *)arena;
    if (old->magic == EDMLI_DEVICE_MAGIC && old->self == old)
        return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_DEVICE_LIVE));

    const edml_board *board = dd.board ? dd.board : edml_board_builtin();
    const uint32_t built = edmli_backends_built();
    const uint32_t allowed = dd.backends ? dd.backends : 0xffffffffu;
    if ((allowed & built) == 0)
        return edmli_create_failed(&dd, &tmp, edmli_fail(&tmp, EDMLI_MSG_DEVICE_BACKENDS, dd.backends, built));
    if (dd.gpu_arena_bytes && dd.gpu_arena_bytes < EDMLI_GPU_ARENA_MIN)
        return edmli_create_failed(
            &dd, &tmp,
            edmli_fail(&tmp, EDMLI_MSG_GPU_ARENA_RANGE, (unsigned long long)dd.gpu_arena_bytes, EDMLI_GPU_ARENA_MIN));
    edmli_parallel par;
    edml_status s = edmli_parallel_of(&dd, board, &tmp, &par);
    if (!s && board->cost_model)
        s = edmli_cost_terms_check(&tmp, "edml_board.cost_model", board->cost_model, board->cost_model_terms);
    if (!s) s = edmli_check_cache_memory(&dd, arena, arena_size, &tmp);
    if (!s) s = edmli_place_cache_check(&dd, arena, arena_size, &tmp);
    if (!s && dd.placement > EDML_PLACEMENT_SAVED) s = edmli_fail(&tmp, EDMLI_MSG_PLACEMENT_MODE, dd.placement);
    if (s) return edmli_create_failed(&dd, &tmp, s);

    edml_device *dev = (edml_device *)arena;
    edmli_device_init(dev, &dd, board, arena, arena_size);
    dev->par = par;
    edmli_device_open_backends(dev, allowed);
    if (!dev->backends) { /* none of those allowed opened: the first one's reason */
        int b = 0;
        while (!(allowed & built & EDML_BACKEND_BIT(b))) b++;
        edmli_fail(&tmp, EDMLI_MSG_BACKEND_UNAVAILABLE, edml_backend_name((edml_backend)b), dev->why[b]);
        dev->magic = 0;
        dev->self = NULL;
        return edmli_create_failed(&dd, &tmp, EDML_STATUS_BACKEND_UNAVAILABLE);
    }
    edmli_place_cache_open(dev);
    edmli_cost_model_open(dev);
    *device = dev;
    return EDML_STATUS_OK;
}

size_t edml_cost_model_write(edml_device *device, const edml_cost_term *terms, uint32_t n, void *buf, size_t cap)
{
    if (edmli_device_enter(device)) return 0;     /* no device, or another thread's call holds it */
    const size_t need = EDML_COST_MODEL_BYTES(n); /* no line read where the blob cannot be written */
    const edml_status s =
        need > cap || need == SIZE_MAX ? EDML_STATUS_OK : edmli_cost_terms_check(&device->err, "terms", terms, n);
    const size_t bytes = s ? 0 : edmli_cost_model_blob(device, terms, n, buf, cap);
    edmli_device_leave(device, s, true);
    return bytes;
}

edml_status edml_device_destroy(edml_device *dev)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    for (edmli_object *o = dev->last_obj; o; o = o->prev) o->state = EDMLI_OBJECT_DEAD;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (dev->state[b] && edmli_backends[b]->close) edmli_backends[b]->close(dev, dev->state[b]);
    dev->magic = 0;
    dev->self = NULL;
    atomic_store_explicit(&dev->busy, 0u, memory_order_release);
    return EDML_STATUS_OK;
}

edml_status edml_device_release_thread(edml_device *dev)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (dev->state[b] && (dev->backends & EDML_BACKEND_BIT(b)) && edmli_backends[b]->release_thread)
            edmli_backends[b]->release_thread(dev->state[b]);
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_device_program_cache_stats(edml_device *dev, edml_program_cache_stats *stats)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!stats) {
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "stats");
    } else {
        memset(stats, 0, sizeof *stats);
        for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
            if (dev->state[b] && edmli_backends[b]->cache_stats) edmli_backends[b]->cache_stats(dev->state[b], stats);
    }
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_device_placement_cache_stats(edml_device *dev, edml_placement_cache_stats *stats)
{
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!stats) {
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "stats");
    } else {
        *stats = dev->places.stats;
        const bool given = dev->places.mem || dev->places.small;
        stats->needed = given ? EDML_PLACEMENT_CACHE_BYTES(stats->decisions + stats->full) : 0;
    }
    edmli_device_leave(dev, s, true);
    return s;
}

edml_status edml_device_program_cache_used(edml_device *dev, size_t *bytes)
{
    edml_program_cache_stats st;
    if (!bytes) { /* worded by the device, as the other calls' NULLs are */
        edml_status s = edmli_device_enter(dev);
        if (s) return s;
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "bytes");
        edmli_device_leave(dev, s, true);
        return s;
    }
    edml_status s = edml_device_program_cache_stats(dev, &st);
    *bytes = s ? 0 : st.used;
    return s;
}

const char *edml_device_last_error(const edml_device *dev)
{
    if (!dev) return "device is NULL";
    if (dev->magic != EDMLI_DEVICE_MAGIC || dev->self != dev)
        return "the device was destroyed or is not an edml device";
    return dev->err.text;
}

uint32_t edml_device_backends(const edml_device *dev)
{
    if (!dev || dev->magic != EDMLI_DEVICE_MAGIC || dev->self != dev) return 0;
    return dev->backends;
}

edml_status edml_device_arena_stats(const edml_device *device, edml_arena_stats *stats)
{
    edml_device *dev = (edml_device *)(uintptr_t)device; /* held for the call: not const */
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    if (!stats) {
        s = edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, "stats");
    } else {
        stats->size = dev->arena.size;
        stats->persistent = dev->arena.head;
        stats->high_water = dev->arena.high_water;
    }
    edmli_device_leave(dev, s, true);
    return s;
}

const edmli_backend *edmli_device_backend(const edml_device *dev, edml_backend b)
{
    return b > EDML_BACKEND_AUTO && b < EDML_BACKEND_COUNT_ && (dev->backends & EDML_BACKEND_BIT(b)) ? edmli_backends[b]
                                                                                                     : NULL;
}

edml_backend edmli_cpu_backend(const edml_device *dev, edmli_op_kind kind)
{
    for (int b = EDML_BACKEND_COUNT_ - 1; b > EDML_BACKEND_REF; b--) {
        const edmli_backend *be = edmli_device_backend(dev, (edml_backend)b);
        if (be && be->on_cpu && be->kernels[kind]) return (edml_backend)b;
    }
    return EDML_BACKEND_REF; /* the reference has every kernel */
}

edml_backend edmli_buffer_backend(void)
{
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (edmli_backends[b] && edmli_backends[b]->buffers) return (edml_backend)b;
    return EDML_BACKEND_COUNT_;
}

/* ---- holding a device, objects and their handles ------------------------------ */

static bool edmli_device_valid(const edml_device *dev) { return dev->magic == EDMLI_DEVICE_MAGIC && dev->self == dev; }

/* A call that reaches no device to keep its message: the thread's. */
static edml_status edmli_unrouted(edml_status s, const char *message)
{
    edmli_port_set_unrouted(message);
    return s;
}

edml_status edmli_device_enter(edml_device *dev)
{
    if (!dev) return edmli_unrouted(EDML_STATUS_INVALID_ARGUMENT, "the device is NULL");
    if (!edmli_device_valid(dev))
        return edmli_unrouted(EDML_STATUS_INVALID_DEVICE, "the device was destroyed or is not an edml device");
    if (atomic_exchange_explicit(&dev->busy, 1u, memory_order_acquire))
        return edmli_unrouted(EDML_STATUS_BUSY,
                              "the device is held by another thread's call: nothing was done (retry, or give each "
                              "thread its own device)");
    if (!edmli_device_valid(dev)) { /* destroyed while this call waited to look */
        atomic_store_explicit(&dev->busy, 0u, memory_order_release);
        return edmli_unrouted(EDML_STATUS_INVALID_DEVICE, "the device was destroyed during the call");
    }
    dev->err.text[0] = '\0';
    edmli_port_set_unrouted(""); /* this call reached a device: it has its message */
    return EDML_STATUS_OK;
}

void edmli_device_leave(edml_device *dev, edml_status s, bool log)
{
    if (s != EDML_STATUS_OK && log && dev->err.log) dev->err.log(dev->err.log_user, s, dev->err.text);
    atomic_store_explicit(&dev->busy, 0u, memory_order_release);
}

/* The generation of the next object of any device of the process. */
static atomic_uint edmli_next_gen;

#ifdef EDMLI_HANDLE_HIGH_SHIFT
#define EDMLI_HANDLE_ADDRESS_MASK ((((uintptr_t)1 << EDMLI_HANDLE_HIGH_SHIFT) - 1) & ~(uintptr_t)EDMLI_HANDLE_LOW_MASK)
static uintptr_t edmli_gen_bits(uint32_t gen)
{
    return (gen & EDMLI_HANDLE_LOW_MASK) | ((uintptr_t)((gen >> 4) & 0xffffu) << EDMLI_HANDLE_HIGH_SHIFT);
}
#else
#define EDMLI_HANDLE_ADDRESS_MASK (~(uintptr_t)EDMLI_HANDLE_LOW_MASK)
static uintptr_t edmli_gen_bits(uint32_t gen) { return gen & EDMLI_HANDLE_LOW_MASK; }
#endif

void *edmli_object_handle(const edmli_object *o) { return (void *)((uintptr_t)o | edmli_gen_bits(o->gen)); }

uintptr_t edmli_handle_address(const void *handle) { return (uintptr_t)handle & EDMLI_HANDLE_ADDRESS_MASK; }

static edmli_object *edmli_object_at(const void *handle) { return (edmli_object *)edmli_handle_address(handle); }

static bool edmli_handle_current(const edmli_object *o, const void *handle)
{
    return edmli_gen_bits(o->gen) == ((uintptr_t)handle & ~EDMLI_HANDLE_ADDRESS_MASK);
}

static const char *edmli_kind_name(edmli_object_kind kind)
{
    switch (kind) {
    case EDMLI_OBJ_OPERATOR: return "the operator (op)";
    case EDMLI_OBJ_GPU_BUFFER: return "the GPU buffer (buffer)";
    default: return "the command list (list)";
    }
}

static uintptr_t edmli_object_check_word(const edmli_object *o)
{
    return ((uintptr_t)o->device ^ (uintptr_t)o ^ (uintptr_t)o->kind * (uintptr_t)0x9E3779B97F4A7C15ull) +
           (uintptr_t)o->gen * (uintptr_t)0xC2B2AE3D27D4EB4Full;
}

/* A plausible object of `kind` (live or destroyed), read without trusting it
 * further: its header whole and written for this address, its device below it. */
static bool edmli_object_plausible(const edmli_object *o, edmli_object_kind kind)
{
    return (o->state == EDMLI_OBJECT_LIVE || o->state == EDMLI_OBJECT_DEAD) && o->kind == (uint32_t)kind && o->device &&
           (uintptr_t)o->device < (uintptr_t)o && (uintptr_t)o->device % EDMLI_ALIGN == 0 &&
           o->check == edmli_object_check_word(o);
}

edml_status edmli_object_check(edml_device *dev, const void *handle, edmli_object_kind kind, edmli_object **out,
                               const char *what)
{
    const char *name = what ? what : edmli_kind_name(kind);
    if (!handle) return edmli_fail(&dev->err, EDMLI_MSG_NULL_ARGUMENT, name);
    edmli_object *o = edmli_object_at(handle);
    uintptr_t lo = (uintptr_t)dev->arena.base + edml_device_size(), hi = (uintptr_t)dev->arena.base + dev->arena.size;
    if ((uintptr_t)o < lo || (uintptr_t)o >= hi || !edmli_object_plausible(o, kind) || o->device != dev)
        return edmli_fail(&dev->err, EDMLI_MSG_OBJECT_FOREIGN, name);
    if (o->state != EDMLI_OBJECT_LIVE) return edmli_fail(&dev->err, EDMLI_MSG_OBJECT_DESTROYED, name);
    if (!edmli_handle_current(o, handle)) return edmli_fail(&dev->err, EDMLI_MSG_OBJECT_STALE, name);
    *out = o;
    return EDML_STATUS_OK;
}

/* The messages of handles that name no device, by kind. */
static const char *edmli_handle_message(edmli_object_kind kind, bool null)
{
    switch (kind) {
    case EDMLI_OBJ_OPERATOR:
        return null ? "the operator (op) is NULL"
                    : "the operator (op) is not an edml operator (or its device was destroyed)";
    case EDMLI_OBJ_GPU_BUFFER:
        return null ? "the GPU buffer (buffer) is NULL"
                    : "the GPU buffer (buffer) is not an edml GPU buffer (or its device was destroyed)";
    default:
        return null ? "the command list (list) is NULL"
                    : "the command list (list) is not an edml command list (or its device was destroyed)";
    }
}

edml_status edmli_object_enter(const void *handle, edmli_object_kind kind, const char *what, edmli_object **out)
{
    if (!handle) return edmli_unrouted(EDML_STATUS_INVALID_ARGUMENT, edmli_handle_message(kind, true));
    const edmli_object *o = edmli_object_at(handle);
    if (!edmli_object_plausible(o, kind)) /* no device to tell */
        return edmli_unrouted(EDML_STATUS_INVALID_HANDLE, edmli_handle_message(kind, false));
    edml_device *dev = o->device;
    edml_status s = edmli_device_enter(dev);
    if (s) return s;
    s = edmli_object_check(dev, handle, kind, out, what);
    if (s) edmli_device_leave(dev, s, true);
    return s;
}

void edmli_object_push(edml_device *dev, edmli_object *o, edmli_object_kind kind, size_t mark, uint64_t gpu_mark)
{
    o->gpu_mark = gpu_mark;
    o->state = EDMLI_OBJECT_LIVE;
    o->kind = (uint32_t)kind;
    o->gen = atomic_fetch_add_explicit(&edmli_next_gen, 1u, memory_order_relaxed);
    o->device = dev;
    o->check = edmli_object_check_word(o);
    o->prev = dev->last_obj;
    o->arena_mark = mark;
    dev->last_obj = o;
}

void edmli_object_release(edml_device *dev, edmli_object *o)
{
    o->state = EDMLI_OBJECT_DEAD;
    while (dev->last_obj && dev->last_obj->state == EDMLI_OBJECT_DEAD) {
        edmli_object *top = dev->last_obj;
        dev->arena.head = top->arena_mark;
        if (top->gpu_mark != EDMLI_NO_GPU_MARK) {
            const edml_backend b = edmli_buffer_backend();
            edmli_backends[b]->buffers->release_to(dev->state[b], top->gpu_mark);
        }
        dev->last_obj = top->prev;
    }
}
