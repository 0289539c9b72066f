/* edml-run: runs .case files (docs/case-format.md) through edml. */
#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRIKE_NAMES "dropped|reset|partial-workgroup|stale-readback|dropped-copy|stale-mapping"

static void usage(FILE *f)
{
    fprintf(f, "usage: edml-run [--check] [--backend auto|gles|neon|ref] [--threads N] [--small-parts]\n"
               "                [--command-list [--reorder]] [--limits " CASE_LIMITS_NAMES "] [--unchecked]\n"
               "                [--gpu-always] [--may-refuse] [--strike FAULT [--in-turn] [--strike-at N]]\n"
               "                FILE...\n"
               "       edml-run --list-backends | --list-operators\n"
               "  Runs each .case file and prints its outputs in the DirectML pages' notation.\n"
               "  --check      compare outputs with the expected data; print PASS/FAIL per case\n"
               "               and last 'N passed, N failed'\n"
               "  --backend B  run on backend B (default auto)\n"
               "  --threads N  run the CPU kernels on N threads (edml's pool; default 1):\n"
               "               the outputs are the same for every N\n"
               "  --small-parts  cut the CPU kernels' work into parts of 64 bytes (tests: so\n"
               "               that tiny cases are split across the threads too)\n"
               "  --command-list  record every case's execution into one command list and run\n"
               "               it by one submission (cases that expect an error run alone);\n"
               "               the verdicts are those of one execute per case\n"
               "  --reorder    (GLES, tests) run the list's kernels that no barrier separates\n"
               "               backwards, as a GPU may: a barrier left out changes results\n"
               "  --limits L   (GLES, tests) take the GPU's limits no higher than Mesa's V3D\n"
               "               (v3d: the Raspberry Pi's), Panfrost's Mali (mali), freedreno's\n"
               "               Adreno 6xx (adreno) or GLES 3.1's minimums (gles31)\n"
               "  --unchecked  (GLES, tests) use the kernels without their known-answer tests\n"
               "               and without checking that their dispatches ran (a driver whose\n"
               "               dispatches do nothing, Mesa's no-op DRM shims: no GL error)\n"
               "  --gpu-always (tests) AUTO on the built-in board with every GPU threshold 0\n"
               "  --may-refuse (GLES, tests) a case the GPU backend refuses with a status, its\n"
               "               outputs untouched, is REFUSED, not failed (a GPU that may do\n"
               "               nothing); a wrong answer with OK still fails\n"
               "  --strike F   (GLES, tests) each case on a device of its own, run twice, the\n"
               "               second run struck by fault F (" STRIKE_NAMES "):\n"
               "               with --command-list, the list's first submission struck (cases\n"
               "               that expect an error are left out: they would move it);\n"
               "               a wrong answer with OK fails, a refusal is REFUSED (--may-refuse)\n"
               "  --in-turn    (with --strike) every case on one device, in order, run once:\n"
               "               the struck submission follows other operators' calls\n"
               "  --strike-at N  the device's Nth GPU submission is the struck one (default:\n"
               "               a case's second run; a list's first submission)\n"
               "Exit status: 0 all passed, 1 a case failed, 2 usage error or malformed file.\n");
}

/* every operator a case may name, with its members (edml_operator_schemas) */
static void list_operators(void)
{
    static const char *const kinds[] = {"",
                                        "input tensor",
                                        "output tensor",
                                        "UINT",
                                        "DML_AXIS_DIRECTION",
                                        "UINT (the count of the list after it; may be left out)",
                                        "UINT list {a, b}"};
    UINT n;
    const edml_operator_schema *ops = edml_operator_schemas(&n);
    for (UINT i = 0; i < n; i++) {
        printf("%s\n", ops[i].name);
        printf("  %-22s", "(backends)");
        for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
            if (edml_operator_backends(ops[i].type) & EDML_BACKEND_BIT(b))
                printf(" %s", edml_backend_name((edml_backend)b));
        printf("\n");
        for (UINT f = 0; f < ops[i].field_count; f++)
            printf("  %-22s %s\n", ops[i].fields[f].name,
                   (size_t)ops[i].fields[f].type < sizeof kinds / sizeof *kinds ? kinds[ops[i].fields[f].type] : "?");
    }
}

static bool parse_backend(const char *s, edml_backend *b)
{
    for (int i = 0; i < EDML_BACKEND_COUNT_; i++)
        if (strcmp(s, edml_backend_name((edml_backend)i)) == 0) {
            *b = (edml_backend)i;
            return true;
        }
    return false;
}

/* the backends a default device has on this build and machine */
static int list_backends(void)
{
    size_t size = edml_device_size();
    void *arena = aligned_alloc(16, (size + 15) & ~(size_t)15);
    if (arena) memset(arena, 0, size);
    edml_device *dev;
    edml_device_desc dd = {0};
    if (!arena || edml_device_create(&dd, arena, size, &dev) != EDML_STATUS_OK) return 2;
    uint32_t mask = edml_device_backends(dev);
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
        if (mask & EDML_BACKEND_BIT(b)) printf("%s\n", edml_backend_name((edml_backend)b));
    char info[512]; /* the GPU the device found, or why it has none (stderr: stdout is the list) */
    fprintf(stderr, "gles: %s\n", edml_device_gles_info(dev, info, sizeof info));
    edml_device_destroy(dev);
    free(arena);
    return 0;
}

/* The command line's settings: strike, the fault of --strike (0: none). */
typedef struct run_opts {
    bool check, as_list, may_refuse, in_turn;
    uint32_t faults, threads, strike, strike_at;
    edml_backend backend;
} run_opts;

/* The verdicts so far. */
typedef struct tally {
    int passed, failed, skipped, refused, left_out;
    bool malformed;
} tally;

/* One case of --command-list: its operator and buffers, and its verdict. */
typedef struct list_case {
    edml_case c;
    edml_operator *op;
    void *in[CASE_MAX_INPUTS], *scratch;
    case_result r;
    bool recorded, ok, skipped, alone;
    char why[CASE_MSG + 300];
} list_case;

/* Creates the case's operator and records its execution; false (why set)
 * when creation or recording fails. */
static bool list_record(list_case *lc, edml_device *dev, edml_backend backend, edml_command_list *list)
{
    edml_case *c = &lc->c;
    case_build_desc(c, NULL, NULL);
    memset(&lc->r, 0, sizeof lc->r);
    if ((lc->r.create_status = edml_operator_create(dev, &c->desc, backend, &lc->op))) {
        snprintf(lc->why, sizeof lc->why, "create: %s", edml_device_last_error(dev));
        return false;
    }
    EDML_BINDING_PROPERTIES props;
    edml_operator_get_binding_properties(lc->op, &props);
    EDML_BUFFER_BINDING in[CASE_MAX_INPUTS], out[CASE_MAX_OUTPUTS];
    for (int i = 0; i < c->ninputs; i++) {
        lc->in[i] = aligned_alloc(16, (c->inputs[i].total_bytes + 15) & ~15ull);
        memcpy(lc->in[i], c->inputs[i].data, (size_t)c->inputs[i].total_bytes);
        in[i] = (EDML_BUFFER_BINDING){lc->in[i], 0, c->inputs[i].total_bytes};
    }
    for (int i = 0; i < c->noutputs; i++) {
        lc->r.out[i] = aligned_alloc(16, (c->outputs[i].total_bytes + 15) & ~15ull);
        memset(lc->r.out[i], 0xcd, (size_t)c->outputs[i].total_bytes);
        out[i] = (EDML_BUFFER_BINDING){lc->r.out[i], 0, c->outputs[i].total_bytes};
    }
    lc->scratch = aligned_alloc(16, (props.TemporaryResourceSize + 16) & ~15ull);
    const EDML_BUFFER_BINDING temp = {lc->scratch, 0, props.TemporaryResourceSize};
    if ((lc->r.exec_status =
             edml_command_list_record(list, lc->op, in, (UINT)c->ninputs, out, (UINT)c->noutputs, &temp))) {
        snprintf(lc->why, sizeof lc->why, "record: %s", edml_device_last_error(dev));
        return false;
    }
    return true;
}

/* --command-list: every case that expects no error recorded into one list
 * and run by one submission, then judged as case_check judges it; cases
 * that expect an error run alone. Prints the verdicts in file order. */
static void print_tally(const tally *t, edml_backend backend, const char *tail);

static int run_as_list(char **paths, int n, const run_opts *o)
{
    list_case *all = calloc((size_t)n, sizeof *all);
    char why[256];
    const edml_backend backend = o->backend;
    edml_device *dev = case_device_new_sized(backend, o->threads, o->faults, (size_t)(n + 1) * 16384, why, sizeof why);
    edml_command_list *list = NULL;
    if (!all || !dev || edml_command_list_create(dev, (UINT)n, &list)) {
        fprintf(stderr, "edml-run: %s\n", dev ? edml_device_last_error(dev) : why);
        return 2;
    }
    tally t = {0};
    for (int i = 0; i < n; i++) {
        list_case *lc = &all[i];
        char err[CASE_MSG];
        if (case_load(paths[i], &lc->c, err, sizeof err)) {
            snprintf(lc->why, sizeof lc->why, "malformed: %s", err);
            t.malformed = true;
        } else if (!case_backend_has(&lc->c, backend)) {
            lc->skipped = true; /* as one execute per case: said so, never passed */
        } else if (lc->c.expect_error && o->strike) {
            lc->skipped = lc->alone = true; /* its submissions would move the struck one */
        } else if (lc->c.expect_error) {
            lc->ok = case_check(&lc->c, dev, backend, &lc->r, lc->why, sizeof lc->why);
        } else {
            lc->recorded = list_record(lc, dev, backend, list);
        }
    }
    const edml_status s =
        edml_command_list_submit(list) ? EDML_STATUS_INVALID_ARGUMENT : edml_command_list_wait(list, UINT64_MAX);
    for (int i = 0; i < n; i++) {
        list_case *lc = &all[i];
        if (lc->recorded && s != EDML_STATUS_OK) {
            lc->r.exec_status = s;
            snprintf(lc->why, sizeof lc->why, "the list: %s: %s", edml_status_string(s), edml_device_last_error(dev));
        } else if (lc->recorded) {
            lc->ok = case_compare(&lc->c, &lc->r, lc->why, sizeof lc->why);
        }
        if (lc->skipped && lc->alone) {
            printf("SKIP %s: expects an error: run alone (left out where a list's submission is struck)\n", paths[i]);
            t.left_out++;
            continue;
        }
        if (lc->skipped) {
            printf("SKIP %s: backend %s has no kernel for %s\n", paths[i], edml_backend_name(backend),
                   case_op_name(lc->c.op));
            t.skipped++;
            continue;
        }
        const bool refused = !lc->ok && o->may_refuse && case_refused(&lc->c, &lc->r);
        printf("%s %s%s%s\n",
               lc->ok    ? "PASS"
               : refused ? "REFUSED"
                         : "FAIL",
               paths[i], lc->ok ? "" : ": ", lc->ok ? "" : lc->why);
        lc->ok ? t.passed++ : refused ? t.refused++ : t.failed++;
    }
    char tail[96];
    snprintf(tail, sizeof tail, " (one command list of %u executions on %s)", edml_command_list_count(list),
             edml_backend_name(backend));
    print_tally(&t, backend, tail);
    edml_command_list_destroy(list);
    for (int i = n; i-- > 0;) {
        if (all[i].op) edml_operator_destroy(all[i].op);
        for (int k = 0; k < CASE_MAX_INPUTS; k++) free(all[i].in[k]);
        free(all[i].scratch);
        case_result_free(&all[i].r);
        case_free(&all[i].c);
    }
    free(all);
    case_device_free(dev);
    return t.malformed ? 2 : t.failed ? 1 : 0;
}

/* A count of 1 to max after option `name`. */
static bool parse_count(const char *name, const char *arg, unsigned long max, uint32_t *count)
{
    char *end;
    unsigned long n = strtoul(arg, &end, 10);
    if (*end || n < 1 || n > max) {
        fprintf(stderr, "edml-run: %s takes 1 to %lu, not '%s'\n", name, max, arg);
        return false;
    }
    *count = (uint32_t)n;
    return true;
}

/* --limits: a small GPU's limits for the GLES backend (tests) */
static bool parse_limits(const char *l, uint32_t *faults)
{
    const uint32_t f = case_limits_fault(l);
    if (!f) fprintf(stderr, "edml-run: --limits takes " CASE_LIMITS_NAMES ", not '%s'\n", l);
    *faults |= f;
    return f != 0;
}

/* --strike: the fault that strikes each case's second GPU submission */
static bool parse_strike(const char *name, run_opts *o)
{
    static const struct {
        const char *name;
        uint32_t fault;
    } faults[] = {{"dropped", EDML_FAULT_DROPPED_DISPATCH},
                  {"reset", EDML_FAULT_GPU_RESET},
                  {"partial-workgroup", EDML_FAULT_PARTIAL_WORKGROUP},
                  {"stale-readback", EDML_FAULT_STALE_READBACK},
                  {"dropped-copy", EDML_FAULT_DROPPED_COPY},
                  {"stale-mapping", EDML_FAULT_STALE_MAPPING}};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        if (!strcmp(name, faults[i].name)) {
            o->strike = faults[i].fault;
            o->faults |= o->strike;
            return true;
        }
    fprintf(stderr, "edml-run: --strike takes " STRIKE_NAMES ", not '%s'\n", name);
    return false;
}

/* Options up to the first file: the index of that file, or -1 to exit with
 * *rc (a listing, help or a usage error). */
static int parse_options(int argc, char **argv, run_opts *o, int *rc)
{
    int first = 1;
    *rc = 2;
    for (; first < argc && argv[first][0] == '-' && argv[first][1] == '-'; first++) {
        const char *a = argv[first];
        if (strcmp(a, "--check") == 0) {
            o->check = true;
        } else if (strcmp(a, "--list-backends") == 0) {
            return *rc = list_backends(), -1;
        } else if (strcmp(a, "--list-operators") == 0) {
            return list_operators(), *rc = 0, -1;
        } else if (strcmp(a, "--help") == 0) {
            return usage(stdout), *rc = 0, -1;
        } else if ((strcmp(a, "--backend") == 0 && first + 1 < argc) || strncmp(a, "--backend=", 10) == 0) {
            const char *name = a[9] == '=' ? a + 10 : argv[++first];
            if (!parse_backend(name, &o->backend))
                return fprintf(stderr, "edml-run: unknown backend '%s' (auto, gles, neon, ref)\n", name), -1;
        } else if (strcmp(a, "--threads") == 0 && first + 1 < argc) {
            if (!parse_count("--threads", argv[++first], 64, &o->threads)) return -1;
        } else if (strcmp(a, "--small-parts") == 0) {
            o->faults |= EDML_FAULT_SMALL_PARTS;
        } else if (strcmp(a, "--command-list") == 0) {
            o->as_list = true;
        } else if (strcmp(a, "--reorder") == 0) {
            o->faults |= EDML_FAULT_REORDER;
        } else if (strcmp(a, "--unchecked") == 0) {
            o->faults |= EDML_FAULT_UNCHECKED;
        } else if (strcmp(a, "--gpu-always") == 0) {
            case_board = case_board_gpu_always();
        } else if (strcmp(a, "--may-refuse") == 0) {
            o->may_refuse = true;
        } else if (strcmp(a, "--limits") == 0 && first + 1 < argc) {
            if (!parse_limits(argv[++first], &o->faults)) return -1;
        } else if (strcmp(a, "--strike") == 0 && first + 1 < argc) {
            if (!parse_strike(argv[++first], o)) return -1;
        } else if (strcmp(a, "--in-turn") == 0) {
            o->in_turn = true;
        } else if (strcmp(a, "--strike-at") == 0 && first + 1 < argc) {
            if (!parse_count("--strike-at", argv[++first], 1000000, &o->strike_at)) return -1;
        } else if (strcmp(a, "--") == 0) {
            first++;
            break;
        } else {
            return fprintf(stderr, "edml-run: unknown option '%s'\n", a), usage(stderr), -1;
        }
    }
    if (first >= argc) return usage(stderr), -1;
    return first;
}

/* One case file: run, judged (--check) or printed. */
static void run_file(const char *path, edml_device *dev, const run_opts *o, tally *t)
{
    edml_case *c = calloc(1, sizeof *c);
    char err[CASE_MSG];
    if (!c) {
        fprintf(stderr, "edml-run: out of memory\n");
        exit(2);
    }
    if (case_load(path, c, err, sizeof err)) {
        fprintf(stderr, "edml-run: %s\n", err);
        if (o->check) printf("FAIL %s: malformed: %s\n", path, err);
        t->malformed = true;
        t->failed++;
    } else if (!case_backend_has(c, o->backend)) {
        printf("SKIP %s: backend %s has no kernel for %s\n", path, edml_backend_name(o->backend), case_op_name(c->op));
        t->skipped++;
    } else {
        case_result r;
        char why[CASE_MSG + 300];
        bool ok = case_check(c, dev, o->backend, &r, why, sizeof why);
        if (ok && o->strike && !o->in_turn) { /* the second run, struck */
            case_result_free(&r);
            ok = case_check(c, dev, o->backend, &r, why, sizeof why);
        }
        const bool refused = !ok && o->may_refuse && case_refused(c, &r);
        const edml_status s = r.exec_status ? r.exec_status : r.create_status;
        if (o->check && ok) {
            printf("PASS %s", path);
            if (c->expect_error) printf(" (%s: %s)", edml_status_string(s), r.message);
            printf("\n");
        } else if (o->check) {
            printf("%s %s: %s\n", refused ? "REFUSED" : "FAIL", path, why);
        } else {
            printf("// %s: %s on %s\n", path, case_op_name(c->op), edml_backend_name(o->backend));
            if (s != EDML_STATUS_OK) printf("// %s: %s\n", edml_status_string(s), r.message);
            if (s == EDML_STATUS_OK || s == EDML_STATUS_INDEX_OUT_OF_RANGE)
                for (int k = 0; k < c->noutputs; k++) case_print_tensor(stdout, &c->outputs[k], r.out[k]);
            printf("\n");
        }
        ok ? t->passed++ : refused ? t->refused++ : t->failed++;
        case_result_free(&r);
    }
    case_free(c);
    free(c);
}

/* The closing line: passed and failed, then the skipped and refused. */
static void print_tally(const tally *t, edml_backend backend, const char *tail)
{
    printf("%d passed, %d failed", t->passed, t->failed);
    if (t->skipped) printf(", %d skipped (no kernel on %s)", t->skipped, edml_backend_name(backend));
    if (t->left_out) printf(", %d left out (they expect an error)", t->left_out);
    if (t->refused) printf(", %d refused (the GPU backend refused them with a status, writing nothing)", t->refused);
    printf("%s\n", tail);
}

int main(int argc, char **argv)
{
    run_opts o = {.threads = 1, .backend = EDML_BACKEND_AUTO};
    int rc;
    const int first = parse_options(argc, argv, &o, &rc);
    if (first < 0) return rc;
    case_fault_at = o.strike_at              ? o.strike_at
                    : o.strike && !o.as_list ? 2u
                                             : 1u; /* a case's second run; a list's first */
    if (o.as_list) return run_as_list(argv + first, argc - first, &o);
    tally t = {0};
    char why_dev[256];
    edml_device *dev = NULL;
    for (int i = first; i < argc; i++) {
        if (!dev && !(dev = case_device_new(o.backend, o.threads, o.faults, why_dev, sizeof why_dev))) {
            fprintf(stderr, "edml-run: %s\n", why_dev);
            return 2;
        }
        run_file(argv[i], dev, &o, &t);
        if (o.strike && !o.in_turn) case_device_free(dev), dev = NULL; /* --strike: a device a case */
    }
    char tail[64] = "";
    if (o.strike && o.in_turn)
        snprintf(tail, sizeof tail, " (one device, its submission %u struck)", case_fault_at);
    else if (o.strike)
        snprintf(tail, sizeof tail, " (the second run of each struck)");
    if (o.check) print_tally(&t, o.backend, tail);
    case_device_free(dev);
    if (t.malformed) return 2;
    return t.failed ? 1 : 0;
}
