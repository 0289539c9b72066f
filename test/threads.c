/* Concurrency. Devices are independent: several threads, each with its own
 * device, run every operator type at once and check every result. With
 * --shared they share one device instead, one operator each or one operator
 * between them: every call either gives the right answer or is refused with
 * EDML_STATUS_BUSY having written nothing; on GLES each thread keeps a GL
 * context of its own current, and past the 8 the port keeps, calls run on
 * transient ones. With --relay (and --shared) the threads run one after
 * another. Each releases its context before it ends
 * (edml_device_release_thread).
 *   threads [--backend ref|neon|gles] [--threads N] [--rounds N] [--shared [--relay]]
 * Run under ThreadSanitizer by `make test` (CPU backends). */
#include "ops.h"

#include <pthread.h>
#include <sched.h>

static edml_backend backend = EDML_BACKEND_REF;
static int rounds = 200;
static int errors[64];
static int busy_calls[64], ok_calls[64], arena_waits[64];

/* --shared: one device, and per operator type one operator all threads run */
static tl_device shared_dev;
static edml_operator *shared_ops[OPS_MAX];

/* Counts a refusal as busy (the caller retries after a yield); returns the status. */
static edml_status until_not_busy(int id, edml_status s)
{
    if (s == EDML_STATUS_BUSY) busy_calls[id]++, sched_yield();
    return s;
}

/* One execution on the shared device: right, or BUSY with nothing written. */
static void shared_execute(int id, ops_case *c, edml_operator *op)
{
    ops_reset_outputs(c);
    edml_status s = until_not_busy(id, ops_execute(c, op, NULL));
    if (s == EDML_STATUS_BUSY) {
        if (!ops_outputs_untouched(c) && !errors[id]++)
            fprintf(stderr, "thread %d: %s: refused as busy, outputs written\n", id, c->name);
    } else if (s != EDML_STATUS_OK || !ops_outputs_match(c)) {
        if (!errors[id]++) /* each thread's first: what went wrong */
            fprintf(stderr, "thread %d: %s: status %d, %s\n", id, c->name, (int)s,
                    s ? edml_device_last_error(shared_dev.dev) : "outputs differ");
    } else {
        ok_calls[id]++;
    }
}

static void *shared_worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int r = 0; r < rounds; r++) {
        for (int which = 0; which < ops_count_on(backend); which++) {
            ops_case c;
            ops_make_on(&c, which, backend);
            shared_execute(id, &c, shared_ops[which]); /* one operator, every thread */
            edml_operator *own = NULL;                 /* an operator of its own, on the same device */
            edml_status s;
            /* the arena is a stack: an operator's bytes come back once those
             * created after it are gone, so another thread's operator may
             * hold them; then the call waits for the others' to go (a
             * million times in a row: the bytes never came back, an error) */
            int waited = 0;
            while ((s = until_not_busy(id, edml_operator_create(shared_dev.dev, &c.desc, backend, &own))) ==
                       EDML_STATUS_BUSY ||
                   (s == EDML_STATUS_ARENA_TOO_SMALL && waited < 1000000))
                if (s == EDML_STATUS_ARENA_TOO_SMALL) waited++, arena_waits[id]++, sched_yield();
            if (s != EDML_STATUS_OK) {
                if (!errors[id]++)
                    fprintf(stderr, "thread %d: %s: create: status %d, %s\n", id, c.name, (int)s,
                            edml_device_last_error(shared_dev.dev));
            } else
                shared_execute(id, &c, own);
            while (own && until_not_busy(id, edml_operator_destroy(own)) == EDML_STATUS_BUSY) {}
            ops_free(&c);
        }
    }
    /* the thread ends before the device: its GL context goes (Mesa keeps
     * one still current on an ended thread) */
    while (until_not_busy(id, edml_device_release_thread(shared_dev.dev)) == EDML_STATUS_BUSY) {}
    return NULL;
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    tl_device d;
    if (tl_device_make(&d, edml_device_size() + (1 << 16), EDML_BACKEND_BIT(backend)) != EDML_STATUS_OK) {
        errors[id]++;
        return NULL;
    }
    for (int r = 0; r < rounds; r++) {
        for (int which = 0; which < ops_count_on(backend); which++) {
            ops_case c;
            ops_make_on(&c, which, backend);
            edml_operator *op;
            if (edml_operator_create(d.dev, &c.desc, backend, &op) != EDML_STATUS_OK ||
                ops_execute(&c, op, NULL) != EDML_STATUS_OK || !ops_outputs_match(&c))
                errors[id]++;
            else
                edml_operator_destroy(op);
            ops_free(&c);
        }
    }
    tl_device_free(&d);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = 4;
    bool shared = false, relay = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shared"))
            shared = true;
        else if (!strcmp(argv[i], "--relay"))
            relay = shared = true;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            i++;
            for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
                if (!strcmp(argv[i], edml_backend_name((edml_backend)b))) backend = (edml_backend)b;
        }
    }
    if (n > 64) n = 64;
    if (shared) {
        if (tl_device_make(&shared_dev, edml_device_size() + (1 << 18), EDML_BACKEND_BIT(backend)) != EDML_STATUS_OK)
            return 1;
        for (int which = 0; which < ops_count_on(backend); which++) {
            ops_case c;
            ops_make_on(&c, which, backend);
            if (edml_operator_create(shared_dev.dev, &c.desc, backend, &shared_ops[which]) != EDML_STATUS_OK) return 1;
            ops_free(&c);
        }
    }
    pthread_t t[64];
    for (int i = 0; i < n; i++) {
        pthread_create(&t[i], NULL, shared ? shared_worker : worker, (void *)(intptr_t)i);
        if (relay) pthread_join(t[i], NULL);
    }
    int total = 0, busy = 0, ok = 0, starved = 0, waits = 0;
    for (int i = 0; i < n; i++) {
        if (!relay) pthread_join(t[i], NULL);
        total += errors[i];
        busy += busy_calls[i];
        waits += arena_waits[i];
        ok += ok_calls[i];
        starved += shared && ok_calls[i] == 0;
    }
    if (shared) {
        char info[256];
        bool gles_ok = backend != EDML_BACKEND_GLES ||
                       (edml_device_backends(shared_dev.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES));
        printf(
            "threads: %d threads sharing one device, %d rounds x %d operators x 2 on %s: %d right, %d refused as busy, "
            "%d creations waited for arena bytes others held, %d errors; %s\n",
            n, rounds, ops_count_on(backend), edml_backend_name(backend), ok, busy, waits, total,
            edml_device_gles_info(shared_dev.dev, info, sizeof info));
        total += starved + !gles_ok;
        tl_device_free(&shared_dev);
    } else {
        printf("threads: %d threads x %d rounds x %d operators on %s: %d errors\n", n, rounds, ops_count_on(backend),
               edml_backend_name(backend), total);
    }
    return total ? 1 : 0;
}
