/* Start-up code for an AArch64 bare-metal program that runs edml: enough for
 * qemu-system-aarch64 -M virt and a Raspberry Pi 3/4/5 loaded as kernel8.img.
 *
 *  1. Core 0 goes on; any other core waits for ever (wfe).
 *  2. From EL3 or EL2 (the Pi's firmware enters at EL2) it drops to EL1,
 *     EL2 (where there is one) set to let an AArch64 EL1 use FP and timers.
 *  3. The stack; FP and Advanced SIMD (NEON) enabled in CPACR_EL1: the
 *     compiler uses them everywhere, edml's NEON kernels too.
 *  4. The exception vectors (VBAR_EL1): any exception calls bm_exception()
 *     with what happened instead of hanging.
 *  5. .bss zeroed, then bm_startup() (startup.c): the MMU and caches, the C
 *     library, main().
 *
 * Symbols from link.ld: __stack_top, __bss_start, __bss_end. */

#define SPSR_EL1H_MASKED 0x3c5        /* EL1 with SP_EL1, D, A, I, F masked */
#define HCR_EL2_RW (1 << 31)          /* EL1 runs AArch64 */
#define SCR_EL3_EL1_NS_A64 0x431      /* RW, RES1 bits 4-5, NS */
#define SCTLR_EL1_RES1 0x30d00800     /* caches, MMU, alignment checks off */
#define CPTR_EL2_NO_TRAPS 0x33ff      /* the RES1 bits; FP and SIMD not trapped */
#define CPACR_EL1_FPEN (3 << 20)      /* FP and SIMD not trapped at EL0/EL1 */

    .section .text.boot, "ax"
    .global _start
_start:
    mrs     x0, mpidr_el1
    and     x0, x0, #0xff             /* Aff0: the core within its cluster */
    cbz     x0, 1f
0:  wfe
    b       0b

1:  mrs     x20, CurrentEL
    lsr     x20, x20, #2              /* kept for bm_startup */
    cmp     x20, #3
    b.eq    from_el3
    cmp     x20, #2
    b.eq    from_el2
    b       at_el1

from_el3:
    ldr     x0, =SCR_EL3_EL1_NS_A64
    msr     scr_el3, x0
    msr     cptr_el3, xzr             /* FP and SIMD not trapped to EL3 */
    mrs     x0, id_aa64pfr0_el1
    ubfx    x0, x0, #8, #4            /* EL2 implemented? Then it must let */
    cbz     x0, 1f                    /* an AArch64 EL1 use FP: set it up */
    bl      el2_for_el1
1:  ldr     x0, =SCTLR_EL1_RES1
    msr     sctlr_el1, x0
    mov     x0, #SPSR_EL1H_MASKED
    msr     spsr_el3, x0
    adr     x0, at_el1
    msr     elr_el3, x0
    eret

from_el2:
    bl      el2_for_el1
    ldr     x0, =SCTLR_EL1_RES1
    msr     sctlr_el1, x0
    mov     x0, #SPSR_EL1H_MASKED
    msr     spsr_el2, x0
    adr     x0, at_el1
    msr     elr_el2, x0
    eret

/* EL2's registers for an AArch64 EL1 that owns the timer and FP */
el2_for_el1:
    mov     x0, #HCR_EL2_RW
    msr     hcr_el2, x0
    mrs     x0, cnthctl_el2
    orr     x0, x0, #3                /* EL1 may read the counter and timer */
    msr     cnthctl_el2, x0
    msr     cntvoff_el2, xzr
    ldr     x0, =CPTR_EL2_NO_TRAPS
    msr     cptr_el2, x0
    ret

at_el1:
    ldr     x0, =__stack_top
    mov     sp, x0
    mov     x0, #CPACR_EL1_FPEN
    msr     cpacr_el1, x0
    isb
    ldr     x0, =bm_vectors
    msr     vbar_el1, x0
    isb
    /* .bss: 16-byte aligned at both ends by link.ld */
    ldr     x0, =__bss_start
    ldr     x1, =__bss_end
2:  cmp     x0, x1
    b.hs    3f
    stp     xzr, xzr, [x0], #16
    b       2b
3:  mov     x0, x20
    bl      bm_startup
4:  wfe                               /* bm_startup does not return */
    b       4b

/* The vector table: 16 entries of 128 bytes, 2 KiB aligned. Each passes its
 * number (0-3: current EL with SP_EL0, 4-7: current EL with SP_ELx, 8-15:
 * lower ELs; in each group synchronous, IRQ, FIQ, SError) and the syndrome,
 * the return address and the fault address to bm_exception(). */
    .macro vector n
    .balign 0x80
    mov     x0, #\n
    mrs     x1, esr_el1
    mrs     x2, elr_el1
    mrs     x3, far_el1
    b       bm_exception
    .endm

    .section .text.vectors, "ax"
    .balign 0x800
    .global bm_vectors
bm_vectors:
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    vector \n
    .endr
