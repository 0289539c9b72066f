/* The GLES 3.1 backend: state, programs, GPU arena, dispatch helpers. */
#ifndef EDMLI_GLES_H
#define EDMLI_GLES_H

#include "../core/internal.h"
#include "edml_port.h"
#include "gles_shapes.h"

/* The kernels' parameter structs (shaders/params.h): edmli_<type>_prm. */
#include "../../shaders/params.h"
#define EDMLI_PRM_W(name) uint32_t name;
#define EDMLI_PRM_A(name, n) uint32_t name[n];
#define EDMLI_PRM_S(type, name) edmli_##type##_prm name;
#define EDMLI_PRM_SA(type, name, n) edmli_##type##_prm name[n];
#define EDMLI_PRM_STRUCT(type, LIST)                              \
    typedef struct edmli_##type##_prm {                           \
        LIST(EDMLI_PRM_W, EDMLI_PRM_A, EDMLI_PRM_S, EDMLI_PRM_SA) \
    } edmli_##type##_prm;
EDMLI_PRM_TYPES(EDMLI_PRM_STRUCT)
#undef EDMLI_PRM_STRUCT
_Static_assert(sizeof(edmli_tensor_prm) == 80 && sizeof(edmli_output_prm) == 124 && sizeof(edmli_dims_walk_prm) == 68 &&
                   sizeof(edmli_gather_dim_prm) == 16,
               "parameter structs are words only, laid out as std430 lays them out");

/* Programs: one per kernel (shaders/<file>.comp) and specialization:
 * `variant`, empty or a suffix naming a specialization of the kernel,
 * compiled with `const bool SPECIALIZED = true` (the kernel's header says
 * what the host then promises, and the compiler drops the code that cannot
 * run, with the registers it held); `libs`, the GLSL put between
 * common.glsl and the kernel: OUT, shaders/output.glsl (it writes an output
 * tensor through it), TOPK, shaders/topk.glsl (TopK's kernels' helpers),
 * both (OUT_TOPK) or NONE; the parameter struct it reads
 * (edmli_<prm>_prm: its EDMLI_PARAMS() line must name it, or it does not
 * compile); its workgroup (`local`): ALONE, its invocations work alone and
 * workgroups have at most EDMLI_GLES_ALONE_LOCAL of them, so that the 65536
 * or so invocations of a reduction's or a small TopK's pass spread over
 * every core of a large GPU; DEVICE, they work together (shared memory,
 * barriers) in the device's workgroup, LOCAL; FOLD, TopK's per-invocation
 * kernel, whose fold pass works together in a workgroup of
 * EDMLI_GLES_TOPK_FOLD_LOCAL (shared memory for half as many lists). */
#define EDMLI_GLES_PROGRAMS(X)                                                \
    X(ELEMENTWISE_IF, elementwise_if, , OUT, elementwise_if, ALONE)           \
    X(ELEMENTWISE_IF_VEC, elementwise_if, _vec, OUT, elementwise_if, ALONE)   \
    X(GATHER_ND, gather_nd, , OUT, gather_nd, ALONE)                          \
    X(ARGREDUCE, argreduce, , OUT, argreduce, ALONE)                          \
    X(ARGREDUCE_PARTIAL, argreduce_partial, , OUT, argreduce, DEVICE)         \
    X(ARGREDUCE_PARTIAL_VEC, argreduce_partial, _vec, OUT, argreduce, DEVICE) \
    X(ARGREDUCE_FINAL, argreduce_final, , OUT, argreduce, DEVICE)             \
    X(ARGREDUCE_COLS, argreduce_cols, , OUT, argreduce, DEVICE)               \
    X(TOPK_SELECT, topk_select, , TOPK, topk, DEVICE)                         \
    X(TOPK_THREAD, topk_thread, , TOPK, topk, FOLD)                           \
    X(TOPK_THREAD_8, topk_thread, _8, TOPK, topk, FOLD)                       \
    X(TOPK_RANK, topk_rank, , TOPK, topk, ALONE)                              \
    X(TOPK_SMALL, topk_small, , OUT_TOPK, topk_small, DEVICE)                 \
    X(TOPK_OUT, topk_out, , OUT, topk_out, ALONE)                             \
    X(COPY, copy, , NONE, copy, ALONE)
#define EDMLI_GLES_LIBS_NONE 0u
#define EDMLI_GLES_LIBS_OUT 1u
#define EDMLI_GLES_LIBS_TOPK 2u
#define EDMLI_GLES_LIBS_OUT_TOPK 3u
typedef enum edmli_gles_local {
    EDMLI_GLES_LOCAL_ALONE,
    EDMLI_GLES_LOCAL_DEVICE,
    EDMLI_GLES_LOCAL_FOLD
} edmli_gles_local;
#define EDMLI_GLES_ALONE_LOCAL 256u

typedef enum edmli_gles_prog {
#define EDMLI_GLES_PROG_ENUM(id, file, variant, libs, prm, local) EDMLI_GLES_PROG_##id,
    EDMLI_GLES_PROGRAMS(EDMLI_GLES_PROG_ENUM)
#undef EDMLI_GLES_PROG_ENUM
    EDMLI_GLES_PROG_COUNT
} edmli_gles_prog;

/* The GLSL a kernel starts with: version, workgroup size, the parameter
 * block and the accessors of its struct (shaders/params.h). */
size_t edmli_gles_prelude(edmli_gles_prog prog, uint32_t local, uint32_t sort_max, char *buf, size_t cap);
/* Members named *offset are bindings: the GPU-arena offsets of one
 * execution, passed as the uniform array u_bind[], the block holding the
 * binding's index. */
#define EDMLI_GLES_BINDS 8u
bool edmli_gles_is_binding(const char *name);
/* The word indices of a program's bindings in its struct, in order; returns their count. */
uint32_t edmli_gles_binding_words(edmli_gles_prog prog, uint8_t word[EDMLI_GLES_BINDS]);
#define EDMLI_GLES_PRELUDE_BYTES 8192u /* on the stack while a program is compiled */
#define EDMLI_GLES_WHY_BYTES 256u
#define EDMLI_GLES_KATS 25u      /* the known-answer tests (gles_kat.c): the operators' and the GPU-buffer copy's */
#define EDMLI_GLES_SLOW_POLLS 3u /* EDML_FAULT_SLOW_COMPILE: "not yet" to each program's first polls */
/* Embedded shader sources (built from shaders/ by tools/embed-shaders.sh). */
extern const char edmli_gles_src_common[];
extern const char edmli_gles_src_output[];
extern const char edmli_gles_src_topk[];
extern const char edmli_gles_src_main[];
extern const unsigned char edmli_gles_src_libs[EDMLI_GLES_PROG_COUNT]; /* EDMLI_GLES_LIBS_* bits */
extern const unsigned char edmli_gles_src_local[EDMLI_GLES_PROG_COUNT];
extern const char *const edmli_gles_src[EDMLI_GLES_PROG_COUNT];
extern const char *const edmli_gles_src_name[EDMLI_GLES_PROG_COUNT]; /* <file><variant> */
extern const char *const edmli_gles_src_file[EDMLI_GLES_PROG_COUNT];
extern const unsigned char edmli_gles_src_specialized[EDMLI_GLES_PROG_COUNT];

#define EDMLI_GLES_PARAM_BYTES 1024u /* a dispatch's parameter slot: any struct, offset-aligned */
#define EDMLI_GLES_PARAM_SLOTS 16u
/* A parameter block as bound: whole 16-byte vectors (its uniform block's size) */
#define EDMLI_GLES_PARAM_VEC(bytes) (((bytes) + 15u) & ~15u)
#define EDMLI_GLES_UNITS_PER_DISPATCH (1u << 22) /* keeps each dispatch short (V3D: 500 ms watchdog) */
#define EDMLI_GLES_GROUPS_PER_DISPATCH 4096u
/* Where a GPU buffer starts in the arena: a multiple of this, so that a
 * warp's 16-byte loads of it cover whole cache lines and DRAM bursts (an
 * operator's parameters before it keep any multiple of 16; on the H100 the
 * kernels over resident tensors ran 0.2-0.7 us faster for it) */
#define EDMLI_GLES_BUFFER_ALIGN 256u
#define EDMLI_GLES_READBACK_BYTES (4u << 20) /* the readback buffer's first size; it grows */

/* Bytes of the GPU arena a batch's entry reads or writes in GPU buffers. */
typedef struct edmli_gles_range {
    uint64_t begin, end;
    bool written;
} edmli_gles_range;
#define EDMLI_GLES_ENTRY_RANGES (EDMLI_MAX_INPUTS + EDMLI_MAX_OUTPUTS)
#define EDMLI_GLES_HAZARDS 32u
/* GatherND's status words as each call starts: no clamped coordinate, none first */
extern const uint32_t edmli_gles_status_init[4];
#define EDMLI_GLES_STATUS_SLOTS 32u /* a batch's GatherNDs (slot k at byte 16 k); more end it */
/* The proof that a submission ran (shaders/main.glsl, gles_done.c): a
 * block of EDMLI_GLES_ARENA_RESERVED bytes after the GPU arena, in its
 * buffer: the dispatches' counters, EDMLI_GLES_SLOTS slots (one a dispatch
 * among those since the last barrier: u_proof[0]) of EDMLI_GLES_SLOT_WORDS
 * (a counter for each workgroup number modulo 64, and one of the counters
 * completed), back at zero once their dispatch completed; then a head of
 * four words, which the status buffer ends with too. EDMLI_GLES_SERIAL_WORD:
 * the number of a submission that dispatched nothing, written by the host
 * so that a stale mapping shows another; EDMLI_GLES_PARTIAL_WORD (the
 * arena's): EDML_FAULT_PARTIAL_WORKGROUP's switch, read only by programs
 * built for that fault; EDMLI_GLES_DONE_WORD (the status block's: the
 * status buffer's, else the arena's): the workgroups completed, added by
 * each dispatch's last. The host reads the head where it reads the
 * outputs: copied into the readback buffer after the fetches, in their
 * mapping; where nothing is fetched, through the status buffer's
 * persistent mapping (without one, the arena's head copied into the
 * readback buffer alone). */
#define EDMLI_GLES_SLOTS 16u
#define EDMLI_GLES_SLOT_WORDS 65u
#define EDMLI_GLES_COUNTER_BYTES (EDMLI_GLES_SLOTS * EDMLI_GLES_SLOT_WORDS * 4u)
#define EDMLI_GLES_RESERVED_HEAD 16u
#define EDMLI_GLES_SERIAL_WORD 0u
#define EDMLI_GLES_PARTIAL_WORD 1u
#define EDMLI_GLES_DONE_WORD 2u
#define EDMLI_GLES_ARENA_RESERVED (EDMLI_GLES_COUNTER_BYTES + EDMLI_GLES_RESERVED_HEAD)
/* the status buffer: the slots, their initial values, a seal for each copy
 * of a submission (gles_fetch.c), the head last */
#define EDMLI_GLES_SEAL_BYTES 32u
#define EDMLI_GLES_SEALS_AT (2u * EDMLI_GLES_STATUS_SLOTS * 16u)
#define EDMLI_GLES_STATUS_BYTES \
    (EDMLI_GLES_SEALS_AT + EDMLI_GLES_BATCH_FETCHES * EDMLI_GLES_SEAL_BYTES + EDMLI_GLES_RESERVED_HEAD)

typedef struct edmli_gles {
    edmli_port_gl port;
    uint32_t faults;
    bool one_thread; /* keep the context current between calls */
    /* whether TopK's per-invocation lists of 16 with 64-bit keys
     * (topk_thread.comp, keys and indices in registers) are built and used:
     * not on V3D and Mali, whose compilers spill over them (V3D 918
     * registers, in minutes; Mali 169-190); its lists of 8 with 32-bit keys
     * (topk_thread_8) fit them all and are built everywhere: docs/gpu-compilers.md */
    bool lists_16;
    /* V3D: each invocation's loops kept within the watchdog's caps
     * (gles_shapes.h, gles_watchdog.c) */
    bool watchdog;
    /* edml_device_desc.gpu_arena_mapped: the arena's persistent, coherent
     * mapping (NULL: none); else whether a range of it is mapped now: a copy
     * of [view_at, view_at + view_bytes) in the readback buffer, mapped, and
     * copied back at the unmap (the arena itself is never mapped: a driver
     * may move a buffer the CPU maps into host memory for good, where every
     * kernel then reads it across the bus). The device's GPU calls wait. */
    uint8_t *arena_map;
    bool mapped_plain;
    uint8_t *view_map; /* the view handed out: fetch 0's bytes in the readback buffer's mapping */
    uint64_t view_at, view_bytes;
    uint32_t local;    /* invocations per workgroup */
    uint32_t sort_max; /* longest row the bitonic sort takes; largest K */
    uint32_t max_groups_x;
    uint64_t max_ssbo;     /* largest bindable storage block */
    uint32_t param_stride; /* bytes between parameter slots: a slot, rounded to the binding offset alignment */
    uint32_t param_align;  /* of storage and uniform bindings, the larger, at least 16 */
    unsigned arena_buf, params_buf, readback_buf; /* readback: mapped for each download */
    /* GatherND's status words where the driver has GL_EXT_buffer_storage
     * (else 0 and NULL: the operator's block in the GPU arena, copied back):
     * EDMLI_GLES_STATUS_SLOTS slots of four words, written by the kernel
     * only when it clamps, read through status_map after the fence (an
     * execute's in slot 0, a batch's GatherNDs' in slots 0, 1, ...), then
     * as many slots of their initial value, copied over those that changed */
    unsigned status_buf;
    volatile uint32_t *status_map;
    /* a batch's GatherNDs' slots, and each's command list entry */
    uint32_t batch_gathers;
    uint32_t gather_entry[EDMLI_GLES_STATUS_SLOTS];
    uint64_t readback_bytes;
    uint64_t arena_bytes;
    uint64_t persistent; /* GPU arena bytes held by edml_gpu_buffers, from the low end */
    unsigned prog[EDMLI_GLES_PROG_COUNT];
    /* each program's life (edmli_gles_prog_state): built when an operator
     * first needs it (device creation builds none, or starts all in the
     * driver's threads where it has GL_KHR_parallel_shader_compile:
     * `parallel`), then checked once on a known answer; its shader while
     * it is built; why it failed; the polls EDML_FAULT_SLOW_COMPILE has
     * answered "not yet" */
    uint8_t prog_state[EDMLI_GLES_PROG_COUNT];
    unsigned shader[EDMLI_GLES_PROG_COUNT];
    uint8_t fail_first; /* the first program that failed (EDMLI_GLES_NO_FAILURE: none), and why */
    char fail_text[EDMLI_GLES_WHY_BYTES];
    bool parallel;
    uint8_t slow_polls[EDMLI_GLES_PROG_COUNT];
    uint32_t cache_key_of[EDMLI_GLES_PROG_COUNT]; /* the hash of its sources, as it was started */
    /* edml_device_desc.program_cache: programs the driver gave as binaries,
     * kept in the caller's memory across boots (gles_cache.c) */
    uint8_t *cache;
    size_t cache_bytes;
    uint32_t cache_key;               /* the driver's (renderer and version) and edml's */
    uint32_t identity;                /* the driver's renderer and version, hashed: the placement cache's key */
    uint32_t cache_loaded;            /* programs loaded from it (bits) */
    uint32_t cache_used, cache_count; /* the device's own count: the caller's memory is not trusted */
    uint32_t cache_claim;             /* this device's in the header: another there took the memory */
    bool cache_small;                 /* given, smaller than its header: binaries counted as not fitting */
    uint64_t cache_short;             /* bytes of the binaries that did not fit */
    edml_program_cache_stats cache_stats;
    edml_log_fn log; /* the device's, for notices (the program cache's) */
    void *log_user;
    /* while the known-answer tests run (gles_ready.c), and the programs a
     * test dispatched (bits) */
    bool checking;
    uint32_t check_seen;
    /* the known-answer tests on this device (planned once: check_sized):
     * the programs each dispatches, the host bytes it takes, and for each
     * program the most its tests take; the tests that passed, and the
     * programs a passing test dispatched */
    bool check_sized;
    uint32_t kat_programs[EDMLI_GLES_KATS], kat_bytes[EDMLI_GLES_KATS];
    uint32_t check_need[EDMLI_GLES_PROG_COUNT];
    uint32_t kat_passed, prog_passed;
    uint8_t *check_mem; /* an execution's scratch, for a check made then (else the arena's free top) */
    uint64_t check_mem_bytes;
    int loc_base[EDMLI_GLES_PROG_COUNT], loc_count[EDMLI_GLES_PROG_COUNT], loc_bind[EDMLI_GLES_PROG_COUNT],
        loc_bind_step[EDMLI_GLES_PROG_COUNT], loc_proof[EDMLI_GLES_PROG_COUNT];
    uint64_t prog_ctx[EDMLI_GLES_PROG_COUNT]; /* the context (key) that set each program's uniforms last */
    /* what the driver's compiler said of each program through GL_KHR_debug
     * (Mesa's "S:F spills:fills"; -1: nothing), and of the one being built */
    int32_t spills[EDMLI_GLES_PROG_COUNT], fills[EDMLI_GLES_PROG_COUNT];
    int32_t stat_spills, stat_fills;
    char stat_text[240]; /* the last statistics message (tools/gpu-compile.c prints it) */
    uint32_t dispatched; /* programs dispatched once (bits): their first dispatch is listened to */
    /* what that context set u_base and u_count to, and within one call or
     * batch the program in use and the parameter range at binding 0 (GL
     * calls that would change nothing are left out: each costs the CPU time
     * before a list's GPU work starts) */
    uint32_t set_base[EDMLI_GLES_PROG_COUNT], set_count[EDMLI_GLES_PROG_COUNT];
    uint32_t set_proof[EDMLI_GLES_PROG_COUNT][3]; /* main.glsl's u_proof: slot, workgroups along x, rows of them */
    unsigned used_prog, params_bound_buf;
    uint64_t state_key; /* the context whose bindings and program those are (0: none yet) */
    uint32_t params_bound_at, params_bound_bytes;
    /* the words of each program's parameter struct that are bindings (byte
     * offsets in the GPU arena, set as u_bind[] for each execution) */
    uint32_t bind_count[EDMLI_GLES_PROG_COUNT];
    uint8_t bind_word[EDMLI_GLES_PROG_COUNT][EDMLI_GLES_BINDS];
    char renderer[96];
    /* what the device's settings became and why ("" when taken as given),
     * and what bounds the GPU arena (for its refusals) */
    char adjusted[200];
    char arena_bound[160];
    /* a command list's batch: while `batching`, each kernel's run continues
     * batch (its staging, parameter slots and fetches), and its finish
     * adds a barrier instead of a fence; edmli_gles_batch_end fences once */
    bool batching;
    struct edmli_gles_run *batch;
    /* the batch's dispatches and barriers not yet sent to GL: they go after
     * every upload of the batch (uploads between dispatches cost the GPU
     * more than the dispatches), at its fence or before a dispatch that
     * must upload its parameters */
    uint32_t ndeferred, barrier_pending; /* and the barrier bits after the last */
    struct edmli_gles_deferred *deferred;
    const void *deferred_block; /* the last one's parameter block (its operator's host copy) */
    /* what the batch's entries read and wrote in GPU buffers since its last
     * barrier: a later entry gets one only where it would read bytes one of
     * them wrote, or write bytes one of them read or wrote */
    edmli_gles_range hazard[EDMLI_GLES_HAZARDS];
    uint32_t nhazards;
    /* while an operator's parameters are baked: its runs record, not dispatch */
    struct edmli_gles_bake *bake;
    /* a flushed batch: its fence, and its ticket for the outcome */
    bool pending;
    void *pending_fence;
    unsigned pending_error; /* a GL error read while the submission was pending: its own, maybe */
    /* per-thread contexts: a call that left GL work it did not wait for
     * (the parameters baked at creation, a failed call's uploads) ends with
     * a fence, which a call on another context waits for on the GPU
     * (glWaitSync) before it runs: GLES 3.2's rule for objects shared
     * between contexts (a flush alone orders nothing across contexts) */
    bool unwaited;
    void *handoff;
    uint64_t handoff_key;
    edmli_batch_ticket *ticket;
    /* Completion records (shaders/main.glsl; gles_done.c): the workgroups
     * dispatched so far, and the count the kernels had reached when it was
     * last read: after each fence the two must agree, else a dispatch was
     * dropped. The submissions fenced outside the known-answer tests (for
     * EDML_FAULT_DROPPED_DISPATCH and _GPU_RESET: the one they strike,
     * edml_device_desc.inject_fault_at). The last serial a submission that
     * dispatched nothing wrote (gles.h's reserved block). */
    uint32_t done_sent, done_base, serial;
    /* dispatches since the last shader-storage barrier: the next one's
     * slot among the counters (a barrier before the EDMLI_GLES_SLOTS + 1st) */
    uint32_t slots;
    bool dropped;        /* a proof failed since the flag was cleared */
    bool partial_on;     /* EDML_FAULT_PARTIAL_WORKGROUP's switch is set in the GPU arena */
    bool counters_dirty; /* a proof failed: the dispatches' counters are set back before the next submission */
    uint32_t submissions, fault_at;
    uint64_t fence_timeout_ns; /* edml_device_desc.gpu_fence_timeout_ms */
    /* GL's reset query where the context is told of GPU resets (NULL:
     * not), and why GLES is off on this device for good ("": it is not):
     * a GPU reset lost its context, or a dispatch was dropped */
    GLenum_ (*reset_status)(void);
    char lost[EDMLI_GLES_WHY_BYTES];
} edmli_gles;

/* A recorded dispatch: its program, baked parameter block and bindings, and
 * the memory barrier (GL bits) that goes before it. */
typedef struct edmli_gles_deferred {
    uint32_t units, params_offset;
    uint32_t bind[EDMLI_GLES_BINDS];
    uint16_t barrier_before, params_bytes;
    uint8_t prog, groups;
} edmli_gles_deferred;
#define EDMLI_GLES_DEFERRED 24u /* a batch's (1.1 KiB of the device): more are sent as they come */

/* Completion records and GPU resets (gles_done.c). Whether the dispatches
 * of the submission being built are dropped (EDML_FAULT_DROPPED_DISPATCH,
 * _GPU_RESET); the submission fenced (for those faults); after its fence,
 * the count of workgroups its kernels reached checked against what it
 * dispatched, and GL's reset status: a mismatch or a reset fails the call
 * (BACKEND_FAILED, nothing written) and, outside the known-answer tests,
 * takes GLES off the device for good (`lost`). */
bool edmli_gles_drops(const edmli_gles *g);
/* Whether an injected fault strikes the submission being built (1: the
 * first after the known-answer tests; edml_device_desc.inject_fault_at). */
bool edmli_gles_struck(const edmli_gles *g, uint32_t fault);
/* EDML_FAULT_PARTIAL_WORKGROUP: the switch main() reads (gles.h's reserved
 * block) set before the struck submission's first dispatch (dispatching),
 * cleared after its last. */
void edmli_gles_partial(edmli_gles *g, bool dispatching);
/* The dispatches' counters (gles.h's reserved block) set back to zero,
 * and with `head` the head too (a new device). */
void edmli_gles_proof_clean(edmli_gles *g, bool head);
/* Tests (test/kat.c) only: no dispatch runs, yet each counts as done, as on
 * a GPU whose lost work nothing reports: the known-answer tests alone must
 * catch it. */
#define EDMLI_GLES_FAULT_IDLE 0x80000000u
void edmli_gles_fenced(edmli_gles *g);
/* Whether an injected fault (EDML_FAULT_FENCE_TIMEOUT, _MAP) strikes the
 * submission fenced last: every one from inject_fault_at on, outside the
 * known-answer tests. */
bool edmli_gles_faulted(const edmli_gles *g, uint32_t fault);
/* GLES off on this device for good, with the reason (the first kept). */
void edmli_gles_lose(edmli_gles *g, const char *why);
/* The proof read back after a fence (gles.h's reserved block): the serial
 * where this submission wrote one, and the workgroups that completed
 * against those dispatched. */
edml_status edmli_gles_proof_check(struct edmli_gles_run *r, const uint32_t proof[EDMLI_GLES_RESERVED_HEAD / 4u]);
/* GL's error flags read and cleared (the first error, or GL_NO_ERROR).
 * Every read of them goes through here: while a command list's submission
 * is pending, an error cleared may be one of its own (an upload that
 * failed), and the first is kept for its completion. */
unsigned edmli_gles_take_error(edmli_gles *g);
/* A failed proof: GLES off for good (outside the known-answer tests), the call failed with `why`. */
edml_status edmli_gles_disproved(struct edmli_gles_run *r, const char *why);
edml_status edmli_gles_reset_check(struct edmli_gles_run *r);
/* Where GLES was lost: BACKEND_FAILED with the reason (else OK). */
edml_status edmli_gles_refuse_lost(const edmli_gles *g, edmli_errbuf *err);
/* A memory barrier after what came before it (deferred when that is) */
void edmli_gles_memory_barrier(edmli_gles *g, uint32_t bits);

/* A program's workgroup size: LOCAL where its invocations work together,
 * EDMLI_GLES_TOPK_FOLD_LOCAL for TopK's fold, else at most
 * EDMLI_GLES_ALONE_LOCAL (never above LOCAL). */
uint32_t edmli_gles_prog_local(const edmli_gles *g, edmli_gles_prog prog);

/* Opens GL, compiles every program, creates the GPU arena. false: `why`. */
bool edmli_gles_open(edmli_gles *g, const edml_device *dev, uint32_t faults, char *why, size_t cap);
/* Its first part: the context and the limits, no program (tools/gpu-compile.c). */
bool edmli_gles_open_context(edmli_gles *g, const edml_device *dev, uint32_t faults, char *why, size_t cap);
/* Listens to the driver's compiler while program id is built or first
 * dispatched (on), then keeps the worst spills it reported (off). */
void edmli_gles_listen(edmli_gles *g, edmli_gles_prog id, bool on);
/* Whether the device builds program id (some do not fit some GPUs). */
bool edmli_gles_builds(const edmli_gles *g, edmli_gles_prog id);

/* A program's life (gles_build.c): NONE; STARTED, compiling (perhaps in
 * the driver's threads); BUILT; CHECKED on its known answer (gles_ready.c);
 * FAILED (edmli_gles_why says why). The context is current for each call. */
typedef enum edmli_gles_prog_state {
    EDMLI_GLES_PROG_NONE,
    EDMLI_GLES_PROG_STARTED,
    EDMLI_GLES_PROG_BUILT,
    EDMLI_GLES_PROG_CHECKED,
    EDMLI_GLES_PROG_FAILED
} edmli_gles_prog_state;
#define EDMLI_GLES_NO_FAILURE 0xFFu
/* Program id FAILED, why; and why a FAILED program did (the first one's
 * whole reason, the others' with it). */
void edmli_gles_failed(edmli_gles *g, edmli_gles_prog id, const char *why);
void edmli_gles_why(const edmli_gles *g, edmli_gles_prog id, char *buf, size_t cap);
/* NONE -> STARTED (or BUILT from the program cache, or FAILED). */
void edmli_gles_build_start(edmli_gles *g, edmli_gles_prog id);
/* Whether a STARTED program's build is complete (without waiting for it). */
bool edmli_gles_build_done(edmli_gles *g, edmli_gles_prog id);
/* STARTED -> BUILT or FAILED, waiting for the driver where it must. */
void edmli_gles_build_end(edmli_gles *g, edmli_gles_prog id);
/* Compiles and links program id as the device would (false: why), with
 * what the driver's compiler reports of it (spills, fills). */
bool edmli_gles_compile(edmli_gles *g, edmli_gles_prog id, char *why, size_t cap);

/* The program cache (gles_cache.c): opened at device creation (a cache of
 * another driver, or none yet, is emptied); a program looked up (true:
 * loaded and linked from its binary) and kept after a build from source. */
void edmli_gles_cache_open(edmli_gles *g, void *mem, size_t bytes);
bool edmli_gles_cache_load(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash);
void edmli_gles_cache_keep(edmli_gles *g, edmli_gles_prog id, uint32_t src_hash);
void edmli_gles_cache_stats(const edmli_gles *g, edml_program_cache_stats *stats);
/* The readback buffer holds at least `bytes` (false: GL_OUT_OF_MEMORY). */
bool edmli_gles_readback_room(edmli_gles *g, uint64_t bytes);

/* Programs made ready for use (gles_ready.c): each built, then checked on
 * every known-answer test that dispatches it on this device (gles_kat.c),
 * against the reference; a driver that skipped a dispatch, or ran it
 * wrong, takes that program off with the reason. Only a program whose
 * tests all passed runs. LATER: still compiling in the driver's threads
 * (only without `wait`); NEVER: it failed, why in `why`; SHORT or MAPPED:
 * a test could not run for want of GPU arena, or while a GPU buffer is
 * mapped (why in `why`): the program is not used until its tests ran. A
 * test takes its host memory from an execution's scratch (its operator's
 * temp_bytes hold the largest its programs' tests take), else the device
 * arena's free top: a creation short of it leaves the programs to the
 * first execution (READY, unchecked). A query checks as a creation does,
 * so that it says the backend creation chooses. The device's context is
 * made current and let go. */
typedef enum edmli_gles_check_mode {
    EDMLI_GLES_CHECK_NOW,     /* an execution, a GPU-buffer copy */
    EDMLI_GLES_CHECK_OR_DEFER /* a creation or query: a test that cannot run yet, at the first execution */
} edmli_gles_check_mode;
edmli_readiness edmli_gles_ready(edmli_gles *g, edml_device *dev, uint32_t programs, bool wait,
                                 edmli_gles_check_mode mode, char *why, size_t cap);
/* Whether every program given is CHECKED. */
bool edmli_gles_checked(const edmli_gles *g, uint32_t programs);
typedef enum edmli_gles_kat_outcome {
    EDMLI_GLES_KAT_PASSED,
    EDMLI_GLES_KAT_FAILED, /* why: it came back wrong, or the GPU failed it */
    EDMLI_GLES_KAT_NOT_RUN /* why, and the status an execution would get (ARENA_TOO_SMALL, BUSY) */
} edmli_gles_kat_outcome;
/* Test i planned on this device (into op): the programs it is a test of
 * here (0: none, it cannot run here), the host bytes it takes and the
 * programs it needs built (those and the others it dispatches). */
uint32_t edmli_gles_kat_plan(edmli_gles *g, edml_device *dev, uint32_t i, edml_operator *op, uint64_t *bytes,
                             uint32_t *needs);
/* Test i (planned into op, its programs built) in host memory `mem` (its
 * bytes): its outcome, the programs it dispatched in *ran. */
edmli_gles_kat_outcome edmli_gles_kat_run(edmli_gles *g, const edml_operator *op, uint32_t i, uint8_t *mem,
                                          uint32_t *ran, edml_status *status, char *why, size_t cap);
uint32_t edmli_gles_check_count(void);
/* The host bytes the tests of these programs take at most on this device:
 * fixed, whatever has run, so that operator sizes never change (an
 * operator's scratch holds them, edml_operator_query says so). */
uint64_t edmli_gles_check_bytes(edmli_gles *g, edml_device *dev, uint32_t programs);
/* Test i run alone on this device (tests): the programs it dispatched, 0
 * where it did not run or came back wrong. */
uint32_t edmli_gles_check_programs(edmli_gles *g, edml_device *dev, uint32_t i);
/* Derives an operator's GLES plan (gles_plan.c); or says why this GPU
 * cannot run it (with `fit`: its staging must fit the GPU arena's free
 * room now); `programs` gets the programs it dispatches (bits). */
const char *edmli_gles_derive(const edml_device *dev, edml_operator *op, uint32_t *programs, bool fit, char *buf,
                              size_t cap);

void edmli_gles_close(edmli_gles *g);

/* GPU-arena bytes a submission copies to the host once it is complete. */
typedef struct edmli_gles_fetch_req {
    uint32_t offset;
    uint8_t *host;
    uint64_t bytes;
} edmli_gles_fetch_req;
#define EDMLI_GLES_MAX_FETCHES (EDMLI_MAX_OUTPUTS + 1) /* an operator's: the outputs and a status word */
#define EDMLI_GLES_BATCH_FETCHES 48u                   /* a command list's batch: 16 operators or more */

/* An operator's parameter blocks baked at creation (gles_bake.c), after it
 * in the device arena: each block's GPU-arena offset, bytes, and where its
 * host copy is among the copies that follow this struct. */
#define EDMLI_GLES_BAKED_MAX 32u
typedef struct edmli_gles_block {
    uint32_t gpu_offset, bytes, copy_at;
} edmli_gles_block;
typedef struct edmli_gles_baked {
    uint32_t count;
    edmli_gles_block block[EDMLI_GLES_BAKED_MAX];
    uint32_t zero_offset, zero_bytes; /* zeros an execution copies (ArgMin's chunk counters) */
} edmli_gles_baked;
/* Where a kernel run records its blocks instead of dispatching (gles_bake.c
 * sizes and fills it; gles_baked.c records into it). */
typedef struct edmli_gles_bake {
    edmli_gles_baked *into; /* NULL: sizing only */
    uint32_t count, copy_bytes;
    uint64_t gpu_bytes, gpu_base;
    uint32_t align;      /* of a block's GPU offset (a binding's) */
    uint64_t zero_bytes; /* the most zeros a run asked for */
    /* sizing: each block's hash and size, so that a block both runs make
     * (most are: the layouts differ only where a kernel has a 16-byte path)
     * is counted once, as baking keeps it once */
    uint32_t hash[EDMLI_GLES_BAKED_MAX], hash_bytes[EDMLI_GLES_BAKED_MAX];
    uint32_t copy_cap; /* baking: what sizing counted, never exceeded */
    uint64_t gpu_cap;
    uint32_t programs; /* the programs dispatched (bits of edmli_gles_prog) */
} edmli_gles_bake;
/* The host copies of an operator's blocks, after its record. */
const uint8_t *edmli_gles_copies(const edmli_gles_baked *b);

/* One execution: staging in the GPU arena's free top, parameter slots, the
 * host copies to make at the end. */
typedef struct edmli_gles_run {
    edmli_gles *g;
    edmli_errbuf *err;
    const edmli_gles_baked *baked; /* the operator's blocks; NULL: uploads (GPU-buffer copies) */
    uint32_t next_block;           /* where the next block is looked for first */
    bool unbaked;                  /* a dispatch uploaded its block (EDML_FAULT_BAKED_ONLY fails it) */
    uint64_t top;                  /* staging grows down from here */
    uint32_t slot;
    uint32_t nfetches;
    uint32_t copies;    /* to and from the readback buffer, this submission (EDML_FAULT_DROPPED_COPY) */
    edml_status staged; /* the fetches' copies into the readback buffer, queued before the fence */
    uint32_t serial;    /* what this submission wrote as its serial (0: none; it dispatched) */
    /* in a batch: this entry's GPU-buffer ranges (inputs', then outputs',
     * by their slot; bit k of `mine_used` for mine[k]), the batch's at its finish */
    edmli_gles_range mine[EDMLI_GLES_ENTRY_RANGES];
    uint32_t mine_used;
    edmli_gles_fetch_req fetches[EDMLI_GLES_BATCH_FETCHES];
} edmli_gles_run;

edml_status edmli_gles_begin(edmli_gles_run *r, edmli_gles *g, edmli_errbuf *err);
/* An operator's run: its baked parameter blocks are bound, not uploaded. */
edml_status edmli_gles_begin_op(edmli_gles_run *r, const edml_operator *op, edmli_errbuf *err);
/* Baking (gles_bake.c): sizes at planning (op->backend_bytes and
 * backend_gpu_bytes), the blocks at creation (the bake hook), a run's
 * record of one block, and an execution's binding of a baked one (false:
 * not baked). */
uint32_t edmli_gles_bake_size(edml_operator *op, const edmli_gles *g); /* the programs it dispatches (bits) */
edml_status edmli_gles_bake_op(edml_device *dev, edml_operator *op);
edmli_gles_baked *edmli_gles_baked_of(const edml_operator *op);
/* Baking: program prog is dispatched (edmli_gles_bake_size counts them). */
void edmli_gles_bake_program(edmli_gles_run *r, edmli_gles_prog prog);
void edmli_gles_bake_record(edmli_gles_run *r, const void *words, uint32_t bytes);
void edmli_gles_bake_zeros(edmli_gles_run *r, uint64_t bytes);
/* The GPU-arena offset of the operator's baked block with these words (the
 * next of the bake's order looked at first) and its host copy; false: not
 * baked. */
bool edmli_gles_find_baked(edmli_gles_run *r, const uint32_t *words, uint32_t bytes, uint32_t *offset,
                           const void **copy);
/* The GPU-arena offset of a baked block with these bytes; false: none. */
bool edmli_gles_baked_at(const edmli_gles_run *r, const void *bytes, uint32_t n, uint32_t *offset);
/* A command list's batch of kernels as one submission: begun, joined by
 * each kernel's run, ended by one fence and the fetches of all. */
edml_status edmli_gles_batch_begin(edmli_gles *g, edmli_errbuf *err);
bool edmli_gles_batch_takes(const edmli_gles *g, const edml_operator *op);
/* Sends the open batch (one fence after it) and returns; its outcome goes
 * to `ticket` when it completes: in edmli_gles_batch_complete, or in the
 * next call on the GPU, which completes it first. */
edml_status edmli_gles_batch_flush(edmli_gles *g, edmli_batch_ticket *ticket);
/* Waits up to timeout_ns (at most 5 s: longer is a hung GPU) for a flushed
 * batch, fetches its outputs: the ticket's status, or EDML_STATUS_TIMEOUT. */
edml_status edmli_gles_batch_complete(edmli_gles *g, edmli_batch_ticket *ticket, uint64_t timeout_ns);
/* After a call: releases the context unless one thread keeps it (or each
 * thread keeps its own: per-thread contexts of the port). */
void edmli_gles_release(edmli_gles *g);
/* Room for `bytes` in the GPU arena; returns its byte offset. */
edml_status edmli_gles_alloc(edmli_gles_run *r, uint64_t bytes, uint32_t *offset);
/* Places a tensor: allocates, and uploads `host` when given. */
edml_status edmli_gles_place(edmli_gles_run *r, const edmli_tensor *t, const uint8_t *host, uint32_t *offset);
/* Room for `bytes` in the GPU arena, set to zero before the next dispatch
 * (copied from the operator's zeros baked at creation). */
edml_status edmli_gles_alloc_zero(edmli_gles_run *r, uint64_t bytes, uint32_t *offset);
/* Counters a kernel counts up and sets to zero again when it is done: out
 * of a run alone, the operator's baked zeros themselves (*kept: no copy);
 * in a batch, which may run the operator twice at once, a zeroed copy. A
 * kept run that failed (its kernel maybe cut short) writes the zeros back
 * (edmli_gles_write_zeros). */
edml_status edmli_gles_alloc_counters(edmli_gles_run *r, uint64_t bytes, uint32_t *offset, bool *kept);
/* Room for a kernel's constant `bytes` (at most EDMLI_GLES_PARAM_BYTES),
 * copied from the block baked at creation (GatherND's status words). */
edml_status edmli_gles_place_const(edmli_gles_run *r, const void *host, uint32_t bytes, uint32_t *offset);
/* Words a kernel writes, starting as `init`: the operator's own baked block
 * (*kept: no copy a call; whoever sees them changed writes `init` back,
 * edmli_gles_write), else staged as a constant. */
edml_status edmli_gles_place_words(edmli_gles_run *r, const void *init, uint32_t bytes, uint32_t *offset, bool *kept);
/* Uploads `bytes` of host memory, or zeros, to `offset` of the GPU arena
 * (glBufferSubData; the context current). */
void edmli_gles_write(edmli_gles *g, uint64_t offset, const void *host, uint64_t bytes);
void edmli_gles_write_zeros(edmli_gles *g, uint64_t offset, uint64_t bytes);
/* A tensor's parameters (its GPU-arena byte offset given), and an output's
 * (with its dims sorted by falling stride, for mapping words back). */
edmli_tensor_prm edmli_gles_tensor_prm(const edmli_tensor *t, uint32_t offset);
edmli_output_prm edmli_gles_output_prm(const edmli_tensor *t, uint32_t offset);
/* Units an output-driven kernel runs: elements (4- and 8-byte types) or words. */
uint32_t edmli_gles_output_units(const edmli_tensor *t);
bool edmli_gles_packed(const edmli_tensor *t);
/* Dispatches `prog` over `units` (invocations, or workgroups when `groups`),
 * split into short dispatches, with its parameters; through the typed
 * edmli_gles_run_<program>() below. */
void edmli_gles_dispatch(edmli_gles_run *r, edmli_gles_prog prog, uint32_t units, bool groups, const void *prm,
                         size_t bytes);
#define EDMLI_GLES_RUN_FN(id, file, variant, libs, type, local)                                                    \
    static inline void edmli_gles_run_##file##variant(edmli_gles_run *r, const edmli_##type##_prm *prm,            \
                                                      uint32_t units, bool groups)                                 \
    {                                                                                                              \
        _Static_assert(sizeof(edmli_##type##_prm) <= EDMLI_GLES_PARAM_BYTES, "a parameter slot holds its struct"); \
        edmli_gles_dispatch(r, EDMLI_GLES_PROG_##id, units, groups, prm, sizeof *prm);                             \
    }
EDMLI_GLES_PROGRAMS(EDMLI_GLES_RUN_FN)
#undef EDMLI_GLES_RUN_FN
void edmli_gles_barrier(edmli_gles_run *r);
/* One copy dispatch of `bytes` within the GPU arena. */
void edmli_gles_copy_dispatch(edmli_gles_run *r, uint64_t dst, uint64_t src, uint64_t bytes);
/* Copies GPU-arena bytes to the host when the submission is complete
 * (gles_fetch.c: through the readback buffer, every byte proven). */
void edmli_gles_fetch(edmli_gles_run *r, uint32_t offset, void *host, uint64_t bytes);
/* The fetches' copies queued before the fence; after it, each checked in
 * one mapping and the host written (a view: the mapping kept, fetch 0's
 * bytes in it read and write). */
edml_status edmli_gles_stage_fetches(edmli_gles_run *r);
edml_status edmli_gles_deliver_fetches(edmli_gles_run *r);
edml_status edmli_gles_deliver_view(edmli_gles_run *r, void **view);
/* edmli_gles_finish with one fetch of host NULL: its bytes handed out in
 * the readback buffer's mapping, kept for reading and writing. */
edml_status edmli_gles_finish_view(edmli_gles_run *r, void **view);
/* Whether the struck submission's faults drop this copy to or from the
 * readback buffer (EDML_FAULT_DROPPED_COPY: its first; the stale faults: all). */
bool edmli_gles_copy_dropped(edmli_gles_run *r);
/* Ends the submission: one fence, waited for with a timeout; GL errors;
 * then every fetch, the host written only if all of it succeeded. */
edml_status edmli_gles_finish(edmli_gles_run *r);
/* Places an output: packed ones need no upload; strided ones are uploaded so
 * that bytes no element covers keep their values. */
edml_status edmli_gles_place_output(edmli_gles_run *r, const edmli_tensor *t, const uint8_t *host, uint32_t *offset);

edml_status edmli_gles_fail(edmli_gles_run *r, const char *what);
/* ARENA_TOO_SMALL for `what`, naming what bounds the GPU arena. */
edml_status edmli_gles_arena_short(const edmli_gles *g, edmli_errbuf *e, const char *what, uint64_t need,
                                   uint64_t have);

/* An operator's tensors: resident ones are used in place; host ones are
 * staged (inputs uploaded; outputs fetched by edmli_gles_finish). */
edml_status edmli_gles_input(edmli_gles_run *r, const edml_operator *op, const edmli_exec *ex, uint32_t i,
                             uint32_t *offset);
edml_status edmli_gles_output(edmli_gles_run *r, const edml_operator *op, const edmli_exec *ex, uint32_t o,
                              uint32_t *offset);

#define EDMLI_GLES_STATE(op) ((edmli_gles *)(op)->obj.device->state[EDML_BACKEND_GLES])
#define EDMLI_GLES_DEFAULT_ARENA_BYTES (64ull << 20)

/* Saturating: a TotalTensorSizeInBytes near 2^64 must not wrap to a small staging size. */
static inline uint64_t edmli_align16(uint64_t v) { return v > UINT64_MAX - 15 ? UINT64_MAX : (v + 15) & ~(uint64_t)15; }
static inline uint64_t edmli_add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* TopK: the chunks a row per invocation takes (where the lists hold its K),
 * or 0 for a workgroup per row; the lists' places, 0 where none hold K. */
uint32_t edmli_gles_topk_chunks(const edml_operator *op, const edmli_gles *g);
uint32_t edmli_gles_topk_lists(const edml_operator *op, const edmli_gles *g);
bool edmli_gles_topk_is_small(const edml_operator *op, const edmli_gles *g);
uint32_t edmli_gles_topk_rows_per_group(const edmli_gles *g, uint32_t axis_size);

/* How ArgMin/ArgMax splits its sets, by kernel (each one's comment says more).
 * `vec`: 32-bit elements that can be read as 16-byte vectors.
 * - argreduce_partial along the packed last axis (long sets): G threads per
 *   (output, chunk), the output's last chunk to finish merging;
 * - argreduce_cols with `vec` along one strided reduced dim of 64 rows or
 *   more: U units of four outputs a workgroup, G invocations a unit, chunks
 *   of 4 G B rows, a unit group's last chunk to finish merging;
 * - argreduce along a strided axis: an invocation per (output, chunk), or
 *   per four outputs with `vec`, then argreduce_final with several chunks. */
typedef struct edmli_gles_reduce_shape {
    edmli_gles_prog prog;
    bool along_last;
    uint32_t lanes, chunks, chunk_len, G, U, groups, batches;
} edmli_gles_reduce_shape;

edmli_gles_reduce_shape edmli_gles_reduce_shape_of(const edml_operator *op, const edmli_gles *g, bool vec);
uint64_t edmli_gles_reduce_scratch(const edml_operator *op, const edmli_gles_reduce_shape *sh, uint64_t *counter_bytes);

/* What the backend derives once, when an operator is created
 * (op->backend_plan): the GPU-arena bytes an execution stages; TopK's
 * chunks a row (0: a workgroup per row); ArgMin's shapes without and with
 * 16-byte loads, and whether the layout allows those (with an aligned input). */
typedef struct edmli_gles_plan {
    uint64_t stage_bytes;
    uint32_t topk_chunks;
    uint32_t topk_lists;          /* with chunks: the lists' places (topk_thread_8's 8, topk_thread's 16) */
    bool topk_small;              /* one short row, a small K: one dispatch (topk_small.comp) */
    bool topk_rank;               /* short rows, a larger K: an invocation an element (topk_rank.comp) */
    uint32_t topk_rows_per_group; /* topk_select's rows a workgroup (short rows side by side) */
    bool reduce_vec_layout;
    edmli_gles_reduce_shape reduce[2];
    uint32_t programs; /* what it dispatches (bits) */
    bool waiting;      /* placed while they were still being built (AUTO) */
} edmli_gles_plan;
_Static_assert(sizeof(edmli_gles_plan) <= EDMLI_BACKEND_PLAN_BYTES, "the GLES plan fits an operator's backend plan");
#define EDMLI_GLES_PLAN(op) ((const edmli_gles_plan *)(const void *)(op)->backend_plan)
bool edmli_gles_topk_by_rank(const edml_operator *op, const edmli_gles_plan *plan);
/* V3D's watchdog model (gles_watchdog.c): the most loop iterations an
 * invocation of the program runs, at the largest shape the planner gives
 * it on this device. */
uint64_t edmli_gles_worst_trips(const edmli_gles *g, edmli_gles_prog prog);
/* Why V3D's watchdog keeps this TopK off the GPU (a row too long for one
 * workgroup that no per-invocation list holds), or NULL. */
const char *edmli_gles_topk_watchdog(const edml_operator *op, const edmli_gles *g, const edmli_gles_plan *plan,
                                     char *buf, size_t cap);
void edmli_gles_plan_argreduce(const edml_operator *op, const edmli_gles *g, edmli_gles_plan *plan);

/* The device hooks (gles_device.c) and GPU buffers (gles_buffers.c). */
size_t edmli_gles_state_bytes(void);
bool edmli_gles_device_open(edml_device *dev, void *state, char *why, size_t cap);
void edmli_gles_device_close(edml_device *dev, void *state);
const char *edmli_gles_device_info(const edml_device *dev, const void *state, char *buf, size_t cap);
bool edmli_gles_is_software(const edmli_gles *g);
void edmli_gles_release_thread(void *state);
extern const edmli_buffer_hooks edmli_gles_buffers;

edml_status edmli_gles_elementwise_if(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_gles_gather_nd(const edml_operator *op, const edmli_exec *ex);
/* A GatherND's status words (count of clamped coordinates, the first)
 * worded as the reference does: an execute's, or a batched one's. */
edml_status edmli_gles_gather_clamped(const edml_operator *op, const edmli_exec *ex, const uint32_t status[2]);
/* The mapped status slots [0, slots) set back to their initial value, by
 * the GPU after what came before, in GL's order. */
void edmli_gles_status_reset(edmli_gles *g, uint32_t slots);
edml_status edmli_gles_argreduce(const edml_operator *op, const edmli_exec *ex);
edml_status edmli_gles_topk(const edml_operator *op, const edmli_exec *ex);
/* The four above by operator kind (gles_kernels.c). */
extern const edmli_kernel_fn edmli_gles_kernel_of[EDMLI_OP_KIND_COUNT];

#endif
