/* Status names, the message formatter and the error buffer of a device. */
#include "internal.h"
#include "edml_port.h"

#define EDMLI_STR2(x) #x
#define EDMLI_STR(x) EDMLI_STR2(x)

const char *edml_version(void)
{
    return EDMLI_STR(EDML_VERSION_MAJOR) "." EDMLI_STR(EDML_VERSION_MINOR) "." EDMLI_STR(EDML_VERSION_PATCH);
}

/* Every status: its name and what it means, in one list. */
#define EDMLI_STATUSES(X)                                                                                     \
    X(OK, "success")                                                                                          \
    X(INVALID_ARGUMENT, "a NULL pointer or a bad argument to an edml function")                               \
    X(INVALID_DESCRIPTOR, "a descriptor breaks a constraint of its operator")                                 \
    X(UNSUPPORTED, "valid in DirectML, but not supported by edml")                                            \
    X(ARENA_TOO_SMALL, "the arena (or the GPU arena) is too small")                                           \
    X(INVALID_BINDING, "a bound buffer is NULL, misaligned, too short, overlapping, or not this device's")    \
    X(INDEX_OUT_OF_RANGE, "GatherND clamped an index that was out of range; the output is written")           \
    X(BACKEND_UNAVAILABLE, "the backend asked for is not built, allowed or working")                          \
    X(BACKEND_FAILED, "the backend failed while running (e.g. a GL error); the outputs are untouched")        \
    X(INVALID_DEVICE, "the device was destroyed or is not an edml device")                                    \
    X(BUSY, "the device is in use by another thread's call (one call at a time per device), or a GPU buffer " \
            "mapped without a persistent mapping holds its GPU back (unmap it); nothing was done")            \
    X(TIMEOUT, "the wait ran out of time; the command list is still running: wait again")                     \
    X(INVALID_HANDLE, "an operator, GPU buffer or command list handle was destroyed, is stale or not this device's")

typedef struct edmli_status_def {
    const char *name, *meaning;
} edmli_status_def;

static const edmli_status_def edmli_status_defs[EDML_STATUS_COUNT_] = {
#define EDMLI_STATUS_DEF(id, meaning) [EDML_STATUS_##id] = {"EDML_STATUS_" #id, meaning},
    EDMLI_STATUSES(EDMLI_STATUS_DEF)
#undef EDMLI_STATUS_DEF
};

#define EDMLI_STATUS_ONE(id, meaning) +1
_Static_assert(0 EDMLI_STATUSES(EDMLI_STATUS_ONE) == EDML_STATUS_COUNT_, "every edml_status is in EDMLI_STATUSES");
#undef EDMLI_STATUS_ONE

const char *edml_status_string(edml_status status)
{
    if ((unsigned)status >= EDML_STATUS_COUNT_) return "EDML_STATUS_UNKNOWN";
    return edmli_status_defs[status].name;
}

const char *edml_status_message(edml_status status)
{
    if ((unsigned)status >= EDML_STATUS_COUNT_) return "not an edml_status";
    return edmli_status_defs[status].meaning;
}

const char *edml_error_without_device(void) { return edmli_port_unrouted(); }

typedef struct edmli_out {
    char *dst;
    size_t cap, len;
} edmli_out;

static void edmli_put(edmli_out *o, char c)
{
    if (o->len + 1 < o->cap) o->dst[o->len] = c;
    o->len++;
}

static void edmli_put_str(edmli_out *o, const char *s)
{
    if (!s) s = "(null)";
    while (*s) edmli_put(o, *s++);
}

static void edmli_put_u64(edmli_out *o, uint64_t v, unsigned base)
{
    char tmp[24];
    int n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v);
    while (n) edmli_put(o, tmp[--n]);
}

static void edmli_put_i64(edmli_out *o, int64_t v)
{
    if (v < 0) {
        edmli_put(o, '-');
        edmli_put_u64(o, (uint64_t)0 - (uint64_t)v, 10);
    } else {
        edmli_put_u64(o, (uint64_t)v, 10);
    }
}

size_t edmli_vformat(char *dst, size_t cap, const char *fmt, va_list ap)
{
    edmli_out o = {dst, cap, 0};
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            edmli_put(&o, *f);
            continue;
        }
        f++;
        if (*f == 's')
            edmli_put_str(&o, va_arg(ap, const char *));
        else if (*f == 'u')
            edmli_put_u64(&o, va_arg(ap, unsigned), 10);
        else if (*f == 'x')
            edmli_put_u64(&o, va_arg(ap, unsigned), 16);
        else if (*f == 'd')
            edmli_put_i64(&o, va_arg(ap, int));
        else if (f[0] == 'z' && f[1] == 'u') {
            f++;
            edmli_put_u64(&o, va_arg(ap, size_t), 10);
        } else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u') {
            f += 2;
            edmli_put_u64(&o, va_arg(ap, unsigned long long), 10);
        } else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'd') {
            f += 2;
            edmli_put_i64(&o, va_arg(ap, long long));
        } else if (*f == '%')
            edmli_put(&o, '%');
        else {
            edmli_put(&o, '%');
            if (!*f) break;
            edmli_put(&o, *f);
        }
    }
    if (cap) dst[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

size_t edmli_format(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = edmli_vformat(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

edml_status edmli_fail(edmli_errbuf *e, edml_status status, const char *format, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, format);
        edmli_vformat(e->text, sizeof e->text, format, ap);
        va_end(ap);
    }
    return status;
}
