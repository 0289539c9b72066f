/* GatherND, reference: the CPU's row copies (src/cpu/cpu_gather_nd.c), on
 * the calling thread. */
#include "ref.h"

edml_status edmli_ref_gather_nd(const edml_operator *op, const edmli_exec *ex)
{
    return edmli_cpu_gather_nd(op, ex, false, NULL, NULL);
}
