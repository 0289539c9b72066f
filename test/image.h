/* The on-device test image: every test vector built in. */
#ifndef EDML_TEST_IMAGE_H
#define EDML_TEST_IMAGE_H
typedef struct edml_embedded_case {
    const char *path;
    const char *text;
} edml_embedded_case;
extern const edml_embedded_case edml_embedded_cases[];
extern const int edml_embedded_case_count;
#endif
