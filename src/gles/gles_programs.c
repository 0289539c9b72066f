/* The table of embedded kernel sources, in the order of EDMLI_GLES_PROGRAMS. */
#include "gles.h"

#define EDMLI_GLES_SRC_DECL(id, file, variant, libs, type, local) extern const char edmli_gles_src_##file[];
EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_DECL)
#undef EDMLI_GLES_SRC_DECL

const char *const edmli_gles_src[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_REF(id, file, variant, libs, type, local) edmli_gles_src_##file,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_REF)
#undef EDMLI_GLES_SRC_REF
};

const char *const edmli_gles_src_name[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_NAME(id, file, variant, libs, type, local) #file #variant,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_NAME)
#undef EDMLI_GLES_SRC_NAME
};

const char *const edmli_gles_src_file[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_FILE(id, file, variant, libs, type, local) #file,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_FILE)
#undef EDMLI_GLES_SRC_FILE
};

const unsigned char edmli_gles_src_specialized[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_SPECIALIZED(id, file, variant, libs, type, local) sizeof #variant > 1,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_SPECIALIZED)
#undef EDMLI_GLES_SRC_SPECIALIZED
};

const unsigned char edmli_gles_src_libs[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_LIBS(id, file, variant, libs, type, local) EDMLI_GLES_LIBS_##libs,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_LIBS)
#undef EDMLI_GLES_SRC_LIBS
};

const unsigned char edmli_gles_src_local[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_GLES_SRC_LOCAL(id, file, variant, libs, type, local) EDMLI_GLES_LOCAL_##local,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_SRC_LOCAL)
#undef EDMLI_GLES_SRC_LOCAL
};

uint32_t edmli_gles_prog_local(const edmli_gles *g, edmli_gles_prog prog)
{
    const uint32_t cap = edmli_gles_src_local[prog] == EDMLI_GLES_LOCAL_DEVICE ? g->local
                         : edmli_gles_src_local[prog] == EDMLI_GLES_LOCAL_FOLD ? EDMLI_GLES_TOPK_FOLD_LOCAL
                                                                               : EDMLI_GLES_ALONE_LOCAL;
    return g->local < cap ? g->local : cap;
}
