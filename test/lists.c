/* Command lists run and misused: every operator type on every backend in
 * one list; misuse refused with a status and a message, recording nothing;
 * GLES entries batched into one submission (chains through host memory and
 * GPU buffers, GatherND's clamped-index counts, hazards between entries
 * that share buffers, more ranges than a batch records); a submission that
 * returns before the GPU is done. */
#include "misuse.h"

/* Every operator type on every backend the device has, recorded into one
 * list per backend: one submission gives each its expected output, and a
 * second submission of the same list (outputs reset) does again. */
static void command_lists_run(void)
{
    edml_board board = gpu_board();
    tl_device d;
    CHECK(gpu_device(&d, &board, 1 << 20, 0) == EDML_STATUS_OK, "device");
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++) {
        if (!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(b))) continue;
        const int n = ops_count_on((edml_backend)b);
        ops_case c[OPS_MAX];
        edml_operator *op[OPS_MAX];
        edml_command_list *list = NULL;
        CHECK(edml_command_list_create(d.dev, (UINT)n, &list) == EDML_STATUS_OK, "list: %s", MSG(d));
        for (int i = 0; i < n; i++) {
            EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
            ops_make_on(&c[i], i, (edml_backend)b);
            CHECK(edml_operator_create(d.dev, &c[i].desc, (edml_backend)b, &op[i]) == EDML_STATUS_OK, "%s: %s",
                  c[i].name, MSG(d));
            ops_bindings(&c[i], in, out);
            CHECK(edml_command_list_record(list, op[i], in, (UINT)c[i].nin, out, (UINT)c[i].nout, NULL) ==
                      EDML_STATUS_OK,
                  "record %s: %s", c[i].name, MSG(d));
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) ops_reset_outputs(&c[i]);
            CHECK(edml_command_list_submit(list) == EDML_STATUS_OK &&
                      edml_command_list_wait(list, UINT64_MAX) == EDML_STATUS_OK,
                  "%s list, round %d: %s", edml_backend_name((edml_backend)b), round, MSG(d));
            int wrong = 0;
            for (int i = 0; i < n; i++) wrong += !ops_outputs_match(&c[i]);
            CHECK(wrong == 0 && edml_command_list_count(list) == (UINT)n, "%s list: %d of %d outputs wrong",
                  edml_backend_name((edml_backend)b), wrong, n);
        }
        CHECK(edml_command_list_destroy(list) == EDML_STATUS_OK, "destroy list");
        for (int i = n; i-- > 0;) edml_operator_destroy(op[i]), ops_free(&c[i]);
    }
    tl_device_free(&d);
}

/* Whether the case's outputs were poisoned since `before` (a copy of them
 * as reset): every byte 0xA5 or as it was (the bytes between elements),
 * some 0xA5, and the answer not there. */
static bool poisoned(const ops_case *c, uint8_t *const *before)
{
    uint64_t marked = 0;
    for (int o = 0; o < c->nout; o++)
        for (uint64_t k = 0; k < c->out[o].total; k++) {
            const uint8_t v = ((const uint8_t *)c->out[o].buf)[k];
            if (v != 0xA5 && v != before[o][k]) return false;
            marked += v == 0xA5 && before[o][k] != 0xA5;
        }
    return marked > 0 && !ops_outputs_match(c);
}

/* edml_device_desc.poison_list_outputs: on every backend, a list's host
 * outputs read between its submission and its wait hold 0xA5 (as a GPU
 * leaves them undefined), and the right answers after the wait. */
static void command_lists_poisoned(void)
{
    edml_board board = gpu_board();
    edml_device_desc dd = {0};
    dd.board = &board;
    dd.log = log_fn;
    dd.poison_list_outputs = 1;
    tl_device d;
    CHECK(tl_device_create(&d, edml_device_size() + (1 << 20), &dd) == EDML_STATUS_OK, "device");
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++) {
        if (!(edml_device_backends(d.dev) & EDML_BACKEND_BIT(b))) continue;
        ops_case c;
        edml_operator *op = NULL;
        edml_command_list *list = NULL;
        EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
        ops_make_on(&c, 0, (edml_backend)b);
        ops_bindings(&c, in, out);
        CHECK(edml_operator_create(d.dev, &c.desc, (edml_backend)b, &op) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 2, &list) == EDML_STATUS_OK &&
                  edml_command_list_record(list, op, in, (UINT)c.nin, out, (UINT)c.nout, NULL) == EDML_STATUS_OK,
              "%s: %s", c.name, MSG(d));
        ops_reset_outputs(&c);
        uint8_t *before[CASE_MAX_OUTPUTS] = {0};
        for (int o = 0; o < c.nout; o++)
            before[o] = malloc(c.out[o].total), memcpy(before[o], c.out[o].buf, c.out[o].total);
        CHECK(list && edml_command_list_submit(list) == EDML_STATUS_OK && poisoned(&c, before),
              "%s on %s: outputs read after the submission are not poisoned", c.name,
              edml_backend_name((edml_backend)b));
        CHECK(list && edml_command_list_wait(list, UINT64_MAX) == EDML_STATUS_OK && ops_outputs_match(&c),
              "%s on %s: after the wait: %s", c.name, edml_backend_name((edml_backend)b), MSG(d));
        for (int o = 0; o < c.nout; o++) free(before[o]);
        if (list) edml_command_list_destroy(list);
        if (op) edml_operator_destroy(op);
        ops_free(&c);
    }
    tl_device_free(&d);
}

/* A list misused: refused with a status and a message, recording nothing;
 * an operator destroyed after it was recorded stops the list at its entry
 * (earlier entries written, later ones not); a clamped GatherND does not. */
static void command_list_misuse(void)
{
    tl_device d, other;
    CHECK(tl_device_make(&d, edml_device_size() + (1 << 16), CPU_BACKENDS) == EDML_STATUS_OK &&
              tl_device_make(&other, edml_device_size() + (1 << 16), CPU_BACKENDS) == EDML_STATUS_OK,
          "devices");
    ops_case g, t, f;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    ops_make_type(&f, EDML_OPERATOR_ELEMENT_WISE_IF);
    edml_operator *og = NULL, *ot = NULL, *foreign = NULL;
    edml_command_list *l = NULL, *tiny = NULL;
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_NEON, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_NEON, &ot) == EDML_STATUS_OK &&
              edml_operator_create(other.dev, &f.desc, EDML_BACKEND_REF, &foreign) == EDML_STATUS_OK,
          "operators");
    CHECK(edml_command_list_create(d.dev, 0, &tiny) == EDML_STATUS_INVALID_ARGUMENT && strstr(MSG(d), "capacity is 0"),
          "capacity 0: %s", MSG(d));
    CHECK(edml_command_list_create(d.dev, 3, &l) == EDML_STATUS_OK, "list");
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2], fi[3], fo[1];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    ops_bindings(&f, fi, fo);
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 1, NULL) == EDML_STATUS_INVALID_BINDING &&
              strstr(MSG(d), "outputCount is 1, expected 2") && edml_command_list_count(l) == 0,
          "wrong count: %s", MSG(d));
    CHECK(edml_command_list_record(l, foreign, fi, 3, fo, 1, NULL) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "not one of this device's") && edml_command_list_count(l) == 0,
          "another device's operator: %s", MSG(d));
    CHECK(edml_command_list_wait(l, 0) == EDML_STATUS_INVALID_ARGUMENT && strstr(MSG(d), "not submitted"),
          "wait before submit: %s", MSG(d));
    const uint32_t index0 = ((uint32_t *)g.in[1].buf)[0];
    ((uint32_t *)g.in[1].buf)[0] = 7; /* clamped to 1: a status, not a stop */
    CHECK(edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK,
          "record: %s", MSG(d));
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_INVALID_ARGUMENT &&
              strstr(MSG(d), "full: it holds 3"),
          "full: %s", MSG(d));
    ops_reset_outputs(&t);
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK, "submit");
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_BUSY &&
              edml_command_list_reset(l) == EDML_STATUS_BUSY && edml_command_list_submit(l) == EDML_STATUS_BUSY &&
              strstr(MSG(d), "call edml_command_list_wait() first"),
          "while submitted: %s", MSG(d));
    CHECK(edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_INDEX_OUT_OF_RANGE &&
              strstr(MSG(d), "command list entry 0 of 3 (GATHER_ND1)") && ops_outputs_match(&t),
          "clamped: %s", MSG(d));
    /* the TopK destroyed: entry 1 stops the list, the gather before it still written */
    CHECK(edml_command_list_reset(l) == EDML_STATUS_OK, "reset");
    ((uint32_t *)g.in[1].buf)[0] = index0;
    CHECK(edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK,
          "record again");
    edml_operator_destroy(ot);
    ops_reset_outputs(&g);
    ops_reset_outputs(&t);
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK &&
              edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_INVALID_HANDLE &&
              strstr(MSG(d), "command list entry 1 of 2 (an operator): its operator was destroyed"),
          "destroyed operator: %s", MSG(d));
    bool untouched = true;
    for (uint64_t i = 0; i < t.out[0].total; i++) untouched &= t.out[0].buf[i] == OPS_SENTINEL;
    CHECK(ops_outputs_match(&g) && untouched, "entry 0 written, entry 1 not");
    CHECK(edml_command_list_destroy(l) == EDML_STATUS_OK && edml_command_list_destroy(l) == EDML_STATUS_INVALID_HANDLE,
          "destroy twice: %s", MSG(d));
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t), ops_free(&f);
    tl_device_free(&d), tl_device_free(&other);
}

/* GLES entries as one submission: a chain through host memory (the second
 * ElementWiseIf reads the first's output as its A) gives what two executes
 * give, so the batch completes before an entry that depends on it; a fence
 * that times out inside a list takes GLES off the device: operators created
 * with AUTO run again on the CPU with the right answer (logged), one asked
 * for GLES by name fails the wait with BACKEND_FAILED, writing nothing. */
static void command_list_gles_batch(void)
{
    for (int fault = 0; fault < 3; fault++) {
        tl_device d;
        if (!gles_device(&d, fault ? EDML_FAULT_FENCE_TIMEOUT : 0)) return;
        ops_case c;
        ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
        const size_t bytes = (size_t)c.out[0].total;
        uint8_t *mid = malloc(bytes), *want = malloc(bytes), *first = malloc(bytes);
        edml_operator *op = NULL, *ref = NULL;
        edml_command_list *l = NULL;
        CHECK(edml_operator_create(d.dev, &c.desc, fault == 2 ? EDML_BACKEND_GLES : EDML_BACKEND_AUTO, &op) ==
                      EDML_STATUS_OK &&
                  edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &ref) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 4, &l) == EDML_STATUS_OK,
              "operators and list: %s", MSG(d));
        EDML_BUFFER_BINDING in[3], out[1], in2[3], out2[1];
        ops_bindings(&c, in, out);
        memcpy(in2, in, sizeof in2);
        in2[1] = (EDML_BUFFER_BINDING){mid, 0, bytes}; /* the second reads the first's output */
        out[0] = (EDML_BUFFER_BINDING){mid, 0, bytes};
        out2[0] = (EDML_BUFFER_BINDING){c.out[0].buf, 0, bytes};
        memset(mid, 0x5a, bytes);
        CHECK(edml_operator_execute(ref, in, 3, out, 1, NULL) == EDML_STATUS_OK &&
                  edml_operator_execute(ref, in2, 3, out2, 1, NULL) == EDML_STATUS_OK,
              "reference");
        memcpy(first, mid, bytes);
        memcpy(want, c.out[0].buf, bytes);
        memset(mid, 0x5a, bytes);
        memset(c.out[0].buf, 0x5a, bytes);
        CHECK(edml_command_list_record(l, op, in, 3, out, 1, NULL) == EDML_STATUS_OK &&
                  edml_command_list_record(l, op, in2, 3, out2, 1, NULL) == EDML_STATUS_OK,
              "record: %s", MSG(d));
        log_count = 0;
        const edml_status s =
            edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
        if (fault < 2) {
            CHECK(s == EDML_STATUS_OK && !memcmp(mid, first, bytes) && !memcmp(c.out[0].buf, want, bytes),
                  "chain through host memory (fault %d): %s", fault, MSG(d));
            CHECK(fault == 0 || (log_count >= 1 && strstr(log_text, "run again one by one")), "log: %s", log_text);
        } else {
            bool untouched = true;
            for (size_t i = 0; i < bytes; i++) untouched &= c.out[0].buf[i] == 0x5a;
            CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(MSG(d), "command list entry 0 of 2") && untouched,
                  "named GLES, fence timed out: %s", MSG(d));
        }
        edml_command_list_destroy(l);
        edml_operator_destroy(ref);
        edml_operator_destroy(op);
        free(mid), free(want), free(first);
        ops_free(&c);
        tl_device_free(&d);
    }
}

/* GatherNDs in a GLES batch (their counts of clamped indices come back
 * with it, a slot each): the wait names the first entry that clamped, with
 * the message its execute gives (host indices worded from the indices, GPU
 * ones from the kernel's count), every output is written; the slots start
 * clean at the next submission; a batch holds EDMLI_GLES_STATUS_SLOTS (32)
 * GatherNDs, more open the next. With every fence timing out, the log names
 * the batch's entries (a TopK and both gathers: one batch). */
#define GB_ENTRIES 40
static void gb_set(ops_case *g, int which, uint32_t index) { ((uint32_t *)g->in[1].buf)[which] = index; }

static void command_list_gles_gathers_fault(void)
{
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_FENCE_TIMEOUT)) return;
    ops_case g, t;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    edml_operator *og = NULL, *ot = NULL;
    edml_command_list *l = NULL;
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2];
    uint8_t second[64];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    const EDML_BUFFER_BINDING go2 = {second, 0, g.out[0].total};
    CHECK(g.out[0].total <= sizeof second, "sample size");
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_AUTO, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_AUTO, &ot) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, 3, &l) == EDML_STATUS_OK &&
              edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, gi, 2, go, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, gi, 2, &go2, 1, NULL) == EDML_STATUS_OK,
          "operators and list: %s", MSG(d));
    log_count = 0;
    log_text[0] = '\0';
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK &&
              ops_outputs_match(&g) && ops_outputs_match(&t) && ops_buffer_matches_expected(&g, second),
          "after the fence: %s", MSG(d));
    CHECK(log_count >= 1 && strstr(log_text, "command list entries 0 to 2: gles"), "one batch: %s", log_text);
    edml_command_list_destroy(l);
    edml_operator_destroy(ot);
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t);
    tl_device_free(&d);
}

static void command_list_gles_gathers(void)
{
    tl_device d;
    if (!gles_device(&d, 0)) return;
    ops_case g, t;
    ops_make_type(&g, EDML_OPERATOR_GATHER_ND1);
    ops_make_type(&t, EDML_OPERATOR_TOP_K1);
    const size_t ib = (size_t)g.in[1].total, ob = (size_t)g.out[0].total;
    uint8_t host_ix[2][64], resident[64], outs[GB_ENTRIES][64], want_clamped[64];
    edml_operator *og = NULL, *ot = NULL;
    edml_gpu_buffer *rix = NULL;
    edml_command_list *l = NULL;
    EDML_BUFFER_BINDING gi[2], go[1], ti[1], to[2];
    ops_bindings(&g, gi, go);
    ops_bindings(&t, ti, to);
    CHECK(ib <= 64 && ob <= 64, "sample sizes");
    CHECK(edml_operator_create(d.dev, &g.desc, EDML_BACKEND_GLES, &og) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &t.desc, EDML_BACKEND_GLES, &ot) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, ib, &rix) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, GB_ENTRIES, &l) == EDML_STATUS_OK,
          "operators, buffer, list: %s", MSG(d));
    /* what an execute says: host indices {7, 0} and GPU indices {0, 9} clamp */
    char want_host[512], want_gpu[512];
    const uint32_t good0 = ((uint32_t *)g.in[1].buf)[0];
    gb_set(&g, 0, 7);
    memcpy(host_ix[1], g.in[1].buf, ib);
    CHECK(edml_operator_execute(og, gi, 2, go, 1, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE, "execute: %s", MSG(d));
    snprintf(want_host, sizeof want_host, "command list entry 2 of 5 (GATHER_ND1): %s", MSG(d));
    memcpy(want_clamped, g.out[0].buf, ob);
    gb_set(&g, 0, good0);
    memcpy(host_ix[0], g.in[1].buf, ib);
    memcpy(resident, g.in[1].buf, ib);
    ((uint32_t *)resident)[1] = 9;
    EDML_BUFFER_BINDING ri[2] = {gi[0], edml_gpu_binding(rix, 0, ib)};
    CHECK(edml_gpu_buffer_write(rix, 0, resident, ib) == EDML_STATUS_OK &&
              edml_operator_execute(og, ri, 2, go, 1, NULL) == EDML_STATUS_INDEX_OUT_OF_RANGE,
          "execute, GPU indices: %s", MSG(d));
    snprintf(want_gpu, sizeof want_gpu, "command list entry 3 of 5 (GATHER_ND1): %s", MSG(d));
    uint8_t want_gpu_out[64];
    memcpy(want_gpu_out, g.out[0].buf, ob);
    /* TopK, gather (good), gather (host indices clamp), gather (GPU indices clamp), TopK */
    EDML_BUFFER_BINDING in[3][2] = {{gi[0], {host_ix[0], 0, ib}}, {gi[0], {host_ix[1], 0, ib}}, {ri[0], ri[1]}};
    for (int e = 0; e < 3; e++) {
        memset(outs[e], OPS_SENTINEL, ob);
        EDML_BUFFER_BINDING o = {outs[e], 0, ob};
        if (e == 0) CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record TopK");
        CHECK(edml_command_list_record(l, og, in[e], 2, &o, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record TopK");
    for (int round = 0; round < 3; round++) {
        ops_reset_outputs(&t);
        for (int e = 0; e < 3; e++) memset(outs[e], OPS_SENTINEL, ob);
        const edml_status s =
            edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
        const char *want = round == 0 ? want_host : round == 1 ? want_gpu : NULL;
        CHECK(want ? s == EDML_STATUS_INDEX_OUT_OF_RANGE && !strcmp(MSG(d), want) : s == EDML_STATUS_OK,
              "round %d: %s: %s (want %s)", round, edml_status_string(s), MSG(d), want ? want : "OK");
        CHECK(ops_outputs_match(&t) && !memcmp(outs[0], g.expected[0], ob) &&
                  !memcmp(outs[1], round == 0 ? want_clamped : g.expected[0], ob) &&
                  !memcmp(outs[2], round < 2 ? want_gpu_out : g.expected[0], ob),
              "round %d: outputs", round);
        if (round == 0) memcpy(host_ix[1], host_ix[0], ib); /* then the GPU one clamps, then none */
        if (round == 1) CHECK(edml_gpu_buffer_write(rix, 0, host_ix[0], ib) == EDML_STATUS_OK, "indices");
    }
    /* 40 of one gather (as layers where the driver takes them), entry 35 clamping */
    CHECK(edml_command_list_reset(l) == EDML_STATUS_OK, "reset");
    uint8_t many_ix[GB_ENTRIES][64];
    for (int e = 0; e < GB_ENTRIES; e++) {
        memcpy(many_ix[e], host_ix[0], ib);
        if (e == 35) ((uint32_t *)many_ix[e])[0] = 7;
        EDML_BUFFER_BINDING i2[2] = {gi[0], {many_ix[e], 0, ib}}, o = {outs[e], 0, ob};
        memset(outs[e], OPS_SENTINEL, ob);
        CHECK(edml_command_list_record(l, og, i2, 2, &o, 1, NULL) == EDML_STATUS_OK, "record %d", e);
    }
    const edml_status s =
        edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
    CHECK(s == EDML_STATUS_INDEX_OUT_OF_RANGE && strstr(MSG(d), "command list entry 35 of 40 (GATHER_ND1): ") &&
              !strcmp(strstr(MSG(d), ": ") + 2, strstr(want_host, ": ") + 2),
          "40 gathers: %s", MSG(d));
    bool all = true;
    for (int e = 0; e < GB_ENTRIES; e++) all &= !memcmp(outs[e], e == 35 ? want_clamped : g.expected[0], ob);
    CHECK(all, "40 gathers: outputs");
    /* an entry that writes a batched gather's host indices ends the batch
     * first: the clamp is worded from the indices the gather read (7) */
    uint32_t shared[16];
    memcpy(shared, host_ix[0], ib);
    shared[0] = 7;
    EDML_BUFFER_BINDING i_shared[2] = {gi[0], {shared, 0, ib}}, i_good[2] = {gi[0], {host_ix[0], 0, ib}},
                        o_first = {outs[0], 0, ob}, o_shared = {shared, 0, ob};
    CHECK(ob <= sizeof shared && edml_command_list_reset(l) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, i_shared, 2, &o_first, 1, NULL) == EDML_STATUS_OK &&
              edml_command_list_record(l, og, i_good, 2, &o_shared, 1, NULL) == EDML_STATUS_OK,
          "record the overwrite: %s", MSG(d));
    const edml_status s2 =
        edml_command_list_submit(l) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(l, UINT64_MAX);
    CHECK(s2 == EDML_STATUS_INDEX_OUT_OF_RANGE && strstr(MSG(d), "command list entry 0 of 2 (GATHER_ND1): ") &&
              !strcmp(strstr(MSG(d), ": ") + 2, strstr(want_host, ": ") + 2) && !memcmp(outs[0], want_clamped, ob) &&
              ops_buffer_matches_expected(&g, (const uint8_t *)shared),
          "indices overwritten by a later entry: %s", MSG(d));
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(rix);
    edml_operator_destroy(ot);
    edml_operator_destroy(og);
    ops_free(&g), ops_free(&t);
    tl_device_free(&d);
}

/* Entries of one batch that share GPU buffers, on a device that runs the
 * kernels no barrier separates backwards (EDML_FAULT_REORDER): each
 * ordering a barrier must keep (a read after a write, a write after a
 * write, a write after a read) gives wrong results if left out, and
 * entries on separate bytes of one buffer need none. ElementWiseIf f(A, B)
 * with host inputs A, B (the sample's condition); x = two outputs side by
 * side (x0, x1), y one more; h a host output. */
enum {
    HZ_A,
    HZ_B,
    HZ_X0,
    HZ_X1,
    HZ_Y,
    HZ_H,
    HZ_SOURCES
};
static const struct hz_entry {
    int a, b, out;
} hz_entries[] = {
    {HZ_A, HZ_B, HZ_X0}, /* x0 = f(A, B) */
    {HZ_X0, HZ_B, HZ_Y}, /* y = f(x0, B): reads what the entry before wrote (y wrong without a barrier) */
    {HZ_A, HZ_B, HZ_X1}, /* x1 = f(A, B): beside x0, independent */
    {HZ_B, HZ_B, HZ_X1}, /* x1 = f(B, B): writes what the entry before wrote (h wrong without) */
    {HZ_X1, HZ_A, HZ_H}, /* h = f(x1, A): reads it (h wrong without) */
    {HZ_A, HZ_A, HZ_X1}, /* x1 = f(A, A): writes what the entry before read (h wrong without) */
};
#define HZ_ENTRIES (int)(sizeof hz_entries / sizeof hz_entries[0])

/* what the list must leave in x0, x1, y and h: the entries one by one on
 * the reference backend, in host memory */
static void hz_expected(ops_case *c, edml_operator *ref, uint8_t (*want)[64], size_t bytes)
{
    memcpy(want[HZ_A], c->in[1].buf, bytes);
    memcpy(want[HZ_B], c->in[2].buf, bytes);
    for (int e = 0; e < HZ_ENTRIES; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c->in[0]),
                                     {want[hz_entries[e].a], 0, bytes},
                                     {want[hz_entries[e].b], 0, bytes}},
                            out[1] = {{want[hz_entries[e].out], 0, bytes}};
        CHECK(edml_operator_execute(ref, in, 3, out, 1, NULL) == EDML_STATUS_OK, "reference entry %d", e);
    }
}

static void command_list_hazards(void)
{
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_REORDER)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    const size_t bytes = (size_t)c.out[0].total;
    uint8_t want[HZ_SOURCES][64], got[HZ_SOURCES][64];
    edml_operator *op = NULL, *ref = NULL;
    edml_gpu_buffer *x = NULL, *y = NULL;
    edml_command_list *l = NULL;
    CHECK(bytes <= 64 && c.in[1].total == bytes && c.in[2].total == bytes, "the sample's A, B and output");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK &&
              edml_operator_create(d.dev, &c.desc, EDML_BACKEND_REF, &ref) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 2 * 64, &x) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 64, &y) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, HZ_ENTRIES, &l) == EDML_STATUS_OK,
          "set-up: %s", MSG(d));
    hz_expected(&c, ref, want, bytes);
    memcpy(got[HZ_A], c.in[1].buf, bytes);
    memcpy(got[HZ_B], c.in[2].buf, bytes);
    const EDML_BUFFER_BINDING at[HZ_SOURCES] = {{got[HZ_A], 0, bytes},         {got[HZ_B], 0, bytes},
                                                edml_gpu_binding(x, 0, bytes), edml_gpu_binding(x, 64, bytes),
                                                edml_gpu_binding(y, 0, bytes), {got[HZ_H], 0, bytes}};
    for (int e = 0; e < HZ_ENTRIES; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c.in[0]), at[hz_entries[e].a], at[hz_entries[e].b]},
                            out[1] = {at[hz_entries[e].out]};
        CHECK(edml_command_list_record(l, op, in, 3, out, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(x, 0, got[HZ_X0], bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(x, 64, got[HZ_X1], bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_read(y, 0, got[HZ_Y], bytes) == EDML_STATUS_OK,
          "run: %s", MSG(d));
    static const char *const names[HZ_SOURCES] = {"A", "B", "x0", "x1", "y", "h"};
    for (int k = HZ_X0; k < HZ_SOURCES; k++) CHECK(!memcmp(got[k], want[k], bytes), "%s as one by one", names[k]);
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(y);
    edml_gpu_buffer_destroy(x);
    edml_operator_destroy(ref);
    edml_operator_destroy(op);
    ops_free(&c);
    tl_device_free(&d);
}

/* More entries than a batch's record of GPU-buffer ranges holds (each
 * reads A and B from one GPU buffer and writes its own 64 bytes of
 * another: three ranges, none clashing), kernels unordered run backwards:
 * the record fills, a barrier empties it, and every output is the sample's. */
static void command_list_many_ranges(void)
{
    enum {
        N = 40
    };
    tl_device d;
    if (!gles_device(&d, EDML_FAULT_REORDER)) return;
    ops_case c;
    ops_make_type(&c, EDML_OPERATOR_ELEMENT_WISE_IF);
    const size_t bytes = (size_t)c.out[0].total;
    edml_operator *op = NULL;
    edml_gpu_buffer *ab = NULL, *out = NULL;
    edml_command_list *l = NULL;
    CHECK(bytes <= 64 && c.in[1].total == bytes && c.in[2].total == bytes, "the sample's A, B and output");
    CHECK(edml_operator_create(d.dev, &c.desc, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, 2 * 64, &ab) == EDML_STATUS_OK &&
              edml_gpu_buffer_create(d.dev, N * 64, &out) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(ab, 0, c.in[1].buf, bytes) == EDML_STATUS_OK &&
              edml_gpu_buffer_write(ab, 64, c.in[2].buf, bytes) == EDML_STATUS_OK &&
              edml_command_list_create(d.dev, N, &l) == EDML_STATUS_OK,
          "set-up: %s", MSG(d));
    for (int e = 0; e < N; e++) {
        EDML_BUFFER_BINDING in[3] = {tl_bind(&c.in[0]), edml_gpu_binding(ab, 0, bytes),
                                     edml_gpu_binding(ab, 64, bytes)},
                            o[1] = {edml_gpu_binding(out, (UINT64)e * 64, bytes)};
        CHECK(edml_command_list_record(l, op, in, 3, o, 1, NULL) == EDML_STATUS_OK, "record %d: %s", e, MSG(d));
    }
    CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK,
          "run: %s", MSG(d));
    int wrong = 0;
    for (int e = 0; e < N; e++) {
        uint8_t got[64];
        CHECK(edml_gpu_buffer_read(out, (UINT64)e * 64, got, bytes) == EDML_STATUS_OK, "read %d", e);
        wrong += memcmp(got, c.expected[0], bytes) != 0;
    }
    CHECK(wrong == 0, "%d of %d entries' outputs differ from the sample's", wrong, N);
    edml_command_list_destroy(l);
    edml_gpu_buffer_destroy(out);
    edml_gpu_buffer_destroy(ab);
    edml_operator_destroy(op);
    ops_free(&c);
    tl_device_free(&d);
}

/* A submission returns before the GPU is done: a poll (a wait of 0) says
 * EDML_STATUS_TIMEOUT while it runs, a full wait completes it; another GPU
 * call, or destroying the list, completes it first; a fence that times out
 * makes polls say TIMEOUT and a full wait BACKEND_FAILED, writing nothing. */
static void command_list_async(void)
{
    for (int fault = 0; fault < 2; fault++) {
        tl_device d;
        if (!gles_device(&d, fault ? EDML_FAULT_FENCE_TIMEOUT : 0)) return;
        ops_case t, f;
        ops_make_type(&t, EDML_OPERATOR_TOP_K1);
        ops_make_type(&f, EDML_OPERATOR_ELEMENT_WISE_IF);
        edml_operator *ot = NULL, *of = NULL;
        edml_command_list *l = NULL;
        CHECK(edml_operator_create(d.dev, &t.desc, EDML_BACKEND_GLES, &ot) == EDML_STATUS_OK &&
                  edml_operator_create(d.dev, &f.desc, EDML_BACKEND_GLES, &of) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 1, &l) == EDML_STATUS_OK,
              "set-up: %s", MSG(d));
        EDML_BUFFER_BINDING ti[1], to[2];
        ops_bindings(&t, ti, to);
        CHECK(edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK, "record");
        ops_reset_outputs(&t);
        CHECK(edml_command_list_submit(l) == EDML_STATUS_OK, "submit: %s", MSG(d));
        edml_status s = edml_command_list_wait(l, 0);
        CHECK(s == EDML_STATUS_OK || (s == EDML_STATUS_TIMEOUT && strstr(MSG(d), "still running")), "poll: %s: %s",
              edml_status_string(s), MSG(d));
        if (fault) {
            bool untouched = true;
            for (uint64_t i = 0; i < t.out[0].total; i++) untouched &= t.out[0].buf[i] == OPS_SENTINEL;
            CHECK(s == EDML_STATUS_TIMEOUT && edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_BACKEND_FAILED &&
                      strstr(MSG(d), "command list entry 0 of 1") && untouched,
                  "fence timed out: %s", MSG(d));
        } else {
            if (s == EDML_STATUS_TIMEOUT)
                CHECK(edml_command_list_wait(l, UINT64_MAX) == EDML_STATUS_OK, "wait: %s", MSG(d));
            CHECK(ops_outputs_match(&t), "outputs after the wait");
            /* another GPU call completes the submission first */
            ops_reset_outputs(&t);
            CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && ops_execute(&f, of, NULL) == EDML_STATUS_OK &&
                      ops_outputs_match(&t) && ops_outputs_match(&f) && edml_command_list_wait(l, 0) == EDML_STATUS_OK,
                  "completed by an execute: %s", MSG(d));
            /* so does destroying the list */
            ops_reset_outputs(&t);
            CHECK(edml_command_list_submit(l) == EDML_STATUS_OK && edml_command_list_destroy(l) == EDML_STATUS_OK &&
                      ops_outputs_match(&t),
                  "completed by destroy: %s", MSG(d));
            l = NULL;
        }
        if (l) edml_command_list_destroy(l);
        edml_operator_destroy(of);
        edml_operator_destroy(ot);
        ops_free(&t), ops_free(&f);
        tl_device_free(&d);
    }
}

/* A list's upload that fails (GL_OUT_OF_MEMORY in life: EDML_FAULT_UPLOAD_ERROR
 * raises a GL error in its place) is seen by the wait, also where an
 * operator whose program is built now is created between the submit and
 * the wait (building reads and clears GL's errors): BACKEND_FAILED, the
 * outputs untouched, never OK with what the arena held. */
static void command_list_upload_error(void)
{
    for (int between = 0; between < 2; between++) {
        tl_device d;
        if (!gles_device(&d, EDML_FAULT_UPLOAD_ERROR)) return;
        ops_case t, f;
        ops_make_type(&t, EDML_OPERATOR_TOP_K1);
        ops_make_type(&f, EDML_OPERATOR_ELEMENT_WISE_IF);
        edml_operator *ot = NULL, *of = NULL;
        edml_command_list *l = NULL;
        EDML_BUFFER_BINDING ti[1], to[2];
        ops_bindings(&t, ti, to);
        CHECK(edml_operator_create(d.dev, &t.desc, EDML_BACKEND_GLES, &ot) == EDML_STATUS_OK &&
                  edml_command_list_create(d.dev, 1, &l) == EDML_STATUS_OK &&
                  edml_command_list_record(l, ot, ti, 1, to, 2, NULL) == EDML_STATUS_OK,
              "set-up: %s", MSG(d));
        ops_reset_outputs(&t);
        CHECK(l && edml_command_list_submit(l) == EDML_STATUS_OK, "submit: %s", MSG(d));
        if (between)
            CHECK(edml_operator_create(d.dev, &f.desc, EDML_BACKEND_GLES, &of) == EDML_STATUS_OK,
                  "an operator created between submit and wait: %s", MSG(d));
        const edml_status s = l ? edml_command_list_wait(l, UINT64_MAX) : EDML_STATUS_OK;
        CHECK(s == EDML_STATUS_BACKEND_FAILED && strstr(MSG(d), "GL error") && ops_outputs_untouched(&t),
              "a failed upload in a list%s: %s %s", between ? ", an operator created before the wait" : "",
              edml_status_string(s), MSG(d));
        if (l) edml_command_list_destroy(l);
        if (of) edml_operator_destroy(of);
        edml_operator_destroy(ot);
        ops_free(&t), ops_free(&f);
        tl_device_free(&d);
    }
}

int lists_main(void);
int lists_main(void)
{
    command_lists_run();
    command_lists_poisoned();
    command_list_misuse();
    command_list_gles_batch();
    command_list_gles_gathers();
    command_list_gles_gathers_fault();
    command_list_async();
    command_list_upload_error();
    command_list_hazards();
    command_list_many_ranges();
    return tl_summary("lists");
}

#ifndef EDML_TEST_IMAGE
int main(void) { return lists_main(); }
#endif
