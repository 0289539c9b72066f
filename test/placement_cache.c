/* The placement cache (edml_device_desc.placement_cache) on this
 * machine's GPU: decisions used at once by a device re-created on it, at
 * any alignment; another board's emptied, another GPU driver's or edml
 * version's kept stale (measured again where the device measures); checked
 * like the program cache (damaged entries dropped, at creation and after
 * it, a full cache said, one too small for one decision said); two live
 * devices on one cache's memory (the last created holds it); decisions
 * with GPU buffers keyed by whether the GPU arena is mapped. Fails where
 * the machine has no GLES (make test installs Mesa). */
#define _POSIX_C_SOURCE 200809L
#include "placement.h"

/* Every sample measured on a device with the cache; a second device on the
 * same memory uses the decisions at once (sizes unchanged); SAVED mode too,
 * and measures nothing where the cache has no decision. */
static void check_cache_reused(void)
{
    tl_device d;
    edml_placement_cache_stats st;
    edml_operator_sizes cold, warm;
    memset(cache, 0x5a, sizeof cache);
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_CPU, cache, CACHE_BYTES);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    CHECK(edml_device_placement_cache_stats(dev, &st) == EDML_STATUS_OK && st.emptied == 1 && st.decisions == 0,
          "a new cache: emptied %u", st.emptied);
    edml_operator_query(dev, &c.desc, EDML_BACKEND_AUTO, &cold);
    CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
    measure(dev, &c, op, "for the cache");
    edml_device_placement_cache_stats(dev, &st);
    CHECK(st.kept == 1 && st.decisions == 1 && st.used == 32 + 40, "kept %u, %u decisions, %zu bytes", st.kept,
          st.decisions, st.used);
    CHECK(cache[CACHE_BYTES] == 0x5a, "written past placement_cache_bytes");
    tl_device_free(&d);
    const uint32_t modes[2] = {EDML_PLACEMENT_SAVED, EDML_PLACEMENT_MEASURE};
    for (int m = 0; m < 2; m++) {
        const uint32_t mode = modes[m];
        char why[300];
        dev = make(&d, mode, 0, cache, CACHE_BYTES);
        edml_operator_query(dev, &c.desc, EDML_BACKEND_AUTO, &warm);
        CHECK(warm.persistent_bytes == cold.persistent_bytes && warm.gpu_persistent_bytes == cold.gpu_persistent_bytes,
              "sizes depend on the cache: %zu/%zu", warm.persistent_bytes, cold.persistent_bytes);
        CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
        CHECK(edml_operator_backend(op) == EDML_BACKEND_GLES &&
                  strstr(edml_operator_placement(op, why, sizeof why), "gles: saved, measured with host memory"),
              "mode %u: %s", mode, why);
        ops_reset_outputs(&c);
        CHECK(ops_execute(&c, op, NULL) == EDML_STATUS_OK && ops_outputs_match(&c), "saved: run");
        CHECK(strstr(edml_operator_placement(op, why, sizeof why), "saved"), "mode %u measured again: %s", mode, why);
        edml_device_placement_cache_stats(dev, &st);
        CHECK(st.loaded == 1 && st.emptied == 0 && st.kept == 0, "loaded %u emptied %u kept %u", st.loaded, st.emptied,
              st.kept);
        ops_case other;
        ops_make_on(&other, 1, EDML_BACKEND_GLES);
        edml_operator *op2 = NULL;
        CHECK(edml_operator_create(dev, &other.desc, EDML_BACKEND_AUTO, &op2) == EDML_STATUS_OK, "other");
        for (int k = 0; op2 && k < (int)EDML_PLACEMENT_MEASURE_RUNS + 1; k++) ops_execute(&other, op2, NULL);
        CHECK(op2 && strstr(edml_operator_placement(op2, why, sizeof why),
                            mode == EDML_PLACEMENT_SAVED ? "threshold (no saved decision" : "measured"),
              "mode %u, no decision saved: %s", mode, why);
        ops_free(&other);
        tl_device_free(&d);
    }
    ops_free(&c);
}

/* Two live devices given the same cache memory: the one created last
 * holds it; the first lets go at its next use (its stats and log say so),
 * its decision kept with its operator, and writes nothing over the other's.
 * The claim left in the bytes keeps no later device from the memory. */
static void check_two_devices(void)
{
    tl_device a, b, d;
    edml_placement_cache_stats st;
    char why[300];
    memset(cache, 0, sizeof cache);
    edml_device *first = make(&a, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_CPU, cache, CACHE_BYTES);
    edml_device *last = make(&b, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, cache, CACHE_BYTES);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op_a = NULL, *op_b = NULL;
    CHECK(edml_operator_create(first, &c.desc, EDML_BACKEND_AUTO, &op_a) == EDML_STATUS_OK &&
              edml_operator_create(last, &c.desc, EDML_BACKEND_AUTO, &op_b) == EDML_STATUS_OK,
          "two devices' operators");
    measure(first, &c, op_a, "on the device created first");
    CHECK(let_go_said == 1, "the first device said it let go %d times", let_go_said);
    edml_device_placement_cache_stats(first, &st);
    CHECK(st.taken == 1 && st.kept == 0, "the first device: taken %u, kept %u", st.taken, st.kept);
    CHECK(strstr(edml_operator_placement(op_a, why, sizeof why), "gles: measured"), "its decision: %s", why);
    measure(last, &c, op_b, "on the device created last");
    edml_device_placement_cache_stats(last, &st);
    CHECK(st.taken == 0 && st.kept == 1 && st.decisions == 1, "the last device: taken %u, kept %u, %u decisions",
          st.taken, st.kept, st.decisions);
    tl_device_free(&a);
    tl_device_free(&b);
    edml_device *next = make(&d, EDML_PLACEMENT_SAVED, 0, cache, CACHE_BYTES);
    edml_operator *op = NULL;
    CHECK(edml_operator_create(next, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
              edml_operator_backend(op) == EDML_BACKEND_NEON,
          "the next start takes the last device's decision: %s",
          op ? edml_operator_placement(op, why, sizeof why) : "");
    edml_device_placement_cache_stats(next, &st);
    CHECK(st.loaded == 1 && st.taken == 0 && st.emptied == 0, "the next start: loaded %u, taken %u, emptied %u",
          st.loaded, st.taken, st.emptied);
    ops_free(&c);
    tl_device_free(&d);
}

/* A placement cache at every alignment (flash or a file's buffer need not
 * be aligned): filled, then taken by a device re-created on it. */
static void check_cache_aligned_anyhow(void)
{
    for (size_t off = 1; off < 8; off++) {
        uint8_t *mem = cache + off;
        memset(cache, 0, sizeof cache);
        fill_cache(mem, CACHE_BYTES - 8, &board);
        tl_device d;
        edml_device *dev = make(&d, EDML_PLACEMENT_SAVED, 0, mem, CACHE_BYTES - 8);
        ops_case c;
        ops_make_on(&c, 0, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        char why[300] = "";
        CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK &&
                  strstr(edml_operator_placement(op, why, sizeof why), "neon: saved, measured"),
              "a placement cache at an offset of %zu bytes: %s", off, why);
        ops_free(&c);
        tl_device_free(&d);
    }
}

/* How a device re-created on the cache takes it. */
static edml_placement_cache_stats reopen(const char *what, bool *saved)
{
    tl_device d;
    edml_placement_cache_stats st = {0};
    edml_device *dev = make(&d, EDML_PLACEMENT_SAVED, 0, cache, CACHE_BYTES);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    char why[300] = "";
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s: create", what);
    *saved = op && strstr(edml_operator_placement(op, why, sizeof why), "saved, measured") != NULL;
    if (dev) edml_device_placement_cache_stats(dev, &st);
    ops_free(&c);
    tl_device_free(&d);
    return st;
}

/* A device re-created on the cache with `placement`: its operator's
 * placement after `runs` executions, into why. */
static edml_placement_cache_stats reopen_run(uint32_t placement, int runs, char *why, size_t cap)
{
    tl_device d;
    edml_placement_cache_stats st = {0};
    edml_device *dev = make(&d, placement, EDML_FAULT_SLOW_GPU, cache, CACHE_BYTES);
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    why[0] = '\0';
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
    for (int k = 0; op && k < runs; k++) ops_execute(&c, op, NULL);
    if (op) edml_operator_placement(op, why, cap);
    if (dev) edml_device_placement_cache_stats(dev, &st);
    ops_free(&c);
    tl_device_free(&d);
    return st;
}

/* A cache of another GPU driver or edml version (an update under the
 * firmware): its decisions kept, each marked stale and said so;
 * EDML_PLACEMENT_SAVED runs as they say, EDML_PLACEMENT_MEASURE measures
 * each again and keeps the new decision, stale no more. */
static void check_cache_stale(void)
{
    static const struct {
        int at;
        const char *what, *log;
    } updates[2] = {{12, "another GPU driver", "another GPU driver"}, {16, "another edml version", "another edml"}};
    for (int u = 0; u < 2; u++) {
        char why[300];
        fill_cache(cache, CACHE_BYTES, &board); /* measured: the CPU's side (the GPU 50 ms slower a run) */
        cache[updates[u].at] ^= 1;              /* the header's GPU driver key, or edml's version */
        edml_placement_cache_stats st = reopen_run(EDML_PLACEMENT_SAVED, 1, why, sizeof why);
        CHECK(st.emptied == 0 && st.stale == 1 && st.decisions == 1 && strstr(last_log, "kept, stale") &&
                  strstr(last_log, updates[u].log),
              "%s: emptied %u stale %u decisions %u: %s", updates[u].what, st.emptied, st.stale, st.decisions,
              last_log);
        CHECK(strstr(why, "neon: saved, measured with host memory") && strstr(why, "(stale: measured before"),
              "%s, saved placement: %s", updates[u].what, why);
        st = reopen_run(EDML_PLACEMENT_SAVED, 1, why, sizeof why); /* the next start: still stale, not again marked */
        CHECK(st.stale == 0 && strstr(why, "(stale: "), "%s, the next start: stale %u: %s", updates[u].what, st.stale,
              why);
        st = reopen_run(EDML_PLACEMENT_MEASURE, 1, why, sizeof why);
        CHECK(strstr(why, "measuring with host memory: 1 of"), "%s, measure mode: %s", updates[u].what, why);
        st = reopen_run(EDML_PLACEMENT_MEASURE, (int)EDML_PLACEMENT_MEASURE_RUNS, why, sizeof why);
        CHECK(strstr(why, "neon: measured with host memory") && !strstr(why, "stale"), "%s, measured again: %s",
              updates[u].what, why);
        st = reopen_run(EDML_PLACEMENT_SAVED, 1, why, sizeof why);
        CHECK(st.kept == 0 && st.loaded == 1 && strstr(why, "saved, measured") && !strstr(why, "stale"),
              "%s, after measuring again: %s", updates[u].what, why);
    }
}

/* Another board's cache is emptied (said); a GPU driver's or edml version's kept stale; a flipped bit
 * in an entry drops it; memory changed after the device's creation is
 * caught when read; a cache of one entry's room keeps the first decision
 * and says it is full. */
static void check_cache_checked(void)
{
    bool saved;
    edml_placement_cache_stats st;
    edml_board other = board;
    other.name = "another-board";
    fill_cache(cache, CACHE_BYTES, &other);
    st = reopen("another board", &saved);
    CHECK(st.emptied == 1 && !saved && strstr(last_log, "another board's"), "another board: %u %d %s", st.emptied,
          saved, last_log);
    check_cache_stale();
    fill_cache(cache, CACHE_BYTES, &board);
    cache[32 + 9] ^= 4; /* a bit of the first entry */
    st = reopen("a flipped bit", &saved);
    CHECK(st.damaged == 1 && st.decisions == 0 && !saved, "a flipped bit: damaged %u, %u decisions", st.damaged,
          st.decisions);
    fill_cache(cache, CACHE_BYTES, &board);
    {
        tl_device d;
        edml_device *dev = make(&d, EDML_PLACEMENT_SAVED, 0, cache, CACHE_BYTES);
        ops_case c;
        ops_make_on(&c, 0, EDML_BACKEND_GLES);
        cache[32 + 20] ^= 1; /* after the device checked it */
        edml_operator *op = NULL;
        char why[300] = "";
        CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
        CHECK(op && !strstr(edml_operator_placement(op, why, sizeof why), "saved, measured"),
              "a changed entry used: %s", why);
        if (dev) edml_device_placement_cache_stats(dev, &st);
        CHECK(st.damaged == 1 && st.decisions == 0, "changed after creation: damaged %u", st.damaged);
        ops_free(&c);
        tl_device_free(&d);
    }
    static uint8_t small[32 + 40 + 39];
    tl_device d;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, small, sizeof small);
    for (int i = 0; dev && i < 2; i++) {
        ops_case c;
        ops_make_on(&c, i, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        CHECK(edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
        for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS; k++) ops_execute(&c, op, NULL);
        ops_free(&c);
    }
    if (dev) edml_device_placement_cache_stats(dev, &st);
    CHECK(st.kept == 1 && st.full == 1 && st.used == 72, "kept %u full %u used %zu", st.kept, st.full, st.used);
    CHECK(st.needed == EDML_PLACEMENT_CACHE_BYTES(2) && st.needed > sizeof small, "needed %zu, not %zu", st.needed,
          (size_t)EDML_PLACEMENT_CACHE_BYTES(2));
    tl_device_free(&d);
}

/* A decision measured with GPU buffers on a device whose GPU arena is not
 * mapped is not taken by one whose arena is (the CPU's side costs another
 * thing there), and the other way round: each device measures its own. */
static void check_mapping_keyed(void)
{
    memset(cache, 0, sizeof cache);
    for (int mapped = 0; mapped < 2; mapped++) {
        tl_device d;
        edml_device_desc dd = {0};
        dd.board = &board;
        dd.placement = EDML_PLACEMENT_SAVED;
        dd.placement_cache = cache;
        dd.placement_cache_bytes = CACHE_BYTES;
        dd.gpu_arena_mapped = (uint32_t)mapped;
        dd.inject_faults = mapped ? 0 : EDML_FAULT_SLOW_GPU;
        dd.placement = mapped ? EDML_PLACEMENT_SAVED : EDML_PLACEMENT_MEASURE;
        CHECK(tl_device_create(&d, edml_device_size() + (1u << 18), &dd) == EDML_STATUS_OK, "device");
        ops_case c;
        ops_make_on(&c, 0, EDML_BACKEND_GLES);
        edml_operator *op = NULL;
        edml_gpu_buffer *g[CASE_MAX_INPUTS + CASE_MAX_OUTPUTS] = {0};
        EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
        CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "%s", c.name);
        gpu_bindings(d.dev, &c, g, in, out);
        for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS + 1; k++)
            edml_operator_execute(op, in, (UINT)c.nin, out, (UINT)c.nout, NULL);
        char why[300];
        edml_operator_placement(op, why, sizeof why);
        CHECK(mapped ? strstr(why, "no saved decision for GPU buffers") != NULL
                     : strstr(why, "neon: measured with GPU buffers") != NULL,
              "%s: GPU arena %s: %s", c.name, mapped ? "mapped, the unmapped device's decision taken" : "unmapped",
              why);
        gpu_unbind(&c, g);
        ops_free(&c);
        tl_device_free(&d);
    }
}

/* A placement cache too small for its header and one decision, and a
 * program cache too small for its header, are said in the log, not taken
 * in silence, and their stats say the bytes they need: an operator's
 * decision, its programs' binaries (all of them: what a cache of that size
 * holds, checked by one). */
static void check_too_small_said(void)
{
    tl_device d;
    too_small_said = 0;
    edml_device *dev = make(&d, EDML_PLACEMENT_MEASURE, EDML_FAULT_SLOW_GPU, cache, 40);
    CHECK(dev != NULL, "device");
    ops_case c;
    ops_make_on(&c, 0, EDML_BACKEND_GLES);
    edml_operator *op = NULL;
    CHECK(dev && edml_operator_create(dev, &c.desc, EDML_BACKEND_AUTO, &op) == EDML_STATUS_OK, "create");
    for (int k = 0; op && k < (int)EDML_PLACEMENT_MEASURE_RUNS; k++) ops_execute(&c, op, NULL);
    edml_placement_cache_stats st = {0};
    if (dev) edml_device_placement_cache_stats(dev, &st);
    CHECK(st.full == 1 && st.needed == EDML_PLACEMENT_CACHE_BYTES(1), "a 40-byte placement cache: full %u, needed %zu",
          st.full, st.needed);
    tl_device_free(&d);
    CHECK(too_small_said == 1, "a 40-byte placement cache: %d lines said so (last: %s)", too_small_said, last_log);
    edml_device_desc dd = {0};
    static uint8_t programs[1u << 20];
    dd.log = log_fn;
    dd.program_cache = programs;
    dd.program_cache_bytes = 8;
    too_small_said = 0;
    edml_program_cache_stats ps = {0}, big = {0};
    CHECK(tl_device_create(&d, edml_device_size() + (1u << 20), &dd) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "create");
    edml_device_program_cache_stats(d.dev, &ps);
    tl_device_free(&d);
    CHECK(too_small_said == 1, "an 8-byte program cache: %d lines said so (last: %s)", too_small_said, last_log);
    CHECK(ps.needed > 32 && ps.used == 0, "an 8-byte program cache: needed %zu, used %zu", ps.needed, ps.used);
    dd.program_cache_bytes = ps.needed;
    CHECK(tl_device_create(&d, edml_device_size() + (1u << 20), &dd) == EDML_STATUS_OK, "device");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK, "create");
    edml_device_program_cache_stats(d.dev, &big);
    tl_device_free(&d);
    CHECK(big.full == 0 && big.kept > 0 && big.used == ps.needed && big.needed == big.used,
          "a program cache of the %zu bytes needed: kept %u, full %u, used %zu, needed %zu", ps.needed, big.kept,
          big.full, big.used, big.needed);
    ops_free(&c);
}

int main(void)
{
    if (!placement_setup("placement_cache")) return 1;
    check_cache_aligned_anyhow();
    check_cache_reused();
    check_cache_checked();
    check_two_devices();
    check_mapping_keyed();
    check_too_small_said();
    return tl_summary("placement_cache");
}
