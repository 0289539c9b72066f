/* Programs made ready before their first use: built when an operator first
 * needs them (device creation compiles nothing, or starts every program in
 * the driver's threads), then checked on every known-answer test that
 * dispatches them on this device (gles_kat.c): a tiny operator runs on the
 * GPU and on the reference, and the answers must be equal bit for bit. A
 * driver that skips a dispatch it could not compile (Mesa's V3D does, after
 * a failed register allocation, with no GL error) or runs it wrong takes
 * that program off the device, with the reason, instead of answering with
 * whatever the output held. A program whose tests have not all passed is
 * never dispatched: its operator waits for them, runs on the CPU (AUTO), or
 * is refused with the reason. */
#include "gles.h"

#include <string.h>

/* Each test planned on this device once: the programs it dispatches and
 * the host bytes it takes; each program's largest. They depend on the
 * device's limits alone (not on what the GPU arena holds now), so that
 * every size the device reports stays the same. */
static void edmli_gles_kat_size(edmli_gles *g, edml_device *dev)
{
    if (g->check_sized) return;
    for (uint32_t i = 0; i < EDMLI_GLES_KATS; i++) {
        edml_operator op;
        uint64_t bytes;
        uint32_t needs;
        g->kat_programs[i] = edmli_gles_kat_plan(g, dev, i, &op, &bytes, &needs);
        g->kat_bytes[i] = (uint32_t)bytes;
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
            if ((g->kat_programs[i] >> id & 1u) && g->check_need[id] < bytes) g->check_need[id] = (uint32_t)bytes;
    }
    g->check_sized = true;
}

uint64_t edmli_gles_check_bytes(edmli_gles *g, edml_device *dev, uint32_t programs)
{
    edmli_gles_kat_size(g, dev);
    uint64_t need = 0;
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->check_need[id] > need) need = g->check_need[id];
    return need;
}

/* Builds the programs given, waiting for the driver: false where one fails. */
static bool edmli_gles_build_all(edmli_gles *g, uint32_t programs)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if (programs >> id & 1u) {
            if (g->prog_state[id] == EDMLI_GLES_PROG_NONE) edmli_gles_build_start(g, (edmli_gles_prog)id);
            edmli_gles_build_end(g, (edmli_gles_prog)id);
        }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_FAILED) return false;
    return true;
}

/* Test i run (its programs built first), in an execution's scratch or the
 * device arena's free top. */
static edmli_gles_kat_outcome edmli_gles_run_test(edmli_gles *g, edml_device *dev, uint32_t i, uint32_t *ran,
                                                  edml_status *status, char *why, size_t cap)
{
    edmli_errbuf err = {{0}, NULL, NULL};
    edml_operator op;
    uint64_t bytes;
    uint32_t needs;
    *ran = 0;
    (void)edmli_gles_kat_plan(g, dev, i, &op, &bytes, &needs);
    if (!edmli_gles_build_all(g, needs)) {
        edmli_format(why, cap, "its known-answer test needs a kernel that failed");
        return EDMLI_GLES_KAT_FAILED;
    }
    if (g->check_mem && g->check_mem_bytes >= bytes)
        return edmli_gles_kat_run(g, &op, i, g->check_mem, ran, status, why, cap);
    void *mem = NULL;
    if (bytes && edmli_arena_scratch(&dev->arena, &err, "the known-answer test of a GPU kernel", (size_t)bytes, &mem)) {
        *status = EDML_STATUS_ARENA_TOO_SMALL;
        edmli_format(why, cap, "its known-answer test could not run: %s", err.text);
        return EDMLI_GLES_KAT_NOT_RUN;
    }
    const edmli_gles_kat_outcome o = edmli_gles_kat_run(g, &op, i, (uint8_t *)mem, ran, status, why, cap);
    if (bytes) edmli_arena_release_scratch(&dev->arena);
    return o;
}

/* Test i's outcome on the programs it is a test of: a pass counts for each
 * it dispatched (CHECKED once every test of it passed and one dispatched
 * it), a failure takes them off with why. */
static void edmli_gles_kat_mark(edmli_gles *g, uint32_t i, edmli_gles_kat_outcome o, uint32_t ran, const char *why)
{
    if (o == EDMLI_GLES_KAT_PASSED) g->kat_passed |= 1u << i, g->prog_passed |= ran & g->kat_programs[i];
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++) {
        if (!(g->kat_programs[i] >> id & 1u) || g->prog_state[id] != EDMLI_GLES_PROG_BUILT) continue;
        uint32_t tests = 0;
        for (uint32_t t = 0; t < EDMLI_GLES_KATS; t++) tests |= (uint32_t)(g->kat_programs[t] >> id & 1u) << t;
        if (o == EDMLI_GLES_KAT_FAILED) { /* (why is written only for a failure) */
            char text[EDMLI_GLES_WHY_BYTES];
            edmli_format(text, sizeof text, "kernel %s: %s", edmli_gles_src_name[id], why);
            edmli_gles_failed(g, (edmli_gles_prog)id, text);
        } else if (!(tests & ~g->kat_passed) && (g->prog_passed >> id & 1u))
            g->prog_state[id] = EDMLI_GLES_PROG_CHECKED;
    }
}

/* The BUILT programs among `programs` checked on their tests: NOT_RUN
 * (status, why) where one could not run; those stay unchecked, unused. */
static edmli_gles_kat_outcome edmli_gles_check(edmli_gles *g, edml_device *dev, uint32_t programs, edml_status *status,
                                               char *why, size_t cap)
{
    edmli_gles_kat_size(g, dev);
    if (g->faults & EDML_FAULT_UNCHECKED) {
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
            if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_BUILT)
                g->prog_state[id] = EDMLI_GLES_PROG_CHECKED;
        return EDMLI_GLES_KAT_PASSED;
    }
    edmli_gles_kat_outcome o = EDMLI_GLES_KAT_PASSED;
    g->checking = true;
    for (uint32_t i = 0; i < EDMLI_GLES_KATS && o != EDMLI_GLES_KAT_NOT_RUN; i++) {
        uint32_t unchecked = 0;
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
            if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_BUILT) unchecked |= 1u << id;
        if (!(g->kat_programs[i] & unchecked) || (g->kat_passed >> i & 1u)) continue;
        uint32_t ran;
        char text[EDMLI_GLES_WHY_BYTES];
        o = edmli_gles_run_test(g, dev, i, &ran, status, text, sizeof text);
        if (o == EDMLI_GLES_KAT_NOT_RUN) edmli_format(why, cap, "%s", text);
        edmli_gles_kat_mark(g, i, o, ran, text);
    }
    g->checking = false;
    return o == EDMLI_GLES_KAT_NOT_RUN ? o : EDMLI_GLES_KAT_PASSED;
}

/* The programs' readiness once started: LATER while one still compiles
 * (without `wait`), NEVER where one failed, else READY. */
static edmli_readiness edmli_gles_built_now(edmli_gles *g, uint32_t programs, bool wait, char *why, size_t cap)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && !wait && !edmli_gles_build_done(g, (edmli_gles_prog)id)) return EDMLI_LATER;
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if (programs >> id & 1u) {
            edmli_gles_build_end(g, (edmli_gles_prog)id);
            if (g->prog_state[id] == EDMLI_GLES_PROG_FAILED) {
                edmli_gles_why(g, (edmli_gles_prog)id, why, cap);
                return EDMLI_NEVER;
            }
        }
    return EDMLI_READY;
}

bool edmli_gles_checked(const edmli_gles *g, uint32_t programs)
{
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] != EDMLI_GLES_PROG_CHECKED) return false;
    return true;
}

/* The built programs checked where the mode allows: NEVER where one failed,
 * SHORT or MAPPED where a test could not run (READY at a creation, which
 * leaves them to the first execution), LATER in a list's batch (its
 * entries were checked as they were recorded), else READY. */
static edmli_readiness edmli_gles_check_now(edmli_gles *g, edml_device *dev, uint32_t programs,
                                            edmli_gles_check_mode mode, char *why, size_t cap)
{
    if (g->checking || g->batching) {
        edmli_format(why, cap, "its GPU kernels were not checked before the command list ran");
        return edmli_gles_checked(g, programs) ? EDMLI_READY : EDMLI_LATER;
    }
    edml_status status = EDML_STATUS_OK;
    if (edmli_gles_check(g, dev, programs, &status, why, cap) == EDMLI_GLES_KAT_NOT_RUN &&
        mode != EDMLI_GLES_CHECK_OR_DEFER)
        return status == EDML_STATUS_BUSY ? EDMLI_MAPPED : EDMLI_SHORT;
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_FAILED) {
            edmli_gles_why(g, (edmli_gles_prog)id, why, cap);
            return EDMLI_NEVER;
        }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT && mode == EDMLI_GLES_CHECK_NOW; id++)
        if ((programs >> id & 1u) && g->prog_state[id] != EDMLI_GLES_PROG_CHECKED) {
            edmli_format(why, cap, "kernel %s has no known-answer test that runs on this GPU", edmli_gles_src_name[id]);
            return EDMLI_NEVER;
        }
    return EDMLI_READY;
}

edmli_readiness edmli_gles_ready(edmli_gles *g, edml_device *dev, uint32_t programs, bool wait,
                                 edmli_gles_check_mode mode, char *why, size_t cap)
{
    if (g->lost[0]) {
        edmli_format(why, cap, "GLES is off on this device: %s", g->lost);
        return EDMLI_NEVER;
    }
    if (edmli_gles_checked(g, programs)) return EDMLI_READY;
    if (!edmli_port_gl_make_current(&g->port)) {
        edmli_format(why, cap, "eglMakeCurrent failed");
        return EDMLI_NEVER;
    }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if ((programs >> id & 1u) && g->prog_state[id] == EDMLI_GLES_PROG_NONE)
            edmli_gles_build_start(g, (edmli_gles_prog)id);
    edmli_readiness r = edmli_gles_built_now(g, programs, wait, why, cap);
    if (r == EDMLI_READY) r = edmli_gles_check_now(g, dev, programs, mode, why, cap);
    edmli_gles_release(g);
    return r;
}

uint32_t edmli_gles_check_count(void) { return EDMLI_GLES_KATS; }

uint32_t edmli_gles_check_programs(edmli_gles *g, edml_device *dev, uint32_t i)
{
    char why[EDMLI_GLES_WHY_BYTES];
    uint32_t ran = 0;
    edml_status status;
    if (i >= EDMLI_GLES_KATS || !edmli_port_gl_make_current(&g->port)) return 0;
    g->checking = true;
    edmli_gles_kat_size(g, dev);
    const edmli_gles_kat_outcome o = edmli_gles_run_test(g, dev, i, &ran, &status, why, sizeof why);
    g->checking = false;
    edmli_gles_release(g);
    return o == EDMLI_GLES_KAT_PASSED ? ran & g->kat_programs[i] : 0;
}
