/* One GLES submission: staging in the GPU arena, parameters, split
 * dispatches, one fence, downloads. */
#include "gles.h"

#include <stddef.h>
#include <string.h>

static edml_status edmli_gles_complete_pending(edmli_gles *g, uint64_t timeout_ns);

/* A context of the device current on this thread (one check where it is
 * already: another device or the application may have made theirs current
 * since the last call). */
static bool edmli_gles_make_current(edmli_gles *g) { return edmli_port_gl_make_current(&g->port); }

edml_status edmli_gles_begin(edmli_gles_run *r, edmli_gles *g, edmli_errbuf *err)
{
    if (g->bake) { /* an operator's parameters being baked: no GL */
        memset(r, 0, sizeof *r);
        r->g = g;
        r->err = err;
        r->top = g->arena_bytes;
        return EDML_STATUS_OK;
    }
    if (g->batching) { /* a command list's: continue its run */
        *r = *g->batch;
        r->err = err;
        r->mine_used = 0;
        r->baked = NULL;
        r->unbaked = false;
        return EDML_STATUS_OK;
    }
    r->baked = NULL;
    r->unbaked = false;
    if (g->lost[0]) return edmli_gles_refuse_lost(g, err);
    if (g->mapped_plain) /* GL runs nothing on a buffer mapped without persistence */
        return edmli_fail(err, EDMLI_MSG_GPU_MAPPED);
    if (g->pending) (void)edmli_gles_complete_pending(g, UINT64_MAX); /* its outcome goes to its ticket */
    r->g = g;
    r->err = err;
    r->top = g->arena_bytes;
    r->slot = 0;
    r->nfetches = 0;
    r->copies = 0;
    r->staged = EDML_STATUS_OK;
    r->serial = 0;
    r->mine_used = 0;
    if (!edmli_gles_make_current(g)) return edmli_gles_fail(r, "eglMakeCurrent failed");
    edmli_gl *gl = &g->port.gl;
    edmli_gles_take_error(g);
    g->unwaited = true;
    if (g->counters_dirty) edmli_gles_proof_clean(g, false);
    if (g->handoff && g->handoff_key != g->port.context_key) /* another context's work first */
        gl->glWaitSync((GLsync_)g->handoff, 0, EDMLI_GL_TIMEOUT_IGNORED);
    if (g->state_key != g->port.context_key) { /* another context ran the last call: its state is its own */
        gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 1, g->arena_buf);
        /* the status block: the mapped status buffer, else the arena (gles.h) */
        gl->glBindBufferBase(EDMLI_GL_SHADER_STORAGE_BUFFER, 2, g->status_map ? g->status_buf : g->arena_buf);
        g->used_prog = g->params_bound_buf = 0;
        g->state_key = g->port.context_key;
    }
    return EDML_STATUS_OK;
}

edml_status edmli_gles_begin_op(edmli_gles_run *r, const edml_operator *op, edmli_errbuf *err)
{
    edml_status s = edmli_gles_begin(r, EDMLI_GLES_STATE(op), err);
    if (!s && !r->g->bake) {
        r->baked = edmli_gles_baked_of(op);
        r->next_block = 0;
    }
    return s;
}

/* The end of a call on one of several contexts: a fence after what it
 * left unwaited (kept for the other contexts' calls), flushed. */
static void edmli_gles_hand_off(edmli_gles *g)
{
    edmli_gl *gl = &g->port.gl;
    if (g->unwaited) {
        GLsync_ fence = gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (fence) {
            if (g->handoff) gl->glDeleteSync((GLsync_)g->handoff);
            g->handoff = fence;
            g->handoff_key = g->port.context_key;
        }
        g->unwaited = false;
    }
    gl->glFlush();
}

/* After a call: a context that was current on the thread before it (the
 * application's, another device's) is current again. Else the device's
 * stays current where one thread makes every call or where each thread
 * keeps its own, and is released with a pbuffer. A context kept current is
 * flushed: another thread's context may next use what this call left queued
 * (uploads of a failed call, the parameters baked at creation), and
 * NVIDIA's driver makes it wait for them (a release or switch flushes
 * itself). */
void edmli_gles_release(edmli_gles *g)
{
    if (g->batching) return;
    const bool per_thread = edmli_port_gl_per_thread(&g->port);
    if (per_thread && !g->one_thread) edmli_gles_hand_off(g);
    if (per_thread || g->one_thread)
        edmli_port_gl_end_call(&g->port);
    else
        edmli_port_gl_release(&g->port);
}

edml_status edmli_gles_alloc(edmli_gles_run *r, uint64_t bytes, uint32_t *offset)
{
    const uint64_t have = r->top > r->g->persistent ? r->top - r->g->persistent : 0;
    const uint64_t need = bytes > UINT64_MAX - 15 ? UINT64_MAX : (bytes + 15) & ~(uint64_t)15;
    const char *what = r->g->checking   ? "staging of a GPU kernel's known-answer test"
                       : r->g->batching ? "staging of edml_command_list_submit"
                                        : "staging of edml_operator_execute";
    if (need > have) return edmli_gles_arena_short(r->g, r->err, what, need, have);
    r->top -= need;
    *offset = (uint32_t)r->top;
    return EDML_STATUS_OK;
}

edml_status edmli_gles_place(edmli_gles_run *r, const edmli_tensor *t, const uint8_t *host, uint32_t *offset)
{
    edml_status s = edmli_gles_alloc(r, t->total_bytes, offset);
    if (s) return s;
    if (host && !r->g->bake) edmli_gles_write(r->g, *offset, host, t->total_bytes);
    return EDML_STATUS_OK;
}

void edmli_gles_write(edmli_gles *g, uint64_t offset, const void *host, uint64_t bytes)
{
    edmli_gl *gl = &g->port.gl;
    g->unwaited = true;                                               /* until a fence of this call is waited for */
    if (g->batching && edmli_gles_struck(g, EDML_FAULT_UPLOAD_ERROR)) /* past the buffer's end: GL_INVALID_VALUE */
        offset = g->arena_bytes + EDMLI_GLES_ARENA_RESERVED + 16u;
    gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, g->arena_buf);
    gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, (intptr_t)offset, (intptr_t)bytes, host);
}

void edmli_gles_write_zeros(edmli_gles *g, uint64_t offset, uint64_t bytes)
{
    static const uint8_t zeros[4096] = {0}; /* read-only: the source of the uploads */
    for (uint64_t done = 0; done < bytes; done += sizeof zeros)
        edmli_gles_write(g, offset + done, zeros, bytes - done < sizeof zeros ? bytes - done : sizeof zeros);
}

/* A GPU-side copy within the arena (no upload). */
static void edmli_gles_copy_within(edmli_gles *g, uint32_t from, uint32_t to, uint64_t bytes)
{
    edmli_gl *gl = &g->port.gl;
    gl->glBindBuffer(EDMLI_GL_COPY_READ_BUFFER, g->arena_buf);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
    gl->glCopyBufferSubData(EDMLI_GL_COPY_READ_BUFFER, EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)from, (intptr_t)to,
                            (intptr_t)bytes);
}

edml_status edmli_gles_alloc_zero(edmli_gles_run *r, uint64_t bytes, uint32_t *offset)
{
    edml_status s = edmli_gles_alloc(r, bytes, offset);
    if (s) return s;
    if (r->g->bake) {
        edmli_gles_bake_zeros(r, bytes);
    } else if (r->baked && r->baked->zero_bytes >= bytes) {
        edmli_gles_copy_within(r->g, r->baked->zero_offset, *offset, bytes);
    } else {
        edmli_gles_write_zeros(r->g, *offset, bytes);
        r->unbaked = r->unbaked || r->baked;
    }
    return EDML_STATUS_OK;
}

edml_status edmli_gles_alloc_counters(edmli_gles_run *r, uint64_t bytes, uint32_t *offset, bool *kept)
{
    *kept = !r->g->bake && !r->g->batching && r->baked && r->baked->zero_bytes >= bytes;
    if (*kept) *offset = r->baked->zero_offset;
    return *kept ? EDML_STATUS_OK : edmli_gles_alloc_zero(r, bytes, offset);
}

edml_status edmli_gles_place_const(edmli_gles_run *r, const void *host, uint32_t bytes, uint32_t *offset)
{
    edml_status s = edmli_gles_alloc(r, bytes, offset);
    uint32_t at;
    if (s) return s;
    if (r->g->bake) {
        edmli_gles_bake_record(r, host, bytes);
    } else if (edmli_gles_baked_at(r, host, bytes, &at)) {
        edmli_gles_copy_within(r->g, at, *offset, bytes);
    } else {
        edmli_gles_write(r->g, *offset, host, bytes);
        r->unbaked = r->unbaked || r->baked;
    }
    return EDML_STATUS_OK;
}

/* A kernel's status words live in the operator's baked block: a call
 * that leaves them as they started (the usual case) needs no copy of their
 * initial value first; one that changed them (or failed, the kernel maybe
 * still running) writes it back, after its kernel in GL's order. */
edml_status edmli_gles_place_words(edmli_gles_run *r, const void *init, uint32_t bytes, uint32_t *offset, bool *kept)
{
    *kept = !r->g->bake && edmli_gles_baked_at(r, init, bytes, offset);
    return *kept ? EDML_STATUS_OK : edmli_gles_place_const(r, init, bytes, offset);
}

bool edmli_gles_packed(const edmli_tensor *t)
{
    uint64_t s = 1;
    for (uint32_t d = t->rank; d-- > 0;) {
        if (t->sizes[d] > 1 && t->strides[d] != s) return false;
        s *= t->sizes[d];
    }
    return true;
}

edml_status edmli_gles_place_output(edmli_gles_run *r, const edmli_tensor *t, const uint8_t *host, uint32_t *offset)
{
    return edmli_gles_place(r, t, edmli_gles_packed(t) ? NULL : host, offset);
}

edmli_tensor_prm edmli_gles_tensor_prm(const edmli_tensor *t, uint32_t offset)
{
    edmli_tensor_prm p = {.offset = offset, .dtype = (uint32_t)t->dtype, .elem_size = t->elem_size, .rank = t->rank};
    for (uint32_t d = 0; d < EDMLI_PRM_DIMS; d++) {
        p.sizes[d] = d < t->rank ? t->sizes[d] : 1;
        p.strides[d] = d < t->rank ? t->strides[d] : 0;
    }
    return p;
}

edmli_output_prm edmli_gles_output_prm(const edmli_tensor *t, uint32_t offset)
{
    edmli_output_prm p = {
        .t = edmli_gles_tensor_prm(t, offset), .dense = edmli_gles_packed(t), .elements = (uint32_t)t->elem_count};
    for (uint32_t d = 0; d < t->rank; d++) { /* dims of size > 1, strides falling */
        if (t->sizes[d] == 1) continue;
        uint32_t j = p.order_count++;
        while (j > 0 && t->strides[p.order[j - 1]] < t->strides[d]) {
            p.order[j] = p.order[j - 1];
            j--;
        }
        p.order[j] = d;
    }
    return p;
}

uint32_t edmli_gles_output_units(const edmli_tensor *t)
{
    if (t->elem_size >= 4) return (uint32_t)t->elem_count;
    return (uint32_t)((t->total_bytes + 3) / 4);
}

/* A program's uniform array (n words) set to v. Where another context set
 * the program's uniforms last (per-thread contexts), or where the values
 * are not kept (set NULL: u_bind[] and u_bind_step[]), each is first set to
 * another value: Mesa keeps each context's copy of a program's uniforms
 * and skips a glUniform that stores what is already stored, which another
 * context may have stored: this context would run with its stale copy
 * (wrong offsets). Kept values (set: u_base, u_count) are not set again
 * where this context set them last. */
static void edmli_gles_set_words(edmli_gles *g, int loc, uint32_t *set, const uint32_t *v, uint32_t n, bool stale)
{
    edmli_gl *gl = &g->port.gl;
    uint32_t other[EDMLI_GLES_BINDS];
    if (!n || (set && !stale && !memcmp(set, v, n * sizeof *v))) return;
    for (uint32_t j = 0; stale && j < n; j++) other[j] = ~v[j];
    if (stale) gl->glUniform1uiv(loc, (int)n, other);
    gl->glUniform1uiv(loc, (int)n, v);
    if (set) memcpy(set, v, n * sizeof *v);
}

/* Uniform-block binding 0: a parameter block, whole vectors (no call where
 * it is bound already; its room in the arena or the slot is aligned to
 * param_align, at least 16 bytes). */
static void edmli_gles_bind_params(edmli_gles *g, unsigned buf, uint32_t at, uint32_t bytes)
{
    bytes = EDMLI_GLES_PARAM_VEC(bytes);
    if (g->params_bound_buf == buf && g->params_bound_at == at && g->params_bound_bytes == bytes) return;
    g->port.gl.glBindBufferRange(EDMLI_GL_UNIFORM_BUFFER, 0, buf, (intptr_t)at, (intptr_t)bytes);
    g->params_bound_buf = buf, g->params_bound_at = at, g->params_bound_bytes = bytes;
}

/* A memory barrier sent to GL: after one that orders shader storage, the
 * proof's counters are free again (main.glsl). */
static void edmli_gles_gl_barrier(edmli_gles *g, uint32_t bits)
{
    g->port.gl.glMemoryBarrier(bits);
    if (bits & EDMLI_GL_SHADER_STORAGE_BARRIER_BIT) g->slots = 0;
}

/* The program in use, and its stale flag (its uniforms set last by another context). */
static bool edmli_gles_use(edmli_gles *g, edmli_gles_prog prog)
{
    if (g->used_prog != g->prog[prog]) g->port.gl.glUseProgram(g->prog[prog]);
    g->used_prog = g->prog[prog];
    const bool stale = g->prog_ctx[prog] != g->port.context_key;
    g->prog_ctx[prog] = g->port.context_key;
    return stale;
}

/* A kernel's program, its uniforms and its dispatches, its parameter block
 * bound at binding 0: `layers` executions of it at once, layer z of each
 * dispatch binding bind[j] + z * step[j] (step NULL: one layer). */
static void edmli_gles_issue(edmli_gles *g, edmli_gles_prog prog, uint32_t units, bool groups, const uint32_t *bind,
                             const uint32_t *step, uint32_t layers)
{
    edmli_gl *gl = &g->port.gl;
    const bool stale = edmli_gles_use(g, prog);
    const bool first = !(g->dispatched >> prog & 1u); /* V3D compiles a program here, not at its link */
    if (first) edmli_gles_listen(g, prog, true);
    edmli_gles_set_words(g, g->loc_bind[prog], NULL, bind, g->bind_count[prog], stale);
    if (step) edmli_gles_set_words(g, g->loc_bind_step[prog], NULL, step, g->bind_count[prog], true); /* rare */
    /* short dispatches: each covers at most a bounded amount of work */
    uint32_t per = groups ? EDMLI_GLES_GROUPS_PER_DISPATCH : EDMLI_GLES_UNITS_PER_DISPATCH;
    const uint32_t local = edmli_gles_prog_local(g, prog);
    if (g->faults & EDML_FAULT_SMALL_DISPATCHES) per = groups ? 1u : 1000u;
    if (g->faults & EDML_FAULT_PARTIAL_WORKGROUP) edmli_gles_partial(g, true);
    const bool drop = edmli_gles_drops(g) || (g->faults & EDMLI_GLES_FAULT_IDLE) ||
                      ((g->faults & EDML_FAULT_SKIPPED_DISPATCH) && prog == EDMLI_GLES_PROG_GATHER_ND); /* as V3D may */
    for (uint32_t base = 0; base < units; base += per) {
        uint32_t n = units - base < per ? units - base : per;
        uint32_t wg = groups ? n : (n + local - 1) / local;
        uint32_t x = wg < g->max_groups_x ? wg : g->max_groups_x;
        uint32_t y = (wg + x - 1) / x;
        if (g->slots == EDMLI_GLES_SLOTS) edmli_gles_gl_barrier(g, EDMLI_GL_SHADER_STORAGE_BARRIER_BIT);
        const uint32_t proof[3] = {g->slots++, x, y * layers}; /* main.glsl's u_proof */
        edmli_gles_set_words(g, g->loc_base[prog], &g->set_base[prog], &base, 1, stale && base == 0);
        edmli_gles_set_words(g, g->loc_count[prog], &g->set_count[prog], &n, 1, stale && base == 0);
        edmli_gles_set_words(g, g->loc_proof[prog], g->set_proof[prog], proof, 3, stale && base == 0);
        if (!drop) gl->glDispatchCompute(x, y, layers);
        if (!(g->faults & EDMLI_GLES_FAULT_IDLE)) g->done_sent += x * y * layers; /* the proof (main.glsl) */
    }
    g->check_seen |= 1u << prog;
    if (first) edmli_gles_listen(g, prog, false), g->dispatched |= 1u << prog;
}

/* How many of the deferred dispatches at d, d + dir, ... (n of them; dir 1,
 * or -1 backwards) run as the layers of one dispatch: the same kernel,
 * units and parameter block (one operator's), each binding `step[j]` bytes
 * (modulo 2^32) on from the dispatch before, as a list's executions of one
 * operator with tensors laid out evenly are (its staging is). */
static uint32_t edmli_gles_layers(const edmli_gles *g, const edmli_gles_deferred *d, uint32_t n, int dir,
                                  uint32_t step[EDMLI_GLES_BINDS])
{
    const uint32_t binds = g->bind_count[d->prog]; /* the words of bind[] its program has */
    uint32_t k = 1;
    for (; k < n; k++) {
        const edmli_gles_deferred *e = d + (ptrdiff_t)k * dir, *before = e - dir;
        bool same = e->prog == d->prog && e->units == d->units && e->groups == d->groups &&
                    e->params_offset == d->params_offset && e->params_bytes == d->params_bytes;
        for (uint32_t j = 0; j < binds && same; j++) { /* the second layer sets the steps */
            const uint32_t on = e->bind[j] - before->bind[j];
            if (k == 1) step[j] = on;
            same = on == step[j];
        }
        if (!same) break;
    }
    return k;
}

/* The batch's deferred dispatches and barriers, in their order, those that
 * run as layers of one dispatch together; with EDML_FAULT_REORDER each run
 * of dispatches between two barriers backwards. */
static void edmli_gles_replay(edmli_gles *g)
{
    const bool backwards = g->faults & EDML_FAULT_REORDER;
    for (uint32_t i = 0, end; i < g->ndeferred; i = end) {
        if (g->deferred[i].barrier_before) edmli_gles_gl_barrier(g, g->deferred[i].barrier_before);
        for (end = i + 1; end < g->ndeferred && !g->deferred[end].barrier_before;) end++;
        for (uint32_t k = 0, layers; k < end - i; k += layers) {
            const edmli_gles_deferred *d = &g->deferred[backwards ? end - 1 - k : i + k];
            uint32_t step[EDMLI_GLES_BINDS];
            layers = edmli_gles_layers(g, d, end - i - k, backwards ? -1 : 1, step);
            edmli_gles_bind_params(g, g->arena_buf, d->params_offset, d->params_bytes);
            edmli_gles_issue(g, (edmli_gles_prog)d->prog, d->units, d->groups != 0, d->bind, layers > 1 ? step : NULL,
                             layers);
        }
    }
    if (g->barrier_pending) edmli_gles_gl_barrier(g, g->barrier_pending);
    g->ndeferred = 0;
    g->barrier_pending = 0;
}

_Static_assert((EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT) <= UINT16_MAX,
               "the barriers a deferred dispatch keeps");
_Static_assert(EDMLI_GLES_PARAM_BYTES <= UINT16_MAX, "a deferred dispatch's parameter bytes");

void edmli_gles_memory_barrier(edmli_gles *g, uint32_t bits)
{
    g->nhazards = 0; /* whatever came before is ordered before what follows */
    if (g->ndeferred)
        g->barrier_pending |= bits; /* before the next deferred dispatch */
    else
        edmli_gles_gl_barrier(g, bits);
}

void edmli_gles_dispatch(edmli_gles_run *r, edmli_gles_prog prog, uint32_t units, bool groups, const void *prm,
                         size_t bytes)
{
    edmli_gles *g = r->g;
    edmli_gl *gl = &g->port.gl;
    /* the bindings out of the block, into u_bind[] */
    uint32_t words[EDMLI_GLES_PARAM_BYTES / 4], bind[EDMLI_GLES_BINDS], at;
    memcpy(words, prm, bytes);
    for (uint32_t j = 0; j < g->bind_count[prog]; j++) {
        bind[j] = words[g->bind_word[prog][j]];
        words[g->bind_word[prog][j]] = j;
    }
    if (g->bake) {
        edmli_gles_bake_program(r, prog);
        edmli_gles_bake_record(r, words, (uint32_t)bytes);
        return;
    }
    const void *block = NULL;
    const bool baked = edmli_gles_find_baked(r, words, (uint32_t)bytes, &at, &block);
    if (baked && g->batching && g->ndeferred < EDMLI_GLES_DEFERRED) { /* after the batch's uploads */
        const edmli_gles_deferred *last = g->ndeferred ? &g->deferred[g->ndeferred - 1] : NULL;
        if (last && last->prog == prog && last->params_bytes == bytes && !memcmp(g->deferred_block, block, bytes))
            at = last->params_offset; /* another operator of the same descriptor: its block, so layers go on */
        g->deferred_block = block;
        edmli_gles_deferred *d = &g->deferred[g->ndeferred++];
        *d = (edmli_gles_deferred){.units = units,
                                   .params_offset = at,
                                   .barrier_before = (uint16_t)g->barrier_pending,
                                   .params_bytes = (uint16_t)bytes,
                                   .prog = (uint8_t)prog,
                                   .groups = groups};
        memcpy(d->bind, bind, sizeof d->bind);
        g->barrier_pending = 0;
        return;
    }
    edmli_gles_replay(g); /* what came before first */
    if (baked) {
        edmli_gles_bind_params(g, g->arena_buf, at, (uint32_t)bytes);
    } else { /* not an operator's, or not baked */
        const intptr_t slot = (intptr_t)((r->slot++ % EDMLI_GLES_PARAM_SLOTS) * g->param_stride);
        gl->glBindBuffer(EDMLI_GL_SHADER_STORAGE_BUFFER, g->params_buf);
        gl->glBufferSubData(EDMLI_GL_SHADER_STORAGE_BUFFER, slot, (intptr_t)bytes, words);
        edmli_gles_bind_params(g, g->params_buf, (uint32_t)slot, (uint32_t)bytes);
        r->unbaked = r->unbaked || r->baked;
    }
    edmli_gles_issue(g, prog, units, groups, bind, NULL, 1);
}

/* 16-byte vectors where everything is 16-aligned. */
void edmli_gles_copy_dispatch(edmli_gles_run *r, uint64_t dst, uint64_t src, uint64_t bytes)
{
    const edmli_copy_prm prm = {(uint32_t)src, (uint32_t)dst, ((src | dst | bytes) & 15) == 0};
    edmli_gles_run_copy(r, &prm, (uint32_t)(bytes / (prm.vectors ? 16 : 4)), false);
}

void edmli_gles_barrier(edmli_gles_run *r)
{
    if (!r->g->bake) edmli_gles_memory_barrier(r->g, EDMLI_GL_SHADER_STORAGE_BARRIER_BIT);
}

/* glClientWaitSync up to `limit`, the injected fault answering as expiry. */
static unsigned edmli_gles_client_wait(const edmli_gles *g, GLsync_ fence, uint64_t limit)
{
    unsigned w = g->port.gl.glClientWaitSync(fence, EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT, limit);
    return edmli_gles_faulted(g, EDML_FAULT_FENCE_TIMEOUT) ? EDMLI_GL_TIMEOUT_EXPIRED : w;
}

/* A submission's outcome from its fence's answer `w`, a GPU reset and the GL errors. */
static edml_status edmli_gles_fence_outcome(edmli_gles_run *r, unsigned w)
{
    edml_status s = edmli_gles_reset_check(r);
    if (s) return s;
    if (w == EDMLI_GL_TIMEOUT_EXPIRED) {
        char what[96];
        edmli_format(what, sizeof what, "the fence timed out after %llu ms (fault injected or GPU hung)",
                     (unsigned long long)(r->g->fence_timeout_ns / 1000000u));
        return edmli_gles_fail(r, what);
    }
    if (w != EDMLI_GL_ALREADY_SIGNALED && w != EDMLI_GL_CONDITION_SATISFIED)
        return edmli_gles_fail(r, "glClientWaitSync failed");
    unsigned err = edmli_gles_take_error(r->g);
    if (r->g->pending && r->g->pending_error) err = r->g->pending_error; /* read while it was pending */
    if (err == EDMLI_GL_OUT_OF_MEMORY) return edmli_gles_fail(r, "GL_OUT_OF_MEMORY");
    if (err != EDMLI_GL_NO_ERROR) {
        char what[48];
        edmli_format(what, sizeof what, "GL error 0x%x", err);
        return edmli_gles_fail(r, what);
    }
    return EDML_STATUS_OK;
}

/* The run's end on the GPU: its writes made visible, its fetches' copies
 * queued, then one fence. */
static GLsync_ edmli_gles_fence(edmli_gles_run *r)
{
    edmli_gl *gl = &r->g->port.gl;
    edmli_gles_replay(r->g);
    if (r->g->faults & EDML_FAULT_PARTIAL_WORKGROUP) edmli_gles_partial(r->g, false);
    edmli_gles_gl_barrier(r->g,
                          EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT | EDMLI_GL_SHADER_STORAGE_BARRIER_BIT |
                              (r->g->status_map || r->g->arena_map ? EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT : 0u));
    r->staged = edmli_gles_stage_fetches(r);
    edmli_gles_fenced(r->g);
    return gl->glFenceSync(EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

static edml_status edmli_gles_wait(edmli_gles_run *r)
{
    edmli_gl *gl = &r->g->port.gl;
    GLsync_ fence = edmli_gles_fence(r);
    if (!fence) return edmli_gles_fail(r, "glFenceSync failed");
    const unsigned w = edmli_gles_client_wait(r->g, fence, r->g->fence_timeout_ns);
    gl->glDeleteSync(fence);
    if (w == EDMLI_GL_ALREADY_SIGNALED || w == EDMLI_GL_CONDITION_SATISFIED) r->g->unwaited = false;
    return edmli_gles_fence_outcome(r, w);
}

edml_status edmli_gles_finish(edmli_gles_run *r)
{
    if (r->g->bake) return EDML_STATUS_OK;
    if (r->unbaked && (r->g->faults & EDML_FAULT_BAKED_ONLY) && !r->g->checking)
        return edmli_gles_fail(
            r, "a dispatch's parameters or constants were not baked at creation (EDML_FAULT_BAKED_ONLY)");
    if (r->g->batching) { /* in a batch: later entries check what this read and wrote */
        edmli_gles *g = r->g;
        for (uint32_t k = 0; k < EDMLI_GLES_ENTRY_RANGES; k++)
            if (r->mine_used & (1u << k)) g->hazard[g->nhazards++] = r->mine[k];
        *g->batch = *r; /* host outputs sit in staging of their own, read after the batch's last barrier */
        return EDML_STATUS_OK;
    }
    edml_status s = edmli_gles_wait(r);
    return s ? s : edmli_gles_deliver_fetches(r);
}

edml_status edmli_gles_finish_view(edmli_gles_run *r, void **view)
{
    edml_status s = edmli_gles_wait(r);
    return s ? s : edmli_gles_deliver_view(r, view);
}

edml_status edmli_gles_batch_begin(edmli_gles *g, edmli_errbuf *err)
{
    g->batching = false;
    g->nhazards = 0;
    edml_status s = edmli_gles_begin(g->batch, g, err); /* completes the batch before (its slots read) */
    g->batching = s == EDML_STATUS_OK;
    g->batch_gathers = 0;
    return s;
}

/* Whether an operator may open a batch or join the open one: not if the
 * open batch has no room for its fetches, nor a GatherND (whose count of
 * clamped indices comes back) where there is no mapped status slot for it
 * (the status words then come back by a fetch after each call). */
bool edmli_gles_batch_takes(const edmli_gles *g, const edml_operator *op)
{
    const bool open = g->batching;
    if (op->kind == EDMLI_OP_GATHER_ND && (!g->status_map || (open && g->batch_gathers >= EDMLI_GLES_STATUS_SLOTS)))
        return false;
    return !open || g->batch->nfetches + EDMLI_GLES_MAX_FETCHES <= EDMLI_GLES_BATCH_FETCHES;
}

/* A ticket's outcome: its status and the message of the completion's own
 * error buffer (not the caller's: another call may be completing it). */
static edml_status edmli_gles_settle(edmli_gles *g, edml_status s, const edmli_errbuf *e)
{
    g->pending = false;
    g->pending_error = EDMLI_GL_NO_ERROR;
    if (g->ticket) {
        g->ticket->done = true;
        g->ticket->status = s;
        memcpy(g->ticket->message, e->text, sizeof g->ticket->message);
    }
    g->ticket = NULL;
    return s;
}

edml_status edmli_gles_batch_flush(edmli_gles *g, edmli_batch_ticket *ticket)
{
    edmli_gl *gl = &g->port.gl;
    edmli_errbuf e = {{0}, NULL, NULL};
    g->batching = false;
    g->batch->err = &e;
    ticket->done = false;
    ticket->clamped = false;
    g->ticket = ticket;
    g->pending = true;
    g->pending_error = EDMLI_GL_NO_ERROR;
    g->pending_fence = edmli_gles_fence(g->batch);
    edml_status s = EDML_STATUS_OK;
    if (!g->pending_fence)
        s = edmli_gles_settle(g, edmli_gles_fail(g->batch, "glFenceSync failed"), &e);
    else
        gl->glFlush(); /* the GPU starts while the caller goes on */
    edmli_gles_release(g);
    return s;
}

/* A completed batch's GatherND status slots: the first that clamped goes
 * on the ticket (its entry and words), and the slots are set back. */
static void edmli_gles_batch_clamps(edmli_gles *g)
{
    uint32_t k = 0;
    while (k < g->batch_gathers && !g->status_map[4 * k]) k++;
    if (k == g->batch_gathers) return;
    if (g->ticket) {
        g->ticket->clamped = true;
        g->ticket->clamped_entry = g->gather_entry[k];
        g->ticket->clamped_status[0] = g->status_map[4 * k];
        g->ticket->clamped_status[1] = g->status_map[4 * k + 1];
    }
    edmli_gles_status_reset(g, g->batch_gathers);
}

/* Waits for the flushed batch (the context made current for it), then
 * fetches its outputs; EDML_STATUS_TIMEOUT, still pending, when a wait
 * under 5 s runs out. */
static edml_status edmli_gles_complete_pending(edmli_gles *g, uint64_t timeout_ns)
{
    if (!g->pending) return EDML_STATUS_OK;
    edmli_errbuf e = {{0}, NULL, NULL};
    edmli_gles_run *r = g->batch;
    r->err = &e;
    if (!edmli_gles_make_current(g)) return edmli_gles_settle(g, edmli_gles_fail(r, "eglMakeCurrent failed"), &e);
    const uint64_t limit = timeout_ns < g->fence_timeout_ns ? timeout_ns : g->fence_timeout_ns;
    const unsigned w = edmli_gles_client_wait(g, (GLsync_)g->pending_fence, limit);
    if (w == EDMLI_GL_TIMEOUT_EXPIRED && limit < g->fence_timeout_ns) {
        edmli_gles_release(g);
        return EDML_STATUS_TIMEOUT;
    }
    g->port.gl.glDeleteSync((GLsync_)g->pending_fence);
    g->pending_fence = NULL;
    edml_status s = edmli_gles_fence_outcome(r, w);
    if (!s) s = edmli_gles_deliver_fetches(r);
    if (!s) edmli_gles_batch_clamps(g);
    s = edmli_gles_settle(g, s, &e);
    edmli_gles_release(g);
    return s;
}

edml_status edmli_gles_batch_complete(edmli_gles *g, edmli_batch_ticket *ticket, uint64_t timeout_ns)
{
    if (ticket->done) return ticket->status;
    if (g->ticket != ticket) { /* dropped (not reached: a device closes only with its lists) */
        ticket->done = true;
        ticket->status = EDML_STATUS_BACKEND_FAILED;
        edmli_format(ticket->message, sizeof ticket->message, "the submission was dropped");
        return ticket->status;
    }
    return edmli_gles_complete_pending(g, timeout_ns);
}

/* In a batch, a GPU buffer's bytes [begin, begin + bytes) that this entry
 * reads or writes: a barrier goes before its kernels where an entry since
 * the last one wrote them, or read them and this writes them (or where the
 * batch's record is full). */
static void edmli_gles_hazard(edmli_gles_run *r, uint32_t slot, uint64_t begin, uint64_t bytes, bool write)
{
    edmli_gles *g = r->g;
    if (!g->batching) return;
    bool clash = g->nhazards > EDMLI_GLES_HAZARDS - EDMLI_GLES_ENTRY_RANGES;
    for (uint32_t i = 0; i < g->nhazards && !clash; i++) {
        const edmli_gles_range *h = &g->hazard[i];
        clash = (write || h->written) && begin < h->end && h->begin < begin + bytes;
    }
    if (clash) edmli_gles_memory_barrier(g, EDMLI_GL_SHADER_STORAGE_BARRIER_BIT | EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
    r->mine[slot] = (edmli_gles_range){begin, begin + bytes, write};
    r->mine_used |= 1u << slot;
}

edml_status edmli_gles_input(edmli_gles_run *r, const edml_operator *op, const edmli_exec *ex, uint32_t i,
                             uint32_t *offset)
{
    if (ex->in_gpu[i] != EDMLI_HOST) {
        *offset = (uint32_t)ex->in_gpu[i];
        edmli_gles_hazard(r, i, *offset, op->inputs[i].total_bytes, false);
        return EDML_STATUS_OK;
    }
    return edmli_gles_place(r, &op->inputs[i], ex->in[i], offset);
}

edml_status edmli_gles_output(edmli_gles_run *r, const edml_operator *op, const edmli_exec *ex, uint32_t o,
                              uint32_t *offset)
{
    if (ex->out_gpu[o] != EDMLI_HOST) {
        *offset = (uint32_t)ex->out_gpu[o];
        edmli_gles_hazard(r, EDMLI_MAX_INPUTS + o, *offset, op->outputs[o].total_bytes, true);
        return EDML_STATUS_OK;
    }
    const edmli_tensor *t = &op->outputs[o];
    edml_status s = edmli_gles_place_output(r, t, ex->out[o], offset);
    if (s) return s;
    /* a packed tensor: the addressed bytes; else the whole buffer (uploaded before) */
    edmli_gles_fetch(r, *offset, ex->out[o], edmli_gles_packed(t) ? t->elem_count * t->elem_size : t->total_bytes);
    return EDML_STATUS_OK;
}
