/* The platform layer: loading EGL and OpenGL ES at run time and a GLES 3.1
 * context. The library talks to the platform only through this header;
 * port/linux/ implements it with dlopen, port/none/ builds without GL (for
 * fully static images).
 *
 * Constants and function types are declared here (from the Khronos
 * registry), so building needs no EGL or GLES headers. */
#ifndef EDML_PORT_H
#define EDML_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Khronos types and the constants edml uses ---------------------------- */
typedef void *edmli_egl_display, *edmli_egl_context, *edmli_egl_surface, *edmli_egl_config, *edmli_egl_device;
typedef unsigned int GLenum_, GLuint_, GLbitfield_;
typedef int GLint_, GLsizei_;
typedef intptr_t GLintptr_;
typedef intptr_t GLsizeiptr_;
typedef struct edmli_gl_sync *GLsync_;

#define EDMLI_EGL_NONE 0x3038
#define EDMLI_EGL_EXTENSIONS 0x3055
#define EDMLI_EGL_OPENGL_ES_API 0x30A0
#define EDMLI_EGL_CONTEXT_MAJOR_VERSION 0x3098
#define EDMLI_EGL_CONTEXT_MINOR_VERSION 0x30FB
#define EDMLI_EGL_PLATFORM_DEVICE_EXT 0x313F
#define EDMLI_EGL_PLATFORM_GBM_KHR 0x31D7
#define EDMLI_EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#define EDMLI_EGL_SURFACE_TYPE 0x3033
#define EDMLI_EGL_PBUFFER_BIT 0x0001
#define EDMLI_EGL_RENDERABLE_TYPE 0x3040
#define EDMLI_EGL_OPENGL_ES3_BIT 0x0040
#define EDMLI_EGL_WIDTH 0x3057
#define EDMLI_EGL_HEIGHT 0x3056
#define EDMLI_EGL_DRAW 0x3059
#define EDMLI_EGL_READ 0x305A
/* EGL_EXT_create_context_robustness */
#define EDMLI_EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT 0x3138
#define EDMLI_EGL_LOSE_CONTEXT_ON_RESET_EXT 0x31BF

#define EDMLI_GL_NO_ERROR 0
#define EDMLI_GL_OUT_OF_MEMORY 0x0505
#define EDMLI_GL_RENDERER 0x1F01
#define EDMLI_GL_COMPUTE_SHADER 0x91B9
#define EDMLI_GL_COMPILE_STATUS 0x8B81
#define EDMLI_GL_LINK_STATUS 0x8B82
#define EDMLI_GL_SHADER_STORAGE_BUFFER 0x90D2
#define EDMLI_GL_DYNAMIC_DRAW 0x88E8
#define EDMLI_GL_STREAM_READ 0x88E1
#define EDMLI_GL_DYNAMIC_COPY 0x88EA
#define EDMLI_GL_COPY_READ_BUFFER 0x8F36
#define EDMLI_GL_COPY_WRITE_BUFFER 0x8F37
#define EDMLI_GL_MAP_READ_BIT 0x0001
#define EDMLI_GL_SHADER_STORAGE_BARRIER_BIT 0x00002000
#define EDMLI_GL_BUFFER_UPDATE_BARRIER_BIT 0x00000200
#define EDMLI_GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS 0x90EB
#define EDMLI_GL_MAX_COMPUTE_SHARED_MEMORY_SIZE 0x8262
#define EDMLI_GL_MAX_SHADER_STORAGE_BLOCK_SIZE 0x90DE
#define EDMLI_GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS 0x90DB
#define EDMLI_GL_MAX_COMPUTE_WORK_GROUP_COUNT 0x91BE
#define EDMLI_GL_MAX_COMPUTE_WORK_GROUP_SIZE 0x91BF
#define EDMLI_GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT 0x90DF
#define EDMLI_GL_UNIFORM_BUFFER 0x8A11
#define EDMLI_GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT 0x8A34
#define EDMLI_GL_MAX_UNIFORM_BLOCK_SIZE 0x8A30
#define EDMLI_GL_EXTENSIONS 0x1F03
#define EDMLI_GL_MAP_WRITE_BIT 0x0002
/* GL_EXT_buffer_storage */
#define EDMLI_GL_MAP_PERSISTENT_BIT 0x0040
#define EDMLI_GL_MAP_COHERENT_BIT 0x0080
#define EDMLI_GL_DYNAMIC_STORAGE_BIT 0x0100
#define EDMLI_GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT 0x00004000
/* GL_EXT_disjoint_timer_query */
#define EDMLI_GL_TIMESTAMP 0x8E28
#define EDMLI_GL_QUERY_RESULT 0x8866
#define EDMLI_GL_QUERY_RESULT_AVAILABLE 0x8867
#define EDMLI_GL_GPU_DISJOINT 0x8FBB
/* GL_EXT_texture_buffer */
#define EDMLI_GL_TEXTURE_BUFFER 0x8C2A
#define EDMLI_GL_R32UI 0x8236
#define EDMLI_GL_TEXTURE0 0x84C0
#define EDMLI_GL_SYNC_GPU_COMMANDS_COMPLETE 0x9117
#define EDMLI_GL_SYNC_FLUSH_COMMANDS_BIT 0x0001
#define EDMLI_GL_ALREADY_SIGNALED 0x911A
#define EDMLI_GL_CONDITION_SATISFIED 0x911C
#define EDMLI_GL_TIMEOUT_EXPIRED 0x911B
#define EDMLI_GL_TIMEOUT_IGNORED UINT64_MAX
/* GLES 3.2, GL_KHR_robustness, GL_EXT_robustness: a context lost to a GPU reset */
#define EDMLI_GL_GUILTY_CONTEXT_RESET 0x8253
#define EDMLI_GL_INNOCENT_CONTEXT_RESET 0x8254
#define EDMLI_GL_UNKNOWN_CONTEXT_RESET 0x8255

/* The GLES 3.1 functions edml calls, loaded at run time. */
#define EDMLI_GL_FUNCTIONS(X)                                                                                       \
    X(GLenum_, glGetError, (void))                                                                                  \
    X(const unsigned char *, glGetString, (GLenum_ name))                                                           \
    X(void, glGetIntegerv, (GLenum_ pname, GLint_ * data))                                                          \
    X(void, glGetIntegeri_v, (GLenum_ target, GLuint_ index, GLint_ * data))                                        \
    X(GLuint_, glCreateShader, (GLenum_ type))                                                                      \
    X(void, glShaderSource, (GLuint_ shader, GLsizei_ count, const char *const *string, const GLint_ *length))      \
    X(void, glCompileShader, (GLuint_ shader))                                                                      \
    X(void, glGetShaderiv, (GLuint_ shader, GLenum_ pname, GLint_ * params))                                        \
    X(void, glGetShaderInfoLog, (GLuint_ shader, GLsizei_ bufSize, GLsizei_ * length, char *infoLog))               \
    X(void, glDeleteShader, (GLuint_ shader))                                                                       \
    X(GLuint_, glCreateProgram, (void))                                                                             \
    X(void, glAttachShader, (GLuint_ program, GLuint_ shader))                                                      \
    X(void, glLinkProgram, (GLuint_ program))                                                                       \
    X(void, glGetProgramiv, (GLuint_ program, GLenum_ pname, GLint_ * params))                                      \
    X(void, glGetProgramInfoLog, (GLuint_ program, GLsizei_ bufSize, GLsizei_ * length, char *infoLog))             \
    X(void, glDeleteProgram, (GLuint_ program))                                                                     \
    X(void, glUseProgram, (GLuint_ program))                                                                        \
    X(GLint_, glGetUniformLocation, (GLuint_ program, const char *name))                                            \
    X(void, glUniform1ui, (GLint_ location, GLuint_ v0))                                                            \
    X(void, glUniform1uiv, (GLint_ location, GLsizei_ count, const GLuint_ *value))                                 \
    X(void, glGenBuffers, (GLsizei_ n, GLuint_ * buffers))                                                          \
    X(void, glDeleteBuffers, (GLsizei_ n, const GLuint_ *buffers))                                                  \
    X(void, glBindBuffer, (GLenum_ target, GLuint_ buffer))                                                         \
    X(void, glBindBufferBase, (GLenum_ target, GLuint_ index, GLuint_ buffer))                                      \
    X(void, glBindBufferRange, (GLenum_ target, GLuint_ index, GLuint_ buffer, GLintptr_ offset, GLsizeiptr_ size)) \
    X(void, glBufferData, (GLenum_ target, GLsizeiptr_ size, const void *data, GLenum_ usage))                      \
    X(void, glBufferSubData, (GLenum_ target, GLintptr_ offset, GLsizeiptr_ size, const void *data))                \
    X(void *, glMapBufferRange, (GLenum_ target, GLintptr_ offset, GLsizeiptr_ length, GLbitfield_ access))         \
    X(unsigned char, glUnmapBuffer, (GLenum_ target))                                                               \
    X(void, glDispatchCompute, (GLuint_ x, GLuint_ y, GLuint_ z))                                                   \
    X(void, glMemoryBarrier, (GLbitfield_ barriers))                                                                \
    X(GLsync_, glFenceSync, (GLenum_ condition, GLbitfield_ flags))                                                 \
    X(GLenum_, glClientWaitSync, (GLsync_ sync, GLbitfield_ flags, uint64_t timeout))                               \
    X(void, glDeleteSync, (GLsync_ sync))                                                                           \
    X(void, glWaitSync, (GLsync_ sync, GLbitfield_ flags, uint64_t timeout))                                        \
    X(void, glFlush, (void))                                                                                        \
    X(void, glCopyBufferSubData,                                                                                    \
      (GLenum_ readTarget, GLenum_ writeTarget, GLintptr_ readOffset, GLintptr_ writeOffset, GLsizeiptr_ size))

/* Extension entry points edml uses where the driver has them: NULL where
 * it has not (the extension named in GL_EXTENSIONS decides). The library
 * uses glBufferStorageEXT; the rest serve edml-bench --gpu-time: timer
 * queries (GL_EXT_disjoint_timer_query), and the textures of its bare
 * gather through a buffer texture (GL_EXT_texture_buffer). */
/* GL_KHR_debug's message callback (a driver's compiler statistics). */
typedef void (*edmli_gl_debug_fn)(GLenum_ source, GLenum_ type, GLuint_ id, GLenum_ severity, GLsizei_ length,
                                  const char *message, const void *user);
#define EDMLI_GL_DEBUG_OUTPUT 0x92E0
#define EDMLI_GL_DEBUG_OUTPUT_SYNCHRONOUS 0x8242
/* GL_KHR_parallel_shader_compile; GLES 3.0's program binaries */
#define EDMLI_GL_COMPLETION_STATUS 0x91B1
#define EDMLI_GL_PROGRAM_BINARY_LENGTH 0x8741
#define EDMLI_GL_PROGRAM_BINARY_RETRIEVABLE_HINT 0x8257
#define EDMLI_GL_NUM_PROGRAM_BINARY_FORMATS 0x87FE
#define EDMLI_GL_VERSION 0x1F02

#define EDMLI_GL_OPTIONAL_FUNCTIONS(X)                                                                     \
    X(void, glBufferStorageEXT, (GLenum_ target, GLsizeiptr_ size, const void *data, GLbitfield_ flags))   \
    X(void, glGenQueriesEXT, (GLsizei_ n, GLuint_ * ids))                                                  \
    X(void, glDeleteQueriesEXT, (GLsizei_ n, const GLuint_ *ids))                                          \
    X(void, glQueryCounterEXT, (GLuint_ id, GLenum_ target))                                               \
    X(void, glGetQueryObjectui64vEXT, (GLuint_ id, GLenum_ pname, uint64_t * params))                      \
    X(void, glGetInteger64v, (GLenum_ pname, int64_t * data))                                              \
    X(void, glGenTextures, (GLsizei_ n, GLuint_ * textures))                                               \
    X(void, glDeleteTextures, (GLsizei_ n, const GLuint_ *textures))                                       \
    X(void, glBindTexture, (GLenum_ target, GLuint_ texture))                                              \
    X(void, glActiveTexture, (GLenum_ texture))                                                            \
    X(void, glTexBufferRangeEXT,                                                                           \
      (GLenum_ target, GLenum_ internalformat, GLuint_ buffer, GLintptr_ offset, GLsizeiptr_ size))        \
    X(void, glEnable, (GLenum_ cap))                                                                       \
    X(void, glDisable, (GLenum_ cap))                                                                      \
    X(void, glDebugMessageCallback, (edmli_gl_debug_fn callback, const void *user))                        \
    X(void, glDebugMessageCallbackKHR, (edmli_gl_debug_fn callback, const void *user))                     \
    X(void, glMaxShaderCompilerThreadsKHR, (GLuint_ count))                                                \
    X(void, glProgramParameteri, (GLuint_ program, GLenum_ pname, GLint_ value))                           \
    X(void, glGetProgramBinary,                                                                            \
      (GLuint_ program, GLsizei_ bufSize, GLsizei_ * length, GLenum_ * binaryFormat, void *binary))        \
    X(void, glProgramBinary, (GLuint_ program, GLenum_ binaryFormat, const void *binary, GLsizei_ length)) \
    X(GLenum_, glGetGraphicsResetStatus, (void))                                                           \
    X(GLenum_, glGetGraphicsResetStatusKHR, (void))                                                        \
    X(GLenum_, glGetGraphicsResetStatusEXT, (void))

typedef struct edmli_gl {
#define EDMLI_GL_FN(ret, name, params) ret(*name) params;
    EDMLI_GL_FUNCTIONS(EDMLI_GL_FN)
    EDMLI_GL_OPTIONAL_FUNCTIONS(EDMLI_GL_FN)
#undef EDMLI_GL_FN
} edmli_gl;

/* Faults a test may inject (edml_device_desc.inject_faults). */
#define EDMLI_FAULT_NO_GL 0x1u
#define EDMLI_FAULT_CONTEXT 0x2u

/* A GLES 3.1 context: the GL entry points and what the port found; the
 * rest (libraries, display, context, surface) is the port's own. */
#define EDMLI_PORT_GL_WORDS 48
#define EDMLI_PORT_GL_THREADS 8 /* threads that keep a context of their own current */
typedef struct edmli_port_gl {
    edmli_gl gl;
    const char *display_kind; /* "EGL device", "GBM /dev/dri/renderD128", "surfaceless", "default" */
    const char *context_kind; /* "config-less", "surfaceless", "pbuffer" */
    bool robust;              /* its contexts are told of GPU resets (EGL_EXT_create_context_robustness) */
    /* set by edmli_port_gl_make_current: the context this call runs on, a
     * number no other context of the device has had (1 to
     * EDMLI_PORT_GL_THREADS for the contexts kept, a new one above them for
     * each transient context), so that what a context set is known to be its */
    uint64_t context_key;
    void *impl[EDMLI_PORT_GL_WORDS]; /* the port's */
} edmli_port_gl;

/* Loads EGL and GLES, finds a display (EGL device platform, GBM on a render
 * node, surfaceless Mesa, the default display, in that order) and creates a
 * GLES 3.1 context (config-less, surfaceless, 1x1 pbuffer, in that order),
 * current on the calling thread. On failure returns false with the reason
 * in `why`. */
bool edmli_port_gl_open(edmli_port_gl *p, uint32_t faults, char *why, size_t cap);
/* Makes a context of p current on the calling thread (false: none could
 * be). A context current there that is not p's (an application's, another
 * device's) is noted first, and end_call and release make it current again.
 * With per-thread contexts (edmli_port_gl_per_thread) a thread keeps its
 * own current between calls where nothing else was current, so that the
 * next call switches nothing; else the one context is released after each
 * call. end_call ends a call: the noted context current again, a transient
 * context (every per-thread one current on another thread) let go; release
 * also lets this thread's context of p go. */
bool edmli_port_gl_make_current(edmli_port_gl *p);
bool edmli_port_gl_per_thread(const edmli_port_gl *p);
/* Whether a context of p is current on the calling thread. */
bool edmli_port_gl_owns_current(edmli_port_gl *p);
void edmli_port_gl_end_call(edmli_port_gl *p);
void edmli_port_gl_release(edmli_port_gl *p);
void edmli_port_gl_close(edmli_port_gl *p);

/* CPU cores online (1 where the port cannot tell). */
uint32_t edmli_port_cpu_count(void);

/* A monotonic clock in nanoseconds (measured placement times executions
 * with it); 0 where the port has none. */
uint64_t edmli_port_now_ns(void);

/* The calling thread's message of its last call that reached no device (a
 * constant string): one pointer a thread where the port has threads (TLS),
 * one in all without an OS. */
void edmli_port_set_unrouted(const char *message);
const char *edmli_port_unrouted(void);

#endif
