/* The on-device test image: every test vector built in. */
#ifndef EDML_TEST_IMAGE_H
#define EDML_TEST_IMAGE_H
#include <stdbool.h>
typedef struct edml_embedded_case {
    const char *path;
    const char *text;
} edml_embedded_case;
extern const edml_embedded_case edml_embedded_cases[];
extern const int edml_embedded_case_count;

/* What the platform checks besides the library (test/image_hosted.c: nothing;
 * test/baremetal.c: the start-up code's MMU, caches and vectors), counted
 * in passed and failed; and its own arguments (true: taken). */
void image_platform_checks(int *passed, int *failed);
bool image_platform_arg(const char *arg);
#endif
