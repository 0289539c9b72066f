/* edml-test: one static program with every test vector built in, to copy to
 * a board and run: the .case vectors on each backend, the randomized
 * differential test of each backend against the test's own oracle (and a
 * quarter as many cases through command lists), and the unit and misuse
 * tests. Prints one line per check and last `N passed, N failed`.
 *
 *   edml-test [--backend B]... [--iters N] [--seed N] [--threads N] [--verbose]
 *
 * Without --backend it runs every backend the board has (ref, neon, gles).
 * --threads N runs the vectors and the differential test on edml's pool of
 * N workers, the work cut into small parts so that every case is split. */
#include "case.h"
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int diff_main(int argc, char **argv);
int unit_main(void);
int misuse_main(void);
int lists_main(void);

/* every backend this build and board have */
static int every_backend(edml_backend *backends)
{
    size_t size = edml_device_size();
    void *arena = aligned_alloc(16, (size + 15) & ~(size_t)15);
    if (arena) memset(arena, 0, size);
    edml_device *dev;
    edml_device_desc dd = {0};
    uint32_t mask = 0;
    int nb = 0;
    if (arena && edml_device_create(&dd, arena, size, &dev) == EDML_STATUS_OK) {
        mask = edml_device_backends(dev);
        edml_device_destroy(dev);
    }
    free(arena);
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
        if (mask & EDML_BACKEND_BIT(b)) backends[nb++] = (edml_backend)b;
    return nb;
}

/* The differential test again on a quarter of the cases, each through a
 * command list (on GLES the kernels no barrier orders run backwards). */
static int diff_through_lists(edml_backend b, const char *iters, const char *seed)
{
    char quarter[16];
    snprintf(quarter, sizeof quarter, "%d", atoi(iters) / 4 > 0 ? atoi(iters) / 4 : 1);
    char *dargv[] = {"diff",       "--backend",      (char *)edml_backend_name(b),
                     "--iters",    quarter,          "--seed",
                     (char *)seed, "--command-list", "--reorder",
                     NULL};
    int rc = diff_main(9, dargv);
    printf("%s differential test on %s through command lists\n", rc ? "FAIL" : "PASS", edml_backend_name(b));
    return rc;
}

int main(int argc, char **argv)
{
    edml_backend backends[EDML_BACKEND_COUNT_];
    int nb = 0;
    const char *iters = "1500", *seed = "1", *threads = "1";
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            i++;
            int b = 0;
            while (b < EDML_BACKEND_COUNT_ && strcmp(argv[i], edml_backend_name((edml_backend)b))) b++;
            if (b == EDML_BACKEND_COUNT_) {
                fprintf(stderr, "edml-test: unknown backend %s\n", argv[i]);
                return 2;
            }
            backends[nb++] = (edml_backend)b;
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= 64)
            threads = argv[++i];
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (image_platform_arg(argv[i]))
            continue;
        else {
            fprintf(stderr,
                    "usage: edml-test [--backend ref|neon|gles|auto]... [--iters N] [--seed N] [--threads 1..64] "
                    "[--verbose]\n");
            return 2;
        }
    }
    if (nb == 0) nb = every_backend(backends);
    printf("edml-test on board %s (%s), library %s\n", edml_board_builtin()->name, edml_board_builtin()->cpu,
           edml_version());
    int passed = 0, failed = 0;
    image_platform_checks(&passed, &failed);
    /* edml's pool is PORT=linux's; without it the vectors run on one thread */
    const bool pool_here = edml_pool_size(1, 0) != 0;
    if (atoi(threads) > 1 && !pool_here)
        printf("NOTE --threads %s: no edml pool in this build (PORT=none): vectors on 1 thread, the differential "
               "test on %s threads of its own\n",
               threads, threads);
    for (int bi = 0; bi < nb; bi++) {
        edml_backend b = backends[bi];
        int cp = 0, cf = 0;
        char why_dev[256];
        edml_device *dev =
            case_device_new(b, pool_here ? (uint32_t)atoi(threads) : 1,
                            pool_here && atoi(threads) > 1 ? EDML_FAULT_SMALL_PARTS : 0u, why_dev, sizeof why_dev);
        if (!dev) {
            printf("FAIL no device for %s: %s\n", edml_backend_name(b), why_dev);
            failed++;
            continue;
        }
        if (b == EDML_BACKEND_GLES) {
            char info[256];
            printf("%s\n", edml_device_gles_info(dev, info, sizeof info));
        }
        for (int i = 0; i < edml_embedded_case_count; i++) {
            const edml_embedded_case *e = &edml_embedded_cases[i];
            edml_case *c = calloc(1, sizeof *c);
            char err[CASE_MSG + 300];
            bool ok;
            if (case_parse(e->text, e->path, c, err, sizeof err)) {
                ok = false;
            } else if (!case_backend_has(c, b)) {
                printf("SKIP %s on %s: no kernel for %s\n", e->path, edml_backend_name(b), case_op_name(c->op));
                case_free(c);
                free(c);
                continue;
            } else {
                case_result r;
                ok = case_check(c, dev, b, &r, err, sizeof err);
                case_result_free(&r);
            }
            if (!ok)
                printf("FAIL %s on %s: %s\n", e->path, edml_backend_name(b), err);
            else if (verbose)
                printf("PASS %s on %s\n", e->path, edml_backend_name(b));
            ok ? cp++ : cf++;
            case_free(c);
            free(c);
        }
        case_device_free(dev);
        printf("%s vectors on %s (%s thread%s): %d passed, %d failed\n", cf ? "FAIL" : "PASS", edml_backend_name(b),
               pool_here ? threads : "1", pool_here && atoi(threads) > 1 ? "s" : "", cp, cf);
        passed += cp;
        failed += cf;
        char *dargv[] = {"diff",       "--backend",     (char *)edml_backend_name(b),
                         "--iters",    (char *)iters,   "--seed",
                         (char *)seed, "--parallel",    "pool",
                         "--workers",  (char *)threads, "--small-parts",
                         NULL};
        const bool pooled = atoi(threads) > 1;
        if (pooled && !pool_here) dargv[8] = "spawn"; /* PORT=none: the test's own threads */
        int rc = diff_main(pooled ? 12 : 7, dargv);
        printf("%s differential test on %s\n", rc ? "FAIL" : "PASS", edml_backend_name(b));
        rc ? failed++ : passed++;
        rc = diff_through_lists(b, iters, seed);
        rc ? failed++ : passed++;
    }
    int rc = unit_main();
    printf("%s unit tests\n", rc ? "FAIL" : "PASS");
    rc ? failed++ : passed++;
    rc = misuse_main();
    printf("%s misuse tests\n", rc ? "FAIL" : "PASS");
    rc ? failed++ : passed++;
    rc = lists_main();
    printf("%s command list tests\n", rc ? "FAIL" : "PASS");
    rc ? failed++ : passed++;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
