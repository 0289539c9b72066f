/* Parallel-fors for the tests, so that every test can run its devices with
 * parts: edml's own pool (port/linux), threads of the test's own (spawned
 * for each call: a second implementation, and one that works in a static
 * image), or one thread that runs the parts in reverse or in random order
 * (worker = part % workers, so per-worker scratch is exercised). Outputs
 * must be identical in every mode: the tests compare them bit for bit.
 *   --parallel none|pool|spawn|reverse|random   --workers N (default 4)
 * A build without threads (the bare-metal image: -DTL_HAVE_THREADS=0) has no
 * spawn mode. */
#ifndef EDML_TEST_PARALLEL_H
#define EDML_TEST_PARALLEL_H

#include "edml.h"

#ifndef TL_HAVE_THREADS
#define TL_HAVE_THREADS 1
#endif
#if TL_HAVE_THREADS
#include <pthread.h>
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tl_parallel {
    const char *mode; /* "none" */
    uint32_t workers;
    edml_pool *pool;
    void *pool_memory;
    uint64_t calls; /* of the test's parallel-fors: parts were handed out */
    uint64_t rng;
} tl_parallel;

static tl_parallel tl_par = {"none", 4, NULL, NULL, 0, 88172645463325252ull};

static void tl_pf_reverse(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    tl_parallel *t = (tl_parallel *)ctx;
    t->calls++;
    for (uint32_t p = parts; p-- > 0;) task(arg, p, p % t->workers);
}

static void tl_pf_random(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    tl_parallel *t = (tl_parallel *)ctx;
    uint32_t order[4096];
    if (parts > 4096) abort();
    t->calls++;
    for (uint32_t p = 0; p < parts; p++) order[p] = p;
    for (uint32_t p = parts; p > 1; p--) { /* Fisher-Yates with xorshift */
        t->rng ^= t->rng << 13, t->rng ^= t->rng >> 7, t->rng ^= t->rng << 17;
        uint32_t q = (uint32_t)(t->rng % p), x = order[p - 1];
        order[p - 1] = order[q], order[q] = x;
    }
    for (uint32_t p = 0; p < parts; p++) task(arg, order[p], order[p] % t->workers);
}

#if TL_HAVE_THREADS
typedef struct tl_spawn_job {
    edml_task_fn task;
    void *arg;
    uint32_t parts;
    atomic_uint next;
} tl_spawn_job;

typedef struct tl_spawn_worker {
    tl_spawn_job *job;
    uint32_t worker;
} tl_spawn_worker;

static void *tl_spawn_run(void *w)
{
    tl_spawn_worker *sw = (tl_spawn_worker *)w;
    for (uint32_t p; (p = atomic_fetch_add(&sw->job->next, 1)) < sw->job->parts;)
        sw->job->task(sw->job->arg, p, sw->worker);
    return NULL;
}

/* threads of the test's own, started and joined in every call */
static void tl_pf_spawn(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    tl_parallel *t = (tl_parallel *)ctx;
    tl_spawn_job job = {task, arg, parts, 0};
    pthread_t th[64];
    tl_spawn_worker w[64];
    uint32_t n = t->workers < parts ? t->workers : parts;
    t->calls++;
    for (uint32_t i = 1; i < n; i++) {
        w[i] = (tl_spawn_worker){&job, i};
        if (pthread_create(&th[i], NULL, tl_spawn_run, &w[i])) abort();
    }
    w[0] = (tl_spawn_worker){&job, 0};
    tl_spawn_run(&w[0]);
    for (uint32_t i = 1; i < n; i++) pthread_join(th[i], NULL);
}
#endif

/* edml's pool, counted */
static void tl_pf_pool(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
{
    tl_parallel *t = (tl_parallel *)ctx;
    t->calls++;
    edml_pool_parallel_for(t->pool, task, arg, parts);
}

/* Sets a device descriptor's parallel-for from tl_par. */
static inline void tl_parallel_desc(edml_device_desc *dd)
{
    if (!strcmp(tl_par.mode, "none")) return;
    dd->workers = tl_par.workers;
    dd->parallel_context = &tl_par;
    if (!strcmp(tl_par.mode, "pool")) {
        dd->parallel_for = tl_pf_pool;
#if TL_HAVE_THREADS
    } else if (!strcmp(tl_par.mode, "spawn")) {
        dd->parallel_for = tl_pf_spawn;
#endif
    } else if (!strcmp(tl_par.mode, "reverse")) {
        dd->parallel_for = tl_pf_reverse;
    } else {
        dd->parallel_for = tl_pf_random;
    }
}

/* Starts the mode (the pool: created here); false with a message on stderr. */
static inline bool tl_parallel_start(void)
{
    static const char *const modes[] = {"none", "pool", "reverse", "random", "spawn"};
    bool known = false;
    for (int i = 0; i < 4 + TL_HAVE_THREADS; i++) known |= !strcmp(tl_par.mode, modes[i]);
    if (!known || tl_par.workers < 1 || tl_par.workers > 64) {
        fprintf(stderr, "--parallel none|pool|spawn|reverse|random, --workers 1..64\n");
        return false;
    }
    if (strcmp(tl_par.mode, "pool")) return true;
    size_t bytes = edml_pool_size(tl_par.workers, 0);
    if (!bytes || posix_memalign(&tl_par.pool_memory, 4096, bytes)) {
        fprintf(stderr, "edml's pool is not built here (PORT=none)\n");
        return false;
    }
    edml_status s = edml_pool_create(tl_par.workers, 0, tl_par.pool_memory, bytes, &tl_par.pool);
    if (s) fprintf(stderr, "edml_pool_create: %s\n", edml_status_string(s));
    return s == EDML_STATUS_OK;
}

static inline void tl_parallel_stop(void)
{
    if (tl_par.pool) edml_pool_destroy(tl_par.pool);
    free(tl_par.pool_memory);
    tl_par.pool = NULL;
    tl_par.pool_memory = NULL;
}

/* Takes "--parallel MODE" and "--workers N" at argv[*i]; true if it did. */
static inline bool tl_parallel_arg(int argc, char **argv, int *i)
{
    if (!strcmp(argv[*i], "--parallel") && *i + 1 < argc) {
        tl_par.mode = argv[++*i];
        return true;
    }
    if (!strcmp(argv[*i], "--workers") && *i + 1 < argc) {
        tl_par.workers = (uint32_t)atoi(argv[++*i]);
        return true;
    }
    return false;
}

#endif
