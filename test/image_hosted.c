/* The test image under an OS: no checks or arguments of its own (the
 * bare-metal image has test/baremetal.c in its place). */
#include "image.h"

void image_platform_checks(int *passed, int *failed) { (void)passed, (void)failed; }

bool image_platform_arg(const char *arg)
{
    (void)arg;
    return false;
}
