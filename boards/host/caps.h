/* Capabilities of the host board: an x86-64 or Arm Linux PC. NEON runs
 * through SIMDe on x86; the GPU, if any, is found at run time. */
#define EDML_BOARD_NAME "host"
#define EDML_BOARD_CPU "native"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 1
#define EDML_BOARD_L1D_BYTES 32768
#define EDML_BOARD_L2_BYTES 1048576
#define EDML_BOARD_GPU_MIN_ELEMENTS 1048576
#define EDML_BOARD_GPU_TOPK_MIN_ROW 65536
