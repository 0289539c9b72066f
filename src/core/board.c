/* The board the library was built for: boards/<BOARD>/caps.h, data only. */
#include "internal.h"
#include "caps.h"

static const edml_board edmli_builtin_board = {
    .name = EDML_BOARD_NAME,
    .cpu = EDML_BOARD_CPU,
    .has_neon = EDML_BOARD_HAS_NEON,
    .has_fp16_arith = EDML_BOARD_HAS_FP16_ARITH,
    .has_gpu = EDML_BOARD_HAS_GPU,
    .gpu_min_elements = EDML_BOARD_GPU_MIN_ELEMENTS,
    .gpu_min_elements_copy = EDML_BOARD_GPU_MIN_ELEMENTS_COPY,
    .gpu_topk_min_row = EDML_BOARD_GPU_TOPK_MIN_ROW,
    .gpu_software_ok = EDML_BOARD_GPU_SOFTWARE_OK,
    .gpu_workgroup = EDML_BOARD_GPU_WORKGROUP,
    .cores = EDML_BOARD_CORES,
};

const edml_board *edml_board_builtin(void) { return &edmli_builtin_board; }
