/* What test/misuse.c and test/lists.c share: a log that keeps the last
 * message, and devices whose board sends every operator to the GPU. */
#ifndef EDML_TEST_MISUSE_H
#define EDML_TEST_MISUSE_H
#include "ops.h"

static char log_text[512];
static int log_count;
static inline void log_fn(void *user, edml_status s, const char *m)
{
    (void)user;
    (void)s;
    log_count++;
    snprintf(log_text, sizeof log_text, "%s", m);
}

#define MSG(d) edml_device_last_error((d).dev)
#define CPU_BACKENDS (EDML_BACKEND_BIT(EDML_BACKEND_REF) | EDML_BACKEND_BIT(EDML_BACKEND_NEON))

/* a board like the built-in one that sends every operator to the GPU, llvmpipe too */
static inline edml_board gpu_board(void)
{
    edml_board b = *edml_board_builtin();
    b.gpu_min_elements = 0;
    b.gpu_min_elements_copy = 0;
    b.gpu_topk_min_row = 0;
    b.gpu_software_ok = 1;
    b.cost_model = NULL, b.cost_model_terms = 0; /* the thresholds alone */
    return b;
}

static inline edml_status gpu_device(tl_device *d, const edml_board *board, uint64_t gpu_bytes, uint32_t faults)
{
    edml_device_desc dd = {0};
    dd.board = board;
    dd.gpu_arena_bytes = gpu_bytes;
    dd.inject_faults = faults;
    dd.log = log_fn;
    return tl_device_create(d, edml_device_size() + (1 << 16), &dd);
}

static inline bool has_gles(const tl_device *d)
{
    return edml_device_backends(d->dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES);
}

/* A device on gpu_board() with GLES and a GPU arena of 1 MiB; false, the
 * device freed, where GLES is not there (the caller skips its checks). */
static inline bool gles_device(tl_device *d, uint32_t faults)
{
    static edml_board board;
    board = gpu_board();
    CHECK(gpu_device(d, &board, 1 << 20, faults) == EDML_STATUS_OK, "device");
    if (has_gles(d)) return true;
    tl_device_free(d);
    return false;
}

#endif
