/* Whether a submission really ran: every workgroup of every kernel counts
 * itself in one of the counters after the GPU arena (shaders/main.glsl,
 * gles.h), and after the fence their sum must have grown by the workgroups dispatched. A driver
 * that dropped a dispatch (Mesa's V3D skips a kernel whose registers it
 * could not allocate, with no GL error; a GPU reset drops the job it was
 * running; a no-op DRM shim runs nothing) fails the call instead of
 * answering with what the outputs held before. Where the context is told
 * of GPU resets (EGL_EXT_create_context_robustness), GL's reset status is
 * read after each fence too. Either takes GLES off the device for good
 * (outside the known-answer tests, which take off only their kernels). */
#include "gles.h"

edml_status edmli_gles_fail(edmli_gles_run *r, const char *what)
{
    return edmli_fail(r->err, EDMLI_MSG_BACKEND_FAILED, "gles", what);
}

unsigned edmli_gles_take_error(edmli_gles *g)
{
    unsigned first = EDMLI_GL_NO_ERROR, e;
    for (int i = 0; i < 16 && (e = g->port.gl.glGetError()) != EDMLI_GL_NO_ERROR; i++) /* bounded: a lost context */
        if (first == EDMLI_GL_NO_ERROR) first = e;
    if (first != EDMLI_GL_NO_ERROR && g->pending && g->pending_error == EDMLI_GL_NO_ERROR) g->pending_error = first;
    return first;
}

bool edmli_gles_struck(const edmli_gles *g, uint32_t fault)
{
    return (g->faults & fault) && !g->checking && g->submissions + 1u == g->fault_at;
}

bool edmli_gles_faulted(const edmli_gles *g, uint32_t fault)
{
    return (g->faults & fault) && !g->checking && g->submissions >= g->fault_at;
}

bool edmli_gles_drops(const edmli_gles *g)
{
    return edmli_gles_struck(g, EDML_FAULT_DROPPED_DISPATCH) || edmli_gles_struck(g, EDML_FAULT_GPU_RESET);
}

void edmli_gles_partial(edmli_gles *g, bool dispatching)
{
    const bool on = dispatching && edmli_gles_struck(g, EDML_FAULT_PARTIAL_WORKGROUP);
    if (on == g->partial_on) return;
    const uint32_t word = on;
    edmli_gl *gl = &g->port.gl;
    if (!on) gl->glMemoryBarrier(EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT);
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
    gl->glBufferSubData(EDMLI_GL_COPY_WRITE_BUFFER,
                        (intptr_t)(g->arena_bytes + EDMLI_GLES_COUNTER_BYTES + 4u * EDMLI_GLES_PARTIAL_WORD), 4, &word);
    g->partial_on = on;
}

void edmli_gles_fenced(edmli_gles *g)
{
    if (!g->checking) g->submissions++;
}

void edmli_gles_lose(edmli_gles *g, const char *why)
{
    if (!g->lost[0]) edmli_format(g->lost, sizeof g->lost, "%s", why);
}

void edmli_gles_proof_clean(edmli_gles *g, bool head)
{
    static const uint8_t zeros[EDMLI_GLES_ARENA_RESERVED] = {0}; /* read-only: the source of the upload */
    edmli_gl *gl = &g->port.gl;
    gl->glBindBuffer(EDMLI_GL_COPY_WRITE_BUFFER, g->arena_buf);
    gl->glBufferSubData(EDMLI_GL_COPY_WRITE_BUFFER, (intptr_t)g->arena_bytes,
                        head ? EDMLI_GLES_ARENA_RESERVED : EDMLI_GLES_COUNTER_BYTES, zeros);
    g->counters_dirty = false;
}

/* A failed proof: GLES off for good (outside the known-answer tests, whose
 * failure takes off only the kernels they ran), the call failed; the
 * dispatches' counters set back to zero before the next submission (a
 * workgroup cut short left its dispatch's counter short of done). */
edml_status edmli_gles_disproved(edmli_gles_run *r, const char *why)
{
    edmli_gles *g = r->g;
    g->counters_dirty = true;
    g->dropped = true;
    if (!g->checking) edmli_gles_lose(g, why);
    return edmli_fail(r->err, EDMLI_MSG_BACKEND_FAILED, "gles", why);
}

edml_status edmli_gles_proof_check(edmli_gles_run *r, const uint32_t proof[EDMLI_GLES_RESERVED_HEAD / 4u])
{
    edmli_gles *g = r->g;
    char why[EDMLI_GLES_WHY_BYTES];
    const uint32_t counted = proof[EDMLI_GLES_DONE_WORD];
    const uint32_t sent = g->done_sent - g->done_base, ran = counted - g->done_base;
    g->done_base = g->done_sent = counted; /* the next submission counts from here */
    if (g->faults & EDML_FAULT_UNCHECKED) return EDML_STATUS_OK;
    if (r->serial && proof[EDMLI_GLES_SERIAL_WORD] != r->serial) {
        edmli_format(why, sizeof why,
                     "the bytes read back are not this submission's (serial %u where %u was written): a stale "
                     "mapping of the readback buffer",
                     proof[EDMLI_GLES_SERIAL_WORD], r->serial);
        return edmli_gles_disproved(r, why);
    }
    if (ran == sent) return EDML_STATUS_OK;
    edmli_format(why, sizeof why,
                 "the GPU completed %u of the %u workgroups dispatched: the driver dropped a dispatch or cut a "
                 "workgroup short (a kernel it could not run, a GPU reset), or the bytes read back are stale",
                 ran, sent);
    return edmli_gles_disproved(r, why);
}

edml_status edmli_gles_reset_check(edmli_gles_run *r)
{
    edmli_gles *g = r->g;
    if (g->faults & EDML_FAULT_UNCHECKED) return EDML_STATUS_OK; /* a no-op shim's status means nothing */
    GLenum_ status = g->reset_status ? g->reset_status() : EDMLI_GL_NO_ERROR;
    if ((g->faults & EDML_FAULT_GPU_RESET) && !g->checking && g->submissions == g->fault_at) /* fenced already */
        status = EDMLI_GL_GUILTY_CONTEXT_RESET;
    if (status == EDMLI_GL_NO_ERROR) return EDML_STATUS_OK;
    char why[EDMLI_GLES_WHY_BYTES];
    edmli_format(why, sizeof why, "the GPU was reset and this device's GL context is lost (%s)%s",
                 status == EDMLI_GL_GUILTY_CONTEXT_RESET     ? "its own work hung the GPU"
                 : status == EDMLI_GL_INNOCENT_CONTEXT_RESET ? "another context's work hung the GPU"
                                                             : "an unknown cause",
                 (g->faults & EDML_FAULT_GPU_RESET) ? " (fault injected)" : "");
    edmli_gles_lose(g, why); /* a reset loses the context: every kernel, not only a test's */
    return edmli_fail(r->err, EDMLI_MSG_BACKEND_FAILED, "gles", why);
}

edml_status edmli_gles_refuse_lost(const edmli_gles *g, edmli_errbuf *err)
{
    if (!g->lost[0]) return EDML_STATUS_OK;
    return edmli_fail(err, EDMLI_MSG_GLES_LOST, g->lost);
}
