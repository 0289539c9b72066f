/* Concurrency: devices are independent. Several threads, each with its own
 * device, run every operator type at once and check every result.
 *   threads [--backend ref|neon|gles] [--threads N] [--rounds N]
 * Run under ThreadSanitizer by `make test` (CPU backends). */
#include "ops.h"

#include <pthread.h>

static edml_backend backend = EDML_BACKEND_REF;
static int rounds = 200;
static int errors[64];

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    tl_device d;
    if (tl_device_make(&d, edml_device_size() + (1 << 16), EDML_BACKEND_BIT(backend)) != EDML_STATUS_OK) {
        errors[id]++;
        return NULL;
    }
    for (int r = 0; r < rounds; r++) {
        for (int which = 0; which < OPS_COUNT; which++) {
            ops_case c;
            ops_make(&c, which);
            edml_operator *op;
            if (edml_operator_create(d.dev, &c.desc, backend, &op) != EDML_STATUS_OK || ops_execute(&c, op, NULL) != EDML_STATUS_OK ||
                !ops_outputs_match(&c))
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
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            i++;
            for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
                if (!strcmp(argv[i], edml_backend_name((edml_backend)b))) backend = (edml_backend)b;
        }
    }
    if (n > 64) n = 64;
    pthread_t t[64];
    for (int i = 0; i < n; i++) pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    int total = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
        total += errors[i];
    }
    printf("threads: %d threads x %d rounds x %d operators on %s: %d errors\n", n, rounds, OPS_COUNT, edml_backend_name(backend), total);
    return total ? 1 : 0;
}
