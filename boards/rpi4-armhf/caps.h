/* Raspberry Pi 4 on 32-bit Raspberry Pi OS (ARMv7 hard-float NEON, V3D 4.2): what the library reads at run time. */
#define EDML_BOARD_NAME "rpi4-armhf"
#define EDML_BOARD_CPU "cortex-a72"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds: rpi4's (the same GPU and cores), not measured on a
 * board (make board-report BOARD=rpi4-armhf measures them) */
#define EDML_BOARD_GPU_MIN_ELEMENTS 4194304
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 4294967295u /* never */
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 65536
#define EDML_BOARD_GPU_WORKGROUP 256 /* V3D: 16-lane QPUs, 256 invocations a workgroup */
#define EDML_BOARD_CORES 4           /* Cortex-A72 x4 */
