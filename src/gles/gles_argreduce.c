/* ArgMin and ArgMax on the GPU: the kernel and its split of the sets by the
 * reduced axes and the alignment of the data. */
#include "gles.h"

#include <string.h>

static uint32_t edmli_pow2_at_least(uint64_t v, uint32_t cap)
{
    uint32_t p2 = 1;
    while (p2 < v && p2 < cap) p2 *= 2;
    return p2;
}

/* argreduce_cols's shape for sets of `rows` rows and `units` units of four
 * outputs: at least 16 units (256 bytes of a row) a workgroup where there
 * are; four batches, more where a set would take over G / 4 chunks (the
 * merge takes one chunk's slots an invocation). Under V3D's watchdog at
 * most WATCHDOG_COLS_BATCHES batches an invocation (its G as large as it
 * goes for that): false where a set is too long for that (argreduce takes
 * it). */
static bool edmli_gles_reduce_cols(edmli_gles_reduce_shape *sh, uint64_t rows, uint32_t units, const edmli_gles *g)
{
    const uint32_t local = g->local;
    sh->prog = EDMLI_GLES_PROG_ARGREDUCE_COLS;
    sh->G = edmli_pow2_at_least((rows + 15) / 16, local / edmli_pow2_at_least(units, 16));
    for (int pass = 0; pass < 2; pass++) {
        if (sh->G < 4) sh->G = 4; /* U * 4 slots: at most LOCAL */
        sh->U = local / sh->G;
        const uint64_t max_rows = (uint64_t)4 * sh->G * (sh->G / 4);
        sh->batches = (uint32_t)((rows + max_rows - 1) / max_rows);
        if (sh->batches < 4) sh->batches = 4;
        if (!g->watchdog || sh->batches <= EDMLI_GLES_WATCHDOG_COLS_BATCHES) break;
        if (pass) return false;
        sh->G = local; /* one unit a workgroup: the most rows a chunk */
    }
    sh->chunk_len = 4 * sh->G * sh->batches;
    sh->chunks = (uint32_t)((rows + sh->chunk_len - 1) / sh->chunk_len);
    sh->groups = (units + sh->U - 1) / sh->U;
    return true;
}

edmli_gles_reduce_shape edmli_gles_reduce_shape_of(const edml_operator *op, const edmli_gles *g, bool vec)
{
    const edmli_argreduce_plan *p = &op->plan.argreduce; /* its layout: dims merged, ordered by stride */
    const uint32_t outs = (uint32_t)op->outputs[0].elem_count, last = p->in.rank - 1, local = g->local;
    uint32_t reduced = 0;
    for (uint32_t d = 0; d < p->in.rank; d++) reduced += (p->mask >> d) & 1;
    edmli_gles_reduce_shape sh = {0};
    /* a workgroup per set only pays for long sets along the packed last axis */
    sh.along_last = ((p->mask >> last) & 1) && p->reduce_count >= EDMLI_GLES_REDUCE_ROW_SET_GROUPS * local;
    sh.lanes = vec && !sh.along_last && outs % 4 == 0 ? 4u : 1u;
    const uint32_t units = outs / sh.lanes;
    sh.groups = outs;
    if (vec && !sh.along_last && reduced == 1 && p->reduce_count >= EDMLI_GLES_REDUCE_COLS_MIN_ROWS &&
        edmli_gles_reduce_cols(&sh, p->reduce_count, units, g))
        return sh;
    sh.G = sh.U = sh.batches = 0; /* (what argreduce_cols would have taken) */
    sh.prog = sh.along_last ? EDMLI_GLES_PROG_ARGREDUCE_PARTIAL : EDMLI_GLES_PROG_ARGREDUCE;
    /* long sets: chunks of 32 * local elements (fewer chunks to count and
     * merge than 8 * local: argmin_all 0.068 -> 0.065 ms on the H100) */
    const uint32_t unit_chunk =
        sh.along_last ? local * EDMLI_GLES_REDUCE_ROW_CHUNK_GROUPS : EDMLI_GLES_REDUCE_COL_CHUNK;
    const uint32_t target = sh.along_last ? EDMLI_GLES_REDUCE_ROW_TARGET : EDMLI_GLES_REDUCE_COL_TARGET;
    uint32_t want = (sh.along_last ? outs : units) >= target ? 1 : target / (sh.along_last ? outs : units);
    uint32_t chunks = (uint32_t)((p->reduce_count + unit_chunk - 1) / unit_chunk);
    if (chunks > want) chunks = want;
    if (chunks == 0) chunks = 1;
    /* V3D's watchdog: an invocation reduces at most WATCHDOG_REDUCE_CHUNK */
    const uint64_t capped = (p->reduce_count + EDMLI_GLES_WATCHDOG_REDUCE_CHUNK - 1) / EDMLI_GLES_WATCHDOG_REDUCE_CHUNK;
    if (g->watchdog && !sh.along_last && capped > chunks) chunks = (uint32_t)capped;
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
uint64_t edmli_gles_reduce_scratch(const edml_operator *op, const edmli_gles_reduce_shape *sh, uint64_t *counter_bytes)
{
    *counter_bytes = 0;
    if (sh->chunks <= 1) return 0;
    const uint64_t outs = op->outputs[0].elem_count;
    if (sh->prog == EDMLI_GLES_PROG_ARGREDUCE)
        return edmli_align16(outs * sh->chunks * 12); /* argreduce_final merges */
    *counter_bytes = edmli_align16((uint64_t)sh->groups * 4);
    if (sh->prog == EDMLI_GLES_PROG_ARGREDUCE_COLS)
        return edmli_align16((uint64_t)sh->groups * sh->chunks * sh->U * 4 * 8);
    return edmli_align16(outs * sh->chunks * 12);
}

/* The reduced and the kept dims, as the kernels walk them: the plan's
 * layout (core's, as NEON's: size-1 dims dropped, kept dims ordered by
 * stride, contiguous ones merged), so a transposed view runs as packed. */
static void edmli_gles_reduce_dims(const edml_operator *op, edmli_argreduce_prm *prm)
{
    const edmli_tensor *ti = &op->plan.argreduce.in;
    for (uint32_t d = 0; d < ti->rank; d++) {
        edmli_dims_walk_prm *dims = ((op->plan.argreduce.mask >> d) & 1) ? &prm->reduced : &prm->kept;
        dims->sizes[dims->count] = ti->sizes[d];
        dims->strides[dims->count] = ti->strides[d];
        dims->count++;
    }
}

/* The reduced dims are one packed run. */
static bool edmli_gles_reduce_dense(const edmli_dims_walk_prm *reduced)
{
    uint64_t stride = 1;
    for (uint32_t j = reduced->count; j-- > 0;) {
        if (reduced->sizes[j] > 1 && reduced->strides[j] != stride) return false;
        stride *= reduced->sizes[j];
    }
    return true;
}

/* Whether the layout allows 16-byte loads of 32-bit elements: every set
 * (along the last axis) or four neighbouring outputs (along a strided one)
 * start 16-byte aligned when the input does. */
static bool edmli_gles_reduce_vec_layout(const edml_operator *op, const edmli_argreduce_prm *prm, bool along_last)
{
    const edmli_dims_walk_prm *kept = &prm->kept, *reduced = &prm->reduced;
    const uint32_t Kd = kept->count;
    bool vec = op->inputs[0].elem_size == 4;
    if (along_last)
        vec = vec && edmli_gles_reduce_dense(reduced) && op->plan.argreduce.reduce_count % 4 == 0;
    else
        vec = vec && Kd > 0 && kept->strides[Kd - 1] == 1 && kept->sizes[Kd - 1] % 4 == 0;
    for (uint32_t d = 0; d < Kd; d++) vec = vec && (kept->strides[d] % 4 == 0 || (!along_last && d == Kd - 1));
    for (uint32_t d = 0; d < reduced->count && !along_last; d++) vec = vec && reduced->strides[d] % 4 == 0;
    return vec;
}

void edmli_gles_plan_argreduce(const edml_operator *op, const edmli_gles *g, edmli_gles_plan *plan)
{
    edmli_argreduce_prm dims = {0};
    edmli_gles_reduce_dims(op, &dims);
    plan->reduce[0] = edmli_gles_reduce_shape_of(op, g, false);
    plan->reduce_vec_layout = edmli_gles_reduce_vec_layout(op, &dims, plan->reduce[0].along_last);
    plan->reduce[1] = edmli_gles_reduce_shape_of(op, g, plan->reduce_vec_layout);
}

edml_status edmli_gles_argreduce(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edmli_gles *gs = EDMLI_GLES_STATE(op);
    const edmli_gles_plan *plan = EDMLI_GLES_PLAN(op);
    edml_status s = edmli_gles_begin_op(&r, op, ex->err);
    if (s) return s;
    const edmli_argreduce_plan *p = &op->plan.argreduce;
    uint32_t off_in, off_out;
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    if ((s = edmli_gles_output(&r, op, ex, 0, &off_out))) return s;
    edmli_argreduce_prm prm = {.data = edmli_gles_tensor_prm(&p->in, off_in),
                               .result = edmli_gles_output_prm(&p->out, off_out),
                               .is_max = p->is_max,
                               .keep_last = p->direction == EDML_AXIS_DIRECTION_DECREASING,
                               .set_elements = (uint32_t)p->reduce_count,
                               .outputs = (uint32_t)op->outputs[0].elem_count};
    edmli_gles_reduce_dims(op, &prm);
    /* 16-byte loads where the layout allows and the input is 16-byte aligned */
    const bool vec = plan->reduce_vec_layout && (off_in & 15u) == 0;
    const edmli_gles_reduce_shape *sh = &plan->reduce[vec];
    uint64_t count_bytes;
    const uint64_t scratch = edmli_gles_reduce_scratch(op, sh, &count_bytes);
    if (scratch && (s = edmli_gles_alloc(&r, scratch, &prm.scratch_offset))) return s;
    bool kept = false;
    if (count_bytes && (s = edmli_gles_alloc_counters(&r, count_bytes, &prm.counter_offset, &kept))) return s;
    prm.chunks = sh->chunks;
    prm.chunk_elements = sh->chunk_len;
    prm.dense = edmli_gles_reduce_dense(&prm.reduced);
    prm.pairs = prm.outputs * sh->chunks;
    prm.group_threads = sh->G;
    prm.vectors = sh->along_last && vec;
    prm.four_outputs = sh->lanes == 4;
    prm.units = sh->U;
    prm.batches = sh->batches;
    prm.unit_groups = sh->groups;
    if (sh->prog == EDMLI_GLES_PROG_ARGREDUCE_COLS)
        edmli_gles_run_argreduce_cols(&r, &prm, sh->groups * sh->chunks, true);
    else if (sh->along_last && prm.vectors) /* 32-bit keys: the specialized kernel */
        edmli_gles_run_argreduce_partial_vec(&r, &prm, (prm.pairs + sh->U - 1) / sh->U, true);
    else if (sh->along_last)
        edmli_gles_run_argreduce_partial(&r, &prm, (prm.pairs + sh->U - 1) / sh->U, true);
    else
        edmli_gles_run_argreduce(&r, &prm, prm.outputs / sh->lanes * sh->chunks, false);
    if (sh->chunks > 1 && sh->prog == EDMLI_GLES_PROG_ARGREDUCE) {
        /* argreduce_final: G threads an output, a power of two, at most the chunks */
        uint32_t G = 1;
        while (G * 2 <= sh->chunks && G < gs->local) G *= 2;
        prm.merge_threads = G;
        edmli_gles_barrier(&r);
        edmli_gles_run_argreduce_final(&r, &prm, (prm.outputs + gs->local / G - 1) / (gs->local / G), true);
    }
    s = edmli_gles_finish(&r);
    if (s && kept) edmli_gles_write_zeros(r.g, prm.counter_offset, count_bytes); /* the kernel maybe cut short */
    return s;
}
