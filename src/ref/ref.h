/* The reference backend's kernels: portable C, the oracle every backend
 * matches bit for bit. */
#ifndef EDMLI_REF_H
#define EDMLI_REF_H

#include "../cpu/cpu.h"

edml_status edmli_ref_topk(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_gather_nd(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_argreduce(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_ref_elementwise_if(const edml_operator *op, const edmli_exec *ex);

#endif /* EDMLI_REF_H */
