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
 * every time the block runs, so the count costs no call per block. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
void qemu_plugin_register_atexit_cb(plugin_id id, void (*cb)(plugin_id, void *), void *userdata);

EXPORT int qemu_plugin_version = 1;

static uint64_t executed;

static void on_translate(plugin_id id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, INLINE_ADD_U64, &executed, qemu_plugin_tb_n_insns(tb));
}

static void on_exit(plugin_id id, void *userdata)
{
    (void)id;
    (void)userdata;
    fprintf(stderr, "guest_insns %" PRIu64 "\n", executed);
}

EXPORT int qemu_plugin_install(plugin_id id, const plugin_info *info, int argc, char **argv);
EXPORT int qemu_plugin_install(plugin_id id, const plugin_info *info, int argc, char **argv)
{
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
