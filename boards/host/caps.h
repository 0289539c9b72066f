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
/* AUTO's cost model: edml-bench --report's fitted lines on the NVIDIA H200
 * machine (16-core Xeon, GLES 3.2 through EGL; docs/performance.md, "AUTO by
 * a cost model"): {family, backend, binding, workers, fixed us, us a MiB,
 * us a million elements, us a million rows}. Where it has lines of both
 * sides it decides instead of the thresholds above. */
/* clang-format off */
#define EDML_BOARD_COST_MODEL_MEASURED 1
#define EDML_BOARD_COST_MODEL { \
    {0, 2, 0, 1, 0.901f, 0.000f, 362.809f, 0.000f}, \
    {1, 2, 0, 1, 0.121f, 4.084f, 0.000f, 3934.162f}, \
    {2, 2, 0, 1, 1.516f, 76.735f, 0.000f, 0.000f}, \
    {3, 2, 0, 1, 0.337f, 25.777f, 0.000f, 0.000f}, \
    {0, 2, 1, 1, 64.728f, 65.735f, 408.909f, 0.000f}, \
    {1, 2, 1, 1, 51.706f, 53.843f, 0.000f, 9226.066f}, \
    {2, 2, 1, 1, 45.481f, 161.899f, 0.000f, 0.000f}, \
    {3, 2, 1, 1, 45.214f, 91.696f, 0.000f, 0.000f}, \
    {0, 2, 0, 2, 1.049f, 0.000f, 271.024f, 0.000f}, \
    {1, 2, 0, 2, 0.296f, 2.719f, 0.000f, 2607.090f}, \
    {2, 2, 0, 2, 2.955f, 48.119f, 0.000f, 0.000f}, \
    {3, 2, 0, 2, 0.289f, 18.529f, 0.000f, 0.000f}, \
    {0, 2, 1, 2, 175.561f, 162.954f, 0.000f, 0.000f}, \
    {1, 2, 1, 2, 143.184f, 55.532f, 0.000f, 6501.402f}, \
    {2, 2, 1, 2, 137.253f, 125.077f, 0.000f, 0.000f}, \
    {3, 2, 1, 2, 143.331f, 73.180f, 13.747f, 0.000f}, \
    {0, 2, 0, 4, 1.124f, 0.000f, 253.284f, 0.000f}, \
    {1, 2, 0, 4, 0.231f, 3.776f, 0.000f, 1262.034f}, \
    {2, 2, 0, 4, 3.544f, 27.444f, 0.000f, 0.000f}, \
    {3, 2, 0, 4, 0.560f, 14.262f, 0.000f, 0.000f}, \
    {0, 2, 1, 4, 181.058f, 139.681f, 0.000f, 0.000f}, \
    {1, 2, 1, 4, 139.745f, 62.872f, 0.000f, 4423.267f}, \
    {2, 2, 1, 4, 139.165f, 115.299f, 0.000f, 0.000f}, \
    {3, 2, 1, 4, 134.979f, 82.375f, 0.000f, 0.000f}, \
    {0, 2, 0, 8, 1.258f, 0.000f, 155.351f, 0.000f}, \
    {1, 2, 0, 8, 0.216f, 3.802f, 0.000f, 999.986f}, \
    {2, 2, 0, 8, 5.444f, 16.666f, 0.000f, 0.000f}, \
    {3, 2, 0, 8, 0.952f, 8.516f, 0.000f, 0.000f}, \
    {0, 2, 1, 8, 179.461f, 141.536f, 0.000f, 0.000f}, \
    {1, 2, 1, 8, 145.618f, 58.029f, 0.000f, 2410.808f}, \
    {2, 2, 1, 8, 138.135f, 41.264f, 274.705f, 0.000f}, \
    {3, 2, 1, 8, 131.718f, 83.546f, 30.985f, 0.000f}, \
    {0, 2, 0, 16, 1.452f, 0.000f, 90.831f, 0.000f}, \
    {1, 2, 0, 16, 0.393f, 3.518f, 0.000f, 620.514f}, \
    {2, 2, 0, 16, 6.385f, 10.294f, 0.000f, 0.000f}, \
    {3, 2, 0, 16, 1.000f, 5.320f, 0.000f, 0.000f}, \
    {0, 2, 1, 16, 177.135f, 178.796f, 0.000f, 0.000f}, \
    {1, 2, 1, 16, 146.172f, 55.364f, 0.000f, 1816.604f}, \
    {2, 2, 1, 16, 144.132f, 54.504f, 225.021f, 0.000f}, \
    {3, 2, 1, 16, 135.850f, 78.525f, 0.000f, 0.000f}, \
    {0, 3, 0, 0, 100.237f, 0.000f, 1394.676f, 0.000f}, \
    {1, 3, 0, 0, 42.750f, 152.775f, 336.956f, 836.296f}, \
    {2, 3, 0, 0, 48.671f, 66.637f, 684.288f, 0.000f}, \
    {3, 3, 0, 0, 37.182f, 160.569f, 91.895f, 0.000f}, \
    {0, 3, 1, 0, 92.662f, 0.000f, 48.666f, 123256.578f}, \
    {1, 3, 1, 0, 29.313f, 0.000f, 0.000f, 16.856f}, \
    {2, 3, 1, 0, 36.360f, 0.000f, 4.083f, 0.000f}, \
    {3, 3, 1, 0, 25.093f, 0.042f, 2.150f, 0.000f} \
}
/* clang-format on */
