/* Helpers for the tests: a seeded generator, tensors with layouts, a device.
 * Independent of src/: the tests see only edml.h. */
#ifndef EDML_TESTLIB_H
#define EDML_TESTLIB_H

#include "edml.h"
#include "parallel.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tl_failures;
static int tl_checks;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        tl_checks++;                                                                 \
        if (!(cond)) {                                                               \
            tl_failures++;                                                           \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                   \
        }                                                                            \
    } while (0)

/* xorshift64*: reproducible from a seed */
typedef struct tl_rng {
    uint64_t s;
} tl_rng;
static inline uint64_t tl_next(tl_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}
static inline uint32_t tl_below(tl_rng *r, uint32_t n) { return n ? (uint32_t)(tl_next(r) % n) : 0; }
static inline void tl_seed(tl_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    if (!r->s) r->s = 1;
}

static inline uint32_t tl_type_size(EDML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT64:
    case EDML_TENSOR_DATA_TYPE_UINT64:
    case EDML_TENSOR_DATA_TYPE_INT64: return 8;
    case EDML_TENSOR_DATA_TYPE_FLOAT32:
    case EDML_TENSOR_DATA_TYPE_UINT32:
    case EDML_TENSOR_DATA_TYPE_INT32: return 4;
    case EDML_TENSOR_DATA_TYPE_FLOAT16:
    case EDML_TENSOR_DATA_TYPE_UINT16:
    case EDML_TENSOR_DATA_TYPE_INT16: return 2;
    default: return 1;
    }
}

static const EDML_TENSOR_DATA_TYPE tl_all_types[11] = {
    EDML_TENSOR_DATA_TYPE_FLOAT64, EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_DATA_TYPE_FLOAT16,
    EDML_TENSOR_DATA_TYPE_INT64,   EDML_TENSOR_DATA_TYPE_INT32,   EDML_TENSOR_DATA_TYPE_INT16,
    EDML_TENSOR_DATA_TYPE_INT8,    EDML_TENSOR_DATA_TYPE_UINT64,  EDML_TENSOR_DATA_TYPE_UINT32,
    EDML_TENSOR_DATA_TYPE_UINT16,  EDML_TENSOR_DATA_TYPE_UINT8,
};

/* A tensor with its descriptor and a 16-aligned buffer. */
typedef struct tl_tensor {
    EDML_TENSOR_DATA_TYPE dtype;
    UINT rank;
    UINT sizes[8];
    UINT strides[8]; /* always explicit here */
    bool packed;     /* descriptor gives Strides = NULL */
    UINT64 total;
    uint8_t *buf;
    EDML_BUFFER_TENSOR_DESC b;
    EDML_TENSOR_DESC d;
} tl_tensor;

static inline uint64_t tl_count(const tl_tensor *t)
{
    uint64_t n = 1;
    for (UINT i = 0; i < t->rank; i++) n *= t->sizes[i];
    return n;
}

/* Byte offset of the element at coordinates c. */
static inline uint64_t tl_offset(const tl_tensor *t, const UINT *c)
{
    uint64_t o = 0;
    for (UINT i = 0; i < t->rank; i++) o += (uint64_t)c[i] * t->strides[i];
    return o * tl_type_size(t->dtype);
}

/* Coordinates of logical element `flat` (row-major). */
static inline void tl_coords(const tl_tensor *t, uint64_t flat, UINT *c)
{
    for (UINT i = t->rank; i-- > 0;) {
        c[i] = (UINT)(flat % t->sizes[i]);
        flat /= t->sizes[i];
    }
}

/* layout: 0 packed, 1 padded, 2 permuted, 3 broadcast (inputs only) */
static inline void tl_layout(tl_tensor *t, tl_rng *r, int layout)
{
    UINT order[8];
    for (UINT i = 0; i < t->rank; i++) order[i] = i;
    if (layout == 2)
        for (UINT i = t->rank; i > 1; i--) {
            UINT j = tl_below(r, i);
            UINT x = order[i - 1];
            order[i - 1] = order[j];
            order[j] = x;
        }
    uint64_t s = 1;
    for (UINT k = t->rank; k-- > 0;) {
        UINT d = order[k];
        if (layout == 3 && t->sizes[d] > 1 && tl_below(r, 2)) {
            t->strides[d] = 0;
            continue;
        }
        t->strides[d] = (UINT)s;
        s *= t->sizes[d] + (layout == 1 ? tl_below(r, 3) : 0);
    }
    t->packed = layout == 0;
}

/* Sets the descriptor and allocates the buffer, filled with `fill`. */
static inline void tl_finish(tl_tensor *t, tl_rng *r, uint8_t fill)
{
    UINT64 calc = edml_calc_buffer_tensor_size(t->dtype, t->rank, t->sizes, t->strides);
    t->total = calc + (r && tl_below(r, 4) == 0 ? 4 * tl_below(r, 3) : 0);
    if (posix_memalign((void **)&t->buf, 16, (size_t)t->total + 16)) abort();
    memset(t->buf, fill, (size_t)t->total);
    t->b = (EDML_BUFFER_TENSOR_DESC){
        t->dtype, EDML_TENSOR_FLAG_NONE, t->rank, t->sizes, t->packed ? NULL : t->strides, t->total, 0};
    t->d = (EDML_TENSOR_DESC){EDML_TENSOR_TYPE_BUFFER, &t->b};
}

static inline void tl_free(tl_tensor *t)
{
    free(t->buf);
    t->buf = NULL;
}

static inline EDML_BUFFER_BINDING tl_bind(const tl_tensor *t) { return (EDML_BUFFER_BINDING){t->buf, 0, t->total}; }

/* A value of type t written to p: small values (ties), extremes, and for
 * floats the specials (NaN, +-inf, -0, subnormals). */
static inline void tl_random_value(tl_rng *r, EDML_TENSOR_DATA_TYPE t, uint8_t *p)
{
    uint32_t pick = tl_below(r, 16);
    uint64_t raw = tl_next(r);
    int64_t small = (int64_t)tl_below(r, 7) - 3;
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_FLOAT32: {
        float f = pick < 8 ? (float)small * 0.5f : 0;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (pick == 8) u = 0x7fc00000u | (uint32_t)(raw & 0x3fffff); /* NaN with payload */
        if (pick == 9) u = 0xff800001u;                              /* negative signalling NaN */
        if (pick == 10) u = 0x7f800000u;
        if (pick == 11) u = 0xff800000u;
        if (pick == 12) u = 0x80000000u;
        if (pick == 13) u = (uint32_t)(raw & 0x807fffffu); /* subnormal */
        if (pick >= 14) u = (uint32_t)raw;
        memcpy(p, &u, 4);
        break;
    }
    case EDML_TENSOR_DATA_TYPE_FLOAT64: {
        double f = pick < 8 ? (double)small * 0.25 : 0;
        uint64_t u;
        memcpy(&u, &f, 8);
        if (pick == 8) u = 0x7ff8000000000000ull | (raw & 0xfffffffffffull);
        if (pick == 9) u = 0xfff0000000000001ull;
        if (pick == 10) u = 0x7ff0000000000000ull;
        if (pick == 11) u = 0xfff0000000000000ull;
        if (pick == 12) u = 0x8000000000000000ull;
        if (pick == 13) u = raw & 0x800fffffffffffffull;
        if (pick >= 14) u = raw;
        memcpy(p, &u, 8);
        break;
    }
    case EDML_TENSOR_DATA_TYPE_FLOAT16: {
        static const uint16_t smallh[7] = {0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200};
        uint16_t u = smallh[small + 3];
        if (pick == 8) u = (uint16_t)(0x7e00u | (raw & 0x1ff));
        if (pick == 9) u = 0xfc01;
        if (pick == 10) u = 0x7c00;
        if (pick == 11) u = 0xfc00;
        if (pick == 12) u = 0x8000;
        if (pick == 13) u = (uint16_t)(raw & 0x83ff);
        if (pick >= 14) u = (uint16_t)raw;
        memcpy(p, &u, 2);
        break;
    }
    default: {
        uint32_t es = tl_type_size(t);
        uint64_t v = pick < 10 ? (uint64_t)small : raw;
        if (pick == 10) v = 0x8000000000000000ull >> (64 - 8 * es); /* most negative / mid */
        if (pick == 11) v = UINT64_MAX;                             /* -1 / max */
        memcpy(p, &v, es);                                          /* little-endian */
        break;
    }
    }
}

static inline void tl_fill_random(tl_tensor *t, tl_rng *r)
{
    uint32_t es = tl_type_size(t->dtype);
    for (uint64_t o = 0; o + es <= t->total; o += es) tl_random_value(r, t->dtype, t->buf + o);
}

/* A device over a fresh arena (free with tl_device_free). */
typedef struct tl_device {
    void *arena;
    size_t size;
    edml_device *dev;
} tl_device;

/* backends of devices made with 0 (every backend); --cpu-only sets ref|neon */
static uint32_t tl_backends_default;
/* EDML_FAULT_* bits of devices made with tl_device_make, and their board (NULL: built in) */
static uint32_t tl_inject_faults;
static const edml_board *tl_board;
static uint32_t tl_gles_one_thread; /* edml_device_desc.gles_one_thread of devices made with tl_device_make */

/* A device as `dd` says in an arena of its own of `size` bytes. */
static inline edml_status tl_device_create(tl_device *d, size_t size, const edml_device_desc *dd)
{
    d->size = size;
    d->dev = NULL;
    if (posix_memalign(&d->arena, 16, size)) abort();
    memset(d->arena, 0, size); /* written: edml_device_create reads its head (a live device?) */
    return edml_device_create(dd, d->arena, size, &d->dev);
}

static inline edml_status tl_device_make(tl_device *d, size_t size, uint32_t backends)
{
    edml_device_desc dd = {0};
    dd.backends = backends ? backends : tl_backends_default;
    dd.inject_faults = tl_inject_faults;
    dd.board = tl_board;
    dd.gles_one_thread = tl_gles_one_thread;
    tl_parallel_desc(&dd);
    return tl_device_create(d, size, &dd);
}

static inline void tl_device_free(tl_device *d)
{
    if (d->dev) edml_device_destroy(d->dev);
    free(d->arena);
    d->arena = NULL;
    d->dev = NULL;
}

static inline int tl_summary(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, tl_checks, tl_failures);
    return tl_failures ? 1 : 0;
}

#endif
