/* Internal declarations shared by the core and the backends. Internal names
 * start with edmli_; a backend's own with edmli_<backend>_. */
#ifndef EDMLI_INTERNAL_H
#define EDMLI_INTERNAL_H

#include "cost_figures.h"
#include "edml.h"
#include "messages.h"
#include "ops.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDMLI_ALIGN 16u
#define EDMLI_MESSAGE_BYTES 320u
#define EDMLI_GPU_ARENA_MIN 256u /* the smallest edml_device_desc.gpu_arena_bytes, and its granule */

/* ---- tensors -------------------------------------------------------------- */

/* A validated buffer tensor: strides always explicit (packed ones computed). */

bool edmli_dtype_valid(EDML_TENSOR_DATA_TYPE t);
/* "TOP_K1"; "INVALID" for a type edml does not implement. */
const char *edmli_op_name(EDML_OPERATOR_TYPE t);
/* The schema of a type (src/core/schema.c) and its kind, or NULL. */
const edml_operator_schema *edmli_schema_of(EDML_OPERATOR_TYPE type, edmli_op_kind *kind);
bool edmli_dtype_is_float(EDML_TENSOR_DATA_TYPE t);
const char *edmli_dtype_name(EDML_TENSOR_DATA_TYPE t);

/* ---- errors --------------------------------------------------------------- */

typedef struct edmli_errbuf {
    char text[EDMLI_MESSAGE_BYTES];
    edml_log_fn log;
    void *log_user;
} edmli_errbuf;

#if defined(__GNUC__)
#define EDMLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define EDMLI_PRINTF(f, a)
#endif
/* A function kept out of its callers, so that its frame (message buffers
 * of a rare path) is not on their deepest path (docs/stack.md). */
#if defined(__GNUC__)
#define EDMLI_NOINLINE __attribute__((noinline))
#else
#define EDMLI_NOINLINE
#endif

/* Formats a message of messages.h (edmli_fail(e, EDMLI_MSG_X, ...): its
 * status and format) into the device's buffer and returns the status; the
 * failing API call logs it when it returns (edmli_device_leave). */
edml_status edmli_fail(edmli_errbuf *e, edml_status status, const char *format, ...) EDMLI_PRINTF(3, 4);
size_t edmli_vformat(char *dst, size_t cap, const char *fmt, va_list ap);
/* snprintf for %s %u %d %x %llu %lld %zu, with no C library. */
size_t edmli_format(char *dst, size_t cap, const char *fmt, ...) EDMLI_PRINTF(3, 4);

/* Validates one tensor member; `name` is the member name used in messages. */
edml_status edmli_tensor_from_desc(edmli_errbuf *e, const char *name, const EDML_TENSOR_DESC *desc, edmli_tensor *out);
/* An output must not write an element twice: no zero stride on a size > 1
 * and no two elements at one address. */
edml_status edmli_check_output_layout(edmli_errbuf *e, const char *name, const edmli_tensor *t);

/* RANK_MISMATCH unless t has ref's DimensionCount. */
edml_status edmli_check_same_rank(edmli_errbuf *e, const char *name, const edmli_tensor *t, const char *ref_name,
                                  const edmli_tensor *ref);

/* ---- objects and handles ----------------------------------------------------
 * Operators and GPU-buffer records live in the device arena above the device,
 * a stack: a released object's bytes come back when it is on top. Objects are
 * 16-byte aligned; a handle is the object's address with its generation in
 * the bits an address leaves free: the low 4, and on 64-bit targets bits 48
 * to 63 as well (20 bits), so that a handle to a destroyed object whose place
 * a newer object took is refused instead of naming the newer one.
 * Generations come from one count for the process (every device's objects),
 * so that a device created in the arena of a destroyed one does not reissue
 * its handles. */
typedef enum edmli_object_kind {
    EDMLI_OBJ_OPERATOR = 0x4f50u,    /* "OP" */
    EDMLI_OBJ_GPU_BUFFER = 0x4742u,  /* "GB" */
    EDMLI_OBJ_COMMAND_LIST = 0x434cu /* "CL" */
} edmli_object_kind;

#define EDMLI_OBJECT_LIVE 0x4a424f45u /* "EOBJ" */
#define EDMLI_OBJECT_DEAD 0x44414544u /* "DEAD": destroyed */
#define EDMLI_HANDLE_LOW_MASK 15u
#if UINTPTR_MAX > 0xffffffffu
#define EDMLI_HANDLE_HIGH_SHIFT 48 /* addresses below 2^48: AArch64's and x86-64's user space, boards' RAM */
#define EDMLI_HANDLE_GEN_BITS 20u
#else
#define EDMLI_HANDLE_GEN_BITS 4u
#endif

typedef struct edmli_object {
    uint32_t state; /* EDMLI_OBJECT_LIVE or EDMLI_OBJECT_DEAD */
    uint32_t kind;  /* edmli_object_kind */
    uint32_t gen;   /* the handle carries its low EDMLI_HANDLE_GEN_BITS */
    edml_device *device;
    /* the header's own check: device, generation and address mixed, so that
     * a handle into memory a newer object reused (a header partly
     * overwritten, or no header) is not taken for an object, and its
     * "device" never followed */
    uintptr_t check;
    struct edmli_object *prev;
    size_t arena_mark; /* device-arena head before the object */
    uint64_t gpu_mark; /* GPU-arena persistent bytes before it, or EDMLI_NO_GPU_MARK: it holds none */
} edmli_object;

struct edml_gpu_buffer {
    edmli_object obj;
    uint64_t gpu_offset; /* in the GPU arena */
    uint64_t bytes;
    bool mapped; /* edml_gpu_buffer_map() */
};

/* Bytes a backend may keep per operator, derived once at creation. */
#define EDMLI_BACKEND_PLAN_BYTES 128u

/* ---- placement (src/core/placement.c, placement_cache.c) ------------------ */

/* The kinds of bindings AUTO's measured placement decides for apart. */
typedef enum edmli_bind_kind {
    EDMLI_BIND_HOST,
    EDMLI_BIND_GPU,
    EDMLI_BIND_KINDS
} edmli_bind_kind;
#define EDMLI_PLACE_TIMED 4u                         /* timed runs a side */
#define EDMLI_PLACE_RUNS EDML_PLACEMENT_MEASURE_RUNS /* the CPU's, the GPU's, the CPU's again (placement.c) */
typedef enum edmli_place_state {
    EDMLI_PLACE_THRESHOLD, /* the board's thresholds decide (not measured yet, or never) */
    EDMLI_PLACE_MODEL,     /* the cost model's prediction decides (not measured yet, or never) */
    EDMLI_PLACE_MEASURING, /* runs on the CPU, the GPU, the CPU again, timed */
    EDMLI_PLACE_MEASURED,  /* measured on this device */
    EDMLI_PLACE_SAVED      /* taken from the placement cache */
} edmli_place_state;
/* A placement whose two sides were within 5%: whose choice it kept. */
typedef enum edmli_close {
    EDMLI_CLOSE_NOT,
    EDMLI_CLOSE_THRESHOLDS,
    EDMLI_CLOSE_MODEL
} edmli_close;

typedef struct edmli_place {
    uint8_t state;                    /* edmli_place_state */
    uint8_t gpu;                      /* 1: runs on the GPU (the thresholds' choice until decided) */
    uint8_t runs;                     /* measuring runs done (edmli_place_turns) */
    uint8_t close;                    /* edmli_close: within the margin, whose choice was kept */
    uint8_t stale;                    /* 1: saved before a GPU driver or edml update (measured again where allowed) */
    uint64_t ns[2];                   /* the medians, CPU and GPU */
    uint64_t t[2][EDMLI_PLACE_TIMED]; /* the timed runs while measuring */
} edmli_place;

struct edml_operator {
    edmli_object obj;
    EDML_OPERATOR_TYPE type;
    edmli_op_kind kind;
    edml_backend backend;
    edml_backend requested; /* what the caller asked for (AUTO allows falling back) */
    bool index_oor_logged;  /* clamped indices are logged once per operator */
    bool later_logged;      /* so is running on the CPU until its kernels are built */
    uint32_t input_count, output_count;
    edmli_tensor inputs[EDMLI_MAX_INPUTS];
    edmli_tensor outputs[EDMLI_MAX_OUTPUTS];
    const char *input_names[EDMLI_MAX_INPUTS];
    const char *output_names[EDMLI_MAX_OUTPUTS];
    uint64_t temp_bytes;
    /* what its backend keeps from creation on (sized by its plan hook, filled
     * by its bake hook): bytes after this struct in the device arena, and in
     * the backend's GPU arena */
    uint32_t backend_bytes;
    uint64_t backend_gpu_bytes;
    uint32_t workers; /* the device's when created: scratch is sized for them */
    /* AUTO's placement: measured (or saved) for each kind of bindings where
     * both the CPU and the GPU can run it; the kind of the last execution;
     * the thresholds' choice; its key in the placement cache; why the GPU's
     * backend declined it, where it did */
    bool measurable, threshold_gpu;
    uint8_t last_kind;
    edmli_place place[EDMLI_BIND_KINDS];
    uint64_t place_key;
    char declined[EDMLI_MESSAGE_BYTES / 4];
    /* set by a backend's plan that declined for want of its own memory (the
     * GPU arena): an operator that named it gets ARENA_TOO_SMALL, not
     * BACKEND_UNAVAILABLE */
    bool declined_memory;
    size_t own_scratch; /* with edml_device_desc.reserve_scratch: where its scratch starts (bytes after op), or 0 */
    union {
#define EDMLI_PLAN_FIELD(KIND, name) edmli_##name##_plan name;
        EDMLI_OPS(EDMLI_PLAN_FIELD)
#undef EDMLI_PLAN_FIELD
    } plan;
    /* what the backend derived at creation (its own layout, see the backend) */
    _Alignas(16) uint8_t backend_plan[EDMLI_BACKEND_PLAN_BYTES];
};

/* Validates `desc` and fills `op` (not its backend): one function a kind.
 * It is called with op's tensors validated and named from the schema. */
#define EDMLI_PLAN_DECL(KIND, name) \
    edml_status edmli_plan_##name(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
EDMLI_OPS(EDMLI_PLAN_DECL)
#undef EDMLI_PLAN_DECL

/* ---- execution ------------------------------------------------------------ */

#define EDMLI_HOST UINT64_MAX

/* The device's parallel-for (fn NULL: the calling thread alone). */
#define EDMLI_MAX_WORKERS 64u
typedef struct edmli_parallel {
    edml_parallel_for_fn fn;
    void *ctx;
    uint32_t workers; /* 1 without fn */
} edmli_parallel;

typedef struct edmli_exec {
    const uint8_t *in[EDMLI_MAX_INPUTS]; /* start of each input tensor in host memory, or NULL */
    uint8_t *out[EDMLI_MAX_OUTPUTS];
    uint64_t in_gpu[EDMLI_MAX_INPUTS]; /* GPU-arena offset of a resident tensor, or EDMLI_HOST */
    uint64_t out_gpu[EDMLI_MAX_OUTPUTS];
    uint8_t *scratch; /* op->temp_bytes, aligned to 16 */
    edmli_errbuf *err;
    edmli_parallel par; /* the device's, for the CPU kernels' parts */
    uint32_t entry;     /* the command list entry it runs (its index), or EDMLI_NO_ENTRY */
    bool timed;         /* a call of its own (EDMLI_RUN_TIMED): measured placement may time it */
} edmli_exec;
#define EDMLI_NO_ENTRY UINT32_MAX

typedef edml_status (*edmli_kernel_fn)(const edml_operator *op, const edmli_exec *ex);

/* ---- backends ------------------------------------------------------------
 * What the core knows of a backend; hooks it does not need are NULL. The
 * backends of a build are listed in src/backends.c; the core names none. */

/* GPU buffers: tensors a backend keeps in its own memory between operators. */
typedef struct edmli_buffer_hooks {
    edml_status (*reserve)(edml_device *dev, void *state, uint64_t bytes, uint64_t *offset);
    uint64_t (*mark)(const void *state);
    void (*release_to)(void *state, uint64_t mark);
    edml_status (*io)(edml_device *dev, void *state, uint64_t offset, void *host, uint64_t bytes, bool write);
    edml_status (*copy)(edml_device *dev, void *state, uint64_t dst, uint64_t src, uint64_t bytes);
    /* the CPU's view of [offset, offset + bytes), the GPU's work on it done; its end */
    edml_status (*map)(edml_device *dev, void *state, uint64_t offset, uint64_t bytes, void **data);
    edml_status (*unmap)(edml_device *dev, void *state);
} edmli_buffer_hooks;

/* Where a flushed batch's outcome goes (in its command list): its status
 * and message; and the first of its entries whose kernel clamped indices
 * (GatherND, whose count comes back with the batch): that entry (its index
 * in the list, edmli_exec.entry) and the kernel's status words (count,
 * first clamped element). */
typedef struct edmli_batch_ticket {
    bool done;
    edml_status status;
    char message[EDMLI_MESSAGE_BYTES];
    bool clamped;
    uint32_t clamped_entry, clamped_status[2];
} edmli_batch_ticket;

/* Whether a backend's kernels for an operator can run: now, later (still
 * being built), never (the reason given), or not until memory is free or a
 * mapping ends (their first check could not run: the reason given; the
 * call then fails with ARENA_TOO_SMALL or BUSY, or, with AUTO, runs on the
 * CPU). A kernel that was not checked never runs. */
typedef enum edmli_readiness {
    EDMLI_READY,
    EDMLI_LATER,
    EDMLI_NEVER,
    EDMLI_SHORT,
    EDMLI_MAPPED
} edmli_readiness;

typedef struct edmli_backend {
    bool on_cpu; /* runs on the calling CPU: the backends of last resort */
    /* a kernel per operator kind; NULL: the backend lacks that operator */
    edmli_kernel_fn kernels[EDMLI_OP_KIND_COUNT];
    /* host scratch of one execution (TemporaryResourceSize) */
    uint64_t (*temp_bytes)(const edml_operator *op);
    /* the kernel path its plan runs op by, and the parts (NULL: no path of its own) */
    void (*path)(const edml_operator *op, edmli_cost_path *out);
    /* derives op->backend_plan at creation; or says (in buf) why it cannot run op */
    const char *(*plan)(const edml_device *dev, edml_operator *op, char *buf, size_t cap);
    /* once op is in the device arena: fills what the plan sized
     * (op->backend_bytes after it, op->backend_gpu_bytes of GPU arena) */
    edml_status (*bake)(edml_device *dev, edml_operator *op);
    /* before an execution (NULL: always ready): whether its kernels can run
     * now; without `wait`, LATER while they are still being built (AUTO then
     * runs this call on the CPU); SHORT or MAPPED where their check could not
     * run; `scratch` is the execution's (temp_bytes) */
    edmli_readiness (*ready)(edml_operator *op, bool wait, uint8_t *scratch, char *why, size_t cap);
    /* AUTO: whether this backend (not on the CPU) should take the operator
     * by the board's thresholds; why (which threshold) in why (cap bytes) */
    bool (*wants)(const edml_device *dev, const edml_operator *op, char *why, size_t cap);
    /* AUTO: whether the board keeps every operator off this backend, however
     * AUTO decides (thresholds, measured, saved), and why; NULL: never */
    bool (*barred)(const edml_device *dev, char *why, size_t cap);
    /* what the placement cache is keyed by besides the board and edml's
     * version (GLES: its driver's renderer and version), 0: none */
    uint32_t (*identity)(const void *state);
    /* its state on a device: bytes (in the device arena), open (false: not
     * available, why in `why`), close, one line on what it found */
    size_t (*state_bytes)(void);
    bool (*open)(edml_device *dev, void *state, char *why, size_t cap);
    void (*close)(edml_device *dev, void *state);
    const char *(*info)(const edml_device *dev, const void *state, char *buf, size_t cap);
    /* what edml_device_desc.program_cache holds and what it did */
    void (*cache_stats)(const void *state, edml_program_cache_stats *stats);
    /* lets go of what the calling thread keeps current (a GL context) */
    void (*release_thread)(void *state);
    const edmli_buffer_hooks *buffers;
    /* command lists: a batch of this backend's executions as one submission
     * (one fence): begin; whether op may open a batch or join the open one
     * (else the list ends it and runs op alone); end completes it, writing
     * its host outputs. NULL: each execution is its own submission. */
    edml_status (*batch_begin)(void *state, edmli_errbuf *err);
    bool (*batch_takes)(const void *state, const edml_operator *op);
    /* flush sends the open batch to the device and returns at once (a
     * failure: its ticket done); complete waits up to timeout_ns for it and
     * writes its host outputs, EDML_STATUS_TIMEOUT while it still runs. Any
     * other call of the backend completes a flushed batch first, its
     * outcome then in the ticket. */
    edml_status (*batch_flush)(void *state, edmli_batch_ticket *ticket);
    edml_status (*batch_complete)(void *state, edmli_batch_ticket *ticket, uint64_t timeout_ns);
    /* a completed batch's clamping entry (ex bound as its execution was):
     * its status and message, as its execute would have given them */
    edml_status (*batch_clamped)(const edml_operator *op, const edmli_exec *ex, const uint32_t status[2]);
} edmli_backend;

/* The reference backend's table (src/ref/ref_backend.c): the oracle, which
 * a backend may run itself (the GLES known-answer tests). */
extern const edmli_backend edmli_ref_backend;

/* The backends of this build by edml_backend, NULL where not built
 * (src/backends.c); and why one is not built. */
extern const edmli_backend *const edmli_backends[EDML_BACKEND_COUNT_];
extern const char *const edmli_backend_not_built[EDML_BACKEND_COUNT_];
/* A backend's title in messages ("reference" for ref). */
const char *edmli_backend_title(edml_backend b);

/* ---- arena ---------------------------------------------------------------- */

typedef struct edmli_arena {
    uint8_t *base;
    size_t size;
    size_t head;    /* persistent objects: [0, head) */
    size_t scratch; /* scratch in use: [size - scratch, size) */
    size_t high_water;
} edmli_arena;

/* Persistent bytes from the low end, aligned to 16. */
edml_status edmli_arena_alloc(edmli_arena *a, edmli_errbuf *e, const char *what, size_t bytes, void **out);
/* Scratch from the high end; released with edmli_arena_release_scratch. */
edml_status edmli_arena_scratch(edmli_arena *a, edmli_errbuf *e, const char *what, size_t bytes, void **out);
void edmli_arena_release_scratch(edmli_arena *a);

/* ---- devices -------------------------------------------------------------- */

/* The placement cache (placement_cache.c): the caller's memory, the count
 * of entries the device trusts, what it did. */
typedef struct edmli_place_cache {
    uint8_t *mem;
    size_t bytes;
    uint32_t count, cap;
    uint32_t claim; /* what this device wrote into the header's claim (placement_cache.c) */
    bool small;     /* given, but too small for its header and one decision: decisions counted as full */
    edml_placement_cache_stats stats;
} edmli_place_cache;

/* The cost model the device uses (cost_model.c): edml_device_desc's blob
 * where it took one, else the board's lines. */
typedef struct edmli_cost_model {
    const uint8_t *blob;
    uint32_t blob_terms, board_terms;
    /* the blob's lines made before an update, used and said stale: its GLES
     * lines after a GPU driver's, every line after an edml version's */
    const char *stale;
} edmli_cost_model;

#define EDMLI_DEVICE_MAGIC 0x4c4d4445u /* "EDML" */

struct edml_device {
    uint32_t magic;
    struct edml_device *self; /* a device is live where it was created */
    atomic_uint busy;         /* a call holds the device (one thread at a time) */
    edml_board board;
    edml_device_desc desc; /* as created (board, log and error buffer aside): the backends read it */
    uint32_t backends;     /* usable backends */
    edmli_parallel par;    /* the caller's parallel-for and its workers */
    edmli_arena arena;
    edmli_errbuf err;
    edmli_object *last_obj;
    void *state[EDML_BACKEND_COUNT_];                       /* each backend's, in the arena, or NULL */
    edmli_place_cache places;                               /* edml_device_desc.placement_cache */
    edmli_cost_model model;                                 /* AUTO's cost model */
    char why[EDML_BACKEND_COUNT_][EDMLI_MESSAGE_BYTES / 2]; /* why one is not available */
};

/* Every call on a device holds it: the device is checked and taken (BUSY
 * when another thread holds it, with no message written: the message buffer
 * belongs to that thread's call), its message cleared. Leaving logs the
 * message of a failed call (unless `log` is false) and frees the device. */
edml_status edmli_device_enter(edml_device *dev);
void edmli_device_leave(edml_device *dev, edml_status s, bool log);

/* The object a handle names, its device entered; a destroyed or stale
 * handle fails with a message on its device where that is still live. */
edml_status edmli_object_enter(const void *handle, edmli_object_kind kind, const char *what, edmli_object **out);
/* The object a handle names on an entered device (e.g. a second buffer);
 * `what` names it in messages (NULL: "the operator", "the GPU buffer"). */
edml_status edmli_object_check(edml_device *dev, const void *handle, edmli_object_kind kind, edmli_object **out,
                               const char *what);
/* An object's handle; pushes an object (with the process's next
 * generation); releases it (and pops what is released from the top). */
void *edmli_object_handle(const edmli_object *o);
/* The address a handle (or any pointer) names, its generation bits cleared. */
uintptr_t edmli_handle_address(const void *handle);
#define EDMLI_NO_GPU_MARK UINT64_MAX
void edmli_object_push(edml_device *dev, edmli_object *o, edmli_object_kind kind, size_t mark, uint64_t gpu_mark);
void edmli_object_release(edml_device *dev, edmli_object *o);

/* The device's backend b when it is available, else NULL. */
const edmli_backend *edmli_device_backend(const edml_device *dev, edml_backend b);
/* The best backend on the CPU the device has for an operator kind. */
edml_backend edmli_cpu_backend(const edml_device *dev, edmli_op_kind kind);
/* A backend that failed (a GPU reset, a dropped dispatch, a lost context)
 * leaves the device for good, `why` kept for its refusals and every AUTO
 * operator's placement (each says where it runs now). Inline: the backends
 * call it, and the device's file reaches them. */
static inline void edmli_backend_lost(edml_device *dev, edml_backend b, const char *why)
{
    if (!(dev->backends & EDML_BACKEND_BIT(b))) return;
    edmli_format(dev->why[b], sizeof dev->why[b], "it failed: %s", why);
    dev->backends &= ~EDML_BACKEND_BIT(b);
}
/* How edmli_operator_run runs op: its bindings checked alone (a command
 * list's record), run within a list's GPU batch, or run as a call of its
 * own (an execute, or a list's entry outside any batch), which measured
 * placement may time. */
typedef enum edmli_run_mode {
    EDMLI_RUN_CHECK,
    EDMLI_RUN_BATCHED,
    EDMLI_RUN_TIMED
} edmli_run_mode;
/* One execution of op on its entered device: the bindings checked, then
 * (unless EDMLI_RUN_CHECK) run; edml_operator_execute's body (entry
 * EDMLI_NO_ENTRY), and a command list's entry's at record and at submit. */
/* Validates desc and plans op (its kind's plan; no backend, no device). */
edml_status edmli_operator_plan(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
edml_status edmli_operator_run(edml_operator *op, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                               const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                               const EDML_BUFFER_BINDING *temporary, edmli_run_mode mode, uint32_t entry);
/* A command list's batched execution whose kernel clamped indices (status:
 * its count and first): the status and message its execute would give. */
edml_status edmli_operator_clamped(edml_operator *op, const EDML_BUFFER_BINDING *inputs,
                                   const EDML_BUFFER_BINDING *outputs, const uint32_t status[2]);
/* Placement (placement.c). An AUTO operator's placement once created
 * (op->backend planned, op->measurable and op->threshold_gpu set): its
 * key, and its saved decisions. */
void edmli_place_init(edml_device *dev, edml_operator *op);
/* The backend op runs on with bindings of `kind`, as decided now. */
edml_backend edmli_place_backend(const edml_operator *op, edmli_bind_kind kind);
/* Whether op's calls with bindings of `kind` are still to be measured
 * (EDML_PLACEMENT_MEASURE, no decision yet): a list runs them alone. */
bool edmli_place_measuring(const edml_operator *op, edmli_bind_kind kind);
/* One execution's placement: the backend it runs on (timed while
 * measuring, when `may_measure`), then its outcome (`moved`: it did not
 * run where placed) and time. */
typedef struct edmli_place_call {
    bool timed;
    uint8_t side, kind;
    uint64_t t0;
} edmli_place_call;
edml_backend edmli_place_begin(edml_operator *op, edmli_bind_kind kind, bool may_measure, edmli_place_call *pc);
void edmli_place_end(edml_operator *op, const edmli_place_call *pc, edml_status s, bool moved);
/* The placement cache (placement_cache.c): checked and opened at device
 * creation (the backends open), a decision looked up (false: none), kept. */
edml_status edmli_place_cache_check(const edml_device_desc *dd, const void *arena, size_t arena_size, edmli_errbuf *e);
void edmli_place_cache_open(edml_device *dev);
/* The keys of a cache or model: the board's (its name and CPU), the GPU's
 * (its driver's renderer and version; 0 without a GPU). */
uint32_t edmli_board_key(const edml_board *b);
uint32_t edmli_gpu_key(const edml_device *dev);
/* AUTO's cost model (cost_model.c): taken at creation; the predicted times
 * of the operator on side[0] (the CPU's backend) and side[1] (the GPU's)
 * with bindings of `kind` (false: no line for a side); whether it predicts
 * any kind; whether two predictions are too close to call; the model's
 * binding of a kind. */
void edmli_cost_model_open(edml_device *dev);
/* A line's first wrong member, by name, what is wrong in *why (NULL:
 * none: cost_model.c says what it checks); every line of terms[n] checked, the first bad one refused with
 * `what` (the caller's name for the array) and its index. */
const char *edmli_cost_term_bad(const edml_cost_term *t, const char **why);
edml_status edmli_cost_terms_check(edmli_errbuf *e, const char *what, const edml_cost_term *terms, uint32_t n);
size_t edmli_cost_model_blob(const edml_device *device, const edml_cost_term *terms, uint32_t n, void *buf,
                             size_t cap); /* edml_cost_model_write's work on an entered device */
bool edmli_cost_predict(const edml_device *dev, const edml_operator *op, const edml_backend side[2], uint32_t kind,
                        uint64_t ns[2]);
bool edmli_cost_covers(const edml_device *dev, const edml_operator *op, const edml_backend side[2]);
bool edmli_cost_close(const uint64_t ns[2]);
/* The path backend b runs op by and its parts (cost_figures.h): 0 and the
 * operator's workers where b has none or has no plan of op. */
void edmli_cost_path_on(const edml_operator *op, edml_backend b, edmli_cost_path *out);
/* The element bytes the model's lines are kept apart by (cost_model.c). */
uint32_t edmli_cost_elem_bytes(const edml_operator *op);
/* The model's time for op on its own backend with bindings of `kind`
 * (false: no line for it). */
bool edmli_cost_predict_on(const edml_device *dev, const edml_operator *op, uint32_t kind, uint64_t *ns);
/* The figures AUTO's cost model weighs for an operator (cost_model.c;
 * cost_figures.h, which says them, lends them to the board report). */
void edmli_cost_shape(const edml_operator *op, bool uploads, double f[EDMLI_COST_FIGURES]);
/* "" or why the model's lines are stale (an update since the board report). */
const char *edmli_cost_stale(const edml_device *dev);
uint32_t edmli_cost_binding(const edml_device *dev, uint32_t kind);
bool edmli_place_cache_get(edml_device *dev, uint64_t key, edmli_place *p);
void edmli_place_cache_put(edml_device *dev, uint64_t key, const edmli_place *p);

/* The backend keeping GPU buffers, built on this library (available or not). */
edml_backend edmli_buffer_backend(void);
/* A CPU kernel on an execution whose tensors include GPU buffers: the span
 * of the GPU arena they lie in mapped for the CPU (the GPU's work on it
 * done first), the kernel run on that view, the span unmapped (a range
 * mapping's writes reach the GPU then; the persistent one is coherent). */
edml_status edmli_gpu_view_run(edml_operator *op, const edmli_exec *ex, edmli_kernel_fn kernel);

/* ---- small helpers -------------------------------------------------------- */

/* A kernel body written once and specialised by its constant arguments
 * (data type, tie rule) where it is inlined. */
#if defined(__GNUC__)
#define EDMLI_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define EDMLI_ALWAYS_INLINE static inline
#endif

/* Bytes of an element of t (0 for no type): edml_data_type_size, inline so
 * that kernels specialised by type get a constant. */
static inline uint32_t edmli_type_size(EDML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT64:
    case EDML_TENSOR_DATA_TYPE_UINT64:
    case EDML_TENSOR_DATA_TYPE_INT64: return 8;
    case EDML_TENSOR_DATA_TYPE_FLOAT32:
    case EDML_TENSOR_DATA_TYPE_UINT32:
    case EDML_TENSOR_DATA_TYPE_INT32: return 4;
    case EDML_TENSOR_DATA_TYPE_FLOAT16:
    case EDML_TENSOR_DATA_TYPE_UINT16:
    case EDML_TENSOR_DATA_TYPE_INT16: return 2;
    case EDML_TENSOR_DATA_TYPE_UINT8:
    case EDML_TENSOR_DATA_TYPE_INT8: return 1;
    default: return 0;
    }
}

static inline size_t edmli_align_up(size_t v, size_t a) { return (v + (a - 1)) & ~(a - 1); }

/* FNV-1a, the library's one hash (cache keys and checksums, program
 * sources, baked blocks): bytes, and a string's bytes without its end. */
#define EDMLI_FNV1A_SEED 2166136261u
static inline uint32_t edmli_fnv1a(uint32_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ ((const uint8_t *)p)[i]) * 16777619u;
    return h;
}
static inline uint32_t edmli_fnv1a_str(uint32_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

#endif /* EDMLI_INTERNAL_H */
