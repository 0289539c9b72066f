/* The GLES backend's device: context, limits, the programs' start, the
 * one GPU arena buffer. */
#include "gles.h"

#include <string.h>

/* Says that a setting was changed, and why (edml_device_gles_info, the log). */
static void edmli_gles_note(edmli_gles *g, const char *what)
{
    size_t n = strlen(g->adjusted);
    edmli_format(g->adjusted + n, sizeof g->adjusted - n, "%s%s", n ? "; " : "", what);
}

/* The GPU arena: the size asked for rounded down to a multiple of
 * EDMLI_GLES_BUFFER_ALIGN (the kernels address it in 32-bit words and
 * 16-byte vectors; GPU buffers start at multiples of it) and cut to the
 * driver's largest storage block, each change said. */
static void edmli_gles_arena_size(edmli_gles *g, uint64_t asked)
{
    /* the buffer holds the workgroup counts after the arena (gles.h) */
    const uint64_t bound = g->max_ssbo > EDMLI_GLES_ARENA_RESERVED ? g->max_ssbo - EDMLI_GLES_ARENA_RESERVED : 0;
    const uint64_t limit = bound / EDMLI_GLES_BUFFER_ALIGN * EDMLI_GLES_BUFFER_ALIGN;
    char note[160];
    g->arena_bytes = asked / EDMLI_GLES_BUFFER_ALIGN * EDMLI_GLES_BUFFER_ALIGN;
    edmli_format(g->arena_bound, sizeof g->arena_bound, "edml_device_desc.gpu_arena_bytes sets its size");
    if (g->arena_bytes > limit) {
        g->arena_bytes = limit;
        edmli_format(g->arena_bound, sizeof g->arena_bound,
                     "the driver's GL_MAX_SHADER_STORAGE_BLOCK_SIZE, %llu bytes, bounds it to %llu: a larger "
                     "gpu_arena_bytes cannot help",
                     (unsigned long long)g->max_ssbo, (unsigned long long)limit);
        edmli_format(note, sizeof note,
                     "gpu_arena_bytes %llu cut to %llu, the most the driver's GL_MAX_SHADER_STORAGE_BLOCK_SIZE of "
                     "%llu bytes allows",
                     (unsigned long long)asked, (unsigned long long)limit, (unsigned long long)g->max_ssbo);
        edmli_gles_note(g, note);
    } else if (g->arena_bytes != asked) {
        edmli_format(note, sizeof note, "gpu_arena_bytes %llu rounded down to %llu, a multiple of %u",
                     (unsigned long long)asked, (unsigned long long)g->arena_bytes, EDMLI_GLES_BUFFER_ALIGN);
        edmli_gles_note(g, note);
    }
}

edml_status edmli_gles_arena_short(const edmli_gles *g, edmli_errbuf *e, const char *what, uint64_t need, uint64_t have)
{
    return edmli_fail(e, EDMLI_MSG_GPU_ARENA_TOO_SMALL, what, (unsigned long long)need, (unsigned long long)have,
                      (unsigned long long)(need - have), g->arena_bound);
}

/* The limits a kernel depends on, as the driver reports them. */
typedef struct edmli_gles_limit_set {
    int inv, size_x, shared, ssbo, blocks, align, groups, ubo, ubo_align;
} edmli_gles_limit_set;

/* A smaller GPU's limits, for tests (EDML_FAULT_LIMITS_*): each value of
 * the driver's taken no higher (alignments no lower) than the profile's,
 * as Mesa 22.3's drivers report them (src/gallium/drivers). */
static const struct edmli_gles_limit_profile {
    uint32_t fault;
    const char *name;
    edmli_gles_limit_set l;
} edmli_gles_profiles[] = {
    {EDML_FAULT_LIMITS_GLES31, "GLES 3.1's minimums", {128, 128, 16384, 1 << 27, 4, 256, 65535, 16384, 256}},
    {EDML_FAULT_LIMITS_V3D, "V3D's", {256, 256, 16384, 1 << 27, 16, 16, 65535, 16384, 256}},
    {EDML_FAULT_LIMITS_MALI, "a Bifrost or Valhall Mali's", {256, 256, 32768, 1 << 27, 16, 4, 65535, 16384, 16}},
    {EDML_FAULT_LIMITS_ADRENO, "an Adreno 6xx's", {1024, 1024, 32768, 1 << 27, 24, 64, 65535, 16384, 64}},
};

static void edmli_gles_clamp_limits(edmli_gles *g, edmli_gles_limit_set *l)
{
    for (size_t k = 0; k < sizeof edmli_gles_profiles / sizeof *edmli_gles_profiles; k++) {
        if (!(g->faults & edmli_gles_profiles[k].fault)) continue;
        int *v = &l->inv;
        const int *q = &edmli_gles_profiles[k].l.inv;
        for (int i = 0; i < (int)(sizeof *l / sizeof(int)); i++) {
            const bool alignment = &v[i] == &l->align || &v[i] == &l->ubo_align;
            if (alignment ? v[i] < q[i] : v[i] > q[i]) v[i] = q[i];
        }
        char note[80];
        edmli_format(note, sizeof note, "limits taken as %s (a test's)", edmli_gles_profiles[k].name);
        edmli_gles_note(g, note);
        return;
    }
}

/* Limits of this GPU (false with the reason where one is below GLES 3.1's
 * minimum), and the board's preference. */
static bool edmli_gles_limits(edmli_gles *g, const edml_device *dev, char *why, size_t cap)
{
    edmli_gl *gl = &g->port.gl;
    edmli_gles_limit_set l = {0};
    gl->glGetIntegerv(EDMLI_GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l.inv);
    gl->glGetIntegeri_v(EDMLI_GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &l.size_x);
    gl->glGetIntegerv(EDMLI_GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &l.shared);
    gl->glGetIntegerv(EDMLI_GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &l.ssbo);
    gl->glGetIntegerv(EDMLI_GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &l.blocks);
    gl->glGetIntegerv(EDMLI_GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &l.align);
    gl->glGetIntegeri_v(EDMLI_GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &l.groups);
    gl->glGetIntegerv(EDMLI_GL_MAX_UNIFORM_BLOCK_SIZE, &l.ubo);
    gl->glGetIntegerv(EDMLI_GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &l.ubo_align);
    edmli_gles_clamp_limits(g, &l);
    /* a workgroup is at most the invocations and the x size the driver allows */
    const int inv = l.size_x > 0 && l.size_x < l.inv ? l.size_x : l.inv, shared = l.shared, ssbo = l.ssbo,
              blocks = l.blocks, align = l.align, groups = l.groups, ubo = l.ubo, ubo_align = l.ubo_align;
    const char *renderer = (const char *)gl->glGetString(EDMLI_GL_RENDERER);
    const char *version = (const char *)gl->glGetString(EDMLI_GL_VERSION);
    edmli_format(g->renderer, sizeof g->renderer, "%s", renderer ? renderer : "unknown");
    g->identity = edmli_fnv1a_str(edmli_fnv1a_str(EDMLI_FNV1A_SEED, g->renderer), version ? version : "");
    if (blocks < 4 || inv < 128 || shared < 16384 || ubo < (int)EDMLI_GLES_PARAM_BYTES) {
        edmli_format(why, cap,
                     "%s: %d storage blocks, %d invocations, %d bytes shared, uniform blocks of %d bytes: below GLES "
                     "3.1's minimum",
                     g->renderer, blocks, inv, shared, ubo);
        return false;
    }
    /* the board's workgroup, else 256 invocations on V3D (16-lane QPUs) and
     * 1024 elsewhere; a power of two from 128 (GLES 3.1's minimum) within
     * the GPU's limit */
    const bool v3d = strstr(g->renderer, "V3D") || (g->faults & EDML_FAULT_LIMITS_V3D);
    const bool mali = strstr(g->renderer, "Mali") || (g->faults & EDML_FAULT_LIMITS_MALI);
    g->lists_16 = !v3d && !mali;
    g->watchdog = v3d;
    uint32_t want = dev->board.gpu_workgroup ? dev->board.gpu_workgroup : v3d ? 256u : 1024u;
    g->local = 128u;
    while (g->local * 2 <= (uint32_t)inv && g->local * 2 <= want) g->local *= 2;
    if (dev->board.gpu_workgroup && g->local != dev->board.gpu_workgroup) {
        char note[160];
        edmli_format(note, sizeof note,
                     "edml_board.gpu_workgroup %u taken as %u: a power of two from 128 to the GPU's %d invocations "
                     "(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS)",
                     dev->board.gpu_workgroup, g->local, inv);
        edmli_gles_note(g, note);
    }
    /* shared memory of topk_select: 12 bytes a sort entry, 8 KiB of histograms, 4 bytes a thread, 16
     * bytes of its own and main()'s count of finished invocations */
    g->sort_max = EDMLI_GLES_SORT_MAX;
    while (g->sort_max > 64 && g->sort_max * 12u + 8192u + g->local * 4u + 20u > (uint32_t)shared) g->sort_max /= 2;
    g->max_groups_x = groups > 0 ? (uint32_t)groups : 65535u;
    g->max_ssbo = (uint64_t)(uint32_t)ssbo;
    /* glBindBufferRange offsets are multiples of it: tensors' (storage) and
     * parameter blocks' (uniform) alike, and at least a vector */
    uint32_t al = align > 0 ? (uint32_t)align : 256u;
    if (ubo_align > 0 && (uint32_t)ubo_align > al) al = (uint32_t)ubo_align;
    if (al < 16u) al = 16u;
    g->param_stride = (EDMLI_GLES_PARAM_BYTES + al - 1) / al * al;
    g->param_align = al;
    return true;
}

bool edmli_gles_builds(const edmli_gles *g, edmli_gles_prog id)
{
    return id != EDMLI_GLES_PROG_TOPK_THREAD || g->lists_16;
}

bool edmli_gles_open_context(edmli_gles *g, const edml_device *dev, uint32_t faults, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    g->fail_first = EDMLI_GLES_NO_FAILURE;
    g->faults = faults;
    /* each program's bindings, from its struct alone: an operator's baked
     * blocks (and so its size) are the same before and after a build */
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++)
        g->bind_count[id] = edmli_gles_binding_words((edmli_gles_prog)id, g->bind_word[id]);
    uint32_t port_faults =
        (faults & EDML_FAULT_NO_GL ? EDMLI_FAULT_NO_GL : 0) | (faults & EDML_FAULT_CONTEXT ? EDMLI_FAULT_CONTEXT : 0);
    if (!edmli_port_gl_open(&g->port, port_faults, why, cap)) return false;
    edmli_gles_take_error(g);
    if (!edmli_gles_limits(g, dev, why, cap)) {
        edmli_port_gl_close(&g->port);
        return false;
    }
    return true;
}

/* The GPU arena's buffer; with `mapped` and GL_EXT_buffer_storage, of
 * immutable storage mapped once, persistently and coherently, for
 * edml_gpu_buffer_map() (else created as any buffer and mapped a range at
 * a time). */
static void edmli_gles_arena_create(edmli_gles *g, bool mapped)
{
    edmli_gl *gl = &g->port.gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    gl->glGenBuffers(1, &g->arena_buf);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, g->arena_buf);
    if (!mapped || !gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage") ||
        (g->faults & EDML_FAULT_NO_BUFFER_STORAGE)) {
        gl->glBufferData(EDMLI_GL_SHADER_STORAGE_BUFFER, (intptr_t)(g->arena_bytes + EDMLI_GLES_ARENA_RESERVED), NULL,
                         EDMLI_GL_DYNAMIC_COPY);
        return;
    }
    const unsigned bits =
        EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_WRITE_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
    const intptr_t bytes = (intptr_t)(g->arena_bytes + EDMLI_GLES_ARENA_RESERVED);
    gl->glBufferStorageEXT(EDMLI_GL_SHADER_STORAGE_BUFFER, bytes, NULL, bits | EDMLI_GL_DYNAMIC_STORAGE_BIT);
    g->arena_map = (uint8_t *)gl->glMapBufferRange(EDMLI_GL_SHADER_STORAGE_BUFFER, 0, bytes, bits);
}

/* Programs are built when an operator first needs them, so that creating a
 * device never waits on the driver's compiler (V3D took minutes over some
 * kernels). Where the driver builds in its own threads, every program is
 * started now and its build goes on while the application runs. Mesa
 * offers GL_KHR_parallel_shader_compile on every driver, but V3D and
 * llvmpipe compile while glLinkProgram returns: a first program started
 * (elementwise_if, small) that is complete when its link returns says so,
 * and the others are then left to their first use. */
static void edmli_gles_programs_open(edmli_gles *g, const edml_device *dev)
{
    edmli_gl *gl = &g->port.gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    g->log = dev->err.log, g->log_user = dev->err.log_user;
    edmli_gles_cache_open(g, dev->desc.program_cache, dev->desc.program_cache_bytes);
    const bool slow = (g->faults & EDML_FAULT_SLOW_COMPILE) != 0;
    g->parallel = (ext && strstr(ext, "GL_KHR_parallel_shader_compile") && gl->glMaxShaderCompilerThreadsKHR) || slow;
    if (!g->parallel) return;
    if (gl->glMaxShaderCompilerThreadsKHR) gl->glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu); /* the driver's choice */
    const edmli_gles_prog probe = EDMLI_GLES_PROG_ELEMENTWISE_IF;
    edmli_gles_build_start(g, probe);
    int done = 0;
    if (g->prog_state[probe] == EDMLI_GLES_PROG_STARTED)
        gl->glGetProgramiv(g->prog[probe], EDMLI_GL_COMPLETION_STATUS, &done);
    g->parallel = slow || (g->prog_state[probe] == EDMLI_GLES_PROG_STARTED && !done);
    for (int id = 0; id < EDMLI_GLES_PROG_COUNT && g->parallel; id++)
        if (id != probe && edmli_gles_builds(g, (edmli_gles_prog)id)) edmli_gles_build_start(g, (edmli_gles_prog)id);
    edmli_gles_take_error(g);
}

bool edmli_gles_open(edmli_gles *g, const edml_device *dev, uint32_t faults, char *why, size_t cap)
{
    if (!edmli_gles_open_context(g, dev, faults, why, cap)) return false;
    edmli_gl *gl = &g->port.gl;
    edmli_gles_programs_open(g, dev);

    /* The GPU arena: one buffer for every tensor and scratch area. */
    edmli_gles_arena_size(g, dev->desc.gpu_arena_bytes ? dev->desc.gpu_arena_bytes : EDMLI_GLES_DEFAULT_ARENA_BYTES);
    /* The arena is never mapped, so that drivers keep it in GPU memory (NVIDIA
     * moves a buffer mapped for reading to system memory); downloads copy
     * through a small buffer that is. */
    edmli_gles_arena_create(g, dev->desc.gpu_arena_mapped != 0);
    gl->glGenBuffers(1, &g->readback_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->readback_buf);
    gl->glBufferData(EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)EDMLI_GLES_READBACK_BYTES, NULL, EDMLI_GL_STREAM_READ);
    g->readback_bytes = EDMLI_GLES_READBACK_BYTES;
    gl->glGenBuffers(1, &g->params_buf);
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, g->params_buf);
    gl->glBufferData(EDMLI_GL_SHADER_STORAGE_BUFFER, (intptr_t)(EDMLI_GLES_PARAM_SLOTS * g->param_stride), NULL,
                     EDMLI_GL_DYNAMIC_DRAW);
    unsigned err = edmli_gles_take_error(g);
    if (err == EDMLI_GL_OUT_OF_MEMORY || (faults & EDML_FAULT_OUT_OF_MEMORY)) {
        edmli_format(why, cap, "GL_OUT_OF_MEMORY creating a GPU arena of %llu bytes%s",
                     (unsigned long long)g->arena_bytes, faults & EDML_FAULT_OUT_OF_MEMORY ? " (fault injected)" : "");
        edmli_gles_close(g);
        return false;
    }
    if (err != EDMLI_GL_NO_ERROR) {
        edmli_format(why, cap, "GL error 0x%x creating the GPU arena", err);
        edmli_gles_close(g);
        return false;
    }
    return true;
}

void edmli_gles_close(edmli_gles *g)
{
    edmli_gl *gl = &g->port.gl;
    if (edmli_port_gl_make_current(&g->port)) {
        if (g->pending_fence) gl->glDeleteSync((GLsync_)g->pending_fence); /* a list's, never waited for */
        if (g->handoff) gl->glDeleteSync((GLsync_)g->handoff);
        g->handoff = NULL;
        g->pending = false, g->pending_fence = NULL, g->ticket = NULL;
        for (int id = 0; id < EDMLI_GLES_PROG_COUNT; id++) {
            if (g->prog[id]) gl->glDeleteProgram(g->prog[id]);
            if (g->shader[id]) gl->glDeleteShader(g->shader[id]);
        }
        if (g->arena_buf) gl->glDeleteBuffers(1, &g->arena_buf); /* unmapped with it */
        if (g->params_buf) gl->glDeleteBuffers(1, &g->params_buf);
        if (g->readback_buf) gl->glDeleteBuffers(1, &g->readback_buf);
        if (g->status_buf) gl->glDeleteBuffers(1, &g->status_buf); /* unmapped with it */
    }
    edmli_port_gl_close(&g->port);
    memset(g->prog, 0, sizeof g->prog);
    memset(g->shader, 0, sizeof g->shader);
    memset(g->prog_state, 0, sizeof g->prog_state);
    g->arena_buf = g->params_buf = g->readback_buf = g->status_buf = 0;
    g->status_map = NULL;
    g->arena_map = NULL;
    g->mapped_plain = false;
}

const uint32_t edmli_gles_status_init[4] = {0, 0xffffffffu, 0, 0};

void edmli_gles_status_reset(edmli_gles *g, uint32_t slots)
{
    edmli_gl *gl = &g->port.gl;
    const intptr_t at = EDMLI_GLES_STATUS_SLOTS * sizeof edmli_gles_status_init; /* the initial values */
    g->unwaited = true; /* another context's call waits for it (edmli_gles_release) */
    gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->status_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->status_buf);
    gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, at, 0,
                            (intptr_t)(slots * sizeof edmli_gles_status_init));
}

/* GatherND's status buffer (gles.h), mapped once persistently and coherently
 * where the driver has GL_EXT_buffer_storage: no copy and no mapping a call
 * (3-4 us of a call on NVIDIA's driver). Else, or if it fails, none. */
static void edmli_gles_status_open(edmli_gles *g)
{
    edmli_gl *gl = &g->port.gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    if (!gl->glBufferStorageEXT || !ext || !strstr(ext, "GL_EXT_buffer_storage") ||
        (g->faults & EDML_FAULT_NO_BUFFER_STORAGE))
        return;
    const unsigned bits =
        EDMLI_GL_MAP_READ_BIT | EDMLI_GL_MAP_WRITE_BIT | EDMLI_GL_MAP_PERSISTENT_BIT | EDMLI_GL_MAP_COHERENT_BIT;
    const intptr_t bytes = EDMLI_GLES_STATUS_BYTES; /* the slots, their init, the proof's head */
    edmli_gles_take_error(g);
    gl->glGenBuffers(1, &g->status_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->status_buf);
    gl->glBufferStorageEXT(EDMLI_GL_COPY_WRITE_BUFFER, bytes, NULL, bits);
    volatile uint32_t *map = (volatile uint32_t *)gl->glMapBufferRange(EDMLI_GL_COPY_WRITE_BUFFER, 0, bytes, bits);
    for (uint32_t w = 0; map && w < EDMLI_GLES_STATUS_BYTES / 4u; w++)
        map[w] = w < 2 * EDMLI_GLES_STATUS_SLOTS * 4 ? edmli_gles_status_init[w % 4] : 0u;
    g->status_map = map;
    if (!g->status_map || edmli_gles_take_error(g) != EDMLI_GL_NO_ERROR) {
        gl->glDeleteBuffers(1, &g->status_buf);
        g->status_buf = 0;
        g->status_map = NULL;
    }
}

/* GL's reset query where the context is told of GPU resets (the port asked
 * EGL for that): GLES 3.2's, GL_KHR_robustness's or GL_EXT_robustness's. */
static void edmli_gles_reset_open(edmli_gles *g)
{
    edmli_gl *gl = &g->port.gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    const char *version = (const char *)gl->glGetString(EDMLI_GL_VERSION);
    g->reset_status = NULL;
    if (!g->port.robust) return;
    if (ext && strstr(ext, "GL_KHR_robustness")) g->reset_status = gl->glGetGraphicsResetStatusKHR;
    if (!g->reset_status && ext && strstr(ext, "GL_EXT_robustness")) g->reset_status = gl->glGetGraphicsResetStatusEXT;
    if (!g->reset_status && version && strstr(version, "OpenGL ES 3.2")) g->reset_status = gl->glGetGraphicsResetStatus;
}

/* ---- the device hooks ------------------------------------------------------- */

/* The state, then the run of a command list's batch and its deferred dispatches. */
size_t edmli_gles_state_bytes(void)
{
    return sizeof(edmli_gles) + sizeof(edmli_gles_run) + EDMLI_GLES_DEFERRED * sizeof(edmli_gles_deferred);
}

/* GL, the programs and the GPU arena, where the board has a GPU. A call
 * makes a context current on the calling thread: the device's one, which
 * stays current after it when one thread makes every call (gles_one_thread);
 * else, without a surface, the thread's own (the port keeps one per calling
 * thread current between calls); else, with a pbuffer, the one context,
 * released after the call. A context that was current on the thread before
 * a call (the application's, another device's) is current again after it. */
bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap)
{
    if (!dev->board.has_gpu) {
        edmli_format(why, cap, "board %s has no GLES 3.1 GPU (boards/%s/caps.h)", dev->board.name, dev->board.name);
        return false;
    }
    edmli_gles *g = (edmli_gles *)state;
    if (!edmli_gles_open(g, dev, dev->desc.inject_faults, why, cap)) return false;
    edmli_gles_status_open(g);
    edmli_gles_proof_clean(g, true); /* the proof's block after the arena (gles.h) */
    edmli_gles_reset_open(g);
    g->fault_at = dev->desc.inject_fault_at ? dev->desc.inject_fault_at : 1u;
    g->fence_timeout_ns = (dev->desc.gpu_fence_timeout_ms ? dev->desc.gpu_fence_timeout_ms : 5000u) * 1000000ull;
    g->one_thread = dev->desc.gles_one_thread != 0;
    g->batching = false;
    g->unwaited = false;
    g->handoff = NULL;
    g->pending = false;
    g->pending_fence = NULL;
    g->ticket = NULL;
    g->batch = (edmli_gles_run *)(void *)(g + 1);
    g->deferred = (edmli_gles_deferred *)(void *)(g->batch + 1);
    g->ndeferred = g->barrier_pending = 0;
    edmli_port_gl_release(&g->port);
    if (g->adjusted[0] && dev->err.log) {
        char msg[EDMLI_MESSAGE_BYTES];
        edmli_format(msg, sizeof msg, "gles: settings adjusted: %s", g->adjusted);
        dev->err.log(dev->err.log_user, EDML_STATUS_OK, msg);
    }
    return true;
}

void edmli_gles_device_close(edml_device *dev, void *state)
{
    (void)dev;
    edmli_gles_close((edmli_gles *)state);
}

/* edml_device_release_thread: this thread's context of the device, if one
 * is current here, is let go (a pending submission stays pending: its
 * fence is shared with the other contexts). */
void edmli_gles_release_thread(void *state)
{
    edmli_gles *g = (edmli_gles *)state;
    if (edmli_port_gl_owns_current(&g->port)) edmli_port_gl_release(&g->port);
}

bool edmli_gles_is_software(const edmli_gles *g)
{
    return strstr(g->renderer, "llvmpipe") || strstr(g->renderer, "softpipe") || strstr(g->renderer, "SwiftShader");
}

const char *edmli_gles_device_info(const edml_device *dev, const void *state, char *buf, size_t cap)
{
    (void)dev;
    const edmli_gles *g = (const edmli_gles *)state;
    char spilled[160] = "", off[EDMLI_GLES_WHY_BYTES + 32] = "", used[40];
    unsigned checked = 0, built = 0;
    for (int id = 0, n = 0; id < EDMLI_GLES_PROG_COUNT; id++) {
        if (g->spills[id] > 0)
            n += (int)edmli_format(spilled + n, sizeof spilled - (size_t)n, "%s%s %d:%d",
                                   n ? ", " : "; spilled: ", edmli_gles_src_name[id], g->spills[id], g->fills[id]);
        checked += g->prog_state[id] == EDMLI_GLES_PROG_CHECKED;
        built += edmli_gles_builds(g, (edmli_gles_prog)id);
        if (g->prog_state[id] == EDMLI_GLES_PROG_FAILED && !off[0])
            edmli_format(off, sizeof off, "; off: %s", g->fail_text);
    }
    if (g->lost[0]) edmli_format(off, sizeof off, "; GLES off for good: %s", g->lost);
    if (checked)
        edmli_format(used, sizeof used, "%u checked and in use", checked);
    else
        edmli_format(used, sizeof used, "none used yet");
    edmli_format(buf, cap,
                 "GLES on %s (%s display, %s context%s), %u invocations a workgroup, %llu MiB GPU arena%s, "
                 "GatherND's status %s, %u kernels, %s%s%s%s%s%s",
                 g->renderer, g->port.display_kind, g->port.context_kind, g->reset_status ? ", told of GPU resets" : "",
                 g->local, (unsigned long long)(g->arena_bytes >> 20), g->arena_map ? " (mapped persistently)" : "",
                 g->status_map ? "read through a persistent mapping" : "copied back (no GL_EXT_buffer_storage)", built,
                 used, g->parallel ? " (built in the driver's threads)" : "", g->adjusted[0] ? "; adjusted: " : "",
                 g->adjusted, spilled, off);
    return buf;
}
