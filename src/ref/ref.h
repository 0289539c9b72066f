/* The reference backend's kernels: portable C, the oracle every backend
 * matches bit for bit. */
#ifndef EDMLI_REF_H
#define EDMLI_REF_H

#include "../cpu/cpu.h"

/* edmli_ref_<name> for every operator of src/core/ops.h */
#define EDMLI_REF_DECL(KIND, name) edml_status edmli_ref_##name(const edml_operator *op, const edmli_exec *ex);
EDMLI_OPS(EDMLI_REF_DECL)
#undef EDMLI_REF_DECL

#endif /* EDMLI_REF_H */
