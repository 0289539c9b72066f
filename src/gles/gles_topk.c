/* TopK on the GPU: a workgroup per row (a threshold from per-thread bests,
 * then a shared-memory sort), or a row per invocation for short rows and
 * strided axes, with merge passes; then the outputs. */
#include "gles.h"

#include <string.h>

/* TopK with a small K along a strided axis, or along a packed one of short
 * rows (a workgroup per row of a few elements would leave nearly all its
 * invocations idle: 250000 rows of 2 took 115 s on llvmpipe): a row per
 * invocation, rows split into chunks (each at least 64 and K elements) for
 * enough invocations. Returns the chunks, or 0 where a workgroup per row
 * runs instead. */
uint32_t edmli_gles_topk_chunks(const edml_operator *op)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint32_t rows = (uint32_t)(op->inputs[0].elem_count / p->axis_size);
    const bool packed = op->inputs[0].strides[p->axis] == 1;
    if ((packed && p->axis_size > 256) || p->k > 16 || rows < 256) return 0;
    uint32_t chunks = rows >= 65536 ? 1 : 65536 / rows, min_len = p->k > 64 ? p->k : 64;
    if (chunks > p->axis_size / min_len) chunks = p->axis_size / min_len;
    if (chunks == 0) chunks = 1;
    uint32_t len = (p->axis_size + chunks - 1) / chunks;
    return (p->axis_size + len - 1) / len;
}

edml_status edmli_gles_topk(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, EDMLI_GLES_STATE(op), ex->err);
    if (s) return s;
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    const uint32_t rows = (uint32_t)(ti->elem_count / p->axis_size);
    uint32_t off_in, off_out[2], off_win;
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    for (uint32_t o = 0; o < 2; o++)
        if ((s = edmli_gles_output(&r, op, ex, o, &off_out[o]))) return s;
    if ((s = edmli_gles_alloc(&r, (uint64_t)rows * p->k * 4u, &off_win))) return s;
    memset(r.words, 0, sizeof r.words);
    edmli_gles_tensor_params(&r, 0, ti, off_in);
    uint32_t Kd = 0;
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis) continue;
        r.words[41 + Kd] = ti->sizes[d];
        r.words[49 + Kd] = ti->strides[d];
        Kd++;
    }
    r.words[40] = Kd;
    r.words[57] = p->axis_size;
    r.words[58] = ti->strides[p->axis];
    r.words[59] = p->k;
    r.words[60] = p->direction == EDML_AXIS_DIRECTION_INCREASING;
    r.words[61] = off_win;
    r.words[62] = ti->elem_size == 8;
    /* a small K along a strided axis (reads coalesced across rows) or short
     * packed rows: a row per invocation; otherwise a row per workgroup */
    const uint32_t chunks = edmli_gles_topk_chunks(op);
    if (chunks) {
        uint32_t len = (p->axis_size + chunks - 1) / chunks;
        uint32_t off_lists = off_win;
        if (chunks > 1 && (s = edmli_gles_alloc(&r, (uint64_t)rows * chunks * p->k * 12u, &off_lists))) return s;
        r.words[63] = 0;
        r.words[64] = rows;
        r.words[65] = chunks;
        r.words[66] = len;
        r.words[67] = off_lists;
        edmli_gles_dispatch(&r, EDMLI_GLES_PROG_TOPK_THREAD, rows * chunks, false);
        /* merge passes: EDMLI_GLES_TOPK_FOLD lists into one, between two
         * areas, until one list (the winners) is left */
        uint32_t lists = chunks, span = len, off_in_lists = off_lists, off_out_lists = off_lists;
        if (chunks > EDMLI_GLES_TOPK_FOLD) {
            uint32_t second = (chunks + EDMLI_GLES_TOPK_FOLD - 1) / EDMLI_GLES_TOPK_FOLD;
            if ((s = edmli_gles_alloc(&r, (uint64_t)rows * second * p->k * 12u, &off_out_lists))) return s;
        }
        while (lists > 1) {
            uint32_t groups = (lists + EDMLI_GLES_TOPK_FOLD - 1) / EDMLI_GLES_TOPK_FOLD;
            edmli_gles_barrier(&r);
            r.words[63] = 1;
            r.words[65] = lists;
            r.words[66] = span;
            r.words[67] = off_in_lists;
            r.words[68] = EDMLI_GLES_TOPK_FOLD;
            r.words[69] = off_out_lists;
            edmli_gles_dispatch(&r, EDMLI_GLES_PROG_TOPK_THREAD, rows * groups, false);
            lists = groups;
            span *= EDMLI_GLES_TOPK_FOLD;
            uint32_t t = off_in_lists;
            off_in_lists = off_out_lists;
            off_out_lists = t;
        }
    } else {
        edmli_gles_dispatch(&r, EDMLI_GLES_PROG_TOPK_SELECT, rows, true);
    }
    edmli_gles_barrier(&r);
    for (int o = 0; o < 2; o++) {
        memset(r.words, 0, sizeof r.words);
        edmli_gles_tensor_params(&r, 0, ti, off_in);
        edmli_gles_tensor_params(&r, 20, &op->outputs[o], off_out[o]);
        edmli_gles_inverse_params(&r, 40, &op->outputs[o]);
        r.words[49] = edmli_gles_packed(&op->outputs[o]);
        r.words[50] = (uint32_t)op->outputs[o].elem_count;
        r.words[51] = p->axis;
        r.words[52] = p->k;
        r.words[53] = off_win;
        r.words[54] = o == 1;
        edmli_gles_dispatch(&r, EDMLI_GLES_PROG_TOPK_OUT, edmli_gles_output_units(&op->outputs[o]), false);
    }
    return edmli_gles_finish(&r);
}

