/* edml-bench: the workloads of docs/bench.md on every backend.
 *
 *   edml-bench [--workload NAME] [--backend NAME] [--json FILE] [--iters N]
 *              [--scale F] [--threads N] [--sweep] [--crossover] [--chain N] [--gpu-floor] [--gpu-time]
 *              [--placement [--rounds R] [--cases FILE...]] [--predict --model FILE] [--report FILE] [--any-thread]
 *              [--topk ROWS,N,K[,0]] [--list]
 *
 * For each workload and backend: the median time per call over N calls
 * (at least 10) after a warm-up, the effective bandwidth (each input element
 * read once, each output element written once, over the time) and its ratio
 * to a plain copy of the same number of bytes measured in the same run
 * (memcpy on the CPU; a compute-shader copy on the GPU). For GLES both the
 * time with the data resident in the GPU arena and host to host. Each
 * backend's output is compared once with the reference backend's, so a fast
 * wrong kernel cannot pass. TopK rows are also timed against a full stable
 * sort of each row (the naive baseline). --scale shrinks every workload (for
 * quick runs); --crossover times NEON against GLES over growing sizes.
 * --threads N gives the device edml's pool of N workers (the copy it is
 * compared with then runs on the same N threads); --sweep times one backend
 * (NEON unless --backend names another) at 1, 2, 4, 8 and 16 threads: time,
 * scaling over 1 thread, and the fraction of an N-thread copy; each thread
 * count's outputs must equal 1 thread's, bit for bit. Every JSON row
 * carries "threads". --chain N runs N executions of one small workload
 * (topk_cls unless --workload names another) on GLES one by one, then as
 * one command list, and prints both times: with host memory in and out,
 * then with every tensor in GPU buffers. --gpu-floor first times bare GL
 * in the same process (gl_floor: a one-workgroup dispatch and a fence;
 * gl_copy: a 64 MiB copy shader; gl_gather, gl_rows, gl_read and
 * gl_rowread: the least kernels of gather_points', gather_rows' and
 * argmin_inner's work; what each step of an execution adds, with two ways
 * to read 8 bytes back through a persistent mapping where the driver has
 * GL_EXT_buffer_storage), then the workload --workload names. --workgroup N
 * runs the GLES kernels with workgroups of N invocations. --topk ROWS,N,K
 * times one TopK outside docs/bench.md, K of each of ROWS rows of N FLOAT32
 * (",0": down columns of N, axis 0), as the workload "topk_rows".
 * --gpu-time splits GLES calls by the GPU's clock (GL_EXT_disjoint_timer_query):
 * the GPU's busy span from a timestamp before the work to one after its
 * fence, and the rest of the call; bare GL kernels, then each workload (its
 * outputs checked by the rows above, not here). --placement times each
 * workload on NEON, on GLES, with AUTO by the board's thresholds and with
 * AUTO measured (EDML_PLACEMENT_MEASURE), in host memory and in GPU
 * buffers, in R rounds, then each AUTO alone in turns with the backend it
 * ran on, by name, and prints AUTO's ratio to it (tools/bench/placement.c);
 * with --cases, the operators of those .case files instead, their inputs'
 * data optional (tools/bench/cases.c). --predict --model FILE puts the
 * cost model's time for each beside its own (tools/bench/predict.c). --report
 * FILE writes the board report (tools/bench/report.c; make board-report).
 * The device keeps its one GL context current (gles_one_thread = 1);
 * --any-thread creates it as a multi-threaded application would (0: a
 * context per calling thread, kept current). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#include <signal.h>

/* A crash in a long run on a lent machine says where (addr2line on this
 * binary turns the offsets into lines). */
static void on_crash(int sig)
{
    void *frames[64];
    const int n = backtrace(frames, 64);
    fprintf(stderr, "edml-bench: signal %d; the stack:\n", sig);
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}
static void on_crash_say(void) { signal(SIGSEGV, on_crash), signal(SIGBUS, on_crash), signal(SIGABRT, on_crash); }
#else
static void on_crash_say(void) {}
#endif

/* Whether the program runs as one of the board report's
 * (edml-board-report-gl, edml-board-report: make board-report's copies). */
static bool as_report(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    return !strncmp(base ? base + 1 : argv0, "edml-board-report", 17);
}

static void usage(FILE *f, const char *argv0)
{
    if (as_report(argv0)) {
        fprintf(f,
                "usage: %s --report FILE [--scale F] [--iters N]\n"
                "The board report: what edml does on this board, printed as it goes and written as JSON to FILE,\n"
                "with two files beside it for the firmware:\n"
                "  FILE            the report: identity, heat, first start, the workloads on NEON at each thread\n"
                "                  count and on GLES, the crossovers, the cost model's fit, measured placement,\n"
                "                  a caps.h block (tools/perf_table.py report FILE makes its tables)\n"
                "  FILE.model      AUTO's cost model, for edml_device_desc.cost_model: places every operator,\n"
                "                  of any shape, by its predictions of both sides\n"
                "  FILE.placement  measured placement's decisions for the 16 workloads only, a placement cache\n"
                "                  for EDML_PLACEMENT_SAVED\n"
                "--scale F  the workloads' size (default: the largest up to 1 that takes at most a quarter of\n"
                "           the board's memory); --iters N  calls timed a row (default and least 10).\n"
                "It says before it starts about how long it runs, and prints a progress line as each step ends.\n"
                "edml-board-report-gl loads the board's GL at run time; edml-board-report is static, the CPU alone.\n",
                argv0);
        return;
    }
    fprintf(
        f,
        "usage: edml-bench [--workload NAME] [--backend ref|neon|gles|auto] [--json FILE] [--iters N] "
        "[--scale F] [--threads 1..64] [--sweep] [--families] [--crossover] [--calls N] [--chain N] "
        "[--gpu-floor] [--gpu-time] [--pipeline] [--mapped] [--placement [--cases FILE...] [--model FILE]] [--predict] "
        "[--rounds N] [--report FILE] [--any-thread] [--workgroup N] [--topk ROWS,N,K[,0]] [--list] [--help]\n"
        "Each mode is described at the top of tools/bench/main.c and in docs/bench.md; --report FILE is the\n"
        "board report (make board-report; its programs' --help says what it writes).\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    *o = (options){.scale = 1, .only_calls = -1, .rounds = 3};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--workload") && i + 1 < argc)
            o->only = argv[++i];
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            o->only_backend = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            o->json = argv[++i];
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            o->scale = atof(argv[++i]), o->scale_given = true;
        else if (!strcmp(argv[i], "--crossover"))
            o->crossover = true;
        else if (!strcmp(argv[i], "--sweep"))
            o->sweep = true;
        else if (!strcmp(argv[i], "--families"))
            o->families = true;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= 64)
            bench_threads = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            o->only_calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--chain") && i + 1 < argc)
            o->chain = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gpu-floor"))
            o->gpu_floor = true;
        else if (!strcmp(argv[i], "--pipeline"))
            o->pipeline = true;
        else if (!strcmp(argv[i], "--gpu-time"))
            o->gpu_time = true;
        else if (!strcmp(argv[i], "--mapped"))
            o->mapped = true;
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
            o->cases = &argv[i + 1];
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) i++, o->ncases++;
        } else if (!strcmp(argv[i], "--placement"))
            o->placement = true;
        else if (!strcmp(argv[i], "--predict"))
            o->predict = true;
        else if (!strcmp(argv[i], "--report") && i + 1 < argc)
            o->report = argv[++i];
        else if (!strcmp(argv[i], "--model") && i + 1 < argc)
            o->model = argv[++i];
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc && atoi(argv[i + 1]) >= 1)
            o->rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--topk") && i + 1 < argc) {
            topk_rows[3] = 1;
            int got = sscanf(argv[++i], "%u,%u,%u,%u", &topk_rows[0], &topk_rows[1], &topk_rows[2], &topk_rows[3]);
            if (got < 3 || !topk_rows[0] || !topk_rows[1] || !topk_rows[2] || topk_rows[2] > topk_rows[1]) {
                fprintf(stderr, "edml-bench: --topk ROWS,N,K[,0] with 1 <= K <= N\n");
                return 2;
            }
            o->only = "topk_rows";
        } else if (!strcmp(argv[i], "--any-thread"))
            bench_one_thread = 0;
        else if (!strcmp(argv[i], "--workgroup") && i + 1 < argc) { /* e.g. V3D's 256 on another GPU */
            bench_board = *edml_board_builtin();
            bench_board.gpu_workgroup = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--list")) {
            if (o->families) return families_list();
            for (int k = 0; k < WORKLOADS; k++) printf("%s\n", workload_names[k]);
            return 0;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return 0;
        } else {
            fprintf(stderr, "%s: %s is no option here\n", argv[0], argv[i]);
            usage(stderr, argv[0]);
            return 2;
        }
    }
    return -1;
}

/* For bench-insns: the same set-up with N or 0 calls; the difference is the
 * kernel. Prints the workload's elements. */
static int count_calls(const options *o)
{
    int wi = 0;
    while (wi < WORKLOADS && (!o->only || strcmp(o->only, workload_names[wi]))) wi++;
    edml_backend be = EDML_BACKEND_REF;
    for (int b = 0; b < EDML_BACKEND_COUNT_; b++)
        if (o->only_backend && !strcmp(o->only_backend, edml_backend_name((edml_backend)b))) be = (edml_backend)b;
    if (wi == WORKLOADS) return 2;
    workload w;
    make_workload(&w, wi, o->scale);
    size_t asz = edml_device_size() + (1 << 20);
    void *ar = aligned_alloc(16, asz);
    if (!ar) return 1;
    memset(ar, 0, asz);
    edml_device *d;
    edml_device_desc ddd = {0};
    ddd.backends = EDML_BACKEND_BIT(be);
    edml_operator *op;
    if (edml_device_create(&ddd, ar, asz, &d) || edml_operator_create(d, &w.desc, be, &op)) return 1;
    EDML_BUFFER_BINDING bi[3], bo[2];
    for (int k = 0; k < w.nin; k++) bi[k] = (EDML_BUFFER_BINDING){w.in[k].host, 0, w.in[k].bytes};
    for (int k = 0; k < w.nout; k++) bo[k] = (EDML_BUFFER_BINDING){w.out[k].host, 0, w.out[k].bytes};
    for (int c = 0; c < o->only_calls; c++)
        if (edml_operator_execute(op, bi, (UINT)w.nin, bo, (UINT)w.nout, NULL)) return 1;
    printf("%llu\n", (unsigned long long)w.in[w.desc.Type == EDML_OPERATOR_ELEMENT_WISE_IF ? 1 : 0].count);
    return 0;
}

/* A mode's end: its figures to --json's file. */
static int with_json(int rc, const options *o) { return o->json && write_json(o->json) ? 1 : rc; }

int main(int argc, char **argv)
{
    options o;
    on_crash_say();
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    if (as_report(argv[0]) && argc == 1) { /* the report's programs, run bare: what they take */
        fprintf(stderr, "%s: --report FILE names where the report goes\n", argv[0]);
        usage(stderr, argv[0]);
        return 2;
    }
    if (o.only_calls >= 0) return o.families ? families_count_calls(&o) : count_calls(&o);
    if (iters < 10) { /* said, not silent */
        fprintf(stderr, "edml-bench: --iters %d raised to 10: a median of fewer calls says little\n", iters);
        iters = 10;
    }
    if (o.gpu_floor && gpu_floor()) return 1;
    if (o.gpu_floor && !o.only) return with_json(0, &o);
    if (o.chain) return with_json(chain(&o, o.chain), &o);
    if (o.pipeline) return with_json(pipeline(), &o);
    if (o.gpu_time) return with_json(gpu_time(&o), &o);
    if (o.mapped) return bench_mapped(o.json, iters);
    if (o.placement) return bench_placement(&o);
    if (o.predict) return bench_predict(&o);
    if (o.report) return bench_report(&o);
    if (o.sweep) return sweep(&o);
    if (o.families) return bench_families(&o);
    bench_device bd;
    if (!bench_device_open(&bd, bench_threads, 0)) return 1;
    edml_device *dev = bd.dev;
    bench_pool = bd.pool;
    char info[300];
    printf("edml-bench: board %s, library %s, backends:", edml_board_builtin()->name, edml_version());
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
        if (edml_device_backends(dev) & EDML_BACKEND_BIT(b)) printf(" %s", edml_backend_name((edml_backend)b));
    printf("\n%s\nmedian of %d calls after a warm-up; %u thread%s\n\n", edml_device_gles_info(dev, info, sizeof info),
           iters, (unsigned)bench_threads, bench_threads > 1 ? "s (edml's pool; the copy on as many)" : "");
    int wrong = 0;
    for (int wi = 0; wi < WORKLOADS + (topk_rows[0] != 0); wi++) /* topk_rows only with --topk */
        if (!o.only || !strcmp(o.only, workload_name(wi))) bench_workload(dev, wi, &o, &wrong);
    fprintf(stderr, "%60s\r", "");
    if (o.crossover && (edml_device_backends(dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) crossover(dev);
    if (o.json && write_json(o.json)) return 1;
    bench_device_close(&bd);
    if (wrong) printf("%d results differ from the reference backend\n", wrong);
    return wrong ? 1 : 0;
}
