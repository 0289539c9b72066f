/* The .case format: the lexer and the parser (case_run.c builds, runs,
 * prints and compares). */
#include "case.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------- */

static const struct {
    const char *name;
    EDML_TENSOR_DATA_TYPE t;
} dtype_names[] = {
    {"FLOAT64", EDML_TENSOR_DATA_TYPE_FLOAT64}, {"FLOAT32", EDML_TENSOR_DATA_TYPE_FLOAT32},
    {"FLOAT16", EDML_TENSOR_DATA_TYPE_FLOAT16}, {"INT64", EDML_TENSOR_DATA_TYPE_INT64},
    {"INT32", EDML_TENSOR_DATA_TYPE_INT32},     {"INT16", EDML_TENSOR_DATA_TYPE_INT16},
    {"INT8", EDML_TENSOR_DATA_TYPE_INT8},       {"UINT64", EDML_TENSOR_DATA_TYPE_UINT64},
    {"UINT32", EDML_TENSOR_DATA_TYPE_UINT32},   {"UINT16", EDML_TENSOR_DATA_TYPE_UINT16},
    {"UINT8", EDML_TENSOR_DATA_TYPE_UINT8},
};

const char *case_dtype_name(EDML_TENSOR_DATA_TYPE t)
{
    for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; i++)
        if (dtype_names[i].t == t) return dtype_names[i].name;
    return "UNKNOWN";
}

const char *case_op_name(EDML_OPERATOR_TYPE t)
{
    const edml_operator_schema *sc = edml_operator_schema_of(t);
    return sc ? sc->name : "INVALID";
}

static bool strip_prefix(const char **s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(*s, prefix, n) == 0) {
        *s += n;
        return true;
    }
    return false;
}

static bool parse_dtype(const char *s, EDML_TENSOR_DATA_TYPE *t)
{
    strip_prefix(&s, "DML_TENSOR_DATA_TYPE_");
    for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; i++)
        if (strcmp(s, dtype_names[i].name) == 0) {
            *t = dtype_names[i].t;
            return true;
        }
    return false;
}

static bool parse_op(const char *s, EDML_OPERATOR_TYPE *t)
{
    char buf[96];
    size_t n = strlen(s);
    /* DML_TOP_K1_OPERATOR_DESC -> TOP_K1 */
    if (strncmp(s, "DML_", 4) == 0 && n > 14 && strcmp(s + n - 14, "_OPERATOR_DESC") == 0 && n - 18 < sizeof buf) {
        memcpy(buf, s + 4, n - 18);
        buf[n - 18] = '\0';
        s = buf;
    } else {
        strip_prefix(&s, "DML_OPERATOR_");
    }
    UINT n_ops;
    const edml_operator_schema *ops = edml_operator_schemas(&n_ops);
    for (UINT i = 0; i < n_ops; i++)
        if (strcmp(s, ops[i].name) == 0) {
            *t = ops[i].type;
            return true;
        }
    return false;
}

/* ---- lexer ---------------------------------------------------------------- */

typedef enum {
    TK_END,
    TK_WORD,
    TK_PUNCT
} tk_kind;

typedef struct lexer {
    const char *p;
    int line;
    const char *path;
    char *err;
    size_t errcap;
    bool failed;
    /* current token */
    tk_kind kind;
    char punct;
    char word[128];
    int tline;
    char *message; /* where a "// message:" comment goes, or NULL */
    size_t message_cap;
    bool data_optional; /* case_parse_shapes: an input may leave out its data */
} lexer;

static int fail(lexer *lx, int line, const char *fmt, ...)
{
    if (lx->failed) return -1;
    lx->failed = true;
    int n = snprintf(lx->err, lx->errcap, "%s:%d: ", lx->path, line);
    if (n < 0) n = 0;
    if ((size_t)n < lx->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(lx->err + n, lx->errcap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-' || c == '+';
}

static void next(lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == '\n') {
            lx->line++;
            lx->p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
            lx->p++;
        else if (c == '#' || (c == '/' && lx->p[1] == '/')) {
            const char *q = lx->p + (c == '#' ? 1 : 2);
            while (*q == ' ') q++;
            if (lx->message && strncmp(q, "message:", 8) == 0 && !lx->message[0]) {
                q += 8;
                while (*q == ' ') q++;
                size_t n = 0;
                while (q[n] && q[n] != '\n' && n + 1 < lx->message_cap) n++;
                while (n && (q[n - 1] == ' ' || q[n - 1] == '\r')) n--;
                memcpy(lx->message, q, n);
                lx->message[n] = '\0';
            }
            while (*lx->p && *lx->p != '\n') lx->p++;
        } else
            break;
    }
    lx->tline = lx->line;
    char c = *lx->p;
    if (!c) {
        lx->kind = TK_END;
        return;
    }
    if (is_word_char(c)) {
        size_t n = 0;
        while (is_word_char(*lx->p)) {
            if (n + 1 < sizeof lx->word)
                lx->word[n++] = *lx->p;
            else {
                fail(lx, lx->line, "token too long");
            }
            lx->p++;
        }
        lx->word[n] = '\0';
        lx->kind = TK_WORD;
        return;
    }
    if (strchr(":,()[]{}", c)) {
        lx->kind = TK_PUNCT;
        lx->punct = c;
        lx->p++;
        return;
    }
    fail(lx, lx->line, "unexpected character '%c'", c);
    lx->kind = TK_END;
}

static bool is_punct(const lexer *lx, char c) { return lx->kind == TK_PUNCT && lx->punct == c; }

static int expect_punct(lexer *lx, char c, const char *what)
{
    if (!is_punct(lx, c)) {
        const char *got = lx->kind == TK_END ? "end of file" : lx->kind == TK_WORD ? lx->word : (char[2]){lx->punct, 0};
        return fail(lx, lx->tline, "expected '%c' %s, got '%s'", c, what, got);
    }
    next(lx);
    return 0;
}

/* ---- numbers -------------------------------------------------------------- */

static int parse_u64(const char *s, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+') return -1;
    for (const char *q = s; *q; q++)
        if (*q < '0' || *q > '9') return -1;
    errno = 0;
    unsigned long long x = strtoull(s, NULL, 10);
    if (errno) return -1;
    *v = x;
    return 0;
}

static int parse_i64(const char *s, int64_t *v, bool *range)
{
    const char *q = s;
    *range = false;
    if (*q == '-' || *q == '+') q++;
    if (!*q) return -1;
    for (; *q; q++)
        if (*q < '0' || *q > '9') return -1;
    errno = 0;
    long long x = strtoll(s, NULL, 10);
    if (errno == ERANGE) {
        *range = true;
        return -1;
    }
    *v = x;
    return 0;
}

/* float16 bits from a double when exactly representable */
static bool half_from_double(double d, uint16_t *out)
{
    if (isnan(d)) {
        *out = signbit(d) ? 0xfe00 : 0x7e00;
        return true;
    }
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    if (isinf(a)) {
        *out = sign | 0x7c00;
        return true;
    }
    if (a == 0) {
        *out = sign;
        return true;
    }
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    /* normal half: e-1 in [-14, 15]; 11 significant bits */
    if (e - 1 > 15) return false;
    if (e - 1 >= -14) {
        double scaled = ldexp(m, 11); /* in [1024, 2048) */
        if (scaled != floor(scaled)) return false;
        uint16_t mant = (uint16_t)((uint32_t)scaled - 1024);
        *out = sign | (uint16_t)((e - 1 + 15) << 10) | mant;
        return true;
    }
    double sub = ldexp(a, 24); /* subnormal units of 2^-24 */
    if (sub != floor(sub) || sub >= 1024) return false;
    *out = sign | (uint16_t)sub;
    return true;
}

double case_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int parse_float_word(const char *s, double *d, bool *special)
{
    const char *q = s;
    bool neg = false;
    *special = false;
    if (*q == '-' || *q == '+') {
        neg = *q == '-';
        q++;
    }
    if (strcmp(q, "nan") == 0 || strcmp(q, "NaN") == 0 || strcmp(q, "NAN") == 0) {
        *d = neg ? -NAN : NAN;
        *special = true;
        return 0;
    }
    if (strcmp(q, "inf") == 0 || strcmp(q, "Inf") == 0 || strcmp(q, "INF") == 0 || strcmp(q, "infinity") == 0) {
        *d = neg ? -INFINITY : INFINITY;
        *special = true;
        return 0;
    }
    /* decimal or exponent only: digits, one '.', optional e[+-]digits */
    bool digits = false;
    while (*q >= '0' && *q <= '9') {
        q++;
        digits = true;
    }
    if (*q == '.') {
        q++;
        while (*q >= '0' && *q <= '9') {
            q++;
            digits = true;
        }
    }
    if (!digits) return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!(*q >= '0' && *q <= '9')) return -1;
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q) return -1;
    return 0;
}

bool case_dtype_signed(EDML_TENSOR_DATA_TYPE t)
{
    return t == EDML_TENSOR_DATA_TYPE_INT8 || t == EDML_TENSOR_DATA_TYPE_INT16 || t == EDML_TENSOR_DATA_TYPE_INT32 ||
           t == EDML_TENSOR_DATA_TYPE_INT64;
}

/* An integer element of `size` bytes at p, in the machine's order: its bits
 * widened, sign-extended where the type is signed; and stored back (the
 * low `size` bytes of v). */
uint64_t case_int_load(const uint8_t *p, UINT size, bool is_signed)
{
    uint8_t u8 = 0;
    uint16_t u16 = 0;
    uint32_t u32 = 0;
    uint64_t v = 0;
    if (size == 1) memcpy(&u8, p, 1);
    if (size == 2) memcpy(&u16, p, 2);
    if (size == 4) memcpy(&u32, p, 4);
    if (size == 8) memcpy(&v, p, 8);
    v |= (uint64_t)u8 | u16 | u32;
    const unsigned drop = 64u - 8u * size;
    return is_signed && drop ? (uint64_t)((int64_t)(v << drop) >> drop) : v;
}
void case_int_store(uint8_t *p, UINT size, uint64_t v)
{
    const uint8_t u8 = (uint8_t)v;
    const uint16_t u16 = (uint16_t)v;
    const uint32_t u32 = (uint32_t)v;
    if (size == 1)
        memcpy(p, &u8, 1);
    else if (size == 2)
        memcpy(p, &u16, 2);
    else if (size == 4)
        memcpy(p, &u32, 4);
    else
        memcpy(p, &v, 8);
}

/* Stores one written value into element slot p of type t. */
static int store_value(lexer *lx, int line, const char *w, EDML_TENSOR_DATA_TYPE t, uint8_t *p)
{
    if (t == EDML_TENSOR_DATA_TYPE_FLOAT32 || t == EDML_TENSOR_DATA_TYPE_FLOAT64 ||
        t == EDML_TENSOR_DATA_TYPE_FLOAT16) {
        double d;
        bool special;
        if (parse_float_word(w, &d, &special)) return fail(lx, line, "'%s' is not a number", w);
        if (t == EDML_TENSOR_DATA_TYPE_FLOAT64) {
            if (!special) {
                errno = 0;
                d = strtod(w, NULL);
                if (isinf(d)) return fail(lx, line, "%s is out of the range of FLOAT64", w);
            }
            memcpy(p, &d, 8);
        } else if (t == EDML_TENSOR_DATA_TYPE_FLOAT32) {
            float f = special ? (float)d : strtof(w, NULL);
            if (!special && isinf(f)) return fail(lx, line, "%s is out of the range of FLOAT32", w);
            memcpy(p, &f, 4);
        } else {
            if (!special) d = strtod(w, NULL);
            uint16_t h;
            if (!half_from_double(d, &h)) return fail(lx, line, "%s is not exactly representable as FLOAT16", w);
            memcpy(p, &h, 2);
        }
        return 0;
    }
    UINT size = edml_data_type_size(t);
    if (case_dtype_signed(t)) {
        int64_t v;
        bool range;
        if (parse_i64(w, &v, &range))
            return fail(lx, line, range ? "%s is out of the range of %s" : "'%s' is not an integer (%s)", w,
                        case_dtype_name(t));
        int64_t lo = size == 8 ? INT64_MIN : -((int64_t)1 << (size * 8 - 1));
        int64_t hi = size == 8 ? INT64_MAX : ((int64_t)1 << (size * 8 - 1)) - 1;
        if (v < lo || v > hi) return fail(lx, line, "%s is out of the range of %s", w, case_dtype_name(t));
        case_int_store(p, size, (uint64_t)v);
        return 0;
    }
    uint64_t v;
    if (strcmp(w, "-0") == 0) w = "0";
    if (parse_u64(w, &v)) {
        if (w[0] == '-') return fail(lx, line, "%s is out of the range of %s", w, case_dtype_name(t));
        if (w[0] >= '0' && w[0] <= '9' && strspn(w, "0123456789") == strlen(w))
            return fail(lx, line, "%s is out of the range of %s", w, case_dtype_name(t));
        return fail(lx, line, "'%s' is not an integer (%s)", w, case_dtype_name(t));
    }
    uint64_t hi = size == 8 ? UINT64_MAX : (((uint64_t)1 << (size * 8)) - 1);
    if (v > hi) return fail(lx, line, "%s is out of the range of %s", w, case_dtype_name(t));
    case_int_store(p, size, v);
    return 0;
}

/* ---- tensors -------------------------------------------------------------- */

uint64_t case_element_count(const case_tensor *t)
{
    uint64_t n = 1;
    for (UINT i = 0; i < t->rank; i++) n *= t->sizes[i];
    return n;
}

uint64_t case_element_offset(const case_tensor *t, uint64_t flat)
{
    uint64_t off = 0;
    UINT es = edml_data_type_size(t->dtype);
    for (UINT i = t->rank; i-- > 0;) {
        uint64_t c = flat % t->sizes[i];
        flat /= t->sizes[i];
        uint64_t stride = t->has_strides ? t->strides[i] : 1;
        if (!t->has_strides) {
            uint64_t s = 1;
            for (UINT j = i + 1; j < t->rank; j++) s *= t->sizes[j];
            stride = s;
        }
        off += c * stride;
    }
    return off * es;
}

static int parse_uint_list(lexer *lx, UINT *vals, UINT max, UINT *count, const char *what)
{
    char close;
    if (is_punct(lx, '{'))
        close = '}';
    else if (is_punct(lx, '['))
        close = ']';
    else
        return fail(lx, lx->tline, "expected '{' to start %s", what);
    next(lx);
    *count = 0;
    while (!is_punct(lx, close)) {
        if (lx->kind != TK_WORD) return fail(lx, lx->tline, "expected a number in %s", what);
        uint64_t v;
        if (parse_u64(lx->word, &v) || v > UINT32_MAX)
            return fail(lx, lx->tline, "'%s' in %s is not an unsigned 32-bit integer", lx->word, what);
        if (*count >= max) return fail(lx, lx->tline, "%s has more than %u values", what, max);
        vals[(*count)++] = (UINT)v;
        next(lx);
        if (is_punct(lx, ','))
            next(lx);
        else if (!is_punct(lx, close))
            return fail(lx, lx->tline, "expected ',' or '%c' in %s", close, what);
    }
    next(lx);
    return 0;
}

/* Bytes a tensor's elements span, as edml_calc_buffer_tensor_size() counts
 * them (rounded up to 4), for any rank: Sizes {} is a scalar (one element,
 * NumPy's rank 0) and more than 8 dimensions are laid out too, so that a
 * case can give their data and the library refuse them. 0: too large. */
static uint64_t case_span_bytes(const case_tensor *t)
{
    if (t->rank >= 1 && t->rank <= EDML_TENSOR_DIMENSION_COUNT_MAX)
        return edml_calc_buffer_tensor_size(t->dtype, t->rank, t->sizes, t->has_strides ? t->strides : NULL);
    uint64_t last = 0, packed = 1;
    for (UINT i = t->rank; i-- > 0;) {
        const uint64_t stride = t->has_strides ? t->strides[i] : packed;
        if (stride > ((uint64_t)1 << 40) || t->sizes[i] - 1ull > ((uint64_t)1 << 40) / (stride ? stride : 1)) return 0;
        last += (t->sizes[i] - 1ull) * stride;
        packed *= t->sizes[i];
        if (last > ((uint64_t)1 << 40) || packed > ((uint64_t)1 << 40)) return 0;
    }
    return ((last + 1) * edml_data_type_size(t->dtype) + 3) & ~(uint64_t)3;
}

/* Reads a nested bracket list of numbers into t->data. */
static int parse_data(lexer *lx, case_tensor *t)
{
    UINT es = edml_data_type_size(t->dtype);
    uint64_t want = t->has_strides ? t->total_bytes / es : case_element_count(t);
    /* room for every addressed element even when TotalTensorSizeInBytes is
     * (wrongly) smaller: the library must be the one to reject that */
    uint64_t calc = case_span_bytes(t);
    t->data = calloc(1, (size_t)(t->total_bytes > calc ? t->total_bytes : calc));
    if (!t->data) return fail(lx, lx->tline, "out of memory");
    int start = lx->tline;
    char stack[64];
    int depth = 0;
    uint64_t n = 0;
    bool need_sep = false;
    do {
        if (is_punct(lx, '[') || is_punct(lx, '{')) {
            if (need_sep) return fail(lx, lx->tline, "expected ',' in %s's data", t->name);
            if (depth >= (int)sizeof stack) return fail(lx, lx->tline, "brackets nested too deep");
            stack[depth++] = lx->punct == '[' ? ']' : '}';
            next(lx);
        } else if (is_punct(lx, ']') || is_punct(lx, '}')) {
            if (lx->punct != stack[depth - 1])
                return fail(lx, lx->tline, "'%c' closes '%c'", lx->punct, stack[depth - 1] == ']' ? '[' : '{');
            depth--;
            need_sep = true;
            next(lx);
        } else if (is_punct(lx, ',')) {
            if (!need_sep) return fail(lx, lx->tline, "unexpected ',' in %s's data", t->name);
            need_sep = false;
            next(lx);
        } else if (lx->kind == TK_WORD) {
            if (need_sep) return fail(lx, lx->tline, "expected ',' before '%s' in %s's data", lx->word, t->name);
            if (n >= want) return fail(lx, lx->tline, "%s has more than %" PRIu64 " values", t->name, want);
            uint64_t off = t->has_strides ? n * es : case_element_offset(t, n);
            if (store_value(lx, lx->tline, lx->word, t->dtype, t->data + off)) return -1;
            n++;
            need_sep = true;
            next(lx);
        } else {
            return fail(lx, lx->tline, "unexpected end of file in %s's data (opened on line %d)", t->name, start);
        }
    } while (depth > 0 && !lx->failed);
    if (lx->failed) return -1;
    if (n != want)
        return fail(lx, start, "%s has %" PRIu64 " values, expected %" PRIu64 "%s", t->name, n, want,
                    t->has_strides ? " (TotalTensorSizeInBytes / element size, in memory order)" : "");
    t->has_data = true;
    return 0;
}

static int parse_tensor(lexer *lx, case_tensor *t)
{
    if (t->present) return fail(lx, lx->tline, "%s is given twice", t->name);
    t->present = true;
    t->line = lx->tline;
    if (expect_punct(lx, '(', "to start the tensor header")) return -1;
    bool has_sizes = false, has_type = false;
    UINT nstrides = 0;
    while (!is_punct(lx, ')')) {
        if (lx->kind != TK_WORD) return fail(lx, lx->tline, "expected a tensor member name");
        char key[128];
        snprintf(key, sizeof key, "%s", lx->word);
        int kline = lx->tline;
        next(lx);
        if (expect_punct(lx, ':', "after the member name")) return -1;
        if (strcmp(key, "Sizes") == 0) {
            if (parse_uint_list(lx, t->sizes, CASE_MAX_DIMS, &t->rank, "Sizes")) return -1;
            has_sizes = true;
        } else if (strcmp(key, "Strides") == 0) {
            if (parse_uint_list(lx, t->strides, CASE_MAX_DIMS, &nstrides, "Strides")) return -1;
            t->has_strides = true;
        } else if (strcmp(key, "DataType") == 0) {
            if (lx->kind != TK_WORD || !parse_dtype(lx->word, &t->dtype))
                return fail(lx, lx->tline, "'%s' is not a data type", lx->kind == TK_WORD ? lx->word : "?");
            has_type = true;
            next(lx);
        } else if (strcmp(key, "TotalTensorSizeInBytes") == 0) {
            uint64_t v;
            if (lx->kind != TK_WORD || parse_u64(lx->word, &v))
                return fail(lx, lx->tline, "TotalTensorSizeInBytes must be an unsigned integer");
            t->has_total = true;
            t->buffer.TotalTensorSizeInBytes = v;
            next(lx);
        } else {
            return fail(lx, kline, "unknown tensor member '%s'", key);
        }
        if (is_punct(lx, ','))
            next(lx);
        else if (!is_punct(lx, ')'))
            return fail(lx, lx->tline, "expected ',' or ')' in the tensor header");
    }
    next(lx);
    if (!has_sizes) return fail(lx, t->line, "%s has no Sizes", t->name);
    if (!has_type) return fail(lx, t->line, "%s has no DataType", t->name);
    if (t->has_strides && nstrides != t->rank)
        return fail(lx, t->line, "Strides has %u values, Sizes %u", nstrides, t->rank);
    for (UINT i = 0; i < t->rank; i++)
        if (t->sizes[i] == 0) return fail(lx, t->line, "%s.Sizes[%u] is 0", t->name, i);
    /* a scalar (Sizes {}) and more than 8 dimensions are laid out as well:
     * the descriptor keeps what the file says, and the library refuses it */
    uint64_t calc = case_span_bytes(t);
    if (calc == 0) return fail(lx, t->line, "%s is too large", t->name);
    t->total_bytes = t->has_total ? t->buffer.TotalTensorSizeInBytes : calc;
    /* the buffer holds both (see parse_data); 1 GiB at most, far above any
     * tensor written out in a text file */
    const uint64_t buffer = t->total_bytes > calc ? t->total_bytes : calc;
    if (buffer > ((uint64_t)1 << 30))
        return fail(lx, t->line, "%s's buffer of %" PRIu64 " bytes is larger than this tool handles (1 GiB)", t->name,
                    buffer);
    if (is_punct(lx, '[') || is_punct(lx, '{')) return parse_data(lx, t);
    if (t->rank == 0 || t->rank > EDML_TENSOR_DIMENSION_COUNT_MAX) { /* no data given: a buffer all the same */
        t->data = calloc(1, (size_t)buffer);
        if (!t->data) return fail(lx, t->line, "out of memory");
    }
    return 0;
}

/* ---- the case ------------------------------------------------------------- */

/* The operator's tensors, named and ordered as its schema says. */
static int setup_roles(lexer *lx, edml_case *c)
{
    memset(c->inputs, 0, sizeof c->inputs);
    memset(c->outputs, 0, sizeof c->outputs);
    c->schema = edml_operator_schema_of(c->op);
    if (c->schema->field_count > CASE_MAX_FIELDS || c->schema->desc_size > CASE_MAX_DESC ||
        c->schema->input_count > CASE_MAX_INPUTS || c->schema->output_count > CASE_MAX_OUTPUTS)
        return fail(lx, c->op_line, "%s has more members than this tool holds", c->schema->name);
    c->ninputs = c->noutputs = 0;
    for (UINT f = 0; f < c->schema->field_count; f++) {
        const edml_schema_field *fd = &c->schema->fields[f];
        if (fd->type == EDML_SCHEMA_FIELD_INPUT_TENSOR) c->inputs[c->ninputs++].name = fd->name;
        if (fd->type == EDML_SCHEMA_FIELD_OUTPUT_TENSOR) {
            c->outputs[c->noutputs].name = fd->name;
            c->outputs[c->noutputs++].is_output = true;
        }
    }
    return 0;
}

static case_tensor *find_tensor(edml_case *c, const char *name)
{
    for (int i = 0; i < c->ninputs; i++)
        if (strcmp(c->inputs[i].name, name) == 0) return &c->inputs[i];
    for (int i = 0; i < c->noutputs; i++)
        if (strcmp(c->outputs[i].name, name) == 0) return &c->outputs[i];
    return NULL;
}

/* The schema field of a member that is not a tensor, or -1. */
static int find_field(const edml_case *c, const char *name)
{
    for (UINT f = 0; f < c->schema->field_count; f++) {
        const edml_schema_field *fd = &c->schema->fields[f];
        if (fd->type != EDML_SCHEMA_FIELD_INPUT_TENSOR && fd->type != EDML_SCHEMA_FIELD_OUTPUT_TENSOR &&
            strcmp(fd->name, name) == 0)
            return (int)f;
    }
    return -1;
}

/* Pass 1: the operator, since fields may come before it. */
static int find_operator(lexer *lx, edml_case *c)
{
    lexer scan = *lx;
    scan.message = NULL;
    char dummy[8];
    scan.err = dummy;
    scan.errcap = sizeof dummy;
    int depth = 0;
    next(&scan);
    while (scan.kind != TK_END && !scan.failed) {
        if (scan.kind == TK_PUNCT && strchr("([{", scan.punct)) depth++;
        if (scan.kind == TK_PUNCT && strchr(")]}", scan.punct)) depth--;
        if (depth == 0 && scan.kind == TK_WORD && strcmp(scan.word, "Operator") == 0) {
            int line = scan.tline;
            next(&scan);
            if (!is_punct(&scan, ':')) break;
            next(&scan);
            if (scan.kind != TK_WORD || !parse_op(scan.word, &c->op))
                return fail(lx, line, "unknown operator '%s'", scan.kind == TK_WORD ? scan.word : "");
            if (c->op_line) return fail(lx, line, "Operator is given twice");
            c->op_line = line;
        }
        next(&scan);
    }
    return c->op_line ? 0 : fail(lx, 1, "no 'Operator:' line");
}

/* A member that is not a tensor: a UINT list, an EDML_AXIS_DIRECTION or an
 * unsigned integer, as its schema field says. */
static int parse_scalar(lexer *lx, edml_case *c, int f, int kline)
{
    const edml_schema_field *fd = &c->schema->fields[f];
    if (c->has[f]) return fail(lx, kline, "%s is given twice", fd->name);
    c->has[f] = true;
    if (fd->type == EDML_SCHEMA_FIELD_UINT_ARRAY)
        return parse_uint_list(lx, c->list[f], CASE_MAX_LIST, &c->value[f], fd->name);
    if (fd->type == EDML_SCHEMA_FIELD_AXIS_DIRECTION) {
        const char *w = lx->kind == TK_WORD ? lx->word : "";
        strip_prefix(&w, "DML_");
        if (strcmp(w, "AXIS_DIRECTION_INCREASING") == 0)
            c->value[f] = EDML_AXIS_DIRECTION_INCREASING;
        else if (strcmp(w, "AXIS_DIRECTION_DECREASING") == 0)
            c->value[f] = EDML_AXIS_DIRECTION_DECREASING;
        else
            return fail(lx, kline, "'%s' is not a DML_AXIS_DIRECTION", lx->kind == TK_WORD ? lx->word : "");
        next(lx);
        return 0;
    }
    uint64_t v;
    if (lx->kind != TK_WORD || parse_u64(lx->word, &v) || v > UINT32_MAX)
        return fail(lx, kline, "%s must be an unsigned 32-bit integer", fd->name);
    c->value[f] = (UINT)v;
    next(lx);
    return 0;
}

/* One member: `Name: value` (the operator, Expect, a tensor or a scalar). */
static int parse_member(lexer *lx, edml_case *c)
{
    if (lx->kind != TK_WORD) return fail(lx, lx->tline, "expected a member name");
    char key[128];
    snprintf(key, sizeof key, "%s", lx->word);
    int kline = lx->tline;
    next(lx);
    if (expect_punct(lx, ':', "after the member name")) return -1;
    if (strcmp(key, "Operator") == 0) {
        next(lx);
        return 0;
    }
    if (strcmp(key, "Expect") == 0) {
        if (lx->kind != TK_WORD || strcmp(lx->word, "error") != 0) return fail(lx, kline, "Expect must be 'error'");
        c->expect_error = true;
        next(lx);
        return 0;
    }
    size_t kl = strlen(key);
    if (kl > 6 && strcmp(key + kl - 6, "Tensor") == 0) {
        case_tensor *t = find_tensor(c, key);
        if (!t) return fail(lx, kline, "%s is not a member of %s", key, case_op_name(c->op));
        return parse_tensor(lx, t);
    }
    const int f = find_field(c, key);
    if (f < 0) return fail(lx, kline, "'%s' is not a member of %s", key, case_op_name(c->op));
    return parse_scalar(lx, c, f, kline);
}

/* The members an operator needs. */
static int check_required(lexer *lx, edml_case *c)
{
    for (int i = 0; i < c->ninputs; i++) {
        if (!c->inputs[i].present) return fail(lx, c->op_line, "%s needs %s", case_op_name(c->op), c->inputs[i].name);
        const bool dims_ok = c->inputs[i].rank >= 1 && c->inputs[i].rank <= EDML_TENSOR_DIMENSION_COUNT_MAX;
        if (!c->inputs[i].has_data && dims_ok && !lx->data_optional)
            return fail(lx, c->inputs[i].line, "input %s has no data", c->inputs[i].name);
    }
    for (int i = 0; i < c->noutputs; i++)
        if (!c->outputs[i].present)
            return fail(lx, c->op_line, "%s needs %s's header", case_op_name(c->op), c->outputs[i].name);
    for (UINT f = 0; f < c->schema->field_count; f++) {
        const edml_schema_field *fd = &c->schema->fields[f];
        if (fd->type == EDML_SCHEMA_FIELD_INPUT_TENSOR || fd->type == EDML_SCHEMA_FIELD_OUTPUT_TENSOR) continue;
        if (fd->type == EDML_SCHEMA_FIELD_UINT_COUNT) continue; /* checked with its list */
        if (!c->has[f]) return fail(lx, c->op_line, "%s needs %s", case_op_name(c->op), fd->name);
        if (fd->type != EDML_SCHEMA_FIELD_UINT_ARRAY || f == 0) continue;
        /* a list's count member may be left out (the list's length); given, it must agree */
        const UINT n = f - 1;
        if (c->schema->fields[n].type != EDML_SCHEMA_FIELD_UINT_COUNT) continue;
        if (!c->has[n])
            c->value[n] = c->value[f];
        else if (c->value[n] != c->value[f])
            return fail(lx, c->op_line, "%s is %u but %s lists %u values", c->schema->fields[n].name, c->value[n],
                        fd->name, c->value[f]);
    }
    return 0;
}

static int case_parse_as(const char *text, const char *path, edml_case *c, char *err, size_t errcap, bool shapes)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    lexer lx = {.p = text,
                .line = 1,
                .path = path,
                .err = err,
                .errcap = errcap,
                .message = c->expect_message,
                .message_cap = sizeof c->expect_message,
                .data_optional = shapes};
    if (errcap) err[0] = '\0';
    if (find_operator(&lx, c) || setup_roles(&lx, c)) return -1;
    next(&lx);
    while (lx.kind != TK_END && !lx.failed)
        if (parse_member(&lx, c)) return -1;
    if (lx.failed) return -1;
    return check_required(&lx, c);
}

int case_parse(const char *text, const char *path, edml_case *c, char *err, size_t errcap)
{
    return case_parse_as(text, path, c, err, errcap, false);
}

int case_parse_shapes(const char *text, const char *path, edml_case *c, char *err, size_t errcap)
{
    return case_parse_as(text, path, c, err, errcap, true);
}

static int case_load_as(const char *path, edml_case *c, char *err, size_t errcap, bool shapes)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
        memset(c, 0, sizeof *c);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errcap, "%s: out of memory", path);
        memset(c, 0, sizeof *c);
        return -1;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        snprintf(err, errcap, "%s:1: the file holds a NUL byte", path);
        memset(c, 0, sizeof *c);
        return -1;
    }
    int r = case_parse_as(buf, path, c, err, errcap, shapes);
    free(buf);
    return r;
}

int case_load(const char *path, edml_case *c, char *err, size_t errcap)
{
    return case_load_as(path, c, err, errcap, false);
}

int case_load_shapes(const char *path, edml_case *c, char *err, size_t errcap)
{
    return case_load_as(path, c, err, errcap, true);
}

void case_free(edml_case *c)
{
    for (int i = 0; i < CASE_MAX_INPUTS; i++) free(c->inputs[i].data), c->inputs[i].data = NULL;
    for (int i = 0; i < CASE_MAX_OUTPUTS; i++) free(c->outputs[i].data), c->outputs[i].data = NULL;
}
