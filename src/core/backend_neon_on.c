/* Backend table of a build with NEON kernels (src/neon/). */
#include "internal.h"

extern const edmli_backend_ops edmli_neon_backend;
const edmli_backend_ops *const edmli_neon_backend_ptr = &edmli_neon_backend;
