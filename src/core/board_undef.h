/* The EDML_BOARD_* macros of a caps.h undefined, so that the next board's
 * caps.h defines its own (tools/gen-boards.sh). */
#undef EDML_BOARD_NAME
#undef EDML_BOARD_CPU
#undef EDML_BOARD_HAS_NEON
#undef EDML_BOARD_HAS_FP16_ARITH
#undef EDML_BOARD_HAS_GPU
#undef EDML_BOARD_GPU_MIN_ELEMENTS
#undef EDML_BOARD_GPU_MIN_ELEMENTS_COPY
#undef EDML_BOARD_GPU_SOFTWARE_OK
#undef EDML_BOARD_GPU_TOPK_MIN_ROW
#undef EDML_BOARD_GPU_WORKGROUP
#undef EDML_BOARD_CORES
#undef EDML_BOARD_COST_MODEL
#undef EDML_BOARD_COST_MODEL_MEASURED
