/* Backend table of a build without NEON kernels. */
#include "internal.h"

const edmli_backend_ops *const edmli_neon_backend_ptr = NULL;
