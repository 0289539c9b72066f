/* The operators, in one list: each line names an operator kind, and with
 * its name its plan (edmli_<name>_plan, filled by edmli_plan_<name> in
 * src/core/op_<name>.c), its kernels (edmli_<backend>_<name>) and its files.
 * Adding an operator: docs/ARCHITECTURE.md. */
#ifndef EDMLI_OPS_H
#define EDMLI_OPS_H

#include "edml.h"

#include <stdbool.h>
#include <stdint.h>

#define EDMLI_MAX_DIMS EDML_TENSOR_DIMENSION_COUNT_MAX

/* X(KIND, name) */
#define EDMLI_OPS(X)        \
    X(TOPK, topk)           \
    X(GATHER_ND, gather_nd) \
    X(ARGREDUCE, argreduce) \
    X(ELEMENTWISE_IF, elementwise_if)

/* DirectML's operator types: X(TYPE, KIND, MEMBERS), TYPE as in
 * EDML_OPERATOR_<TYPE> and EDML_<TYPE>_OPERATOR_DESC; MEMBERS names the
 * list of the descriptor's members below. */
#define EDMLI_OP_TYPES(X)                              \
    X(TOP_K, TOPK, EDMLI_TOP_K_MEMBERS)                \
    X(TOP_K1, TOPK, EDMLI_TOP_K1_MEMBERS)              \
    X(GATHER_ND, GATHER_ND, EDMLI_GATHER_ND_MEMBERS)   \
    X(GATHER_ND1, GATHER_ND, EDMLI_GATHER_ND1_MEMBERS) \
    X(ARGMIN, ARGREDUCE, EDMLI_ARGREDUCE_MEMBERS)      \
    X(ARGMAX, ARGREDUCE, EDMLI_ARGREDUCE_MEMBERS)      \
    X(ELEMENT_WISE_IF, ELEMENTWISE_IF, EDMLI_ELEMENT_WISE_IF_MEMBERS)

/* A descriptor's members in struct order (edml_operator_schema_of()):
 * MEMBERS(T, IN, OUT, ATTR) gives IN(T, name) an input tensor, OUT(T, name)
 * an output tensor, ATTR(T, name, TYPE) any other member, TYPE from
 * EDML_SCHEMA_FIELD_<TYPE>; T is passed through (the user's context). The
 * core validates the tensors from these lists; the case format, the tools
 * and the tests read them through the schema. */
/* clang-format off */
#define EDMLI_TOP_K_MEMBERS(T, IN, OUT, ATTR)                              \
    IN(T, InputTensor) OUT(T, OutputValueTensor) OUT(T, OutputIndexTensor) \
    ATTR(T, Axis, UINT) ATTR(T, K, UINT)
#define EDMLI_TOP_K1_MEMBERS(T, IN, OUT, ATTR) \
    EDMLI_TOP_K_MEMBERS(T, IN, OUT, ATTR) ATTR(T, AxisDirection, AXIS_DIRECTION)
#define EDMLI_GATHER_ND_MEMBERS(T, IN, OUT, ATTR)                  \
    IN(T, InputTensor) IN(T, IndicesTensor) OUT(T, OutputTensor) \
    ATTR(T, InputDimensionCount, UINT) ATTR(T, IndicesDimensionCount, UINT)
#define EDMLI_GATHER_ND1_MEMBERS(T, IN, OUT, ATTR) \
    EDMLI_GATHER_ND_MEMBERS(T, IN, OUT, ATTR) ATTR(T, BatchDimensionCount, UINT)
#define EDMLI_ARGREDUCE_MEMBERS(T, IN, OUT, ATTR)                     \
    IN(T, InputTensor) OUT(T, OutputTensor)                         \
    ATTR(T, AxisCount, UINT_COUNT) ATTR(T, Axes, UINT_ARRAY)        \
    ATTR(T, AxisDirection, AXIS_DIRECTION)
#define EDMLI_ELEMENT_WISE_IF_MEMBERS(T, IN, OUT, ATTR) \
    IN(T, ConditionTensor) IN(T, ATensor) IN(T, BTensor) OUT(T, OutputTensor)
/* clang-format on */

typedef enum edmli_op_kind {
#define EDMLI_OP_KIND_ENUM(KIND, name) EDMLI_OP_##KIND,
    EDMLI_OPS(EDMLI_OP_KIND_ENUM)
#undef EDMLI_OP_KIND_ENUM
    EDMLI_OP_KIND_COUNT
} edmli_op_kind;

/* Largest operand counts of any operator. */
#define EDMLI_MAX_INPUTS 3
#define EDMLI_MAX_OUTPUTS 2

/* A validated tensor: sizes and strides in elements. */
typedef struct edmli_tensor {
    EDML_TENSOR_DATA_TYPE dtype;
    uint32_t elem_size;
    uint32_t rank;
    uint32_t sizes[EDMLI_MAX_DIMS];
    uint32_t strides[EDMLI_MAX_DIMS];
    uint64_t elem_count;
    uint64_t total_bytes; /* TotalTensorSizeInBytes (or its default) */
} edmli_tensor;

/* ---- the plans: what validation derives from a descriptor, for every backend */

typedef struct edmli_topk_plan {
    uint32_t axis;
    uint32_t k;
    uint32_t axis_size;
    EDML_AXIS_DIRECTION direction;
} edmli_topk_plan;

typedef struct edmli_gather_nd_plan {
    uint32_t input_dims, indices_dims, batch_dims;
    uint32_t tuple; /* T: coordinates per index tuple */
    /* Loop dims over (batch, positions): sizes and strides in indices/output/input. */
    uint32_t outer_rank;
    uint32_t outer_sizes[2 * EDMLI_MAX_DIMS];
    uint32_t outer_idx_strides[2 * EDMLI_MAX_DIMS];
    uint32_t outer_out_strides[2 * EDMLI_MAX_DIMS];
    uint32_t outer_in_strides[2 * EDMLI_MAX_DIMS]; /* 0 for position dims */
    /* The tuple's coordinates address these input dims. */
    uint32_t coord_sizes[EDMLI_MAX_DIMS];
    uint32_t coord_strides[EDMLI_MAX_DIMS];
    uint32_t coord_dims[EDMLI_MAX_DIMS]; /* input dim number, for messages */
    uint32_t tuple_stride;               /* indices stride between coordinates */
    /* The copied slice: the input dims after the tuple's. */
    uint32_t slice_rank;
    uint32_t slice_sizes[EDMLI_MAX_DIMS];
    uint32_t slice_in_strides[EDMLI_MAX_DIMS];
    uint32_t slice_out_strides[EDMLI_MAX_DIMS];
} edmli_gather_nd_plan;

typedef struct edmli_argreduce_plan {
    bool is_max;
    EDML_AXIS_DIRECTION direction;
    uint32_t axis_mask;    /* bit d set: input dim d is reduced */
    uint64_t reduce_count; /* elements in each reduced set */
    /* The input and output as the NEON kernels walk them: the same data,
     * size-1 dims dropped, kept dims ordered by input stride among the
     * reduced ones (whose order, and so every index, is the descriptor's),
     * neighbours contiguous in the input (and, kept, in the output) merged. */
    edmli_tensor in, out;
    uint32_t mask; /* bit d set: dim d of `in` is reduced */
} edmli_argreduce_plan;

typedef struct edmli_elementwise_if_plan {
    /* Dims coalesced where all four tensors are contiguous together. */
    uint32_t rank;
    uint32_t sizes[EDMLI_MAX_DIMS];
    uint32_t strides[4][EDMLI_MAX_DIMS]; /* condition, A, B, output */
} edmli_elementwise_if_plan;

#endif /* EDMLI_OPS_H */
