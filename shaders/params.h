/* The GPU kernels' parameters, by name: one struct per kernel family, each
 * a list of its members. In C (src/gles/gles.h) the lists become structs,
 * which the dispatchers fill; for GLSL the GLES backend writes, before each
 * kernel, an accessor per member of that kernel's struct into the words of
 * the parameter block: prm_<member> for a word, prm_<member>(i) for an array
 * element, prm_<member>_<sub> down nested structs, and PRM_<MEMBER> (a word
 * offset) for a nested struct that shared helpers take (see
 * src/gles/gles_params.c). The block is a uniform block of the struct's
 * 16-byte vectors, read a word at a time (prm_word(i)), so that a member
 * read with a constant index is an operand of the instruction, not a load.
 *
 * A list is X(word, array, nested, nested_array) with
 *   word(name)                   a 32-bit word
 *   array(name, count)           count words
 *   nested(type, name)           a struct edmli_<type>_prm
 *   nested_array(type, name, n)  n of them (their members words only)
 * Every member is a 32-bit word, so std430 lays a block out as C does.
 * A member whose name ends in `offset` is a binding: a byte offset in the
 * GPU arena, which changes between executions. The block holds its index
 * and the dispatch sets the offset as the uniform u_bind[index], so that
 * the rest of a block depends on the operator alone. */
#ifndef EDMLI_GLES_PARAMS_H
#define EDMLI_GLES_PARAMS_H

#define EDMLI_PRM_DIMS 8   /* EDML_TENSOR_DIMENSION_COUNT_MAX */

/* A tensor in the GPU arena: byte offset, DirectML data type, element size,
 * rank, sizes and strides (in elements). */
#define EDMLI_PRM_TENSOR(W, A, S, SA) \
    W(offset) W(dtype) W(elem_size) W(rank) A(sizes, EDMLI_PRM_DIMS) A(strides, EDMLI_PRM_DIMS)

/* An output written unit by unit (shaders/output.glsl): the tensor; its dims
 * of size > 1 sorted by falling stride, to map a word's slots back to
 * elements; dense (packed: no mapping needed); its elements. */
#define EDMLI_PRM_OUTPUT(W, A, S, SA) \
    S(tensor, t) W(order_count) A(order, EDMLI_PRM_DIMS) W(dense) W(elements)

/* Dims walked by an odometer: count, sizes, strides (in data elements). */
#define EDMLI_PRM_DIMS_WALK(W, A, S, SA) W(count) A(sizes, EDMLI_PRM_DIMS) A(strides, EDMLI_PRM_DIMS)

/* shaders/copy.comp: byte offsets; vectors: 16 bytes an invocation. */
#define EDMLI_PRM_COPY(W, A, S, SA) W(src_offset) W(dst_offset) W(vectors)

/* shaders/elementwise_if.comp, over the core's coalesced dims. vectors: 16
 * bytes an invocation (see the shader); cond_period: the condition repeats
 * with this period (strides {0, 1}), 0 when packed. */
#define EDMLI_PRM_ELEMENTWISE_IF(W, A, S, SA) \
    S(tensor, cond) S(tensor, a) S(tensor, b) S(output, result) W(vectors) W(cond_period)

/* One dim of GatherND's walk over the output: its size, strides in the
 * indices and the data, kind (0 batch, 1 index position, 2 slice). */
#define EDMLI_PRM_GATHER_DIM(W, A, S, SA) W(size) W(indices_stride) W(data_stride) W(kind)

/* shaders/gather_nd.comp: the walk; T coordinates a tuple (tuple, and
 * tuple_stride between them in the indices), each's size and data stride;
 * status_offset: where (clamped count, first clamped element) go; elements
 * a slice; vectors: 16 bytes an invocation (whole aligned slices). */
#define EDMLI_PRM_GATHER_ND(W, A, S, SA)                                                           \
    S(tensor, data) S(tensor, indices) S(output, result) W(dim_count) SA(gather_dim, dims, EDMLI_PRM_DIMS) \
    W(tuple) W(tuple_stride) A(coord_sizes, EDMLI_PRM_DIMS) A(coord_strides, EDMLI_PRM_DIMS)        \
    W(status_offset) W(slice_elements) W(vectors)

/* shaders/argreduce*.comp, ArgMin and ArgMax (each kernel says which members
 * it reads): the reduced dims, the kept ones (an output's set starts at
 * their offset); keep_last: the last of equals (DECREASING); the chunks a
 * set is cut into and their results' byte offset; dense: a set is one
 * packed run; pairs: (output, chunk) pairs; group_threads: threads a pair or
 * a unit; vectors, four_outputs, merge_threads: the partial, the strided and
 * the final kernel's; counter_offset: chunk counters (zero before the
 * pass); units, batches, unit_groups: argreduce_cols's shape. */
#define EDMLI_PRM_ARGREDUCE(W, A, S, SA)                                                              \
    S(tensor, data) S(output, result) S(dims_walk, reduced) S(dims_walk, kept) W(is_max) W(keep_last) \
    W(set_elements) W(chunks) W(chunk_elements) W(scratch_offset) W(dense) W(outputs) W(pairs)        \
    W(group_threads) W(vectors) W(four_outputs) W(merge_threads) W(counter_offset) W(units) W(batches) \
    W(unit_groups)

/* shaders/topk_select.comp and topk_thread.comp: the dims but the axis (a
 * row starts at their offset); each row's K winning indices at
 * winners_offset; wide_keys: 64-bit keys; topk_select's rows_per_group:
 * short rows sorted side by side in a workgroup (1: a workgroup a row);
 * topk_thread's passes: fold_pass (0 the first), chunks (lists a row) of
 * chunk_elements, lists_offset (written by the first pass, read by the
 * fold). */
#define EDMLI_PRM_TOPK(W, A, S, SA)                                                                       \
    S(tensor, data) S(dims_walk, kept) W(axis_size) W(axis_stride) W(k) W(increasing) W(winners_offset)    \
    W(wide_keys) W(fold_pass) W(rows) W(chunks) W(chunk_elements) W(lists_offset) W(rows_per_group)

/* shaders/topk_small.comp: TopK of one row (data), both outputs written in
 * the same dispatch (values_units, indices_units: their units). */
#define EDMLI_PRM_TOPK_SMALL(W, A, S, SA)                                                        \
    S(tensor, data) W(axis_size) W(axis_stride) W(k) W(increasing) W(wide_keys) S(output, values) \
    S(output, indices) W(values_units) W(indices_units)

/* shaders/topk_out.comp: one output (values, or indices when `indices`)
 * from the winners. */
#define EDMLI_PRM_TOPK_OUT(W, A, S, SA) \
    S(tensor, data) S(output, result) W(axis) W(k) W(winners_offset) W(indices)

/* Every struct, X(name, LIST), each after those it nests. */
#define EDMLI_PRM_TYPES(X)                 \
    X(tensor, EDMLI_PRM_TENSOR)            \
    X(output, EDMLI_PRM_OUTPUT)            \
    X(dims_walk, EDMLI_PRM_DIMS_WALK)      \
    X(copy, EDMLI_PRM_COPY)                \
    X(elementwise_if, EDMLI_PRM_ELEMENTWISE_IF) \
    X(gather_dim, EDMLI_PRM_GATHER_DIM)    \
    X(gather_nd, EDMLI_PRM_GATHER_ND)      \
    X(argreduce, EDMLI_PRM_ARGREDUCE)      \
    X(topk, EDMLI_PRM_TOPK)                \
    X(topk_small, EDMLI_PRM_TOPK_SMALL)    \
    X(topk_out, EDMLI_PRM_TOPK_OUT)

#endif /* EDMLI_GLES_PARAMS_H */
