/* A command list: ArgMax of scores, then ElementWiseIf choosing between
 * two rows, recorded once and submitted twice with new data in between. */
#include <edml.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    static _Alignas(16) uint8_t arena[16384];
    edml_device *dev;
    edml_device_desc dd = {0};
    if (edml_device_create(&dd, arena, sizeof arena, &dev) != EDML_STATUS_OK) return 1;

    float scores[2][4] = {{0.1f, 0.9f, 0.3f, 0.2f}, {0.5f, 0.1f, 0.7f, 0.0f}};
    uint32_t best[2];
    UINT s_sizes[2] = {2, 4}, b_sizes[2] = {2, 1};
    EDML_BUFFER_TENSOR_DESC sb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, s_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC bb = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, b_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC st = {EDML_TENSOR_TYPE_BUFFER, &sb}, bt = {EDML_TENSOR_TYPE_BUFFER, &bb};
    UINT axes[1] = {1};
    EDML_ARGMAX_OPERATOR_DESC am = {&st, &bt, 1, axes, EDML_AXIS_DIRECTION_INCREASING};
    EDML_OPERATOR_DESC amd = {EDML_OPERATOR_ARGMAX, &am};

    uint8_t keep[4] = {1, 0, 1, 0};
    float a[4] = {1, 2, 3, 4}, b[4] = {-1, -2, -3, -4}, mixed[4];
    UINT v_sizes[1] = {4};
    EDML_BUFFER_TENSOR_DESC cb = {EDML_TENSOR_DATA_TYPE_UINT8, EDML_TENSOR_FLAG_NONE, 1, v_sizes, NULL, 0, 0};
    EDML_BUFFER_TENSOR_DESC fb = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 1, v_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC ct = {EDML_TENSOR_TYPE_BUFFER, &cb}, ft = {EDML_TENSOR_TYPE_BUFFER, &fb};
    EDML_ELEMENT_WISE_IF_OPERATOR_DESC ifd = {&ct, &ft, &ft, &ft};
    EDML_OPERATOR_DESC ifo = {EDML_OPERATOR_ELEMENT_WISE_IF, &ifd};

    edml_operator *argmax, *choose;
    edml_command_list *list;
    if (edml_operator_create(dev, &amd, EDML_BACKEND_AUTO, &argmax) != EDML_STATUS_OK ||
        edml_operator_create(dev, &ifo, EDML_BACKEND_AUTO, &choose) != EDML_STATUS_OK ||
        edml_command_list_create(dev, 2, &list) != EDML_STATUS_OK) {
        printf("set-up: %s\n", edml_device_last_error(dev));
        return 1;
    }
    EDML_BUFFER_BINDING am_in[1] = {{scores, 0, sizeof scores}}, am_out[1] = {{best, 0, sizeof best}};
    EDML_BUFFER_BINDING if_in[3] = {{keep, 0, sizeof keep}, {a, 0, sizeof a}, {b, 0, sizeof b}};
    EDML_BUFFER_BINDING if_out[1] = {{mixed, 0, sizeof mixed}};
    if (edml_command_list_record(list, argmax, am_in, 1, am_out, 1, NULL) != EDML_STATUS_OK ||
        edml_command_list_record(list, choose, if_in, 3, if_out, 1, NULL) != EDML_STATUS_OK) {
        printf("record: %s\n", edml_device_last_error(dev));
        return 1;
    }
    for (int round = 0; round < 2; round++) {
        edml_status s = edml_command_list_submit(list);
        if (s == EDML_STATUS_OK) s = edml_command_list_wait(list, UINT64_MAX);
        if (s != EDML_STATUS_OK) {
            printf("list: %s\n", edml_device_last_error(dev));
            return 1;
        }
        printf("round %d: argmax %u %u, chosen %g %g %g %g\n", round, best[0], best[1], mixed[0], mixed[1], mixed[2],
               mixed[3]);
        scores[0][3] = 2.0f; /* new data, the same list */
        memset(keep, 1, sizeof keep);
    }
    edml_device_destroy(dev);
    return 0;
}
