/* gles-prelude: prints the GLSL prelude the GLES backend puts before a
 * kernel (its parameter accessors included), for test/check-shaders.sh to
 * check every program offline as the driver will compile it.
 *   gles-prelude PROGRAM LOCAL      (PROGRAM: a program's name, <file><variant>)
 *   gles-prelude --list             (each program's name, its shaders/<file>.comp and the
 *                                    GLSL between common.glsl and it: output.glsl, topk.glsl) */
#include "gles/gles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int p = 0; p < EDMLI_GLES_PROG_COUNT; p++)
            printf("%s %s%s%s\n", edmli_gles_src_name[p], edmli_gles_src_file[p],
                   edmli_gles_src_libs[p] & EDMLI_GLES_LIBS_OUT ? " output" : "",
                   edmli_gles_src_libs[p] & EDMLI_GLES_LIBS_TOPK ? " topk" : "");
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gles-prelude PROGRAM LOCAL | --list\n");
        return 2;
    }
    for (int p = 0; p < EDMLI_GLES_PROG_COUNT; p++) {
        if (strcmp(argv[1], edmli_gles_src_name[p])) continue;
        static char buf[32768];
        size_t n = edmli_gles_prelude((edmli_gles_prog)p, (uint32_t)atoi(argv[2]), 1024, buf, sizeof buf);
        if (n >= sizeof buf) return 1;
        fputs(buf, stdout);
        return 0;
    }
    fprintf(stderr, "gles-prelude: no program %s\n", argv[1]);
    return 2;
}
