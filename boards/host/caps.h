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
 * us a million elements, us a million rows, us a million FLOAT16 input
 * elements}. Where it has lines of both
 * sides it decides instead of the thresholds above. */
/* clang-format off */
#define EDML_BOARD_COST_MODEL_MEASURED 1
#define EDML_BOARD_COST_MODEL { \
    {0, 2, 0, 1, 0.364f, 0.000f, 496.250f, 0.000f, 0.000f}, \
    {1, 2, 0, 1, 0.000f, 7.869f, 0.000f, 2638.353f, 0.000f}, \
    {2, 2, 0, 1, 0.000f, 77.437f, 0.000f, 120009.641f, 4145.257f}, \
    {3, 2, 0, 1, 0.000f, 31.490f, 0.000f, 15452.850f, 0.000f}, \
    {0, 2, 1, 1, 53.672f, 167.498f, 0.000f, 2319647.250f, 128.173f}, \
    {1, 2, 1, 1, 49.238f, 58.702f, 0.000f, 7373.770f, 0.000f}, \
    {2, 2, 1, 1, 47.394f, 163.678f, 0.000f, 129376.906f, 4380.735f}, \
    {3, 2, 1, 1, 50.450f, 102.871f, 0.000f, 17882.355f, 0.000f}, \
    {0, 2, 0, 2, 0.535f, 0.000f, 361.957f, 0.000f, 0.000f}, \
    {1, 2, 0, 2, 0.294f, 8.512f, 0.000f, 1997.721f, 0.000f}, \
    {2, 2, 0, 2, 0.000f, 48.948f, 0.000f, 77815.227f, 2017.054f}, \
    {3, 2, 0, 2, 1.600f, 18.881f, 0.000f, 11856.084f, 0.000f}, \
    {0, 2, 1, 2, 146.706f, 118.683f, 0.000f, 2214995.000f, 0.000f}, \
    {1, 2, 1, 2, 141.244f, 54.334f, 0.000f, 7024.978f, 0.000f}, \
    {2, 2, 1, 2, 165.665f, 138.714f, 0.000f, 74108.859f, 2305.412f}, \
    {3, 2, 1, 2, 168.150f, 88.526f, 0.000f, 11913.302f, 0.000f}, \
    {0, 2, 0, 4, 0.611f, 0.000f, 298.913f, 0.000f, 0.000f}, \
    {1, 2, 0, 4, 3.367f, 5.878f, 0.000f, 1358.786f, 0.000f}, \
    {2, 2, 0, 4, 4.796f, 39.009f, 0.000f, 35274.789f, 1100.182f}, \
    {3, 2, 0, 4, 3.648f, 14.062f, 0.000f, 6046.070f, 0.000f}, \
    {0, 2, 1, 4, 153.020f, 100.969f, 0.000f, 1329893.375f, 0.000f}, \
    {1, 2, 1, 4, 149.245f, 50.991f, 0.000f, 4624.169f, 0.000f}, \
    {2, 2, 1, 4, 171.787f, 111.518f, 0.000f, 50931.395f, 1294.927f}, \
    {3, 2, 1, 4, 176.368f, 82.764f, 0.000f, 5911.571f, 13.904f}, \
    {0, 2, 0, 8, 0.847f, 0.000f, 139.944f, 0.000f, 0.000f}, \
    {1, 2, 0, 8, 5.088f, 4.200f, 0.000f, 903.646f, 0.000f}, \
    {2, 2, 0, 8, 8.503f, 16.109f, 0.000f, 26386.789f, 660.586f}, \
    {3, 2, 0, 8, 4.437f, 8.164f, 0.000f, 3825.814f, 0.000f}, \
    {0, 2, 1, 8, 155.239f, 94.442f, 0.000f, 686682.562f, 0.000f}, \
    {1, 2, 1, 8, 154.769f, 47.732f, 0.000f, 3220.056f, 0.000f}, \
    {2, 2, 1, 8, 179.520f, 93.581f, 0.000f, 37962.441f, 665.647f}, \
    {3, 2, 1, 8, 176.189f, 74.861f, 0.000f, 3674.281f, 0.278f}, \
    {0, 2, 0, 16, 0.852f, 0.000f, 83.302f, 0.000f, 0.000f}, \
    {1, 2, 0, 16, 6.349f, 3.111f, 0.000f, 700.252f, 0.000f}, \
    {2, 2, 0, 16, 8.844f, 9.939f, 0.000f, 15030.383f, 436.247f}, \
    {3, 2, 0, 16, 4.029f, 5.473f, 0.000f, 1935.446f, 0.000f}, \
    {0, 2, 1, 16, 158.640f, 88.196f, 0.000f, 219435.141f, 0.000f}, \
    {1, 2, 1, 16, 155.779f, 49.712f, 0.000f, 2095.884f, 0.000f}, \
    {2, 2, 1, 16, 192.402f, 87.020f, 0.000f, 22956.293f, 578.614f}, \
    {3, 2, 1, 16, 166.954f, 72.094f, 0.000f, 2308.156f, 70.688f}, \
    {0, 3, 0, 0, 72.442f, 258.491f, 0.000f, 0.000f, 672.479f}, \
    {1, 3, 0, 0, 79.632f, 0.000f, 932.276f, 2970.418f, 0.000f}, \
    {2, 3, 0, 0, 98.785f, 30.757f, 699.499f, 15633.867f, 0.000f}, \
    {3, 3, 0, 0, 43.491f, 193.692f, 0.000f, 1320.650f, 7.214f}, \
    {0, 3, 1, 0, 65.591f, 2.250f, 0.000f, 0.000f, 366.059f}, \
    {1, 3, 1, 0, 25.953f, 0.021f, 0.000f, 0.000f, 0.000f}, \
    {2, 3, 1, 0, 47.357f, 0.055f, 0.000f, 1910.508f, 80.228f}, \
    {3, 3, 1, 0, 27.281f, 0.295f, 0.000f, 199.899f, 0.000f} \
}
/* clang-format on */
