/* edml-bench --gpu-floor: bare GL in the same process, none of edml: the
 * driver's floor and the least kernels of some workloads' work. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --gpu-floor: the GL driver's floor in the same process, through the
 * port's context but none of edml: gl_floor, a one-workgroup dispatch and a
 * fence waited for (median of 200); gl_copy, a compute-shader copy of 64 MiB
 * between two buffers (median of 20, read + written bytes over the time);
 * the least kernels of three workloads' work (below), each back to back
 * with its fence (median of 50). */
const char *const gl_floor_src = "#version 310 es\nlayout(local_size_x = 64) in;\n"
                                 "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                                 "void main() { if (gl_GlobalInvocationID.x == 0u) v[0] += 1u; }\n";

const char *const gl_copy_src = "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
                                "layout(std430, binding = 1) writeonly buffer D { uvec4 d[]; };\n"
                                "void main() { d[gl_GlobalInvocationID.x] = s[gl_GlobalInvocationID.x]; }\n";

/* a storage buffer of `bytes`, bound at `binding` */
GLuint_ gl_storage(const edmli_gl *gl, uint64_t bytes, GLuint_ binding)
{
    GLuint_ buf = 0;
    gl->glGenBuffers(1, &buf);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf);
    gl->glBufferData(EDMLI_GL_SHADER_STORAGE_BUFFER, (GLsizeiptr_)bytes, NULL, EDMLI_GL_DYNAMIC_COPY);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, binding, buf);
    return buf;
}

unsigned gl_program(const edmli_gl *gl, const char *src)
{
    GLuint_ sh = gl->glCreateShader(EDMLI_GL_COMPUTE_SHADER), prog = gl->glCreateProgram();
    GLint_ ok = 0;
    gl->glShaderSource(sh, 1, &src, NULL);
    gl->glCompileShader(sh);
    gl->glGetShaderiv(sh, EDMLI_GL_COMPILE_STATUS, &ok);
    gl->glAttachShader(prog, sh);
    gl->glLinkProgram(prog);
    gl->glDeleteShader(sh);
    GLint_ linked = 0;
    gl->glGetProgramiv(prog, EDMLI_GL_LINK_STATUS, &linked);
    return ok && linked ? prog : 0;
}

static double gl_timed(const edmli_gl *gl, GLuint_ x)
{
    double t0 = now_s();
    gl->glDispatchCompute(x, 1, 1);
    GLsync_ f = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->glClientWaitSync(f, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(f);
    return now_s() - t0;
}

/* What an edml execution adds to gl_floor, one thing at a time: the steps
 * of its path (gles_run.c), each row the floor with the steps up to it. */
enum {
    STEP_FLOOR,
    STEP_BARRIER,
    STEP_ERRORS,
    STEP_BINDINGS,
    STEP_WIDE,
    STEP_COPY_MAP,
    STEP_DIRECT_MAP,
    STEP_PERSISTENT,
    STEP_PERSISTENT_IDLE,
    STEP_POLLED,
    STEP_MAPPED_BARRIER,
    STEPS
};

/* the steps that read a persistent mapping (GL_EXT_buffer_storage) */
static bool step_mapped(int k) { return k == STEP_PERSISTENT || k == STEP_PERSISTENT_IDLE || k == STEP_MAPPED_BARRIER; }

static const char *const step_names[STEPS] = {"gl_floor",
                                              "+ glMemoryBarrier before the fence",
                                              "+ glGetError before and after",
                                              "+ program, parameter range, 3 uniforms",
                                              "+ 1024 invocations, not 64",
                                              "+ 8 bytes copied to a buffer, mapped after",
                                              "instead, the kernel writes that buffer",
                                              "instead, it writes a persistent coherent mapping",
                                              "instead, the mapping read; the kernel leaves it",
                                              "gl_floor, its fence polled (waits of 0)",
                                              "gl_floor, its barrier with the client-mapped bit"};

typedef struct floor_gl {
    const edmli_gl *gl;
    GLuint_ narrow, wide, buf, arena, readback, persistent;
    GLint_ loc_bind[2], loc_base[2], loc_count[2];
    const volatile uint64_t *mapped; /* the persistent buffer's mapping; NULL without EXT_buffer_storage */
} floor_gl;

/* A buffer of 4 KiB mapped persistently and coherently for reading, where
 * the driver has GL_EXT_buffer_storage (the port loads its entry point);
 * else none. */
static void gl_persistent(floor_gl *f)
{
    const char *ext = (const char *)f->gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!f->gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage")) return;
    const GLbitfield_ bits = EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
    f->gl->glGenBuffers(1, &f->persistent);
    f->gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->persistent);
    f->gl->glBufferStorageEXT(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, bits);
    f->mapped = f->gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 4096, bits);
}

/* after the fence: 8 bytes of the readback buffer mapped and read */
static uint64_t gl_read_back(const floor_gl *f)
{
    const edmli_gl *gl = f->gl;
    uint64_t v = 0;
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
    const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 8, EDMLI_GL_MAP_READ_BIT);
    if (p) memcpy(&v, p, 8);
    gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
    return v;
}

static double gl_step_timed(const floor_gl *f, int steps)
{
    const edmli_gl *gl = f->gl;
    const int polled = steps == STEP_POLLED, mapped_bit = steps == STEP_MAPPED_BARRIER;
    if (polled) steps = STEP_FLOOR;
    if (mapped_bit) steps = STEP_BARRIER;
    const int w = steps >= STEP_WIDE;
    const uint32_t bind[2] = {0, 0};
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0,
                         steps == STEP_DIRECT_MAP   ? f->readback
                         : steps == STEP_PERSISTENT ? f->persistent
                                                    : f->arena);
    double t0 = now_s();
    if (steps >= STEP_ERRORS)
        while (gl->glGetError() != EDMLI_GL_NO_ERROR) {}
    if (steps >= STEP_BINDINGS) {
        gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, f->buf, 256, 256);
        gl->glUseProgram(w ? f->wide : f->narrow);
        gl->glUniform1uiv(f->loc_bind[w], 2, bind);
        gl->glUniform1ui(f->loc_base[w], 0);
        gl->glUniform1ui(f->loc_count[w], 1);
    }
    gl->glDispatchCompute(1, 1, 1);
    if (steps >= STEP_BARRIER)
        gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT | EDMLI_GL_SHADER_STORAGE_BARRIER_BIT |
                            (steps >= STEP_PERSISTENT || mapped_bit ? EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT : 0u));
    if (steps == STEP_COPY_MAP) {
        gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, f->arena);
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, 0, 0, 8);
    }
    GLsync_ s = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (polled) {
        GLbitfield_ flush = EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT;
        while (gl->glClientWaitSync(s, flush, 0) == EDMLI_GL_TIMEOUT_EXPIRED && now_s() - t0 < 5) flush = 0;
    } else
        gl->glClientWaitSync(s, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(s);
    if (steps >= STEP_PERSISTENT)
        (void)f->mapped[0];
    else if (steps >= STEP_COPY_MAP)
        (void)gl_read_back(f);
    if (steps >= STEP_ERRORS) (void)gl->glGetError();
    return now_s() - t0;
}

static const char *const floor_src =
    "#version 310 es\nlayout(local_size_x = %d) in;\n"
    "layout(std430, binding = 0) buffer B { uint v[]; };\n"
    "layout(std430, binding = 1) readonly buffer P { uint p[]; };\n"
    "uniform uint u_bind[2];\nuniform uint u_base;\nuniform uint u_count;\n"
    "void main() { if (gl_GlobalInvocationID.x + u_base < u_count) v[u_bind[0]] += p[u_bind[1]] + 1u; }\n";

/* the rows of the breakdown, interleaved (200 rounds), medians in us */
static void gl_floor_steps(const edmli_gl *gl, const GLuint_ *buf, double *us)
{
    floor_gl f = {.gl = gl, .buf = buf[1], .arena = buf[0]};
    gl->glGenBuffers(1, &f.readback);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.readback);
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, EDMLI_GL_STREAM_READ);
    char src[512];
    snprintf(src, sizeof src, floor_src, 64);
    f.narrow = gl_program(gl, src);
    snprintf(src, sizeof src, floor_src, 1024);
    f.wide = gl_program(gl, src);
    gl_persistent(&f);
    const GLuint_ progs[2] = {f.narrow, f.wide};
    for (int w = 0; w < 2; w++) {
        f.loc_bind[w] = gl->glGetUniformLocation(progs[w], "u_bind");
        f.loc_base[w] = gl->glGetUniformLocation(progs[w], "u_base");
        f.loc_count[w] = gl->glGetUniformLocation(progs[w], "u_count");
    }
    static double t[STEPS][200];
    gl->glUseProgram(f.narrow);
    for (int i = 0; i < 210; i++)
        for (int k = 0; k < STEPS; k++) {
            if (!f.mapped && step_mapped(k)) continue;
            if (k < STEP_BINDINGS || k >= STEP_POLLED) gl->glUseProgram(f.narrow);
            double d = gl_step_timed(&f, k);
            if (i >= 10) t[k][i - 10] = d;
        }
    for (int k = 0; k < STEPS; k++) us[k] = f.mapped || !step_mapped(k) ? median(t[k], 200) * 1e6 : -1;
    if (f.mapped) {
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.persistent);
        gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
        gl->glDeleteBuffers(1, &f.persistent);
    }
    gl->glDeleteProgram(f.narrow);
    gl->glDeleteProgram(f.wide);
    gl->glDeleteBuffers(1, &f.readback);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, f.arena);
}

/* A command list of CHAIN_N small entries in bare GL, four ways, to see
 * what an entry costs: as edml records one with host memory (upload its
 * input, dispatch, barrier, copy its output to the readback buffer), with
 * the uploads first and the copies last, with one copy of every output at
 * the end, and the dispatches alone; one fence and one mapping each. */
#define CHAIN_N 16

#define CHAIN_WORDS 1024u /* an entry's input: topk_cls's 1000 floats */

enum {
    CHAIN_AS_EDML,
    CHAIN_UPLOADS_FIRST,
    CHAIN_ONE_COPY,
    CHAIN_DISPATCHES,
    CHAIN_WAYS
};

static const char *const chain_names[CHAIN_WAYS] = {
    "upload, dispatch, barrier, copy out, each entry", "uploads first, then dispatches, then copies",
    "uploads first, dispatches, one copy of all outputs", "dispatches alone"};

static double gl_chain_timed(const floor_gl *f, GLuint_ prog, GLint_ loc, int way, const uint32_t *host)
{
    const edmli_gl *gl = f->gl;
    const intptr_t in_at = 0, out_at = CHAIN_N * CHAIN_WORDS * 4, out_bytes = 64;
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, f->arena);
    gl->glUseProgram(prog);
    double t0 = now_s();
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, f->arena);
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, f->arena);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f->readback);
    for (int pass = 0; pass < 3; pass++) /* as edml: every step in one pass; else uploads, dispatches, copies */
        for (int e = 0; e < CHAIN_N; e++) {
            const bool all = way == CHAIN_AS_EDML;
            if (way != CHAIN_DISPATCHES && pass == 0)
                gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, in_at + e * CHAIN_WORDS * 4, CHAIN_WORDS * 4, host);
            if (pass == (all ? 0 : 1)) {
                if (!all && e == 0) gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
                const uint32_t at[2] = {(uint32_t)(in_at / 4) + (uint32_t)e * CHAIN_WORDS,
                                        (uint32_t)(out_at / 4) + (uint32_t)e * 16u};
                gl->glUniform1uiv(loc, 2, at);
                gl->glDispatchCompute(1, 1, 1);
                if (all) gl->glMemoryBarrier(EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
            }
            if (pass == (all ? 0 : 2) && (way == CHAIN_AS_EDML || way == CHAIN_UPLOADS_FIRST)) {
                if (!all && e == 0) gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
                gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, out_at + e * out_bytes,
                                        e * out_bytes, out_bytes);
            }
        }
    if (way == CHAIN_ONE_COPY) {
        gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
        gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, out_at, 0, CHAIN_N * out_bytes);
    }
    GLsync_ s = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->glClientWaitSync(s, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
    gl->glDeleteSync(s);
    if (way != CHAIN_DISPATCHES) {
        const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, CHAIN_N * out_bytes, EDMLI_GL_MAP_READ_BIT);
        if (p) gl->glUnmapBuffer(EDMLI_GL_COPY_WRITE_BUFFER);
    }
    return now_s() - t0;
}

static void gl_chain(const edmli_gl *gl, const GLuint_ *buf)
{
    floor_gl f = {.gl = gl, .arena = buf[0]};
    const GLuint_ prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                        "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                                        "uniform uint u_at[2];\n"
                                        "void main() { uint t = gl_LocalInvocationID.x, s = 0u;\n"
                                        "  for (uint i = t; i < 1024u; i += 256u) s += v[u_at[0] + i];\n"
                                        "  if (t < 16u) v[u_at[1] + t] = s; }\n");
    const GLint_ loc = gl->glGetUniformLocation(prog, "u_at");
    static uint32_t host[CHAIN_WORDS];
    static double t[CHAIN_WAYS][50];
    gl->glGenBuffers(1, &f.readback);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, f.readback);
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, CHAIN_N * 64, NULL, EDMLI_GL_STREAM_READ);
    for (int i = 0; i < 55; i++)
        for (int w = 0; w < CHAIN_WAYS; w++) {
            host[0] = (uint32_t)i;
            const double d = gl_chain_timed(&f, prog, loc, w, host);
            if (i >= 5) t[w][i - 5] = d;
        }
    printf("a list of %d small entries in bare GL, one fence (interleaved, median of 50):\n", CHAIN_N);
    for (int w = 0; w < CHAIN_WAYS; w++) {
        const double us = median(t[w], 50) * 1e6;
        printf("  %-52s %6.1f us, %5.1f us an entry\n", chain_names[w], us, us / CHAIN_N);
        bench_figure("gl_chain", chain_names[w], 2, (const char *[]){"us", "us_an_entry"},
                     (double[]){us, us / CHAIN_N});
    }
    gl->glDeleteBuffers(1, &f.readback);
    gl->glDeleteProgram(prog);
}

/* A floor kernel's time: program `prog` (0: it did not build, -1
 * returned) over buf[0] at binding 0 and buf[1] at binding 1, `groups`
 * workgroups and its fence back to back, median of 50 after 5; then the
 * program deleted. */
static double gl_kernel_timed(const edmli_gl *gl, const GLuint_ *buf, GLuint_ prog, GLuint_ groups)
{
    if (!prog) return -1;
    double t[50];
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    gl->glUseProgram(prog);
    for (int i = 0; i < 55; i++) {
        const double d = gl_timed(gl, groups);
        if (i >= 5) t[i - 5] = d;
    }
    gl->glDeleteProgram(prog);
    return median(t, 50);
}

/* gl_read: argmin_inner's reading in bare GL: 64 MiB (buf[0]) read as
 * 16-byte vectors, `per` an invocation with their loads independent, each
 * invocation's minimum written (to buf[1]), back to back with its fence. */
GLuint_ gl_read_program(const edmli_gl *gl, uint64_t bytes, uint32_t per)
{
    const uint32_t invocations = (uint32_t)(bytes / 16 / per);
    char src[1024];
    snprintf(src, sizeof src,
             "#version 310 es\nlayout(local_size_x = 256) in;\n"
             "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
             "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
             "void main() { uint i = gl_GlobalInvocationID.x; uvec4 v[%u];\n"
             "    for (uint k = 0u; k < %uu; k++) v[k] = s[i + k * %uu];\n"
             "    uvec4 m = v[0];\n"
             "    for (uint k = 1u; k < %uu; k++) m = min(m, v[k]);\n"
             "    d[i] = min(min(m.x, m.y), min(m.z, m.w)); }\n",
             per, per, invocations, per);
    return gl_program(gl, src);
}

double gl_read(const edmli_gl *gl, const GLuint_ *buf, uint64_t bytes, uint32_t per)
{
    return gl_kernel_timed(gl, buf, gl_read_program(gl, bytes, per), (GLuint_)(bytes / 16 / per / 256));
}

/* gl_rowread: the same 64 MiB read in argreduce_partial's order for
 * argmin_inner: 4096-element rows, 64 invocations a row, 1024 a workgroup,
 * each stepping through its row two 16-byte loads at a time. */
static double gl_rowread(const edmli_gl *gl, const GLuint_ *buf)
{
    const GLuint_ prog = gl_program(
        gl, "#version 310 es\nlayout(local_size_x = 1024) in;\n"
            "layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };\n"
            "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
            "void main() { uint i = gl_GlobalInvocationID.x, a = (i / 64u) * 1024u + i % 64u;\n"
            "    uvec4 m = uvec4(0xffffffffu);\n"
            "    for (uint k = 0u; k < 16u; k += 2u) m = min(m, min(s[a + k * 64u], s[a + k * 64u + 64u]));\n"
            "    d[i] = min(min(m.x, m.y), min(m.z, m.w)); }\n");
    return gl_kernel_timed(gl, buf, prog, 4096u * 64u / 1024u);
}

void gl_gather_tuples(const edmli_gl *gl, const GLuint_ *buf)
{
    static uint32_t tuples[GATHER_POINTS * 4];
    uint32_t r = 12345;
    for (uint32_t i = 0; i < GATHER_POINTS; i++) {
        r = r * 1664525u + 1013904223u;
        tuples[4 * i] = r >> 22, tuples[4 * i + 1] = 0, tuples[4 * i + 2] = (r >> 12) & 1023u, tuples[4 * i + 3] = 0;
    }
    static uint32_t input[1u << 20];
    for (uint32_t i = 0; i < (1u << 20); i++) input[i] = i * 2654435761u;
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[0]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof tuples, tuples);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, sizeof tuples, sizeof input, input);
    gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 2, buf[0], sizeof tuples, sizeof input);
}

GLuint_ gl_gather_program(const edmli_gl *gl, uint32_t per)
{
    char src[1024];
    snprintf(src, sizeof src,
             "#version 310 es\nlayout(local_size_x = 256) in;\n"
             "layout(std430, binding = 0) readonly buffer T { uvec4 tup[]; };\n"
             "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
             "layout(std430, binding = 2) readonly buffer S { uint s[]; };\n"
             "void main() { uint i = gl_GlobalInvocationID.x * %uu; uvec4 t[%u];\n"
             "    for (uint k = 0u; k < %uu; k++) t[k] = tup[i + k];\n"
             "    for (uint k = 0u; k < %uu; k++) d[i + k] = s[t[k].x * 1024u + t[k].z]; }\n",
             per, per, per, per);
    return gl_program(gl, src);
}

double gl_gather(const edmli_gl *gl, const GLuint_ *buf, uint32_t per)
{
    const GLuint_ prog = gl_gather_program(gl, per);
    if (!prog) return -1;
    gl_gather_tuples(gl, buf);
    return gl_kernel_timed(gl, buf, prog, GATHER_POINTS / 256 / per);
}

/* gl_rows: gather_rows' work in bare GL: 8192 random rows of 512 FLOAT32
 * (2 KiB) out of 32000, an invocation a 16-byte vector (median of 50).
 * buf[0] holds the INT32 row indices and, 32 KiB in, the input; buf[1] the
 * output. */
#define GATHER_ROWS 8192u

static double gl_rows(const edmli_gl *gl, const GLuint_ *buf)
{
    const GLuint_ prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 256) in;\n"
                                        "layout(std430, binding = 0) readonly buffer T { uint row[]; };\n"
                                        "layout(std430, binding = 1) writeonly buffer D { uvec4 d[]; };\n"
                                        "layout(std430, binding = 2) readonly buffer S { uvec4 s[]; };\n"
                                        "void main() { uint i = gl_GlobalInvocationID.x;\n"
                                        "    d[i] = s[row[i >> 7] * 128u + (i & 127u)]; }\n");
    if (!prog) return -1;
    static uint32_t rows[GATHER_ROWS];
    uint32_t r = 54321;
    for (uint32_t i = 0; i < GATHER_ROWS; i++) {
        r = r * 1664525u + 1013904223u;
        rows[i] = (uint32_t)(((uint64_t)r * 32000u) >> 32);
    }
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[0]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof rows, rows);
    gl->glBindBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 2, buf[0], sizeof rows, 32000u * 2048u);
    return gl_kernel_timed(gl, buf, prog, GATHER_ROWS * 128u / 256u);
}

edmli_port_gl *gpu_time_gl; /* The bare kernels' figures as JSON rows (each -1 where its shader did not build). */
static void floor_figures(double tg, double tg4, double tr, double tr4, double tr16, double trr, double bytes)
{
    static const char *const us[1] = {"us"}, *const read[2] = {"us", "gb_per_s"};
    if (tg >= 0)
        bench_figure("gl_gather", "gather_points' 2^20 tuples, one 16-byte load each", 1, us, (double[]){tg * 1e6});
    if (tg4 >= 0) bench_figure("gl_gather", "the same, four an invocation", 1, us, (double[]){tg4 * 1e6});
    if (tr >= 0)
        bench_figure("gl_rows", "gather_rows' 8192 rows of 2 KiB, a vector an invocation", 1, us, (double[]){tr * 1e6});
    if (tr4 >= 0)
        bench_figure("gl_read", "64 MiB read and reduced, 4 loads an invocation", 2, read,
                     (double[]){tr4 * 1e6, bytes / tr4 / 1e9});
    if (tr16 >= 0)
        bench_figure("gl_read", "64 MiB read and reduced, 16 loads an invocation", 2, read,
                     (double[]){tr16 * 1e6, bytes / tr16 / 1e9});
    if (trr >= 0)
        bench_figure("gl_read", "rowread: ArgMin's order, 64 invocations a 4096-element row", 1, us,
                     (double[]){trr * 1e6});
}

/* --gpu-time: the port whose entry points it calls */

int gpu_floor(void)
{
    static edmli_port_gl port;
    char why[256];
    if (!edmli_port_gl_open(&port, 0, why, sizeof why)) {
        printf("gl_floor: no GL: %s\n", why);
        return 1;
    }
    const edmli_gl *gl = &port.gl;
    const GLuint_ floor_prog = gl_program(gl, gl_floor_src), copy_prog = gl_program(gl, gl_copy_src);
    const uint64_t bytes = 64ull << 20;
    GLuint_ buf[2] = {gl_storage(gl, bytes, 0), gl_storage(gl, bytes, 1)};
    if (!floor_prog || !copy_prog) {
        printf("gl_floor: the shaders did not build\n");
        return 1;
    }
    double f[200], c[20], steps[STEPS];
    gl->glUseProgram(floor_prog);
    for (int i = 0; i < 10; i++) gl_timed(gl, 1);
    for (int i = 0; i < 200; i++) f[i] = gl_timed(gl, 1);
    gl_floor_steps(gl, buf, steps);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    gl->glUseProgram(copy_prog);
    for (int i = 0; i < 3; i++) gl_timed(gl, (GLuint_)(bytes / 16 / 256));
    for (int i = 0; i < 20; i++) c[i] = gl_timed(gl, (GLuint_)(bytes / 16 / 256));
    const double tf = median(f, 200), tc = median(c, 20), tg = gl_gather(gl, buf, 1), tg4 = gl_gather(gl, buf, 4),
                 tr = gl_rows(gl, buf), tr4 = gl_read(gl, buf, bytes, 4), tr16 = gl_read(gl, buf, bytes, 16),
                 trr = gl_rowread(gl, buf);
    printf("gl_floor: one workgroup and a fence, %.1f us\n", tf * 1e6);
    printf("gl_copy:  64 MiB, %.3f ms, %.0f GB/s read + written\n", tc * 1e3, 2.0 * (double)bytes / tc / 1e9);
    bench_figure("gl_floor", "one workgroup and a fence", 1, (const char *[]){"us"}, (double[]){tf * 1e6});
    bench_figure("gl_copy", "64 MiB", 2, (const char *[]){"ms", "gb_per_s"},
                 (double[]){tc * 1e3, 2.0 * (double)bytes / tc / 1e9});
    floor_figures(tg, tg4, tr, tr4, tr16, trr, (double)bytes);
    if (tg < 0 || tg4 < 0 || tr < 0 || tr4 < 0 || tr16 < 0 || trr < 0)
        printf("gl_gather, gl_rows, gl_read, gl_rowread: a shader did not build (rowread takes 1024 invocations)\n");
    if (tg >= 0 && tg4 >= 0)
        printf("gl_gather: gather_points' 2^20 tuples, one 16-byte load each, %.1f us; four an invocation %.1f us\n",
               tg * 1e6, tg4 * 1e6);
    if (tr >= 0)
        printf("gl_rows: gather_rows' 8192 rows of 2 KiB, a 16-byte vector an invocation, %.1f us\n", tr * 1e6);
    if (tr4 >= 0 && tr16 >= 0)
        printf("gl_read: 64 MiB read and reduced, 4 loads an invocation %.1f us (%.0f GB/s), 16 %.1f us (%.0f GB/s)\n",
               tr4 * 1e6, (double)bytes / tr4 / 1e9, tr16 * 1e6, (double)bytes / tr16 / 1e9);
    if (trr >= 0)
        printf("gl_rowread: the same in ArgMin's order, 64 invocations a 4096-element row, %.1f us\n", trr * 1e6);
    printf("what an execution adds to the floor, step by step (interleaved, median of 200):\n");
    for (int k = 0; k < STEPS; k++)
        if (steps[k] >= 0) {
            printf("  %-48s %5.1f us\n", step_names[k], steps[k]);
            bench_figure("gl_step", step_names[k], 1, (const char *[]){"us"}, &steps[k]);
        }
    gl_chain(gl, buf);
    gl->glDeleteBuffers(2, buf);
    gl->glDeleteProgram(floor_prog);
    gl->glDeleteProgram(copy_prog);
    edmli_port_gl_close(&port);
    return 0;
}
