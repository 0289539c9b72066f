/* NVIDIA Jetson Orin (Cortex-A78AE, Ampere GPU, GLES 3.2): what the library reads at run time. */
#define EDML_BOARD_NAME "jetson-orin"
#define EDML_BOARD_CPU "cortex-a78ae"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 1
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds (edml-bench --crossover measures them on a board): every
 * kernel runs on NVIDIA's GLES driver within 7% of torch CUDA or ahead
 * (docs/performance.md, on an H100 of the same driver family), with no
 * spill reported; copy-like work and reductions alike go to the GPU from
 * these sizes, where a submission's tens of microseconds are paid back. */
#define EDML_BOARD_GPU_MIN_ELEMENTS 262144
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 262144
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 16384
#define EDML_BOARD_GPU_WORKGROUP 0 /* 0: by GPU (256 on V3D, 1024 elsewhere) */
#define EDML_BOARD_CORES 6         /* Orin Nano: 6 Cortex-A78AE (the AGX Orin has 12: pass a board of your own) */
