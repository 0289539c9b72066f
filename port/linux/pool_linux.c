/* A parallel-for on POSIX threads, in memory the caller gives it
 * (edml_pool_create in edml.h). The calling thread is worker 0 and workers
 * 1..n-1 are threads. A call publishes its job in one 64-bit word, the
 * claim word: generation, part count and next part. A worker claims a part
 * by compare-and-swap on that word, so a claim can only succeed for the job
 * it names; a job's task and argument are read after a successful claim,
 * while the caller is still waiting for that part. Idle workers spin for
 * about 50 us, then sleep on a condition variable. */
#define _GNU_SOURCE
#include "edml.h"
#include "../edml_port.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EDMLI_POOL_MAGIC 0x4c4f4f50u /* "POOL" */
#define EDMLI_POOL_MAX 64u
#define EDMLI_POOL_STACK (128u << 10)
#define EDMLI_POOL_SPIN_NS 50000
#define EDMLI_POOL_PAGE 4096u

/* the claim word: generation (24 bits), parts (20), next part (20) */
#define EDMLI_CLAIM(gen, parts, next) (((uint64_t)(gen) << 40) | ((uint64_t)(parts) << 20) | (uint64_t)(next))
#define EDMLI_CLAIM_GEN(w) ((uint32_t)((w) >> 40))
#define EDMLI_CLAIM_PARTS(w) ((uint32_t)((w) >> 20) & 0xfffffu)
#define EDMLI_CLAIM_NEXT(w) ((uint32_t)(w)&0xfffffu)
#define EDMLI_POOL_MAX_PARTS 0xfffffu

struct edml_pool {
    uint32_t magic;
    uint32_t workers;
    pthread_mutex_t call;  /* one parallel-for at a time */
    pthread_mutex_t lock;  /* for sleeping */
    pthread_cond_t wake;   /* a new job, or stop */
    pthread_cond_t finish; /* the last part of a job is done */
    _Atomic uint64_t claim;
    _Atomic uint32_t done;
    _Atomic uint32_t sleeping;
    _Atomic uint32_t stop;
    edml_task_fn task; /* the job's, valid while one of its parts is claimed and not done */
    void *arg;
    uint32_t gen;
    uint32_t started; /* threads running */
    pthread_t *threads;
};

typedef struct edmli_pool_start {
    edml_pool *pool;
    uint32_t worker;
} edmli_pool_start;

static inline void edmli_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

static uint64_t edmli_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A thread's stack: the bytes asked for (0: the default), at least the
 * system's minimum, in whole pages; 0 where that overflows. */
static size_t edmli_pool_stack_bytes(size_t stack_bytes)
{
    size_t s = stack_bytes ? stack_bytes : EDMLI_POOL_STACK;
    long min = sysconf(_SC_THREAD_STACK_MIN);
    if (min > 0 && s < (size_t)min) s = (size_t)min;
    if (s > SIZE_MAX - (EDMLI_POOL_PAGE - 1)) return 0;
    return (s + EDMLI_POOL_PAGE - 1) & ~(size_t)(EDMLI_POOL_PAGE - 1);
}

static uint32_t edmli_pool_count(uint32_t workers)
{
    uint32_t n = workers ? workers : edml_board_builtin()->cores ? edml_board_builtin()->cores : edmli_port_cpu_count();
    return n > EDMLI_POOL_MAX ? EDMLI_POOL_MAX : n;
}

/* the layout: the pool, the thread ids, then the stacks (page aligned) */
static size_t edmli_pool_stacks_at(uint32_t n)
{
    size_t head = sizeof(edml_pool) + n * sizeof(pthread_t) + n * sizeof(edmli_pool_start);
    return (head + EDMLI_POOL_PAGE - 1) & ~(size_t)(EDMLI_POOL_PAGE - 1);
}

/* The bytes of a pool, every product and sum checked (0: they overflow). */
size_t edml_pool_size(uint32_t workers, size_t stack_bytes)
{
    if (workers > EDMLI_POOL_MAX) return 0;
    const uint32_t n = edmli_pool_count(workers);
    const size_t stack = edmli_pool_stack_bytes(stack_bytes), head = edmli_pool_stacks_at(n) + EDMLI_POOL_PAGE;
    if (!stack || (n > 1 && stack > (SIZE_MAX - head) / (n - 1))) return 0;
    return head + (size_t)(n - 1) * stack;
}

/* Runs the parts of job `gen` that are left; returns when none is. */
static void edmli_pool_work(edml_pool *p, uint32_t gen, uint32_t worker)
{
    uint64_t w = atomic_load_explicit(&p->claim, memory_order_acquire);
    while (EDMLI_CLAIM_GEN(w) == gen && EDMLI_CLAIM_NEXT(w) < EDMLI_CLAIM_PARTS(w)) {
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &w, w + 1, memory_order_acq_rel, memory_order_acquire))
            continue;
        const uint32_t parts = EDMLI_CLAIM_PARTS(w);
        p->task(p->arg, EDMLI_CLAIM_NEXT(w), worker);
        if (atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel) + 1 == parts) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->finish);
            pthread_mutex_unlock(&p->lock);
        }
        w = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

/* Waits for a job other than `seen` (or stop): spins, then sleeps. */
static uint32_t edmli_pool_wait_job(edml_pool *p, uint32_t seen)
{
    const uint64_t until = edmli_now_ns() + EDMLI_POOL_SPIN_NS;
    for (uint32_t i = 1;; i++) {
        uint32_t gen = EDMLI_CLAIM_GEN(atomic_load_explicit(&p->claim, memory_order_acquire));
        if (gen != seen || atomic_load(&p->stop)) return gen;
        edmli_cpu_relax();
        if (i % 64 == 0 && edmli_now_ns() > until) break;
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleeping, 1);
    uint32_t gen;
    while ((gen = EDMLI_CLAIM_GEN(atomic_load(&p->claim))) == seen && !atomic_load(&p->stop))
        pthread_cond_wait(&p->wake, &p->lock);
    atomic_fetch_sub(&p->sleeping, 1);
    pthread_mutex_unlock(&p->lock);
    return gen;
}

static void *edmli_pool_thread(void *start)
{
    edml_pool *p = ((edmli_pool_start *)start)->pool;
    const uint32_t worker = ((edmli_pool_start *)start)->worker;
    uint32_t seen = EDMLI_CLAIM_GEN(atomic_load(&p->claim));
    for (;;) {
        seen = edmli_pool_wait_job(p, seen);
        if (atomic_load(&p->stop)) return NULL;
        edmli_pool_work(p, seen, worker);
    }
}

/* Whether the calling thread is one of the pool's threads. */
static bool edmli_pool_own_thread(const edml_pool *p)
{
    const pthread_t self = pthread_self();
    for (uint32_t i = 0; i < p->started; i++)
        if (pthread_equal(self, p->threads[i])) return true;
    return false;
}

void edml_pool_parallel_for(void *pool, edml_task_fn task, void *arg, uint32_t parts)
{
    edml_pool *p = (edml_pool *)pool;
    /* One part, one worker, no pool (destroyed), or a call from inside one
     * of the pool's own parts (a part that runs an operator on a device of
     * its own): on the calling thread. The call mutex checks errors, so the
     * thread holding it (worker 0 of a call) is told instead of blocking. */
    if (parts <= 1 || !p || p->magic != EDMLI_POOL_MAGIC || p->workers == 1 || parts > EDMLI_POOL_MAX_PARTS ||
        edmli_pool_own_thread(p) || pthread_mutex_lock(&p->call) != 0) {
        for (uint32_t i = 0; i < parts; i++) task(arg, i, 0);
        return;
    }
    p->task = task;
    p->arg = arg;
    p->gen = (p->gen + 1) & 0xffffffu;
    atomic_store(&p->done, 0);
    atomic_store(&p->claim, EDMLI_CLAIM(p->gen, parts, 0));
    if (atomic_load(&p->sleeping)) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    edmli_pool_work(p, p->gen, 0);
    /* the parts others run: each is short, so spin a while before sleeping */
    const uint64_t until = edmli_now_ns() + EDMLI_POOL_SPIN_NS;
    for (uint32_t i = 1; atomic_load_explicit(&p->done, memory_order_acquire) < parts; i++) {
        edmli_cpu_relax();
        if (i % 64 == 0 && edmli_now_ns() > until) {
            pthread_mutex_lock(&p->lock);
            while (atomic_load(&p->done) < parts) pthread_cond_wait(&p->finish, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->call);
}

static void edmli_pool_stop(edml_pool *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->finish);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->call);
    p->magic = 0;
}

/* Starts worker threads 1..n-1 on their stacks in the caller's memory. */
static edml_status edmli_pool_start_threads(edml_pool *p, uint8_t *base, size_t stack)
{
    edmli_pool_start *starts = (edmli_pool_start *)(void *)(p->threads + p->workers);
    uint8_t *stacks = base + edmli_pool_stacks_at(p->workers);
    stacks += (EDMLI_POOL_PAGE - (uintptr_t)stacks % EDMLI_POOL_PAGE) % EDMLI_POOL_PAGE;
    for (uint32_t i = 1; i < p->workers; i++) {
        pthread_attr_t attr;
        starts[i] = (edmli_pool_start){p, i};
        bool ok = pthread_attr_init(&attr) == 0;
        ok = ok && pthread_attr_setstack(&attr, stacks + (i - 1) * stack, stack) == 0;
        ok = ok && pthread_create(&p->threads[p->started], &attr, edmli_pool_thread, &starts[i]) == 0;
        pthread_attr_destroy(&attr);
        if (!ok) return EDML_STATUS_BACKEND_UNAVAILABLE;
        p->started++;
    }
    return EDML_STATUS_OK;
}

/* A refused edml_pool_create: why, in the caller's memory (edml.h). */
static edml_status edmli_pool_refuse(void *memory, size_t bytes, edml_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (memory && bytes) vsnprintf((char *)memory, bytes, fmt, ap);
    va_end(ap);
    return s;
}

/* What makes a pool impossible, or 0. */
static edml_status edmli_pool_check(uint32_t workers, size_t stack_bytes, void *memory, size_t bytes)
{
    if (workers > EDMLI_POOL_MAX)
        return edmli_pool_refuse(memory, bytes, EDML_STATUS_INVALID_ARGUMENT,
                                 "edml_pool_create: workers is %u, expected 0 (the board's cores) to %u", workers,
                                 EDMLI_POOL_MAX);
    const size_t need = edml_pool_size(workers, stack_bytes);
    if (!need)
        return edmli_pool_refuse(memory, bytes, EDML_STATUS_INVALID_ARGUMENT,
                                 "edml_pool_create: %u workers with stacks of %zu bytes do not fit the address space",
                                 edmli_pool_count(workers), stack_bytes);
    if ((uintptr_t)memory % 64)
        return edmli_pool_refuse(memory, bytes, EDML_STATUS_INVALID_ARGUMENT,
                                 "edml_pool_create: memory must be aligned to 64 bytes");
    if (bytes < need)
        return edmli_pool_refuse(memory, bytes, EDML_STATUS_ARENA_TOO_SMALL,
                                 "edml_pool_create needs %zu bytes (edml_pool_size), %zu given: %zu missing", need,
                                 bytes, need - bytes);
    return EDML_STATUS_OK;
}

edml_status edml_pool_create(uint32_t workers, size_t stack_bytes, void *memory, size_t bytes, edml_pool **pool)
{
    if (pool) *pool = NULL;
    if (!pool || !memory)
        return edmli_pool_refuse(memory, bytes, EDML_STATUS_INVALID_ARGUMENT, "edml_pool_create: %s is NULL",
                                 pool ? "memory" : "pool");
    edml_status s = edmli_pool_check(workers, stack_bytes, memory, bytes);
    if (s) return s;
    edml_pool *p = (edml_pool *)memory;
    memset(p, 0, sizeof *p);
    p->workers = edmli_pool_count(workers);
    p->threads = (pthread_t *)(void *)(p + 1);
    pthread_mutexattr_t checked;
    pthread_mutexattr_init(&checked);
    pthread_mutexattr_settype(&checked, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&p->call, &checked);
    pthread_mutexattr_destroy(&checked);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finish, NULL);
    atomic_init(&p->claim, EDMLI_CLAIM(0, 0, 0));
    p->magic = EDMLI_POOL_MAGIC;
    s = edmli_pool_start_threads(p, (uint8_t *)memory, edmli_pool_stack_bytes(stack_bytes));
    if (s) {
        const uint32_t started = p->started;
        edmli_pool_stop(p);
        return edmli_pool_refuse(memory, bytes, s, "edml_pool_create: thread %u of %u could not be started",
                                 started + 1, p->workers - 1);
    }
    *pool = p;
    return EDML_STATUS_OK;
}

uint32_t edml_pool_workers(const edml_pool *pool)
{
    return pool && pool->magic == EDMLI_POOL_MAGIC ? pool->workers : 0;
}

edml_status edml_pool_destroy(edml_pool *pool)
{
    if (!pool || pool->magic != EDMLI_POOL_MAGIC) return EDML_STATUS_INVALID_ARGUMENT;
    pthread_mutex_lock(&pool->call); /* no call in flight */
    pthread_mutex_unlock(&pool->call);
    edmli_pool_stop(pool);
    return EDML_STATUS_OK;
}
