/* The dispatchers by operator kind, as the bake and the known-answer tests
 * run them (the backend's table wraps each to end its call). */
#include "gles.h"

const edmli_kernel_fn edmli_gles_kernel_of[EDMLI_OP_KIND_COUNT] = {
    [EDMLI_OP_TOPK] = edmli_gles_topk,
    [EDMLI_OP_GATHER_ND] = edmli_gles_gather_nd,
    [EDMLI_OP_ARGREDUCE] = edmli_gles_argreduce,
    [EDMLI_OP_ELEMENTWISE_IF] = edmli_gles_elementwise_if,
};
