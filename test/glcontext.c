/* GL contexts: an application with a GLES context of its own on the same
 * thread as two edml devices, in both context modes (the default and
 * gles_one_thread). After every edml call the application's context must be
 * current again, its buffers untouched, and each device must read and write
 * its own GPU arena only; a third device created in between changes nothing.
 * Fails where the machine has no GLES (make test installs Mesa). */
#include "testlib.h"

#include <dlfcn.h>

#define EGL_NONE_ 0x3038
#define EGL_CONTEXT_MAJOR_ 0x3098
#define EGL_CONTEXT_MINOR_ 0x30FB
#define EGL_OPENGL_ES_API_ 0x30A0
#define EGL_PLATFORM_SURFACELESS_ 0x31DD
#define GL_ARRAY_BUFFER_ 0x8892
#define GL_STATIC_DRAW_ 0x88E4
#define GL_MAP_READ_BIT_ 0x0001

/* The application's EGL and GL, loaded as any GL program would. */
typedef struct app_gl {
    void *(*get_platform_display)(unsigned, void *, const int *);
    void *(*get_display)(void *);
    unsigned (*initialize)(void *, int *, int *);
    unsigned (*bind_api)(unsigned);
    void *(*create_context)(void *, void *, void *, const int *);
    unsigned (*make_current)(void *, void *, void *, void *);
    void *(*get_current_context)(void);
    unsigned (*destroy_context)(void *, void *);
    void (*gen_buffers)(int, unsigned *);
    void (*bind_buffer)(unsigned, unsigned);
    void (*buffer_data)(unsigned, intptr_t, const void *, unsigned);
    void *(*map_range)(unsigned, intptr_t, intptr_t, unsigned);
    unsigned char (*unmap)(unsigned);
    void (*delete_buffers)(int, const unsigned *);
    void *display, *context;
    unsigned buf[4];
} app_gl;

#define APP_BYTES 4096

static bool app_load(app_gl *a)
{
    void *egl = dlopen("libEGL.so.1", RTLD_NOW), *gles = dlopen("libGLESv2.so.2", RTLD_NOW);
    if (!egl || !gles) return false;
    void *(*proc)(const char *) = NULL;
    *(void **)&proc = dlsym(egl, "eglGetProcAddress");
    *(void **)&a->get_platform_display = proc ? proc("eglGetPlatformDisplayEXT") : NULL;
    *(void **)&a->get_display = dlsym(egl, "eglGetDisplay");
    *(void **)&a->initialize = dlsym(egl, "eglInitialize");
    *(void **)&a->bind_api = dlsym(egl, "eglBindAPI");
    *(void **)&a->create_context = dlsym(egl, "eglCreateContext");
    *(void **)&a->make_current = dlsym(egl, "eglMakeCurrent");
    *(void **)&a->get_current_context = dlsym(egl, "eglGetCurrentContext");
    *(void **)&a->destroy_context = dlsym(egl, "eglDestroyContext");
    *(void **)&a->gen_buffers = dlsym(gles, "glGenBuffers");
    *(void **)&a->bind_buffer = dlsym(gles, "glBindBuffer");
    *(void **)&a->buffer_data = dlsym(gles, "glBufferData");
    *(void **)&a->map_range = dlsym(gles, "glMapBufferRange");
    *(void **)&a->unmap = dlsym(gles, "glUnmapBuffer");
    *(void **)&a->delete_buffers = dlsym(gles, "glDeleteBuffers");
    return a->get_display && a->make_current && a->map_range && a->delete_buffers;
}

/* the application's context (config-less, surfaceless: Mesa's) with four
 * buffers of a pattern, whose names are those a fresh edml context also uses */
static bool app_open(app_gl *a)
{
    if (!app_load(a)) return false;
    a->display = a->get_platform_display ? a->get_platform_display(EGL_PLATFORM_SURFACELESS_, NULL, NULL) : NULL;
    if (!a->display || !a->initialize(a->display, NULL, NULL)) a->display = a->get_display(NULL);
    if (!a->display || !a->initialize(a->display, NULL, NULL)) return false;
    a->bind_api(EGL_OPENGL_ES_API_);
    static const int attr[] = {EGL_CONTEXT_MAJOR_, 3, EGL_CONTEXT_MINOR_, 1, EGL_NONE_};
    a->context = a->create_context(a->display, NULL, NULL, attr);
    if (!a->context || !a->make_current(a->display, NULL, NULL, a->context)) return false;
    a->gen_buffers(4, a->buf);
    uint8_t pattern[APP_BYTES];
    for (int i = 0; i < APP_BYTES; i++) pattern[i] = (uint8_t)(i * 7 + 1);
    for (int b = 0; b < 4; b++) {
        a->bind_buffer(GL_ARRAY_BUFFER_, a->buf[b]);
        a->buffer_data(GL_ARRAY_BUFFER_, APP_BYTES, pattern, GL_STATIC_DRAW_);
    }
    return true;
}

/* the application's context is current and its buffers hold their pattern */
static void app_check(app_gl *a, const char *after)
{
    CHECK(a->get_current_context() == a->context, "after %s the application's context is not current (%p)", after,
          a->get_current_context());
    if (a->get_current_context() != a->context) a->make_current(a->display, NULL, NULL, a->context);
    for (int b = 0; b < 4; b++) {
        a->bind_buffer(GL_ARRAY_BUFFER_, a->buf[b]);
        const uint8_t *p = (const uint8_t *)a->map_range(GL_ARRAY_BUFFER_, 0, APP_BYTES, GL_MAP_READ_BIT_);
        int wrong = 0;
        for (int i = 0; p && i < APP_BYTES; i++) wrong += p[i] != (uint8_t)(i * 7 + 1);
        if (p) a->unmap(GL_ARRAY_BUFFER_);
        CHECK(p && wrong == 0, "after %s the application's buffer %u has %d bytes changed", after, a->buf[b], wrong);
    }
}

typedef struct gl_dev {
    tl_device d;
    edml_gpu_buffer *buf;
    uint8_t fill;
} gl_dev;

static bool dev_open(gl_dev *g, uint32_t one_thread, uint8_t fill)
{
    g->d.size = edml_device_size() + (1 << 15);
    if (posix_memalign(&g->d.arena, 16, g->d.size)) abort();
    memset(g->d.arena, 0, g->d.size);
    edml_device_desc dd = {0};
    dd.gpu_arena_bytes = 1 << 16;
    dd.gles_one_thread = one_thread;
    g->fill = fill;
    g->buf = NULL;
    if (edml_device_create(&dd, g->d.arena, g->d.size, &g->d.dev) != EDML_STATUS_OK) return false;
    if (!(edml_device_backends(g->d.dev) & EDML_BACKEND_BIT(EDML_BACKEND_GLES))) return false;
    uint8_t data[256];
    memset(data, fill, sizeof data);
    return !edml_gpu_buffer_create(g->d.dev, sizeof data, &g->buf) && !edml_gpu_buffer_write(g->buf, 0, data, 256);
}

/* the device's buffer still holds its own fill */
static void dev_check(gl_dev *g, app_gl *a, const char *name)
{
    uint8_t data[256];
    memset(data, 0xee, sizeof data);
    edml_status s = edml_gpu_buffer_read(g->buf, 0, data, sizeof data);
    CHECK(s == EDML_STATUS_OK, "%s: read: %s", name, edml_device_last_error(g->d.dev));
    int wrong = 0;
    for (int i = 0; i < 256; i++) wrong += data[i] != g->fill;
    CHECK(s || wrong == 0, "%s read %d bytes that are not its own (0x%02x, first 0x%02x)", name, wrong, g->fill,
          data[0]);
    app_check(a, name);
}

/* an ArgMax on the GPU of a row whose largest element moves with `round` */
static void dev_argmax(gl_dev *g, app_gl *a, int round, const char *name)
{
    static const UINT in_sizes[2] = {1, 300}, out_sizes[2] = {1, 1}, axis[1] = {1};
    EDML_BUFFER_TENSOR_DESC ib = {EDML_TENSOR_DATA_TYPE_FLOAT32, EDML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0},
                            ob = {EDML_TENSOR_DATA_TYPE_UINT32, EDML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    EDML_TENSOR_DESC it = {EDML_TENSOR_TYPE_BUFFER, &ib}, ot = {EDML_TENSOR_TYPE_BUFFER, &ob};
    EDML_ARGMAX_OPERATOR_DESC am = {&it, &ot, 1, axis, EDML_AXIS_DIRECTION_INCREASING};
    EDML_OPERATOR_DESC desc = {EDML_OPERATOR_ARGMAX, &am};
    float row[300];
    for (int i = 0; i < 300; i++) row[i] = (float)(i % 17);
    const uint32_t want = (uint32_t)(round * 37 + g->fill) % 300;
    row[want] = 100.0f;
    uint32_t got = 0xdeadbeef;
    edml_operator *op = NULL;
    edml_status s = edml_operator_create(g->d.dev, &desc, EDML_BACKEND_GLES, &op);
    app_check(a, "edml_operator_create");
    EDML_BUFFER_BINDING bi = {row, 0, sizeof row}, bo = {&got, 0, sizeof got};
    if (!s) s = edml_operator_execute(op, &bi, 1, &bo, 1, NULL);
    CHECK(s == EDML_STATUS_OK && got == want, "%s: ArgMax %u, expected %u: %s", name, got, want,
          edml_device_last_error(g->d.dev));
    app_check(a, name);
    if (op) edml_operator_destroy(op);
    app_check(a, "edml_operator_destroy");
}

static void dev_close(gl_dev *g)
{
    if (g->buf) edml_gpu_buffer_destroy(g->buf);
    tl_device_free(&g->d);
}

/* two devices and the application's context, interleaved on one thread */
static void check_mode(app_gl *a, uint32_t one_thread)
{
    const char *mode = one_thread ? "gles_one_thread" : "default mode";
    printf("glcontext: %s\n", mode);
    gl_dev da, db, dc;
    CHECK(dev_open(&da, one_thread, 0x11), "%s: device A: %s", mode, edml_device_last_error(da.d.dev));
    app_check(a, "edml_device_create");
    CHECK(dev_open(&db, one_thread, 0x22), "%s: device B", mode);
    app_check(a, "edml_device_create");
    for (int round = 0; round < 3; round++) {
        dev_check(&da, a, "device A");
        dev_argmax(&da, a, round, "device A");
        dev_check(&db, a, "device B");
        dev_argmax(&db, a, round, "device B");
        dev_check(&da, a, "device A after device B");
    }
    CHECK(dev_open(&dc, one_thread, 0x33), "%s: device C", mode);
    app_check(a, "a third edml_device_create");
    dev_check(&da, a, "device A after device C's creation");
    dev_argmax(&da, a, 5, "device A after device C's creation");
    dev_close(&dc);
    app_check(a, "edml_device_destroy");
    dev_argmax(&db, a, 6, "device B after device C's end");
    /* with no context current before a call, the device's may stay current
     * after it; the application then makes its own current again */
    a->make_current(a->display, NULL, NULL, NULL);
    uint8_t data[256];
    CHECK(edml_gpu_buffer_read(db.buf, 0, data, sizeof data) == EDML_STATUS_OK && data[0] == 0x22 && data[255] == 0x22,
          "%s: device B with no context current before: %s", mode, edml_device_last_error(db.d.dev));
    a->make_current(a->display, NULL, NULL, a->context);
    dev_argmax(&da, a, 7, "device A after device B left its context current");
    dev_close(&db);
    dev_close(&da);
    app_check(a, "edml_device_destroy");
}

int main(void)
{
    app_gl a;
    memset(&a, 0, sizeof a);
    if (!app_open(&a)) {
        printf("glcontext: no GLES 3.1 context here\n");
        return 1;
    }
    check_mode(&a, 0);
    check_mode(&a, 1);
    a.delete_buffers(4, a.buf);
    a.make_current(a.display, NULL, NULL, NULL);
    a.destroy_context(a.display, a.context);
    return tl_summary("glcontext");
}
