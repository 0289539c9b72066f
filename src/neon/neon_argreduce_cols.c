/* ArgMin and ArgMax, NEON, down 2 or 3 packed columns (the plan's layout
 * [rows reduced, columns kept], strides {columns, 1}): the brightest pixel
 * of each channel of an image, a best row per class. Two passes over a
 * part's rows, each de-interleaved by vld2/vld3 so that a column is a
 * vector of 16, 8 or 4 rows (8-, 16-, 32-bit elements, at their own
 * width): first the best key of each column (lane-wise maximum of the
 * order keys: integers as integers, floats with -0 == +0 and NaN on top,
 * ArgMin's reversed), then the first (or last) row whose key equals it,
 * which on most data ends early. Parts: ranges of rows, each part's (key,
 * row) per column in scratch, combined in part order (a better key wins,
 * an equal one from a later part only when the last index wins), so any
 * thread count gives the same answer. */
#include "neon.h"

typedef struct edmli_neon_cols {
    const uint8_t *in;
    uint8_t *out;
    uint64_t rows;
    uint32_t cols, es, parts;
    uint32_t flip; /* INT sign flip ^ ArgMin's all ones, at the element's width */
    int64_t ostep; /* bytes between the output's columns */
    EDML_TENSOR_DATA_TYPE index_type;
    bool is_float, take_last;
    struct edmli_neon_colbest *partial; /* parts x 3 (scratch), or `one` */
} edmli_neon_cols;

typedef struct edmli_neon_colbest {
    uint32_t key, pad;
    uint64_t row;
} edmli_neon_colbest;

/* The order key of one element (the vector keys' lane 0). */
static uint32_t edmli_neon_cols_key1(const edmli_neon_cols *c, const uint8_t *p)
{
    uint32_t v = 0;
    memcpy(&v, p, c->es);
    if (c->es < 4) return v ^ c->flip;
    return vgetq_lane_u32(edmli_neon_order32(vdupq_n_u32(v), vdupq_n_u32(c->flip), c->is_float), 0);
}

/* The keys of each column of `lanes` rows at p (a third, for two columns, repeating the second). */
/* Whether best[j] (for j < cols) has its row: a lane of mask found, at row r. */
static inline bool edmli_neon_cols_done(const edmli_neon_cols *c, const edmli_neon_colbest *best)
{
    for (uint32_t j = 0; j < c->cols; j++)
        if (best[j].row == UINT64_MAX) return false;
    return true;
}

/* The first (last) row of [r0, r1) whose key is best[j].key, for each
 * column without one: the rows past `whole` one by one (first, for the
 * last index), the whole vectors of rows in order (backwards). */
#define EDMLI_NEON_COLS_FIND(bits, lanes, LANE)                                                                        \
    static void edmli_neon_cols_find##bits(const edmli_neon_cols *c, uint64_t r0, uint64_t whole, uint64_t r1,         \
                                           edmli_neon_colbest *best)                                                   \
    {                                                                                                                  \
        const uint32_t row = c->cols * c->es;                                                                          \
        const bool last = c->take_last;                                                                                \
        for (uint64_t t = 0; last && t < r1 - whole; t++)                                                              \
            for (uint32_t j = 0; j < c->cols; j++)                                                                     \
                if (best[j].row == UINT64_MAX &&                                                                       \
                    edmli_neon_cols_key1(c, c->in + (r1 - 1 - t) * row + j * c->es) == best[j].key)                    \
                    best[j].row = r1 - 1 - t;                                                                          \
        uint##bits##x##lanes##_t k[3];                                                                                 \
        const uint64_t blocks = (whole - r0) / lanes;                                                                  \
        for (uint64_t t = 0; t < blocks && !edmli_neon_cols_done(c, best); t++) {                                      \
            const uint64_t r = last ? whole - (t + 1) * lanes : r0 + t * lanes;                                        \
            edmli_neon_cols_keys##bits(c, c->in + r * row, k);                                                         \
            for (uint32_t j = 0; j < c->cols; j++) {                                                                   \
                if (best[j].row != UINT64_MAX) continue;                                                               \
                const uint##bits##x##lanes##_t eq = vceqq_u##bits(k[j], vdupq_n_u##bits((uint##bits##_t)best[j].key)); \
                if (LANE(eq, last) < lanes) best[j].row = r + LANE(eq, last);                                          \
            }                                                                                                          \
        }                                                                                                              \
        for (uint64_t r = whole; !last && r < r1; r++)                                                                 \
            for (uint32_t j = 0; j < c->cols; j++)                                                                     \
                if (best[j].row == UINT64_MAX && edmli_neon_cols_key1(c, c->in + r * row + j * c->es) == best[j].key)  \
                    best[j].row = r;                                                                                   \
    }

#define EDMLI_NEON_COLS_KEYS(bits, lanes)                                                           \
    EDMLI_ALWAYS_INLINE void edmli_neon_cols_keys##bits(const edmli_neon_cols *c, const uint8_t *p, \
                                                        uint##bits##x##lanes##_t k[3])              \
    {                                                                                               \
        const uint##bits##_t *q = (const uint##bits##_t *)(const void *)p;                          \
        const uint##bits##x##lanes##_t f = vdupq_n_u##bits((uint##bits##_t)c->flip);                \
        uint##bits##x##lanes##x3_t v;                                                               \
        if (c->cols == 3) {                                                                         \
            v = edmli_neon_ld3_u##bits(q);                                                          \
        } else {                                                                                    \
            const uint##bits##x##lanes##x2_t w = vld2q_u##bits(q);                                  \
            v.val[0] = w.val[0], v.val[1] = w.val[1], v.val[2] = w.val[1];                          \
        }                                                                                           \
        for (int j = 0; j < 3; j++) k[j] = edmli_neon_order##bits(v.val[j], f, c->is_float);        \
    }
EDMLI_NEON_COLS_KEYS(8, 16)
EDMLI_NEON_COLS_KEYS(16, 8)
EDMLI_NEON_COLS_KEYS(32, 4)
EDMLI_NEON_COLS_FIND(8, 16, edmli_neon_lane8)
EDMLI_NEON_COLS_FIND(16, 8, edmli_neon_lane16)
EDMLI_NEON_COLS_FIND(32, 4, edmli_neon_lane32)
#define EDMLI_NEON_COLS_RUN(bits, lanes, hmax)                                                              \
    /* Rows [r0, r1): each column's best key, then its first (last) row with it. */                         \
    static void edmli_neon_cols_run##bits(const edmli_neon_cols *c, uint64_t r0, uint64_t r1,               \
                                          edmli_neon_colbest *best)                                         \
    {                                                                                                       \
        const uint32_t row = c->cols * c->es;                                                               \
        const uint64_t whole = r0 + (r1 - r0) / lanes * lanes;                                              \
        uint##bits##x##lanes##_t m[3] = {vdupq_n_u##bits(0), vdupq_n_u##bits(0), vdupq_n_u##bits(0)}, k[3]; \
        for (uint64_t r = r0; r < whole; r += lanes) {                                                      \
            edmli_neon_cols_keys##bits(c, c->in + r * row, k);                                              \
            for (int j = 0; j < 3; j++) m[j] = vmaxq_u##bits(m[j], k[j]);                                   \
        }                                                                                                   \
        for (uint32_t j = 0; j < c->cols; j++) {                                                            \
            uint32_t b = hmax(m[j]);                                                                        \
            for (uint64_t r = whole; r < r1; r++) {                                                         \
                const uint32_t x = edmli_neon_cols_key1(c, c->in + r * row + j * c->es);                    \
                b = x > b ? x : b;                                                                          \
            }                                                                                               \
            best[j].key = b;                                                                                \
            best[j].row = UINT64_MAX;                                                                       \
        }                                                                                                   \
        edmli_neon_cols_find##bits(c, r0, whole, r1, best);                                                 \
    }

EDMLI_NEON_COLS_RUN(8, 16, edmli_neon_hmax8)
EDMLI_NEON_COLS_RUN(16, 8, edmli_neon_hmax16)
EDMLI_NEON_COLS_RUN(32, 4, edmli_neon_hmax32)

bool edmli_neon_argreduce_cols_takes(const edmli_neon_arg *v)
{
    const edmli_tensor *ti = v->in;
    const EDML_TENSOR_DATA_TYPE t = ti->dtype;
    const bool type = t == EDML_TENSOR_DATA_TYPE_UINT8 || t == EDML_TENSOR_DATA_TYPE_INT8 ||
                      t == EDML_TENSOR_DATA_TYPE_UINT16 || t == EDML_TENSOR_DATA_TYPE_INT16 ||
                      t == EDML_TENSOR_DATA_TYPE_UINT32 || t == EDML_TENSOR_DATA_TYPE_INT32 ||
                      t == EDML_TENSOR_DATA_TYPE_FLOAT32;
    return type && ti->rank == 2 && v->mask == 1 && (ti->sizes[1] == 2 || ti->sizes[1] == 3) && ti->strides[1] == 1 &&
           ti->strides[0] == ti->sizes[1];
}

uint64_t edmli_neon_argreduce_cols_temp_bytes(const edml_operator *op)
{
    return op->workers > 1 ? (uint64_t)op->workers * 3u * sizeof(edmli_neon_colbest) : 0;
}

static void edmli_neon_cols_part(void *arg, uint32_t part, uint32_t worker)
{
    (void)worker;
    const edmli_neon_cols *c = arg;
    uint64_t r0, r1;
    edmli_cpu_range(c->rows, c->parts, part, 16, &r0, &r1);
    edmli_neon_colbest *best = c->partial + 3u * part;
    if (r0 >= r1) {
        best[0].row = best[1].row = best[2].row = UINT64_MAX; /* none: skipped in the combine */
        return;
    }
    if (c->es == 1)
        edmli_neon_cols_run8(c, r0, r1, best);
    else if (c->es == 2)
        edmli_neon_cols_run16(c, r0, r1, best);
    else
        edmli_neon_cols_run32(c, r0, r1, best);
}

edml_status edmli_neon_argreduce_cols(const edmli_neon_arg *v, const edmli_exec *ex)
{
    const edmli_argreduce_plan *p = &v->op->plan.argreduce;
    const EDML_TENSOR_DATA_TYPE t = v->in->dtype;
    const uint32_t es = v->in->elem_size, bits = 8 * es;
    const bool sgn =
        t == EDML_TENSOR_DATA_TYPE_INT8 || t == EDML_TENSOR_DATA_TYPE_INT16 || t == EDML_TENSOR_DATA_TYPE_INT32;
    const uint32_t ones = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    edmli_neon_colbest one[3];
    edmli_neon_cols c = {.in = ex->in[0],
                         .out = ex->out[0],
                         .rows = v->in->sizes[0],
                         .cols = v->in->sizes[1],
                         .es = es,
                         .flip = (sgn ? 1u << (bits - 1) : 0) ^ (p->is_max ? 0 : ones),
                         .ostep = (int64_t)v->out->strides[1] * v->out->elem_size,
                         .index_type = v->out->dtype,
                         .is_float = t == EDML_TENSOR_DATA_TYPE_FLOAT32,
                         .take_last = p->direction == EDML_AXIS_DIRECTION_DECREASING};
    c.parts = edmli_cpu_parts(v->op, (c.rows + 15) / 16, v->in->elem_count * es);
    c.partial = c.parts > 1 ? (edmli_neon_colbest *)(void *)ex->scratch : one;
    edml_status s = edmli_cpu_parallel(ex, c.parts, edmli_neon_cols_part, &c);
    if (s) return s;
    for (uint32_t j = 0; j < c.cols; j++) {
        edmli_neon_colbest b = c.partial[j];
        for (uint32_t q = 1; q < c.parts; q++) {
            const edmli_neon_colbest x = c.partial[3u * q + j];
            if (x.row != UINT64_MAX && (b.row == UINT64_MAX || x.key > b.key || (c.take_last && x.key == b.key))) b = x;
        }
        edmli_store_index(c.out + j * c.ostep, c.index_type, b.row);
    }
    return EDML_STATUS_OK;
}
