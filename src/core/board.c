/* The board the library was built for: boards/<BOARD>/caps.h, data only. */
#include "internal.h"
#include "caps.h"

/* A board's cost model (edml_board.cost_model): caps.h's lines where it
 * has them (EDML_BOARD_COST_MODEL, EDML_BOARD_COST_MODEL_MEASURED: the board
 * report's block), else none. */
#ifdef EDML_BOARD_COST_MODEL
static const edml_cost_term edmli_builtin_model[] = EDML_BOARD_COST_MODEL;
#define EDMLI_BOARD_MODEL edmli_builtin_model
#define EDMLI_BOARD_MODEL_TERMS (uint32_t)(sizeof edmli_builtin_model / sizeof edmli_builtin_model[0])
#define EDMLI_BOARD_MODEL_MEASURED EDML_BOARD_COST_MODEL_MEASURED
#else
#define EDMLI_BOARD_MODEL NULL
#define EDMLI_BOARD_MODEL_TERMS 0u
#define EDMLI_BOARD_MODEL_MEASURED 0
#endif

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
    .cost_model = EDMLI_BOARD_MODEL,
    .cost_model_terms = EDMLI_BOARD_MODEL_TERMS,
    .cost_model_measured = EDMLI_BOARD_MODEL_MEASURED,
};

const edml_board *edml_board_builtin(void) { return &edmli_builtin_board; }
