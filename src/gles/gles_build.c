/* A program's life: compiled and linked when first needed (in the driver's
 * threads where it has GL_KHR_parallel_shader_compile), or loaded from the
 * program cache; what the driver's compiler says of it (GL_KHR_debug). */
#include "gles.h"

#include <string.h>

/* A driver's info log on one line. */
static void edmli_gles_clean_log(char *log, int n, size_t cap)
{
    size_t len = n > 0 && (size_t)n < cap ? (size_t)n : cap - 1;
    log[len] = '\0';
    for (char *c = log; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    while (len && log[len - 1] == ' ') log[--len] = '\0';
}

/* Whether a shader compiled (or a program linked); else the driver's log in `why`. */
static bool edmli_gles_built(edmli_gl *gl, unsigned obj, bool program, const char *fmt, const char *name, char *why,
                             size_t cap)
{
    int ok = 0, n = 0;
    char log[160];
    (program ? gl->glGetProgramiv : gl->glGetShaderiv)(obj, program ? EDMLI_GL_LINK_STATUS : EDMLI_GL_COMPILE_STATUS,
                                                       &ok);
    if (ok) return true;
    (program ? gl->glGetProgramInfoLog : gl->glGetShaderInfoLog)(obj, (int)sizeof log, &n, log);
    edmli_gles_clean_log(log, n, sizeof log);
    edmli_format(why, cap, fmt, name, log);
    return false;
}

/* A number ending just before `end` in `text` (-1: none). */
static int32_t edmli_gles_number_before(const char *text, const char *end)
{
    const char *p = end;
    while (p > text && p[-1] >= '0' && p[-1] <= '9') p--;
    if (p == end || end - p > 9) return -1;
    int32_t v = 0;
    for (; p < end; p++) v = v * 10 + (*p - '0');
    return v;
}

/* What a driver's compiler says of the program being built, through
 * GL_KHR_debug: Mesa's V3D, Panfrost and freedreno end their statistics
 * with "S:F spills:fills". */
static void edmli_gles_take_stats(edmli_gles *g, const char *message)
{
    if (strstr(message, " shader: ")) edmli_format(g->stat_text, sizeof g->stat_text, "%s", message);
    const char *at = strstr(message, " spills:fills");
    if (!at) return;
    const int32_t fills = edmli_gles_number_before(message, at);
    const char *colon = at;
    while (colon > message && colon[-1] != ':') colon--;
    if (fills < 0 || colon <= message) return;
    const int32_t spills = edmli_gles_number_before(message, colon - 1);
    if (spills < 0) return;
    g->stat_spills = spills > g->stat_spills ? spills : g->stat_spills; /* the worst of its variants */
    g->stat_fills = fills > g->stat_fills ? fills : g->stat_fills;
}

static void edmli_gles_debug_message(GLenum_ source, GLenum_ type, GLuint_ id, GLenum_ severity, GLsizei_ length,
                                     const char *message, const void *user)
{
    (void)source, (void)type, (void)id, (void)severity, (void)length;
    if (message) edmli_gles_take_stats((edmli_gles *)(uintptr_t)user, message);
}

void edmli_gles_listen(edmli_gles *g, edmli_gles_prog id, bool on)
{
    edmli_gl *gl = &g->port.gl;
    void (*set)(edmli_gl_debug_fn, const void *) =
        gl->glDebugMessageCallback ? gl->glDebugMessageCallback : gl->glDebugMessageCallbackKHR;
    if (on) g->stat_spills = g->stat_fills = -1, g->stat_text[0] = '\0';
    if (!on && g->stat_spills > g->spills[id]) g->spills[id] = g->stat_spills, g->fills[id] = g->stat_fills;
    if (!set || !gl->glEnable || !gl->glDisable) return;
    if (on) {
        gl->glEnable(EDMLI_GL_DEBUG_OUTPUT);
        gl->glEnable(EDMLI_GL_DEBUG_OUTPUT_SYNCHRONOUS); /* on this thread, during the calls */
        set(edmli_gles_debug_message, g);
    } else {
        set(NULL, NULL);
        gl->glDisable(EDMLI_GL_DEBUG_OUTPUT);
    }
    edmli_gles_take_error(g);
}

/* A linked program's uniforms; it is BUILT. */
static void edmli_gles_take_program(edmli_gles *g, edmli_gles_prog id)
{
    edmli_gl *gl = &g->port.gl;
    const unsigned prog = g->prog[id];
    g->loc_base[id] = gl->glGetUniformLocation(prog, "u_base");
    g->loc_count[id] = gl->glGetUniformLocation(prog, "u_count");
    g->loc_bind[id] = gl->glGetUniformLocation(prog, "u_bind");
    g->loc_bind_step[id] = gl->glGetUniformLocation(prog, "u_bind_step");
    g->loc_proof[id] = gl->glGetUniformLocation(prog, "u_proof");
    g->prog_state[id] = EDMLI_GLES_PROG_BUILT;
}

/* The sources of program id: its prelude (in `prelude`), the libraries it
 * takes, the kernel, the fault that main() simulates (tests), main()
 * (shaders/main.glsl); their hash (the program cache's key). false: why. */
#define EDMLI_GLES_SOURCES 7
static bool edmli_gles_sources(edmli_gles *g, edmli_gles_prog id, char *prelude, const char *src[EDMLI_GLES_SOURCES],
                               uint32_t *hash)
{
    if (edmli_gles_prelude(id, edmli_gles_prog_local(g, id), g->sort_max, prelude, EDMLI_GLES_PRELUDE_BYTES) >=
        EDMLI_GLES_PRELUDE_BYTES) {
        char why[EDMLI_GLES_WHY_BYTES];
        edmli_format(why, sizeof why, "the prelude of program %s is longer than %u bytes", edmli_gles_src_name[id],
                     EDMLI_GLES_PRELUDE_BYTES);
        edmli_gles_failed(g, id, why);
        return false;
    }
    const unsigned libs = edmli_gles_src_libs[id];
    src[0] = prelude, src[1] = edmli_gles_src_common;
    src[2] = libs & EDMLI_GLES_LIBS_OUT ? edmli_gles_src_output : "";
    src[3] = libs & EDMLI_GLES_LIBS_TOPK ? edmli_gles_src_topk : "";
    src[4] = edmli_gles_src[id];
    src[5] = g->faults & EDML_FAULT_PARTIAL_WORKGROUP ? "#define EDMLI_FAULT_PARTIAL_WORKGROUP 1\n" : "";
    src[6] = edmli_gles_src_main;
    if (g->faults & EDML_FAULT_SHADER_COMPILE) src[4] = "void kernel_main() { this does not compile; }\n";
    *hash = EDMLI_FNV1A_SEED;
    for (int i = 0; i < EDMLI_GLES_SOURCES; i++) *hash = edmli_fnv1a_str(*hash, src[i]);
    return true;
}

void edmli_gles_build_start(edmli_gles *g, edmli_gles_prog id)
{
    edmli_gl *gl = &g->port.gl;
    const char *src[EDMLI_GLES_SOURCES];
    char prelude[EDMLI_GLES_PRELUDE_BYTES]; /* GL copies it */
    uint32_t hash;
    g->spills[id] = g->fills[id] = -1;
    if (!edmli_gles_sources(g, id, prelude, src, &hash)) return;
    if (edmli_gles_cache_load(g, id, hash)) {
        g->cache_loaded |= 1u << id;
        edmli_gles_take_program(g, id);
        return;
    }
    edmli_gles_listen(g, id, true);
    unsigned sh = gl->glCreateShader(EDMLI_GL_COMPUTE_SHADER);
    gl->glShaderSource(sh, EDMLI_GLES_SOURCES, src, NULL);
    gl->glCompileShader(sh);
    unsigned prog = gl->glCreateProgram();
    gl->glAttachShader(prog, sh);
    if ((g->cache || g->cache_small) && gl->glProgramParameteri)
        gl->glProgramParameteri(prog, EDMLI_GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
    gl->glLinkProgram(prog); /* returns at once where the driver builds in its threads */
    edmli_gles_listen(g, id, false);
    g->shader[id] = sh, g->prog[id] = prog, g->cache_key_of[id] = hash;
    g->slow_polls[id] = 0;
    g->prog_state[id] = EDMLI_GLES_PROG_STARTED;
}

bool edmli_gles_build_done(edmli_gles *g, edmli_gles_prog id)
{
    if (g->prog_state[id] != EDMLI_GLES_PROG_STARTED || !g->parallel) return true;
    if ((g->faults & EDML_FAULT_SLOW_COMPILE) && g->slow_polls[id] < EDMLI_GLES_SLOW_POLLS) {
        g->slow_polls[id]++;
        return false;
    }
    int done = 1;
    g->port.gl.glGetProgramiv(g->prog[id], EDMLI_GL_COMPLETION_STATUS, &done);
    return done != 0;
}

void edmli_gles_build_end(edmli_gles *g, edmli_gles_prog id)
{
    if (g->prog_state[id] != EDMLI_GLES_PROG_STARTED) return;
    edmli_gl *gl = &g->port.gl;
    char why[EDMLI_GLES_WHY_BYTES];
    const char *name = edmli_gles_src_name[id];
    edmli_gles_listen(g, id, true); /* a driver that built in its threads may say it now */
    const bool ok =
        edmli_gles_built(gl, g->shader[id], false, "kernel %s does not compile: %s", name, why, EDMLI_GLES_WHY_BYTES) &&
        edmli_gles_built(gl, g->prog[id], true, "program %s does not link: %s", name, why, EDMLI_GLES_WHY_BYTES);
    if ((id == EDMLI_GLES_PROG_TOPK_THREAD || id == EDMLI_GLES_PROG_TOPK_THREAD_8) && (g->faults & EDML_FAULT_SPILLED))
        edmli_gles_take_stats(
            g, "COMPUTE shader: 900 inst, 1 threads, 0 loops, 8 uniforms, 64 max-temps, 7:9 spills:fills");
    edmli_gles_listen(g, id, false);
    gl->glDeleteShader(g->shader[id]);
    g->shader[id] = 0;
    if (!ok) {
        gl->glDeleteProgram(g->prog[id]);
        g->prog[id] = 0;
        edmli_gles_failed(g, id, why);
        return;
    }
    edmli_gles_take_program(g, id);
    edmli_gles_cache_keep(g, id, g->cache_key_of[id]);
}

bool edmli_gles_compile(edmli_gles *g, edmli_gles_prog id, char *why, size_t cap)
{
    edmli_gles_build_start(g, id);
    edmli_gles_build_end(g, id);
    if (g->prog_state[id] == EDMLI_GLES_PROG_FAILED) edmli_gles_why(g, id, why, cap);
    return g->prog_state[id] != EDMLI_GLES_PROG_FAILED;
}

void edmli_gles_failed(edmli_gles *g, edmli_gles_prog id, const char *why)
{
    g->prog_state[id] = EDMLI_GLES_PROG_FAILED;
    if (g->fail_first != EDMLI_GLES_NO_FAILURE) return;
    g->fail_first = (uint8_t)id;
    edmli_format(g->fail_text, sizeof g->fail_text, "%s", why);
}

void edmli_gles_why(const edmli_gles *g, edmli_gles_prog id, char *buf, size_t cap)
{
    if (g->fail_first == (uint8_t)id)
        edmli_format(buf, cap, "%s", g->fail_text);
    else
        edmli_format(buf, cap, "kernel %s failed too (the first to fail: %s)", edmli_gles_src_name[id], g->fail_text);
}
