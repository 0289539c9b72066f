/* Raspberry Pi 5 (BCM2712, Cortex-A76, V3D 7.1 GLES 3.1), 64-bit OS: what the library reads at run time. */
#define EDML_BOARD_NAME "rpi5"
#define EDML_BOARD_CPU "cortex-a76"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 1
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds: not measured on a board (the board report measures
 * them: make board-report). Every kernel a V3D device builds fits V3D 7.1
 * (docs/gpu-compilers.md: no spill, 2 or 4 threads). V3D reads memory
 * through its texture units, slower than the four A76 cores copy (assumed,
 * not measured), so AUTO gives it no copy-like work (never) and reductions
 * from 2M elements a worker; TopK rows under 65536 stay on the CPU
 * (topk_select, V3D's heaviest kernel). */
#define EDML_BOARD_GPU_MIN_ELEMENTS 2097152
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 4294967295u /* never */
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 65536
#define EDML_BOARD_GPU_WORKGROUP 256 /* V3D: 16-lane QPUs, 256 invocations a workgroup */
#define EDML_BOARD_CORES 4           /* Cortex-A76 x4 */
