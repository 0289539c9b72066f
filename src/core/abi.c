/* The layouts that mirror DirectML's, checked at compile time: a DirectML
 * program's descriptors port by renaming, so their members sit where
 * DirectML's do (on LP64 and ILP32 alike). */
#include "internal.h"

#include <stddef.h>

#define EDMLI_PTR ((size_t)sizeof(void *))
_Static_assert(sizeof(EDML_TENSOR_DATA_TYPE) == 4 && sizeof(EDML_OPERATOR_TYPE) == 4 &&
                   sizeof(EDML_AXIS_DIRECTION) == 4,
               "enums are 32-bit, as in DirectML");
_Static_assert(offsetof(EDML_BUFFER_TENSOR_DESC, Flags) == 4 && offsetof(EDML_BUFFER_TENSOR_DESC, DimensionCount) == 8,
               "DML_BUFFER_TENSOR_DESC head");
_Static_assert(offsetof(EDML_BUFFER_TENSOR_DESC, Sizes) == (EDMLI_PTR == 8 ? 16 : 12), "DML_BUFFER_TENSOR_DESC.Sizes");
_Static_assert(offsetof(EDML_BUFFER_TENSOR_DESC, Strides) == (EDMLI_PTR == 8 ? 24 : 16),
               "DML_BUFFER_TENSOR_DESC.Strides");
_Static_assert(offsetof(EDML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == (EDMLI_PTR == 8 ? 32 : 24),
               "DML_BUFFER_TENSOR_DESC.TotalTensorSizeInBytes");
_Static_assert(offsetof(EDML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment) == (EDMLI_PTR == 8 ? 40 : 32),
               "DML_BUFFER_TENSOR_DESC.GuaranteedBaseOffsetAlignment");
_Static_assert(offsetof(EDML_TENSOR_DESC, Desc) == EDMLI_PTR, "DML_TENSOR_DESC");
_Static_assert(offsetof(EDML_OPERATOR_DESC, Desc) == EDMLI_PTR, "DML_OPERATOR_DESC");
_Static_assert(offsetof(EDML_TOP_K1_OPERATOR_DESC, Axis) == 3 * EDMLI_PTR &&
                   offsetof(EDML_TOP_K1_OPERATOR_DESC, AxisDirection) == 3 * EDMLI_PTR + 8,
               "DML_TOP_K1_OPERATOR_DESC");
_Static_assert(offsetof(EDML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount) == 3 * EDMLI_PTR + 8,
               "DML_GATHER_ND1_OPERATOR_DESC");
_Static_assert(offsetof(EDML_ARGMIN_OPERATOR_DESC, Axes) == (EDMLI_PTR == 8 ? 24 : 12) &&
                   offsetof(EDML_ARGMIN_OPERATOR_DESC, AxisDirection) == (EDMLI_PTR == 8 ? 32 : 16),
               "DML_ARGMIN_OPERATOR_DESC");
_Static_assert(offsetof(EDML_ELEMENT_WISE_IF_OPERATOR_DESC, OutputTensor) == 3 * EDMLI_PTR,
               "DML_ELEMENT_WISE_IF_OPERATOR_DESC");
_Static_assert(offsetof(EDML_BUFFER_BINDING, Offset) == 8 && offsetof(EDML_BUFFER_BINDING, SizeInBytes) == 16 &&
                   sizeof(EDML_BUFFER_BINDING) == 24,
               "DML_BUFFER_BINDING");
_Static_assert(offsetof(EDML_BINDING_PROPERTIES, TemporaryResourceSize) == 8, "DML_BINDING_PROPERTIES");
