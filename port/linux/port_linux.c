/* The Linux port: EGL and GLES loaded with dlopen, so one binary runs on
 * boards with and without GL drivers. */
#define _GNU_SOURCE
#include "../edml_port.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

typedef edmli_egl_display (*edmli_egl_get_platform_display_ext_fn)(unsigned, void *, const int *);
typedef edmli_egl_display (*edmli_egl_get_display_fn)(void *);
typedef unsigned (*edmli_egl_initialize_fn)(edmli_egl_display, int *, int *);
typedef const char *(*edmli_egl_query_string_fn)(edmli_egl_display, int);
typedef unsigned (*edmli_egl_bind_api_fn)(unsigned);
typedef edmli_egl_context (*edmli_egl_create_context_fn)(edmli_egl_display, edmli_egl_config, edmli_egl_context,
                                                         const int *);
typedef unsigned (*edmli_egl_choose_config_fn)(edmli_egl_display, const int *, edmli_egl_config *, int, int *);
typedef edmli_egl_surface (*edmli_egl_create_pbuffer_fn)(edmli_egl_display, edmli_egl_config, const int *);
typedef unsigned (*edmli_egl_query_devices_fn)(int, edmli_egl_device *, int *);
typedef int (*edmli_egl_get_error_fn)(void);
typedef void *(*edmli_egl_get_proc_fn)(const char *);
typedef unsigned (*edmli_egl_make_current_fn)(edmli_egl_display, edmli_egl_surface, edmli_egl_surface,
                                              edmli_egl_context);
typedef unsigned (*edmli_egl_destroy_context_fn)(edmli_egl_display, edmli_egl_context);
typedef unsigned (*edmli_egl_destroy_surface_fn)(edmli_egl_display, edmli_egl_surface);
typedef edmli_egl_context (*edmli_egl_get_current_context_fn)(void);
typedef edmli_egl_display (*edmli_egl_get_current_display_fn)(void);
typedef edmli_egl_surface (*edmli_egl_get_current_surface_fn)(int);
typedef void *(*edmli_gbm_create_device_fn)(int);
typedef void (*edmli_gbm_device_destroy_fn)(void *);

/* The EGL entry points edml calls. */
typedef struct edmli_egl {
    edmli_egl_get_proc_fn get_proc;
    edmli_egl_get_display_fn get_display;
    edmli_egl_initialize_fn initialize;
    edmli_egl_query_string_fn query_string;
    edmli_egl_bind_api_fn bind_api;
    edmli_egl_create_context_fn create_context;
    edmli_egl_choose_config_fn choose_config;
    edmli_egl_create_pbuffer_fn create_pbuffer;
    edmli_egl_get_error_fn get_error;
    edmli_egl_make_current_fn make_current;
    edmli_egl_destroy_context_fn destroy_context;
    edmli_egl_destroy_surface_fn destroy_surface;
    edmli_egl_get_current_context_fn get_current_context;
    edmli_egl_get_current_display_fn get_current_display;
    edmli_egl_get_current_surface_fn get_current_surface;
    edmli_egl_get_platform_display_ext_fn get_platform_display; /* NULL without EGL_EXT_platform_base */
} edmli_egl;

/* The port's own state, in edmli_port_gl.impl. */
typedef struct edmli_linux_gl {
    void *egl_lib, *gles_lib, *gbm_lib, *gbm_device;
    int drm_fd;
    edmli_egl_display display;
    edmli_egl_context context;
    edmli_egl_surface surface; /* a 1x1 pbuffer when neither config-less nor surfaceless worked */
    edmli_egl_config config;   /* the context's (NULL: config-less) */
    const int *ctx_attr;       /* its attributes, which the contexts sharing its objects take too */
    /* without a surface, each calling thread keeps a context of its own
     * current (sharing the first's objects); a call that finds them all
     * current on other threads runs on a transient one */
    edmli_egl_context thread_ctx[EDMLI_PORT_GL_THREADS];
    uint32_t thread_count;
    edmli_egl_context transient;
    uint64_t transient_key; /* its context_key: the last key given */
    /* the context current on the calling thread when the call began, where
     * it was not one of the device's (an application's, another device's):
     * current again when the call ends */
    edmli_egl_display saved_display;
    edmli_egl_surface saved_draw, saved_read;
    edmli_egl_context saved;
    const edmli_egl *egl; /* in the port's own state, below */
} edmli_linux_gl;

typedef struct edmli_linux_state {
    edmli_linux_gl gl;
    edmli_egl egl;
} edmli_linux_state;

_Static_assert(sizeof(edmli_linux_state) <= sizeof(((edmli_port_gl *)0)->impl),
               "edmli_port_gl.impl holds the port's state");

static edmli_linux_state *edmli_linux(edmli_port_gl *p) { return (edmli_linux_state *)(void *)p->impl; }

static bool edmli_has_ext(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/* dlsym without the object-to-function-pointer cast warning */
static void *edmli_sym(void *lib, const char *name) { return lib ? dlsym(lib, name) : NULL; }

/* A statically linked program has no dynamic loader: glibc's dlopen there
 * loads a second C library beside the built-in one and crashes in libEGL.
 * No loader mapped the program (AT_BASE is 0) and it asks for none (no
 * PT_INTERP; a program started as `ld.so ./prog` has one). */
static bool edmli_port_static_program(void)
{
    if (getauxval(AT_BASE) != 0) return false;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    size_t n = (size_t)getauxval(AT_PHNUM);
    for (size_t i = 0; ph && i < n; i++)
        if (ph[i].p_type == PT_INTERP) return false;
    return true;
}

/* libEGL and libGLESv2, and the EGL entry points. */
static bool edmli_port_load(edmli_linux_state *s, char *why, size_t cap)
{
    s->gl.egl_lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!s->gl.egl_lib) return snprintf(why, cap, "libEGL.so.1 cannot be loaded: %s", dlerror()), false;
    s->gl.gles_lib = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!s->gl.gles_lib) return snprintf(why, cap, "libGLESv2.so.2 cannot be loaded: %s", dlerror()), false;
    static const char *const names[15] = {
        "eglGetProcAddress",    "eglGetDisplay",        "eglInitialize",       "eglQueryString",
        "eglBindAPI",           "eglCreateContext",     "eglChooseConfig",     "eglCreatePbufferSurface",
        "eglGetError",          "eglMakeCurrent",       "eglDestroyContext",   "eglDestroySurface",
        "eglGetCurrentContext", "eglGetCurrentDisplay", "eglGetCurrentSurface"};
    void **slots[15] = {(void **)&s->egl.get_proc,
                        (void **)&s->egl.get_display,
                        (void **)&s->egl.initialize,
                        (void **)&s->egl.query_string,
                        (void **)&s->egl.bind_api,
                        (void **)&s->egl.create_context,
                        (void **)&s->egl.choose_config,
                        (void **)&s->egl.create_pbuffer,
                        (void **)&s->egl.get_error,
                        (void **)&s->egl.make_current,
                        (void **)&s->egl.destroy_context,
                        (void **)&s->egl.destroy_surface,
                        (void **)&s->egl.get_current_context,
                        (void **)&s->egl.get_current_display,
                        (void **)&s->egl.get_current_surface};
    for (int i = 0; i < 15; i++)
        if (!(*slots[i] = edmli_sym(s->gl.egl_lib, names[i])))
            return snprintf(why, cap, "libEGL.so.1 has no %s", names[i]), false;
    *(void **)&s->egl.get_platform_display = s->egl.get_proc("eglGetPlatformDisplayEXT");
    s->gl.egl = &s->egl;
    return true;
}

static bool edmli_port_init_display(edmli_linux_state *s, edmli_egl_display d)
{
    int major = 0, minor = 0;
    if (!d || !s->egl.initialize(d, &major, &minor)) return false;
    s->gl.display = d;
    return true;
}

/* The EGL device platform (NVIDIA, Mesa's device enumeration). */
static bool edmli_port_device_display(edmli_linux_state *s)
{
    edmli_egl_query_devices_fn query_devices;
    *(void **)&query_devices = s->egl.get_proc("eglQueryDevicesEXT");
    edmli_egl_device devs[8];
    int n = 0;
    if (!query_devices || !query_devices(8, devs, &n)) return false;
    for (int i = 0; i < n; i++)
        if (edmli_port_init_display(s, s->egl.get_platform_display(EDMLI_EGL_PLATFORM_DEVICE_EXT, devs[i], NULL)))
            return true;
    return false;
}

/* GBM on a render node (the Raspberry Pi's V3D, Jetson with Mesa). */
static const char *edmli_port_gbm_display(edmli_linux_state *s)
{
    static const char *const nodes[4] = {"/dev/dri/renderD128", "/dev/dri/renderD129", "/dev/dri/renderD130",
                                         "/dev/dri/renderD131"};
    void *gbm = dlopen("libgbm.so.1", RTLD_NOW | RTLD_LOCAL);
    edmli_gbm_create_device_fn gbm_create;
    edmli_gbm_device_destroy_fn gbm_destroy;
    *(void **)&gbm_create = edmli_sym(gbm, "gbm_create_device");
    *(void **)&gbm_destroy = edmli_sym(gbm, "gbm_device_destroy");
    for (int i = 0; gbm_create && i < 4; i++) {
        int fd = open(nodes[i], O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        void *dev = gbm_create(fd);
        if (dev && edmli_port_init_display(s, s->egl.get_platform_display(EDMLI_EGL_PLATFORM_GBM_KHR, dev, NULL))) {
            s->gl.gbm_lib = gbm;
            s->gl.gbm_device = dev;
            s->gl.drm_fd = fd;
            return nodes[i];
        }
        if (dev && gbm_destroy) gbm_destroy(dev);
        close(fd);
    }
    if (gbm) dlclose(gbm);
    return NULL;
}

/* Displays, in order: EGL device, GBM render node, surfaceless, default. */
static bool edmli_port_display(edmli_port_gl *p, char *why, size_t cap)
{
    edmli_linux_state *s = edmli_linux(p);
    const char *ext = s->egl.query_string(NULL, EDMLI_EGL_EXTENSIONS);
    char tried[256] = "";
    size_t tl = 0;
    const bool platforms = s->egl.get_platform_display != NULL;
    if (platforms && edmli_has_ext(ext, "EGL_EXT_platform_device")) {
        if (edmli_port_device_display(s)) return p->display_kind = "EGL device", true;
        tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "EGL device: none; ");
    }
    if (platforms && edmli_has_ext(ext, "EGL_KHR_platform_gbm")) {
        if ((p->display_kind = edmli_port_gbm_display(s)) != NULL) return true;
        tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "GBM: no usable render node; ");
    }
    if (platforms && edmli_has_ext(ext, "EGL_MESA_platform_surfaceless")) {
        if (edmli_port_init_display(s, s->egl.get_platform_display(EDMLI_EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL)))
            return p->display_kind = "surfaceless", true;
        tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "surfaceless: failed; ");
    }
    if (edmli_port_init_display(s, s->egl.get_display(NULL))) return p->display_kind = "default", true;
    snprintf(why, cap, "no EGL display (%sdefault display: EGL error 0x%x)", tried, (unsigned)s->egl.get_error());
    return false;
}

static const int edmli_ctx_attr[] = {EDMLI_EGL_CONTEXT_MAJOR_VERSION, 3, EDMLI_EGL_CONTEXT_MINOR_VERSION, 1,
                                     EDMLI_EGL_NONE};
/* The same, told of GPU resets (EGL_EXT_create_context_robustness): a
 * context a reset lost says so through glGetGraphicsResetStatus. */
static const int edmli_ctx_attr_robust[] = {EDMLI_EGL_CONTEXT_MAJOR_VERSION,
                                            3,
                                            EDMLI_EGL_CONTEXT_MINOR_VERSION,
                                            1,
                                            EDMLI_EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                                            EDMLI_EGL_LOSE_CONTEXT_ON_RESET_EXT,
                                            EDMLI_EGL_NONE};

/* A context without a surface: the first of the per-thread ones. */
static void edmli_port_first_context(edmli_linux_state *s, edmli_egl_config cfg)
{
    s->gl.config = cfg;
    s->gl.thread_ctx[0] = s->gl.context;
    s->gl.thread_count = 1;
}

/* A GLES 3.1 context with these attributes: config-less, surfaceless, then
 * a 1x1 pbuffer. */
static bool edmli_port_context_with(edmli_port_gl *p, const int *ctx_attr, bool surfaceless, bool configless)
{
    edmli_linux_state *s = edmli_linux(p);
    const edmli_egl *egl = &s->egl;
    edmli_egl_display d = s->gl.display;
    s->gl.ctx_attr = ctx_attr;
    if (surfaceless && configless) {
        s->gl.context = egl->create_context(d, NULL, NULL, ctx_attr);
        if (s->gl.context && egl->make_current(d, NULL, NULL, s->gl.context))
            return p->context_kind = "config-less", edmli_port_first_context(s, NULL), true;
        if (s->gl.context) egl->destroy_context(d, s->gl.context), s->gl.context = NULL;
    }
    const int cfg_attr[] = {EDMLI_EGL_RENDERABLE_TYPE, EDMLI_EGL_OPENGL_ES3_BIT, EDMLI_EGL_SURFACE_TYPE,
                            EDMLI_EGL_PBUFFER_BIT, EDMLI_EGL_NONE};
    edmli_egl_config cfg = NULL;
    int ncfg = 0;
    if (egl->choose_config(d, cfg_attr, &cfg, 1, &ncfg) && ncfg > 0 &&
        (s->gl.context = egl->create_context(d, cfg, NULL, ctx_attr))) {
        if (surfaceless && egl->make_current(d, NULL, NULL, s->gl.context))
            return p->context_kind = "surfaceless", edmli_port_first_context(s, cfg), true;
        const int pb_attr[] = {EDMLI_EGL_WIDTH, 1, EDMLI_EGL_HEIGHT, 1, EDMLI_EGL_NONE};
        s->gl.surface = egl->create_pbuffer(d, cfg, pb_attr);
        if (s->gl.surface && egl->make_current(d, s->gl.surface, s->gl.surface, s->gl.context))
            return p->context_kind = "pbuffer", true;
        if (s->gl.surface) egl->destroy_surface(d, s->gl.surface), s->gl.surface = NULL;
        egl->destroy_context(d, s->gl.context), s->gl.context = NULL;
    }
    return false;
}

/* A GLES 3.1 context, told of GPU resets where EGL offers that. */
static bool edmli_port_context(edmli_port_gl *p, char *why, size_t cap)
{
    edmli_linux_state *s = edmli_linux(p);
    const edmli_egl *egl = &s->egl;
    egl->bind_api(EDMLI_EGL_OPENGL_ES_API);
    const char *ext = egl->query_string(s->gl.display, EDMLI_EGL_EXTENSIONS);
    const bool surfaceless = edmli_has_ext(ext, "EGL_KHR_surfaceless_context");
    const bool configless =
        edmli_has_ext(ext, "EGL_KHR_no_config_context") || edmli_has_ext(ext, "EGL_MESA_configless_context");
    p->robust = edmli_has_ext(ext, "EGL_EXT_create_context_robustness") &&
                edmli_port_context_with(p, edmli_ctx_attr_robust, surfaceless, configless);
    if (p->robust || edmli_port_context_with(p, edmli_ctx_attr, surfaceless, configless)) return true;
    snprintf(why, cap, "no GLES 3.1 context on the %s display (error 0x%x)", p->display_kind,
             (unsigned)egl->get_error());
    return false;
}

/* GLES entry points: from libGLESv2, else eglGetProcAddress. */
static bool edmli_port_gl_functions(edmli_port_gl *p, char *why, size_t cap)
{
    edmli_linux_state *s = edmli_linux(p);
#define EDMLI_GL_LOAD(ret, name, params)                             \
    *(void **)&p->gl.name = edmli_sym(s->gl.gles_lib, #name);        \
    if (!p->gl.name) *(void **)&p->gl.name = s->egl.get_proc(#name); \
    if (!p->gl.name) return snprintf(why, cap, "the GLES library has no %s (GLES 3.1 needed)", #name), false;
    EDMLI_GL_FUNCTIONS(EDMLI_GL_LOAD)
#undef EDMLI_GL_LOAD
#define EDMLI_GL_LOAD_OPTIONAL(ret, name, params)             \
    *(void **)&p->gl.name = edmli_sym(s->gl.gles_lib, #name); \
    if (!p->gl.name) *(void **)&p->gl.name = s->egl.get_proc(#name);
    EDMLI_GL_OPTIONAL_FUNCTIONS(EDMLI_GL_LOAD_OPTIONAL)
#undef EDMLI_GL_LOAD_OPTIONAL
    return true;
}

static void edmli_port_note(edmli_linux_gl *l, edmli_egl_context cur);

bool edmli_port_gl_open(edmli_port_gl *p, uint32_t faults, char *why, size_t cap)
{
    memset(p, 0, sizeof *p);
    edmli_linux_state *s = edmli_linux(p);
    s->gl.drm_fd = -1;
    s->gl.transient_key = EDMLI_PORT_GL_THREADS; /* the kept contexts' keys are 1 to EDMLI_PORT_GL_THREADS */
    bool ok = false;
    if (faults & EDMLI_FAULT_NO_GL)
        snprintf(why, cap, "libEGL.so.1 not loaded (fault injected)");
    else if (edmli_port_static_program())
        snprintf(why, cap,
                 "statically linked program: GLES needs a dynamically linked C library to load the GPU "
                 "driver; link dynamically, or build edml with PORT=none");
    else if (edmli_port_load(s, why, cap) && (edmli_port_note(&s->gl, s->egl.get_current_context()), true) &&
             edmli_port_display(p, why, cap)) {
        if (faults & EDMLI_FAULT_CONTEXT)
            snprintf(why, cap, "no GLES 3.1 context on the %s display (fault injected)", p->display_kind);
        else
            ok = edmli_port_context(p, why, cap) && edmli_port_gl_functions(p, why, cap);
    }
    if (!ok) edmli_port_gl_close(p);
    return ok;
}

/* Whether `cur` is one of the device's contexts. */
static bool edmli_port_ours(const edmli_linux_gl *l, edmli_egl_context cur)
{
    if (!cur) return false;
    if (cur == l->context || cur == l->transient) return true;
    for (uint32_t i = 0; i < l->thread_count; i++)
        if (cur == l->thread_ctx[i]) return true;
    return false;
}

/* Notes the context current on this thread, unless it is the device's or
 * one is noted already (a second make_current in one call). */
static void edmli_port_note(edmli_linux_gl *l, edmli_egl_context cur)
{
    if (!cur || l->saved || edmli_port_ours(l, cur)) return;
    l->saved = cur;
    l->saved_display = l->egl->get_current_display();
    l->saved_draw = l->egl->get_current_surface(EDMLI_EGL_DRAW);
    l->saved_read = l->egl->get_current_surface(EDMLI_EGL_READ);
}

/* The noted context current again (true), or nothing noted (false). */
static bool edmli_port_restore(edmli_linux_gl *l)
{
    if (!l->saved) return false;
    l->egl->make_current(l->saved_display, l->saved_draw, l->saved_read, l->saved);
    l->saved = NULL;
    return true;
}

/* Without a pbuffer: this thread's context if one of them is current here,
 * else one that is current nowhere, else a new one while there are fewer
 * than EDMLI_PORT_GL_THREADS, else a transient one for this call. */
static bool edmli_port_thread_context(edmli_linux_gl *l, edmli_egl_context cur)
{
    if (edmli_port_ours(l, cur)) return true;
    for (uint32_t i = 0; i < l->thread_count; i++) /* one current on another thread is refused (EGL_BAD_ACCESS) */
        if (l->egl->make_current(l->display, NULL, NULL, l->thread_ctx[i])) return true;
    edmli_egl_context c = l->egl->create_context(l->display, l->config, l->context, l->ctx_attr);
    if (!c) return false;
    if (!l->egl->make_current(l->display, NULL, NULL, c)) {
        l->egl->destroy_context(l->display, c);
        return false;
    }
    if (l->thread_count < EDMLI_PORT_GL_THREADS) {
        l->thread_ctx[l->thread_count++] = c;
    } else { /* a key of its own, above the kept contexts' */
        l->transient = c;
        l->transient_key++; /* from EDMLI_PORT_GL_THREADS + 1 on */
    }
    return true;
}

/* One eglGetCurrentContext a call where the device's context is current
 * already: no switch. */
bool edmli_port_gl_make_current(edmli_port_gl *p)
{
    edmli_linux_gl *l = &edmli_linux(p)->gl;
    p->context_key = 1;
    if (!l->context) return false;
    const edmli_egl_context cur = l->egl->get_current_context();
    edmli_port_note(l, cur);
    if (!l->thread_count)
        return cur == l->context || l->egl->make_current(l->display, l->surface, l->surface, l->context);
    if (!edmli_port_thread_context(l, cur)) return false;
    const edmli_egl_context now = l->egl->get_current_context();
    p->context_key = l->transient_key;
    for (uint32_t i = 0; i < l->thread_count; i++)
        if (now == l->thread_ctx[i]) p->context_key = i + 1u;
    return true;
}

bool edmli_port_gl_owns_current(edmli_port_gl *p)
{
    const edmli_linux_gl *l = &edmli_linux(p)->gl;
    return l->context && edmli_port_ours(l, l->egl->get_current_context());
}

bool edmli_port_gl_per_thread(const edmli_port_gl *p)
{
    return ((const edmli_linux_state *)(const void *)p->impl)->gl.thread_count > 0;
}

/* The transient context of a call, no longer current, goes. */
static void edmli_port_drop_transient(edmli_linux_gl *l)
{
    if (l->transient) l->egl->destroy_context(l->display, l->transient);
    l->transient = NULL;
}

void edmli_port_gl_release(edmli_port_gl *p)
{
    edmli_linux_gl *l = &edmli_linux(p)->gl;
    if (!l->display) return;
    if (!edmli_port_restore(l)) l->egl->make_current(l->display, NULL, NULL, NULL);
    edmli_port_drop_transient(l);
}

void edmli_port_gl_end_call(edmli_port_gl *p)
{
    edmli_linux_gl *l = &edmli_linux(p)->gl;
    if (!l->display) return;
    if (!edmli_port_restore(l) && l->transient) l->egl->make_current(l->display, NULL, NULL, NULL);
    edmli_port_drop_transient(l);
}

void edmli_port_gl_close(edmli_port_gl *p)
{
    edmli_linux_gl *l = &edmli_linux(p)->gl;
    if (l->display) {
        if (!edmli_port_restore(l) || edmli_port_ours(l, l->egl->get_current_context()))
            l->egl->make_current(l->display, NULL, NULL, NULL);
        if (l->transient) l->egl->destroy_context(l->display, l->transient);
        /* one current on another thread goes when that thread lets it go */
        for (uint32_t i = 1; i < l->thread_count; i++) l->egl->destroy_context(l->display, l->thread_ctx[i]);
        if (l->context) l->egl->destroy_context(l->display, l->context);
        if (l->surface) l->egl->destroy_surface(l->display, l->surface);
        /* no eglTerminate: other devices of this process may share the display */
    }
    if (l->gbm_device && l->gbm_lib) {
        edmli_gbm_device_destroy_fn destroy;
        *(void **)&destroy = edmli_sym(l->gbm_lib, "gbm_device_destroy");
        if (destroy) destroy(l->gbm_device);
    }
    if (l->drm_fd >= 0) close(l->drm_fd);
    /* The libraries stay loaded: GL drivers do not survive being unloaded
     * and loaded again (Mesa's screens and threads would pile up), and the
     * display stays initialised for the process's other devices. */
    memset(p, 0, sizeof *p);
    l->drm_fd = -1;
}

uint32_t edmli_port_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 1024 ? 1024u : (uint32_t)n;
}

uint64_t edmli_port_now_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts)) return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One constant string a thread: a pointer, no buffer. */
static _Thread_local const char *edmli_unrouted;

void edmli_port_set_unrouted(const char *message) { edmli_unrouted = message; }

const char *edmli_port_unrouted(void) { return edmli_unrouted ? edmli_unrouted : ""; }
