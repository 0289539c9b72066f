/* insncount: a qemu-user TCG plugin that counts the guest instructions a
 * program executes and prints "guest_insns N" on stderr when it exits.
 * Counts repeat exactly from run to run (unlike wall time under emulation),
 * which is what `make bench-insns` needs to compare kernels.
 *
 *   cc -O2 -shared -fPIC -fvisibility=hidden tools/insncount.c -o libinsncount.so
 *   qemu-aarch64 -plugin ./libinsncount.so -L /usr/aarch64-linux-gnu ./program
 *
 * It needs no QEMU headers: the few entry points of QEMU's plugin API
 * (version 1, as in Debian 12's qemu-user 7.2) are declared here. Each
 * translated block gets an inline add of its instruction count, executed
 * every time the block runs, so the count costs no call per block.
 *
 * With the argument `hot` (-plugin ./libinsncount.so,hot=on) it also counts
 * per block and prints the 30 hottest block addresses ("hot ADDR INSNS"),
 * for addr2line -f -e PROGRAM: where a kernel's instructions go; with `all`
 * as well (hot=on,all=on), every block. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t plugin_id;
struct qemu_plugin_tb;
typedef struct plugin_info {
    const char *target_name;
    struct {
        int min, cur;
    } version;
    _Bool system_emulation;
} plugin_info;
enum {
    INLINE_ADD_U64 = 0
};

void qemu_plugin_register_vcpu_tb_trans_cb(plugin_id id, void (*cb)(plugin_id, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(plugin_id id, void (*cb)(plugin_id, void *), void *userdata);

EXPORT int qemu_plugin_version = 1;

static uint64_t executed;

/* per-block counts, with `hot`: a block translated again gets a new record */
typedef struct block {
    uint64_t addr, insns;
} block;
static block *blocks;
static size_t nblocks, cap;
static int hot, all;   /* all: every block in the report, not the 30 hottest */
static block **chunks; /* every chunk of records, for the report */
static size_t nchunks;

static void on_translate(plugin_id id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, INLINE_ADD_U64, &executed, qemu_plugin_tb_n_insns(tb));
    if (!hot) return;
    if (nblocks == cap) { /* records are never moved: their address is in translated code */
        cap = 1 << 16;
        blocks = calloc(cap, sizeof *blocks);
        chunks = realloc(chunks, (nchunks + 1) * sizeof *chunks);
        if (!blocks || !chunks) abort();
        chunks[nchunks++] = blocks;
        nblocks = 0;
    }
    block *b = &blocks[nblocks++];
    b->addr = qemu_plugin_tb_vaddr(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, INLINE_ADD_U64, &b->insns, qemu_plugin_tb_n_insns(tb));
}

static int by_insns(const void *a, const void *b)
{
    const block *x = a, *y = b;
    return x->insns < y->insns ? 1 : x->insns > y->insns ? -1 : 0;
}

static void report_hot(void)
{
    size_t n = 0;
    for (size_t c = 0; c < nchunks; c++) n += c + 1 < nchunks ? cap : nblocks;
    block *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return;
    for (size_t c = 0, i = 0; c < nchunks; c++)
        for (size_t j = 0; j < (c + 1 < nchunks ? cap : nblocks); j++) v[i++] = chunks[c][j];
    qsort(v, n, sizeof *v, by_insns);
    for (size_t i = 0; i < n && (all || i < 30); i++)
        fprintf(stderr, "hot %#" PRIx64 " %" PRIu64 "\n", v[i].addr, v[i].insns);
    free(v);
}

static void on_atexit(plugin_id id, void *userdata)
{
    (void)id;
    (void)userdata;
    fprintf(stderr, "guest_insns %" PRIu64 "\n", executed);
    if (hot) report_hot();
}

EXPORT int qemu_plugin_install(plugin_id id, const plugin_info *info, int argc, char **argv);
EXPORT int qemu_plugin_install(plugin_id id, const plugin_info *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) hot |= strstr(argv[i], "hot") != NULL, all |= strstr(argv[i], "all") != NULL;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
    return 0;
}
