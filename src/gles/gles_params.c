/* The GLSL prelude of each kernel: version and workgroup size, the parameter
 * block as a uniform block of the kernel's struct (16-byte vectors, std140,
 * read a word at a time: prm_word(i)), and named accessors into it for the
 * kernel's parameter struct, written from the member lists of
 * shaders/params.h with the offsets the C compiler gives the same structs:
 *   #define prm_k prm_word(27u)                     a word
 *   #define prm_coord_sizes(i) prm_word(170u + (i)) an array
 *   #define prm_data_at 0u                          a nested struct's word offset
 *   #define prm_data_rank prm_word(3u)              ... and its members
 *   #define prm_dims_size(i) prm_word(72u + 4u * (i)) an array of structs
 * and, for the helpers of shaders/common.glsl, the offsets of the nested
 * structs' members: TENSOR_rank 3u, OUTPUT_t 0u, DIMS_WALK_sizes 1u ... */
#include "gles.h"

#include <stddef.h>
#include <string.h>

/* A member whose name ends in `offset` is a GPU-arena byte offset, which
 * changes from one execution to the next: the block holds the index of its
 * binding, the value is BOUND(index): the uniform u_bind[index], plus
 * u_bind_step[index] for each layer z of a dispatch that runs several
 * executions of one operator as layers (a command list's). */
bool edmli_gles_is_binding(const char *name)
{
    size_t n = strlen(name);
    return n >= 6 && !strcmp(name + n - 6, "offset");
}

typedef struct edmli_text {
    char *buf;
    size_t cap, len;
    uint8_t bind_word[EDMLI_GLES_BINDS]; /* the kernel's bindings' words, in order */
    uint32_t bind_count;
} edmli_text;

/* The binding at word w: its index in u_bind[], or EDMLI_GLES_BINDS. */
static uint32_t edmli_prm_binding(const edmli_text *t, uint32_t w)
{
    uint32_t j = 0;
    while (j < t->bind_count && t->bind_word[j] != w) j++;
    return j < t->bind_count ? j : EDMLI_GLES_BINDS;
}

/* A word member's accessor: a word of the block; a binding at word w,
 * BOUND(j) with j a constant (the compiler reads no index); one in an array
 * of structs, through the index its block holds. */
static const char *edmli_prm_w_format(const edmli_text *t, uint32_t stride, const char *name, uint32_t w)
{
    if (edmli_gles_is_binding(name))
        return stride                                       ? "#define %s_%s(j) BOUND(prm_word(%uu + %uu * (j)))\n"
               : edmli_prm_binding(t, w) < EDMLI_GLES_BINDS ? "#define %s_%s BOUND(%uu)\n"
                                                            : "#define %s_%s BOUND(prm_word(%uu))\n";
    return stride ? "#define %s_%s(j) prm_word(%uu + %uu * (j))\n" : "#define %s_%s prm_word(%uu)\n";
}

static uint32_t edmli_prm_w_arg(const edmli_text *t, uint32_t stride, const char *name, uint32_t w)
{
    const uint32_t j = edmli_prm_binding(t, w);
    return !stride && edmli_gles_is_binding(name) && j < EDMLI_GLES_BINDS ? j : w;
}

static void edmli_text_add(edmli_text *t, const char *fmt, const char *path, const char *name, uint32_t a, uint32_t b)
{
    t->len += edmli_format(t->len < t->cap ? t->buf + t->len : NULL, t->len < t->cap ? t->cap - t->len : 0, fmt, path,
                           name, a, b);
}

/* Accessors of one struct's members, the struct at word `base` of the block
 * (`stride` words apart when it is an element of an array: the accessors
 * then take the element's index). */
#define EDMLI_EMIT_W(name)                                                                                         \
    edmli_text_add(t, edmli_prm_w_format(t, stride, #name, base + (uint32_t)(offsetof(T, name) / 4)), path, #name, \
                   edmli_prm_w_arg(t, stride, #name, base + (uint32_t)(offsetof(T, name) / 4)), stride);
#define EDMLI_EMIT_A(name, n)                                                                                          \
    edmli_text_add(t, "#define %s_%s(i) prm_word(%uu + (i))\n", path, #name, base + (uint32_t)(offsetof(T, name) / 4), \
                   0);
#define EDMLI_EMIT_S(type, name)                                      \
    {                                                                 \
        char sub[96];                                                 \
        const uint32_t at = base + (uint32_t)(offsetof(T, name) / 4); \
        edmli_format(sub, sizeof sub, "%s_%s", path, #name);          \
        edmli_text_add(t, "#define %s_at%s %uu\n", sub, "", at, 0);   \
        edmli_prm_emit_##type(t, sub, at, 0);                         \
    }
#define EDMLI_EMIT_SA(type, name, n)                                            \
    {                                                                           \
        char sub[96];                                                           \
        edmli_format(sub, sizeof sub, "%s_%s", path, #name);                    \
        edmli_prm_emit_##type(t, sub, base + (uint32_t)(offsetof(T, name) / 4), \
                              (uint32_t)(sizeof(edmli_##type##_prm) / 4));      \
    }
#define EDMLI_EMIT_FN(type, LIST)                                                                      \
    static void edmli_prm_emit_##type(edmli_text *t, const char *path, uint32_t base, uint32_t stride) \
    {                                                                                                  \
        typedef edmli_##type##_prm T;                                                                  \
        (void)t, (void)path, (void)base, (void)stride;                                                 \
        LIST(EDMLI_EMIT_W, EDMLI_EMIT_A, EDMLI_EMIT_S, EDMLI_EMIT_SA)                                  \
    }
EDMLI_PRM_TYPES(EDMLI_EMIT_FN)

/* Member offsets of the structs the shared helpers walk (no accessor: the
 * helpers add them to a struct's word offset). */
#define EDMLI_OFF_W(name) edmli_text_add(t, "#define %s_%s %uu\n", path, #name, (uint32_t)(offsetof(T, name) / 4), 0);
#define EDMLI_OFF_A(name, n) EDMLI_OFF_W(name)
#define EDMLI_OFF_S(type, name) EDMLI_OFF_W(name)
#define EDMLI_OFF_SA(type, name, n) EDMLI_OFF_W(name)
#define EDMLI_OFFSETS(type, PATH, LIST)                           \
    {                                                             \
        typedef edmli_##type##_prm T;                             \
        const char *path = PATH;                                  \
        LIST(EDMLI_OFF_W, EDMLI_OFF_A, EDMLI_OFF_S, EDMLI_OFF_SA) \
    }

static void edmli_prm_helpers(edmli_text *t)
{
    EDMLI_OFFSETS(tensor, "TENSOR", EDMLI_PRM_TENSOR)
    EDMLI_OFFSETS(output, "OUTPUT", EDMLI_PRM_OUTPUT)
    EDMLI_OFFSETS(dims_walk, "DIMS_WALK", EDMLI_PRM_DIMS_WALK)
}

typedef void (*edmli_prm_emit_fn)(edmli_text *t, const char *path, uint32_t base, uint32_t stride);

static const struct {
    edmli_prm_emit_fn emit;
    const char *type;
    uint32_t vectors; /* the struct's 16-byte vectors */
} edmli_prm_of[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_PRM_OF(id, file, variant, libs, type, local) \
    {edmli_prm_emit_##type, "edmli_" #type "_prm", (uint32_t)(EDMLI_GLES_PARAM_VEC(sizeof(edmli_##type##_prm)) / 16)},
    EDMLI_GLES_PROGRAMS(EDMLI_PRM_OF)
#undef EDMLI_PRM_OF
};

size_t edmli_gles_prelude(edmli_gles_prog prog, uint32_t local, uint32_t sort_max, char *buf, size_t cap)
{
    edmli_text t = {buf, cap, 0, {0}, 0};
    t.bind_count = edmli_gles_binding_words(prog, t.bind_word);
    t.len = edmli_format(buf, cap,
                         "#version 310 es\nprecision highp float;\nprecision highp int;\n#define LOCAL %uu\n"
                         "#define SORT_MAX %uu\nlayout(local_size_x = %u) in;\n"
                         "layout(std140, binding = 0) uniform Params { uvec4 prm_vec[%u]; };\n"
                         "#define prm_word(i) prm_vec[(i) >> 2][(i) & 3u]\n",
                         local, sort_max, local, edmli_prm_of[prog].vectors);
    edmli_text_add(&t, "#define %s%s %uu\n", "TOPK_SMALL_K", "", EDMLI_GLES_TOPK_SMALL_MAX_K, 0);
    edmli_text_add(&t, "#define %s%s %uu\n", "BINDS", "", EDMLI_GLES_BINDS, 0);
    edmli_text_add(&t, "#define %s%s %uu\n", "VEC_RUN", "", EDMLI_GLES_VEC_RUN, 0);
    edmli_text_add(&t, "const bool SPECIALIZED = %s%s;\n", edmli_gles_src_specialized[prog] ? "true" : "false", "", 0,
                   0);
    /* the same for the preprocessor, where a specialization differs in layout (topk_thread_8's lists) */
    edmli_text_add(&t, "%s%s#define SPECIALIZED_PP %u\n", "", "", edmli_gles_src_specialized[prog], 0);
    /* EDMLI_PARAMS(name) compiles only where name is this kernel's struct */
    edmli_text_add(&t, "#define %s%s 1u\n#define EDMLI_PARAMS(T) const uint edmli_params_named = T\n",
                   edmli_prm_of[prog].type, "", 0, 0);
    edmli_prm_helpers(&t);
    /* t_base(T): tensor T's offset, T a constant where the helpers inline */
    edmli_text_add(&t, "uniform uint u_bind[%s%sBINDS], u_bind_step[BINDS];\n", "", "", 0, 0);
    edmli_text_add(&t, "#define BOUND(j) (u_bind[j] + gl_WorkGroupID.z * u_bind_step[j])\n%s%s", "", "", 0, 0);
    edmli_text_add(&t, "uint t_base(uint T) {\n    uint w = T + TENSOR_offset;\n%s%s", "", "", 0, 0);
    for (uint32_t j = 0; j < t.bind_count; j++)
        edmli_text_add(&t, "%s%s    if (w == %uu) return BOUND(%uu);\n", "", "", t.bind_word[j], j);
    edmli_text_add(&t, "%s%s    return BOUND(prm_word(w));\n}\n", "", "", 0, 0);
    edmli_prm_of[prog].emit(&t, "prm", 0, 0);
    return t.len;
}

/* The binding words of each struct (nested structs' too, none in arrays). */
typedef struct edmli_binds {
    uint8_t *word;
    uint32_t count;
} edmli_binds;
#define EDMLI_BIND_W(name)                                           \
    if (edmli_gles_is_binding(#name) && b->count < EDMLI_GLES_BINDS) \
        b->word[b->count++] = (uint8_t)(base + offsetof(T, name) / 4);
#define EDMLI_BIND_A(name, n)
#define EDMLI_BIND_S(type, name) edmli_prm_binds_##type(b, base + (uint32_t)(offsetof(T, name) / 4));
#define EDMLI_BIND_SA(type, name, n)   \
    for (uint32_t i = 0; i < (n); i++) \
        edmli_prm_binds_##type(b, base + (uint32_t)((offsetof(T, name) + i * sizeof(edmli_##type##_prm)) / 4));
#define EDMLI_BIND_FN(type, LIST)                                     \
    static void edmli_prm_binds_##type(edmli_binds *b, uint32_t base) \
    {                                                                 \
        typedef edmli_##type##_prm T;                                 \
        (void)b, (void)base;                                          \
        LIST(EDMLI_BIND_W, EDMLI_BIND_A, EDMLI_BIND_S, EDMLI_BIND_SA) \
    }
EDMLI_PRM_TYPES(EDMLI_BIND_FN)

typedef void (*edmli_prm_binds_fn)(edmli_binds *b, uint32_t base);

uint32_t edmli_gles_binding_words(edmli_gles_prog prog, uint8_t word[EDMLI_GLES_BINDS])
{
    static const edmli_prm_binds_fn of[EDMLI_GLES_PROG_COUNT] = {
#define EDMLI_BINDS_OF(id, file, variant, libs, type, local) edmli_prm_binds_##type,
        EDMLI_GLES_PROGRAMS(EDMLI_BINDS_OF)
#undef EDMLI_BINDS_OF
    };
    edmli_binds b = {word, 0};
    of[prog](&b, 0);
    return b.count;
}
