/* The board report's facts about the board itself (tools/bench/report.c):
 * what Linux says of its CPU, clocks, kernel and temperature, the
 * firmware's throttling flags where it exposes them, and what its GL
 * driver says of itself. Each is read where the board has it and left out
 * (null) where it does not. */
#define _GNU_SOURCE
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The first line of a file (its newline cut), or "" where it cannot be read. */
static const char *first_line(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return buf;
    if (!fgets(buf, (int)cap, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* /proc/cpuinfo's value for `key` (its first), or "". */
static const char *cpuinfo(const char *key, char *buf, size_t cap)
{
    char line[256];
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return buf;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon || strncmp(line, key, strlen(key)) || (line[strlen(key)] != ' ' && line[strlen(key)] != '\t'))
            continue;
        snprintf(buf, cap, "%s", colon + 2);
        buf[strcspn(buf, "\n")] = '\0';
        break;
    }
    fclose(f);
    return buf;
}

/* Arm's names for the CPU parts the boards have (MIDR part numbers). */
static const char *arm_core(const char *part)
{
    static const struct {
        long part;
        const char *name;
    } cores[] = {{0xd03, "Cortex-A53"}, {0xd04, "Cortex-A35"}, {0xd05, "Cortex-A55"},   {0xd07, "Cortex-A57"},
                 {0xd08, "Cortex-A72"}, {0xd09, "Cortex-A73"}, {0xd0a, "Cortex-A75"},   {0xd0b, "Cortex-A76"},
                 {0xd0d, "Cortex-A77"}, {0xd41, "Cortex-A78"}, {0xd42, "Cortex-A78AE"}, {0xd0c, "Neoverse-N1"}};
    const long p = strtol(part, NULL, 16);
    for (size_t i = 0; i < sizeof cores / sizeof *cores; i++)
        if (cores[i].part == p) return cores[i].name;
    return part;
}

bool report_emulated(char *why, size_t cap)
{
    char vendor[64], implementer[32];
    cpuinfo("vendor_id", vendor, sizeof vendor);
    cpuinfo("CPU implementer", implementer, sizeof implementer);
#if defined(__aarch64__) || defined(__arm__)
    /* an Arm program on a kernel that reports an x86 processor: qemu-user */
    if (vendor[0] && !implementer[0]) {
        snprintf(why, cap, "an Arm program on a kernel whose processor is %s (vendor_id): emulated, qemu-user", vendor);
        return true;
    }
#endif
    (void)cap;
    why[0] = '\0';
    return false;
}

void report_thermal(report_heat *h)
{
    char buf[64];
    memset(h, 0, sizeof *h);
    first_line("/sys/class/thermal/thermal_zone0/temp", buf, sizeof buf);
    h->has_temp = buf[0] != '\0';
    h->celsius = h->has_temp ? atof(buf) / 1000.0 : 0;
    /* the Raspberry Pi firmware's flags (vcgencmd get_throttled): bits 0-3
     * now (under-voltage, frequency capped, throttled, soft temperature
     * limit), 16-19 since boot */
    first_line("/sys/devices/platform/soc/soc:firmware/get_throttled", buf, sizeof buf);
    h->has_flags = buf[0] != '\0';
    h->flags = h->has_flags ? (unsigned)strtoul(buf, NULL, 16) : 0;
    h->throttled = (h->has_flags && (h->flags & 0xfu)) || (h->has_temp && h->celsius >= 80.0);
}

void report_heat_json(FILE *f, const report_heat *h)
{
    fprintf(f, "{\"celsius\": ");
    h->has_temp ? fprintf(f, "%.1f", h->celsius) : fprintf(f, "null");
    fprintf(f, ", \"firmware_flags\": ");
    h->has_flags ? fprintf(f, "\"0x%x\"", h->flags) : fprintf(f, "null");
    /* null where neither could be read: unknown, not "not throttled" */
    fprintf(f, ", \"throttled\": %s}", !h->has_flags && !h->has_temp ? "null" : h->throttled ? "true" : "false");
}

/* What the GL driver says of itself: renderer, version, the extensions
 * edml uses, the limits that shape its kernels. */
static void report_gl(FILE *f)
{
    static edmli_port_gl port;
    char why[256];
    if (!edmli_port_gl_open(&port, 0, why, sizeof why)) {
        fprintf(f, ",\n    \"gl\": {\"none\": ");
        json_str(f, why);
        fprintf(f, "}");
        return;
    }
    const edmli_gl *gl = &port.gl;
    const char *ext = (const char *)gl->glGetString(EDMLI_GL_EXTENSIONS);
    int inv = 0, formats = 0, shared = 0, ssbo = 0;
    gl->glGetIntegerv(EDMLI_GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &inv);
    gl->glGetIntegerv(EDMLI_GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    gl->glGetIntegerv(EDMLI_GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
    gl->glGetIntegerv(EDMLI_GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ssbo);
    fprintf(f, ",\n    \"gl\": {\"renderer\": ");
    json_str(f, (const char *)gl->glGetString(EDMLI_GL_RENDERER));
    fprintf(f, ", \"version\": ");
    json_str(f, (const char *)gl->glGetString(EDMLI_GL_VERSION));
    fprintf(f,
            ", \"robustness\": %s, \"buffer_storage\": %s, \"parallel_compile\": %s, \"program_binary_formats\": %d, "
            "\"max_invocations\": %d, \"shared_bytes\": %d, \"max_storage_block\": %u}",
            ext && (strstr(ext, "GL_KHR_robustness") || strstr(ext, "GL_EXT_robustness")) ? "true" : "false",
            ext && strstr(ext, "GL_EXT_buffer_storage") ? "true" : "false",
            ext && strstr(ext, "GL_KHR_parallel_shader_compile") ? "true" : "false", formats, inv, shared,
            (unsigned)ssbo);
    edmli_port_gl_close(&port);
}

void report_identity(FILE *f)
{
    char model[128], cpu[128], part[32], freq[32], cur[32];
    struct utsname u;
    memset(&u, 0, sizeof u);
    uname(&u);
    first_line("/proc/device-tree/model", model, sizeof model);
    if (!cpuinfo("model name", cpu, sizeof cpu)[0] && cpuinfo("CPU part", part, sizeof part)[0])
        snprintf(cpu, sizeof cpu, "%s", arm_core(part));
    first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", freq, sizeof freq);
    first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", cur, sizeof cur);
    char emulation[200];
    const bool emulated = report_emulated(emulation, sizeof emulation);
    if (emulated)
        snprintf(cpu, sizeof cpu, "unknown (emulated)"), freq[0] = cur[0] = '\0'; /* the host's, not the board's */
    fprintf(f, "  \"identity\": {\n    \"model\": ");
    json_str(f, model);
    fprintf(f, ",\n    \"emulated\": %s,\n    \"emulation\": ", emulated ? "true" : "false");
    json_str(f, emulation);
    fprintf(f, ",\n    \"cpu\": ");
    json_str(f, cpu);
    fprintf(f, ",\n    \"cores\": ");
    emulated ? fprintf(f, "null") : fprintf(f, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, ",\n    \"max_mhz\": ");
    freq[0] ? fprintf(f, "%.0f", atof(freq) / 1000) : fprintf(f, "null");
    fprintf(f, ",\n    \"current_mhz\": ");
    cur[0] ? fprintf(f, "%.0f", atof(cur) / 1000) : fprintf(f, "null");
    fprintf(f, ",\n    \"kernel\": ");
    char kernel[200];
    snprintf(kernel, sizeof kernel, "%s %s %s", u.sysname, u.release, u.machine);
    json_str(f, kernel);
    report_gl(f);
    fprintf(f, "\n  },\n");
    char cores[32] = "cores unknown";
    if (!emulated) snprintf(cores, sizeof cores, "%ld cores", sysconf(_SC_NPROCESSORS_ONLN));
    printf("board: %s; CPU %s, %s; %s%s%s\n", model[0] ? model : "model unknown", cpu[0] ? cpu : "unknown", cores,
           kernel, emulated ? "; EMULATED: " : "", emulated ? emulation : "");
}
