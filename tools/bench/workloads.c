/* edml-bench: the workloads of docs/bench.md, their tensors and data. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- data ------------------------------------------------------------------ */

static uint64_t rng_state = 0x1234abcd5678ef01ull;

uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

float uniform(void) { return (float)((double)(rng() >> 11) / 9007199254740992.0 * 2.0 - 1.0); }

static uint16_t to_half(float f) /* round to nearest even, for the data of FLOAT16 workloads */
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffff;
    int ne = (int)e - 127 + 15;
    if (e == 0xff) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    if (ne >= 31) return (uint16_t)(sign | 0x7c00u);
    if (ne <= 0) {
        if (ne < -10) return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - ne), h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)ne << 10) | (m >> 13), rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

void tensor_init(tensor *t, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *strides)
{
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->rank = rank;
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    if (strides) memcpy(t->strides, strides, rank * sizeof(UINT)), t->strided = true;
    t->count = 1;
    for (UINT i = 0; i < rank; i++) t->count *= sizes[i];
    t->bytes = edml_calc_buffer_tensor_size(dt, rank, t->sizes, strides ? t->strides : NULL);
    t->b =
        (EDML_BUFFER_TENSOR_DESC){dt, EDML_TENSOR_FLAG_NONE, rank, t->sizes, strides ? t->strides : NULL, t->bytes, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
    if (posix_memalign((void **)&t->host, 64, (size_t)t->bytes + 64)) abort();
    memset(t->host, 0, (size_t)t->bytes);
}

static void fill_uniform(tensor *t)
{
    uint64_t n = t->bytes / edml_data_type_size(t->dtype);
    for (uint64_t i = 0; i < n; i++) {
        if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT32) {
            float f = uniform();
            memcpy(t->host + 4 * i, &f, 4);
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_FLOAT16) {
            uint16_t h = to_half(uniform());
            memcpy(t->host + 2 * i, &h, 2);
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_UINT8) {
            t->host[i] = (uint8_t)rng();
        } else if (t->dtype == EDML_TENSOR_DATA_TYPE_INT64) {
            const int64_t v = (int64_t)(rng() >> 20) - ((int64_t)1 << 43); /* ties rare, both signs */
            memcpy(t->host + 8 * i, &v, 8);
        }
    }
}

static void fill_conditions(tensor *t)
{
    for (uint64_t i = 0; i < t->bytes; i++) t->host[i] = (uint8_t)(rng() & 1);
}

void fill_indices(tensor *t, const UINT *ranges, UINT tuple)
{
    uint64_t n = t->count;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = rng() % ranges[i % tuple];
        if (t->dtype == EDML_TENSOR_DATA_TYPE_INT64)
            memcpy(t->host + 8 * i, &v, 8);
        else {
            uint32_t w = (uint32_t)v;
            memcpy(t->host + 4 * i, &w, 4);
        }
    }
}

static UINT scaled(UINT v, double scale)
{
    UINT s = (UINT)(v * scale);
    return s < 1 ? 1 : s;
}

void topk_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rows, UINT cols, UINT axis, UINT k,
                   EDML_AXIS_DIRECTION dir)
{
    UINT in_sizes[2] = {rows, cols}, out_sizes[2] = {rows, cols};
    out_sizes[axis] = k;
    w->nin = 1, w->nout = 2;
    tensor_init(&w->in[0], dt, 2, in_sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->out[0], dt, 2, out_sizes, NULL);
    tensor_init(&w->out[1], EDML_TENSOR_DATA_TYPE_UINT32, 2, out_sizes, NULL);
    w->u.topk = (EDML_TOP_K1_OPERATOR_DESC){&w->in[0].d, &w->out[0].d, &w->out[1].d, axis, k, dir};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_TOP_K1, &w->u};
    w->topk_axis = axis;
    w->topk_k = k;
}

void argreduce_workload(workload *w, EDML_OPERATOR_TYPE type, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes,
                        const UINT *axes, UINT naxes)
{
    UINT out_sizes[8];
    memcpy(out_sizes, sizes, rank * sizeof(UINT));
    for (UINT a = 0; a < naxes; a++) out_sizes[axes[a]] = 1;
    w->nin = 1, w->nout = 1;
    tensor_init(&w->in[0], dt, rank, sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->out[0], EDML_TENSOR_DATA_TYPE_UINT32, rank, out_sizes, NULL);
    memcpy(w->axes, axes, naxes * sizeof(UINT));
    w->u.argreduce =
        (EDML_ARGMIN_OPERATOR_DESC){&w->in[0].d, &w->out[0].d, naxes, w->axes, EDML_AXIS_DIRECTION_INCREASING};
    w->desc = (EDML_OPERATOR_DESC){type, &w->u};
}

void argmin_workload(workload *w, EDML_OPERATOR_TYPE type, UINT rank, const UINT *sizes, const UINT *axes, UINT naxes)
{
    argreduce_workload(w, type, EDML_TENSOR_DATA_TYPE_FLOAT32, rank, sizes, axes, naxes);
}

void gather_workload(workload *w, UINT rank, const UINT *in_sizes, const UINT *ix_sizes, EDML_TENSOR_DATA_TYPE ix_type,
                     UINT batch)
{
    UINT T = ix_sizes[rank - 1];
    /* output sizes: batch, positions, slice (right-aligned) */
    UINT list[16], m = 0, out_sizes[8];
    for (UINT b = 0; b < batch; b++) list[m++] = in_sizes[b];
    for (UINT p = batch; p + 1 < rank; p++) list[m++] = ix_sizes[p];
    for (UINT s = batch + T; s < rank; s++) list[m++] = in_sizes[s];
    for (UINT j = 0; j < rank; j++) out_sizes[j] = j + m >= rank ? list[j + m - rank] : 1;
    w->nin = 2, w->nout = 1;
    tensor_init(&w->in[0], EDML_TENSOR_DATA_TYPE_FLOAT32, rank, in_sizes, NULL);
    fill_uniform(&w->in[0]);
    tensor_init(&w->in[1], ix_type, rank, ix_sizes, NULL);
    UINT ranges[8];
    for (UINT j = 0; j < T; j++) ranges[j] = in_sizes[batch + j];
    fill_indices(&w->in[1], ranges, T);
    tensor_init(&w->out[0], EDML_TENSOR_DATA_TYPE_FLOAT32, rank, out_sizes, NULL);
    w->u.gather_nd = (EDML_GATHER_ND1_OPERATOR_DESC){&w->in[0].d, &w->in[1].d, &w->out[0].d, rank, rank, batch};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_GATHER_ND1, &w->u};
}

void if_workload(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rank, const UINT *sizes, const UINT *cond_strides)
{
    w->nin = 3, w->nout = 1;
    tensor_init(&w->in[0], EDML_TENSOR_DATA_TYPE_UINT8, rank, sizes, cond_strides);
    fill_conditions(&w->in[0]);
    tensor_init(&w->in[1], dt, rank, sizes, NULL);
    tensor_init(&w->in[2], dt, rank, sizes, NULL);
    fill_uniform(&w->in[1]);
    fill_uniform(&w->in[2]);
    tensor_init(&w->out[0], dt, rank, sizes, NULL);
    w->u.elementwise_if = (EDML_ELEMENT_WISE_IF_OPERATOR_DESC){&w->in[0].d, &w->in[1].d, &w->in[2].d, &w->out[0].d};
    w->desc = (EDML_OPERATOR_DESC){EDML_OPERATOR_ELEMENT_WISE_IF, &w->u};
}

const char *const workload_names[] = {"topk_cls",      "topk_det",     "topk_vocab",   "topk_vocab_f16",
                                      "topk_axis0",    "topk_wide",    "gather_rows",  "gather_batch",
                                      "gather_points", "argmin_inner", "argmin_outer", "argmin_all",
                                      "argmax_seg",    "if_f32",       "if_u8",        "if_bcast"};
_Static_assert(sizeof workload_names / sizeof *workload_names == WORKLOADS, "WORKLOADS counts them");

/* --topk ROWS,N,K[,0]: one more workload, index WORKLOADS, outside
 * docs/bench.md: TopK (FLOAT32, DECREASING) of K from each of ROWS rows of
 * N, along the packed axis (,0: down N x ROWS columns, axis 0) */
UINT topk_rows[4];

const char *workload_name(int i) { return i < WORKLOADS ? workload_names[i] : "topk_rows"; }

void make_workload(workload *w, int i, double sc)
{
    memset(w, 0, sizeof *w);
    rng_state = 0x1234abcd5678ef01ull + (uint64_t)i;
    w->name = workload_name(i);
    switch (i) {
    case 0: topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 1000, 1, 5, EDML_AXIS_DIRECTION_DECREASING); break;
    case WORKLOADS: {
        const UINT r = topk_rows[0], n = topk_rows[1], axis = topk_rows[3] ? 1 : 0;
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, axis ? r : n, axis ? n : r, axis, topk_rows[2],
                      EDML_AXIS_DIRECTION_DECREASING);
        break;
    }
    /* --scale shrinks the number of rows, never a row: the row length is what TopK is about */
    case 1: topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, 25200, 1, 300, EDML_AXIS_DIRECTION_DECREASING); break;
    case 2:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, scaled(8, sc), 32000, 1, 40, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 3:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT16, scaled(8, sc), 32000, 1, 40, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 4: /* columns in 16s, as in the full 1024: a CPU runs 16 side by side */
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 4096, (scaled(1024, sc) + 15) / 16 * 16, 0, 8,
                      EDML_AXIS_DIRECTION_INCREASING);
        break;
    case 5:
        topk_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, scaled(256, sc), 65536, 1, 16, EDML_AXIS_DIRECTION_DECREASING);
        break;
    case 6: {
        UINT a[2] = {scaled(32000, sc), 512}, b[2] = {scaled(8192, sc), 1};
        gather_workload(w, 2, a, b, EDML_TENSOR_DATA_TYPE_INT32, 0);
        break;
    }
    case 7: {
        UINT a[3] = {16, scaled(4096, sc), 256}, b[3] = {16, scaled(1024, sc), 1};
        gather_workload(w, 3, a, b, EDML_TENSOR_DATA_TYPE_INT32, 1);
        break;
    }
    case 8: {
        UINT a[2] = {1024, 1024}, b[2] = {scaled(1048576, sc), 2};
        gather_workload(w, 2, a, b, EDML_TENSOR_DATA_TYPE_INT64, 0);
        break;
    }
    case 9: {
        UINT s[2] = {scaled(4096, sc), 4096}, ax[1] = {1};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 1);
        break;
    }
    case 10: { /* columns in 16s, as in the full 4096: a CPU runs 16 side by side */
        UINT s[2] = {4096, (scaled(4096, sc) + 15) / 16 * 16}, ax[1] = {0};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 1);
        break;
    }
    case 11: {
        UINT s[2] = {scaled(4096, sc), 4096}, ax[2] = {0, 1};
        argmin_workload(w, EDML_OPERATOR_ARGMIN, 2, s, ax, 2);
        break;
    }
    case 12: {
        UINT s[4] = {1, 21, scaled(512, sc), 512}, ax[1] = {1};
        argmin_workload(w, EDML_OPERATOR_ARGMAX, 4, s, ax, 1);
        break;
    }
    case 13: {
        UINT s[1] = {scaled(16777216, sc)};
        if_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT32, 1, s, NULL);
        break;
    }
    case 14: {
        UINT s[1] = {scaled(67108864, sc)};
        if_workload(w, EDML_TENSOR_DATA_TYPE_UINT8, 1, s, NULL);
        break;
    }
    default: {
        UINT s[4] = {1, 3, scaled(1024, sc), 1024}, cs[4] = {0, 0, 1024, 1};
        if_workload(w, EDML_TENSOR_DATA_TYPE_FLOAT16, 4, s, cs);
        break;
    }
    }
    for (int k = 0; k < w->nin; k++) w->bytes += w->in[k].count * edml_data_type_size(w->in[k].dtype);
    for (int k = 0; k < w->nout; k++) w->bytes += w->out[k].count * edml_data_type_size(w->out[k].dtype);
}

void free_workload(workload *w)
{
    for (int k = 0; k < w->nin; k++) free(w->in[k].host);
    for (int k = 0; k < w->nout; k++) free(w->out[k].host);
    if (w->owned) free_case_of(w);
}

/* The board report's shape points beside the workloads (its cost model's
 * figures apart from size, and a point of each kernel path the workloads
 * leave out): ArgMax along 50,000 rows of 100 (rows, not bytes, cost),
 * along 40 FLOAT16 rows of 50,000 (half precision converted), along rows
 * of 21 and of 3 UINT8 channels (short rows), down 3 columns, along INT64
 * rows of 1024 (64-bit keys); ElementWiseIf of 1,048,576 x 4 bytes whose
 * condition is broadcast along the 4 (pixels); TopK 10 of INT64 rows of
 * 1024, 256 of one row of a million (a threshold select on several
 * workers), 32 of rows of 64 (the GPU's ranks), 10 of 2 rows of 4 million
 * (each row split). */
const char *const shape_names[SHAPE_WORKLOADS] = {"argmax_rows100", "argmax_f16",   "if_runs4",   "argmax_nhwc21",
                                                  "argmax_rgb_u8",  "argmax_cols3", "argmax_i64", "topk_i64",
                                                  "topk_bigk",      "topk_rows64",  "topk_long2", "topk_rows12"};

static void shape_argmax(workload *w, EDML_TENSOR_DATA_TYPE dt, UINT rows, UINT cols, UINT axis)
{
    UINT s[2] = {rows, cols}, ax[1] = {axis};
    argreduce_workload(w, EDML_OPERATOR_ARGMAX, dt, 2, s, ax, 1);
}

void make_shape_workload(workload *w, int i, double sc)
{
    memset(w, 0, sizeof *w);
    rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)i;
    w->name = shape_names[i];
    const EDML_TENSOR_DATA_TYPE f32 = EDML_TENSOR_DATA_TYPE_FLOAT32, i64 = EDML_TENSOR_DATA_TYPE_INT64;
    const EDML_AXIS_DIRECTION down = EDML_AXIS_DIRECTION_DECREASING;
    switch (i) {
    case 0: shape_argmax(w, f32, scaled(50000, sc), 100, 1); break;
    case 1: shape_argmax(w, EDML_TENSOR_DATA_TYPE_FLOAT16, scaled(40, sc), 50000, 1); break;
    case 2: {
        UINT s[2] = {scaled(1048576, sc), 4}, cs[2] = {1, 0};
        if_workload(w, EDML_TENSOR_DATA_TYPE_UINT8, 2, s, cs);
        break;
    }
    case 3: shape_argmax(w, f32, scaled(262144, sc), 21, 1); break;
    case 4: shape_argmax(w, EDML_TENSOR_DATA_TYPE_UINT8, scaled(2073600, sc), 3, 1); break;
    case 5: shape_argmax(w, f32, scaled(1048576, sc), 3, 0); break;
    case 6: shape_argmax(w, i64, scaled(4096, sc), 1024, 1); break;
    case 7: topk_workload(w, i64, scaled(1024, sc), 1024, 1, 10, down); break;
    case 8: topk_workload(w, f32, 1, scaled(1048576, sc), 1, 256, down); break;
    case 9: topk_workload(w, f32, scaled(65536, sc), 64, 1, 32, down); break;
    case 10: topk_workload(w, f32, 2, scaled(4194304, sc), 1, 10, down); break;
    default: topk_workload(w, f32, scaled(16384, sc), 12, 1, 3, down); break; /* a keyword spotter's */
    }
    for (int k = 0; k < w->nin; k++) w->bytes += w->in[k].count * edml_data_type_size(w->in[k].dtype);
    for (int k = 0; k < w->nout; k++) w->bytes += w->out[k].count * edml_data_type_size(w->out[k].dtype);
}
