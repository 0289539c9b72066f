/* The bare-metal example's start-up: start.S and startup.c. */
#ifndef EDML_BAREMETAL_H
#define EDML_BAREMETAL_H
#include <stdint.h>

/* start.S calls it at EL1 with .bss zeroed and the stack set, giving the
 * exception level the core started at: the MMU and caches on, picolibc's
 * thread-local block and constructors, then exit(main()). */
void bm_startup(uint64_t entry_el) __attribute__((noreturn));

/* the exception level the core started at (3, 2 or 1) */
extern uint64_t bm_entry_el;

/* Every exception vector lands here: prints what happened and exits with
 * 128 + its kind (0 synchronous, 1 IRQ, 2 FIQ, 3 SError). */
void bm_exception(uint64_t vector, uint64_t esr, uint64_t elr, uint64_t far) __attribute__((noreturn));
#endif
