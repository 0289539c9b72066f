/* The Linux port: EGL and GLES loaded with dlopen, so one binary runs on
 * boards with and without GL drivers; clock_gettime for time. */
#define _GNU_SOURCE
#include "../edml_port.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

typedef edmli_egl_display (*edmli_egl_get_platform_display_fn)(unsigned, void *, const intptr_t *);
typedef edmli_egl_display (*edmli_egl_get_platform_display_ext_fn)(unsigned, void *, const int *);
typedef edmli_egl_display (*edmli_egl_get_display_fn)(void *);
typedef unsigned (*edmli_egl_initialize_fn)(edmli_egl_display, int *, int *);
typedef const char *(*edmli_egl_query_string_fn)(edmli_egl_display, int);
typedef unsigned (*edmli_egl_bind_api_fn)(unsigned);
typedef edmli_egl_context (*edmli_egl_create_context_fn)(edmli_egl_display, edmli_egl_config, edmli_egl_context, const int *);
typedef unsigned (*edmli_egl_choose_config_fn)(edmli_egl_display, const int *, edmli_egl_config *, int, int *);
typedef edmli_egl_surface (*edmli_egl_create_pbuffer_fn)(edmli_egl_display, edmli_egl_config, const int *);
typedef unsigned (*edmli_egl_query_devices_fn)(int, edmli_egl_device *, int *);
typedef int (*edmli_egl_get_error_fn)(void);
typedef void *(*edmli_egl_get_proc_fn)(const char *);
typedef void *(*edmli_gbm_create_device_fn)(int);
typedef void (*edmli_gbm_device_destroy_fn)(void *);

static bool edmli_has_ext(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

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

/* dlsym without the object-to-function-pointer cast warning */
static void *edmli_sym(void *lib, const char *name) { return lib ? dlsym(lib, name) : NULL; }

bool edmli_port_gl_open(edmli_port_gl *p, uint32_t faults, char *why, size_t cap)
{
    memset(p, 0, sizeof *p);
    p->drm_fd = -1;
    if (faults & EDMLI_FAULT_NO_GL) {
        snprintf(why, cap, "libEGL.so.1 not loaded (fault injected)");
        return false;
    }
    if (edmli_port_static_program()) {
        snprintf(why, cap, "statically linked program: GLES needs a dynamically linked C library to load the GPU "
                           "driver; link dynamically, or build edml with PORT=none");
        return false;
    }
    p->egl_lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!p->egl_lib) {
        snprintf(why, cap, "libEGL.so.1 cannot be loaded: %s", dlerror());
        return false;
    }
    p->gles_lib = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!p->gles_lib) {
        snprintf(why, cap, "libGLESv2.so.2 cannot be loaded: %s", dlerror());
        edmli_port_gl_close(p);
        return false;
    }
#define EDMLI_LOAD(var, type, name)                                               \
    type var;                                                                     \
    *(void **)&var = edmli_sym(p->egl_lib, name);                                 \
    if (!var) {                                                                   \
        snprintf(why, cap, "libEGL.so.1 has no %s", name);                       \
        edmli_port_gl_close(p);                                                   \
        return false;                                                             \
    }
    EDMLI_LOAD(get_proc, edmli_egl_get_proc_fn, "eglGetProcAddress")
    EDMLI_LOAD(get_display, edmli_egl_get_display_fn, "eglGetDisplay")
    EDMLI_LOAD(initialize, edmli_egl_initialize_fn, "eglInitialize")
    EDMLI_LOAD(query_string, edmli_egl_query_string_fn, "eglQueryString")
    EDMLI_LOAD(bind_api, edmli_egl_bind_api_fn, "eglBindAPI")
    EDMLI_LOAD(create_context, edmli_egl_create_context_fn, "eglCreateContext")
    EDMLI_LOAD(choose_config, edmli_egl_choose_config_fn, "eglChooseConfig")
    EDMLI_LOAD(create_pbuffer, edmli_egl_create_pbuffer_fn, "eglCreatePbufferSurface")
    EDMLI_LOAD(get_error, edmli_egl_get_error_fn, "eglGetError")
#undef EDMLI_LOAD
    p->eglGetProcAddress = get_proc;
    *(void **)&p->eglMakeCurrent = edmli_sym(p->egl_lib, "eglMakeCurrent");
    *(void **)&p->eglDestroyContext = edmli_sym(p->egl_lib, "eglDestroyContext");
    *(void **)&p->eglDestroySurface = edmli_sym(p->egl_lib, "eglDestroySurface");
    *(void **)&p->eglTerminate = edmli_sym(p->egl_lib, "eglTerminate");
    *(void **)&p->eglReleaseThread = edmli_sym(p->egl_lib, "eglReleaseThread");
    if (!p->eglMakeCurrent || !p->eglDestroyContext || !p->eglTerminate) {
        snprintf(why, cap, "libEGL.so.1 lacks eglMakeCurrent/eglDestroyContext/eglTerminate");
        edmli_port_gl_close(p);
        return false;
    }

    /* Displays, in order: EGL device, GBM render node, surfaceless, default. */
    const char *client_ext = query_string(NULL, EDMLI_EGL_EXTENSIONS);
    edmli_egl_get_platform_display_ext_fn gpd_ext;
    *(void **)&gpd_ext = get_proc("eglGetPlatformDisplayEXT");
    int major = 0, minor = 0;
    char tried[256] = "";
    size_t tl = 0;
    if (gpd_ext && edmli_has_ext(client_ext, "EGL_EXT_platform_device")) {
        edmli_egl_query_devices_fn query_devices;
        *(void **)&query_devices = get_proc("eglQueryDevicesEXT");
        edmli_egl_device devs[8];
        int n = 0;
        if (query_devices && query_devices(8, devs, &n)) {
            for (int i = 0; i < n && !p->display; i++) {
                edmli_egl_display d = gpd_ext(EDMLI_EGL_PLATFORM_DEVICE_EXT, devs[i], NULL);
                if (d && initialize(d, &major, &minor)) {
                    p->display = d;
                    p->display_kind = "EGL device";
                }
            }
        }
        if (!p->display) tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "EGL device: none; ");
    }
    if (!p->display && gpd_ext && edmli_has_ext(client_ext, "EGL_KHR_platform_gbm")) {
        void *gbm = dlopen("libgbm.so.1", RTLD_NOW | RTLD_LOCAL);
        edmli_gbm_create_device_fn gbm_create;
        *(void **)&gbm_create = edmli_sym(gbm, "gbm_create_device");
        static const char *const nodes[4] = {"/dev/dri/renderD128", "/dev/dri/renderD129", "/dev/dri/renderD130",
                                             "/dev/dri/renderD131"};
        for (int i = 0; gbm_create && i < 4 && !p->display; i++) {
            int fd = open(nodes[i], O_RDWR | O_CLOEXEC);
            if (fd < 0) continue;
            void *dev = gbm_create(fd);
            edmli_egl_display d = dev ? gpd_ext(EDMLI_EGL_PLATFORM_GBM_KHR, dev, NULL) : NULL;
            if (d && initialize(d, &major, &minor)) {
                p->display = d;
                p->display_kind = nodes[i];
                p->gbm_lib = gbm;
                p->gbm_device = dev;
                p->drm_fd = fd;
            } else {
                edmli_gbm_device_destroy_fn destroy;
                *(void **)&destroy = edmli_sym(gbm, "gbm_device_destroy");
                if (dev && destroy) destroy(dev);
                close(fd);
            }
        }
        if (!p->display) {
            if (gbm) dlclose(gbm);
            tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "GBM: no usable render node; ");
        }
    }
    if (!p->display && gpd_ext && edmli_has_ext(client_ext, "EGL_MESA_platform_surfaceless")) {
        edmli_egl_display d = gpd_ext(EDMLI_EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL);
        if (d && initialize(d, &major, &minor)) {
            p->display = d;
            p->display_kind = "surfaceless";
        } else {
            tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "surfaceless: failed; ");
        }
    }
    if (!p->display) {
        edmli_egl_display d = get_display(NULL);
        if (d && initialize(d, &major, &minor)) {
            p->display = d;
            p->display_kind = "default";
        }
    }
    if (!p->display) {
        snprintf(why, cap, "no EGL display (%sdefault display: EGL error 0x%x)", tried, (unsigned)get_error());
        edmli_port_gl_close(p);
        return false;
    }

    /* A GLES 3.1 context: config-less, surfaceless, then a 1x1 pbuffer. */
    bind_api(EDMLI_EGL_OPENGL_ES_API);
    const int ctx_attr[] = {EDMLI_EGL_CONTEXT_MAJOR_VERSION, 3, EDMLI_EGL_CONTEXT_MINOR_VERSION, 1, EDMLI_EGL_NONE};
    const char *dpy_ext = query_string(p->display, EDMLI_EGL_EXTENSIONS);
    if (faults & EDMLI_FAULT_CONTEXT) {
        snprintf(why, cap, "no GLES 3.1 context on the %s display (fault injected)", p->display_kind);
        edmli_port_gl_close(p);
        return false;
    }
    bool no_config = edmli_has_ext(dpy_ext, "EGL_KHR_no_config_context") || edmli_has_ext(dpy_ext, "EGL_MESA_configless_context");
    bool surfaceless = edmli_has_ext(dpy_ext, "EGL_KHR_surfaceless_context");
    if (no_config && surfaceless) {
        p->context = create_context(p->display, NULL, NULL, ctx_attr);
        if (p->context && p->eglMakeCurrent(p->display, NULL, NULL, p->context)) p->context_kind = "config-less";
        else if (p->context) p->eglDestroyContext(p->display, p->context), p->context = NULL;
    }
    edmli_egl_config cfg = NULL;
    int ncfg = 0;
    if (!p->context) {
        const int cfg_attr[] = {EDMLI_EGL_RENDERABLE_TYPE, EDMLI_EGL_OPENGL_ES3_BIT, EDMLI_EGL_SURFACE_TYPE,
                                EDMLI_EGL_PBUFFER_BIT, EDMLI_EGL_NONE};
        if (choose_config(p->display, cfg_attr, &cfg, 1, &ncfg) && ncfg > 0) {
            p->context = create_context(p->display, cfg, NULL, ctx_attr);
            if (p->context && surfaceless && p->eglMakeCurrent(p->display, NULL, NULL, p->context)) {
                p->context_kind = "surfaceless";
            } else if (p->context) {
                const int pb_attr[] = {EDMLI_EGL_WIDTH, 1, EDMLI_EGL_HEIGHT, 1, EDMLI_EGL_NONE};
                p->surface = create_pbuffer(p->display, cfg, pb_attr);
                if (p->surface && p->eglMakeCurrent(p->display, p->surface, p->surface, p->context)) {
                    p->context_kind = "pbuffer";
                } else {
                    p->eglDestroyContext(p->display, p->context);
                    p->context = NULL;
                }
            }
        }
    }
    if (!p->context) {
        snprintf(why, cap, "no GLES 3.1 context on the %s display (EGL %d.%d, error 0x%x)", p->display_kind, major,
                 minor, (unsigned)get_error());
        edmli_port_gl_close(p);
        return false;
    }

    /* GLES entry points: from libGLESv2, else eglGetProcAddress. */
#define EDMLI_GL_LOAD(ret, name, params)                                                   \
    *(void **)&p->gl.name = edmli_sym(p->gles_lib, #name);                                 \
    if (!p->gl.name) *(void **)&p->gl.name = get_proc(#name);                              \
    if (!p->gl.name) {                                                                     \
        snprintf(why, cap, "the GLES library has no %s (GLES 3.1 needed)", #name);        \
        edmli_port_gl_close(p);                                                            \
        return false;                                                                      \
    }
    EDMLI_GL_FUNCTIONS(EDMLI_GL_LOAD)
#undef EDMLI_GL_LOAD
    return true;
}

bool edmli_port_gl_make_current(edmli_port_gl *p)
{
    return p->context && p->eglMakeCurrent(p->display, p->surface, p->surface, p->context);
}

void edmli_port_gl_close(edmli_port_gl *p)
{
    if (p->display) {
        if (p->eglMakeCurrent) p->eglMakeCurrent(p->display, NULL, NULL, NULL);
        if (p->context) p->eglDestroyContext(p->display, p->context);
        if (p->surface && p->eglDestroySurface) p->eglDestroySurface(p->display, p->surface);
        /* no eglTerminate: other devices of this process may share the display */
    }
    if (p->gbm_device && p->gbm_lib) {
        edmli_gbm_device_destroy_fn destroy;
        *(void **)&destroy = edmli_sym(p->gbm_lib, "gbm_device_destroy");
        if (destroy) destroy(p->gbm_device);
    }
    if (p->drm_fd >= 0) close(p->drm_fd);
    /* The libraries stay loaded: GL drivers do not survive being unloaded
     * and loaded again (Mesa's screens and threads would pile up), and the
     * display stays initialised for the process's other devices. */
    memset(p, 0, sizeof *p);
    p->drm_fd = -1;
}
