/* The GLES backend's dispatchers, one per operator, and its table. Inputs and
 * outputs in host memory are staged through the GPU arena: upload, compute,
 * one fence, download. */
#include "gles.h"
#include "../ref/ref.h"

#include <string.h>

#define EDMLI_GLES_TOPK_FOLD 8u   /* lists a TopK merge pass folds into one */
#define EDMLI_GLES_STATE(op) ((edmli_gles *)(op)->obj.device->gles)

/* Saturating: a TotalTensorSizeInBytes near 2^64 must not wrap to a small staging size. */
static uint64_t edmli_align16(uint64_t v) { return v > UINT64_MAX - 15 ? UINT64_MAX : (v + 15) & ~(uint64_t)15; }
static uint64_t edmli_add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* TopK with a small K along a strided axis, or along a packed one of short
 * rows (a workgroup per row of a few elements would leave nearly all its
 * invocations idle: 250000 rows of 2 took 115 s on llvmpipe): a row per
 * invocation, rows split into chunks (each at least 64 and K elements) for
 * enough invocations. Returns the chunks, or 0 where a workgroup per row
 * runs instead. */
static uint32_t edmli_gles_topk_chunks(const edml_operator *op)
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

/* How ArgMin/ArgMax splits its sets, by kernel (each one's comment says more).
 * `vec`: 32-bit elements that can be read as 16-byte vectors.
 * - argreduce_partial along the packed last axis (long sets): G threads per
 *   (output, chunk), the output's last chunk to finish merging;
 * - argreduce_cols with `vec` along one strided reduced dim of 64 rows or
 *   more: U units of four outputs a workgroup, G invocations a unit, chunks
 *   of 4 G B rows, a unit group's last chunk to finish merging;
 * - argreduce along a strided axis: an invocation per (output, chunk), or
 *   per four outputs with `vec`, then argreduce_final with several chunks. */
typedef struct edmli_gles_reduce_shape {
    edmli_gles_prog prog;
    bool along_last;
    uint32_t lanes, chunks, chunk_len, G, U, groups, batches;
} edmli_gles_reduce_shape;

static uint32_t edmli_pow2_at_least(uint64_t v, uint32_t cap)
{
    uint32_t p2 = 1;
    while (p2 < v && p2 < cap) p2 *= 2;
    return p2;
}

static edmli_gles_reduce_shape edmli_gles_reduce_shape_of(const edml_operator *op, const edmli_gles *g, bool vec)
{
    const edmli_argreduce_plan *p = &op->plan.reduce;
    const uint32_t outs = (uint32_t)op->outputs[0].elem_count, last = op->inputs[0].rank - 1, local = g->local;
    uint32_t reduced = 0;
    for (uint32_t d = 0; d < op->inputs[0].rank; d++) reduced += (p->axis_mask >> d) & 1;
    edmli_gles_reduce_shape sh = {0};
    /* a workgroup per set only pays for long sets along the packed last axis */
    sh.along_last = ((p->axis_mask >> last) & 1) && p->reduce_count >= 4u * local;
    sh.lanes = vec && !sh.along_last && outs % 4 == 0 ? 4u : 1u;
    const uint32_t units = outs / sh.lanes;
    sh.groups = outs;
    if (vec && !sh.along_last && reduced == 1 && p->reduce_count >= 64) {
        sh.prog = EDMLI_GLES_PROG_ARGREDUCE_COLS;
        /* at least 16 units (256 bytes of a row) a workgroup where there are;
         * four batches, more where a set would take over G / 4 chunks (the
         * merge takes one chunk's slots an invocation) */
        sh.G = edmli_pow2_at_least((p->reduce_count + 15) / 16, local / edmli_pow2_at_least(units, 16));
        if (sh.G < 4) sh.G = 4;   /* U * 4 slots: at most LOCAL */
        sh.U = local / sh.G;
        const uint64_t max_rows = (uint64_t)4 * sh.G * (sh.G / 4);
        sh.batches = (uint32_t)((p->reduce_count + max_rows - 1) / max_rows);
        if (sh.batches < 4) sh.batches = 4;
        sh.chunk_len = 4 * sh.G * sh.batches;
        sh.chunks = (uint32_t)((p->reduce_count + sh.chunk_len - 1) / sh.chunk_len);
        sh.groups = (units + sh.U - 1) / sh.U;
        return sh;
    }
    sh.prog = sh.along_last ? EDMLI_GLES_PROG_ARGREDUCE_PARTIAL : EDMLI_GLES_PROG_ARGREDUCE;
    /* long sets: chunks of 32 * local elements (fewer chunks to count and
     * merge than 8 * local: argmin_all 0.068 -> 0.065 ms on the H100) */
    uint32_t unit_chunk = sh.along_last ? local * 32u : 64u;
    uint32_t want = sh.along_last ? (outs >= 2048 ? 1 : 2048 / outs) : (units >= 65536 ? 1 : 65536 / units);
    uint32_t chunks = (uint32_t)((p->reduce_count + unit_chunk - 1) / unit_chunk);
    if (chunks > want) chunks = want;
    if (chunks == 0) chunks = 1;
    sh.chunk_len = (uint32_t)((p->reduce_count + chunks - 1) / chunks);
    if (vec && sh.along_last) sh.chunk_len = (sh.chunk_len + 3) & ~3u;
    sh.chunks = (uint32_t)((p->reduce_count + sh.chunk_len - 1) / sh.chunk_len);
    if (sh.along_last) {
        /* G threads a pair, about 64 elements each */
        sh.G = 32;
        while (sh.G < local && (uint64_t)sh.G * 64 < sh.chunk_len) sh.G *= 2;
        sh.U = local / sh.G;
    }
    return sh;
}

/* GPU-arena scratch of an ArgMin/ArgMax shape: the chunks' results (the
 * return value), and in `counter_bytes` a zero word per output or unit group
 * for the kernels whose last chunk to finish merges (uploaded each call: the
 * scratch is shared with other operators). */
static uint64_t edmli_gles_reduce_scratch(const edml_operator *op, const edmli_gles_reduce_shape *sh, uint64_t *counter_bytes)
{
    *counter_bytes = 0;
    if (sh->chunks <= 1) return 0;
    const uint64_t outs = op->outputs[0].elem_count;
    if (sh->prog == EDMLI_GLES_PROG_ARGREDUCE) return edmli_align16(outs * sh->chunks * 12);   /* argreduce_final merges */
    *counter_bytes = edmli_align16((uint64_t)sh->groups * 4);
    if (sh->prog == EDMLI_GLES_PROG_ARGREDUCE_COLS) return edmli_align16((uint64_t)sh->groups * sh->chunks * sh->U * 4 * 8);
    return edmli_align16(outs * sh->chunks * 12);
}

/* GPU-arena bytes one execution stages (ArgMin/ArgMax scratch: the larger
 * of the two kernels the run-time alignment can pick). */
static uint64_t edmli_gles_stage_bytes(const edml_operator *op, const edmli_gles *g)
{
    uint64_t b = 0;
    for (uint32_t i = 0; i < op->input_count; i++) b = edmli_add_sat(b, edmli_align16(op->inputs[i].total_bytes));
    for (uint32_t o = 0; o < op->output_count; o++) b = edmli_add_sat(b, edmli_align16(op->outputs[o].total_bytes));
    if (op->kind == EDMLI_OP_TOPK) {
        uint64_t rows = op->inputs[0].elem_count / op->plan.topk.axis_size, chunks = edmli_gles_topk_chunks(op);
        b = edmli_add_sat(b, edmli_align16(rows * op->plan.topk.k * 4));
        if (chunks > 1) b = edmli_add_sat(b, edmli_align16(rows * chunks * op->plan.topk.k * 12));
        if (chunks > EDMLI_GLES_TOPK_FOLD)
            b = edmli_add_sat(b, edmli_align16(rows * ((chunks + EDMLI_GLES_TOPK_FOLD - 1) / EDMLI_GLES_TOPK_FOLD) * op->plan.topk.k * 12));
    } else if (op->kind == EDMLI_OP_ARGREDUCE) {
        /* whichever kernel the run-time alignment picks */
        edmli_gles_reduce_shape plain = edmli_gles_reduce_shape_of(op, g, false);
        edmli_gles_reduce_shape vec = edmli_gles_reduce_shape_of(op, g, op->inputs[0].elem_size == 4);
        uint64_t ac, vc, a = edmli_gles_reduce_scratch(op, &plain, &ac), v = edmli_gles_reduce_scratch(op, &vec, &vc);
        b = edmli_add_sat(b, a + ac > v + vc ? a + ac : v + vc);
    } else if (op->kind == EDMLI_OP_GATHER_ND) {
        b = edmli_add_sat(b, 16);
    }
    return b;
}

const char *edmli_gles_unsupported(const edml_operator *op, const edmli_gles *g, char *buf, size_t cap)
{
    if (op->kind == EDMLI_OP_TOPK && op->plan.topk.k > g->sort_max) {
        edmli_format(buf, cap, "K = %u is above the %u this GPU's TopK kernel holds in shared memory", op->plan.topk.k,
                     g->sort_max);
        return buf;
    }
    uint64_t need = edmli_gles_stage_bytes(op, g), have = g->arena_bytes - g->persistent;
    if (need > have) {
        edmli_format(buf, cap, "it needs %llu bytes of GPU arena, %llu are free (edml_device_desc.gpu_arena_bytes)",
                     (unsigned long long)need, (unsigned long long)have);
        return buf;
    }
    return NULL;
}

/* ---- ElementWiseIf --------------------------------------------------------- */

edml_status edmli_gles_if(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, EDMLI_GLES_STATE(op), ex->err);
    if (s) return s;
    const edmli_if_plan *pl = &op->plan.iff;
    uint32_t off[4];
    for (uint32_t i = 0; i < 3 && !s; i++) s = edmli_gles_input(&r, op, ex, i, &off[i]);
    if (!s) s = edmli_gles_output(&r, op, ex, 0, &off[3]);
    if (s) return s;
    /* the core's coalesced dims, for every tensor */
    memset(r.words, 0, sizeof r.words);
    for (int i = 0; i < 4; i++) {
        edmli_tensor v = i < 3 ? op->inputs[i] : op->outputs[0];
        v.rank = pl->rank;
        for (uint32_t d = 0; d < pl->rank; d++) v.sizes[d] = pl->sizes[d], v.strides[d] = pl->strides[i][d];
        edmli_gles_tensor_params(&r, 20u * (uint32_t)i, &v, off[i]);
        if (i == 3) edmli_gles_inverse_params(&r, 80, &v);
    }
    r.words[89] = edmli_gles_packed(&op->outputs[0]);
    r.words[90] = (uint32_t)op->outputs[0].elem_count;
    /* vectors: A, B and the output packed and 16-byte aligned; the condition
     * packed, or repeating along the last coalesced dim (strides {0, 1}) */
    const uint32_t es = op->outputs[0].elem_size, per = 16u / es;
    bool vec = ((off[1] | off[2] | off[3]) & 15u) == 0 && (off[0] & (es == 1 ? 15u : 3u)) == 0;
    for (uint32_t i = 1; i < 4; i++) {
        uint64_t stride = 1;
        for (uint32_t d = pl->rank; d-- > 0; stride *= pl->sizes[d]) vec = vec && pl->strides[i][d] == stride;
    }
    uint32_t period = 0;
    if (pl->rank == 2 && pl->strides[0][0] == 0 && pl->strides[0][1] == 1) period = pl->sizes[1];
    else vec = vec && (pl->rank == 1 && pl->strides[0][0] == 1);
    vec = vec && period % per == 0;
    r.words[91] = vec;
    r.words[92] = period;
    uint32_t units = vec ? (uint32_t)((op->outputs[0].elem_count + per - 1) / per) : edmli_gles_output_units(&op->outputs[0]);
    edmli_gles_dispatch(&r, EDMLI_GLES_PROG_IF, units, false);
    return edmli_gles_finish(&r);
}

/* ---- GatherND -------------------------------------------------------------- */

edml_status edmli_gles_gather_nd(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin(&r, EDMLI_GLES_STATE(op), ex->err);
    if (s) return s;
    const edmli_gather_plan *g = &op->plan.gather;
    uint32_t off_in, off_ix, off_out, off_status;
    static const uint32_t status_init[4] = {0, 0xffffffffu, 0, 0};
    const edmli_tensor status_t = {.dtype = EDML_TENSOR_DATA_TYPE_UINT32, .elem_size = 4, .rank = 1, .sizes = {4},
                                   .strides = {1}, .elem_count = 4, .total_bytes = 16};
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    if ((s = edmli_gles_input(&r, op, ex, 1, &off_ix))) return s;
    if ((s = edmli_gles_output(&r, op, ex, 0, &off_out))) return s;
    if ((s = edmli_gles_place(&r, &status_t, (const uint8_t *)status_init, &off_status))) return s;
    memset(r.words, 0, sizeof r.words);
    edmli_gles_tensor_params(&r, 0, &op->inputs[0], off_in);
    edmli_gles_tensor_params(&r, 20, &op->inputs[1], off_ix);
    edmli_gles_tensor_params(&r, 40, &op->outputs[0], off_out);
    edmli_gles_inverse_params(&r, 60, &op->outputs[0]);
    r.words[69] = edmli_gles_packed(&op->outputs[0]);
    r.words[70] = (uint32_t)op->outputs[0].elem_count;
    uint32_t L = 0, slice = 1;
    for (uint32_t d = 0; d < g->outer_rank; d++, L++) {
        r.words[72 + 4 * L] = g->outer_sizes[d];
        r.words[73 + 4 * L] = g->outer_idx_strides[d];
        r.words[74 + 4 * L] = g->outer_in_strides[d];
        r.words[75 + 4 * L] = 0;
    }
    for (uint32_t d = 0; d < g->slice_rank; d++, L++) {
        r.words[72 + 4 * L] = g->slice_sizes[d];
        r.words[73 + 4 * L] = 0;
        r.words[74 + 4 * L] = g->slice_in_strides[d];
        r.words[75 + 4 * L] = 2;
        slice *= g->slice_sizes[d];
    }
    r.words[71] = L;
    r.words[170] = g->tuple;
    r.words[171] = g->tuple_stride;
    for (uint32_t j = 0; j < g->tuple; j++) {
        r.words[172 + j] = g->coord_sizes[j];
        r.words[180 + j] = g->coord_strides[j];
    }
    r.words[188] = off_status;
    r.words[189] = slice;
    /* vectors: the output packed, each slice a contiguous run of whole
     * 16-byte vectors starting 16-byte aligned in the input */
    const uint32_t es = op->inputs[0].elem_size;
    bool vec = edmli_gles_packed(&op->outputs[0]) && ((off_in | off_out) & 15u) == 0 && (uint64_t)slice * es % 16 == 0;
    uint64_t run = 1;
    for (uint32_t d = g->slice_rank; d-- > 0; run *= g->slice_sizes[d]) vec = vec && g->slice_in_strides[d] == run;
    for (uint32_t d = 0; d < g->outer_rank; d++) vec = vec && (uint64_t)g->outer_in_strides[d] * es % 16 == 0;
    for (uint32_t j = 0; j < g->tuple; j++) vec = vec && (uint64_t)g->coord_strides[j] * es % 16 == 0;
    r.words[190] = vec;
    uint32_t units = vec ? (uint32_t)(op->outputs[0].elem_count * es / 16) : edmli_gles_output_units(&op->outputs[0]);
    edmli_gles_dispatch(&r, EDMLI_GLES_PROG_GATHER_ND, units, false);
    uint32_t status[2];
    edmli_gles_fetch(&r, off_status, status, sizeof status);
    if ((s = edmli_gles_finish(&r))) return s;
    if (!status[0]) return EDML_STATUS_OK;
    /* the GPU counted clamped coordinates: the host words the status as the
     * reference does, from the same indices (read back when resident) */
    if (ex->in_gpu[1] == EDMLI_HOST) return edmli_gather_check(op, ex);
    char what[96];
    edmli_format(what, sizeof what, "%u index coordinates were out of range and clamped (the first at element %u)",
                 status[0], status[1]);
    return edmli_fail(ex->err, EDMLI_MSG_INDEX_OOR_RESIDENT, what);
}

/* ---- ArgMin / ArgMax ------------------------------------------------------- */

edml_status edmli_gles_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edmli_gles *gs = EDMLI_GLES_STATE(op);
    edml_status s = edmli_gles_begin(&r, gs, ex->err);
    if (s) return s;
    const edmli_argreduce_plan *p = &op->plan.reduce;
    const edmli_tensor *ti = &op->inputs[0], *to = &op->outputs[0];
    uint32_t off_in, off_out;
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    if ((s = edmli_gles_output(&r, op, ex, 0, &off_out))) return s;
    memset(r.words, 0, sizeof r.words);
    edmli_gles_tensor_params(&r, 0, ti, off_in);
    edmli_gles_tensor_params(&r, 20, to, off_out);
    uint32_t R = 0, Kd = 0;
    for (uint32_t d = 0; d < ti->rank; d++) {
        if ((p->axis_mask >> d) & 1) {
            r.words[41 + R] = ti->sizes[d];
            r.words[49 + R] = ti->strides[d];
            R++;
        } else {
            r.words[58 + Kd] = ti->sizes[d];
            r.words[66 + Kd] = ti->strides[d];
            Kd++;
        }
    }
    r.words[40] = R;
    r.words[57] = Kd;
    r.words[74] = p->is_max;
    r.words[75] = p->direction == EDML_AXIS_DIRECTION_DECREASING;
    r.words[76] = (uint32_t)p->reduce_count;
    const uint32_t outs = (uint32_t)to->elem_count;
    const bool along_last = edmli_gles_reduce_shape_of(op, gs, false).along_last;
    bool packed = true;
    uint64_t stride = 1;
    for (uint32_t j = R; j-- > 0;) {
        if (r.words[41 + j] > 1 && r.words[49 + j] != stride) packed = false;
        stride *= r.words[41 + j];
    }
    /* 16-byte loads of 32-bit elements: every set (along the last axis) or
     * four neighbouring outputs (along a strided one) start 16-byte aligned */
    bool vec = ti->elem_size == 4 && (off_in & 15u) == 0;
    if (along_last) vec = vec && packed && p->reduce_count % 4 == 0;
    else vec = vec && Kd > 0 && r.words[66 + Kd - 1] == 1 && r.words[58 + Kd - 1] % 4 == 0;
    for (uint32_t d = 0; d < Kd; d++) vec = vec && (r.words[66 + d] % 4 == 0 || (!along_last && d == Kd - 1));
    for (uint32_t d = 0; d < R && !along_last; d++) vec = vec && r.words[49 + d] % 4 == 0;
    const edmli_gles_reduce_shape sh = edmli_gles_reduce_shape_of(op, gs, vec);
    uint32_t off_scratch = 0, off_count = 0;
    uint64_t count_bytes;
    const uint64_t scratch = edmli_gles_reduce_scratch(op, &sh, &count_bytes);
    if (scratch && (s = edmli_gles_alloc(&r, scratch, &off_scratch))) return s;
    if (count_bytes && (s = edmli_gles_alloc_zero(&r, count_bytes, &off_count))) return s;
    r.words[77] = sh.chunks;
    r.words[78] = sh.chunk_len;
    r.words[79] = off_scratch;
    r.words[80] = packed;
    r.words[81] = outs;
    r.words[82] = sh.G;
    r.words[83] = outs * sh.chunks;
    r.words[84] = sh.along_last ? vec : sh.lanes == 4;   /* argreduce_partial: vectors; argreduce: four outputs */
    r.words[85] = off_count;
    r.words[87] = sh.U;
    r.words[88] = sh.batches;
    r.words[89] = sh.groups;
    if (sh.prog == EDMLI_GLES_PROG_ARGREDUCE_COLS) edmli_gles_dispatch(&r, sh.prog, sh.groups * sh.chunks, true);
    else if (sh.along_last) edmli_gles_dispatch(&r, sh.prog, (outs * sh.chunks + sh.U - 1) / sh.U, true);
    else edmli_gles_dispatch(&r, sh.prog, outs / sh.lanes * sh.chunks, false);
    if (sh.chunks > 1 && sh.prog == EDMLI_GLES_PROG_ARGREDUCE) {
        /* argreduce_final: G threads an output, a power of two, at most the chunks */
        uint32_t G = 1;
        while (G * 2 <= sh.chunks && G < gs->local) G *= 2;
        r.words[84] = G;
        edmli_gles_barrier(&r);
        edmli_gles_dispatch(&r, EDMLI_GLES_PROG_ARGREDUCE_FINAL, (outs + gs->local / G - 1) / (gs->local / G), true);
    }
    return edmli_gles_finish(&r);
}

/* ---- TopK ------------------------------------------------------------------ */

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

/* ---- the table ------------------------------------------------------------- */

static const char *edmli_gles_unsupported_op(const edml_operator *op, char *buf, size_t cap)
{
    return edmli_gles_unsupported(op, EDMLI_GLES_STATE(op), buf, cap);
}

/* Scratch on the host: none for the GPU, but a GLES operator that falls back
 * to a CPU backend takes that backend's, so it is reserved from the start. */
static uint64_t edmli_gles_temp_bytes(const edml_operator *op)
{
    const edmli_backend_ops *cpu = edmli_neon_backend_ptr ? edmli_neon_backend_ptr : &edmli_ref_backend;
    return cpu->temp_bytes(op);
}

/* Each kernel leaves the context current on no thread, so that the next
 * call may come from another thread (unless one thread makes every call). */
#define EDMLI_GLES_RELEASING(name)                                                        \
    static edml_status name##_released(const edml_operator *op, const edmli_exec *ex)   \
    {                                                                                     \
        edml_status s = name(op, ex);                                                     \
        edmli_gles_release(EDMLI_GLES_STATE(op));                                         \
        return s;                                                                         \
    }
EDMLI_GLES_RELEASING(edmli_gles_topk)
EDMLI_GLES_RELEASING(edmli_gles_gather_nd)
EDMLI_GLES_RELEASING(edmli_gles_argreduce)
EDMLI_GLES_RELEASING(edmli_gles_if)

const edmli_backend_ops edmli_gles_backend = {
    .name = "gles",
    .kernels = {
        [EDMLI_OP_TOPK] = edmli_gles_topk_released,
        [EDMLI_OP_GATHER_ND] = edmli_gles_gather_nd_released,
        [EDMLI_OP_ARGREDUCE] = edmli_gles_argreduce_released,
        [EDMLI_OP_IF] = edmli_gles_if_released,
    },
    .temp_bytes = edmli_gles_temp_bytes,
    .unsupported = edmli_gles_unsupported_op,
};
