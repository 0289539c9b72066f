/* The README's example: a device in a static arena, TopK of one row. */
#include <edml.h>
#include <stdio.h>

int main(void)
{
    static _Alignas(16) uint8_t arena[12288]; /* all the memory edml will use */
    edml_device *dev;
    char why[200] = "";
    edml_device_desc dd = {0}; /* zero: defaults (built-in board, every backend) */
    dd.error_buffer = why, dd.error_buffer_bytes = sizeof why;
    if (edml_device_create(&dd, arena, sizeof arena, &dev) != EDML_STATUS_OK) {
        printf("device: %s\n", why);
        return 1;
    }
    char gpu[256];
    printf("GPU: %s\n", edml_device_gles_info(dev, gpu, sizeof gpu));

    float scores[8] = {0.1f, 0.7f, -2.0f, 0.7f, 3.5f, 0.0f, 1.25f, -0.5f};
    float values[3];
    uint32_t indices[3];
    UINT in_sizes[2] = {1, 8}, out_sizes[2] = {1, 3};
    EDML_BUFFER_TENSOR_DESC in_b = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC val_b = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC idx_b = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC in = {EDML_TENSOR_TYPE_BUFFER, &in_b};
    EDML_TENSOR_DESC val = {EDML_TENSOR_TYPE_BUFFER, &val_b};
    EDML_TENSOR_DESC idx = {EDML_TENSOR_TYPE_BUFFER, &idx_b};
    EDML_TOP_K1_OPERATOR_DESC topk = {&in, &val, &idx, /*Axis*/ 1, /*K*/ 3, EDML_AXIS_DIRECTION_DECREASING};
    EDML_OPERATOR_DESC desc = {EDML_OPERATOR_TOP_K1, &topk};

    edml_operator *op;
    if (edml_operator_create(dev, &desc, EDML_BACKEND_AUTO, &op) != EDML_STATUS_OK) {
        printf("create: %s\n", edml_device_last_error(dev));
        return 1;
    }
    EDML_BUFFER_BINDING inputs[1] = {{scores, 0, sizeof scores}};
    EDML_BUFFER_BINDING outputs[2] = {{values, 0, sizeof values}, {indices, 0, sizeof indices}};
    edml_status s = edml_operator_execute(op, inputs, 1, outputs, 2, NULL); /* scratch from the arena */
    if (s != EDML_STATUS_OK) {
        printf("execute: %s: %s\n", edml_status_string(s), edml_device_last_error(dev));
        return 1;
    }
    edml_arena_stats st;
    edml_device_arena_stats(dev, &st);
    printf("top 3 on %s: %g@%u %g@%u %g@%u; arena high water %zu of %zu bytes\n",
           edml_backend_name(edml_operator_backend(op)), values[0], indices[0], values[1], indices[1], values[2],
           indices[2], st.high_water, st.size);
    edml_device_destroy(dev);
    return 0;
}
