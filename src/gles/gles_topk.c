/* TopK on the GPU: a workgroup per row (a threshold from per-thread bests,
 * then a shared-memory sort), or a row per invocation for short rows and
 * strided axes, with merge passes; then the outputs. */
#include "gles.h"

/* TopK with a K that per-invocation lists hold (edmli_gles_topk_lists)
 * along a strided axis, or along a packed one of short rows (a workgroup per
 * row of a few elements would leave nearly all its invocations idle: 250000
 * rows of 2 took 115 s on llvmpipe): a row per invocation, rows split into
 * chunks (each at least 64 and K elements) for enough invocations. Returns
 * the chunks, or 0 where a workgroup per row runs instead. */
uint32_t edmli_gles_topk_chunks(const edml_operator *op, const edmli_gles *g)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const uint32_t rows = (uint32_t)(op->inputs[0].elem_count / p->axis_size);
    const bool packed = op->inputs[0].strides[p->axis] == 1;
    /* under V3D's watchdog a row too long for one workgroup takes the lists */
    const bool too_long = g->watchdog && p->axis_size > EDMLI_GLES_WATCHDOG_SELECT_ROW;
    if (!too_long &&
        ((packed && p->axis_size > EDMLI_GLES_TOPK_THREAD_MAX_ROW) || rows < EDMLI_GLES_TOPK_THREAD_MIN_ROWS))
        return 0;
    uint32_t chunks = rows >= EDMLI_GLES_TOPK_THREAD_TARGET ? 1 : EDMLI_GLES_TOPK_THREAD_TARGET / rows;
    const uint32_t min_len = p->k > EDMLI_GLES_TOPK_CHUNK_MIN ? p->k : EDMLI_GLES_TOPK_CHUNK_MIN;
    if (chunks > p->axis_size / min_len) chunks = p->axis_size / min_len;
    if (g->watchdog && p->axis_size / EDMLI_GLES_WATCHDOG_TOPK_CHUNK >= chunks) /* elements an invocation */
        chunks = (p->axis_size + EDMLI_GLES_WATCHDOG_TOPK_CHUNK - 1) / EDMLI_GLES_WATCHDOG_TOPK_CHUNK;
    if (chunks == 0) chunks = 1;
    uint32_t len = (p->axis_size + chunks - 1) / chunks;
    return (p->axis_size + len - 1) / len;
}

const char *edmli_gles_topk_watchdog(const edml_operator *op, const edmli_gles *g, const edmli_gles_plan *plan,
                                     char *buf, size_t cap)
{
    const edmli_topk_plan *p = &op->plan.topk;
    if (!g->watchdog) return NULL;
    const uint64_t fold_max = (uint64_t)EDMLI_GLES_TOPK_FOLD_LOCAL * EDMLI_GLES_WATCHDOG_FOLD_LISTS;
    if (plan->topk_chunks > fold_max || (!plan->topk_chunks && p->axis_size > EDMLI_GLES_WATCHDOG_SELECT_ROW &&
                                         !plan->topk_small && !plan->topk_rank)) {
        edmli_format(buf, cap,
                     "rows of %u elements with K = %u keep a V3D workgroup past what its 500 ms watchdog allows "
                     "(rows up to %u, or up to %llu with K at most %u of 32-bit elements)",
                     p->axis_size, p->k, EDMLI_GLES_WATCHDOG_SELECT_ROW,
                     (unsigned long long)(fold_max * EDMLI_GLES_WATCHDOG_TOPK_CHUNK), EDMLI_GLES_TOPK_THREAD_8_MAX_K);
        return buf;
    }
    return NULL;
}

/* The per-invocation lists that hold this TopK on this GPU: 8 places with
 * 32-bit keys (topk_thread_8: K <= 8, elements of at most 32 bits), else 16
 * with 64-bit keys where the GPU holds them (topk_thread), else none (0). */
uint32_t edmli_gles_topk_lists(const edml_operator *op, const edmli_gles *g)
{
    const uint32_t k = op->plan.topk.k;
    if (k <= EDMLI_GLES_TOPK_THREAD_8_MAX_K && op->inputs[0].elem_size <= 4) return EDMLI_GLES_TOPK_THREAD_8_MAX_K;
    return g->lists_16 && k <= EDMLI_GLES_TOPK_THREAD_MAX_K ? EDMLI_GLES_TOPK_THREAD_MAX_K : 0;
}

/* One row of at most SORT_MAX elements (32 an invocation at most: its mask
 * of taken ones) with a small K. */
bool edmli_gles_topk_is_small(const edml_operator *op, const edmli_gles *g)
{
    const edmli_topk_plan *p = &op->plan.topk;
    return op->inputs[0].elem_count == p->axis_size && p->axis_size <= g->sort_max && p->axis_size <= 32u * g->local &&
           p->k <= EDMLI_GLES_TOPK_SMALL_MAX_K;
}

/* Short rows that neither topk_thread (K too large, few rows) nor
 * topk_small (one row) takes: an invocation an element ranks it (n reads of
 * its row each). */
bool edmli_gles_topk_by_rank(const edml_operator *op, const edmli_gles_plan *plan)
{
    return !plan->topk_chunks && !plan->topk_small && op->plan.topk.axis_size <= EDMLI_GLES_TOPK_RANK_MAX_ROW;
}

/* topk_select's rows a workgroup: rows of at most half its sort's slots
 * side by side, as many as give each invocation one exchange a step of
 * their sorts (a workgroup a row leaves most of them idle: 2048 rows of
 * 400 with K = 40 took 5.9 s on llvmpipe that way, 4.1 s two a workgroup). */
uint32_t edmli_gles_topk_rows_per_group(const edmli_gles *g, uint32_t axis_size)
{
    uint32_t slots = 1;
    while (slots < axis_size) slots *= 2;
    uint32_t rows = 2 * g->local / slots;
    if (rows > g->sort_max / slots) rows = g->sort_max / slots;
    return rows > 1 ? rows : 1;
}

/* The one-row kernel: selection and both outputs in one dispatch. */
static edml_status edmli_gles_topk_one_row(edmli_gles_run *r, const edml_operator *op, uint32_t off_in,
                                           const uint32_t off_out[2])
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    const edmli_topk_small_prm prm = {.data = edmli_gles_tensor_prm(ti, off_in),
                                      .axis_size = p->axis_size,
                                      .axis_stride = ti->strides[p->axis],
                                      .k = p->k,
                                      .increasing = p->direction == EDML_AXIS_DIRECTION_INCREASING,
                                      .wide_keys = ti->elem_size == 8,
                                      .values = edmli_gles_output_prm(&op->outputs[0], off_out[0]),
                                      .indices = edmli_gles_output_prm(&op->outputs[1], off_out[1]),
                                      .values_units = edmli_gles_output_units(&op->outputs[0]),
                                      .indices_units = edmli_gles_output_units(&op->outputs[1])};
    edmli_gles_run_topk_small(r, &prm, 1, true);
    return edmli_gles_finish(r);
}

/* A row per invocation in the plan's chunks, each listing its best K in
 * the plan's lists; then, with several chunks, a workgroup a row folds the
 * row's lists into the winners. */
static edml_status edmli_gles_topk_threads(edmli_gles_run *r, edmli_topk_prm *prm, const edmli_gles_plan *plan)
{
    const uint32_t rows = prm->rows, chunks = plan->topk_chunks;
    const bool eight = plan->topk_lists == EDMLI_GLES_TOPK_THREAD_8_MAX_K;
    edml_status s;
    uint32_t off_lists = prm->winners_offset;
    if (chunks > 1 && (s = edmli_gles_alloc(r, (uint64_t)rows * prm->k * 12u * chunks, &off_lists))) return s;
    prm->chunks = chunks;
    prm->chunk_elements = (prm->axis_size + chunks - 1) / chunks;
    prm->lists_offset = off_lists;
    (eight ? edmli_gles_run_topk_thread_8 : edmli_gles_run_topk_thread)(r, prm, rows * chunks, false);
    if (chunks > 1) {
        prm->fold_pass = 1;
        edmli_gles_barrier(r);
        (eight ? edmli_gles_run_topk_thread_8 : edmli_gles_run_topk_thread)(r, prm, rows, true);
    }
    return EDML_STATUS_OK;
}

edml_status edmli_gles_topk(const edml_operator *op, const edmli_exec *ex)
{
    edmli_gles_run r;
    edml_status s = edmli_gles_begin_op(&r, op, ex->err);
    if (s) return s;
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0];
    uint32_t off_in, off_out[2];
    if ((s = edmli_gles_input(&r, op, ex, 0, &off_in))) return s;
    for (uint32_t o = 0; o < 2; o++)
        if ((s = edmli_gles_output(&r, op, ex, o, &off_out[o]))) return s;
    if (EDMLI_GLES_PLAN(op)->topk_small) return edmli_gles_topk_one_row(&r, op, off_in, off_out);
    edmli_topk_prm prm = {.data = edmli_gles_tensor_prm(ti, off_in),
                          .axis_size = p->axis_size,
                          .axis_stride = ti->strides[p->axis],
                          .k = p->k,
                          .increasing = p->direction == EDML_AXIS_DIRECTION_INCREASING,
                          .wide_keys = ti->elem_size == 8,
                          .rows = (uint32_t)(ti->elem_count / p->axis_size)};
    if ((s = edmli_gles_alloc(&r, (uint64_t)prm.rows * p->k * 4u, &prm.winners_offset))) return s;
    for (uint32_t d = 0; d < ti->rank; d++) {
        if (d == p->axis) continue;
        prm.kept.sizes[prm.kept.count] = ti->sizes[d];
        prm.kept.strides[prm.kept.count++] = ti->strides[d];
    }
    /* a small K along a strided axis (reads coalesced across rows) or short
     * packed rows: a row per invocation; otherwise a row per workgroup */
    if (EDMLI_GLES_PLAN(op)->topk_chunks) {
        if ((s = edmli_gles_topk_threads(&r, &prm, EDMLI_GLES_PLAN(op)))) return s;
    } else if (EDMLI_GLES_PLAN(op)->topk_rank) {
        edmli_gles_run_topk_rank(&r, &prm, (uint32_t)ti->elem_count, false);
    } else {
        prm.rows_per_group = EDMLI_GLES_PLAN(op)->topk_rows_per_group;
        edmli_gles_run_topk_select(&r, &prm, (prm.rows + prm.rows_per_group - 1) / prm.rows_per_group, true);
    }
    edmli_gles_barrier(&r);
    for (uint32_t o = 0; o < 2; o++) {
        const edmli_topk_out_prm out = {.data = prm.data,
                                        .result = edmli_gles_output_prm(&op->outputs[o], off_out[o]),
                                        .axis = p->axis,
                                        .k = p->k,
                                        .winners_offset = prm.winners_offset,
                                        .indices = o == 1};
        edmli_gles_run_topk_out(&r, &out, edmli_gles_output_units(&op->outputs[o]), false);
    }
    return edmli_gles_finish(&r);
}
