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
 * elements, us a million elements of one row}. Where it has lines of both
 * sides it decides instead of the thresholds above. */
/* clang-format off */
#define EDML_BOARD_COST_MODEL_MEASURED 1
#define EDML_BOARD_COST_MODEL { \
    {0, 2, 0, 1, 0.832f, 0.000f, 725.697f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 0, 1, 0.000f, 10.014f, 0.000f, 7208.317f, 0.000f, 0.000f}, \
    {2, 2, 0, 1, 0.827f, 94.746f, 0.000f, 155732.875f, 1295.516f, 0.000f}, \
    {3, 2, 0, 1, 0.000f, 42.866f, 0.000f, 16668.709f, 0.000f, 0.000f}, \
    {0, 2, 1, 1, 57.535f, 212.835f, 0.000f, 2060670.625f, 393.829f, 0.000f}, \
    {1, 2, 1, 1, 54.496f, 64.110f, 0.000f, 12088.189f, 0.000f, 0.000f}, \
    {2, 2, 1, 1, 56.710f, 179.822f, 0.000f, 150843.234f, 1257.960f, 0.000f}, \
    {3, 2, 1, 1, 43.382f, 112.195f, 0.000f, 15587.062f, 0.000f, 0.000f}, \
    {0, 2, 0, 2, 1.204f, 0.000f, 397.020f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 0, 2, 3.446f, 8.471f, 0.000f, 2211.718f, 0.000f, 0.000f}, \
    {2, 2, 0, 2, 9.131f, 51.961f, 0.000f, 72696.078f, 736.206f, 0.000f}, \
    {3, 2, 0, 2, 0.277f, 24.509f, 0.000f, 11036.919f, 7.545f, 0.000f}, \
    {0, 2, 1, 2, 170.363f, 126.132f, 0.000f, 1928520.250f, 50.207f, 0.000f}, \
    {1, 2, 1, 2, 157.193f, 57.605f, 0.000f, 8792.540f, 0.000f, 0.000f}, \
    {2, 2, 1, 2, 176.319f, 141.892f, 0.000f, 77698.383f, 689.279f, 0.000f}, \
    {3, 2, 1, 2, 161.106f, 89.819f, 0.000f, 11136.375f, 0.000f, 0.000f}, \
    {0, 2, 0, 4, 1.371f, 0.000f, 253.170f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 0, 4, 3.616f, 6.154f, 0.000f, 1671.152f, 0.000f, 0.000f}, \
    {2, 2, 0, 4, 4.526f, 32.268f, 0.000f, 44004.020f, 515.924f, 0.000f}, \
    {3, 2, 0, 4, 2.187f, 13.612f, 0.355f, 6550.551f, 0.000f, 0.000f}, \
    {0, 2, 1, 4, 174.668f, 94.181f, 0.000f, 1192268.375f, 0.000f, 0.000f}, \
    {1, 2, 1, 4, 164.948f, 51.688f, 0.000f, 5611.508f, 0.000f, 0.000f}, \
    {2, 2, 1, 4, 179.160f, 120.094f, 0.000f, 42039.516f, 360.765f, 0.000f}, \
    {3, 2, 1, 4, 173.827f, 82.299f, 0.000f, 6313.976f, 13.952f, 0.000f}, \
    {0, 2, 0, 8, 1.566f, 0.000f, 131.464f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 0, 8, 5.179f, 4.091f, 0.000f, 1178.052f, 0.000f, 0.000f}, \
    {2, 2, 0, 8, 7.897f, 17.397f, 0.000f, 23150.094f, 458.629f, 0.000f}, \
    {3, 2, 0, 8, 4.352f, 8.348f, 0.000f, 3461.096f, 0.000f, 0.000f}, \
    {0, 2, 1, 8, 177.961f, 81.102f, 0.000f, 576576.500f, 0.000f, 0.000f}, \
    {1, 2, 1, 8, 165.130f, 51.487f, 0.000f, 3244.996f, 0.000f, 0.000f}, \
    {2, 2, 1, 8, 176.383f, 108.535f, 0.000f, 25543.295f, 463.651f, 0.000f}, \
    {3, 2, 1, 8, 181.037f, 73.240f, 0.000f, 3274.381f, 61.745f, 0.000f}, \
    {0, 2, 0, 16, 1.644f, 0.000f, 90.940f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 0, 16, 6.643f, 3.034f, 0.000f, 731.453f, 0.000f, 0.000f}, \
    {2, 2, 0, 16, 9.567f, 9.434f, 0.000f, 11480.078f, 363.574f, 0.000f}, \
    {3, 2, 0, 16, 5.932f, 5.360f, 0.000f, 2395.627f, 12.959f, 0.000f}, \
    {0, 2, 1, 16, 179.730f, 85.961f, 0.000f, 0.000f, 0.000f, 0.000f}, \
    {1, 2, 1, 16, 171.180f, 48.820f, 0.000f, 2236.694f, 0.000f, 0.000f}, \
    {2, 2, 1, 16, 194.275f, 90.470f, 0.000f, 13376.604f, 244.504f, 0.000f}, \
    {3, 2, 1, 16, 179.711f, 74.341f, 0.000f, 2454.368f, 72.126f, 0.000f}, \
    {0, 3, 0, 0, 74.182f, 229.344f, 0.000f, 0.000f, 704.898f, 0.000f}, \
    {1, 3, 0, 0, 83.208f, 8.993f, 916.948f, 2518.071f, 0.000f, 0.000f}, \
    {2, 3, 0, 0, 111.854f, 134.894f, 219.879f, 13657.634f, 0.000f, 0.000f}, \
    {3, 3, 0, 0, 38.437f, 188.898f, 47.797f, 1211.134f, 116.576f, 0.000f}, \
    {0, 3, 1, 0, 64.258f, 3.079f, 0.000f, 0.000f, 474.588f, 0.000f}, \
    {1, 3, 1, 0, 27.904f, 0.040f, 0.000f, 26.194f, 0.000f, 0.000f}, \
    {2, 3, 1, 0, 60.566f, 0.336f, 0.000f, 521.546f, 28.501f, 0.000f}, \
    {3, 3, 1, 0, 30.805f, 0.415f, 0.000f, 178.524f, 0.000f, 0.000f} \
}
/* clang-format on */
