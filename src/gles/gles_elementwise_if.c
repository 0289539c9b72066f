/* ElementWiseIf on the GPU: output-driven, 16 bytes an invocation where A,
 * B and the output are packed and aligned. */
#include "gles.h"

edml_status edmli_gles_elementwise_if(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin_op(&r, op, ex->err);
    if (s) return s;
    const edmli_elementwise_if_plan *pl = &op->plan.elementwise_if;
    uint32_t off[4];
    for (uint32_t i = 0; i < 3 && !s; i++) s = edmli_gles_input(&r, op, ex, i, &off[i]);
    if (!s) s = edmli_gles_output(&r, op, ex, 0, &off[3]);
    if (s) return s;
    /* the core's coalesced dims, for every tensor */
    edmli_tensor v[4];
    for (uint32_t i = 0; i < 4; i++) {
        v[i] = i < 3 ? op->inputs[i] : op->outputs[0];
        v[i].rank = pl->rank;
        for (uint32_t d = 0; d < pl->rank; d++) v[i].sizes[d] = pl->sizes[d], v[i].strides[d] = pl->strides[i][d];
    }
    edmli_elementwise_if_prm prm = {.cond = edmli_gles_tensor_prm(&v[0], off[0]),
                                    .a = edmli_gles_tensor_prm(&v[1], off[1]),
                                    .b = edmli_gles_tensor_prm(&v[2], off[2]),
                                    .result = edmli_gles_output_prm(&v[3], off[3])};
    prm.result.dense = edmli_gles_packed(&op->outputs[0]);
    prm.result.elements = (uint32_t)op->outputs[0].elem_count;
    /* vectors: A, B and the output packed and 16-byte aligned; the condition
     * packed, or repeating along the last coalesced dim (strides {0, 1}) */
    const uint32_t es = op->outputs[0].elem_size, per = 16u / es;
    bool vec = ((off[1] | off[2] | off[3]) & 15u) == 0 && (off[0] & (es == 1 ? 15u : 3u)) == 0;
    for (uint32_t i = 1; i < 4; i++) {
        uint64_t stride = 1;
        for (uint32_t d = pl->rank; d-- > 0; stride *= pl->sizes[d]) vec = vec && pl->strides[i][d] == stride;
    }
    uint32_t period = 0;
    if (pl->rank == 2 && pl->strides[0][0] == 0 && pl->strides[0][1] == 1)
        period = pl->sizes[1];
    else
        vec = vec && (pl->rank == 1 && pl->strides[0][0] == 1);
    prm.vectors = vec && period % per == 0;
    prm.cond_period = period;
    const uint32_t units = prm.vectors ? (uint32_t)((op->outputs[0].elem_count + per - 1) / per)
                                       : edmli_gles_output_units(&op->outputs[0]);
    if (prm.vectors && op->outputs[0].elem_count % per == 0) /* whole vectors only: the specialized kernel */
        edmli_gles_run_elementwise_if_vec(&r, &prm, units, false);
    else
        edmli_gles_run_elementwise_if(&r, &prm, units, false);
    return edmli_gles_finish(&r);
}
