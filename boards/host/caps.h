/* Capabilities of the host board: an x86-64 or Arm Linux PC. NEON runs
 * through SIMDe on x86; the GPU, if any, is found at run time. */
#define EDML_BOARD_NAME "host"
#define EDML_BOARD_CPU "native"
#define EDML_BOARD_HAS_NEON 1
#define EDML_BOARD_HAS_FP16_ARITH 0
#define EDML_BOARD_HAS_GPU 1
/* AUTO thresholds, measured by `edml-bench` on an NVIDIA H100 (GLES 3.2
 * through EGL, docs/performance.md): the GPU wins host-to-host from
 * about 200k elements for reductions; copy-like work is bound by PCIe
 * transfers and stays on the CPU. A software GPU (llvmpipe) is never chosen. */
#define EDML_BOARD_GPU_MIN_ELEMENTS 200000
#define EDML_BOARD_GPU_MIN_ELEMENTS_COPY 0xffffffffu
#define EDML_BOARD_GPU_SOFTWARE_OK 0 /* AUTO never picks a software GPU (llvmpipe): measured slower than the CPU */
#define EDML_BOARD_GPU_TOPK_MIN_ROW 0
#define EDML_BOARD_GPU_WORKGROUP 0 /* 0: by GPU (256 on V3D, 1024 elsewhere) */
#define EDML_BOARD_CORES 0         /* the OS says how many are online */
