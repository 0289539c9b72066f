/* The GLES backend's known-answer tests (src/gles/gles_ready.c), from
 * inside: on this machine's GPU, at its own limits and under each small
 * GPU's (V3D, GLES 3.1's minimums), every program a device builds is
 * dispatched by one of the tests, and every test's answer is right. Then
 * the program cache: a second device given the first one's cache loads its
 * programs from their binaries instead of compiling them, and a cache of
 * another driver or a damaged one is emptied and filled again. */
#define _POSIX_C_SOURCE 200809L
#include "gles/gles.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static edml_device *make(void *arena, size_t size, uint32_t faults, void *cache, size_t cache_bytes)
{
    edml_device_desc dd = {0};
    dd.inject_faults = faults;
    dd.program_cache = cache;
    dd.program_cache_bytes = cache_bytes;
    edml_device *dev = NULL;
    memset(arena, 0, size);
    if (edml_device_create(&dd, arena, size, &dev) != EDML_STATUS_OK) return NULL;
    return dev;
}

static void check_coverage(void *arena, size_t size, uint32_t faults, const char *limits)
{
    edml_device *dev = make(arena, size, faults, NULL, 0);
    CHECK(dev != NULL, "device (%s)", limits);
    if (!dev) return;
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    uint32_t all = 0, want = 0, tests = 0;
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++) {
        const uint32_t ran = edmli_gles_check_programs(g, dev, i);
        CHECK(ran == g->kat_programs[i], "%s: known-answer test %u did not dispatch what it tests, or came back wrong",
              limits, i);
        all |= ran;
        tests += g->kat_programs[i] != 0;
    }
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        if (edmli_gles_builds(g, (edmli_gles_prog)id)) {
            want |= 1u << id;
            CHECK(all >> id & 1u, "%s: no known-answer test dispatches %s", limits, edmli_gles_src_name[id]);
        }
    printf("kat: %s: %u tests check %d programs\n", limits, tests, __builtin_popcount(all));
    CHECK((all & ~want) == 0, "%s: a test dispatched a program the device does not build", limits);
    edml_device_destroy(dev);
}

/* GatherND's kernel skipped by the driver: its test says so (0). */
static void check_skipped(void *arena, size_t size)
{
    edml_device *dev = make(arena, size, EDML_FAULT_SKIPPED_DISPATCH, NULL, 0);
    CHECK(dev != NULL, "device");
    if (!dev) return;
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    uint32_t caught = 0;
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++)
        if (!edmli_gles_check_programs(g, dev, i)) caught++;
    CHECK(caught == 2, "the two GatherND tests come back wrong with its dispatch skipped: %u", caught);
    edml_device_destroy(dev);
}

/* A GPU that runs nothing yet reports every dispatch done (no completion
 * record catches it): every test must come back wrong, also where the GPU
 * arena still holds the right answers of the same tests run just before
 * (the output staging is filled with a pattern first), in both directions. */
static void check_idle(void *arena, size_t size, uint32_t faults, const char *limits)
{
    edml_device *dev = make(arena, size, faults, NULL, 0);
    CHECK(dev != NULL, "device");
    if (!dev) return;
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    uint32_t caught = 0, tests = 0;
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++) {
        if (!edmli_gles_check_programs(g, dev, i)) continue; /* none here */
        tests++;
        g->faults |= EDMLI_GLES_FAULT_IDLE;
        caught += edmli_gles_check_programs(g, dev, i) == 0;
        g->faults &= ~EDMLI_GLES_FAULT_IDLE;
    }
    CHECK(tests > 0 && caught == tests,
          "%s: an idle GPU with the right answers in its arena fails every test: %u of %u", limits, caught, tests);
    printf("kat: %s: an idle GPU fails all %u tests that ran right just before\n", limits, tests);
    edml_device_destroy(dev);
}

static void check_cache(void *arena, size_t size)
{
    const size_t bytes = 4u << 20;
    uint8_t *cache = malloc(bytes);
    if (!cache) abort();
    memset(cache, 0xA5, bytes); /* what was there before: not a cache */
    edml_device *dev = make(arena, size, 0, cache, bytes);
    CHECK(dev != NULL, "device with a cache");
    if (!dev) return;
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++) (void)edmli_gles_check_programs(g, dev, i);
    size_t used = 0;
    CHECK(edml_device_program_cache_used(dev, &used) == EDML_STATUS_OK && used > 64, "cache used: %zu", used);
    printf("kat: the program cache holds %zu bytes after every program was built\n", used);
    edml_device_destroy(dev);
    /* the next start: every program from its binary, before any is needed */
    dev = make(arena, size, 0, cache, bytes);
    CHECK(dev != NULL, "device from the cache");
    if (!dev) return;
    g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    uint32_t all = 0, built = 0;
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++) all |= edmli_gles_check_programs(g, dev, i);
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        built |= (uint32_t)edmli_gles_builds(g, (edmli_gles_prog)id) << id;
    CHECK(g->cache_loaded == built, "every program loaded from its binary: %x of %x", g->cache_loaded, built);
    CHECK(all == built, "programs from binaries pass their known answers: %x of %x", all, built);
    size_t again = 0;
    CHECK(edml_device_program_cache_used(dev, &again) == EDML_STATUS_OK && again == used,
          "nothing added when all came from it: %zu, %zu", again, used);
    edml_device_destroy(dev);
    /* another driver's (its key changed): emptied */
    cache[8] ^= 0xFF;
    dev = make(arena, size, 0, cache, bytes);
    CHECK(dev != NULL && edml_device_program_cache_used(dev, &again) == EDML_STATUS_OK && again == 32,
          "another key's cache emptied: %zu", again);
    if (dev) edml_device_destroy(dev);
    free(cache);
}

int main(void)
{
    const size_t size = edml_device_size() + (8u << 20);
    void *arena = aligned_alloc(16, size);
    if (!arena) abort();
    edml_device *probe = make(arena, size, 0, NULL, 0);
    if (!probe || !(edml_device_backends(probe) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) {
        printf("kat: no GLES on this machine: nothing to test\n");
        if (probe) edml_device_destroy(probe);
        free(arena);
        return tl_summary("kat");
    }
    edml_device_destroy(probe);
    check_coverage(arena, size, 0, "this GPU's limits");
    check_coverage(arena, size, EDML_FAULT_LIMITS_V3D, "V3D's limits");
    check_coverage(arena, size, EDML_FAULT_LIMITS_MALI, "a Mali's limits");
    check_coverage(arena, size, EDML_FAULT_LIMITS_ADRENO, "an Adreno's limits");
    check_coverage(arena, size, EDML_FAULT_LIMITS_GLES31, "GLES 3.1's minimums");
    check_skipped(arena, size);
    check_idle(arena, size, 0, "this GPU's limits");
    check_idle(arena, size, EDML_FAULT_LIMITS_V3D, "V3D's limits");
    check_cache(arena, size);
    free(arena);
    return tl_summary("kat");
}
