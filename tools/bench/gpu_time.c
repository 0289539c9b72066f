/* edml-bench --gpu-time: GLES calls split by the GPU's clock
 * (GL_EXT_disjoint_timer_query). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --gpu-time: where a GLES call's time goes, by the GPU's own clock
 * (GL_EXT_disjoint_timer_query). A timestamp is queued before the work and
 * one after its fence (the GL records it once everything before it has
 * completed), so a call splits into the GPU's busy span (from the first to
 * the last timestamp) and the rest (submitting on the CPU, the GPU's
 * front end reaching the work, the wake-up after the fence). Bare GL first:
 * a fence alone, gl_floor's one workgroup (also with edml's closing barrier,
 * with a third timestamp between the dispatch and the fence, twice, and
 * waited for without a fence: by polling the last timestamp, or by spinning
 * on a mapped word a one-invocation kernel bumps after a barrier), a 64 MiB
 * read and a 64 MiB copy, each a dispatch and a fence; then edml
 * workloads on GLES with their tensors in GPU buffers, recorded as a command
 * list of one entry (its submission returns at once, so the last timestamp
 * can follow its fence), the plain execution timed alternately. */
typedef struct gpu_clock {
    const edmli_gl *gl;
    GLuint_ q[3]; /* before the work, between (optional), after the fence */
    bool mid;
    double c0;
} gpu_clock;

static bool gpu_clock_open(gpu_clock *k, const edmli_gl *gl)
{
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_disjoint_timer_query") || !gl->glGenQueriesEXT || !gl->glDeleteQueriesEXT ||
        !gl->glQueryCounterEXT || !gl->glGetQueryObjectui64vEXT || !gl->glGetInteger64v)
        return false;
    k->gl = gl;
    gl->glGenQueriesEXT(3, k->q);
    return true;
}

static void gpu_clock_start(gpu_clock *k)
{
    k->c0 = now_s();
    k->mid = false;
    k->gl->glQueryCounterEXT(k->q[0], EDMLI_GL_TIMESTAMP);
}

static void gpu_clock_mid(gpu_clock *k)
{
    k->mid = true;
    k->gl->glQueryCounterEXT(k->q[1], EDMLI_GL_TIMESTAMP);
}

/* after the work and its fence, before the wait */
static void gpu_clock_mark(const gpu_clock *k)
{
    k->gl->glQueryCounterEXT(k->q[2], EDMLI_GL_TIMESTAMP);
    k->gl->glFlush();
}

/* after the wait: part[0] the call, [1] the GPU's busy span, [2] the rest,
 * [3] the span's part up to the middle timestamp (0 without one), in
 * seconds; false where the GPU's clock was disjoint */
static bool gpu_clock_end(const gpu_clock *k, double *part)
{
    const double c1 = now_s();
    uint64_t t[3] = {0, 0, 0};
    int64_t disjoint = 0;
    for (int j = 0; j < 3; j++)
        if (j != 1 || k->mid) k->gl->glGetQueryObjectui64vEXT(k->q[j], EDMLI_GL_QUERY_RESULT, &t[j]);
    k->gl->glGetInteger64v(EDMLI_GL_GPU_DISJOINT, &disjoint);
    part[0] = c1 - k->c0;
    part[1] = (double)(int64_t)(t[2] - t[0]) * 1e-9;
    part[2] = part[0] - part[1];
    part[3] = k->mid ? (double)(int64_t)(t[1] - t[0]) * 1e-9 : 0;
    return !disjoint;
}

#define GPU_TIME_N 100

/* the medians of the parts of n calls, and of `plain` (an execution's time) where given */
static void gpu_time_row(const char *name, double (*part)[4], int n, const double *plain)
{
    double col[GPU_TIME_N], m[4];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < n; i++) col[i] = part[i][j];
        m[j] = median(col, n);
    }
    printf("%-24s %7.1f %8.1f %7.1f", name, m[0] * 1e6, m[1] * 1e6, m[2] * 1e6);
    if (plain) printf(" %9.1f", median((double *)plain, n) * 1e6);
    if (m[3] > 0) printf("   (dispatch %.1f, then the fence %.1f)", m[3] * 1e6, (m[1] - m[3]) * 1e6);
    printf("\n");
    bench_figure("gpu_time", name, plain ? 4 : 3, (const char *[]){"call_us", "gpu_busy_us", "rest_us", "plain_us"},
                 (double[]){m[0] * 1e6, m[1] * 1e6, m[2] * 1e6, plain ? median((double *)plain, n) * 1e6 : 0});
}

enum {
    BARE_NO_DISPATCH = 1,
    BARE_BARRIER = 2,
    BARE_MID = 4,
    BARE_TWICE = 8,
    BARE_MARK_FIRST = 16,
    BARE_BY_QUERY = 32,
    BARE_FLAG = 64,        /* no fence: after a barrier, a one-invocation kernel bumps a word the CPU spins on */
    BARE_FLAG_CLIENT = 128 /* the same, the word's buffer made with the client-storage bit */
};

/* the wait for the last timestamp: polled until the GL marks it available
 * (it is recorded once every command before it has completed); false
 * after 5 s */
static bool gpu_clock_poll(const gpu_clock *k)
{
    uint64_t done = 0;
    for (double t0 = now_s(); !done; k->gl->glGetQueryObjectui64vEXT(k->q[2], EDMLI_GL_QUERY_RESULT_AVAILABLE, &done))
        if (now_s() - t0 > 5) return false;
    return true;
}

/* a bare kernel of `groups` workgroups, its dispatch and fence, GPU_TIME_N
 * times; BARE_MARK_FIRST: the last timestamp before the fence, not after;
 * BARE_BY_QUERY: no fence, the last timestamp polled instead */
/* BARE_FLAG's word: in a buffer mapped persistently and coherently
 * (GL_EXT_buffer_storage), without and with the client-storage bit */
typedef struct gpu_flag {
    GLuint_ buf[2], prog;
    const volatile uint32_t *mapped[2];
    uint32_t count[2];
} gpu_flag;

static gpu_flag flag;

static void gpu_flag_open(const edmli_gl *gl)
{
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage")) return;
    flag.prog = gl_program(gl, "#version 310 es\nlayout(local_size_x = 1) in;\n"
                               "layout(std430, binding = 3) buffer F { uint f[]; };\n"
                               "void main() { f[0] += 1u; }\n");
    gl->glGenBuffers(2, flag.buf);
    for (int i = 0; i < 2; i++) {
        const GLbitfield_ bits = EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
        gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, flag.buf[i]);
        gl->glBufferStorageEXT(EDMLI_GL_COPY_WRITE_BUFFER, 4096, NULL, bits | (i ? 0x0200u : 0u));
        flag.mapped[i] = gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, 4096, bits);
        flag.count[i] = flag.mapped[i] ? flag.mapped[i][0] : 0;
    }
}

/* the flag's kernel after the work; false if the word did not change within 5 s */
static bool gpu_flag_wait(const gpu_clock *k, GLuint_ prog, int which)
{
    const edmli_gl *gl = k->gl;
    gl->glMemoryBarrier(EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 3, flag.buf[which]);
    gl->glUseProgram(flag.prog);
    gl->glDispatchCompute(1, 1, 1);
    gl->glUseProgram(prog);
    gpu_clock_mark(k);
    const uint32_t want = ++flag.count[which];
    for (double t0 = now_s(); flag.mapped[which][0] != want;)
        if (now_s() - t0 > 5) return false;
    return true;
}

static void gpu_time_bare(gpu_clock *k, const char *name, GLuint_ prog, GLuint_ groups, int how)
{
    if ((how & (BARE_FLAG | BARE_FLAG_CLIENT)) && !flag.mapped[how & BARE_FLAG_CLIENT ? 1 : 0]) return;
    const edmli_gl *gl = k->gl;
    double part[GPU_TIME_N][4];
    int n = 0;
    if (!prog) return;
    gl->glUseProgram(prog);
    for (int i = 0; i < GPU_TIME_N + 5; i++) {
        gpu_clock_start(k);
        for (int d = 0; d < (how & BARE_TWICE ? 2 : 1) && !(how & BARE_NO_DISPATCH); d++)
            gl->glDispatchCompute(groups, 1, 1);
        if (how & BARE_MID) gpu_clock_mid(k);
        if (how & BARE_BARRIER)
            gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT | EDMLI_GL_SHADER_STORAGE_BARRIER_BIT);
        if (how & (BARE_FLAG | BARE_FLAG_CLIENT)) {
            const bool seen = gpu_flag_wait(k, prog, how & BARE_FLAG_CLIENT ? 1 : 0);
            if (gpu_clock_end(k, part[n]) && seen && i >= 5) n++;
            continue;
        }
        if (how & (BARE_MARK_FIRST | BARE_BY_QUERY)) gpu_clock_mark(k);
        GLsync_ f = how & BARE_BY_QUERY ? NULL : gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (!(how & (BARE_MARK_FIRST | BARE_BY_QUERY))) gpu_clock_mark(k);
        if (f) gl->glClientWaitSync(f, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
        if (f) gl->glDeleteSync(f);
        const bool done = !(how & BARE_BY_QUERY) || gpu_clock_poll(k);
        if (gpu_clock_end(k, part[n]) && done && i >= 5) n++;
    }
    if (n) gpu_time_row(name, part, n, NULL);
}

/* one workload on GLES, its tensors in GPU buffers: a list of one entry
 * with the clock, and the plain execution, alternately */
static bool gpu_time_workload(edml_device *dev, int wi, double scale)
{
    workload w;
    make_workload(&w, wi, scale);
    chain_run c = {.dev = dev, .w = &w, .n = 1, .gpu = true};
    EDML_BUFFER_BINDING bi[3], bo[64][2];
    uint8_t *outs[64][2] = {{0}};
    edml_gpu_buffer *gin[3] = {0}, *gout[2] = {0};
    edml_command_list *list = NULL;
    bool ok = !edml_operator_create(dev, &w.desc, EDML_BACKEND_GLES, &c.op[0]) &&
              chain_bind(&c, bi, bo, outs, gin, gout) && !edml_command_list_create(dev, 1, &list) &&
              !edml_command_list_record(list, c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL);
    gpu_clock k = {0};
    ok = ok && !edml_operator_execute(c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL); /* its context current */
    ok = ok && gpu_clock_open(&k, &gpu_time_gl->gl);
    double part[GPU_TIME_N][4], plain[GPU_TIME_N];
    int n = 0;
    for (int i = 0; i < GPU_TIME_N + 5 && ok; i++) {
        gpu_clock_start(&k);
        ok = !edml_command_list_submit(list);
        gpu_clock_mark(&k);
        ok = ok && !edml_command_list_wait(list, UINT64_MAX);
        const bool kept = gpu_clock_end(&k, part[n]) && i >= 5;
        const double t0 = now_s();
        ok = ok && !edml_operator_execute(c.op[0], bi, (UINT)w.nin, bo[0], (UINT)w.nout, NULL);
        if (kept) plain[n++] = now_s() - t0;
    }
    if (ok && n) gpu_time_row(w.name, part, n, plain);
    if (!ok) printf("%-16s failed: %s\n", w.name, edml_device_last_error(dev));
    if (k.gl) k.gl->glDeleteQueriesEXT(3, k.q);
    if (list) edml_command_list_destroy(list);
    free(outs[0][0]), free(outs[0][1]);
    for (int j = 2; j-- > 0;)
        if (gout[j]) edml_gpu_buffer_destroy(gout[j]);
    for (int j = 3; j-- > 0;)
        if (gin[j]) edml_gpu_buffer_destroy(gin[j]);
    if (c.op[0]) edml_operator_destroy(c.op[0]);
    free_workload(&w);
    return ok;
}

static void gl_read_words(const edmli_gl *gl, GLuint_ buf, uint32_t *host, size_t bytes)
{
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, buf);
    const void *p = gl->glMapBufferRange(EDMLI_GL_COPY_READ_BUFFER, 0, (GLsizeiptr_)bytes, EDMLI_GL_MAP_READ_BIT);
    if (p) memcpy(host, p, bytes);
    gl->glUnmapBuffer(EDMLI_GL_COPY_READ_BUFFER);
}

/* gather_points' work in bare GL (gl_gather), and the same with the
 * input read through a buffer texture (GL_EXT_texture_buffer: texelFetch,
 * the texture path) */
static void gpu_time_gather(gpu_clock *k, const GLuint_ *buf)
{
    const edmli_gl *gl = k->gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    gl_gather_tuples(gl, buf);
    const GLuint_ ssbo = gl_gather_program(gl, 1);
    gpu_time_bare(k, "gl_gather", ssbo, GATHER_POINTS / 256, 0);
    if (ssbo) gl->glDeleteProgram(ssbo);
    static uint32_t before[GATHER_POINTS], after[GATHER_POINTS];
    gl_read_words(gl, buf[1], before, sizeof before);
    if (!ext || !strstr(ext, "GL_EXT_texture_buffer") || !gl->glTexBufferRangeEXT || !gl->glGenTextures ||
        !gl->glBindTexture || !gl->glActiveTexture || !gl->glDeleteTextures)
        return;
    const GLuint_ tex_prog =
        gl_program(gl, "#version 310 es\n#extension GL_EXT_texture_buffer : require\nlayout(local_size_x = 256) in;\n"
                       "layout(std430, binding = 0) readonly buffer T { uvec4 tup[]; };\n"
                       "layout(std430, binding = 1) writeonly buffer D { uint d[]; };\n"
                       "layout(binding = 0) uniform highp usamplerBuffer S;\n"
                       "void main() { uint i = gl_GlobalInvocationID.x; uvec4 t = tup[i];\n"
                       "    d[i] = texelFetch(S, int(t.x * 1024u + t.z)).x; }\n");
    GLuint_ tex = 0;
    gl->glActiveTexture(EDMLI_GL_TEXTURE0);
    gl->glGenTextures(1, &tex);
    gl->glBindTexture(EDMLI_GL_TEXTURE_BUFFER, tex);
    gl->glTexBufferRangeEXT(EDMLI_GL_TEXTURE_BUFFER, EDMLI_GL_R32UI, buf[0], (GLintptr_)GATHER_POINTS * 16, 4u << 20);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf[1]);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, sizeof after, after); /* zeros */
    gpu_time_bare(k, "gl_gather, a buffer texture", tex_prog, GATHER_POINTS / 256, 0);
    gl_read_words(gl, buf[1], after, sizeof after);
    printf("  (its outputs %s gl_gather's; word 1000 %08x)\n",
           memcmp(before, after, sizeof after) ? "differ from" : "equal", (unsigned)after[1000]);
    if (tex_prog) gl->glDeleteProgram(tex_prog);
    gl->glDeleteTextures(1, &tex);
}

/* random bytes into a buffer: the bare kernels read data like the
 * workloads' (a buffer never written reads as zeros, which the GPU may
 * move compressed) */
static void gl_fill_random(const edmli_gl *gl, GLuint_ buf, uint64_t bytes)
{
    static uint64_t chunk[1u << 17]; /* 1 MiB */
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, buf);
    for (uint64_t at = 0; at < bytes; at += sizeof chunk) {
        for (size_t i = 0; i < sizeof chunk / 8; i++) chunk[i] = rng();
        const uint64_t n = bytes - at < sizeof chunk ? bytes - at : sizeof chunk;
        gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, (GLintptr_)at, (GLsizeiptr_)n, chunk);
    }
}

/* if_f32's work in bare GL (gl_select): 2^24 FLOAT32 elements of A and B
 * selected by UINT8 conditions, four elements (16 bytes) an invocation,
 * with the ElementWiseIf kernel's masks: in four buffers read-only and
 * write-only, in four plain ones, and in one buffer as edml's arena
 * (offsets as uniforms; also with a coherent view of it declared, unused) */
static const char *const select_src[4] = {
    "layout(std430, binding = 4) readonly buffer C { uint c[]; };\n"
    "layout(std430, binding = 5) readonly buffer A { uvec4 a[]; };\n"
    "layout(std430, binding = 6) readonly buffer B { uvec4 b[]; };\n"
    "layout(std430, binding = 7) writeonly buffer D { uvec4 d[]; };\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = c[u];\n"
    "    d[u] = (a[u] & mask(w)) | (b[u] & ~mask(w)); }\n",
    "layout(std430, binding = 4) buffer C { uint c[]; };\n"
    "layout(std430, binding = 5) buffer A { uvec4 a[]; };\n"
    "layout(std430, binding = 6) buffer B { uvec4 b[]; };\n"
    "layout(std430, binding = 7) buffer D { uvec4 d[]; };\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = c[u];\n"
    "    d[u] = (a[u] & mask(w)) | (b[u] & ~mask(w)); }\n",
    "layout(std430, binding = 8) buffer M { uint m[]; };\n"
    "layout(std430, binding = 8) buffer M4 { uvec4 m4[]; };\n"
    "uniform uint u_at[4];\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = m[u_at[0] + u];\n"
    "    m4[u_at[3] + u] = (m4[u_at[1] + u] & mask(w)) | (m4[u_at[2] + u] & ~mask(w)); }\n",
    "layout(std430, binding = 8) buffer M { uint m[]; };\n"
    "layout(std430, binding = 8) buffer M4 { uvec4 m4[]; };\n"
    "layout(std430, binding = 8) coherent buffer MC { uint mc[]; };\n"
    "uniform uint u_at[4];\n"
    "void main() { uint u = gl_GlobalInvocationID.x, w = m[u_at[0] + u];\n"
    "    m4[u_at[3] + u] = (m4[u_at[1] + u] & mask(w)) | (m4[u_at[2] + u] & ~mask(w)); }\n"};

static const char *const select_names[4] = {"gl_select (if_f32's work)", "gl_select, plain buffers",
                                            "gl_select, one buffer", "gl_select, one, coherent view"};

static void gpu_time_select(gpu_clock *k)
{
    const edmli_gl *gl = k->gl;
    const uint64_t n = 1u << 24, sizes[5] = {n, 4 * n, 4 * n, 4 * n, 13 * n}; /* conditions, A, B, output; all */
    const GLuint_ at[4] = {0, (GLuint_)(n / 16), (GLuint_)(5 * n / 16), (GLuint_)(9 * n / 16)};
    GLuint_ buf[5];
    for (int i = 0; i < 5; i++) {
        buf[i] = gl_storage(gl, sizes[i], (GLuint_)(4 + i));
        if (i != 3) gl_fill_random(gl, buf[i], sizes[i]);
    }
    for (int v = 0; v < 4; v++) {
        char src[2048];
        snprintf(src, sizeof src,
                 "#version 310 es\nlayout(local_size_x = 1024) in;\n"
                 "uint bm(uint w, uint k) { return ((w >> (k * 8u)) & 0xffu) != 0u ? 0xffffffffu : 0u; }\n"
                 "uvec4 mask(uint w) { return uvec4(bm(w, 0u), bm(w, 1u), bm(w, 2u), bm(w, 3u)); }\n%s",
                 select_src[v]);
        const GLuint_ prog = gl_program(gl, src);
        if (!prog) continue;
        gl->glUseProgram(prog);
        if (v >= 2) gl->glUniform1uiv(gl->glGetUniformLocation(prog, "u_at"), 4, at);
        gpu_time_bare(k, select_names[v], prog, (GLuint_)(n / 4 / 1024), 0);
        gl->glDeleteProgram(prog);
    }
    gl->glDeleteBuffers(5, buf);
}

int gpu_time(const options *o)
{
    static edmli_port_gl port; /* its entry points serve edml's context too */
    char why[256];
    if (!edmli_port_gl_open(&port, 0, why, sizeof why)) {
        printf("gpu-time: no GL: %s\n", why);
        return 1;
    }
    const edmli_gl *gl = &port.gl;
    gpu_time_gl = &port;
    gpu_clock k = {0};
    if (!gpu_clock_open(&k, gl)) {
        printf("gpu-time: the driver has no GL_EXT_disjoint_timer_query\n");
        edmli_port_gl_close(&port);
        return 1;
    }
    printf("gpu-time: medians of %d calls, us: the call, the GPU busy from a timestamp before its work to one after "
           "its fence, the rest; an edml execution's own time beside\n%-24s %7s %8s %7s %9s\n",
           GPU_TIME_N, "", "call", "on GPU", "rest", "execute");
    const uint64_t bytes = o->scale < 1 ? 1ull << 20 : 64ull << 20; /* the read and the copy: 1 MiB for quick runs */
    GLuint_ buf[2] = {gl_storage(gl, bytes, 0), gl_storage(gl, bytes, 1)};
    char read_name[32], copy_name[32];
    snprintf(read_name, sizeof read_name, "gl_read %u MiB", (unsigned)(bytes >> 20));
    snprintf(copy_name, sizeof copy_name, "gl_copy %u MiB", (unsigned)(bytes >> 20));
    const GLuint_ floor_prog = gl_program(gl, gl_floor_src), read_prog = gl_read_program(gl, bytes, 4),
                  copy_prog = gl_program(gl, gl_copy_src);
    gpu_time_bare(&k, "two timestamps alone", floor_prog, 1, BARE_NO_DISPATCH | BARE_MARK_FIRST);
    gpu_time_bare(&k, "a fence alone", floor_prog, 1, BARE_NO_DISPATCH);
    gpu_time_bare(&k, "gl_floor", floor_prog, 1, 0);
    gpu_time_bare(&k, "gl_floor, edml's barrier", floor_prog, 1, BARE_BARRIER);
    gpu_time_bare(&k, "gl_floor, a mark", floor_prog, 1, BARE_MID);
    gpu_time_bare(&k, "gl_floor twice", floor_prog, 1, BARE_TWICE);
    gpu_time_bare(&k, "gl_floor, timestamp first", floor_prog, 1, BARE_BARRIER | BARE_MARK_FIRST);
    gpu_time_bare(&k, "gl_floor, no fence", floor_prog, 1, BARE_BARRIER | BARE_BY_QUERY);
    gpu_flag_open(gl);
    gpu_time_bare(&k, "gl_floor, a flag spun on", floor_prog, 1, BARE_FLAG);
    gpu_time_bare(&k, "the same, client storage", floor_prog, 1, BARE_FLAG_CLIENT);
    gpu_time_bare(&k, "a flag alone", floor_prog, 1, BARE_FLAG | BARE_NO_DISPATCH);
    gpu_time_bare(&k, "gl_read, never written", read_prog, (GLuint_)(bytes / 16 / 4 / 256), 0);
    gpu_time_bare(&k, "gl_copy, never written", copy_prog, (GLuint_)(bytes / 16 / 256), 0);
    gl_fill_random(gl, buf[0], bytes); /* the rows below read random data */
    gpu_time_bare(&k, read_name, read_prog, (GLuint_)(bytes / 16 / 4 / 256), 0);
    gpu_time_bare(&k, "gl_read, a mark", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_MID);
    gpu_time_bare(&k, "gl_read, no fence", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_BARRIER | BARE_BY_QUERY);
    gpu_time_bare(&k, "gl_read, a flag spun on", read_prog, (GLuint_)(bytes / 16 / 4 / 256), BARE_FLAG);
    gpu_time_bare(&k, copy_name, copy_prog, (GLuint_)(bytes / 16 / 256), 0);
    if (bytes >= (20u << 20)) gpu_time_gather(&k, buf); /* its tuples and input: 20 MiB */
    if (o->scale >= 1) gpu_time_select(&k);
    gl->glDeleteProgram(floor_prog);
    gl->glDeleteProgram(read_prog);
    gl->glDeleteProgram(copy_prog);
    if (flag.prog) gl->glDeleteProgram(flag.prog);
    if (flag.buf[0]) gl->glDeleteBuffers(2, flag.buf); /* unmapped with them */
    gl->glDeleteQueriesEXT(3, k.q);
    gl->glDeleteBuffers(2, buf);
    bench_device bd;
    bool ok = bench_device_open(&bd, 1, 0);
    for (int wi = 0; wi < WORKLOADS && ok; wi++)
        if (!o->only || !strcmp(o->only, workload_names[wi])) ok = gpu_time_workload(bd.dev, wi, o->scale);
    if (bd.dev) bench_device_close(&bd);
    edmli_port_gl_close(&port);
    return ok ? 0 : 1;
}
