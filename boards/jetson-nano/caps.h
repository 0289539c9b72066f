/* NVIDIA Jetson Nano (Cortex-A57, Maxwell GPU, GLES 3.2): what the library reads at run time. */
#define EDML_BOARD_NAME "jetson-nano"
#define EDML_BOARD_CPU "cortex-a57"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds (edml-bench --crossover measures them on a board): every
 * kernel runs on NVIDIA's GLES driver within 7% of torch CUDA or ahead
 * (docs/performance.md, on an H100 of the same driver family), with no
 * spill reported; copy-like work and reductions alike go to the GPU from
 * these sizes, where a submission's tens of microseconds are paid back. */
#define EDML_BOARD_GPU_MIN_ELEMENTS 1048576
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 1048576
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 32768
#define EDML_BOARD_GPU_WORKGROUP 0 /* 0: by GPU (256 on V3D, 1024 elsewhere) */
#define EDML_BOARD_CORES 4         /* Cortex-A57 x4 */
