/* The program cache (src/gles/gles_cache.c) as firmware keeps it in flash:
 * a second boot loads every program from its binary; memory inside the
 * device arena is refused; a header changed after creation never leads a
 * write past program_cache_bytes; a damaged entry (a flipped bit), one whose
 * size runs past the bytes used, and a binary the driver refuses are each
 * dropped, compiled once and kept again, so the boot after loads them and
 * the cache does not grow; another driver's cache is emptied; operator
 * sizes are the same with programs from the cache or compiled; memory given
 * to two live devices is held by the one created last. */
#define _POSIX_C_SOURCE 200809L
#include "gles/gles.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_BYTES (4u << 20)
#define GUARD 4096u /* bytes after the cache that must stay as they were */

static uint8_t *arena, *cache;
static size_t arena_size;

static edml_device *boot(uint32_t faults)
{
    edml_device_desc dd = {0};
    dd.inject_faults = faults;
    dd.program_cache = cache;
    dd.program_cache_bytes = CACHE_BYTES;
    edml_device *dev = NULL;
    memset(arena, 0, arena_size);
    if (edml_device_create(&dd, arena, arena_size, &dev) != EDML_STATUS_OK) return NULL;
    return dev;
}

/* Every program a device builds, built (and so loaded or compiled). */
static void build_all(edml_device *dev)
{
    edmli_gles *g = (edmli_gles *)dev->state[EDML_BACKEND_GLES];
    for (uint32_t i = 0; i < edmli_gles_check_count(); i++) (void)edmli_gles_check_programs(g, dev, i);
}

/* A boot that builds every program: its stats. */
static edml_program_cache_stats boot_and_build(void)
{
    edml_program_cache_stats st;
    memset(&st, 0xff, sizeof st);
    edml_device *dev = boot(0);
    CHECK(dev != NULL, "boot");
    if (!dev) return st;
    build_all(dev);
    CHECK(edml_device_program_cache_stats(dev, &st) == EDML_STATUS_OK, "stats");
    edml_device_destroy(dev);
    return st;
}

static bool guard_intact(void)
{
    for (uint32_t i = 0; i < GUARD; i++)
        if (cache[CACHE_BYTES + i] != 0x5a) return false;
    return true;
}

/* The entries as the cache lays them out (gles_cache.c): 32 bytes of
 * header, then each entry's 32 bytes and its binary, 16-byte aligned. */
typedef struct entry {
    uint32_t prog, src_hash, format, bytes;
    int32_t spills, fills;
    uint32_t sum, reserved;
} entry;

static uint32_t fnv(uint32_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Entry k's offset in the cache (0: none). */
static uint32_t entry_at(uint32_t k)
{
    uint32_t count, at = 32;
    memcpy(&count, cache + 16, 4);
    for (uint32_t i = 0; i < count; i++) {
        entry e;
        memcpy(&e, cache + at, sizeof e);
        if (i == k) return at;
        at += (uint32_t)sizeof e + ((e.bytes + 15u) & ~15u);
    }
    return 0;
}

/* The driver's refusal, as after an update: entry k's binary format
 * changed, its checksum made right again. */
static void make_refused(uint32_t k)
{
    entry e;
    const uint32_t at = entry_at(k);
    memcpy(&e, cache + at, sizeof e);
    e.format ^= 0x5a5a0000u;
    e.sum = 0;
    e.sum = fnv(fnv(2166136261u, (const uint8_t *)&e, sizeof e), cache + at + sizeof e, e.bytes);
    memcpy(cache + at, &e, sizeof e);
}

static void check_refused_memory(void)
{
    edml_device_desc dd = {0};
    edml_device *dev = NULL;
    dd.program_cache = arena + arena_size - 64; /* its first bytes are the arena's last */
    dd.program_cache_bytes = CACHE_BYTES;
    char buf[300] = "";
    dd.error_buffer = buf, dd.error_buffer_bytes = sizeof buf;
    memset(arena, 0, arena_size);
    CHECK(edml_device_create(&dd, arena, arena_size, &dev) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(buf, "program_cache") && strstr(buf, "overlaps the device arena"),
          "a cache overlapping the arena's end: %s", buf);
    dd.program_cache = arena + 4096, dd.program_cache_bytes = 1024;
    CHECK(edml_device_create(&dd, arena, arena_size, &dev) == EDML_STATUS_INVALID_ARGUMENT, "a cache inside the arena");
    dd.program_cache = arena + arena_size; /* just after it: fine */
    dd.program_cache_bytes = 64;
    CHECK(edml_device_create(&dd, arena, arena_size, &dev) == EDML_STATUS_OK, "a cache just after the arena: %s", buf);
    if (dev) edml_device_destroy(dev);
}

/* The header's bytes used changed by the caller after creation: the device
 * goes by its own count and writes nothing past program_cache_bytes. */
static void check_header_changed(void)
{
    memset(cache, 0xA5, CACHE_BYTES);
    edml_device *dev = boot(0);
    CHECK(dev != NULL, "boot");
    if (!dev) return;
    const uint32_t lie = CACHE_BYTES - 8;
    memcpy(cache + 12, &lie, 4);
    build_all(dev);
    edml_program_cache_stats st;
    CHECK(edml_device_program_cache_stats(dev, &st) == EDML_STATUS_OK && st.kept > 0 && st.used < CACHE_BYTES / 2,
          "kept %u, used %zu", st.kept, st.used);
    CHECK(guard_intact(), "nothing written past program_cache_bytes");
    edml_device_destroy(dev);
}

/* Damage at boot: dropped, compiled once, kept; the boot after loads all. */
static void check_damage(const char *what, void (*damage)(void), uint32_t field, uint32_t want)
{
    (void)boot_and_build();
    edml_program_cache_stats full = boot_and_build();
    CHECK(full.compiled == 0 && full.loaded > 0, "%s: a boot from a full cache compiles nothing: %u", what,
          full.compiled);
    damage();
    edml_program_cache_stats st = boot_and_build();
    const uint32_t got = field == 0 ? st.damaged : st.refused;
    CHECK(got == want && st.compiled == want && st.kept == want && st.loaded + want == full.loaded,
          "%s: %u dropped (want %u), %u compiled, %u kept, %u loaded of %u", what, got, want, st.compiled, st.kept,
          st.loaded, full.loaded);
    CHECK(st.used == full.used, "%s: the cache did not grow: %zu, %zu", what, st.used, full.used);
    edml_program_cache_stats after = boot_and_build();
    CHECK(after.compiled == 0 && after.loaded == full.loaded && after.used == full.used && after.damaged == 0 &&
              after.refused == 0,
          "%s: the boot after loads every program: %u compiled, %u loaded", what, after.compiled, after.loaded);
    CHECK(guard_intact(), "%s: nothing written past program_cache_bytes", what);
}

static void flip_a_bit(void) { cache[entry_at(2) + 32 + 7] ^= 0x10; }
static void run_past_used(void)
{
    uint32_t huge = 0x7fffff00u; /* the last entry's bytes, past the bytes used */
    uint32_t count;
    memcpy(&count, cache + 16, 4);
    memcpy(cache + entry_at(count - 1) + 12, &huge, 4);
}
static void refuse_one(void) { make_refused(3); }

/* Operator sizes on a cold device and on one whose programs came from the cache. */
static void check_sizes(void)
{
    static const UINT sizes[2] = {64, 64};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0},
                            cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 2, sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ft = {EDML_TENSOR_TYPE_BUFFER, &fb}, ct = {EDML_TENSOR_TYPE_BUFFER, &cb};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC wi = {&ct, &ft, &ft, &ft};
    const EDML_OPERATOR_DESC d = {EDML_OPERATOR_ELEMENT_WISE_IF, &wi};
    edml_operator_sizes s[2];
    for (int k = 0; k < 2; k++) {
        if (!k) memset(cache, 0, CACHE_BYTES); /* cold: nothing cached */
        edml_device *dev = boot(0);
        CHECK(dev && edml_operator_query(dev, &d, EDML_BACKEND_GLES, &s[k]) == EDML_STATUS_OK, "query %d", k);
        if (dev) build_all(dev), edml_device_destroy(dev);
    }
    CHECK(s[0].persistent_bytes == s[1].persistent_bytes && s[0].temporary_bytes == s[1].temporary_bytes &&
              s[0].gpu_persistent_bytes == s[1].gpu_persistent_bytes,
          "sizes cold and cached: %zu/%zu %zu/%zu", s[0].persistent_bytes, s[1].persistent_bytes, s[0].temporary_bytes,
          s[1].temporary_bytes);
}

/* Two live devices given the same memory: the one created last holds it.
 * The first lets go when it next uses the cache (taken, nothing kept, no
 * byte of the other's written), the last keeps every program it builds,
 * and the boot after loads them all, compiling none. */
static void check_two_devices(void)
{
    uint8_t *second = aligned_alloc(16, arena_size);
    if (!second) abort();
    memset(cache, 0, CACHE_BYTES);
    memset(second, 0, arena_size);
    edml_device *first = boot(0), *last = NULL;
    edml_device_desc dd = {0};
    dd.program_cache = cache, dd.program_cache_bytes = CACHE_BYTES;
    CHECK(first && edml_device_create(&dd, second, arena_size, &last) == EDML_STATUS_OK, "two devices");
    edml_program_cache_stats a, b;
    if (first && last) {
        build_all(first);
        build_all(last);
        CHECK(edml_device_program_cache_stats(first, &a) == EDML_STATUS_OK && a.taken == 1 && a.kept == 0 &&
                  a.used == 0,
              "the first device lets go: taken %u, kept %u, used %zu", a.taken, a.kept, a.used);
        CHECK(edml_device_program_cache_stats(last, &b) == EDML_STATUS_OK && b.taken == 0 && b.kept == b.compiled &&
                  b.kept > 0,
              "the last device holds it: taken %u, kept %u of %u compiled", b.taken, b.kept, b.compiled);
    }
    if (first) edml_device_destroy(first);
    if (last) edml_device_destroy(last);
    const edml_program_cache_stats next = boot_and_build();
    CHECK(next.compiled == 0 && next.loaded == b.kept && next.taken == 0,
          "the boot after: %u loaded, %u compiled (%u kept before)", next.loaded, next.compiled, b.kept);
    CHECK(guard_intact(), "bytes after the cache changed");
    free(second);
}

int main(void)
{
    arena_size = edml_device_size() + (8u << 20);
    arena = aligned_alloc(16, arena_size);
    cache = malloc(CACHE_BYTES + GUARD);
    if (!arena || !cache) abort();
    memset(cache + CACHE_BYTES, 0x5a, GUARD);
    edml_device *probe = boot(0);
    edml_program_cache_stats st = {0};
    if (!probe || !(edml_device_backends(probe) & EDML_BACKEND_BIT(EDML_BACKEND_GLES)) ||
        edml_device_program_cache_stats(probe, &st) || !st.emptied) {
        printf("cache: no GLES with program binaries on this machine: nothing to test\n");
        if (probe) edml_device_destroy(probe);
        return tl_summary("cache");
    }
    edml_device_destroy(probe);
    check_refused_memory();
    check_header_changed();
    check_damage("a flipped bit", flip_a_bit, 0, 1);
    check_damage("a size past the bytes used", run_past_used, 0, 1);
    check_damage("a binary the driver refuses", refuse_one, 1, 1);
    memcpy(cache + 8, "\x01\x02\x03\x04", 4); /* another driver's key */
    st = boot_and_build();
    CHECK(st.emptied == 1 && st.loaded == 0 && st.kept == st.compiled, "another driver's cache emptied");
    check_sizes();
    check_two_devices();
    printf("cache: %zu bytes hold every program; damaged, refused and overlong entries replaced once\n", st.used);
    free(arena), free(cache);
    return tl_summary("cache");
}
