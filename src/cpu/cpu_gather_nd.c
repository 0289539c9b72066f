/* GatherND on the CPU (the reference's and NEON's): per index tuple, clamp
 * the coordinates and copy the addressed slice of the input; packed runs go
 * through the backend's copy (memcpy for the reference). */
#include "cpu.h"

#include <string.h>

int64_t edmli_gather_tuple_offset(const edml_operator *op, const uint8_t *tuple, uint64_t element_base,
                                  edmli_gather_oor *oor)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const edmli_tensor *ix = &op->inputs[1];
    const int64_t tstep = (int64_t)g->tuple_stride * ix->elem_size;
    int64_t off = 0;
    for (uint32_t j = 0; j < g->tuple; j++, tuple += tstep) {
        const int64_t size = g->coord_sizes[j];
        int64_t c;
        bool bad;
        uint64_t raw_u = 0;
        bool is_u = false;
        switch (ix->dtype) {
        case EDML_TENSOR_DATA_TYPE_INT32: {
            int32_t v;
            memcpy(&v, tuple, 4);
            c = v;
            break;
        }
        case EDML_TENSOR_DATA_TYPE_INT64: {
            int64_t v;
            memcpy(&v, tuple, 8);
            c = v;
            break;
        }
        case EDML_TENSOR_DATA_TYPE_UINT32: {
            uint32_t v;
            memcpy(&v, tuple, 4);
            c = v;
            raw_u = v;
            is_u = true;
            break;
        }
        default: {
            uint64_t v;
            memcpy(&v, tuple, 8);
            raw_u = v;
            is_u = true;
            c = v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
            break;
        }
        }
        int64_t w = c;
        if (!is_u && w < 0 && w >= -size) w += size; /* negative: from the end */
        bad = w < 0 || w >= size;
        if (bad) {
            if (oor->count++ == 0) {
                oor->element = element_base + j;
                oor->coord = j;
                oor->value = c;
                oor->uvalue = raw_u;
                oor->is_unsigned = is_u;
            }
            w = w < 0 ? 0 : size - 1;
        }
        off += w * (int64_t)g->coord_strides[j];
    }
    return off * (int64_t)op->inputs[0].elem_size;
}

edml_status edmli_gather_report(const edml_operator *op, const edmli_exec *ex, const edmli_gather_oor *oor)
{
    if (!oor->count) return EDML_STATUS_OK;
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    uint32_t size = g->coord_sizes[oor->coord];
    uint32_t dim = g->coord_dims[oor->coord];
    if (oor->is_unsigned)
        return edmli_fail(ex->err, EDMLI_MSG_INDEX_OOR_UNSIGNED, (unsigned long long)oor->element, oor->coord,
                          (unsigned long long)oor->uvalue, size - 1, dim, (unsigned long long)oor->count);
    return edmli_fail(ex->err, EDMLI_MSG_INDEX_OOR_SIGNED, (unsigned long long)oor->element, oor->coord,
                      (long long)oor->value, -(long long)size, size - 1, dim, (unsigned long long)oor->count);
}

static void edmli_cpu_copy_slice(const edml_operator *op, edmli_copy_fn copy, const uint8_t *src, uint8_t *dst)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const uint32_t es = op->inputs[0].elem_size;
    if (g->slice_rank == 0) {
        memcpy(dst, src, es);
        return;
    }
    const uint32_t elem[2] = {es, es};
    edmli_odo o;
    edmli_odo_init(&o, 2);
    for (uint32_t d = 0; d + 1 < g->slice_rank; d++) {
        const uint32_t st[2] = {g->slice_in_strides[d], g->slice_out_strides[d]};
        edmli_odo_dim(&o, g->slice_sizes[d], st, elem);
    }
    const uint32_t last = g->slice_rank - 1, n = g->slice_sizes[last];
    const int64_t si = (int64_t)g->slice_in_strides[last] * es, so = (int64_t)g->slice_out_strides[last] * es;
    const bool packed = si == es && so == es;
    for (uint64_t r = 0, rows = edmli_odo_count(&o); r < rows; r++, edmli_odo_next(&o)) {
        const uint8_t *s = src + o.off[0];
        uint8_t *d = dst + o.off[1];
        if (packed) {
            copy(d, s, (size_t)n * es);
        } else {
            for (uint32_t i = 0; i < n; i++) memcpy(d + i * so, s + i * si, es);
        }
    }
}

/* The odometer over index positions (indices, output, input). */
static void edmli_gather_positions(const edml_operator *op, edmli_odo *o)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const uint32_t elem[3] = {op->inputs[1].elem_size, op->outputs[0].elem_size, op->inputs[0].elem_size};
    edmli_odo_init(o, 3);
    for (uint32_t d = 0; d < g->outer_rank; d++) {
        const uint32_t st[3] = {g->outer_idx_strides[d], g->outer_out_strides[d], g->outer_in_strides[d]};
        edmli_odo_dim(o, g->outer_sizes[d], st, elem);
    }
}

/* Index positions [pos, end): each part counts its own clamped indices. */
void edmli_cpu_gather_range(edmli_gather_job *j, uint32_t part, uint64_t pos, uint64_t end)
{
    const edmli_gather_nd_plan *g = &j->op->plan.gather_nd;
    if (pos >= end) return;
    edmli_odo o = j->positions;
    edmli_odo_seek(&o, pos);
    edmli_gather_oor *oor = &j->oor[part];
    const uint32_t es = j->op->inputs[0].elem_size;
    for (; pos < end; pos++, edmli_odo_next(&o)) {
        int64_t in_off = o.off[2] + edmli_gather_tuple_offset(j->op, j->ex->in[1] + o.off[0], pos * g->tuple, oor);
        const uint8_t *src = j->ex->in[0] + in_off;
        uint8_t *dst = j->ex->out[0] + o.off[1];
        if (g->slice_rank) {
            edmli_cpu_copy_slice(j->op, j->copy, src, dst);
            continue;
        }
        switch (es) { /* one element: a fixed-size copy, not a call */
        case 1: *dst = *src; break;
        case 2: memcpy(dst, src, 2); break;
        case 4: memcpy(dst, src, 4); break;
        default: memcpy(dst, src, 8); break;
        }
    }
}

void edmli_cpu_gather_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    edmli_gather_job *j = (edmli_gather_job *)arg;
    uint64_t pos, end;
    edmli_cpu_range(j->count, j->parts, part, 1, &pos, &end);
    edmli_cpu_gather_range(j, part, pos, end);
}

static void edmli_memcpy(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }

uint32_t edmli_gather_parts(const edml_operator *op)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    edmli_odo positions;
    edmli_gather_positions(op, &positions);
    const uint64_t count = edmli_odo_count(&positions);
    uint64_t slice = op->inputs[0].elem_size;
    for (uint32_t d = 0; d < g->slice_rank; d++) slice *= g->slice_sizes[d];
    return edmli_cpu_parts_balanced(op, count, count * (2 * slice + g->tuple * op->inputs[1].elem_size));
}

edml_status edmli_cpu_gather_nd(const edml_operator *op, const edmli_exec *ex, bool parallel, edmli_copy_fn copy,
                                edml_task_fn task)
{
    edmli_gather_job j;
    j.op = op;
    j.ex = ex;
    j.copy = copy ? copy : edmli_memcpy;
    edmli_gather_positions(op, &j.positions);
    j.count = edmli_odo_count(&j.positions);
    j.parts = parallel ? edmli_gather_parts(op) : 1;
    j.oor = j.parts > 1 ? (edmli_gather_oor *)(void *)ex->scratch : &j.one;
    memset(j.oor, 0, j.parts * sizeof j.oor[0]);
    edml_status s = edmli_cpu_parallel(ex, j.parts, task ? task : edmli_cpu_gather_part, &j);
    if (s) return s;
    /* the parts' clamped indices in part order: the first is the first part's */
    edmli_gather_oor all = {0};
    for (uint32_t p = 0; p < j.parts; p++) {
        if (j.oor[p].count && !all.count) all = j.oor[p], all.count = 0;
        all.count += j.oor[p].count;
    }
    return edmli_gather_report(op, ex, &all);
}

uint64_t edmli_gather_temp_bytes(const edml_operator *op)
{
    uint64_t parts = (uint64_t)op->workers * EDMLI_CPU_PARTS_A_WORKER; /* edmli_cpu_parts_balanced's most */
    if (parts > 64u) parts = 64u;
    return op->workers > 1 ? parts * sizeof(edmli_gather_oor) : 0;
}

edml_status edmli_gather_check(const edml_operator *op, const edmli_exec *ex)
{
    const edmli_gather_nd_plan *g = &op->plan.gather_nd;
    const uint32_t elem[1] = {op->inputs[1].elem_size};
    edmli_odo o;
    edmli_odo_init(&o, 1);
    for (uint32_t d = 0; d < g->outer_rank; d++) edmli_odo_dim(&o, g->outer_sizes[d], &g->outer_idx_strides[d], elem);
    edmli_gather_oor oor = {0};
    for (uint64_t pos = 0, n = edmli_odo_count(&o); pos < n; pos++, edmli_odo_next(&o))
        (void)edmli_gather_tuple_offset(op, ex->in[1] + o.off[0], pos * g->tuple, &oor);
    return edmli_gather_report(op, ex, &oor);
}
