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

void edmli_cpu_range(uint64_t units, uint32_t parts, uint32_t p, uint64_t align, uint64_t *begin, uint64_t *end)
{
    const uint64_t blocks = (units + align - 1) / align;
    const uint64_t b0 = blocks * p / parts, b1 = blocks * (p + 1) / parts;
    *begin = b0 * align < units ? b0 * align : units;
    *end = b1 * align < units ? b1 * align : units;
}

void edmli_cpu_parallel(const edmli_exec *ex, uint32_t parts, edml_task_fn task, void *arg)
{
    if (parts > 1 && ex->par.fn) {
        ex->par.fn(ex->par.ctx, task, arg, parts);
        return;
    }
    for (uint32_t p = 0; p < parts; p++) task(arg, p, 0);
}
