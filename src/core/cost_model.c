/* AUTO's cost model of the board: for each operator family, backend, kernel
 * path (cost_figures.h), kind of bindings and worker count, a call's time as a fixed cost plus
 * terms in the operator's bytes, elements, rows and a row's elements, fitted by the board
 * report (tools/bench/report_model.c). Each backend's plan says which path
 * it runs an operator by and, on the CPU, in how many parts: the line is
 * that path's for the operator's element bytes (else the path's for any,
 * else its family's path-0 line) for those parts, so that work that does
 * not split is priced as one worker's and a type whose kernel costs more
 * an element than another's (floats under emulation, 64-bit keys in GLSL)
 * by its own line. With a model of both sides
 * for the operator's kind of bindings, AUTO predicts both and runs the
 * faster; the thresholds decide where the model has no line.
 *
 * The lines come from edml_device_desc.cost_model, a blob the board report
 * wrote with edml_cost_model_write(), where it was made for this device's
 * board, GPU driver and edml version and every line's checksum holds; else
 * from edml_board.cost_model (caps.h's EDML_BOARD_COST_MODEL, program data).
 * The blob is caller memory the device trusts no further than the
 * placement cache: each line is copied out and its checksum checked again
 * when it is read.
 *   header: "edmlcm4", the board's key, the GPU's, edml's version, lines
 *   line:   an edml_cost_term (40 bytes), its checksum
 * A blob of an earlier format (lines without a path) is refused. */
#include "internal.h"

#include <string.h>

typedef struct edmli_cm_head {
    char magic[8];
    uint32_t board, gpu, version, terms;
    uint32_t reserved[2];
} edmli_cm_head;

typedef struct edmli_cm_line {
    edml_cost_term term;
    uint32_t sum;
} edmli_cm_line;

static const char edmli_cm_magic[8] = "edmlcm4";
_Static_assert(sizeof(edmli_cm_head) == 32 && sizeof(edml_cost_term) == 40 && sizeof(edmli_cm_line) == 44,
               "EDML_COST_MODEL_BYTES");

#define EDMLI_CM_FIGURES EDMLI_COST_FIGURES /* a line's terms' (internal.h) */
#define EDMLI_CM_MARGIN 20u                 /* predictions within 1/20 (5%) of each other: the thresholds' choice */

/* A line's first member that is wrong, by name, and what is wrong with it
 * in *why: a figure that is not a finite number of at least 0 (a NaN, an
 * infinity or a negative time would make a prediction undefined or upside
 * down), a path that is none of its family's and backend's, reserved bytes
 * not 0; NULL where the line is sound. */
const char *edmli_cost_term_bad(const edml_cost_term *t, const char **why)
{
    static const char *const names[8] = {"fixed_us",     "us_per_mib",   "us_per_melement", "us_per_mrow",
                                         "us_per_mhalf", "us_per_mlong", "us_per_mstrided", "us_per_mkept"};
    const float f[8] = {t->fixed_us,     t->us_per_mib,   t->us_per_melement, t->us_per_mrow,
                        t->us_per_mhalf, t->us_per_mlong, t->us_per_mstrided, t->us_per_mkept};
    *why = "is not a finite time of 0 or more (a NaN, an infinity or a negative)";
    for (int i = 0; i < 8; i++) {
        uint32_t bits;
        memcpy(&bits, &f[i], sizeof bits);
        const bool finite = (bits >> 23 & 0xffu) != 0xffu, negative = bits >> 31 && (bits & 0x7fffffffu);
        if (!finite || negative) return names[i];
    }
    uint32_t family = 0;
    edml_backend backend = EDML_BACKEND_AUTO;
    *why = "is no kernel path of the line's family and backend (0: every path)";
    if (t->path &&
        (!edmli_cost_path_info(t->path, &family, &backend) || family != t->family || (uint32_t)backend != t->backend))
        return "path";
    *why = "is not 0, 1, 2, 4 or 8";
    if (t->elem_bytes > 8 || (t->elem_bytes & (t->elem_bytes - 1))) return "elem_bytes";
    *why = "is not 0";
    return t->reserved[0] | t->reserved[1] ? "reserved" : NULL;
}

edml_status edmli_cost_terms_check(edmli_errbuf *e, const char *what, const edml_cost_term *terms, uint32_t n)
{
    for (uint32_t i = 0; terms && i < n; i++) {
        const char *why, *bad = edmli_cost_term_bad(&terms[i], &why);
        if (bad) return edmli_fail(e, EDMLI_MSG_COST_TERM, what, (unsigned)i, bad, why);
    }
    return EDML_STATUS_OK;
}

static uint32_t edmli_cm_sum(const edml_cost_term *t)
{
    return edmli_fnv1a(EDMLI_FNV1A_SEED, t, sizeof *t) ^ 0x5bd1e995u;
}

static edmli_cm_head edmli_cm_key(const edml_device *dev, uint32_t terms)
{
    edmli_cm_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, edmli_cm_magic, sizeof h.magic);
    h.board = edmli_board_key(&dev->board);
    h.gpu = edmli_gpu_key(dev);
    h.version = EDML_VERSION;
    h.terms = terms;
    return h;
}

size_t edmli_cost_model_blob(const edml_device *device, const edml_cost_term *terms, uint32_t n, void *buf, size_t cap)
{
    const size_t bytes = EDML_COST_MODEL_BYTES(n); /* SIZE_MAX where it cannot be addressed */
    if ((!terms && n) || !buf || cap < bytes || bytes == SIZE_MAX) return 0;
    const edmli_cm_head h = edmli_cm_key(device, n);
    uint8_t *out = (uint8_t *)buf;
    memcpy(out, &h, sizeof h);
    for (uint32_t i = 0; i < n; i++) {
        edmli_cm_line line;
        memset(&line, 0, sizeof line);
        line.term = terms[i];
        line.sum = edmli_cm_sum(&line.term);
        memcpy(out + sizeof h + (size_t)i * sizeof line, &line, sizeof line);
    }
    return bytes;
}

/* Line i of the blob, its checksum checked (false: damaged since). */
static bool edmli_cm_blob_line(const edml_device *dev, uint32_t i, edml_cost_term *t)
{
    edmli_cm_line line;
    memcpy(&line, dev->model.blob + sizeof(edmli_cm_head) + (size_t)i * sizeof line, sizeof line);
    *t = line.term;
    return line.sum == edmli_cm_sum(&line.term);
}

/* Why the blob cannot serve this device, or NULL. */
static const char *edmli_cm_refusal(const edml_device *dev, const edmli_cm_head *got, size_t bytes)
{
    const edmli_cm_head want = edmli_cm_key(dev, got->terms);
    if (!memcmp(got->magic, "edmlcm", 6) && memcmp(got->magic, want.magic, sizeof got->magic))
        return "cost model: not used: its format is an older edml's (lines without kernel paths); the board report "
               "run again makes one of this format";
    if (memcmp(got->magic, want.magic, sizeof got->magic)) return "cost model: not used: it is no edml cost model";
    if (got->board != want.board) return "cost model: not used: it was made for another board";
    if (got->terms > (bytes - sizeof *got) / sizeof(edmli_cm_line))
        return "cost model: not used: cost_model_bytes holds fewer lines than its header says";
    return NULL;
}

/* Why a blob of this board was made before an update (its lines used,
 * stale), or NULL: another edml version's kernels (every line), another
 * GPU driver (its GLES lines; the CPU's do not depend on it). */
static const char *edmli_cm_outdated(const edml_device *dev, const edmli_cm_head *got)
{
    const edmli_cm_head want = edmli_cm_key(dev, got->terms);
    if (got->version != want.version) return "lines made by another edml version";
    if (got->gpu != want.gpu) return "GLES lines made on another GPU driver (renderer or version)";
    return NULL;
}

const char *edmli_cost_stale(const edml_device *dev) { return dev->model.stale ? dev->model.stale : ""; }

void edmli_cost_model_open(edml_device *dev)
{
    edmli_cost_model *m = &dev->model;
    memset(m, 0, sizeof *m);
    m->board_terms = dev->board.cost_model ? dev->board.cost_model_terms : 0;
    const edml_device_desc *dd = &dev->desc;
    if (!dd->cost_model) return;
    const char *why = "cost model: not used: cost_model_bytes holds not even its 32-byte header";
    edmli_cm_head got;
    if (dd->cost_model_bytes >= sizeof got) {
        memcpy(&got, dd->cost_model, sizeof got);
        why = edmli_cm_refusal(dev, &got, dd->cost_model_bytes);
    }
    m->blob = (const uint8_t *)dd->cost_model;
    m->blob_terms = why ? 0 : got.terms;
    char line[EDMLI_MESSAGE_BYTES / 2]; /* a line's refusal, or what was taken */
    for (uint32_t i = 0; !why && i < m->blob_terms; i++) {
        edml_cost_term t;
        if (!edmli_cm_blob_line(dev, i, &t)) why = "cost model: not used: a line's checksum does not match";
        const char *what = NULL, *figure = why ? NULL : edmli_cost_term_bad(&t, &what);
        if (figure)
            edmli_format(line, sizeof line, "cost model: not used: line %u's %s %s", (unsigned)i, figure, what),
                why = line;
    }
    if (why) m->blob = NULL, m->blob_terms = 0;
    if (!why) m->stale = edmli_cm_outdated(dev, &got);
    if (!dev->err.log) return;
    if (!why)
        edmli_format(line, sizeof line, "cost model: %u lines taken (%s%s%s)", (unsigned)m->blob_terms,
                     m->stale ? "stale: its " : "this board's, GPU driver's and edml version's",
                     m->stale ? m->stale : "", m->stale ? "; the board report run again makes them anew" : "");
    dev->err.log(dev->err.log_user, EDML_STATUS_OK, why ? why : line);
}

/* Line i of the model the device uses: the blob's where it took one. */
static bool edmli_cm_line_at(const edml_device *dev, uint32_t i, edml_cost_term *t)
{
    if (dev->model.blob) return edmli_cm_blob_line(dev, i, t);
    *t = dev->board.cost_model[i];
    return true;
}

static uint32_t edmli_cm_lines(const edml_device *dev)
{
    return dev->model.blob ? dev->model.blob_terms : dev->model.board_terms;
}

/* The line for one side: the family, backend, path and element bytes
 * (else the path's line for any element, else the family's path-0 line)
 * and binding, and the most workers at or below `workers` (else the
 * fewest above): on the CPU the parts its path runs in, on the GPU the
 * company its calls keep (a GPU's clock follows its load, which a few
 * workers' long CPU calls between leave low; a model whose GPU lines say 0
 * workers has one line for all). */
static bool edmli_cm_find(const edml_device *dev, uint32_t family, edml_backend b, uint32_t path, uint32_t elem,
                          uint32_t binding, uint32_t workers, edml_cost_term *out)
{
    bool found = false;
    for (uint32_t i = 0, n = edmli_cm_lines(dev); i < n; i++) {
        edml_cost_term t = {0};
        if (!edmli_cm_line_at(dev, i, &t) || t.family != family || t.backend != (uint32_t)b || t.binding != binding ||
            t.path != path || t.elem_bytes != elem)
            continue;
        const bool better = !found || (t.workers <= workers ? out->workers > workers || t.workers > out->workers
                                                            : out->workers > workers && t.workers < out->workers);
        if (better) *out = t; /* (out is read only once a line was found) */
        found = true;
    }
    if (found || (!path && !elem)) return found;
    return elem ? edmli_cm_find(dev, family, b, path, 0, binding, workers, out)
                : edmli_cm_find(dev, family, b, EDMLI_COST_PATH_ANY, 0, binding, workers, out);
}

/* The bytes of the elements an operator compares or moves: its input's,
 * ElementWiseIf's values' (not its condition's). */
uint32_t edmli_cost_elem_bytes(const edml_operator *op)
{
    return op->inputs[op->kind == EDMLI_OP_ELEMENTWISE_IF ? 1 : 0].elem_size;
}

void edmli_cost_path_on(const edml_operator *op, edml_backend b, edmli_cost_path *out)
{
    const edmli_backend *be = edmli_backends[b];
    out->path = EDMLI_COST_PATH_ANY;
    out->parts = op->workers ? op->workers : 1u;
    /* a GPU backend's path reads its plan: only the operator's own backend has one */
    if (be && be->path && (be->on_cpu || b == op->backend)) be->path(op, out);
    if (!out->parts) out->parts = 1;
    out->elem_bytes = edmli_cost_elem_bytes(op);
}

/* Whether an ArgMin/ArgMax reduces its input's innermost dim (of more
 * than one element): each output a reduction along a row. */
static bool edmli_cm_horizontal(const edml_operator *op)
{
    const edmli_tensor *t = &op->inputs[0];
    uint32_t d = t->rank;
    while (d > 1 && t->sizes[d - 1] == 1) d--;
    return d > 0 && (op->plan.argreduce.axis_mask >> (d - 1) & 1u);
}

/* The operator's figures the model weighs: MiB it moves (its tensors;
 * GatherND's indices, the slices it gathers and its output, unless
 * `uploads`: the GPU with host memory uploads every input, the CPU maps
 * every GPU buffer whole), millions
 * of elements of its largest, millions of rows (ArgMin's: its outputs
 * where each reduces a row, none where it reduces down columns;
 * ElementWiseIf's: the runs of its innermost dim once the planner merged
 * what is contiguous in all four tensors), millions of FLOAT16 input
 * elements, millions of elements of one row (TopK's axis, the elements
 * ArgMin reduces to one output: what one worker or workgroup goes
 * through however many there are), millions of input elements TopK or
 * ArgMin goes through down columns (a strided axis, a reduction not of
 * the innermost dim: a CPU's caches serve them worse the larger they are),
 * millions of candidates TopK keeps (K a row: what its heaps and sorts
 * hold, apart from the elements they scan). */
void edmli_cost_shape(const edml_operator *op, bool uploads, double f[EDMLI_CM_FIGURES])
{
    uint64_t bytes = 0, elems = 0, rows = 0, halves = 0, along = 0, down = 0;
    for (uint32_t i = 0; i < op->input_count; i++) {
        bytes += op->inputs[i].total_bytes;
        elems = op->inputs[i].elem_count > elems ? op->inputs[i].elem_count : elems;
        if (op->inputs[i].dtype == EDML_TENSOR_DATA_TYPE_FLOAT16) halves += op->inputs[i].elem_count;
    }
    for (uint32_t o = 0; o < op->output_count; o++) {
        bytes += op->outputs[o].total_bytes;
        elems = op->outputs[o].elem_count > elems ? op->outputs[o].elem_count : elems;
    }
    if (op->kind == EDMLI_OP_TOPK && op->plan.topk.axis_size) {
        rows = op->inputs[0].elem_count / op->plan.topk.axis_size;
        along = op->plan.topk.axis_size;
        down = op->inputs[0].strides[op->plan.topk.axis] != 1 ? op->inputs[0].elem_count : 0;
    }
    if (op->kind == EDMLI_OP_ARGREDUCE && op->outputs[0].elem_count)
        along = op->inputs[0].elem_count / op->outputs[0].elem_count;
    if (op->kind == EDMLI_OP_ARGREDUCE) {
        const bool horizontal = edmli_cm_horizontal(op);
        rows = horizontal ? op->outputs[0].elem_count : 0;
        down = horizontal ? 0 : op->inputs[0].elem_count;
    }
    if (op->kind == EDMLI_OP_GATHER_ND && op->plan.gather_nd.tuple)
        rows = op->inputs[1].elem_count / op->plan.gather_nd.tuple;
    if (op->kind == EDMLI_OP_GATHER_ND && !uploads) /* the slices gathered, not the whole table */
        bytes = op->inputs[1].total_bytes + 2 * op->outputs[0].total_bytes;
    if (op->kind == EDMLI_OP_ELEMENTWISE_IF) {
        const edmli_elementwise_if_plan *p = &op->plan.elementwise_if;
        rows = op->outputs[0].elem_count / (p->sizes[p->rank - 1] ? p->sizes[p->rank - 1] : 1u);
    }
    f[0] = (double)bytes / 1048576.0, f[1] = (double)elems / 1e6, f[2] = (double)rows / 1e6;
    f[3] = (double)halves / 1e6, f[4] = (double)along / 1e6, f[5] = (double)down / 1e6;
    f[6] = op->kind == EDMLI_OP_TOPK ? (double)op->outputs[0].elem_count / 1e6 : 0; /* K a row, every row */
}

static uint64_t edmli_cm_ns(const edml_cost_term *t, const double f[EDMLI_CM_FIGURES])
{
    const double us = (double)t->fixed_us + (double)t->us_per_mib * f[0] + (double)t->us_per_melement * f[1] +
                      (double)t->us_per_mrow * f[2] + (double)t->us_per_mhalf * f[3] + (double)t->us_per_mlong * f[4] +
                      (double)t->us_per_mstrided * f[5] + (double)t->us_per_mkept * f[6];
    if (us != us) return UINT64_MAX; /* not reached: every line's figures are checked finite and not negative */
    return us <= 0 ? 0 : us >= 1.8e13 ? UINT64_MAX : (uint64_t)(us * 1000.0);
}

uint32_t edmli_cost_binding(const edml_device *dev, uint32_t kind)
{
    if (kind == EDMLI_BIND_HOST) return EDML_COST_HOST_MEMORY;
    return dev->desc.gpu_arena_mapped ? EDML_COST_MAPPED_GPU_BUFFERS : EDML_COST_GPU_BUFFERS;
}

/* One side's prediction: the line of the path backend b runs op by, for
 * the parts it runs in on the CPU, the device's workers on the GPU. */
static bool edmli_cm_side(const edml_device *dev, const edml_operator *op, edml_backend b, uint32_t binding,
                          uint64_t *ns)
{
    edmli_cost_path path;
    edmli_cost_path_on(op, b, &path);
    const uint32_t workers = op->workers ? op->workers : 1;
    const bool cpu = edmli_backends[b] && edmli_backends[b]->on_cpu;
    double f[EDMLI_CM_FIGURES];
    edmli_cost_shape(op, cpu != (binding == EDML_COST_HOST_MEMORY), f);
    edml_cost_term t = {0};
    if (!edmli_cm_find(dev, (uint32_t)op->kind, b, path.path, edmli_cost_elem_bytes(op), binding,
                       cpu ? path.parts : workers, &t))
        return false;
    *ns = edmli_cm_ns(&t, f);
    return true;
}

bool edmli_cost_predict(const edml_device *dev, const edml_operator *op, const edml_backend side[2], uint32_t kind,
                        uint64_t ns[2])
{
    const uint32_t binding = edmli_cost_binding(dev, kind);
    return edmli_cm_lines(dev) && edmli_cm_side(dev, op, side[0], binding, &ns[0]) &&
           edmli_cm_side(dev, op, side[1], binding, &ns[1]);
}

bool edmli_cost_predict_on(const edml_device *dev, const edml_operator *op, uint32_t kind, uint64_t *ns)
{
    return edmli_cm_lines(dev) && edmli_cm_side(dev, op, op->backend, edmli_cost_binding(dev, kind), ns);
}

bool edmli_cost_covers(const edml_device *dev, const edml_operator *op, const edml_backend side[2])
{
    uint64_t ns[2];
    for (uint32_t k = 0; k < EDMLI_BIND_KINDS; k++)
        if (edmli_cost_predict(dev, op, side, k, ns)) return true;
    return false;
}

bool edmli_cost_close(const uint64_t ns[2])
{
    const uint64_t lo = ns[0] < ns[1] ? ns[0] : ns[1], hi = ns[0] ^ ns[1] ^ lo;
    return hi - lo <= lo / EDMLI_CM_MARGIN;
}
