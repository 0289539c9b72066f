/* Internal declarations shared by core and the backends. Internal names start
 * with edmli_; a backend's own start with edmli_ref_, edmli_neon_, edmli_gles_. */
#ifndef EDMLI_INTERNAL_H
#define EDMLI_INTERNAL_H

#include "edml.h"
#include "messages.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDMLI_MAX_DIMS EDML_TENSOR_DIMENSION_COUNT_MAX
#define EDMLI_ALIGN 16u
#define EDMLI_MESSAGE_BYTES 320u

/* ---- tensors -------------------------------------------------------------- */

/* A validated buffer tensor: strides always explicit (packed ones computed). */
typedef struct edmli_tensor {
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t elem_size;
    uint32_t rank;
    uint32_t sizes[EDMLI_MAX_DIMS];
    uint32_t strides[EDMLI_MAX_DIMS];
    uint64_t elem_count;
    uint64_t total_bytes;      /* TotalTensorSizeInBytes (or its default) */
} edmli_tensor;

bool edmli_dtype_valid(EDML_TENSOR_DATA_TYPE t);
const char *edmli_op_name(EDML_OPERATOR_TYPE t);
bool edmli_dtype_is_float(EDML_TENSOR_DATA_TYPE t);
const char *edmli_dtype_name(EDML_TENSOR_DATA_TYPE t);

/* ---- errors --------------------------------------------------------------- */

typedef struct edmli_errbuf {
    char text[EDMLI_MESSAGE_BYTES];
    edml_log_fn log;
    void *log_user;
} edmli_errbuf;

/* Formats message `id` (from messages.h) into the device's buffer and
 * returns its status; the failing API call logs it when it returns
 * (edmli_device_leave). Supports %s %u %d %x %llu %lld %zu. */
edml_status edmli_fail(edmli_errbuf *e, edmli_msg_id id, ...);
size_t edmli_vformat(char *dst, size_t cap, const char *fmt, va_list ap);
size_t edmli_format(char *dst, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Validates one tensor member; `name` is the member name used in messages. */
edml_status edmli_tensor_from_desc(edmli_errbuf *e, const char *name,
                                   const EDML_TENSOR_DESC *desc, edmli_tensor *out);
/* An output must not write an element twice: no zero stride on a size > 1
 * and no two elements at one address. */
edml_status edmli_check_output_layout(edmli_errbuf *e, const char *name, const edmli_tensor *t);

/* RANK_MISMATCH unless t has ref's DimensionCount. */
edml_status edmli_check_same_rank(edmli_errbuf *e, const char *name, const edmli_tensor *t,
                                  const char *ref_name, const edmli_tensor *ref);

/* ---- operators ------------------------------------------------------------ */

typedef enum edmli_op_kind {
    EDMLI_OP_TOPK,
    EDMLI_OP_GATHER_ND,
    EDMLI_OP_ARGREDUCE,
    EDMLI_OP_ELEMENTWISE_IF,
    EDMLI_OP_KIND_COUNT
} edmli_op_kind;

/* Largest operand counts of any operator. */
#define EDMLI_MAX_INPUTS 3
#define EDMLI_MAX_OUTPUTS 2

typedef struct edmli_topk_plan {
    uint32_t axis;
    uint32_t k;
    uint32_t axis_size;
    EDML_AXIS_DIRECTION direction;
} edmli_topk_plan;

typedef struct edmli_gather_nd_plan {
    uint32_t input_dims, indices_dims, batch_dims;
    uint32_t tuple;                 /* T: coordinates per index tuple */
    /* Loop dims over (batch, positions): sizes and strides in indices/output/input. */
    uint32_t outer_rank;
    uint32_t outer_sizes[2 * EDMLI_MAX_DIMS];
    uint32_t outer_idx_strides[2 * EDMLI_MAX_DIMS];
    uint32_t outer_out_strides[2 * EDMLI_MAX_DIMS];
    uint32_t outer_in_strides[2 * EDMLI_MAX_DIMS];   /* 0 for position dims */
    /* The tuple's coordinates address these input dims. */
    uint32_t coord_sizes[EDMLI_MAX_DIMS];
    uint32_t coord_strides[EDMLI_MAX_DIMS];
    uint32_t coord_dims[EDMLI_MAX_DIMS];             /* input dim number, for messages */
    uint32_t tuple_stride;                           /* indices stride between coordinates */
    /* The copied slice: the input dims after the tuple's. */
    uint32_t slice_rank;
    uint32_t slice_sizes[EDMLI_MAX_DIMS];
    uint32_t slice_in_strides[EDMLI_MAX_DIMS];
    uint32_t slice_out_strides[EDMLI_MAX_DIMS];
} edmli_gather_nd_plan;

typedef struct edmli_argreduce_plan {
    bool is_max;
    EDML_AXIS_DIRECTION direction;
    uint32_t axis_mask;             /* bit d set: input dim d is reduced */
    uint64_t reduce_count;          /* elements in each reduced set */
} edmli_argreduce_plan;

typedef struct edmli_elementwise_if_plan {
    /* Dims coalesced where all four tensors are contiguous together. */
    uint32_t rank;
    uint32_t sizes[EDMLI_MAX_DIMS];
    uint32_t strides[4][EDMLI_MAX_DIMS];   /* condition, A, B, output */
} edmli_elementwise_if_plan;

/* ---- objects and handles ----------------------------------------------------
 * Operators and GPU-buffer records live in the device arena above the device,
 * a stack: a released object's bytes come back when it is on top. Objects are
 * 16-byte aligned and a handle is the object's address plus the low 4 bits of
 * its generation (a per-device count), so that a handle to a destroyed object
 * whose place a newer object took is refused instead of naming the newer one. */
typedef enum edmli_object_kind {
    EDMLI_OBJ_OPERATOR = 0x4f50u,     /* "OP" */
    EDMLI_OBJ_GPU_BUFFER = 0x4742u    /* "GB" */
} edmli_object_kind;

#define EDMLI_OBJECT_LIVE 0x4a424f45u   /* "EOBJ" */
#define EDMLI_OBJECT_DEAD 0x44414544u   /* "DEAD": destroyed */
#define EDMLI_HANDLE_GEN_MASK 15u

typedef struct edmli_object {
    uint32_t state;                 /* EDMLI_OBJECT_LIVE or EDMLI_OBJECT_DEAD */
    uint32_t kind;                  /* edmli_object_kind */
    uint32_t gen;                   /* the handle carries gen & EDMLI_HANDLE_GEN_MASK */
    edml_device *device;
    struct edmli_object *prev;
    size_t arena_mark;              /* device-arena head before the object */
    uint64_t gpu_mark;              /* GPU-arena persistent bytes before it (GPU buffers) */
} edmli_object;

struct edml_gpu_buffer {
    edmli_object obj;
    uint64_t gpu_offset;            /* in the GPU arena */
    uint64_t bytes;
};

struct edml_operator {
    edmli_object obj;
    EDML_OPERATOR_TYPE type;
    edmli_op_kind kind;
    edml_backend backend;
    edml_backend requested;         /* what the caller asked for (AUTO allows falling back) */
    bool index_oor_logged;          /* clamped indices are logged once per operator */
    uint32_t input_count, output_count;
    edmli_tensor inputs[EDMLI_MAX_INPUTS];
    edmli_tensor outputs[EDMLI_MAX_OUTPUTS];
    const char *input_names[EDMLI_MAX_INPUTS];
    const char *output_names[EDMLI_MAX_OUTPUTS];
    uint64_t temp_bytes;
    union {
        edmli_topk_plan topk;
        edmli_gather_nd_plan gather_nd;
        edmli_argreduce_plan argreduce;
        edmli_elementwise_if_plan elementwise_if;
    } plan;
};

/* Validates `desc` and fills `op` (not its backend). */
edml_status edmli_plan_topk(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
edml_status edmli_plan_gather_nd(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
edml_status edmli_plan_argreduce(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
edml_status edmli_plan_elementwise_if(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);

/* ---- execution ------------------------------------------------------------ */

#define EDMLI_HOST UINT64_MAX

typedef struct edmli_exec {
    const uint8_t *in[EDMLI_MAX_INPUTS];    /* start of each input tensor in host memory, or NULL */
    uint8_t *out[EDMLI_MAX_OUTPUTS];
    uint64_t in_gpu[EDMLI_MAX_INPUTS];      /* GPU-arena offset of a resident tensor, or EDMLI_HOST */
    uint64_t out_gpu[EDMLI_MAX_OUTPUTS];
    uint8_t *scratch;                       /* op->temp_bytes, aligned to 16 */
    edmli_errbuf *err;
} edmli_exec;

typedef edml_status (*edmli_kernel_fn)(const edml_operator *op, const edmli_exec *ex);

/* A backend: a kernel per operator kind and how much scratch it wants. */
typedef struct edmli_backend_ops {
    const char *name;
    edmli_kernel_fn kernels[EDMLI_OP_KIND_COUNT];
    /* Scratch for one execution of a planned operator. */
    uint64_t (*temp_bytes)(const edml_operator *op);
    /* Why this backend cannot run a planned operator (NULL: it can). Optional. */
    const char *(*unsupported)(const edml_operator *op, char *buf, size_t cap);
} edmli_backend_ops;

extern const edmli_backend_ops edmli_ref_backend;
/* NULL when the build has no NEON backend (src/core/backend_neon_*.c). */
extern const edmli_backend_ops *const edmli_neon_backend_ptr;
/* NULL when the build has no GLES backend (src/core/backend_gles_off.c). */
extern const edmli_backend_ops *const edmli_gles_backend_ptr;

/* The GLES backend's device state (src/gles/); provided by every build. */
size_t edmli_gles_device_bytes(void);
bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap);
void edmli_gles_device_close(edml_device *dev);
const char *edmli_gles_device_info(const edml_device *dev, char *buf, size_t cap);
bool edmli_gles_device_is_software(const edml_device *dev);
/* GPU buffers: GPU-arena bytes from the low end, their data, copies. */
edml_status edmli_gles_buffer_reserve(edml_device *dev, uint64_t bytes, uint64_t *offset);
void edmli_gles_buffer_release_to(edml_device *dev, uint64_t mark);
uint64_t edmli_gles_buffer_mark(const edml_device *dev);
edml_status edmli_gles_buffer_io(edml_device *dev, uint64_t offset, void *host, uint64_t bytes, bool write);
edml_status edmli_gles_buffer_copy(edml_device *dev, uint64_t dst, uint64_t src, uint64_t bytes);

/* ---- arena ---------------------------------------------------------------- */

typedef struct edmli_arena {
    uint8_t *base;
    size_t size;
    size_t head;        /* persistent objects: [0, head) */
    size_t scratch;     /* scratch in use: [size - scratch, size) */
    size_t high_water;
} edmli_arena;

/* Persistent bytes from the low end, aligned to 16. */
edml_status edmli_arena_alloc(edmli_arena *a, edmli_errbuf *e, const char *what, size_t bytes,
                              void **out);
/* Scratch from the high end; released with edmli_arena_release_scratch. */
edml_status edmli_arena_scratch(edmli_arena *a, edmli_errbuf *e, size_t bytes, void **out);
void edmli_arena_release_scratch(edmli_arena *a);

/* ---- devices -------------------------------------------------------------- */

#define EDMLI_DEVICE_MAGIC 0x4c4d4445u   /* "EDML" */

struct edml_device {
    uint32_t magic;
    struct edml_device *self;   /* a device is live where it was created */
    atomic_uint busy;           /* a call holds the device (one thread at a time) */
    edml_board board;
    uint32_t backends;          /* usable backends */
    uint64_t gpu_arena_bytes;
    edmli_arena arena;
    edmli_errbuf err;
    edmli_object *last_obj;
    uint32_t next_gen;          /* generation of the next object */
    uint32_t faults;            /* injected, for tests */
    bool gles_one_thread;       /* the GL context stays current on the one calling thread */
    void *gles;                 /* the GLES backend's state, in the arena, or NULL */
    char gles_reason[200];      /* why GLES is not available, when it is not */
};

/* Every call on a device holds it: the device is checked and taken (BUSY
 * when another thread holds it, with no message written: the message buffer
 * belongs to that thread's call), its message cleared. Leaving logs the
 * message of a failed call (unless `log` is false) and frees the device. */
edml_status edmli_device_enter(edml_device *dev);
void edmli_device_leave(edml_device *dev, edml_status s, bool log);

/* The object a handle names, its device entered; a destroyed or stale
 * handle fails with a message on its device where that is still live. */
edml_status edmli_object_enter(const void *handle, edmli_object_kind kind, edmli_object **out);
/* The object a handle names on an entered device (e.g. a second buffer);
 * `what` names it in messages (NULL: "the operator", "the GPU buffer"). */
edml_status edmli_object_check(edml_device *dev, const void *handle, edmli_object_kind kind, edmli_object **out,
                               const char *what);
/* An object's handle; pushes an object (with the next generation); releases
 * it (and pops what is released from the top). */
void *edmli_object_handle(const edmli_object *o);
void edmli_object_push(edml_device *dev, edmli_object *o, edmli_object_kind kind, size_t mark);
void edmli_object_release(edml_device *dev, edmli_object *o);

const edmli_backend_ops *edmli_backend_ops_for(edml_backend b);

/* ---- small helpers -------------------------------------------------------- */

static inline size_t edmli_align_up(size_t v, size_t a) { return (v + (a - 1)) & ~(a - 1); }

#endif /* EDMLI_INTERNAL_H */
