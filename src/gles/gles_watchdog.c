/* V3D's watchdog, as a model. The Raspberry Pi's kernel driver resets a
 * compute job when no batch of 16 invocations finishes within 500 ms;
 * splitting dispatches by workgroups bounds none of an invocation's loops.
 * The model: an invocation runs at most T loop iterations (its loops'
 * trips added up, nested ones multiplied), each costing at most the largest
 * loop body B that Mesa's V3D compiler makes of the kernel (nested loops
 * included once), plus the program's P instructions once; a QPU issues an
 * instruction of a 16-invocation batch every 4 cycles, shared by its
 * `threads` threads: (T x B + P) x 4 x threads cycles at 500 MHz. It
 * ignores memory stalls (the TMU's latency hides behind the other threads
 * only in part), so the budget is 50 ms, a tenth of the watchdog's.
 * edmli_gles_worst_trips() gives T for each kernel at the largest shape
 * the planner gives it on this device (V3D's caps of gles_shapes.h and the
 * largest storage block the driver binds); make gpu-targets reads B, P and
 * threads from the compiler's own listing (toolchain/v3d-loops) and fails
 * a kernel over the budget. */
#include "gles.h"

#define EDMLI_D EDMLI_PRM_DIMS /* a tensor's dims, and so a walk's trips */

/* shaders/output.glsl's write_output: up to four elements a word, each
 * mapped back to its coordinates (3 D) and computed (`compute`). */
static uint64_t edmli_write_output(uint64_t compute) { return 4u * (3u * EDMLI_D + compute); }

/* bitonic(n, n) of topk_select.comp: log2 n (log2 n + 1) / 2 stages, each a
 * loop over n / LOCAL. */
static uint64_t edmli_bitonic(uint64_t n, uint32_t local)
{
    uint64_t lg = 0;
    while ((1ull << lg) < n) lg++;
    return lg * (lg + 1) / 2 * ((n + local - 1) / local);
}

/* topk_select.comp: short rows sorted side by side (at most SORT_MAX of a
 * workgroup's slots); a long row (at most WATCHDOG_SELECT_ROW): its
 * threshold and take passes, up to 8 radix passes (a histogram cleared,
 * the row read, the copies folded, invocation 0 scanning 256 buckets), the
 * equal keys' chunk read twice and invocation 0's prefix over LOCAL, the
 * final sort. */
static uint64_t edmli_trips_select(const edmli_gles *g)
{
    const uint32_t L = g->local;
    const uint64_t S = g->sort_max, n = EDMLI_GLES_WATCHDOG_SELECT_ROW, row = n / L;
    const uint64_t short_rows = 2 + edmli_bitonic(S, L) + S / L + EDMLI_D;
    const uint64_t pass = 2048 / L + row + 8 * (256 / L + 1) + 256;
    const uint64_t long_row =
        EDMLI_D + row + edmli_bitonic(L, L) + row + 8 * pass + 2 * row + L + edmli_bitonic(S, L) + S / L;
    return long_row > short_rows ? long_row : short_rows;
}

/* argreduce.comp's set chunk (its reduced dims walked an element each,
 * at most D carries), argreduce_partial's threads' shares of a long row's
 * chunk (at most max(64, N / ROW_TARGET / LOCAL) elements a thread, each
 * maybe a walk over D dims, then the merges), argreduce_cols's batches and
 * four outputs, argreduce_final's chunks (at most N / WATCHDOG_REDUCE_CHUNK
 * an output, LOCAL threads) and tree. */
static uint64_t edmli_trips_reduce(const edmli_gles *g, edmli_gles_prog prog, uint64_t n)
{
    const uint32_t L = g->local;
    const uint64_t out4 = 4 * edmli_write_output(0), tree = 2 * 16;
    uint64_t share = n / EDMLI_GLES_REDUCE_ROW_TARGET / L;
    if (share < 64) share = 64;
    switch (prog) {
    case EDMLI_GLES_PROG_ARGREDUCE:
        return EDMLI_D + 8 + (uint64_t)EDMLI_GLES_WATCHDOG_REDUCE_CHUNK * (1 + EDMLI_D) + out4;
    case EDMLI_GLES_PROG_ARGREDUCE_PARTIAL:
        return EDMLI_D + share * (1 + EDMLI_D) + tree + EDMLI_GLES_REDUCE_ROW_TARGET / 32 + edmli_write_output(0);
    case EDMLI_GLES_PROG_ARGREDUCE_PARTIAL_VEC:
        return EDMLI_D + share / 8 + 1 + tree + EDMLI_GLES_REDUCE_ROW_TARGET / 32 + edmli_write_output(0);
    case EDMLI_GLES_PROG_ARGREDUCE_COLS: return EDMLI_D + 2u * EDMLI_GLES_WATCHDOG_COLS_BATCHES + out4;
    default: /* argreduce_final */ return n / EDMLI_GLES_WATCHDOG_REDUCE_CHUNK / L + 1 + 16 + edmli_write_output(0);
    }
}

uint64_t edmli_gles_worst_trips(const edmli_gles *g, edmli_gles_prog prog)
{
    const uint64_t n = g->max_ssbo; /* elements of a byte: the most a tensor holds */
    const uint64_t fold = (uint64_t)EDMLI_GLES_WATCHDOG_FOLD_LISTS * EDMLI_GLES_TOPK_THREAD_8_MAX_K + 6 * 16;
    switch (prog) {
    case EDMLI_GLES_PROG_COPY:
    case EDMLI_GLES_PROG_ELEMENTWISE_IF_VEC: return 0;
    case EDMLI_GLES_PROG_ELEMENTWISE_IF: return 4 * edmli_write_output(2 * EDMLI_D); /* a tail of 4 units */
    case EDMLI_GLES_PROG_GATHER_ND: return edmli_write_output(2 * EDMLI_D);
    case EDMLI_GLES_PROG_TOPK_OUT: return edmli_write_output(2 * EDMLI_D);
    case EDMLI_GLES_PROG_TOPK_RANK: return EDMLI_D + EDMLI_GLES_TOPK_RANK_MAX_ROW;
    case EDMLI_GLES_PROG_TOPK_SMALL: { /* own_best over a row's share, K + 1 times; both outputs */
        const uint64_t share = (g->sort_max + g->local - 1) / g->local;
        return share * (EDMLI_GLES_TOPK_SMALL_MAX_K + 2) + 2 * edmli_write_output(0);
    }
    case EDMLI_GLES_PROG_TOPK_THREAD_8: /* a chunk's elements, or a fold's lists and tree */
        return EDMLI_D + (EDMLI_GLES_WATCHDOG_TOPK_CHUNK > fold ? EDMLI_GLES_WATCHDOG_TOPK_CHUNK : fold);
    case EDMLI_GLES_PROG_TOPK_THREAD: /* blocks of 16 elements, lists merged whole */
        return EDMLI_D + EDMLI_GLES_WATCHDOG_TOPK_CHUNK / 16 + EDMLI_GLES_WATCHDOG_FOLD_LISTS + 6;
    case EDMLI_GLES_PROG_TOPK_SELECT: return edmli_trips_select(g);
    default: return edmli_trips_reduce(g, prog, n);
    }
}
