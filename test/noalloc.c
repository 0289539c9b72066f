/* The no-heap proof at run time: linked with -Wl,--wrap for every allocator,
 * counts the calls made while devices and operators of every type are
 * created, queried, executed and destroyed, on every backend available. */
#include "ops.h"

static volatile int heap_calls;
static volatile int counting;

#define WRAP(ret, name, params, args) \
    ret __real_##name params;         \
    ret __wrap_##name params;         \
    ret __wrap_##name params          \
    {                                 \
        if (counting) heap_calls++;   \
        return __real_##name args;    \
    }
WRAP(void *, malloc, (size_t n), (n))
WRAP(void *, calloc, (size_t n, size_t m), (n, m))
WRAP(void *, realloc, (void *p, size_t n), (p, n))
WRAP(char *, strdup, (const char *s), (s))
WRAP(void *, aligned_alloc, (size_t a, size_t n), (a, n))
WRAP(int, posix_memalign, (void **p, size_t a, size_t n), (p, a, n))
void __real_free(void *p);
void __wrap_free(void *p);
void __wrap_free(void *p)
{
    if (counting) heap_calls++;
    __real_free(p);
}

/* edml's pool: the allocator calls edml_pool_create makes through the
 * allocator's symbols (none: glibc gives each thread's TLS vector from its
 * own internal calloc, as edml.h says, which no --wrap sees), and none at
 * all while its threads run every operator's parts. */
static void pool_runs(void)
{
    size_t bytes = edml_pool_size(4, 0);
    if (!bytes) {
        printf("noalloc: no pool in this build (PORT=none)\n");
        return;
    }
    void *mem;
    if (posix_memalign(&mem, 64, bytes)) abort();
    edml_pool *pool;
    heap_calls = 0;
    counting = 1;
    edml_status s = edml_pool_create(4, 0, mem, bytes, &pool);
    counting = 0;
    CHECK(s == EDML_STATUS_OK, "pool of 4: %s", edml_status_string(s));
    CHECK(heap_calls == 0, "edml_pool_create(4): %d heap calls", heap_calls);
    heap_calls = 0;
    for (int which = 0; which < ops_count_on(EDML_BACKEND_NEON); which++) {
        ops_case c;
        ops_make_on(&c, which, EDML_BACKEND_NEON);
        tl_device d = {0};
        if (posix_memalign(&d.arena, 16, 1 << 16)) abort();
        memset(d.arena, 0, 1 << 16);
        edml_device_desc dd = {.parallel_for = edml_pool_parallel_for, .parallel_context = pool, .workers = 4};
        dd.inject_faults = EDML_FAULT_SMALL_PARTS; /* so that the samples are split */
        counting = 1;
        edml_operator *op = NULL;
        s = edml_device_create(&dd, d.arena, 1 << 16, &d.dev);
        if (s == EDML_STATUS_OK) s = edml_operator_create(d.dev, &c.desc, EDML_BACKEND_NEON, &op);
        if (s == EDML_STATUS_OK) s = ops_execute(&c, op, NULL);
        if (op) edml_operator_destroy(op);
        edml_device_destroy(d.dev);
        counting = 0;
        CHECK(s == EDML_STATUS_OK && ops_outputs_match(&c), "%s on neon, pool of 4", c.name);
        CHECK(heap_calls == 0, "%s on neon, pool of 4: %d heap calls", c.name, heap_calls);
        heap_calls = 0;
        free(d.arena);
        ops_free(&c);
    }
    edml_pool_destroy(pool);
    free(mem);
}

int main(void)
{
    /* the wrap must be live: a test call is counted */
    counting = 1;
    void *volatile probe = malloc(16);
    counting = 0;
    free(probe);
    CHECK(heap_calls == 1, "the --wrap=malloc link did not take (counted %d)", heap_calls);
    heap_calls = 0;

    int runs = 0;
    for (int b = EDML_BACKEND_AUTO; b < EDML_BACKEND_COUNT_; b++) {
        for (int which = 0; which < ops_count_on((edml_backend)b); which++) {
            ops_case c;
            ops_make_on(&c, which, (edml_backend)b);
            tl_device d;
            d.size = 1 << 16;
            if (posix_memalign(&d.arena, 16, d.size)) abort();
            memset(d.arena, 0, d.size);
            counting = 1;
            edml_device_desc dd = {0};
            edml_status s = edml_device_create(&dd, d.arena, d.size, &d.dev);
            edml_operator *op = NULL;
            edml_operator_sizes sz;
            if (s == EDML_STATUS_OK) s = edml_operator_query(d.dev, &c.desc, (edml_backend)b, &sz);
            if (s == EDML_STATUS_OK) s = edml_operator_create(d.dev, &c.desc, (edml_backend)b, &op);
            if (s == EDML_STATUS_OK) {
                s = ops_execute(&c, op, NULL);
                edml_operator_destroy(op);
                runs++;
                CHECK(s == EDML_STATUS_OK && ops_outputs_match(&c), "%s on %s", c.name,
                      edml_backend_name((edml_backend)b));
            } else {
                CHECK(s == EDML_STATUS_BACKEND_UNAVAILABLE, "%s on %s: %s", c.name, edml_backend_name((edml_backend)b),
                      edml_status_string(s));
            }
            edml_device_destroy(d.dev);
            counting = 0;
            CHECK(heap_calls == 0, "%s on %s: %d heap calls", c.name, edml_backend_name((edml_backend)b), heap_calls);
            heap_calls = 0;
            free(d.arena);
            ops_free(&c);
        }
    }
    CHECK(runs >= 2 * ops_count(), "only %d runs", runs);
    printf("noalloc: %d operator runs without a heap call\n", runs);
    pool_runs();
    return tl_summary("noalloc");
}
