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
 * elements, us a million elements of one row, us a million input elements
 * down columns}. Where it has lines of both
 * sides it decides instead of the thresholds above. */
/* clang-format off */
#define EDML_BOARD_COST_MODEL_MEASURED 1
#define EDML_BOARD_COST_MODEL { \
    {0, 2, 0, 1, 0.000f, 78.731f, 0.000f, 446503.969f, 288.318f, 52.657f, 0.000f}, \
    {1, 2, 0, 1, 0.000f, 8.394f, 0.000f, 2387.431f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 0, 1, 0.000f, 57.525f, 0.000f, 105730.406f, 1068.052f, 0.000f, 205.070f}, \
    {3, 2, 0, 1, 0.000f, 30.046f, 0.000f, 10817.653f, 0.000f, 0.000f, 0.000f}, \
    {0, 2, 1, 1, 35.293f, 127.938f, 0.000f, 2039263.250f, 181.128f, 392.186f, 0.000f}, \
    {1, 2, 1, 1, 50.331f, 60.248f, 0.000f, 6972.698f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 1, 1, 32.882f, 121.868f, 0.000f, 118219.766f, 1063.605f, 20.871f, 469.286f}, \
    {3, 2, 1, 1, 39.710f, 89.225f, 0.000f, 10910.346f, 3.903f, 0.000f, 0.000f}, \
    {0, 2, 0, 2, 0.000f, 41.104f, 0.000f, 542942.812f, 240.323f, 157.939f, 0.000f}, \
    {1, 2, 0, 2, 0.000f, 9.052f, 0.000f, 2520.464f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 0, 2, 0.000f, 36.592f, 0.000f, 57509.301f, 587.281f, 40.900f, 136.410f}, \
    {3, 2, 0, 2, 0.340f, 19.873f, 0.000f, 7848.654f, 0.000f, 0.000f, 0.000f}, \
    {0, 2, 1, 2, 36.259f, 107.254f, 0.000f, 1595802.125f, 68.503f, 410.407f, 0.000f}, \
    {1, 2, 1, 2, 54.206f, 51.976f, 0.000f, 6584.113f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 1, 2, 36.686f, 105.180f, 0.000f, 71977.453f, 631.857f, 0.000f, 284.218f}, \
    {3, 2, 1, 2, 43.261f, 78.106f, 5.575f, 7879.595f, 28.403f, 0.000f, 0.000f}, \
    {0, 2, 0, 4, 0.000f, 24.628f, 0.000f, 534917.875f, 140.754f, 260.850f, 0.000f}, \
    {1, 2, 0, 4, 4.883f, 4.525f, 0.000f, 1066.603f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 0, 4, 0.589f, 26.786f, 0.000f, 40934.918f, 371.020f, 2.814f, 142.474f}, \
    {3, 2, 0, 4, 1.636f, 11.629f, 0.000f, 4319.465f, 0.000f, 0.000f, 0.000f}, \
    {0, 2, 1, 4, 39.151f, 85.916f, 0.000f, 0.000f, 55.984f, 489.214f, 294.918f}, \
    {1, 2, 1, 4, 54.557f, 50.422f, 0.000f, 4130.031f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 1, 4, 38.795f, 92.360f, 0.000f, 45445.426f, 461.098f, 0.000f, 218.928f}, \
    {3, 2, 1, 4, 42.536f, 62.634f, 0.000f, 4852.143f, 24.353f, 0.000f, 0.000f}, \
    {0, 2, 0, 8, 0.000f, 14.229f, 0.000f, 475603.656f, 67.540f, 420.434f, 0.000f}, \
    {1, 2, 0, 8, 5.475f, 3.299f, 0.000f, 1019.919f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 0, 8, 4.222f, 16.496f, 0.000f, 20172.357f, 370.380f, 0.000f, 78.156f}, \
    {3, 2, 0, 8, 3.735f, 7.398f, 0.000f, 3076.333f, 0.000f, 0.000f, 0.000f}, \
    {0, 2, 1, 8, 38.855f, 92.377f, 0.000f, 0.000f, 96.912f, 454.696f, 146.142f}, \
    {1, 2, 1, 8, 53.875f, 51.185f, 0.000f, 2869.655f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 1, 8, 51.192f, 78.789f, 0.000f, 28794.516f, 350.510f, 0.000f, 70.453f}, \
    {3, 2, 1, 8, 39.205f, 64.298f, 0.000f, 3391.220f, 94.611f, 0.000f, 0.000f}, \
    {0, 2, 0, 16, 0.000f, 6.069f, 0.000f, 504699.812f, 119.263f, 379.963f, 0.000f}, \
    {1, 2, 0, 16, 7.166f, 2.269f, 0.000f, 608.947f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 0, 16, 6.864f, 0.000f, 27.565f, 13108.518f, 192.885f, 2.836f, 56.227f}, \
    {3, 2, 0, 16, 3.848f, 4.932f, 0.000f, 1379.127f, 0.909f, 0.000f, 0.000f}, \
    {0, 2, 1, 16, 39.719f, 96.657f, 0.000f, 0.000f, 85.212f, 514.165f, 23.768f}, \
    {1, 2, 1, 16, 60.872f, 50.209f, 0.000f, 2016.336f, 0.000f, 0.000f, 0.000f}, \
    {2, 2, 1, 16, 56.388f, 79.053f, 0.000f, 23232.525f, 305.534f, 15.716f, 2.657f}, \
    {3, 2, 1, 16, 39.144f, 62.608f, 0.000f, 2347.594f, 112.435f, 0.000f, 0.000f}, \
    {0, 3, 0, 0, 34.531f, 130.431f, 0.000f, 0.000f, 0.000f, 2229.549f, 355.573f}, \
    {1, 3, 0, 0, 77.005f, 0.000f, 710.801f, 2181.134f, 0.000f, 0.000f, 0.000f}, \
    {2, 3, 0, 0, 69.174f, 65.536f, 237.685f, 10829.935f, 0.000f, 55.663f, 78.956f}, \
    {3, 3, 0, 0, 33.298f, 139.015f, 0.000f, 488.456f, 81.357f, 0.000f, 0.000f}, \
    {0, 3, 1, 0, 32.907f, 0.000f, 0.000f, 0.000f, 72.683f, 1215.395f, 0.000f}, \
    {1, 3, 1, 0, 23.252f, 0.055f, 0.000f, 18.846f, 0.000f, 0.000f, 0.000f}, \
    {2, 3, 1, 0, 35.383f, 0.000f, 0.000f, 581.373f, 0.000f, 2.046f, 0.946f}, \
    {3, 3, 1, 0, 20.385f, 0.231f, 0.000f, 53.972f, 0.000f, 0.000f, 0.000f} \
}
/* clang-format on */
