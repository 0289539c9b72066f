/* What start.S calls: the MMU and caches, the C library (picolibc), main().
 *
 * The MMU matters: with it off every access is to Device memory, where an
 * unaligned access faults, and compiled code (memcpy, NEON kernels, packed
 * tensors) makes them all the time; the caches are off too. The map below is
 * identity (virtual = physical), 4 KiB granule, 4 GiB of address space in
 * 2 MiB blocks: one level-1 table and four level-2 tables, 20 KiB.
 *
 * To port it, change bm_memory_map for the board (and link.ld's RAM). */
#include "baremetal.h"

#include <semihost.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    BM_DEVICE = 0,
    BM_NORMAL = 1
}; /* indices into MAIR_EL1, below */

typedef struct bm_region {
    uint64_t base, bytes; /* 2 MiB multiples */
    int kind;
} bm_region;

/* qemu-system-aarch64 -M virt: flash, GIC, UART and virtio below 1 GiB, RAM
 * from 1 GiB. A Raspberry Pi 4 would be {0, 0xfc000000, BM_NORMAL} and
 * {0xfc000000, 0x04000000, BM_DEVICE} (RAM, then the peripherals in low
 * peripheral mode); a Pi 3: {0, 0x3f000000, BM_NORMAL},
 * {0x3f000000, 0x01000000, BM_DEVICE}. Addresses not listed fault. */
static const bm_region bm_memory_map[] = {
    {0x00000000u, 0x40000000u, BM_DEVICE},
    {0x40000000u, 0x40000000u, BM_NORMAL},
};

#define BM_BLOCK (2u << 20)
#define BM_L2_TABLES 4u
static _Alignas(4096) uint64_t bm_l1[512];
static _Alignas(4096) uint64_t bm_l2[BM_L2_TABLES][512];

/* block descriptor bits */
#define BM_VALID_BLOCK 0x1ull
#define BM_VALID_TABLE 0x3ull
#define BM_ATTR(i) ((uint64_t)(i) << 2)
#define BM_INNER_SHAREABLE (3ull << 8)
#define BM_ACCESS_FLAG (1ull << 10)
#define BM_NEVER_EXECUTE ((1ull << 53) | (1ull << 54)) /* PXN, UXN */

/* MAIR_EL1: attribute 0 Device-nGnRnE, 1 Normal write-back read/write-allocate */
#define BM_MAIR 0xff00ull
/* TCR_EL1: T0SZ 32 (4 GiB from level 1), walks write-back cacheable and inner
 * shareable, 4 KiB granule, TTBR1 walks off (EPD1), 32-bit physical addresses */
#define BM_TCR ((32ull) | (1ull << 8) | (1ull << 10) | (3ull << 12) | (1ull << 23))
#define BM_SCTLR_ON ((1ull << 0) | (1ull << 2) | (1ull << 12)) /* M, C, I */
#define BM_SCTLR_ALIGN_CHECK (1ull << 1)

/* Runs with the MMU off (Device memory): aligned 8-byte stores only; this file
 * is compiled with -mstrict-align. */
static void bm_map(void)
{
    for (unsigned t = 0; t < BM_L2_TABLES; t++) bm_l1[t] = (uint64_t)(uintptr_t)bm_l2[t] | BM_VALID_TABLE;
    for (size_t r = 0; r < sizeof bm_memory_map / sizeof bm_memory_map[0]; r++) {
        const bm_region *m = &bm_memory_map[r];
        for (uint64_t a = m->base; a < m->base + m->bytes; a += BM_BLOCK) {
            uint64_t d = a | BM_VALID_BLOCK | BM_ACCESS_FLAG | BM_ATTR(m->kind);
            d |= m->kind == BM_NORMAL ? BM_INNER_SHAREABLE : BM_NEVER_EXECUTE;
            bm_l2[a >> 30][(a >> 21) & 511] = d;
        }
    }
}

static void bm_mmu_on(void)
{
    uint64_t sctlr;
    bm_map();
    __asm__ volatile("dsb ish\n"
                     "msr mair_el1, %0\n"
                     "msr tcr_el1, %1\n"
                     "msr ttbr0_el1, %2\n"
                     "isb\n"
                     "tlbi vmalle1\n"
                     "dsb ish\n"
                     "isb\n"
                     "ic iallu\n"
                     "dsb ish\n"
                     "isb\n" ::"r"(BM_MAIR),
                     "r"(BM_TCR), "r"((uint64_t)(uintptr_t)bm_l1)
                     : "memory");
    __asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
    sctlr = (sctlr | BM_SCTLR_ON) & ~BM_SCTLR_ALIGN_CHECK;
    __asm__ volatile("msr sctlr_el1, %0\n"
                     "isb\n" ::"r"(sctlr)
                     : "memory");
}

/* picolibc: its thread-local block (errno), constructors */
extern char __tls_block[];
void _init_tls(void *tls);
void _set_tls(void *tls);
void __libc_init_array(void);

/* The command line through semihosting, cut at spaces: qemu gives the
 * program's file name, then what -append says. */
static int bm_arguments(char **argv, int most)
{
    static char line[512];
    static char name[] = "baremetal";
    int argc = 0;
    if (sys_semihost_get_cmdline(line, (int)sizeof line) != 0) line[0] = 0;
    for (char *p = line; *p && argc < most - 1;) {
        while (*p == ' ') *p++ = 0;
        if (!*p) break;
        argv[argc++] = p;
        while (*p && *p != ' ') p++;
    }
    if (argc == 0) argv[argc++] = name;
    argv[argc] = NULL;
    return argc;
}

int main(int argc, char **argv);

uint64_t bm_entry_el;

void bm_startup(uint64_t entry_el)
{
    static char *argv[32];
    bm_mmu_on();
    bm_entry_el = entry_el;
    _init_tls(__tls_block);
    _set_tls(__tls_block);
    __libc_init_array();
    int argc = bm_arguments(argv, 32);
    exit(main(argc, argv));
}

static const char *const bm_vector_names[4] = {"synchronous", "IRQ", "FIQ", "SError"};

void bm_exception(uint64_t vector, uint64_t esr, uint64_t elr, uint64_t far)
{
    printf("EXCEPTION %s (vector %u, %s): ESR_EL1 0x%llx (class 0x%llx) at 0x%llx, address 0x%llx\n",
           bm_vector_names[vector & 3], (unsigned)vector, vector < 8 ? "this EL" : "lower EL", (unsigned long long)esr,
           (unsigned long long)(esr >> 26), (unsigned long long)elr, (unsigned long long)far);
    exit(128 + (int)(vector & 3));
}
