/* The table of embedded kernel sources, in the order of EDMLI_GLES_PROGRAMS. */
#include "gles.h"

#define EDMLI_GLES_SRC_DECL(id, file, out, type, together) extern const char edmli_gles_src_##file[];
EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_DECL)
#undef EDMLI_GLES_SRC_DECL

const char *const edmli_gles_src[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_REF(id, file, out, type, together) edmli_gles_src_##file,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_REF)
#undef EDMLI_GLES_SRC_REF
};

const char *const edmli_gles_src_name[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_NAME(id, file, out, type, together) #file,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_NAME)
#undef EDMLI_GLES_SRC_NAME
};

const unsigned char edmli_gles_src_writes_output[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_OUT(id, file, out, type, together) out,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_OUT)
#undef EDMLI_GLES_SRC_OUT
};

const unsigned char edmli_gles_src_together[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_TOGETHER(id, file, out, type, together) together,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_TOGETHER)
#undef EDMLI_GLES_SRC_TOGETHER
};

uint32_t edmli_gles_prog_local(const edmli_gles *g, edmli_gles_prog prog)
{
    return edmli_gles_src_together[prog] || g->local < EDMLI_GLES_ALONE_LOCAL ? g->local : EDMLI_GLES_ALONE_LOCAL;
}
