/* libFuzzer target: the .case parser on any bytes. It must parse or reject
 * with a message naming file and line, never crash; what it accepts is run on
 * the reference backend (malformed tensors are the library's to reject). */
#include "case.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static edml_device *dev;
    if (!dev) {
        char why[128];
        dev = case_device_new(EDML_BACKEND_REF, 1, 0u, why, sizeof why);
        if (!dev) abort();
    }
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    edml_case *c = calloc(1, sizeof *c);
    char err[CASE_MSG];
    if (case_parse(text, "fuzz.case", c, err, sizeof err) == 0) {
        uint64_t total = 0;
        for (int i = 0; i < c->ninputs; i++) total += c->inputs[i].total_bytes;
        for (int i = 0; i < c->noutputs; i++) total += c->outputs[i].total_bytes;
        if (total < (1u << 22)) {
            case_result r;
            char why[CASE_MSG + 300];
            case_check(c, dev, EDML_BACKEND_REF, &r, why, sizeof why);
            case_result_free(&r);
        }
    } else if (strncmp(err, "fuzz.case:", 10) != 0) {
        abort(); /* every parse error names file and line */
    }
    case_free(c);
    free(c);
    free(text);
    return 0;
}
