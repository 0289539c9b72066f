/* Every message the library can give, in one X-macro list:
 * X(ID, status, format). Formats take %s %u %d %x %llu %lld %zu. */
#ifndef EDMLI_MESSAGES_H
#define EDMLI_MESSAGES_H

#define EDMLI_MESSAGES(X) \
    /* arguments and objects */ \
    X(NULL_ARGUMENT, INVALID_ARGUMENT, "%s is NULL") \
    X(OBJECT_DESTROYED, INVALID_DEVICE, "%s was destroyed") \
    X(OBJECT_STALE, INVALID_DEVICE, "%s was destroyed: its handle is stale (a newer object took its place in the arena)") \
    X(OBJECT_FOREIGN, INVALID_DEVICE, "%s is not one of this device's (another device's, or not an edml handle)") \
    X(DEVICE_LIVE, INVALID_ARGUMENT, "the arena holds a live device (created there and not destroyed): destroy it with edml_device_destroy() first") \
    X(ARENA_MISALIGNED, INVALID_ARGUMENT, "the arena must be aligned to 16 bytes") \
    X(ARENA_TOO_SMALL, ARENA_TOO_SMALL, "%s needs %zu bytes of arena, %zu available: %zu missing") \
    X(GPU_ARENA_TOO_SMALL, ARENA_TOO_SMALL, "%s needs %llu bytes of the GPU arena (edml_device_desc.gpu_arena_bytes), %llu available: %llu missing") \
    X(DEVICE_BACKENDS, INVALID_ARGUMENT, "edml_device_desc.backends is 0x%x: no backend of it is built in (built: 0x%x)") \
    X(BACKEND_UNKNOWN, INVALID_ARGUMENT, "backend is %u, not an edml_backend") \
    X(SCRATCH_ADDRESS_SPACE, UNSUPPORTED, "%s on %s needs %llu bytes of scratch (TemporaryResourceSize), more than a %u-bit address space holds") \
    X(BACKEND_UNAVAILABLE, BACKEND_UNAVAILABLE, "backend %s is not available on this device: %s") \
    X(OPERATOR_TYPE, UNSUPPORTED, "EDML_OPERATOR_DESC.Type is %u: edml implements TOP_K, TOP_K1, GATHER_ND, GATHER_ND1, ARGMIN, ARGMAX and ELEMENT_WISE_IF") \
    X(OPERATOR_DESC_NULL, INVALID_DESCRIPTOR, "EDML_OPERATOR_DESC.Desc is NULL") \
    /* tensors */ \
    X(TENSOR_NULL, INVALID_DESCRIPTOR, "%s is NULL") \
    X(TENSOR_TYPE, INVALID_DESCRIPTOR, "%s.Type is %u, expected EDML_TENSOR_TYPE_BUFFER (1)") \
    X(TENSOR_DESC_NULL, INVALID_DESCRIPTOR, "%s.Desc is NULL") \
    X(TENSOR_DTYPE, INVALID_DESCRIPTOR, "%s.DataType is %u, not a tensor data type") \
    X(TENSOR_FLAGS, UNSUPPORTED, "%s.Flags is 0x%x: only EDML_TENSOR_FLAG_NONE is supported") \
    X(TENSOR_RANK, INVALID_DESCRIPTOR, "%s.DimensionCount is %u, expected 1 to 8") \
    X(TENSOR_SIZES_NULL, INVALID_DESCRIPTOR, "%s.Sizes is NULL") \
    X(TENSOR_SIZE_ZERO, INVALID_DESCRIPTOR, "%s.Sizes[%u] is 0, expected at least 1") \
    X(TENSOR_TOO_MANY, INVALID_DESCRIPTOR, "%s has %llu elements, at most 4294967295 are allowed") \
    X(TENSOR_TOTAL_SMALL, INVALID_DESCRIPTOR, "%s.TotalTensorSizeInBytes is %llu, expected at least %llu (DMLCalcBufferTensorSize)") \
    X(TENSOR_ALIGNMENT, INVALID_DESCRIPTOR, "%s.GuaranteedBaseOffsetAlignment is %u, expected 0 or a power of two of at least %u") \
    X(OUTPUT_ZERO_STRIDE, INVALID_DESCRIPTOR, "%s.Strides[%u] is 0 with Sizes[%u] = %u: an output element would be written twice") \
    X(OUTPUT_ALIASED, INVALID_DESCRIPTOR, "%s.Strides place two elements at one address: an output element would be written twice") \
    /* constraints between members */ \
    X(RANK_MISMATCH, INVALID_DESCRIPTOR, "%s.DimensionCount is %u, expected %s.DimensionCount = %u") \
    X(DTYPE_MISMATCH, INVALID_DESCRIPTOR, "%s.DataType is %s, expected %s.DataType = %s") \
    X(DTYPE_NOT_ALLOWED, INVALID_DESCRIPTOR, "%s.DataType is %s, expected %s") \
    X(SIZE_NOT_K, INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected K = %u") \
    X(SIZE_MISMATCH, INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected %s.Sizes[%u] = %u") \
    X(IF_BROADCAST, INVALID_DESCRIPTOR, "%s.Sizes[%u] is 1, expected %u as %s.Sizes[%u]: the four tensors have the same Sizes; to broadcast %s, give it Sizes[%u] = %u and Strides[%u] = 0") \
    X(AXIS_RANGE, INVALID_DESCRIPTOR, "Axis is %u, expected less than InputTensor.DimensionCount = %u") \
    X(K_ZERO, INVALID_DESCRIPTOR, "K is 0, expected at least 1") \
    X(K_TOO_LARGE, INVALID_DESCRIPTOR, "K is %u, expected at most InputTensor.Sizes[%u] = %u") \
    X(DIRECTION, INVALID_DESCRIPTOR, "AxisDirection is %u, expected EDML_AXIS_DIRECTION_INCREASING (0) or EDML_AXIS_DIRECTION_DECREASING (1)") \
    X(AXES_COUNT, INVALID_DESCRIPTOR, "AxisCount is %u, expected 1 to InputTensor.DimensionCount = %u") \
    X(AXES_NULL, INVALID_DESCRIPTOR, "Axes is NULL with AxisCount = %u") \
    X(AXES_RANGE, INVALID_DESCRIPTOR, "Axes[%u] is %u, expected less than InputTensor.DimensionCount = %u") \
    X(AXES_REPEAT, INVALID_DESCRIPTOR, "Axes[%u] is %u, which Axes[%u] names already") \
    X(REDUCED_SIZE, INVALID_DESCRIPTOR, "OutputTensor.Sizes[%u] is %u, expected 1 (axis %u is reduced)") \
    X(INDEX_TYPE_RANGE, INVALID_DESCRIPTOR, "%s.DataType is INT32 but an index can reach %llu, more than INT32 holds") \
    X(GATHER_DIMCOUNT, INVALID_DESCRIPTOR, "%s is %u, expected 1 to %s.DimensionCount = %u") \
    X(GATHER_LEADING, INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected 1: it lies before the last %u (meaningful) dimensions") \
    X(GATHER_BATCH, INVALID_DESCRIPTOR, "BatchDimensionCount is %u, expected less than min(InputDimensionCount, IndicesDimensionCount) = %u") \
    X(GATHER_TUPLE, INVALID_DESCRIPTOR, "IndicesTensor.Sizes[%u] (the index tuple size) is %u, expected 1 to InputDimensionCount - BatchDimensionCount = %u") \
    X(GATHER_OUT_RANK, INVALID_DESCRIPTOR, "OutputTensor needs %u dimensions (batch, index positions, input slice), more than its DimensionCount = %u") \
    X(GATHER_OUT_SIZE, INVALID_DESCRIPTOR, "OutputTensor.Sizes[%u] is %u, expected %u (%s)") \
    /* bindings */ \
    X(BIND_COUNT, INVALID_BINDING, "%s is %u, expected %u for this operator") \
    X(BIND_NULL, INVALID_BINDING, "binding of %s: Buffer is NULL") \
    X(BIND_ALIGN, INVALID_BINDING, "binding of %s: Buffer + Offset is not aligned to %u bytes") \
    X(BIND_SIZE, INVALID_BINDING, "binding of %s: SizeInBytes is %llu, expected at least TotalTensorSizeInBytes = %llu") \
    X(BIND_WRAP, INVALID_BINDING, "binding of %s: Buffer + Offset + SizeInBytes wraps around the address space") \
    X(BIND_OVERLAP, INVALID_BINDING, "binding of %s overlaps the binding of %s") \
    X(TEMP_SMALL, INVALID_BINDING, "temporary binding: SizeInBytes is %llu, expected at least TemporaryResourceSize = %llu") \
    X(TEMP_GPU, INVALID_BINDING, "temporary binding: Offset %llu has EDML_GPU_BINDING_BIT (a GPU buffer's binding), but the temporary binding is host memory") \
    X(BIND_ARENA, INVALID_BINDING, "binding of %s lies inside the device arena, which is edml's own memory (bind GPU buffers with edml_gpu_binding())") \
    X(BIND_GPU_CPU, INVALID_BINDING, "binding of %s is a GPU buffer, but the operator runs on %s (GPU buffers need gles)") \
    X(BIND_GPU_RANGE, INVALID_BINDING, "binding of %s: Offset %llu + TotalTensorSizeInBytes %llu does not fit the GPU buffer of %llu bytes") \
    X(GPU_RANGE, INVALID_ARGUMENT, "%s of %llu bytes at %llu is outside the GPU buffer of %llu bytes") \
    X(GPU_COPY_ALIGN, INVALID_ARGUMENT, "a copy's offsets and size must be multiples of 4") \
    /* data */ \
    X(INDEX_OOR_SIGNED, INDEX_OUT_OF_RANGE, "IndicesTensor element %llu (coordinate %u of its tuple) is %lld, outside [%lld, %u] for InputTensor.Sizes[%u]: clamped; %llu index coordinates were out of range") \
    X(INDEX_OOR_UNSIGNED, INDEX_OUT_OF_RANGE, "IndicesTensor element %llu (coordinate %u of its tuple) is %llu, outside [0, %u] for InputTensor.Sizes[%u]: clamped; %llu index coordinates were out of range") \
    X(INDEX_OOR_RESIDENT, INDEX_OUT_OF_RANGE, "IndicesTensor (in a GPU buffer): %s") \
    X(BACKEND_FAILED, BACKEND_FAILED, "backend %s failed: %s")

typedef enum edmli_msg_id {
#define EDMLI_MSG_ENUM(id, status, fmt) EDMLI_MSG_##id,
    EDMLI_MESSAGES(EDMLI_MSG_ENUM)
#undef EDMLI_MSG_ENUM
    EDMLI_MSG_COUNT
} edmli_msg_id;

#endif /* EDMLI_MESSAGES_H */
