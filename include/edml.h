/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file edml.h
 * @brief edml: DirectML's tensor operators for ARM edge boards, with no heap.
 *
 * edml runs a subset of DirectML's operators (TOP_K, TOP_K1, GATHER_ND,
 * GATHER_ND1, ARGMIN, ARGMAX, ELEMENT_WISE_IF) on a portable C reference
 * backend, on Arm NEON, and on OpenGL ES 3.1 compute shaders. Descriptor
 * types, enums and member names are DirectML's with an `EDML_` prefix, so a
 * DirectML program ports by renaming.
 *
 * @section model Execution model
 *
 * DirectML's create / query binding properties / bind / execute, over caller
 * memory only: 1. edml_device_create() places a device at the start of one
 * caller buffer, the device arena (the library never calls malloc);
 * 2. edml_operator_create() validates a descriptor, plans the work, picks the backend
 * and places the operator at the arena's low end (edml_operator_query(): the same answers, nothing created); 3.
 * edml_operator_get_binding_properties() tells an execution's scratch bytes
 * (TemporaryResourceSize); 4. edml_operator_execute() runs it on bound
 * buffers, scratch from the Temporary binding, else from the arena's free
 * high end (released when the call returns).
 *
 * Every function returns an ::edml_status. On failure the device keeps a
 * message naming the member and the reason, for example
 * `OutputValueTensor.Sizes[3] is 3, expected K = 2`; read it with
 * edml_device_last_error(). A rejected call writes nothing to any output.
 *
 * @section threads Threads
 *
 * Devices are independent: different threads may use different devices at
 * the same time with no locking. A device (and its operators and GPU
 * buffers) serves one call at a time, from any thread: a call that finds
 * its device held by another thread's call returns ::EDML_STATUS_BUSY at
 * once, having written nothing (not even the device's message, which
 * belongs to the other call).
 *
 * GL contexts: each call makes one of the device's EGL contexts current on
 * the calling thread; when it returns, a context current before it (the
 * application's, another device's) is current again (docs/gpu.md).
 * edml_calc_buffer_tensor_size(), edml_data_type_size(), edml_status_string(),
 * edml_status_message(), edml_error_without_device() (the calling thread's),
 * edml_backend_name(), edml_version() and edml_board_builtin() are
 * thread-safe; edml_device_last_error(), edml_device_backends() and
 * edml_device_gles_info() read the device without holding it: call them
 * from the thread whose call they report on.
 *
 * @section parallel Several cores
 *
 * The library creates no thread. Given a parallel-for (parallel_for:
 * pthreadpool's, OpenMP's, an RTOS's, or edml_pool_create()'s), the CPU
 * kernels cut their work into parts by their own plan (none under about 32
 * KiB of data) and combine the results in part order: bit-identical outputs
 * for every worker count and order. Scratch grows with the workers. Stack:
 * docs/stack.md gives each call's most in the AArch64 and ARMv7 firmware
 * builds (`make test` checks it); add your callbacks' frames.
 *
 * @section handles Handles
 *
 * A destroyed operator, GPU buffer or command list is refused
 * (::EDML_STATUS_INVALID_HANDLE, e.g. "the operator op was destroyed"), also
 * when a newer object or device took its place (docs/ARCHITECTURE.md,
 * "Handles"). A NULL or unrecognisable handle reaches no device:
 * edml_error_without_device() says what was wrong.
 *
 * @section gpu The GPU
 *
 * With the GLES backend built in (PORT=linux), edml_device_create() loads
 * EGL and GLES at run time and creates the GPU arena, compiling nothing; if
 * any of it fails the device works on the CPU and edml_device_gles_info()
 * says why. A kernel is built when the first operator that needs it is
 * created (or loaded from program_cache) and checked on known answers
 * before its first use. Every GPU submission proves that each workgroup ran
 * whole: one the driver dropped or a reset cut short fails the call with
 * ::EDML_STATUS_BACKEND_FAILED, writes nothing and takes GLES off the
 * device; an AUTO operator then reruns on NEON at once.
 *
 * @section placement Placement
 *
 * Every backend gives the same bits, so AUTO may run an operator wherever it
 * is fastest without changing an answer. edml_device_desc.placement says how
 * AUTO finds that out for an operator both the CPU and the GPU can run.
 * ::EDML_PLACEMENT_THRESHOLDS (0): the board's cost model where it has one
 * (edml_board.cost_model, or edml_device_desc.cost_model: the board report's
 * fit of the board's times) predicts both sides and the faster runs; else
 * the board's thresholds. ::EDML_PLACEMENT_MEASURE: the operator's first
 * executions with each kind of bindings time both sides (real executions
 * with real answers; docs/integration.md says how) and keep the faster,
 * unless the two are within 5% (then the model's or thresholds' choice),
 * in edml_device_desc.placement_cache for the next start.
 * ::EDML_PLACEMENT_SAVED: placement_cache's decisions, the model or
 * thresholds elsewhere, nothing measured. An operator's GLES kernels are
 * planned whichever side wins, so that its sizes never depend on a decision.
 * edml_operator_placement() says where an operator runs and why.
 *
 * @section example Example
 *
 * examples/topk.c, the README's first example: a device in a static arena,
 * a TopK of one row created with EDML_BACKEND_AUTO and executed.
 */
#ifndef EDML_H
#define EDML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @name Version */
/**@{*/
#define EDML_VERSION_MAJOR 0
#define EDML_VERSION_MINOR 2
#define EDML_VERSION_PATCH 0
/** The version as one number: major * 10000 + minor * 100 + patch. */
#define EDML_VERSION (EDML_VERSION_MAJOR * 10000 + EDML_VERSION_MINOR * 100 + EDML_VERSION_PATCH)
/** The library's version as linked, "MAJOR.MINOR.PATCH". */
const char *edml_version(void);
/**@}*/

/** @name DirectML's scalar types */
/**@{*/
typedef uint32_t UINT;   /**< DirectML's UINT. */
typedef uint64_t UINT64; /**< DirectML's UINT64. */
typedef int32_t INT;     /**< DirectML's INT. */
/**@}*/

/** Most dimensions a tensor may have (DirectML's DML_TENSOR_DIMENSION_COUNT_MAX1). */
#define EDML_TENSOR_DIMENSION_COUNT_MAX 8

/** DirectML's DML_TENSOR_DATA_TYPE, with the same numeric values. */
typedef enum EDML_TENSOR_DATA_TYPE {
    EDML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    EDML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    EDML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    EDML_TENSOR_DATA_TYPE_UINT32 = 3,
    EDML_TENSOR_DATA_TYPE_UINT16 = 4,
    EDML_TENSOR_DATA_TYPE_UINT8 = 5,
    EDML_TENSOR_DATA_TYPE_INT32 = 6,
    EDML_TENSOR_DATA_TYPE_INT16 = 7,
    EDML_TENSOR_DATA_TYPE_INT8 = 8,
    EDML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    EDML_TENSOR_DATA_TYPE_UINT64 = 10,
    EDML_TENSOR_DATA_TYPE_INT64 = 11
} EDML_TENSOR_DATA_TYPE;

/** DirectML's DML_TENSOR_TYPE. Only buffer tensors exist. */
typedef enum EDML_TENSOR_TYPE {
    EDML_TENSOR_TYPE_INVALID = 0,
    EDML_TENSOR_TYPE_BUFFER = 1
} EDML_TENSOR_TYPE;

/** DirectML's DML_TENSOR_FLAGS. EDML_TENSOR_FLAG_OWNED_BY_DML is rejected
 *  (edml has no operator initialisation that could take ownership). */
typedef enum EDML_TENSOR_FLAGS {
    EDML_TENSOR_FLAG_NONE = 0x0,
    EDML_TENSOR_FLAG_OWNED_BY_DML = 0x1
} EDML_TENSOR_FLAGS;

/**
 * DirectML's DML_BUFFER_TENSOR_DESC.
 * Strides are in elements, one per dimension, NULL for packed row-major; a
 * zero stride broadcasts. TotalTensorSizeInBytes must be at least
 * edml_calc_buffer_tensor_size(); zero means exactly that size.
 * GuaranteedBaseOffsetAlignment is 0 or a power of two at least the element
 * size. Every size is at least 1 and a tensor holds at most 2^32-1 elements.
 */
typedef struct EDML_BUFFER_TENSOR_DESC {
    EDML_TENSOR_DATA_TYPE DataType;
    EDML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT *Sizes;
    const UINT *Strides;
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} EDML_BUFFER_TENSOR_DESC;

/** DirectML's DML_TENSOR_DESC: Type is EDML_TENSOR_TYPE_BUFFER and Desc
 *  points to an EDML_BUFFER_TENSOR_DESC. */
typedef struct EDML_TENSOR_DESC {
    EDML_TENSOR_TYPE Type;
    const void *Desc;
} EDML_TENSOR_DESC;

/** DirectML's DML_AXIS_DIRECTION. */
typedef enum EDML_AXIS_DIRECTION {
    EDML_AXIS_DIRECTION_INCREASING = 0,
    EDML_AXIS_DIRECTION_DECREASING = 1
} EDML_AXIS_DIRECTION;

/** DirectML's DML_OPERATOR_TYPE, with the same numeric values, for the
 *  operators edml implements. */
typedef enum EDML_OPERATOR_TYPE {
    EDML_OPERATOR_INVALID = 0,
    EDML_OPERATOR_TOP_K = 71,
    EDML_OPERATOR_ELEMENT_WISE_IF = 88,
    EDML_OPERATOR_GATHER_ND = 108,
    EDML_OPERATOR_TOP_K1 = 112,
    EDML_OPERATOR_ARGMIN = 137,
    EDML_OPERATOR_ARGMAX = 138,
    EDML_OPERATOR_GATHER_ND1 = 140
} EDML_OPERATOR_TYPE;

/** DirectML's DML_OPERATOR_DESC: Desc points to the descriptor named by Type. */
typedef struct EDML_OPERATOR_DESC {
    EDML_OPERATOR_TYPE Type;
    const void *Desc;
} EDML_OPERATOR_DESC;

/** DML_TOP_K_OPERATOR_DESC: TOP_K1 with AxisDirection DECREASING. */
typedef struct EDML_TOP_K_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *OutputValueTensor;
    const EDML_TENSOR_DESC *OutputIndexTensor;
    UINT Axis;
    UINT K;
} EDML_TOP_K_OPERATOR_DESC;

/**
 * DML_TOP_K1_OPERATOR_DESC: the K largest (DECREASING) or smallest
 * (INCREASING) elements of each sequence along Axis, sorted, with their
 * indices within the sequence. 1 <= K <= InputTensor.Sizes[Axis] (K equal to
 * the size is a full stable sort). Equal values come in ascending index
 * order whatever the direction; -0 equals +0; every NaN orders above +inf.
 * Output indices are UINT32 or UINT64.
 */
typedef struct EDML_TOP_K1_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *OutputValueTensor;
    const EDML_TENSOR_DESC *OutputIndexTensor;
    UINT Axis;
    UINT K;
    EDML_AXIS_DIRECTION AxisDirection;
} EDML_TOP_K1_OPERATOR_DESC;

/** DML_GATHER_ND_OPERATOR_DESC: GATHER_ND1 with BatchDimensionCount 0. */
typedef struct EDML_GATHER_ND_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *IndicesTensor;
    const EDML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
} EDML_GATHER_ND_OPERATOR_DESC;

/**
 * DML_GATHER_ND1_OPERATOR_DESC: output[batch, ...] = input[batch,
 * indices[batch, ...], ...]. Indices are INT32, INT64, UINT32 or UINT64;
 * signed ones may be negative (-1 is the last element). An index out of its
 * range is clamped into it, the output is written in full, and
 * edml_operator_execute() returns ::EDML_STATUS_INDEX_OUT_OF_RANGE naming the
 * first such index.
 */
typedef struct EDML_GATHER_ND1_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *IndicesTensor;
    const EDML_TENSOR_DESC *OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
    UINT BatchDimensionCount;
} EDML_GATHER_ND1_OPERATOR_DESC;

/**
 * DML_ARGMIN_OPERATOR_DESC: the index of the smallest element of each
 * reduced set. The index is flat and row-major over the reduced axes only.
 * INCREASING returns the first smallest, DECREASING the last. A NaN in the
 * set wins (first NaN for INCREASING, last for DECREASING). Output is
 * INT32, INT64, UINT32 or UINT64.
 */
typedef struct EDML_ARGMIN_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    EDML_AXIS_DIRECTION AxisDirection;
} EDML_ARGMIN_OPERATOR_DESC;

/** DML_ARGMAX_OPERATOR_DESC: as ARGMIN, for the largest element. */
typedef struct EDML_ARGMAX_OPERATOR_DESC {
    const EDML_TENSOR_DESC *InputTensor;
    const EDML_TENSOR_DESC *OutputTensor;
    UINT AxisCount;
    const UINT *Axes;
    EDML_AXIS_DIRECTION AxisDirection;
} EDML_ARGMAX_OPERATOR_DESC;

/**
 * DML_ELEMENT_WISE_IF_OPERATOR_DESC: Output = A where the condition byte is
 * non-zero, else B, copied bit for bit. All four tensors have the same
 * DimensionCount and Sizes; broadcast with zero strides. ConditionTensor is
 * UINT8. The output may be exactly A's or B's memory and layout (in place).
 */
typedef struct EDML_ELEMENT_WISE_IF_OPERATOR_DESC {
    const EDML_TENSOR_DESC *ConditionTensor;
    const EDML_TENSOR_DESC *ATensor;
    const EDML_TENSOR_DESC *BTensor;
    const EDML_TENSOR_DESC *OutputTensor;
} EDML_ELEMENT_WISE_IF_OPERATOR_DESC;

/** What a member of an operator descriptor holds (DirectML's schema field
 *  kind and type in one). */
typedef enum edml_schema_field_type {
    EDML_SCHEMA_FIELD_INPUT_TENSOR = 1, /**< const EDML_TENSOR_DESC *, an input */
    EDML_SCHEMA_FIELD_OUTPUT_TENSOR,    /**< const EDML_TENSOR_DESC *, an output */
    EDML_SCHEMA_FIELD_UINT,             /**< UINT */
    EDML_SCHEMA_FIELD_AXIS_DIRECTION,   /**< EDML_AXIS_DIRECTION */
    EDML_SCHEMA_FIELD_UINT_COUNT,       /**< UINT: how many UINTs the next member (a UINT_ARRAY) holds */
    EDML_SCHEMA_FIELD_UINT_ARRAY        /**< const UINT *, of the UINT_COUNT member before it */
} edml_schema_field_type;

/** One member of an operator descriptor. */
typedef struct edml_schema_field {
    const char *name;            /**< DirectML's member name, e.g. "InputTensor", "Axis" */
    edml_schema_field_type type; /**< what it holds */
    size_t offset;               /**< its offset in the descriptor struct */
} edml_schema_field;

/** An operator type's descriptor, member by member, in struct order: what a
 *  program needs to read or write descriptors it did not compile in (a
 *  model file, a test vector). DirectML's DirectMLSchema.h, with offsets. */
typedef struct edml_operator_schema {
    const char *name;                /**< "TOP_K1": the type is EDML_OPERATOR_<name> */
    EDML_OPERATOR_TYPE type;         /**< the operator type */
    size_t desc_size;                /**< sizeof its EDML_<name>_OPERATOR_DESC */
    UINT input_count, output_count;  /**< its tensors, as edml_operator_execute() binds them */
    UINT field_count;                /**< members in fields */
    const edml_schema_field *fields; /**< the members, in struct order */
} edml_operator_schema;

/** The schemas of every operator type edml implements (their count goes to
 *  *count when count is not NULL). */
const edml_operator_schema *edml_operator_schemas(UINT *count);

/** The schema of one operator type, NULL for a type edml does not implement. */
const edml_operator_schema *edml_operator_schema_of(EDML_OPERATOR_TYPE type);

/**
 * DirectML's DMLCalcBufferTensorSize, in 64 bits: the byte offset of the last
 * addressed element plus its size, rounded up to 4. Strides may be NULL
 * (packed). Returns 0 for an unknown data type, a DimensionCount outside
 * 1..8, a NULL Sizes or a zero size.
 */
UINT64 edml_calc_buffer_tensor_size(EDML_TENSOR_DATA_TYPE dataType, UINT dimensionCount, const UINT *sizes,
                                    const UINT *strides);

/** Bytes of one element of the type, 0 for an unknown type. */
UINT edml_data_type_size(EDML_TENSOR_DATA_TYPE dataType);

/** @name Status */
/**@{*/
/** What every function returns. Zero is success. */
typedef enum edml_status {
    EDML_STATUS_OK = 0,
    EDML_STATUS_INVALID_ARGUMENT,    /**< a NULL pointer or bad argument to an edml function */
    EDML_STATUS_INVALID_DESCRIPTOR,  /**< a descriptor breaks a constraint of its operator */
    EDML_STATUS_UNSUPPORTED,         /**< valid in DirectML, not supported by edml */
    EDML_STATUS_ARENA_TOO_SMALL,     /**< the message gives requested, available and missing bytes */
    EDML_STATUS_INVALID_BINDING,     /**< a bound buffer is NULL, misaligned, too short or overlaps */
    EDML_STATUS_INDEX_OUT_OF_RANGE,  /**< GatherND read a clamped index; the output is written */
    EDML_STATUS_BACKEND_UNAVAILABLE, /**< the backend asked for is not built, allowed or working */
    EDML_STATUS_BACKEND_FAILED,      /**< the backend failed while running (e.g. a GL error) */
    EDML_STATUS_INVALID_DEVICE,      /**< the device was destroyed or is not edml's */
    EDML_STATUS_BUSY,                /**< another thread's call holds the device, or a GPU buffer mapped without a
                                          persistent mapping holds its GPU back (the message says which); nothing
                                          was done */
    EDML_STATUS_TIMEOUT,             /**< a command list's wait ran out of time; it is still running */
    EDML_STATUS_INVALID_HANDLE,      /**< an operator, GPU buffer or command list handle (the message names the
                                          argument) was destroyed, is stale, another device's or not edml's */
    EDML_STATUS_COUNT_
} edml_status;

/** A constant name for the status, e.g. "EDML_STATUS_ARENA_TOO_SMALL". */
const char *edml_status_string(edml_status status);
/** A constant sentence saying what the status means in general. */
const char *edml_status_message(edml_status status);
/** Two channels hold the messages of failed calls. edml_device_last_error()
 *  holds the one of the last call that reached that device ("" when it
 *  succeeded). This one holds the calling thread's last call's message when
 *  that call reached no device to keep it: a NULL or unrecognisable handle,
 *  a device held by another thread (::EDML_STATUS_BUSY), e.g. "the operator
 *  is NULL", or a refused edml_device_create() (whose whole message is in
 *  its error_buffer and log); "" once a later call of the thread reached a
 *  device, and before any. A call that reached no device leaves every device's message
 *  as it was. (With PORT=none, one for the whole program.) */
const char *edml_error_without_device(void);
/**@}*/

/** @name Backends and boards */
/**@{*/
/** Where an operator runs. */
typedef enum edml_backend {
    EDML_BACKEND_AUTO = 0, /**< chosen by the board's thresholds or measured (see @ref placement) */
    EDML_BACKEND_REF = 1,  /**< portable C, the oracle every backend matches bit for bit */
    EDML_BACKEND_NEON = 2, /**< Arm NEON (SIMDe on other processors) */
    EDML_BACKEND_GLES = 3, /**< OpenGL ES 3.1 compute shaders */
    EDML_BACKEND_COUNT_
} edml_backend;

/** Bit of a backend in a mask: EDML_BACKEND_BIT(EDML_BACKEND_NEON). */
#define EDML_BACKEND_BIT(b) (1u << (unsigned)(b))

/** Lower-case name of a backend ("auto", "ref", "neon", "gles"), or NULL. */
const char *edml_backend_name(edml_backend backend);

/** Mask of EDML_BACKEND_BIT()s of the backends built into this library that have a kernel for an operator
 *  type (0 for a type edml does not implement). The reference backend has every operator; another backend
 *  may lack one: ::EDML_BACKEND_AUTO then passes it by, and naming it gives ::EDML_STATUS_BACKEND_UNAVAILABLE.
 *  Whether a device can use a backend at all is edml_device_backends(). */
uint32_t edml_operator_backends(EDML_OPERATOR_TYPE type);

/** A line of a board's cost model (the board report's fit) for one kernel path: rows are TopK's, GatherND's
 *  tuples, ArgMin's outputs if it reduces the innermost dim, ElementWiseIf's runs of that dim; a row's elements
 *  are TopK's along its axis or what ArgMin reduces an output (one worker's or workgroup's path). */
typedef struct edml_cost_term {
    uint8_t family;        /**< EDML_COST_TOPK, _GATHER_ND, _ARGREDUCE (ArgMin, ArgMax), _ELEMENT_WISE_IF */
    uint8_t backend;       /**< EDML_BACKEND_NEON or EDML_BACKEND_GLES */
    uint8_t binding;       /**< EDML_COST_HOST_MEMORY, _GPU_BUFFERS or _MAPPED_GPU_BUFFERS */
    uint8_t workers;       /**< NEON: the parts its path ran in; GLES: the device's workers (nearest below; 0 any) */
    float fixed_us;        /**< a call's time at no size */
    float us_per_mib;      /**< and per MiB of its tensors (inputs read, outputs written) */
    float us_per_melement; /**< per million elements of its largest tensor */
    float us_per_mrow;     /**< per million rows (above) */
    float us_per_mhalf;    /**< per million FLOAT16 elements of its inputs (converted to compare) */
    float us_per_mlong;    /**< per million elements of one row (above) */
    float us_per_mstrided; /**< per million input elements TopK or ArgMin goes through down columns */
    float us_per_mkept;    /**< per million candidates TopK keeps (K a row times its rows) */
    uint8_t path;          /**< the kernel path its backend's plan runs (docs/performance.md); 0: every one */
    uint8_t elem_bytes;    /**< the bytes of the elements it compares or moves (1, 2, 4, 8); 0: any */
    uint8_t reserved[2];   /**< 0 */
} edml_cost_term;
#define EDML_COST_TOPK 0u
#define EDML_COST_GATHER_ND 1u
#define EDML_COST_ARGREDUCE 2u
#define EDML_COST_ELEMENT_WISE_IF 3u
#define EDML_COST_HOST_MEMORY 0u
#define EDML_COST_GPU_BUFFERS 1u
#define EDML_COST_MAPPED_GPU_BUFFERS 2u /**< GPU buffers of a device with gpu_arena_mapped */

/**
 * What the library knows of a board. The build embeds the one of its BOARD
 * (boards/<name>/caps.h); edml_board_builtin() returns it. A program may pass
 * its own to edml_device_create() to tune one binary for several boards.
 */
typedef struct edml_board {
    const char *name;                 /**< e.g. "rpi4" */
    const char *cpu;                  /**< e.g. "cortex-a72" */
    uint32_t has_neon;                /**< 1 if the NEON backend is built and usable */
    uint32_t has_fp16_arith;          /**< 1 if the CPU has half-precision arithmetic */
    uint32_t has_gpu;                 /**< 1 if the board may have a GLES 3.1 GPU */
    uint32_t gpu_min_elements;        /**< auto: reductions (TopK, ArgMin/ArgMax) and point gathers
                                        with fewer input elements stay on the CPU; measured on one
                                        core, so multiplied by the device's workers */
    uint32_t gpu_min_elements_copy;   /**< auto: the same for copy-like work (ElementWiseIf, GatherND
                                        of rows), bound by host<->GPU transfers; 0xffffffff: never */
    uint32_t gpu_topk_min_row;        /**< auto: TopK rows shorter than this stay on the CPU */
    uint32_t gpu_software_ok;         /**< auto: 1 lets a software GPU (Mesa llvmpipe) run operators;
                                        0 keeps every one on the CPU, measured or saved placement too */
    uint32_t gpu_workgroup;           /**< invocations in a GLES workgroup (a power of two from 128,
                                        within the GPU's limit; another value is taken as the
                                        largest such below it, and said as gpu_arena_bytes'
                                        changes are); 0: 256 on V3D (16-lane QPUs), 1024 on
                                        other GPUs */
    uint32_t cores;                   /**< CPU cores: the default workers of a parallel-for and of
                                        edml_pool_create(); 0: as many as the OS says are online */
    const edml_cost_term *cost_model; /**< AUTO's model (see @ref placement), valid while devices live; NULL: none */
    uint32_t cost_model_terms;        /**< its lines */
    uint32_t cost_model_measured;     /**< 1: fitted by a board report; 0: the thresholds restated, unmeasured */
} edml_board;

/** The board this library was built for. */
const edml_board *edml_board_builtin(void);
/** Any board of boards/ by name ("rpi4", "rpi5", ...), for one image on several; NULL if none. */
const edml_board *edml_board_named(const char *name);
/**@}*/

/** @name Devices */
/**@{*/
/** A device: lives at the start of its arena. Opaque. */
typedef struct edml_device edml_device;

/** Receives every error message of a device (optional), and notices with
 *  ::EDML_STATUS_OK: a setting the device adjusted at creation. */
typedef void (*edml_log_fn)(void *user, edml_status status, const char *message);

/** One part of an operator's work, run by a parallel-for: `part` is in
 *  [0, parts); `worker` (below edml_device_desc.workers) is the worker that
 *  runs it, different for parts that run at the same time. */
typedef void (*edml_task_fn)(void *arg, uint32_t part, uint32_t worker);

/**
 * The caller's parallel-for: runs task(arg, part, worker) once for every
 * part in [0, parts), in any order, on up to edml_device_desc.workers
 * threads (the calling thread may be one), and returns when every part is
 * done. Parts that run at the same time get different `worker` values below
 * `workers`. With OpenMP:
 * @code
 * static void omp_for(void *ctx, edml_task_fn task, void *arg, uint32_t parts)
 * {
 *     (void)ctx;
 * #pragma omp parallel for schedule(static)
 *     for (int p = 0; p < (int)parts; p++) task(arg, (uint32_t)p, (uint32_t)omp_get_thread_num());
 * }
 * @endcode
 * (pthreadpool's shape.) A parallel-for that leaves a part out, runs one
 * with a part or worker out of range, or two parts at once on one worker
 * fails the execution (::EDML_STATUS_BACKEND_FAILED, the parts run
 * counted): reductions that combine their parts write nothing, kernels
 * whose parts write the outputs directly may leave them partly written.
 */
typedef void (*edml_parallel_for_fn)(void *context, edml_task_fn task, void *arg, uint32_t parts);

/** How to create a device. Zero in any field means its default, and a NULL
 *  descriptor is the same as one of zeros. */
typedef struct edml_device_desc {
    const edml_board *board; /**< NULL: edml_board_builtin() */
    uint32_t backends;       /**< mask of EDML_BACKEND_BIT()s allowed; 0: every backend built */
    /** Size of the one GPU buffer of the GLES backend; 0: 64 MiB; else at
     *  least 256, rounded down to a multiple of 256 and cut to the driver's
     *  GL_MAX_SHADER_STORAGE_BLOCK_SIZE (128 MiB on the boards' Mesa), either
     *  change logged (::EDML_STATUS_OK) and in edml_device_gles_info(). */
    uint64_t gpu_arena_bytes;
    edml_log_fn log;        /**< NULL: no log */
    void *log_user;         /**< passed to log */
    uint32_t inject_faults; /**< tests only: EDML_FAULT_* bits to simulate; 0 in products */
    /** 0: any thread may call (one at a time), each keeping a GL context of
     *  the device (up to 8 threads; docs/gpu.md). 1: every call comes from
     *  one thread, which gets the device's one context. A call made while no
     *  context was current leaves the device's current on the thread
     *  (edml_device_release_thread() releases it); one made while another was
     *  current makes that one current again (see @ref threads). */
    uint32_t gles_one_thread;
    /** Where edml_device_create() writes why it failed (a NUL-terminated
     *  message, cut to error_buffer_bytes), as there is then no device to
     *  keep it. NULL: nowhere (the log still gets it). */
    char *error_buffer;
    size_t error_buffer_bytes; /**< bytes of error_buffer */
    /** NULL: every operator runs on the calling thread. Else the CPU
     *  kernels run their parts through it (see @ref parallel). */
    edml_parallel_for_fn parallel_for;
    void *parallel_context; /**< passed to parallel_for */
    /** Threads parallel_for runs parts on at once (1 to 64); 0: the board's
     *  edml_board.cores. Only with parallel_for. */
    uint32_t workers;
    /** 0: an execution given no temporary binding takes its scratch from the
     *  free top of the device arena, and fails (::EDML_STATUS_ARENA_TOO_SMALL)
     *  if that is short. 1: each operator keeps its own scratch in the arena
     *  from its creation (edml_operator_query()'s persistent_bytes then
     *  include temporary_bytes), so that an operator that was created never
     *  fails an execution for memory: firmware knows at start-up whether its
     *  operators fit. */
    uint32_t reserve_scratch;
    /** 1: the GPU arena is mapped once, persistently and coherently, where
     *  the driver has GL_EXT_buffer_storage, so that edml_gpu_buffer_map()
     *  costs no call and operators run while buffers are mapped (zero-copy
     *  on boards whose GPU shares the CPU's memory). 0: not (desktop GPUs
     *  keep an unmapped buffer in their own memory). */
    uint32_t gpu_arena_mapped;
    /** Memory that keeps the GLES programs' driver binaries from one start
     *  to the next: give what was saved last time (anything, the first),
     *  save edml_device_program_cache_used() bytes after the operators were
     *  created. Memory of its own (one over the arena is refused:
     *  ::EDML_STATUS_INVALID_ARGUMENT); another driver's or edml version's
     *  is emptied; every entry is checksummed (a damaged one is dropped); a
     *  binary the driver refuses is compiled and kept anew (docs/gpu.md).
     *  NULL: compiled at each start. A few hundred KiB hold every program. */
    void *program_cache;
    size_t program_cache_bytes; /**< bytes of program_cache */
    /** How EDML_BACKEND_AUTO places an operator the GPU can run too:
     *  ::EDML_PLACEMENT_THRESHOLDS, ::EDML_PLACEMENT_MEASURE or
     *  ::EDML_PLACEMENT_SAVED (see @ref placement). */
    uint32_t placement;
    /** Measured placements kept from one start to the next (memory of its
     *  own, entries checksummed, another board's emptied, another GPU driver's
     *  or edml version's kept stale: MEASURE measures them again, SAVED keeps
     *  them, docs/integration.md); save the stats' `used` bytes. Of
     *  two live devices given it, the last created holds it (the other's
     *  stats: `taken`). NULL: decisions last as long as their operators. */
    void *placement_cache;
    size_t placement_cache_bytes; /**< bytes of placement_cache: EDML_PLACEMENT_CACHE_BYTES(decisions) */
    /** A cost model the board report wrote (report.json.model), used before
     *  the board's: another board's, or a damaged one, is not used (the log
     *  says why); another GPU driver's or edml version's is used, its lines
     *  said stale (edml_operator_placement()). Valid while the device
     *  lives. NULL: the board's. */
    const void *cost_model;
    size_t cost_model_bytes; /**< bytes of cost_model */
    /** Tests only: the GPU submission (from 1, after the known-answer tests) (at) faults strike; 0: the first. */
    uint32_t inject_fault_at;
    /** The longest a call waits for a GPU fence, then fails and GLES leaves
     *  the device: a hung GPU's stall (docs/gpu.md); 0: 5000 ms. */
    uint32_t gpu_fence_timeout_ms;
    /** 1 (debug): every backend's lists run in the wait, their host outputs'
     *  elements 0xA5 from the submission on, as a GPU's are. 0: off. */
    uint32_t poison_list_outputs;
} edml_device_desc;

/** base + per * n bytes (n a 32-bit count), SIZE_MAX where that cannot be addressed (32-bit targets). */
#if SIZE_MAX > 0xFFFFFFFFu
#define EDML_BYTES_(base, per, n) ((base) + (per) * (size_t)(n))
#else
#define EDML_BYTES_(base, per, n) ((size_t)(n) > (SIZE_MAX - (base)) / (per) ? SIZE_MAX : (base) + (per) * (size_t)(n))
#endif
/** @name Placement (edml_device_desc.placement) */
/**@{*/
#define EDML_PLACEMENT_THRESHOLDS 0u /**< the board's thresholds (edml_board) */
#define EDML_PLACEMENT_MEASURE 1u    /**< timed on the board at first use, kept in placement_cache */
#define EDML_PLACEMENT_SAVED 2u      /**< placement_cache's decisions, thresholds elsewhere; never timed */
/** Executions that measure an operator with a kind of bindings (::EDML_PLACEMENT_MEASURE): the
 *  CPU's, the GPU's, the CPU's again; its next execution runs where they decided. */
#define EDML_PLACEMENT_MEASURE_RUNS 11u
/** Bytes of a placement cache that holds n decisions (an operator and a kind of bindings each). */
#define EDML_PLACEMENT_CACHE_BYTES(n) EDML_BYTES_(32u, 40u, n)
/**@}*/

/** @name Fault injection (tests only; docs/testing.md, "Fault modes", says what each simulates).
 *  Faults marked (at) strike from the GPU submission edml_device_desc.inject_fault_at names. */
/**@{*/
#define EDML_FAULT_NO_GL 0x1u                  /**< libEGL cannot be loaded */
#define EDML_FAULT_CONTEXT 0x2u                /**< no GLES 3.1 context */
#define EDML_FAULT_SHADER_COMPILE 0x4u         /**< a shader fails to compile */
#define EDML_FAULT_OUT_OF_MEMORY 0x8u          /**< GL_OUT_OF_MEMORY creating the GPU arena */
#define EDML_FAULT_FENCE_TIMEOUT 0x10u         /**< (at) every fence times out, as on a hung GPU */
#define EDML_FAULT_SMALL_DISPATCHES 0x20u      /**< dispatches split into pieces of one workgroup */
#define EDML_FAULT_MAP 0x40u                   /**< (at) reading results back fails */
#define EDML_FAULT_SMALL_PARTS 0x80u           /**< CPU work cut into parts of 64 bytes */
#define EDML_FAULT_BAKED_ONLY 0x100u           /**< an upload on the hot path fails the call */
#define EDML_FAULT_REORDER 0x200u              /**< unordered GPU kernels run backwards */
#define EDML_FAULT_NO_BUFFER_STORAGE 0x400u    /**< GL_EXT_buffer_storage left unused */
#define EDML_FAULT_LIMITS_GLES31 0x800u        /**< GLES 3.1's minimum limits */
#define EDML_FAULT_LIMITS_V3D 0x1000u          /**< the limits of Mesa's V3D (Raspberry Pi 4, 5) */
#define EDML_FAULT_SPILLED 0x2000u             /**< TopK's per-invocation kernels said to spill */
#define EDML_FAULT_SKIPPED_DISPATCH 0x4000u    /**< GatherND's kernel never dispatched (V3D's skip) */
#define EDML_FAULT_SLOW_COMPILE 0x8000u        /**< programs built in the driver's threads, slowly */
#define EDML_FAULT_UNCHECKED 0x10000u          /**< no known-answer test, no count checked: never in products */
#define EDML_FAULT_LIMITS_MALI 0x20000u        /**< the limits of Mesa's Panfrost (Mali G52, G57, G610) */
#define EDML_FAULT_LIMITS_ADRENO 0x40000u      /**< the limits of Mesa's freedreno (Adreno 6xx) */
#define EDML_FAULT_DROPPED_DISPATCH 0x80000u   /**< (at) one submission's dispatches dropped */
#define EDML_FAULT_GPU_RESET 0x100000u         /**< (at) one submission dropped and a GPU reset reported */
#define EDML_FAULT_SLOW_CPU 0x200000u          /**< measured placement times each CPU run 50 ms longer */
#define EDML_FAULT_SLOW_GPU 0x400000u          /**< ... each GPU run 50 ms longer; with _CPU every run 50 ms (a tie) */
#define EDML_FAULT_PARTIAL_WORKGROUP 0x800000u /**< (at) only each workgroup's first invocation runs */
#define EDML_FAULT_STALE_READBACK 0x1000000u   /**< (at) the readback mapping shows the bytes before */
#define EDML_FAULT_DROPPED_COPY 0x2000000u     /**< (at) a copy to or from the readback dropped */
#define EDML_FAULT_STALE_MAPPING 0x4000000u    /**< (at) the readback mapping stale but for its proof head */
#define EDML_FAULT_UPLOAD_ERROR 0x8000000u     /**< (at) a command list's uploads fail with a GL error */
#define EDML_FAULT_LIMITS_ANY                  /**< every limits profile above */ \
    (EDML_FAULT_LIMITS_GLES31 | EDML_FAULT_LIMITS_V3D | EDML_FAULT_LIMITS_MALI | EDML_FAULT_LIMITS_ADRENO)
/**@}*/

/** Bytes of arena a device takes before any operator (for sizing arenas),
 *  including the GLES backend's state when the library has that backend. */
size_t edml_device_size(void);

/**
 * Creates a device at the start of `arena` (aligned to 16 bytes, at least
 * edml_device_size() bytes). Operators and scratch later share the same arena.
 * The arena must stay valid until edml_device_destroy(). An arena holding a
 * live device is refused; to tell, its first bytes are read, so memory
 * checkers (valgrind) want an arena written before (static, calloc, memset).
 * `desc` NULL is a descriptor of zeros: every default (the built-in board,
 * every backend built, a 64 MiB GPU arena, no log).
 * On failure the message goes to desc->error_buffer and desc->log.
 */
edml_status edml_device_create(const edml_device_desc *desc, void *arena, size_t arena_size, edml_device **device);

/** Ends a device; the arena is the caller's again. Using it afterwards gives
 *  ::EDML_STATUS_INVALID_DEVICE. */
edml_status edml_device_destroy(edml_device *device);

/** Lets the calling thread's GL context of the device go. With the GLES
 *  backend a thread that calls a device keeps one of its contexts current
 *  between calls (see edml_device_desc.gles_one_thread); a thread that ends
 *  before the device is destroyed calls this first, as GL drivers (Mesa)
 *  do not free a context still current on a thread that ended. A context
 *  not the device's is left as it is. Without GLES it does nothing. */
edml_status edml_device_release_thread(edml_device *device);

/** Bytes at the start of edml_device_desc.program_cache that hold programs now (0 without a cache or GLES):
 *  what to save for the next start. The programs an operator needs are in it once the operator was created
 *  (or, where the driver compiles in its own threads, once its first execution ran on the GPU). */
edml_status edml_device_program_cache_used(edml_device *device, size_t *bytes);

/** What edml_device_desc.program_cache held and what the device did with
 *  it since its creation (each event is also logged, with ::EDML_STATUS_OK). */
typedef struct edml_program_cache_stats {
    uint32_t loaded;   /**< programs loaded from their binaries (no compile) */
    uint32_t compiled; /**< programs compiled from source (not in the cache, or refused) */
    uint32_t kept;     /**< binaries added to the cache */
    uint32_t refused;  /**< binaries the driver refused (an update): removed, compiled and kept anew */
    uint32_t damaged;  /**< entries dropped for a checksum or size that did not match */
    uint32_t full;     /**< binaries that did not fit program_cache_bytes (compiled at each start) */
    uint32_t emptied;  /**< 1: the memory held no cache of this driver, renderer and edml version */
    uint32_t taken;    /**< 1: another device was given the same memory since, and holds it */
    size_t used;       /**< bytes at the start of program_cache that hold programs now: what to save */
    size_t needed;     /**< bytes that would hold every program built so far (over the bytes given: too small) */
} edml_program_cache_stats;

/** The program cache's contents and events (all zero without a cache or GLES). */
edml_status edml_device_program_cache_stats(edml_device *device, edml_program_cache_stats *stats);

/** What edml_device_desc.placement_cache holds and what the device did
 *  with it since its creation (each event is also logged). */
typedef struct edml_placement_cache_stats {
    uint32_t decisions; /**< decisions held now (an operator and a kind of bindings each) */
    uint32_t loaded;    /**< decisions operators took from it instead of measuring */
    uint32_t kept;      /**< decisions measured and written to it */
    uint32_t damaged;   /**< entries dropped for a checksum that did not match */
    uint32_t full;      /**< decisions that did not fit placement_cache_bytes */
    uint32_t emptied;   /**< 1: it held no cache of this board */
    uint32_t stale;     /**< decisions kept from another GPU driver or edml version, marked stale */
    uint32_t taken;     /**< 1: another device was given the same memory since, and holds it */
    size_t used;        /**< bytes at the start of placement_cache that hold them: what to save */
    size_t needed;      /**< EDML_PLACEMENT_CACHE_BYTES(decisions + full): over the bytes given, too small */
} edml_placement_cache_stats;

/** The placement cache's contents and events (all zero without one). */
edml_status edml_device_placement_cache_stats(edml_device *device, edml_placement_cache_stats *stats);
/** A cost model for edml_device_desc.cost_model: `terms` (n lines) keyed to this device's board, GPU
 *  driver and edml version, checksummed, into buf: its bytes (EDML_COST_MODEL_BYTES(n), SIZE_MAX where
 *  they cannot be addressed); 0 where cap is short, a figure is not finite and at least 0 (the last error
 *  names the line), the device is busy or none (edml_error_without_device() says). */
size_t edml_cost_model_write(edml_device *device, const edml_cost_term *terms, uint32_t n, void *buf, size_t cap);
#define EDML_COST_MODEL_BYTES(n) EDML_BYTES_(32u, 44u, n)

/** The message of the last call that reached this device, "" when it
 *  succeeded (see edml_error_without_device() for calls that reached none). */
const char *edml_device_last_error(const edml_device *device);

/** One line on a backend of the device: what it found (its GPU, for GLES), or
 *  why it is not available. Written into buf (of cap bytes), returned. */
const char *edml_device_backend_info(const edml_device *device, edml_backend backend, char *buf, size_t cap);

/** edml_device_backend_info() of ::EDML_BACKEND_GLES: one line on the
 *  device's GPU, e.g. "GLES 3.2 Mesa 22.3.6 on llvmpipe (surfaceless display,
 *  config-less context), 1024 invocations a workgroup", or why the GLES
 *  backend is not available. Written into buf (of cap bytes), returned. */
const char *edml_device_gles_info(const edml_device *device, char *buf, size_t cap);

/** Mask of EDML_BACKEND_BIT()s that work on this device (built, allowed and, for
 *  GLES, initialised). */
uint32_t edml_device_backends(const edml_device *device);

/** Arena use of a device. */
typedef struct edml_arena_stats {
    size_t size;       /**< the arena's size */
    size_t persistent; /**< bytes used now by the device and live operators */
    size_t high_water; /**< most bytes ever used at once, scratch included */
} edml_arena_stats;

/** Arena use of a device. */
edml_status edml_device_arena_stats(const edml_device *device, edml_arena_stats *stats);
/**@}*/

/** @name Operators */
/**@{*/
/** An operator, created in its device's arena. Opaque. */
typedef struct edml_operator edml_operator;

/** What an operator needs: arena bytes to create it and scratch bytes to run it. */
typedef struct edml_operator_sizes {
    size_t persistent_bytes; /**< device-arena bytes edml_operator_create() takes (with
                                  edml_device_desc.reserve_scratch, temporary_bytes included) */
    size_t temporary_bytes;  /**< scratch bytes each edml_operator_execute() takes */
    /** GPU-arena bytes edml_operator_create() keeps (GLES: the kernels'
     *  parameters, uploaded once), from the same end as GPU buffers */
    uint64_t gpu_persistent_bytes;
    edml_backend backend; /**< the backend creation would choose */
} edml_operator_sizes;

/**
 * Validates a descriptor and tells what creating and running it would take,
 * without creating anything. Errors as edml_operator_create().
 */
edml_status edml_operator_query(edml_device *device, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                edml_operator_sizes *sizes);

/**
 * Validates the descriptor, plans the work and places the operator in the
 * device arena. `backend` EDML_BACKEND_AUTO chooses; a named backend that is
 * not available gives ::EDML_STATUS_BACKEND_UNAVAILABLE. The descriptor and
 * the arrays it points to are copied: they may be freed after the call.
 */
edml_status edml_operator_create(edml_device *device, const EDML_OPERATOR_DESC *desc, edml_backend backend,
                                 edml_operator **op);

/** Releases an operator. Its arena bytes come back once every operator
 *  created after it is released too (the arena is a stack). */
edml_status edml_operator_destroy(edml_operator *op);

/** The backend the operator runs on (for an AUTO operator, with the kind
 *  of bindings of its last execution: host memory before the first). */
edml_backend edml_operator_backend(const edml_operator *op);

/** Why the operator runs where it does, for the kind of bindings of its last execution: "gles: measured with
 *  host memory: neon 1.210 ms, gles 0.340 ms", "neon: model: neon 0.001 ms, gles 1.000 ms (host memory, 1
 *  worker); neon rows in 1 part, gles one short row" (each side's kernel path), "neon: threshold: 262144
 *  elements, under the board's gpu_min_elements 4194304 x 4 workers", "gles: measuring with host memory: 2 of
 *  11 runs, on neon, gles, then neon again", "neon: asked for by name" (test/placement.c holds these to what
 *  the code writes). Written into buf (of cap bytes), returned. */
const char *edml_operator_placement(const edml_operator *op, char *buf, size_t cap);

/** DirectML's DML_BINDING_PROPERTIES. */
typedef struct EDML_BINDING_PROPERTIES {
    UINT RequiredDescriptorCount;  /**< always 0 */
    UINT64 TemporaryResourceSize;  /**< scratch bytes an execution needs */
    UINT64 PersistentResourceSize; /**< always 0: the arena holds the operator */
} EDML_BINDING_PROPERTIES;

/** Scratch an execution needs. */
edml_status edml_operator_get_binding_properties(const edml_operator *op, EDML_BINDING_PROPERTIES *props);

/** A region of the device's GPU arena (GLES backend), see edml_gpu_buffer_create(). */
typedef struct edml_gpu_buffer edml_gpu_buffer;

/**
 * DirectML's DML_BUFFER_BINDING. In host memory: the tensor starts at
 * (uint8_t *)Buffer + Offset, which must be aligned to its element size, and
 * SizeInBytes (from there) must hold its TotalTensorSizeInBytes; a host
 * binding may not lie in the device arena. Already on the GPU, as DirectML
 * binds a GPU resource: made by edml_gpu_binding(), so that a chain of
 * operators runs without round trips through host memory. An operator on
 * the CPU reads and writes GPU buffers through the CPU's view of the GPU
 * arena, after the GPU's work on them: the persistent mapping where
 * gpu_arena_mapped made one, else a copy each way (BUSY while mapped). */
typedef struct EDML_BUFFER_BINDING {
    void *Buffer;
    UINT64 Offset;
    UINT64 SizeInBytes;
} EDML_BUFFER_BINDING;

/** The bit of EDML_BUFFER_BINDING.Offset that marks a GPU buffer binding. */
#define EDML_GPU_BINDING_BIT (1ull << 63)

/**
 * A binding of `bytes` of a GPU buffer from `offset` (a multiple of 4 and of
 * the element size): Buffer is the buffer, Offset carries
 * ::EDML_GPU_BINDING_BIT. A destroyed buffer, or one of another device, is
 * refused with ::EDML_STATUS_INVALID_BINDING when bound.
 */
EDML_BUFFER_BINDING edml_gpu_binding(edml_gpu_buffer *buffer, UINT64 offset, UINT64 bytes);

/**
 * Runs the operator. Inputs and outputs are bound in the descriptor's member
 * order: TOP_K/TOP_K1 (Input) -> (OutputValue, OutputIndex); GATHER_ND/
 * GATHER_ND1 (Input, Indices) -> (Output); ARGMIN/ARGMAX (Input) ->
 * (Output); ELEMENT_WISE_IF (Condition, A, B) -> (Output).
 * `temporary` may be NULL: scratch then comes from the device arena. Every
 * binding is checked before anything is written. Outputs may not overlap
 * inputs or each other, except ELEMENT_WISE_IF's output on exactly A or B.
 */
edml_status edml_operator_execute(edml_operator *op, const EDML_BUFFER_BINDING *inputs, UINT inputCount,
                                  const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                  const EDML_BUFFER_BINDING *temporary);
/**@}*/

/** @name GPU buffers (GLES backend)
 *  Tensors that stay in the GPU arena between operators. The buffer's record
 *  takes device-arena bytes and its data GPU-arena bytes; both are stacks, as
 *  for operators. Every call waits for the GPU (one fence), so data written or
 *  read is complete when it returns. */
/**@{*/
/** A buffer of `bytes` (rounded up to 16) in the GPU arena, starting at a
 *  multiple of 256 bytes of it: up to 240 bytes after what was created
 *  before it (an operator's gpu_persistent_bytes are a multiple of 16) are
 *  taken to align it. Its bytes are not cleared: they hold what that part of
 *  the GPU arena held last (a released buffer's data, an operator's), and an
 *  operator writes an output's elements only, never the bytes its
 *  TotalTensorSizeInBytes rounds up to 4. */
edml_status edml_gpu_buffer_create(edml_device *device, UINT64 bytes, edml_gpu_buffer **buffer);
/** Releases a buffer; its bytes come back once every later buffer and operator is released. */
edml_status edml_gpu_buffer_destroy(edml_gpu_buffer *buffer);
/** Copies host memory into the buffer. */
edml_status edml_gpu_buffer_write(edml_gpu_buffer *buffer, UINT64 offset, const void *data, UINT64 bytes);
/** Copies the buffer into host memory. */
edml_status edml_gpu_buffer_read(edml_gpu_buffer *buffer, UINT64 offset, void *data, UINT64 bytes);
/**
 * The CPU's view of `bytes` of the buffer from `offset`, in *data: a
 * camera frame written straight into a GPU buffer, a result read where the
 * kernel wrote it. The device's GPU work is complete when it returns, so the
 * mapping shows every write made before. With
 * edml_device_desc.gpu_arena_mapped (and GL_EXT_buffer_storage) the whole
 * GPU arena is mapped once, persistently and coherently (zero-copy where
 * the GPU shares DRAM, as on every Raspberry Pi, Mali, Adreno and Jetson
 * board): operators may run while the pointer is held, each call's GPU
 * writes show in it when the call returns, the CPU's are seen by the next
 * call; leave the range alone while a submitted command list that binds it
 * is not waited for. Without it, glMapBufferRange maps the range and the
 * device's other GPU calls return ::EDML_STATUS_BUSY until
 * edml_gpu_buffer_unmap(). One mapping a buffer at a time; `bytes` 0 is
 * refused (::EDML_STATUS_INVALID_ARGUMENT).
 */
edml_status edml_gpu_buffer_map(edml_gpu_buffer *buffer, UINT64 offset, UINT64 bytes, void **data);
/** Ends a mapping: the pointer is no longer to be used (with the
 *  persistent mapping it still points into the arena, but edml may reuse
 *  it once the buffer is destroyed). Destroying a mapped buffer unmaps it. */
edml_status edml_gpu_buffer_unmap(edml_gpu_buffer *buffer);
/** A compute-shader copy between buffers (offsets and size multiples of 4). */
edml_status edml_gpu_buffer_copy(edml_gpu_buffer *dst, UINT64 dst_offset, edml_gpu_buffer *src, UINT64 src_offset,
                                 UINT64 bytes);
/**@}*/

/** @name Command lists
 *  After DirectML's command recorder: operator executions recorded with
 *  their bindings, run in order by one submission, completed by a wait. The
 *  same code runs on every backend; a list may hold operators of several.
 *  A list lives in the device arena, as an operator does. Each recording
 *  checks the operator and its bindings as edml_operator_execute() does and
 *  refuses, recording nothing, what that would refuse; the memory the
 *  bindings name is read and written between the submission and the end of
 *  its wait: leave it alone until edml_command_list_wait() returns. CPU
 *  entries run at submission, on the calling thread (and the device's
 *  parallel-for); consecutive GLES entries are one GPU submission, the last
 *  left running when edml_command_list_submit() returns. Any other call that
 *  uses the GPU on the device completes it first. */
/**@{*/
typedef struct edml_command_list edml_command_list;

/** Device-arena bytes a list of `capacity` executions takes (0 over 2^20). */
size_t edml_command_list_size(UINT capacity);

/** Creates an empty list with room for `capacity` executions (1 to 2^20). */
edml_status edml_command_list_create(edml_device *device, UINT capacity, edml_command_list **list);

/** Records one execution of `op` (an operator of the list's device), with
 *  bindings as edml_operator_execute() takes them; the operator must still
 *  be live when the list is submitted. A full list gives
 *  ::EDML_STATUS_INVALID_ARGUMENT; a submitted list whose outcome no wait
 *  has taken gives ::EDML_STATUS_BUSY. */
edml_status edml_command_list_record(edml_command_list *list, edml_operator *op, const EDML_BUFFER_BINDING *inputs,
                                     UINT inputCount, const EDML_BUFFER_BINDING *outputs, UINT outputCount,
                                     const EDML_BUFFER_BINDING *temporary);

/** Runs the recorded executions in order; the list keeps them and can be
 *  submitted again after its wait. A failed execution stops the list: those
 *  before it have written their outputs, it and those after it nothing. */
edml_status edml_command_list_submit(edml_command_list *list);

/** Completes a submission: its outcome, ::EDML_STATUS_OK or the status of
 *  the execution that stopped it, with a message naming that entry (or
 *  ::EDML_STATUS_INDEX_OUT_OF_RANGE for the first GatherND that read a
 *  clamped index, which does not stop the list). `timeout_ns` bounds the
 *  wait (0 polls): ::EDML_STATUS_TIMEOUT while the GPU is still running it
 *  (wait again). A wait of 5 s or more fails with
 *  ::EDML_STATUS_BACKEND_FAILED on a GPU that does not finish in 5 s. */
edml_status edml_command_list_wait(edml_command_list *list, uint64_t timeout_ns);

/** Forgets the recorded executions (not while submitted and not waited for). */
edml_status edml_command_list_reset(edml_command_list *list);

/** How many executions the list holds (0 for a bad handle). */
UINT edml_command_list_count(const edml_command_list *list);

/** Releases a list; a submission of it still running completes first. */
edml_status edml_command_list_destroy(edml_command_list *list);
/**@}*/

/** @name Thread pool (PORT=linux)
 *  A parallel-for for edml_device_desc.parallel_for on POSIX threads, whose
 *  state and thread stacks live in memory the caller gives it. Its workers
 *  are the calling thread and workers - 1 threads; between calls a thread
 *  spins briefly (about 50 us) and then sleeps on a condition variable, so an
 *  idle pool costs no CPU. Only glibc's pthread_create() allocates: a few
 *  hundred bytes of TLS vector a thread, at edml_pool_create(), given back at
 *  edml_pool_destroy(); nothing while the pool runs operators. One pool may
 *  serve several devices, one call at a time. With PORT=none every function
 *  here returns ::EDML_STATUS_UNSUPPORTED: give the device your RTOS's. */
/**@{*/
typedef struct edml_pool edml_pool;

/** Bytes a pool of `workers` (0: the board's cores) needs, with
 *  `stack_bytes` for each thread's stack (0: 128 KiB, or the system's
 *  minimum where larger); 0 when the pool cannot be built here (PORT=none,
 *  more than 64 workers, or sizes beyond the address space). */
size_t edml_pool_size(uint32_t workers, size_t stack_bytes);

/** Starts workers - 1 threads in `memory` (aligned to 64, of at least
 *  edml_pool_size() bytes). A refusal writes why into `memory` (a
 *  NUL-terminated message cut to `bytes`, e.g. "edml_pool_create needs
 *  2174976 bytes (edml_pool_size), 65536 given: 2109440 missing"), as there
 *  is no device to keep it. */
edml_status edml_pool_create(uint32_t workers, size_t stack_bytes, void *memory, size_t bytes, edml_pool **pool);

/** The workers of a pool: edml_device_desc.workers. */
uint32_t edml_pool_workers(const edml_pool *pool);

/** The pool's parallel-for (an ::edml_parallel_for_fn; context: the pool).
 *  A call made from inside one of the pool's own parts (a part that runs an
 *  operator on a device of its own) runs its parts on the calling thread
 *  instead of waiting for the pool. */
void edml_pool_parallel_for(void *pool, edml_task_fn task, void *arg, uint32_t parts);

/** Stops and joins the threads; the memory is the caller's again. */
edml_status edml_pool_destroy(edml_pool *pool);
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* EDML_H */
