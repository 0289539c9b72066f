/* Raspberry Pi 4 (BCM2711, Cortex-A72, V3D 4.2 GLES 3.1), 64-bit OS: what the library reads at run time. */
#define EDML_BOARD_NAME "rpi4"
#define EDML_BOARD_CPU "cortex-a72"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds (edml-bench --crossover measures them on a board). Every
 * kernel a V3D device builds fits V3D 4.2 (docs/gpu.md's table: no spill,
 * each compiled in under 1 s; TopK's lists of 16 are not built there,
 * its lists of 8 are), but the GPU is slow to memory: hand-written QPU code is
 * published at 2.4 GB/s copying and 7.2 GB/s reading on a Pi 4, below what
 * the four A72 cores copy. So AUTO gives it no copy-like work (ElementWiseIf,
 * row gathers: never) and reductions from 4M elements a worker, where
 * keeping the CPU free pays; TopK rows under 65536 stay on the CPU
 * (topk_select, V3D's heaviest kernel: 4,695 instructions, 2 threads). */
#define EDML_BOARD_GPU_MIN_ELEMENTS 4194304
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 4294967295u /* never */
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 65536
#define EDML_BOARD_GPU_WORKGROUP 256 /* V3D: 16-lane QPUs, 256 invocations a workgroup */
#define EDML_BOARD_CORES 4           /* Cortex-A72 x4 */
