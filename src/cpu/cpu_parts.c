/* The CPU kernels' parts: how many, which range each, and running them
 * through the caller's parallel-for. Parts are static ranges: the same
 * parts, whatever the order they run in, give the same outputs. */
#include "cpu.h"

uint32_t edmli_cpu_parts(const edml_operator *op, uint64_t units, uint64_t bytes)
{
    const bool small = op->obj.device->desc.inject_faults & EDML_FAULT_SMALL_PARTS;
    uint64_t n = bytes / (small ? 64u : EDMLI_CPU_MIN_PART_BYTES);
    if (n > op->workers) n = op->workers;
    if (n > units) n = units;
    return n ? (uint32_t)n : 1u;
}

uint32_t edmli_cpu_parts_balanced(const edml_operator *op, uint64_t units, uint64_t bytes)
{
    if (op->workers <= 1) return edmli_cpu_parts(op, units, bytes);
    const bool small = op->obj.device->desc.inject_faults & EDML_FAULT_SMALL_PARTS;
    uint64_t n = bytes / (small ? 64u : EDMLI_CPU_MIN_PART_BYTES);
    uint64_t most = (uint64_t)op->workers * EDMLI_CPU_PARTS_A_WORKER;
    if (most > 64u) most = 64u;
    if (n > most) n = most;
    if (n > units) n = units;
    return n ? (uint32_t)n : 1u;
}

void edmli_cpu_range(uint64_t units, uint32_t parts, uint32_t p, uint64_t align, uint64_t *begin, uint64_t *end)
{
    const uint64_t blocks = (units + align - 1) / align;
    const uint64_t b0 = blocks * p / parts, b1 = blocks * (p + 1) / parts;
    *begin = b0 * align < units ? b0 * align : units;
    *end = b1 * align < units ? b1 * align : units;
}

/* One call of the caller's parallel-for, as its parts arrive: a part runs
 * at most once, only with a part and worker in range and on a worker that
 * no other part of the call holds at that moment; what ran is marked, so
 * that a parallel-for that left parts out (a pool that could not start a
 * thread, a scheduler shutting down) or broke those rules fails the call
 * instead of leaving outputs unwritten under OK. */
typedef struct edmli_parts_guard {
    edml_task_fn task;
    void *arg;
    uint32_t parts, workers;
    _Atomic uint64_t ran; /* a bit a part, set as it starts */
    atomic_uint refused;  /* arrivals not run: out of range, or their worker busy */
    atomic_uchar busy[EDMLI_MAX_WORKERS];
} edmli_parts_guard;

static void edmli_guarded_part(void *arg, uint32_t part, uint32_t worker)
{
    edmli_parts_guard *g = (edmli_parts_guard *)arg;
    if (part >= g->parts || worker >= g->workers) {
        atomic_fetch_add_explicit(&g->refused, 1u, memory_order_relaxed);
        return;
    }
    const uint64_t bit = (uint64_t)1 << part;
    if (atomic_fetch_or_explicit(&g->ran, bit, memory_order_acq_rel) & bit) return; /* run already: once is enough */
    if (atomic_exchange_explicit(&g->busy[worker], 1, memory_order_acquire)) {
        atomic_fetch_and_explicit(&g->ran, ~bit, memory_order_acq_rel); /* not run: its scratch is another's */
        atomic_fetch_add_explicit(&g->refused, 1u, memory_order_relaxed);
        return;
    }
    g->task(g->arg, part, worker);
    atomic_store_explicit(&g->busy[worker], 0, memory_order_release);
}

static uint32_t edmli_popcount64(uint64_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

edml_status edmli_cpu_parallel(const edmli_exec *ex, uint32_t parts, edml_task_fn task, void *arg)
{
    if (parts <= 1 || !ex->par.fn || parts > 64u) {
        for (uint32_t p = 0; p < parts; p++) task(arg, p, 0);
        return EDML_STATUS_OK;
    }
    edmli_parts_guard g = {.task = task, .arg = arg, .parts = parts, .workers = ex->par.workers};
    atomic_init(&g.ran, 0u);
    atomic_init(&g.refused, 0u);
    for (uint32_t w = 0; w < EDMLI_MAX_WORKERS; w++) atomic_init(&g.busy[w], 0);
    ex->par.fn(ex->par.ctx, edmli_guarded_part, &g, parts);
    const uint64_t ran = atomic_load_explicit(&g.ran, memory_order_acquire);
    const uint64_t all = parts == 64u ? UINT64_MAX : ((uint64_t)1 << parts) - 1u;
    if (ran == all) return EDML_STATUS_OK;
    return edmli_fail(ex->err, EDMLI_MSG_PARALLEL_SHORT, edmli_popcount64(ran), parts,
                      atomic_load_explicit(&g.refused, memory_order_relaxed), ex->par.workers);
}
