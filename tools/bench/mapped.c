/* edml-bench --mapped: what a mapped GPU buffer saves against host memory,
 * for an application that fills an operator's inputs from its own source
 * (a camera frame, a model's output) and takes its output away. The
 * operator is ElementWiseIf over N floats (a condition byte each), timed
 * three ways, each from the application's memcpy of the inputs to its
 * memcpy of the output:
 *   host     the tensors in host memory: edml stages them through the GPU
 *            arena (upload, compute, download);
 *   buffers  GPU buffers filled with edml_gpu_buffer_write() and read with
 *            edml_gpu_buffer_read(), the operator on them;
 *   mapped   GPU buffers of a device with gpu_arena_mapped: the memcpys go
 *            straight into and out of edml_gpu_buffer_map()'s view.
 * Prints one line each and, with --json FILE, rows of kind "mapped". */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAPPED_N (4u << 20) /* elements: 4M floats, 16 MiB a tensor */

typedef struct mapped_io {
    const uint8_t *src[3]; /* the application's sources: condition, A, B */
    uint8_t *dst;          /* where it takes the output */
    uint64_t bytes[4];     /* condition, A, B, output */
} mapped_io;

static double mapped_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int mapped_cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static edml_operator *mapped_op(edml_device *dev)
{
    static const UINT sizes[1] = {MAPPED_N};
    static EDML_BUFFER_TENSOR_DESC cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0},
                                   fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, sizes, NULL, 0, 0};
    static const EDML_TENSOR_DESC ct = {EDML_TENSOR_TYPE_BUFFER, &cb}, ft = {EDML_TENSOR_TYPE_BUFFER, &fb};
    static const EDML_ELEMENT_WISE_IF_OPERATOR_DESC d = {&ct, &ft, &ft, &ft};
    const EDML_OPERATOR_DESC od = {EDML_OPERATOR_ELEMENT_WISE_IF, &d};
    edml_operator *op = NULL;
    return edml_operator_create(dev, &od, EDML_BACKEND_GLES, &op) == EDML_STATUS_OK ? op : NULL;
}

/* One call of a way (0 host, 1 buffers, 2 mapped); false on a failure. */
static bool mapped_call(int way, edml_operator *op, const mapped_io *io, uint8_t *const host[4],
                        edml_gpu_buffer *const buf[4], uint8_t *const view[4])
{
    EDML_BUFFER_BINDING in[3], out[1];
    for (int t = 0; t < 4; t++) {
        if (way == 0 && t < 3) memcpy(host[t], io->src[t], io->bytes[t]);
        if (way == 1 && t < 3 && edml_gpu_buffer_write(buf[t], 0, io->src[t], io->bytes[t])) return false;
        if (way == 2 && t < 3) memcpy(view[t], io->src[t], io->bytes[t]);
        const EDML_BUFFER_BINDING b =
            way == 0 ? (EDML_BUFFER_BINDING){host[t], 0, io->bytes[t]} : edml_gpu_binding(buf[t], 0, io->bytes[t]);
        if (t < 3)
            in[t] = b;
        else
            out[0] = b;
    }
    if (edml_operator_execute(op, in, 3, out, 1, NULL)) return false;
    if (way == 0) memcpy(io->dst, host[3], io->bytes[3]);
    if (way == 1 && edml_gpu_buffer_read(buf[3], 0, io->dst, io->bytes[3])) return false;
    if (way == 2) memcpy(io->dst, view[3], io->bytes[3]);
    return true;
}

/* The median of `iters` calls of a way on its own device; -1 where it cannot run. */
static double mapped_way(int way, const mapped_io *io, int iters, uint8_t *want, char *renderer, size_t cap)
{
    const size_t size = edml_device_size() + (1u << 20);
    void *arena = aligned_alloc(16, size);
    uint8_t *host[4] = {NULL, NULL, NULL, NULL}, *view[4] = {NULL, NULL, NULL, NULL};
    edml_gpu_buffer *buf[4] = {NULL, NULL, NULL, NULL};
    edml_device *dev = NULL;
    double *t = calloc((size_t)iters, sizeof *t), best = -1;
    edml_device_desc dd = {0};
    dd.gpu_arena_bytes = 128u << 20;
    dd.gpu_arena_mapped = way == 2;
    if (!arena || !t || (memset(arena, 0, size), edml_device_create(&dd, arena, size, &dev))) goto done;
    edml_operator *op = mapped_op(dev);
    for (int k = 0; k < 4 && op; k++) {
        host[k] = malloc(io->bytes[k]);
        if (way && edml_gpu_buffer_create(dev, io->bytes[k], &buf[k])) op = NULL;
        if (way == 2 && op && edml_gpu_buffer_map(buf[k], 0, io->bytes[k], (void **)&view[k])) op = NULL;
    }
    bool ok = op != NULL;
    for (int i = -1; ok && i < iters; i++) { /* one warm-up call */
        const double t0 = mapped_now();
        ok = mapped_call(way, op, io, host, buf, view);
        if (i >= 0) t[i] = mapped_now() - t0;
    }
    if (ok && memcmp(io->dst, want, io->bytes[3])) {
        fprintf(stderr, "edml-bench --mapped: %s: wrong output\n", way ? "GPU buffers" : "host memory");
        ok = false;
    }
    if (ok) qsort(t, (size_t)iters, sizeof *t, mapped_cmp), best = t[iters / 2];
    edml_device_gles_info(dev, renderer, cap);
done:
    if (dev) edml_device_destroy(dev);
    for (int k = 0; k < 4; k++) free(host[k]);
    free(t);
    free(arena);
    return best;
}

/* The inputs and the expected output (the reference's rule: the condition picks A, else B). */
static void mapped_data(mapped_io *io, uint8_t *const src[3], uint8_t *want)
{
    uint32_t x = 1u;
    for (uint32_t e = 0; e < MAPPED_N; e++) {
        x = x * 1664525u + 1013904223u;
        const float a = (float)(x >> 8), b = -(float)(x >> 9);
        src[0][e] = (uint8_t)(x >> 31);
        memcpy(src[1] + 4 * e, &a, 4), memcpy(src[2] + 4 * e, &b, 4);
        memcpy(want + 4 * e, src[0][e] ? &a : &b, 4);
    }
    for (int k = 0; k < 3; k++) io->src[k] = src[k];
    io->bytes[0] = MAPPED_N, io->bytes[1] = io->bytes[2] = io->bytes[3] = 4ull * MAPPED_N;
}

int bench_mapped(const char *json, int iters)
{
    static const char *const names[3] = {"host", "buffers", "mapped"};
    uint8_t *src[3] = {malloc(MAPPED_N), malloc(4u * MAPPED_N), malloc(4u * MAPPED_N)}, *want = malloc(4u * MAPPED_N);
    mapped_io io;
    io.dst = malloc(4u * MAPPED_N);
    if (!src[0] || !src[1] || !src[2] || !want || !io.dst) return 1;
    mapped_data(&io, src, want);
    double ms[3];
    char info[400] = "";
    const double bytes = (double)(io.bytes[0] + io.bytes[1] + io.bytes[2] + io.bytes[3]);
    for (int w = 0; w < 3; w++) {
        memset(io.dst, 0, io.bytes[3]);
        ms[w] = mapped_way(w, &io, iters, want, info, sizeof info) * 1e3;
    }
    printf("edml-bench --mapped: ElementWiseIf of %u floats, %.0f MB moved a call, median of %d calls\n%s\n", MAPPED_N,
           bytes / 1e6, iters, info);
    for (int w = 0; w < 3; w++)
        printf("  %-8s %9.3f ms  %6.2f GB/s%s\n", names[w], ms[w], ms[w] > 0 ? bytes / ms[w] / 1e6 : 0.0,
               ms[w] > 0 ? "" : "  (not available)");
    FILE *f = json ? fopen(json, "w") : NULL;
    if (json && !f) return perror(json), 1;
    if (f) {
        fprintf(f, "{\n  \"gles\": \"%s\",\n  \"iterations\": %d,\n  \"results\": [\n", info, iters);
        for (int w = 0; w < 3; w++)
            fprintf(f,
                    "    {\"kind\": \"mapped\", \"path\": \"%s\", \"operator\": \"ELEMENT_WISE_IF\", \"elements\": %u, "
                    "\"bytes\": %.0f, \"median_ms\": %.6f}%s\n",
                    names[w], MAPPED_N, bytes, ms[w], w < 2 ? "," : "");
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }
    for (int k = 0; k < 3; k++) free(src[k]);
    free(want), free(io.dst);
    return ms[0] > 0 && ms[1] > 0 && ms[2] > 0 ? 0 : 1;
}
