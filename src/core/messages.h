/* Every message the library gives, in one list: each is
 *   #define EDMLI_MSG_<ID> EDML_STATUS_<status>, "format"
 * and is given as edmli_fail(errbuf, EDMLI_MSG_<ID>, arguments...), which
 * the compiler checks against the format like printf's. Formats take %s %u
 * %d %x %llu %lld %zu. Messages name DirectML's members. */
#ifndef EDMLI_MESSAGES_H
#define EDMLI_MESSAGES_H

/* arguments and objects */
#define EDMLI_MSG_NULL_ARGUMENT EDML_STATUS_INVALID_ARGUMENT, "%s is NULL"
#define EDMLI_MSG_OBJECT_DESTROYED EDML_STATUS_INVALID_HANDLE, "%s was destroyed"
#define EDMLI_MSG_OBJECT_STALE \
    EDML_STATUS_INVALID_HANDLE, "%s was destroyed: its handle is stale (a newer object took its place in the arena)"
#define EDMLI_MSG_OBJECT_FOREIGN \
    EDML_STATUS_INVALID_HANDLE, "%s is not one of this device's (another device's, or not an edml handle)"
#define EDMLI_MSG_DEVICE_LIVE     \
    EDML_STATUS_INVALID_ARGUMENT, \
        "the arena holds a live device (created there and not destroyed): destroy it with edml_device_destroy() first"
#define EDMLI_MSG_ARENA_ADDRESS \
    EDML_STATUS_UNSUPPORTED, "the arena reaches above 2^%u: edml's handles keep a generation in the bits above it"
#define EDMLI_MSG_ARENA_MISALIGNED EDML_STATUS_INVALID_ARGUMENT, "the arena must be aligned to 16 bytes"
#define EDMLI_MSG_ARENA_TOO_SMALL EDML_STATUS_ARENA_TOO_SMALL, "%s needs %zu bytes of arena, %zu available: %zu missing"
#define EDMLI_MSG_GPU_ARENA_TOO_SMALL \
    EDML_STATUS_ARENA_TOO_SMALL, "%s needs %llu bytes of the GPU arena, %llu available: %llu missing (%s)"
#define EDMLI_MSG_GPU_ARENA_RANGE \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.gpu_arena_bytes is %llu, expected 0 (the default) or at least %u"
#define EDMLI_MSG_DEVICE_BACKENDS \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.backends is 0x%x: no backend of it is built in (built: 0x%x)"
#define EDMLI_MSG_COST_TERM EDML_STATUS_INVALID_ARGUMENT, "%s[%u].%s %s"
#define EDMLI_MSG_WORKERS_RANGE \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.workers is %u, expected 0 (the board's cores) to %u"
#define EDMLI_MSG_WORKERS_NO_FOR  \
    EDML_STATUS_INVALID_ARGUMENT, \
        "edml_device_desc.workers is %u but parallel_for is NULL: give a parallel-for, or leave workers 0"
#define EDMLI_MSG_BACKEND_UNKNOWN EDML_STATUS_INVALID_ARGUMENT, "backend is %u, not an edml_backend"
#define EDMLI_MSG_SCRATCH_ADDRESS_SPACE \
    EDML_STATUS_UNSUPPORTED,            \
        "%s on %s needs %llu bytes of scratch (TemporaryResourceSize), more than a %u-bit address space holds"
#define EDMLI_MSG_NO_GPU_BUFFERS EDML_STATUS_BACKEND_UNAVAILABLE, "this library has no backend that keeps GPU buffers"
#define EDMLI_MSG_BACKEND_UNAVAILABLE EDML_STATUS_BACKEND_UNAVAILABLE, "backend %s is not available on this device: %s"
#define EDMLI_MSG_OPERATOR_TYPE EDML_STATUS_UNSUPPORTED, "EDML_OPERATOR_DESC.Type is %u: edml implements%s"
#define EDMLI_MSG_OPERATOR_DESC_NULL EDML_STATUS_INVALID_DESCRIPTOR, "EDML_OPERATOR_DESC.Desc is NULL"

/* tensors */
#define EDMLI_MSG_TENSOR_NULL EDML_STATUS_INVALID_DESCRIPTOR, "%s is NULL"
#define EDMLI_MSG_TENSOR_TYPE EDML_STATUS_INVALID_DESCRIPTOR, "%s.Type is %u, expected EDML_TENSOR_TYPE_BUFFER (1)"
#define EDMLI_MSG_TENSOR_DESC_NULL EDML_STATUS_INVALID_DESCRIPTOR, "%s.Desc is NULL"
#define EDMLI_MSG_TENSOR_DTYPE EDML_STATUS_INVALID_DESCRIPTOR, "%s.DataType is %u, not a tensor data type"
#define EDMLI_MSG_TENSOR_FLAGS EDML_STATUS_UNSUPPORTED, "%s.Flags is 0x%x: only EDML_TENSOR_FLAG_NONE is supported"
#define EDMLI_MSG_TENSOR_RANK EDML_STATUS_INVALID_DESCRIPTOR, "%s.DimensionCount is %u, expected 1 to 8"
#define EDMLI_MSG_TENSOR_SIZES_NULL EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes is NULL"
#define EDMLI_MSG_TENSOR_SIZE_ZERO EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes[%u] is 0, expected at least 1"
#define EDMLI_MSG_TENSOR_TOO_MANY EDML_STATUS_INVALID_DESCRIPTOR, "%s has %llu elements, at most 4294967295 are allowed"
#define EDMLI_MSG_TENSOR_TOTAL_SMALL \
    EDML_STATUS_INVALID_DESCRIPTOR,  \
        "%s.TotalTensorSizeInBytes is %llu, expected at least %llu (DMLCalcBufferTensorSize)"
#define EDMLI_MSG_TENSOR_ALIGNMENT  \
    EDML_STATUS_INVALID_DESCRIPTOR, \
        "%s.GuaranteedBaseOffsetAlignment is %u, expected 0 or a power of two of at least %u"
#define EDMLI_MSG_OUTPUT_ZERO_STRIDE                                                                               \
    EDML_STATUS_INVALID_DESCRIPTOR, "%s.Strides[%u] is 0 with Sizes[%u] = %u: an output element would be written " \
                                    "twice"
#define EDMLI_MSG_OUTPUT_ALIASED    \
    EDML_STATUS_INVALID_DESCRIPTOR, \
        "%s.Strides place two elements at one address: an output element would be written twice"

/* constraints between members */
#define EDMLI_MSG_RANK_MISMATCH \
    EDML_STATUS_INVALID_DESCRIPTOR, "%s.DimensionCount is %u, expected %s.DimensionCount = %u"
#define EDMLI_MSG_DTYPE_MISMATCH EDML_STATUS_INVALID_DESCRIPTOR, "%s.DataType is %s, expected %s.DataType = %s"
#define EDMLI_MSG_DTYPE_NOT_ALLOWED EDML_STATUS_INVALID_DESCRIPTOR, "%s.DataType is %s, expected %s"
#define EDMLI_MSG_SIZE_NOT_K EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected K = %u"
#define EDMLI_MSG_SIZE_MISMATCH EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected %s.Sizes[%u] = %u"
#define EDMLI_MSG_IF_BROADCAST                                                                                        \
    EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes[%u] is 1, expected %u as %s.Sizes[%u]: the four tensors have the same " \
                                    "Sizes; to broadcast %s, give it Sizes[%u] = %u and Strides[%u] = 0"
#define EDMLI_MSG_AXIS_RANGE \
    EDML_STATUS_INVALID_DESCRIPTOR, "Axis is %u, expected less than InputTensor.DimensionCount = %u"
#define EDMLI_MSG_K_ZERO EDML_STATUS_INVALID_DESCRIPTOR, "K is 0, expected at least 1"
#define EDMLI_MSG_K_TOO_LARGE EDML_STATUS_INVALID_DESCRIPTOR, "K is %u, expected at most InputTensor.Sizes[%u] = %u"
#define EDMLI_MSG_DIRECTION         \
    EDML_STATUS_INVALID_DESCRIPTOR, \
        "AxisDirection is %u, expected EDML_AXIS_DIRECTION_INCREASING (0) or EDML_AXIS_DIRECTION_DECREASING (1)"
#define EDMLI_MSG_AXES_COUNT \
    EDML_STATUS_INVALID_DESCRIPTOR, "AxisCount is %u, expected 1 to InputTensor.DimensionCount = %u"
#define EDMLI_MSG_AXES_NULL EDML_STATUS_INVALID_DESCRIPTOR, "Axes is NULL with AxisCount = %u"
#define EDMLI_MSG_AXES_RANGE \
    EDML_STATUS_INVALID_DESCRIPTOR, "Axes[%u] is %u, expected less than InputTensor.DimensionCount = %u"
#define EDMLI_MSG_AXES_REPEAT EDML_STATUS_INVALID_DESCRIPTOR, "Axes[%u] is %u, which Axes[%u] names already"
#define EDMLI_MSG_REDUCED_SIZE \
    EDML_STATUS_INVALID_DESCRIPTOR, "OutputTensor.Sizes[%u] is %u, expected 1 (axis %u is reduced)"
#define EDMLI_MSG_INDEX_TYPE_RANGE \
    EDML_STATUS_INVALID_DESCRIPTOR, "%s.DataType is INT32 but an index can reach %llu, more than INT32 holds"
#define EDMLI_MSG_GATHER_DIMCOUNT EDML_STATUS_INVALID_DESCRIPTOR, "%s is %u, expected 1 to %s.DimensionCount = %u"
#define EDMLI_MSG_GATHER_LEADING                                                                               \
    EDML_STATUS_INVALID_DESCRIPTOR, "%s.Sizes[%u] is %u, expected 1: it lies before the last %u (meaningful) " \
                                    "dimensions"
#define EDMLI_MSG_GATHER_BATCH      \
    EDML_STATUS_INVALID_DESCRIPTOR, \
        "BatchDimensionCount is %u, expected less than min(InputDimensionCount, IndicesDimensionCount) = %u"
#define EDMLI_MSG_GATHER_TUPLE                                                                             \
    EDML_STATUS_INVALID_DESCRIPTOR, "IndicesTensor.Sizes[%u] (the index tuple size) is %u, expected 1 to " \
                                    "InputDimensionCount - BatchDimensionCount = %u"
#define EDMLI_MSG_GATHER_OUT_RANK   \
    EDML_STATUS_INVALID_DESCRIPTOR, \
        "OutputTensor needs %u dimensions (batch, index positions, input slice), more than its DimensionCount = %u"
#define EDMLI_MSG_GATHER_OUT_SIZE EDML_STATUS_INVALID_DESCRIPTOR, "OutputTensor.Sizes[%u] is %u, expected %u (%s)"

/* bindings */
/* command lists */
#define EDMLI_MSG_LIST_CAPACITY EDML_STATUS_INVALID_ARGUMENT, "capacity is %u, expected 1 to %u executions"
#define EDMLI_MSG_LIST_FULL                                                                                   \
    EDML_STATUS_INVALID_ARGUMENT, "the command list is full: it holds %u executions (its capacity; create a " \
                                  "larger one, or edml_command_list_reset() it)"
#define EDMLI_MSG_LIST_SUBMITTED                                                               \
    EDML_STATUS_BUSY, "%s: the command list is submitted and its outcome not yet taken: call " \
                      "edml_command_list_wait() first"
#define EDMLI_MSG_LIST_RUNNING                                                                                  \
    EDML_STATUS_TIMEOUT, "edml_command_list_wait: the command list is still running after %llu ns: wait again " \
                         "(its outputs are not all written yet)"
#define EDMLI_MSG_LIST_NOT_SUBMITTED \
    EDML_STATUS_INVALID_ARGUMENT, "edml_command_list_wait: the command list is not submitted"
#define EDMLI_MSG_BIND_COUNT EDML_STATUS_INVALID_BINDING, "%s is %u, expected %u for this operator"
#define EDMLI_MSG_BIND_NULL EDML_STATUS_INVALID_BINDING, "binding of %s: Buffer is NULL"
#define EDMLI_MSG_BIND_ALIGN EDML_STATUS_INVALID_BINDING, "binding of %s: Buffer + Offset is not aligned to %u bytes"
#define EDMLI_MSG_BIND_SIZE \
    EDML_STATUS_INVALID_BINDING, "binding of %s: SizeInBytes is %llu, expected at least TotalTensorSizeInBytes = %llu"
#define EDMLI_MSG_BIND_WRAP \
    EDML_STATUS_INVALID_BINDING, "binding of %s: Buffer + Offset + SizeInBytes wraps around the address space"
#define EDMLI_MSG_BIND_OVERLAP EDML_STATUS_INVALID_BINDING, "binding of %s overlaps the binding of %s"
#define EDMLI_MSG_TEMP_SMALL     \
    EDML_STATUS_INVALID_BINDING, \
        "temporary binding: SizeInBytes is %llu, expected at least TemporaryResourceSize = %llu"
#define EDMLI_MSG_TEMP_GPU                                                                                            \
    EDML_STATUS_INVALID_BINDING, "temporary binding: Offset %llu has EDML_GPU_BINDING_BIT (a GPU buffer's binding), " \
                                 "but the temporary binding is host memory"
#define EDMLI_MSG_BIND_ARENA                                                                                         \
    EDML_STATUS_INVALID_BINDING, "binding of %s lies inside the device arena, which is edml's own memory (bind GPU " \
                                 "buffers with edml_gpu_binding())"
#define EDMLI_MSG_GPU_VIEW_SPAN                                                                                \
    EDML_STATUS_INVALID_BINDING, "the GPU buffers bound span %llu bytes of the GPU arena, more than a %u-bit " \
                                 "address space can map for the CPU"
#define EDMLI_MSG_BIND_GPU_RANGE \
    EDML_STATUS_INVALID_BINDING, \
        "binding of %s: Offset %llu + TotalTensorSizeInBytes %llu does not fit the GPU buffer of %llu bytes"
#define EDMLI_MSG_GPU_RANGE \
    EDML_STATUS_INVALID_ARGUMENT, "%s of %llu bytes at %llu is outside the GPU buffer of %llu bytes"
#define EDMLI_MSG_GPU_BUFFER_EMPTY EDML_STATUS_INVALID_ARGUMENT, "bytes is 0, expected at least 1"
#define EDMLI_MSG_TENSOR_ADDRESS_SPACE \
    EDML_STATUS_UNSUPPORTED,           \
        "%s.TotalTensorSizeInBytes is %llu, more than a %u-bit address space holds: it could never be bound"
#define EDMLI_MSG_GPU_MAPPED                                                                                         \
    EDML_STATUS_BUSY, "a GPU buffer of this device is mapped, and without a persistent mapping the GPU may not run " \
                      "while it is: edml_gpu_buffer_unmap() it first (or set edml_device_desc.gpu_arena_mapped)"
#define EDMLI_MSG_GPU_MAP_TWICE EDML_STATUS_INVALID_ARGUMENT, "the GPU buffer is mapped already"
#define EDMLI_MSG_GPU_NOT_MAPPED EDML_STATUS_INVALID_ARGUMENT, "the GPU buffer is not mapped"
#define EDMLI_MSG_GPU_COPY_ALIGN EDML_STATUS_INVALID_ARGUMENT, "a copy's offsets and size must be multiples of 4"

/* data */
#define EDMLI_MSG_INDEX_OOR_SIGNED                                                                                     \
    EDML_STATUS_INDEX_OUT_OF_RANGE, "IndicesTensor element %llu (coordinate %u of its tuple) is %lld, outside [%lld, " \
                                    "%u] for InputTensor.Sizes[%u]: clamped; %llu index coordinates were out of range"
#define EDMLI_MSG_INDEX_OOR_UNSIGNED                                                                                \
    EDML_STATUS_INDEX_OUT_OF_RANGE, "IndicesTensor element %llu (coordinate %u of its tuple) is %llu, outside [0, " \
                                    "%u] for InputTensor.Sizes[%u]: clamped; %llu index coordinates were out of range"
#define EDMLI_MSG_INDEX_OOR_RESIDENT EDML_STATUS_INDEX_OUT_OF_RANGE, "IndicesTensor (in a GPU buffer): %s"
#define EDMLI_MSG_BACKEND_FAILED EDML_STATUS_BACKEND_FAILED, "backend %s failed: %s"
#define EDMLI_MSG_CACHE_IN_ARENA                                                                                       \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.program_cache (%llu bytes) overlaps the device arena (%llu "       \
                                  "bytes): the device would write program binaries over its own objects; give memory " \
                                  "of its own"
#define EDMLI_MSG_CACHE_WRAPS \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.program_cache_bytes is %llu: past the end of the address space"
#define EDMLI_MSG_PLACE_CACHE_IN_ARENA                                                                         \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.placement_cache (%llu bytes) overlaps the device arena "   \
                                  "(%llu bytes): the device would write decisions over its own objects; give " \
                                  "memory of its own"
#define EDMLI_MSG_PLACE_CACHE_IN_PROGRAMS                                                                  \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.placement_cache (%llu bytes) overlaps program_cache: " \
                                  "each cache needs memory of its own"
#define EDMLI_MSG_PLACEMENT_MODE                                                                      \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.placement is %u: EDML_PLACEMENT_THRESHOLDS (0), " \
                                  "EDML_PLACEMENT_MEASURE (1) or EDML_PLACEMENT_SAVED (2)"
#define EDMLI_MSG_PLACE_CACHE_WRAPS \
    EDML_STATUS_INVALID_ARGUMENT, "edml_device_desc.placement_cache_bytes is %llu: past the end of the address space"
#define EDMLI_MSG_NOT_READY_SHORT \
    EDML_STATUS_ARENA_TOO_SMALL, "backend %s cannot run it yet: %s; nothing runs a kernel that was not checked"
#define EDMLI_MSG_NOT_READY_MAPPED \
    EDML_STATUS_BUSY, "backend %s cannot run it yet: %s; nothing runs a kernel that was not checked"
#define EDMLI_MSG_GLES_LOST \
    EDML_STATUS_BACKEND_FAILED, "backend gles is off on this device: %s; create the device again to use the GPU"
#define EDMLI_MSG_PARALLEL_SHORT                                                                \
    EDML_STATUS_BACKEND_FAILED,                                                                 \
        "edml_device_desc.parallel_for ran %u of the %u parts it was given (%u calls not run: " \
        "a part or worker out of range, below %u workers, or a worker already busy): the "      \
        "outputs may be partly written"

#endif /* EDMLI_MESSAGES_H */
