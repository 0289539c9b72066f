/* The .case format (docs/case-format.md): parse, build descriptors,
 * run through edml, print and compare. Used by edml-run and the tests; it
 * allocates with malloc (tools may, the library may not). */
#ifndef EDML_CASE_H
#define EDML_CASE_H

#include "edml.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CASE_MAX_TENSORS 4 /* operands of one operator */
#define CASE_MSG 512
/* Sizes a file may give: more than a tensor may have, so that the library
 * (not the parser) refuses DimensionCount 0 or 9 with its message. */
#define CASE_MAX_DIMS 16

typedef struct case_tensor {
    const char *name; /* member name, e.g. "OutputValueTensor" */
    bool present, has_data, is_output;
    int line; /* line of the header */
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rank;
    UINT sizes[CASE_MAX_DIMS];
    UINT strides[CASE_MAX_DIMS];
    bool has_strides, has_total;
    UINT64 total_bytes; /* TotalTensorSizeInBytes, or its default */
    uint8_t *data;      /* total_bytes: input contents or expected output */
    /* descriptor storage */
    EDML_BUFFER_TENSOR_DESC buffer;
    EDML_TENSOR_DESC desc;
} case_tensor;

#define CASE_MAX_INPUTS 4
#define CASE_MAX_OUTPUTS 4
#define CASE_MAX_FIELDS 16 /* members of a descriptor */
#define CASE_MAX_LIST 16   /* values of a UINT_ARRAY member */
#define CASE_MAX_DESC 256  /* bytes of a descriptor */

typedef struct edml_case {
    char path[256];
    EDML_OPERATOR_TYPE op;
    const edml_operator_schema *schema; /* the operator's members (edml_operator_schema_of) */
    int op_line;
    bool expect_error;
    char expect_message[256]; /* from a "// message: ..." comment: the error must say this */
    /* the other members, by schema field: has says whether the file set it */
    bool has[CASE_MAX_FIELDS];
    UINT value[CASE_MAX_FIELDS];               /* UINT, UINT_COUNT, AXIS_DIRECTION */
    UINT list[CASE_MAX_FIELDS][CASE_MAX_LIST]; /* UINT_ARRAY, of value[] elements */
    int ninputs, noutputs;
    case_tensor inputs[CASE_MAX_INPUTS], outputs[CASE_MAX_OUTPUTS];
    /* descriptor storage: the members written at the schema's offsets */
    _Alignas(16) unsigned char desc_bytes[CASE_MAX_DESC];
    EDML_OPERATOR_DESC desc;
} edml_case;

/* Parses `text`; on error returns -1 and writes "path:line: reason" to err. */
int case_parse(const char *text, const char *path, edml_case *c, char *err, size_t errcap);
/* Reads and parses a file. */
int case_load(const char *path, edml_case *c, char *err, size_t errcap);
/* The same, an input's data optional (has_data false: its buffer NULL, for
 * the caller to fill: edml-bench --placement --cases). */
int case_parse_shapes(const char *text, const char *path, edml_case *c, char *err, size_t errcap);
int case_load_shapes(const char *path, edml_case *c, char *err, size_t errcap);
void case_free(edml_case *c);

/* Builds c->desc, the operator's descriptor, from the parsed members: its
 * tensors are the case's own, or those given (inputs and outputs, in the
 * schema's order) where the arrays are not NULL. */
void case_build_desc(edml_case *c, const EDML_TENSOR_DESC *const *inputs, const EDML_TENSOR_DESC *const *outputs);

/* Result of running a case. */
typedef struct case_result {
    edml_status create_status, exec_status;
    char message[CASE_MSG];         /* the library's message when a status is not OK */
    uint8_t *out[CASE_MAX_OUTPUTS]; /* output buffers (total_bytes each), after the run */
} case_result;

/* A device for running cases on `backend` (AUTO: every backend; else that
 * backend alone, so that no GPU is started for a CPU run), its CPU kernels
 * on `threads` workers (edml's pool above 1: one a process, stopped by
 * case_device_free), with the test modes `faults` (EDML_FAULT_SMALL_PARTS:
 * tiny cases split too; EDML_FAULT_REORDER: a list's kernels out of order). */
edml_device *case_device_new(edml_backend backend, uint32_t threads, uint32_t faults, char *why, size_t cap);
/* The board the devices are made for (NULL: the built-in one). */
extern const edml_board *case_board;
/* The GPU submission the devices' faults marked (at) strike (0: the first). */
extern uint32_t case_fault_at;
/* The built-in board with every AUTO threshold 0 and a software GPU
 * allowed: AUTO places every operator it can on the GPU (tests). */
const edml_board *case_board_gpu_always(void);
/* Whether a run the GLES backend refused with a status (its kernels could
 * not be checked or run: BACKEND_UNAVAILABLE, BACKEND_FAILED,
 * ARENA_TOO_SMALL, BUSY) and that left every output as it was: the verdict
 * a driver whose GPU may do nothing (Mesa's no-op shims) may give. */
bool case_refused(const edml_case *c, const case_result *r);
/* The same with `arena_bytes` of arena beside the device (256 KiB above). */
edml_device *case_device_new_sized(edml_backend backend, uint32_t threads, uint32_t faults, size_t arena_bytes,
                                   char *why, size_t cap);
void case_device_free(edml_device *dev);

/* Creates the operator on `backend` and runs it on `dev`; the operator is
 * destroyed afterwards. */
edml_status case_run(edml_case *c, edml_device *dev, edml_backend backend, case_result *r);
void case_result_free(case_result *r);

/* Compares outputs with expected data. Returns true on match; on mismatch
 * writes "<tensor>[i,j,..] expected X got Y" to msg. */
bool case_compare(const edml_case *c, const case_result *r, char *msg, size_t cap);

/* Whether the backend has a kernel for the case's operator (AUTO always):
 * a backend may leave operators out (edml_operator_backends()); a case of
 * one it lacks is skipped on it, and said so, never passed. */
bool case_backend_has(const edml_case *c, edml_backend backend);
/* --limits NAME (v3d, mali, adreno, gles31): the EDML_FAULT_LIMITS_* bit
 * that takes a small GPU's limits (tests); 0 for another name. */
uint32_t case_limits_fault(const char *name);
/* A half's value (case.c; case_run.c prints with it). */
double case_half_to_double(uint16_t h);
#define CASE_LIMITS_NAMES "v3d|mali|adreno|gles31"

/* Runs a case on a backend and judges it as edml-run --check does: outputs
 * equal the expected data; an `Expect: error` case fails with an error (with
 * the `// message:` text when given; GatherND's clamped outputs are compared).
 * On failure `why` says why; `r` keeps the outputs (free with
 * case_result_free). */
bool case_check(edml_case *c, edml_device *dev, edml_backend backend, case_result *r, char *why, size_t cap);

/* Prints one output tensor in the pages' notation (logical, packed). */
void case_print_tensor(FILE *f, const case_tensor *t, const uint8_t *buffer);

/* Formats the element at byte offset `off` of a buffer of type t. */
void case_format_value(char *dst, size_t cap, EDML_TENSOR_DATA_TYPE t, const uint8_t *p);

/* Names used in the format. */
const char *case_dtype_name(EDML_TENSOR_DATA_TYPE t);
bool case_dtype_signed(EDML_TENSOR_DATA_TYPE t);
uint64_t case_int_load(const uint8_t *p, UINT size, bool is_signed);
void case_int_store(uint8_t *p, UINT size, uint64_t v);
const char *case_op_name(EDML_OPERATOR_TYPE t);

/* Byte offset of logical element `flat` (row-major over sizes) through strides. */
uint64_t case_element_offset(const case_tensor *t, uint64_t flat);
uint64_t case_element_count(const case_tensor *t);

#endif
