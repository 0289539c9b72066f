/* The backends of this build, and their names: the one file outside the
 * backends' folders that names them. The Makefile sets EDMLI_WITH_NEON (the
 * board's BOARD_NEON) and EDMLI_WITH_GLES (1 unless PORT=none). */
#include "core/internal.h"

extern const edmli_backend edmli_ref_backend;
#if EDMLI_WITH_NEON
extern const edmli_backend edmli_neon_backend;
#endif
#if EDMLI_WITH_GLES
extern const edmli_backend edmli_gles_backend;
#endif

const edmli_backend *const edmli_backends[EDML_BACKEND_COUNT_] = {
    [EDML_BACKEND_REF] = &edmli_ref_backend,
#if EDMLI_WITH_NEON
    [EDML_BACKEND_NEON] = &edmli_neon_backend,
#endif
#if EDMLI_WITH_GLES
    [EDML_BACKEND_GLES] = &edmli_gles_backend,
#endif
};

const char *const edmli_backend_not_built[EDML_BACKEND_COUNT_] = {
    [EDML_BACKEND_NEON] = "this library was built without NEON kernels (the board's BOARD_NEON is 0)",
    [EDML_BACKEND_GLES] = "this library was built without the GLES backend (PORT=none)",
};

const char *edml_backend_name(edml_backend b)
{
    static const char *const names[EDML_BACKEND_COUNT_] = {"auto", "ref", "neon", "gles"};
    return (unsigned)b < EDML_BACKEND_COUNT_ ? names[b] : NULL;
}

const char *edmli_backend_title(edml_backend b)
{
    static const char *const titles[EDML_BACKEND_COUNT_] = {"AUTO", "reference", "NEON", "GLES"};
    return (unsigned)b < EDML_BACKEND_COUNT_ ? titles[b] : "?";
}

uint32_t edml_operator_backends(EDML_OPERATOR_TYPE type)
{
    edmli_op_kind kind;
    if (!edmli_schema_of(type, &kind)) return 0;
    uint32_t mask = 0;
    for (int b = EDML_BACKEND_REF; b < EDML_BACKEND_COUNT_; b++)
        if (edmli_backends[b] && edmli_backends[b]->kernels[kind]) mask |= EDML_BACKEND_BIT(b);
    return mask;
}
