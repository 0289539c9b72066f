/* No threads without an OS: the pool is the caller's (an RTOS's task API as
 * edml_device_desc.parallel_for). Every call says so. */
#include "edml.h"

#include <string.h>

size_t edml_pool_size(uint32_t workers, size_t stack_bytes)
{
    (void)workers;
    (void)stack_bytes;
    return 0;
}

edml_status edml_pool_create(uint32_t workers, size_t stack_bytes, void *memory, size_t bytes, edml_pool **pool)
{
    (void)workers;
    (void)stack_bytes;
    static const char why[] = "edml_pool_create: this build (PORT=none) has no threads: give the device your RTOS's "
                              "parallel-for (edml_device_desc.parallel_for)";
    if (memory && bytes) {
        const size_t n = bytes < sizeof why ? bytes - 1 : sizeof why - 1;
        memcpy(memory, why, n);
        ((char *)memory)[n] = '\0';
    }
    if (pool) *pool = NULL;
    return EDML_STATUS_UNSUPPORTED;
}

uint32_t edml_pool_workers(const edml_pool *pool)
{
    (void)pool;
    return 0;
}

void edml_pool_parallel_for(void *pool, edml_task_fn task, void *arg, uint32_t parts)
{
    (void)pool;
    for (uint32_t i = 0; i < parts; i++) task(arg, i, 0);
}

edml_status edml_pool_destroy(edml_pool *pool)
{
    (void)pool;
    return EDML_STATUS_UNSUPPORTED;
}
