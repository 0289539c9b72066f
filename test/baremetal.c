/* The bare-metal test image's own checks (make test-baremetal): the state in
 * which examples/baremetal's start-up code leaves the core, read back from
 * the system registers and from the MMU's own translation (AT S1E1R), since
 * qemu does not fault the unaligned accesses a missing MMU would let through
 * on a real core. `--fault` reads an address the map leaves out: the
 * exception vectors must report it (test/check-baremetal.sh). */
#include "image.h"
#include "../examples/baremetal/baremetal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SYSREG(name)                                  \
    static uint64_t read_##name(void)                 \
    {                                                 \
        uint64_t v;                                   \
        __asm__ volatile("mrs %0, " #name : "=r"(v)); \
        return v;                                     \
    }
SYSREG(sctlr_el1)
SYSREG(cpacr_el1)
SYSREG(CurrentEL)

/* PAR_EL1 after the MMU translated p for a read at EL1 */
static uint64_t translate(uintptr_t p)
{
    uint64_t par;
    __asm__ volatile("at s1e1r, %1\n"
                     "isb\n"
                     "mrs %0, par_el1"
                     : "=r"(par)
                     : "r"(p)
                     : "memory");
    return par;
}

static void check(bool ok, const char *what, int *passed, int *failed)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    ok ? ++*passed : ++*failed;
}

/* mapped, identity, with the attribute MAIR gives (0xff: Normal write-back) */
static bool mapped_as(uintptr_t p, uint64_t attr)
{
    uint64_t par = translate(p);
    return !(par & 1) && (par & 0xfffffffff000ull) == (p & ~(uintptr_t)0xfff) && (par >> 56) == attr;
}

static int data_word = 1;
#define UNMAPPED 0x80000000u /* above the 1 GiB of RAM the map gives */

void image_platform_checks(int *passed, int *failed)
{
    int stack_word = 0;
    static char heap_probe[64];
    uint64_t sctlr = read_sctlr_el1();
    char line[80];
    snprintf(line, sizeof line, "bare metal: started at EL%u, running at EL1", (unsigned)bm_entry_el);
    check(read_CurrentEL() >> 2 == 1 && bm_entry_el >= 1 && bm_entry_el <= 3, line, passed, failed);
    check((sctlr & 1) && (sctlr & 4) && (sctlr & 0x1000) && !(sctlr & 2),
          "bare metal: MMU, data and instruction caches on, alignment checks off (SCTLR_EL1)", passed, failed);
    check(((read_cpacr_el1() >> 20) & 3) == 3, "bare metal: FP and NEON not trapped (CPACR_EL1.FPEN)", passed, failed);
    check(mapped_as((uintptr_t)&stack_word, 0xff) && mapped_as((uintptr_t)&data_word, 0xff) &&
              mapped_as((uintptr_t)heap_probe, 0xff) && mapped_as((uintptr_t)&image_platform_checks, 0xff),
          "bare metal: stack, data, bss and code identity-mapped as Normal write-back memory", passed, failed);
    check(mapped_as(0x09000000u, 0x00), "bare metal: the UART mapped as Device-nGnRnE", passed, failed);
    check(translate(UNMAPPED) & 1, "bare metal: an address outside the map does not translate", passed, failed);
}

bool image_platform_arg(const char *arg)
{
    if (strcmp(arg, "--fault")) return false;
    printf("reading 0x%x, outside the map\n", UNMAPPED);
    printf("read %u: no exception\n", *(volatile uint32_t *)(uintptr_t)UNMAPPED);
    return true;
}
