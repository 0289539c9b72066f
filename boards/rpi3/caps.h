/* Raspberry Pi 3 (BCM2837, Cortex-A53, VideoCore IV: no GLES 3.1), 64-bit OS: what the library reads at run time. */
#define EDML_BOARD_NAME "rpi3"
#define EDML_BOARD_CPU "cortex-a53"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 0
/* AUTO thresholds: estimates until measured on the board (edml-bench --crossover) */
#define EDML_BOARD_GPU_MIN_ELEMENTS 4294967295
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 4294967295
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 4294967295
#define EDML_BOARD_GPU_WORKGROUP 0 /* no GLES 3.1 GPU */
#define EDML_BOARD_CORES 4         /* Cortex-A53 x4 */
