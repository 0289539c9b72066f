/* edml-bench's parts (tools/bench/): the workloads, the timing loop and its
 * report, and one file a mode. */
#ifndef EDML_BENCH_H
#define EDML_BENCH_H

#include "edml.h"
#include "../../port/edml_port.h" /* --gpu-floor, --gpu-time: bare GL through the port */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tensor {
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rank, sizes[8], strides[8];
    bool strided;
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
    uint8_t *host;
    UINT64 bytes;
    uint64_t count;
} tensor;

typedef struct workload {
    const char *name;
    const char *what;
    int nin, nout;
    tensor in[3], out[2];
    UINT axes[2];
    union {
        EDML_TOP_K1_OPERATOR_DESC topk;
        EDML_GATHER_ND1_OPERATOR_DESC gather_nd;
        EDML_ARGMIN_OPERATOR_DESC argreduce;
        EDML_ELEMENT_WISE_IF_OPERATOR_DESC elementwise_if;
    } u;
    EDML_OPERATOR_DESC desc;
    uint64_t bytes;         /* each input element read once, each output element written once */
    UINT topk_axis, topk_k; /* for the sort baseline */
    void *owned;            /* a case's (cases.c): its descriptor's storage */
} workload;

#define WORKLOADS 16 /* workload_names' (workloads.c checks it) */

typedef struct result {
    const char *workload, *backend, *mode; /* mode: "host", "gpu-resident" or "sweep" */
    double seconds, gbps, copy_gbps, ratio;
    uint32_t threads;
    bool ok, available;
    char note[160];
} result;

typedef struct options {
    const char *only, *json, *only_backend;
    double scale;
    bool crossover, sweep;
    int only_calls;     /* --calls N: just N executions of one workload on one backend (instruction counts) */
    int chain;          /* --chain N: N executions one by one against one command list (GLES) */
    bool gpu_floor;     /* --gpu-floor: gl_floor and gl_copy, bare GL */
    bool pipeline;      /* --pipeline: make demo's four steps, one by one and as a command list */
    bool gpu_time;      /* --gpu-time: each GLES call split by the GPU's clock */
    bool mapped;        /* --mapped: host memory, GPU buffers and mapped ones (tools/bench/mapped.c) */
    bool placement;     /* --placement: where AUTO puts each workload (tools/bench/placement.c) */
    bool predict;       /* --predict: the cost model's time beside the measured (tools/bench/predict.c) */
    int rounds;         /* --rounds N: --placement's interleaved rounds (3) */
    const char *report; /* --report FILE: the board report (tools/bench/report.c) */
    const char *model;  /* --model FILE: --placement's AUTO by this cost model (a board report's FILE.model) */
    bool scale_given;   /* --scale was given (the report picks one that fits the board's memory otherwise) */
    char **cases;       /* --cases FILE...: --placement on these operators instead of the workloads */
    int ncases;
    bool families; /* --families */
} options;

/* An operator timed host to host (measure.c: timed_open, timed_median,
 * timed_close): the one timing loop of every backend's rows and the sweep. */
typedef struct timed_op {
    edml_operator *op;
    void *tmp;
    EDML_BUFFER_BINDING tb, bi[3], bo[2];
    UINT nin, nout;
    edml_status first; /* the first execution's status (its outputs checked by the caller) */
} timed_op;
edml_status timed_open(edml_device *dev, workload *w, edml_backend be, timed_op *t);
double timed_median(timed_op *t);
void timed_close(timed_op *t);

/* A device with edml's pool of `threads` (none for 1) and the backends of
 * `mask` (0: every one). */
typedef struct bench_device {
    edml_device *dev;
    edml_pool *pool;
    void *arena, *pool_memory;
} bench_device;

/* --chain N: N executions of one small operator (topk_cls, or --workload)
 * on GLES, each with its own outputs: one by one (a fence each) against
 * recorded in one command list (one submission, one fence), first with
 * host memory in and out (each entry uploads its input and downloads its
 * outputs), then with every tensor in GPU buffers; then the same with N
 * operators of the workload's descriptor, one an entry (a list runs N
 * executions of one operator whose tensors lie evenly as the layers of
 * one dispatch, not those of N operators). Prints the median times of the
 * N and the ratio; each entry's outputs must match the first's. */
typedef struct chain_run {
    edml_device *dev;
    edml_operator *op[64]; /* entry e's */
    const workload *w;
    int n;
    bool gpu, distinct;
} chain_run;

/* gl_gather: gather_points' work in bare GL, the least a kernel can do for
 * it: 2^20 random (row, column) INT64 tuples, one 16-byte load each, over a
 * 1024 x 1024 FLOAT32 input; each output word written (median of 50, back
 * to back). buf[0] holds the tuples (16 MiB) and, 16 MiB in, the input;
 * buf[1] the output. */
#define GATHER_POINTS (1u << 20)

extern const char *const workload_names[];
extern UINT topk_rows[4];
extern int iters;
extern result results[512];
extern uint32_t bench_threads;
extern uint32_t bench_one_thread;
extern edml_pool *bench_pool;
extern edml_board bench_board;
extern uint64_t bench_gpu_arena; /* the GPU arena of the devices bench_device_open makes (0: 512 MiB) */
extern int nresults;
extern const char *const gl_floor_src;
extern const char *const gl_copy_src;
extern edmli_port_gl *gpu_time_gl;

/* workloads.c */
uint64_t rng(void);
void tensor_init(tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *strides);
void fill_indices(tensor *t, const UINT *ranges, UINT tuple);
void topk_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rows, UINT cols, UINT axis, UINT k,
                   EDML_AXIS_DIRECTION dir);
void gather_workload(workload *w, UINT rank, const UINT *in_sizes, const UINT *ix_sizes, EDML_TENSOR_DATA_TYPE ix_type,
                     UINT batch);
float uniform(void);
void if_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *cond_strides);
void argmin_workload(workload *w, EDML_OPERATOR_TYPE type, UINT rank, const UINT *sizes, const UINT *axes, UINT naxes);
void argreduce_workload(workload *w, EDML_OPERATOR_TYPE type, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes,
                        const UINT *axes, UINT naxes);
const char *workload_name(int i);
void make_workload(workload *w, int i, double sc);
#define SHAPE_WORKLOADS 12
extern const char *const shape_names[SHAPE_WORKLOADS];
void make_shape_workload(workload *w, int i, double sc); /* the board report's shape points */
void free_workload(workload *w);

/* measure.c */
double now_s(void);
double median(double *v, int n);
double copy_time(uint64_t bytes, edml_pool *pool);
bool same_outputs(const workload *w, uint8_t *const *ref);
void bench_workload(edml_device *dev, int wi, const options *o, int *wrong);
void crossover(edml_device *dev);
int write_json(const char *json);

/* sweep.c */
bool bench_device_open(bench_device *b, uint32_t threads, uint32_t mask);
/* The same with edml_device_desc.placement, another device's pool (NULL:
 * its own) and a GPU arena of gpu_arena bytes; and with any descriptor's
 * fields (base: its board, threads and context mode the bench's; a GPU
 * arena of 0 its default). */
bool bench_device_open_with(bench_device *b, uint32_t threads, const edml_device_desc *base, edml_pool *pool);
/* Median seconds of the workload on a backend, host to host; its outputs
 * against `keep` (taken from this run when keep[0] is NULL). Negative where
 * it cannot run. */
double bench_time_outputs(edml_device *dev, workload *w, edml_backend be, uint8_t **keep, bool *same);
bool bench_device_open_placed(bench_device *b, uint32_t threads, uint32_t mask, uint32_t placement, edml_pool *pool,
                              uint64_t gpu_arena);
void bench_device_close(bench_device *b);
int sweep(const options *o);

/* pipeline.c */
bool chain_bind(const chain_run *c, EDML_BUFFER_BINDING *bi, EDML_BUFFER_BINDING (*bo)[2], uint8_t *(*outs)[2],
                edml_gpu_buffer **gin, edml_gpu_buffer **gout);
int chain(const options *o, int n);
int pipeline(void);

/* floor.c */
GLuint_ gl_storage(const edmli_gl *gl, uint64_t bytes, GLuint_ binding);
unsigned gl_program(const edmli_gl *gl, const char *src);
GLuint_ gl_read_program(const edmli_gl *gl, uint64_t bytes, uint32_t per);
double gl_read(const edmli_gl *gl, const GLuint_ *buf, uint64_t bytes, uint32_t per);
void gl_gather_tuples(const edmli_gl *gl, const GLuint_ *buf);
GLuint_ gl_gather_program(const edmli_gl *gl, uint32_t per);
double gl_gather(const edmli_gl *gl, const GLuint_ *buf, uint32_t per);
int gpu_floor(void);

/* gpu_time.c */
int gpu_time(const options *o);

/* A figure as a JSON row of --json besides its printed line (measure.c):
 * kind ("gl_floor", "gl_copy", "gl_read", "gl_rows", "gl_gather",
 * "gl_step", "gl_chain", "chain", "pipeline", "gpu_time"), what it is, and
 * n named numbers (at most 4). */
void bench_figure(const char *kind, const char *name, int n, const char *const *keys, const double *vals);

/* --families: each operator over the shape families users bring, on NEON
 * at 1 and --threads threads against REF's outputs, with each row's memory
 * floor and parts (tools/bench/families.c). */
int bench_families(const options *o);
int families_count_calls(const options *o);
int families_list(void); /* --families --list: their names */
/* The plain C loop of a family's work (tools/bench/plain.c). */
void plain_run(const workload *w);

/* --placement: NEON, GLES, AUTO by thresholds and AUTO measured, with host
 * memory and GPU buffers, in interleaved rounds (placement.c). */
int bench_placement(const options *o);
/* --model FILE's blob (at most 64 KiB: a board report's FILE.model), or NULL. */
const void *bench_model_blob(const char *path, size_t *bytes);
/* --predict: the cost model's time of each workload or case beside its own (predict.c). */
int bench_predict(const options *o);
/* AUTO measured (dev places by EDML_PLACEMENT_MEASURE) on the workload with
 * host memory and GPU buffers until decided: edml_operator_placement()'s
 * words and the backend, for each. */
void bench_place(edml_device *dev, workload *w, char why[2][200], char placed[2][8]);
/* NEON's and GLES's median seconds (t[0], t[1]; negative: not run) on one
 * operator of `elements`: family 0 ElementWiseIf FLOAT32, 1 ArgMin along
 * rows of 4096 (measure.c). */
void bench_crossover_point(edml_device *dev, int family, UINT elements, double t[2]);

/* --report FILE: the board report (report.c, report_sys.c) */
typedef struct report_heat {
    bool has_temp, has_flags, throttled;
    double celsius;
    unsigned flags;
} report_heat;
int bench_report(const options *o);
/* The board report's cost model (report_model.c): every workload at four
 * sizes in every series, fitted by kernel path into terms[] (at most
 * REPORT_MODEL_TERMS), said in the JSON, written to `path` as a blob; its
 * lines as caps.h's. */
#define REPORT_MODEL_TERMS 1024
uint32_t report_model(FILE *f, bench_device *devs, const uint32_t *threads, int nt, double scale, const char *path,
                      edml_cost_term *terms);
void report_model_caps(char *buf, size_t cap, const edml_cost_term *terms, uint32_t n);
/* Median seconds of `be` with the workload's tensors in GPU buffers (its
 * outputs read back once into w's, against `ref` unless NULL); negative
 * where it cannot run. */
double bench_time_resident(edml_device *dev, workload *w, edml_backend be, uint8_t **ref, bool *same);
void report_thermal(report_heat *h);
void report_heat_json(FILE *f, const report_heat *h);
void report_identity(FILE *f);
/* Whether this report runs under emulation (an Arm program on a kernel
 * that reports an x86 processor: qemu-user), and why. */
bool report_emulated(char *why, size_t cap);

/* The board report's plan (tools/bench/report_plan.c): said before it
 * starts, summed up at its end. */
/* The board report's steps, in order, each guessed and said as it ends. */
typedef enum report_step {
    REPORT_STEP_START,
    REPORT_STEP_ROWS,
    REPORT_STEP_CROSSOVERS,
    REPORT_STEP_MODEL,
    REPORT_STEP_PLACEMENT,
    REPORT_STEPS
} report_step;
typedef struct report_plan {
    uint64_t memory, largest, peak, gpu_arena; /* bytes: the board's, the largest workload's, at most, GPU arena */
    uint32_t sweep_top;                        /* the crossovers' largest size, elements */
    uint32_t swept[2];                         /* the largest GLES ran, a family (copy, reduction) */
    double seconds, t0, rows_t0;               /* the guess, when it started, when its workloads' rows did */
    double step_s[REPORT_STEPS];               /* the guess, step by step (report_step) */
    double bytes[WORKLOADS];                   /* each workload's, at the report's scale */
} report_plan;
void report_plan_progress(const report_plan *p, int done);
void report_plan_step(const report_plan *p, report_step done);
void report_plan_make(options *o, bool scale_given, uint32_t threads, report_plan *p);
/* A workload of a .case file's operator, its inputs' data optional
 * (tools/bench/cases.c); false with the reason in err. */
bool workload_from_case(workload *w, const char *path, char *err, size_t cap);
void free_case_of(workload *w);

/* Each workload's placement with host memory and GPU buffers: where it
 * ran and how that was decided (report_placement_how's words). */
typedef struct report_placed {
    char backend[8];
    const char *how;
} report_placed;
const char *report_placement_how(const char *why);
void report_plan_summary(const report_plan *p, const uint32_t found[2], const report_placed (*placed)[2], bool gpu);
void json_str(FILE *f, const char *s);

/* --mapped: ElementWiseIf through host memory, GPU buffers and mapped GPU
 * buffers (mapped.c); JSON rows of kind "mapped" to `json`. */
int bench_mapped(const char *json, int iters);

#endif
