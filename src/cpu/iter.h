/* An odometer over up to 16 dimensions that moves up to 4 byte offsets at
 * once; the CPU backends walk strided tensors with it. */
#ifndef EDMLI_ITER_H
#define EDMLI_ITER_H

#include <stdint.h>

#define EDMLI_ODO_DIMS 16
#define EDMLI_ODO_OPS 4

typedef struct edmli_odo {
    uint32_t rank, nops;
    uint32_t sizes[EDMLI_ODO_DIMS];
    int64_t step[EDMLI_ODO_OPS][EDMLI_ODO_DIMS]; /* bytes per step of each dim */
    uint32_t idx[EDMLI_ODO_DIMS];
    int64_t off[EDMLI_ODO_OPS];
} edmli_odo;

static inline void edmli_odo_init(edmli_odo *o, uint32_t nops)
{
    o->rank = 0;
    o->nops = nops;
    for (uint32_t i = 0; i < EDMLI_ODO_OPS; i++) o->off[i] = 0;
}

/* Appends a dimension (outermost first); strides in elements, elem sizes in bytes. */
static inline void edmli_odo_dim(edmli_odo *o, uint32_t size, const uint32_t *strides, const uint32_t *elem)
{
    uint32_t d = o->rank++;
    o->sizes[d] = size;
    o->idx[d] = 0;
    for (uint32_t i = 0; i < o->nops; i++) o->step[i][d] = (int64_t)strides[i] * elem[i];
}

/* Total positions. */
static inline uint64_t edmli_odo_count(const edmli_odo *o)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < o->rank; d++) n *= o->sizes[d];
    return n;
}

/* Moves to position `pos` (row-major, the last dim fastest) from the start. */
static inline void edmli_odo_seek(edmli_odo *o, uint64_t pos)
{
    for (uint32_t i = 0; i < o->nops; i++) o->off[i] = 0;
    if (pos == 0) {
        for (uint32_t d = 0; d < o->rank; d++) o->idx[d] = 0;
        return;
    }
    for (uint32_t d = o->rank; d-- > 0;) {
        o->idx[d] = (uint32_t)(pos % o->sizes[d]);
        pos /= o->sizes[d];
        for (uint32_t i = 0; i < o->nops; i++) o->off[i] += o->step[i][d] * (int64_t)o->idx[d];
    }
}

static inline void edmli_odo_next(edmli_odo *o)
{
    for (uint32_t d = o->rank; d-- > 0;) {
        if (++o->idx[d] < o->sizes[d]) {
            for (uint32_t i = 0; i < o->nops; i++) o->off[i] += o->step[i][d];
            return;
        }
        o->idx[d] = 0;
        for (uint32_t i = 0; i < o->nops; i++) o->off[i] -= o->step[i][d] * (int64_t)(o->sizes[d] - 1);
    }
}

#endif /* EDMLI_ITER_H */
