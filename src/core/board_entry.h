/* A board's run-time data from the EDML_BOARD_* macros of the caps.h
 * included before: board.c makes the built-in board with it, and
 * tools/gen-boards.sh every board of boards/ (build/<board>/gen/boards.c,
 * for edml_board_named()), undefining the macros between (board_undef.h). */
#ifndef EDMLI_BOARD_ENTRY_H
#define EDMLI_BOARD_ENTRY_H
#include "edml.h"

#define EDMLI_BOARD_FIELDS(model, terms, measured)                                                                  \
    {                                                                                                               \
        .name = EDML_BOARD_NAME, .cpu = EDML_BOARD_CPU, .has_neon = EDML_BOARD_HAS_NEON,                            \
        .has_fp16_arith = EDML_BOARD_HAS_FP16_ARITH, .has_gpu = EDML_BOARD_HAS_GPU,                                 \
        .gpu_min_elements = EDML_BOARD_GPU_MIN_ELEMENTS, .gpu_min_elements_copy = EDML_BOARD_GPU_MIN_ELEMENTS_COPY, \
        .gpu_topk_min_row = EDML_BOARD_GPU_TOPK_MIN_ROW, .gpu_software_ok = EDML_BOARD_GPU_SOFTWARE_OK,             \
        .gpu_workgroup = EDML_BOARD_GPU_WORKGROUP, .cores = EDML_BOARD_CORES, .cost_model = model,                  \
        .cost_model_terms = terms, .cost_model_measured = measured                                                  \
    }

/* Every board of boards/ (build/<board>/gen/boards.c), in name order. */
extern const edml_board *const edmli_boards[];
extern const unsigned edmli_board_count;
#endif
