/* gpu-compile: compiles GLES programs exactly as a device would (its
 * prelude, workgroup and limits from the driver found), one at a time, and
 * prints each one's outcome and compile time, for toolchain/gpu-targets to
 * run on a GPU compiler without the GPU (Mesa's drm-shim drivers print
 * each program's statistics themselves).
 *   gpu-compile --list                the programs, one a line
 *   gpu-compile PROGRAM [--limits v3d|mali|adreno|gles31]
 *                                     one program: "PROGRAM ok SECONDS LOCAL"
 *                                     or "PROGRAM error SECONDS: why", or
 *                                     "PROGRAM unused 0" where a device on
 *                                     that GPU does not build it
 *   gpu-compile --trips [--limits L]  each program's most loop iterations an
 *                                     invocation runs on this GPU (the
 *                                     watchdog model, src/gles/gles_watchdog.c):
 *                                     "PROGRAM TRIPS" */
#define _POSIX_C_SOURCE 200809L
#include "case.h"
#include "gles/gles.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int p = 0; p < EDMLI_GLES_PROG_COUNT; p++) printf("%s\n", edmli_gles_src_name[p]);
        return 0;
    }
    uint32_t faults = 0;
    if (argc == 4 && !strcmp(argv[2], "--limits"))
        faults = case_limits_fault(argv[3]);
    else if (argc != 2) {
        fprintf(stderr, "usage: gpu-compile PROGRAM|--trips [--limits " CASE_LIMITS_NAMES "] | --list\n");
        return 2;
    }
    const bool trips = !strcmp(argv[1], "--trips");
    int id = -1;
    for (int p = 0; p < EDMLI_GLES_PROG_COUNT; p++)
        if (!strcmp(argv[1], edmli_gles_src_name[p])) id = p;
    if (id < 0 && !trips) {
        fprintf(stderr, "gpu-compile: no program %s\n", argv[1]);
        return 2;
    }
    static edml_device dev; /* what the backend reads of a device: its board */
    static edmli_gles g;
    dev.board = *edml_board_builtin();
    dev.board.gpu_workgroup = 0; /* the GPU's own choice (256 on V3D) */
    char why[512];
    if (!edmli_gles_open_context(&g, &dev, faults, why, sizeof why)) {
        printf("%s error 0: no context: %s\n", argv[1], why);
        return 1;
    }
    fprintf(stderr, "gpu-compile: %s on %s\n", argv[1], g.renderer);
    if (trips) {
        for (int p = 0; p < EDMLI_GLES_PROG_COUNT; p++)
            if (edmli_gles_builds(&g, (edmli_gles_prog)p))
                printf("%s %llu\n", edmli_gles_src_name[p],
                       (unsigned long long)edmli_gles_worst_trips(&g, (edmli_gles_prog)p));
        edmli_gles_close(&g);
        return 0;
    }
    if (!edmli_gles_builds(&g, (edmli_gles_prog)id)) { /* a device there neither builds nor uses it */
        printf("%s unused 0\n", argv[1]);
        edmli_gles_close(&g);
        return 0;
    }
    const double t0 = now();
    const bool ok = edmli_gles_compile(&g, (edmli_gles_prog)id, why, sizeof why);
    const double t = now() - t0;
    if (g.stat_text[0]) printf("STATS: %s\n", g.stat_text); /* the driver's, through GL_KHR_debug */
    if (ok)
        printf("%s ok %.3f %u\n", argv[1], t, edmli_gles_prog_local(&g, (edmli_gles_prog)id));
    else
        printf("%s error %.3f: %s\n", argv[1], t, why);
    edmli_gles_close(&g);
    return ok ? 0 : 1;
}
