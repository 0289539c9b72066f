/* A stand-in for libGLESv2.so.2 that tests load in its place (test/guarded-gl.sh
 * puts its folder first on LD_LIBRARY_PATH): every glMapBufferRange that is
 * not persistent returns a copy of exactly the range asked for, ending at an
 * inaccessible page (read-only where the mapping is), so that a read or
 * write past a mapping crashes here as it did on NVIDIA's driver, whose
 * mappings end on a page boundary (llvmpipe maps the whole buffer).
 * glUnmapBuffer writes a writable copy back and unmaps the real one. Every
 * other entry point is not here: edml's port then takes it from
 * eglGetProcAddress, the real library's. Persistent mappings pass through
 * (the GPU writes them while mapped: a copy cannot stand for them); edml
 * reads them only at offsets it placed there. At exit it writes what it did
 * to EDML_GUARD_REPORT (a file), so a run can show the guard was in place. */
#undef _POSIX_C_SOURCE
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAP_READ 0x1u
#define MAP_WRITE 0x2u
#define MAP_PERSISTENT 0x40u
#define BUFFER_MAP_POINTER 0x88BD
#define GUARDS 64

typedef void *(*map_fn)(unsigned, intptr_t, intptr_t, unsigned);
typedef unsigned char (*unmap_fn)(unsigned);
typedef void (*pointer_fn)(unsigned, unsigned, void **);

static struct guard {
    void *real, *base;
    uint8_t *copy;
    size_t len, span;
    unsigned access;
} guards[GUARDS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static map_fn real_map;
static unmap_fn real_unmap;
static pointer_fn real_pointer;
static unsigned long guarded, passed, largest;

static void load(void)
{
    if (real_map) return;
    const char *path = getenv("EDML_GUARD_REAL_GLES");
    void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib) {
        fprintf(stderr, "guard_gles: the real libGLESv2 (EDML_GUARD_REAL_GLES) cannot be loaded: %s\n", dlerror());
        abort();
    }
    *(void **)&real_pointer = dlsym(lib, "glGetBufferPointerv");
    *(void **)&real_unmap = dlsym(lib, "glUnmapBuffer");
    *(void **)&real_map = dlsym(lib, "glMapBufferRange");
}

void *glMapBufferRange(unsigned target, intptr_t offset, intptr_t length, unsigned access)
{
    pthread_mutex_lock(&lock);
    load();
    void *real = real_map(target, offset, length, access);
    if (!real || length <= 0 || (access & MAP_PERSISTENT)) {
        passed += real != NULL;
        pthread_mutex_unlock(&lock);
        return real;
    }
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)length;
    const size_t data = (len + page - 1) / page * page;
    struct guard *g = NULL;
    for (int i = 0; i < GUARDS && !g; i++)
        if (!guards[i].real) g = &guards[i];
    uint8_t *base = mmap(NULL, data + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!g || base == MAP_FAILED || mprotect(base + data, page, PROT_NONE)) {
        fprintf(stderr, "guard_gles: no room to guard a mapping of %zu bytes\n", len);
        abort();
    }
    *g = (struct guard){
        .real = real, .base = base, .copy = base + data - len, .len = len, .span = data + page, .access = access};
    if (access & MAP_READ)
        memcpy(g->copy, real, len);
    else
        memset(g->copy, 0xa5, len);
    if (!(access & MAP_WRITE)) mprotect(base, data, PROT_READ);
    guarded++;
    largest = len > largest ? len : largest;
    pthread_mutex_unlock(&lock);
    return g->copy;
}

unsigned char glUnmapBuffer(unsigned target)
{
    pthread_mutex_lock(&lock);
    load();
    void *real = NULL;
    real_pointer(target, BUFFER_MAP_POINTER, &real);
    for (int i = 0; real && i < GUARDS; i++) {
        struct guard *g = &guards[i];
        if (g->real != real) continue;
        if (g->access & MAP_WRITE) memcpy(real, g->copy, g->len);
        munmap(g->base, g->span);
        *g = (struct guard){0};
    }
    const unsigned char ok = real_unmap(target);
    pthread_mutex_unlock(&lock);
    return ok;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("EDML_GUARD_REPORT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f) return;
    fprintf(f, "%lu guarded %lu persistent %lu largest\n", guarded, passed, largest);
    fclose(f);
}
