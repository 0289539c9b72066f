/* The port without GL: fully static images, boards without a GPU. */
#include "../edml_port.h"

bool edmli_port_gl_open(edmli_port_gl *p, uint32_t faults, char *why, size_t cap)
{
    (void)p;
    (void)faults;
    static const char msg[] = "this library was built without GL (PORT=none)";
    size_t i = 0; /* no C library: copied, cut to fit with its terminator */
    for (; i + 1 < cap && msg[i]; i++) why[i] = msg[i];
    if (cap) why[i] = '\0';
    return false;
}

bool edmli_port_gl_make_current(edmli_port_gl *p)
{
    (void)p;
    return false;
}
bool edmli_port_gl_per_thread(const edmli_port_gl *p)
{
    (void)p;
    return false;
}
void edmli_port_gl_end_call(edmli_port_gl *p) { (void)p; }
bool edmli_port_gl_owns_current(edmli_port_gl *p)
{
    (void)p;
    return false;
}
void edmli_port_gl_release(edmli_port_gl *p) { (void)p; }
void edmli_port_gl_close(edmli_port_gl *p) { (void)p; }

uint32_t edmli_port_cpu_count(void) { return 1; }

/* No clock without an OS (and no GPU to measure against the CPU). */
uint64_t edmli_port_now_ns(void) { return 0; }

/* Without an OS one pointer serves (a constant string: a race gives another
 * call's whole message, never a torn one). */
static const char *volatile edmli_unrouted;

void edmli_port_set_unrouted(const char *message) { edmli_unrouted = message; }

const char *edmli_port_unrouted(void) { return edmli_unrouted ? edmli_unrouted : ""; }
