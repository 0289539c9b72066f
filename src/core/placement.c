/* AUTO's placement of an operator that both the CPU and the GPU can run
 * (edml_device_desc.placement): by the board's thresholds, or measured on
 * the board. Measured, an operator's first executions with a kind of
 * bindings (host memory, GPU buffers) run on the CPU, on the GPU, then on
 * the CPU again (edmli_place_turns), EDMLI_PLACE_TIMED timed runs a side,
 * each a real execution. A side's timed runs follow its own, after a
 * warm-up, as they will once it is chosen (a CPU run right after a GPU run
 * in host memory, whose upload evicted the caches, costs several times one
 * after a CPU run, and a GPU's clock may drop between sparse calls); the
 * CPU's runs on either side of the GPU's, so that the machine's drift over
 * them (a start's other work settling) weighs on both alike. The faster
 * side's median wins unless the two medians are within EDMLI_PLACE_MARGIN
 * of each other (the cost model's choice then, where it has a clear one,
 * else the thresholds').
 * Decisions go to the placement cache (placement_cache.c). */
#include "internal.h"
#include "edml_port.h"

#include <string.h>

#define EDMLI_PLACE_MARGIN 20u        /* within 1/20 (5%) of each other: too close to call */
#define EDMLI_PLACE_SLOW_NS 50000000u /* EDML_FAULT_SLOW_CPU/_GPU: 50 ms a timed run (both: 50 ms each) */

/* The measuring runs in order: the CPU's, the GPU's (EDMLI_PLACE_GPU), the
 * CPU's again; each a timed run's slot among its side's, or a warm-up. */
#define EDMLI_PLACE_WARM_UP 0x0fu
#define EDMLI_PLACE_GPU(slot) (0x10u | (slot))
/* clang-format off */
static const uint8_t edmli_place_turns[] = {
    EDMLI_PLACE_WARM_UP, 0, 1,
    EDMLI_PLACE_GPU(EDMLI_PLACE_WARM_UP), EDMLI_PLACE_GPU(0), EDMLI_PLACE_GPU(1), EDMLI_PLACE_GPU(2), EDMLI_PLACE_GPU(3),
    EDMLI_PLACE_WARM_UP, 2, 3};
/* clang-format on */
_Static_assert(sizeof edmli_place_turns == EDMLI_PLACE_RUNS, "a turn for each measuring run");

static const char *const edmli_kind_name[EDMLI_BIND_KINDS] = {"host memory", "GPU buffers"};

/* The operator's key: its type, tensors and plan (no pointers: the same
 * from one start to the next) and the workers the CPU side runs on. */
static uint64_t edmli_place_key(const edml_operator *op)
{
    uint64_t h = 14695981039346656037ull;
    const struct {
        const void *p;
        size_t n;
    } parts[5] = {{&op->type, sizeof op->type},
                  {op->inputs, sizeof op->inputs},
                  {op->outputs, sizeof op->outputs},
                  {&op->plan, sizeof op->plan},
                  {&op->workers, sizeof op->workers}};
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < parts[k].n; i++) h = (h ^ ((const uint8_t *)parts[k].p)[i]) * 1099511628211ull;
    return h;
}

/* The key of the operator with bindings of `kind`: with GPU buffers, also
 * whether the GPU arena is mapped (edml_device_desc.gpu_arena_mapped), which
 * changes what the CPU side costs on them ninefold. */
static uint64_t edmli_place_kind_key(const edml_operator *op, uint32_t kind)
{
    const bool mapped = kind == EDMLI_BIND_GPU && op->obj.device->desc.gpu_arena_mapped;
    return op->place_key ^ (0x9e3779b97f4a7c15ull * (kind + 1u)) ^ (mapped ? 0xc2b2ae3d27d4eb4full : 0u);
}

void edmli_place_init(edml_device *dev, edml_operator *op)
{
    op->last_kind = EDMLI_BIND_HOST;
    memset(op->place, 0, sizeof op->place);
    if (!op->measurable) return;
    op->place_key = edmli_place_key(op);
    const edml_backend side[2] = {edmli_cpu_backend(dev, op->kind), op->backend};
    for (uint32_t k = 0; k < EDMLI_BIND_KINDS; k++) {
        edmli_place *p = &op->place[k];
        p->gpu = op->threshold_gpu;
        if (edmli_cost_predict(dev, op, side, k, p->ns)) { /* the model's choice, the thresholds' if close */
            p->state = EDMLI_PLACE_MODEL;
            p->close = edmli_cost_close(p->ns) ? EDMLI_CLOSE_THRESHOLDS : EDMLI_CLOSE_NOT;
            p->gpu = p->close ? op->threshold_gpu : p->ns[1] < p->ns[0];
        }
        if (dev->desc.placement != EDML_PLACEMENT_THRESHOLDS &&
            edmli_place_cache_get(dev, edmli_place_kind_key(op, k), p))
            p->state = EDMLI_PLACE_SAVED;
    }
}

/* Whether the operator still has both sides: its GPU backend planned and
 * on the device (it leaves for good after a failure). */
static bool edmli_place_open(const edml_operator *op)
{
    const edml_device *dev = op->obj.device;
    return op->measurable && !edmli_backends[op->backend]->on_cpu &&
           (dev->backends & EDML_BACKEND_BIT(op->backend)) != 0;
}

edml_backend edmli_place_backend(const edml_operator *op, edmli_bind_kind kind)
{
    const edml_device *dev = op->obj.device;
    if (op->requested == EDML_BACKEND_AUTO && !(dev->backends & EDML_BACKEND_BIT(op->backend)))
        return edmli_cpu_backend(dev, op->kind); /* its backend failed since: the CPU's, said at once */
    if (!edmli_place_open(op) || op->place[kind].gpu) return op->backend;
    return edmli_cpu_backend(op->obj.device, op->kind);
}

bool edmli_place_measuring(const edml_operator *op, edmli_bind_kind kind)
{
    const edmli_place_state st = op->place[kind].state;
    return edmli_place_open(op) && op->obj.device->desc.placement == EDML_PLACEMENT_MEASURE &&
           (st == EDMLI_PLACE_THRESHOLD || st == EDMLI_PLACE_MODEL || st == EDMLI_PLACE_MEASURING ||
            (st == EDMLI_PLACE_SAVED && op->place[kind].stale));
}

edml_backend edmli_place_begin(edml_operator *op, edmli_bind_kind kind, bool may_measure, edmli_place_call *pc)
{
    edml_device *dev = op->obj.device;
    memset(pc, 0, sizeof *pc);
    op->last_kind = (uint8_t)kind;
    edmli_place *p = &op->place[kind];
    if (!edmli_place_open(op) || !may_measure || dev->desc.placement != EDML_PLACEMENT_MEASURE)
        return edmli_place_backend(op, kind);
    if (p->state == EDMLI_PLACE_THRESHOLD || p->state == EDMLI_PLACE_MODEL ||
        (p->state == EDMLI_PLACE_SAVED && p->stale)) /* a stale decision is measured again */
        p->state = EDMLI_PLACE_MEASURING, p->runs = 0, p->stale = 0;
    if (p->state != EDMLI_PLACE_MEASURING) return edmli_place_backend(op, kind);
    pc->timed = true;
    pc->kind = (uint8_t)kind;
    pc->side = (edmli_place_turns[p->runs] & EDMLI_PLACE_GPU(0)) != 0;
    pc->t0 = edmli_port_now_ns();
    return pc->side ? op->backend : edmli_cpu_backend(dev, op->kind);
}

/* The median of a side's four timed runs: the mean of the middle two. */
static uint64_t edmli_median4(const uint64_t *t)
{
    uint64_t s[4] = {t[0], t[1], t[2], t[3]};
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            const uint64_t x = s[j];
            s[j] = s[j - 1], s[j - 1] = x;
        }
    return s[1] / 2u + s[2] / 2u + (s[1] % 2u + s[2] % 2u) / 2u;
}
_Static_assert(EDMLI_PLACE_TIMED == 4u, "edmli_median4 takes the timed runs");

/* "1.210 ms" (the library's formatter has no widths) */
static void edmli_place_ms(char *buf, size_t cap, uint64_t ns)
{
    const unsigned us = (unsigned)(ns / 1000u % 1000u);
    edmli_format(buf, cap, "%llu.%u%u%u ms", (unsigned long long)(ns / 1000000u), us / 100u, us / 10u % 10u, us % 10u);
}

/* What a close call says it kept ("" where the call was not close). */
static const char *edmli_place_close_words(const edmli_place *p)
{
    return p->close == EDMLI_CLOSE_MODEL ? " (within 5%: the model's choice)"
           : p->close                    ? " (within 5%: the thresholds' choice)"
                                         : "";
}

/* Measured runs too close to call: the model's choice where it has one
 * that is not close itself (it saw the operator's shape, not the
 * operator's first calls), else the thresholds'. */
static void edmli_place_close_call(const edml_operator *op, edmli_place *p, uint32_t kind)
{
    const edml_device *dev = op->obj.device;
    const edml_backend side[2] = {edmli_cpu_backend(dev, op->kind), op->backend};
    uint64_t m[2];
    const bool model = edmli_cost_predict(dev, op, side, kind, m) && !edmli_cost_close(m);
    p->gpu = model ? m[1] < m[0] : op->threshold_gpu;
    p->close = model ? EDMLI_CLOSE_MODEL : EDMLI_CLOSE_THRESHOLDS;
}

/* The measured runs decide: the faster side, or the model's or the
 * thresholds' choice where the two are too close to call; said once, kept
 * in the cache. */
static void edmli_place_decide(edml_operator *op, edmli_place *p, uint32_t kind)
{
    edml_device *dev = op->obj.device;
    p->ns[0] = edmli_median4(p->t[0]);
    p->ns[1] = edmli_median4(p->t[1]);
    const uint64_t lo = p->ns[0] < p->ns[1] ? p->ns[0] : p->ns[1], hi = p->ns[0] ^ p->ns[1] ^ lo;
    p->close = EDMLI_CLOSE_NOT;
    p->gpu = p->ns[1] < p->ns[0];
    if (hi - lo <= lo / EDMLI_PLACE_MARGIN) edmli_place_close_call(op, p, kind);
    p->state = EDMLI_PLACE_MEASURED;
    edmli_place_cache_put(dev, edmli_place_kind_key(op, kind), p);
    if (!dev->err.log) return;
    char line[EDMLI_MESSAGE_BYTES], cpu_t[32], gpu_t[32];
    edmli_place_ms(cpu_t, sizeof cpu_t, p->ns[0]);
    edmli_place_ms(gpu_t, sizeof gpu_t, p->ns[1]);
    edmli_format(line, sizeof line, "%s with %s runs on %s: measured %s %s, %s %s%s", edmli_op_name(op->type),
                 edmli_kind_name[kind], edml_backend_name(edmli_place_backend(op, kind)),
                 edml_backend_name(edmli_cpu_backend(dev, op->kind)), cpu_t, edml_backend_name(op->backend), gpu_t,
                 edmli_place_close_words(p));
    dev->err.log(dev->err.log_user, EDML_STATUS_OK, line);
}

void edmli_place_end(edml_operator *op, const edmli_place_call *pc, edml_status s, bool moved)
{
    if (!pc->timed) return;
    const edml_device *dev = op->obj.device;
    edmli_place *p = &op->place[pc->kind];
    uint64_t ns = edmli_port_now_ns() - pc->t0;
    const uint32_t slow = pc->side ? EDML_FAULT_SLOW_GPU : EDML_FAULT_SLOW_CPU;
    const uint32_t both = EDML_FAULT_SLOW_CPU | EDML_FAULT_SLOW_GPU;
    if ((dev->desc.inject_faults & both) == both)
        ns = EDMLI_PLACE_SLOW_NS; /* a tie: every run alike */
    else if (dev->desc.inject_faults & slow)
        ns += EDMLI_PLACE_SLOW_NS;
    /* a run that failed or ran elsewhere is no measurement (a GPU that
     * failed leaves the device: the operator is on the CPU for good) */
    if ((s && s != EDML_STATUS_INDEX_OUT_OF_RANGE) || moved || p->state != EDMLI_PLACE_MEASURING) return;
    const unsigned slot = edmli_place_turns[p->runs] & EDMLI_PLACE_WARM_UP;
    if (slot != EDMLI_PLACE_WARM_UP) p->t[pc->side][slot] = ns;
    if (++p->runs == EDMLI_PLACE_RUNS) edmli_place_decide(op, p, pc->kind);
}

/* Why a measurable operator runs where it does with bindings of `kind`. */
static void edmli_place_explain(const edml_operator *op, uint32_t kind, char *buf, size_t cap)
{
    const edml_device *dev = op->obj.device;
    const edmli_place *p = &op->place[kind];
    const char *kn = edmli_kind_name[kind], *b = edml_backend_name(edmli_place_backend(op, kind));
    char why[EDMLI_MESSAGE_BYTES / 2], cpu_t[32], gpu_t[32];
    edmli_place_ms(cpu_t, sizeof cpu_t, p->ns[0]);
    edmli_place_ms(gpu_t, sizeof gpu_t, p->ns[1]);
    const char *cpu = edml_backend_name(edmli_cpu_backend(dev, op->kind)), *gpu = edml_backend_name(op->backend);
    if (p->state == EDMLI_PLACE_MEASURED || p->state == EDMLI_PLACE_SAVED) {
        edmli_format(buf, cap, "%s: %s with %s: %s %s, %s %s%s%s", b,
                     p->state == EDMLI_PLACE_SAVED ? "saved, measured" : "measured", kn, cpu, cpu_t, gpu, gpu_t,
                     edmli_place_close_words(p),
                     p->stale ? " (stale: measured before a GPU driver or edml update; EDML_PLACEMENT_MEASURE "
                                "measures it again)"
                              : "");
    } else if (p->state == EDMLI_PLACE_MODEL) {
        const unsigned w = op->workers ? op->workers : 1u;
        const char *stale = edmli_cost_stale(dev);
        edmli_cost_path path[2];
        edmli_cost_path_on(op, edmli_cpu_backend(dev, op->kind), &path[0]);
        edmli_cost_path_on(op, op->backend, &path[1]);
        edmli_format(buf, cap, "%s: model: %s %s, %s %s (%s, %u worker%s)%s%s%s%s; %s %s in %u part%s, %s %s", b, cpu,
                     cpu_t, gpu, gpu_t, kn, w, w == 1u ? "" : "s", edmli_place_close_words(p),
                     *stale ? " (stale: the model's " : "", stale, *stale ? ")" : "", cpu,
                     edmli_cost_path_name(path[0].path), (unsigned)path[0].parts, path[0].parts == 1 ? "" : "s", gpu,
                     edmli_cost_path_name(path[1].path));
    } else if (p->state == EDMLI_PLACE_MEASURING) {
        edmli_format(buf, cap, "%s: measuring with %s: %u of %u runs, on %s, %s, then %s again", b, kn,
                     (unsigned)p->runs, EDMLI_PLACE_RUNS, cpu, gpu, cpu);
    } else {
        edmli_backends[op->backend]->wants(dev, op, why, sizeof why);
        edmli_format(buf, cap, "%s: threshold (%s %s): %s", b,
                     dev->desc.placement == EDML_PLACEMENT_MEASURE ? "until measured with"
                     : dev->desc.placement == EDML_PLACEMENT_SAVED ? "no saved decision for"
                                                                   : "no model of both sides with",
                     kn, why);
    }
}

/* The backend off the CPU built for the operator's kind (GLES), or AUTO. */
static edml_backend edmli_gpu_side(const edml_operator *op)
{
    for (int b = EDML_BACKEND_COUNT_ - 1; b > EDML_BACKEND_AUTO; b--)
        if (edmli_backends[b] && !edmli_backends[b]->on_cpu && edmli_backends[b]->kernels[op->kind])
            return (edml_backend)b;
    return EDML_BACKEND_AUTO;
}

/* Why an AUTO operator that is not measured runs where it does. */
static void edmli_place_fixed(const edml_operator *op, char *buf, size_t cap)
{
    const edml_device *dev = op->obj.device;
    const edml_backend g = edmli_gpu_side(op);
    const char *b = edml_backend_name(op->backend);
    char why[EDMLI_MESSAGE_BYTES / 2];
    if (op->declined[0])
        edmli_format(buf, cap, "%s: the %s backend cannot run it: %s", b, edmli_backend_title(g), op->declined);
    else if (g == EDML_BACKEND_AUTO)
        edmli_format(buf, cap, "%s: no backend off the CPU has this operator", b);
    else if (!(dev->backends & EDML_BACKEND_BIT(g)))
        edmli_format(buf, cap, "%s: no %s on this device: %s", b, edmli_backend_title(g), dev->why[g]);
    else if (op->measurable) /* its GPU side failed since: the operator ran on the CPU for good */
        edmli_format(buf, cap, "%s: the %s backend failed it", b, edmli_backend_title(g));
    else {
        edmli_backends[g]->wants(dev, op, why, sizeof why);
        edmli_format(buf, cap, "%s: threshold: %s", b, why);
    }
}

const char *edml_operator_placement(const edml_operator *handle, char *buf, size_t cap)
{
    edmli_object *o;
    if (!buf || !cap) return "";
    const edml_status s = edmli_object_enter(handle, EDMLI_OBJ_OPERATOR, NULL, &o);
    if (s) {
        edmli_format(buf, cap, "%s: %s", edml_status_string(s), edml_error_without_device());
        return buf;
    }
    const edml_operator *op = (const edml_operator *)o;
    const edml_device *dev = op->obj.device;
    if (op->requested != EDML_BACKEND_AUTO && !(dev->backends & EDML_BACKEND_BIT(op->backend)))
        edmli_format(buf, cap, "%s: asked for by name, off this device: %s", edml_backend_name(op->backend),
                     dev->why[op->backend]);
    else if (op->requested != EDML_BACKEND_AUTO)
        edmli_format(buf, cap, "%s: asked for by name", edml_backend_name(op->backend));
    else if (edmli_place_open(op))
        edmli_place_explain(op, op->last_kind, buf, cap);
    else
        edmli_place_fixed(op, buf, cap);
    edmli_device_leave(op->obj.device, EDML_STATUS_OK, false);
    return buf;
}
