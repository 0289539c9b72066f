// Shared by every kernel, after the prelude the GLES backend writes
// (src/gles/gles_params.c: version, LOCAL, SORT_MAX, the parameter block and
// the accessors of the kernel's struct of shaders/params.h, prm_<member>). A
// kernel names its struct with EDMLI_PARAMS(edmli_<type>_prm), which compiles
// only where that is the struct the backend fills for it. m[] is the
// device's GPU arena (its buffer holds 64 words more: main.glsl's counts).
layout(std430, binding = 1) buffer Mem { uint m[]; };
// The same arena as 16-byte vectors, for kernels whose tensors are 16-byte
// aligned: one load or store moves four words.
layout(std430, binding = 1) buffer Mem4 { uvec4 m4[]; };
// And coherent, for results that other workgroups of the same pass read.
layout(std430, binding = 1) coherent buffer MemC { uint mc[]; };
// The status block (binding 2): a buffer the host reads through a
// persistent mapping where the driver has GL_EXT_buffer_storage, else the
// GPU arena. GatherND's status words; its last 68 words (the arena's too)
// hold the proof that main.glsl publishes.
layout(std430, binding = 2) coherent buffer Status { uint st[]; };
uniform uint u_base;     // first unit of this dispatch
uniform uint u_count;    // units in this dispatch
// The byte offsets of this execution's tensors and scratch in m[] are the
// prelude's uniform u_bind[] (set for each execution; the parameter block,
// baked when the operator is created, holds each one's index): accessors
// prm_*offset read it, and t_base(T) gives tensor T's.

const uint NONE = 0xffffffffu;
const uint DT_FLOAT32 = 1u, DT_FLOAT16 = 2u, DT_UINT32 = 3u, DT_UINT16 = 4u, DT_UINT8 = 5u, DT_INT32 = 6u,
           DT_INT16 = 7u, DT_INT8 = 8u, DT_FLOAT64 = 9u, DT_UINT64 = 10u, DT_INT64 = 11u;

// The unit (element, word or row) this invocation handles; NONE past the end.
uint unit_id() {
    uint u = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    return u < u_count ? u_base + u : NONE;
}
uint group_id() {
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    return g < u_count ? u_base + g : NONE;
}

// Element bits at a byte offset: 8/16-bit ones from their word.
uint ld_bits(uint off, uint es) {   // (a 4- or 8-byte element's offset is a multiple of 4)
    return (m[off >> 2] >> ((off & 3u) * 8u)) & (es >= 4u ? ~0u : (1u << (es * 8u)) - 1u);
}
uvec2 ld_elem(uint off, uint es) {   // (low word, high word)
    return es == 8u ? uvec2(m[off >> 2], m[(off >> 2) + 1u]) : uvec2(ld_bits(off, es), 0u);
}

// Helpers over a nested struct of the parameters, given its word offset
// (prm_<member>_at; *_at constants below are its members' offsets).
// t_offset: the byte offset of logical (row-major) element li of tensor T.
uint t_offset(uint T, uint li) {
    uint off = 0u;
    for (uint d = prm_word(T + TENSOR_rank); d-- > 0u;) {
        uint s = prm_word(T + TENSOR_sizes + d);
        off += (li % s) * prm_word(T + TENSOR_strides + d);
        li /= s;
    }
    return t_base(T) + off * prm_word(T + TENSOR_elem_size);
}
// dims_offset: the element offset of position `index` of an odometer over
// the dims D (where an output's set, or a row, starts).
uint dims_offset(uint D, uint index) {
    uint off = 0u;
    for (uint d = prm_word(D + DIMS_WALK_count); d-- > 0u;) {
        uint s = prm_word(D + DIMS_WALK_sizes + d);
        off += (index % s) * prm_word(D + DIMS_WALK_strides + d);
        index /= s;
    }
    return off;
}

// Order keys as (high, low): integers as integers, -0 == +0, every NaN equal
// and above +inf. The same order as the CPU backends' keys.
uvec2 key_of(uint dt, uvec2 v) {
    if (dt >= DT_FLOAT64) {   // the high word holds the sign
        uint hi = v.y, lo = v.x;
        if (dt == DT_UINT64) return uvec2(hi, lo);
        if (dt == DT_INT64) return uvec2(hi ^ 0x80000000u, lo);
        uint ah = hi & 0x7fffffffu;
        if (ah > 0x7ff00000u || (ah == 0x7ff00000u && lo != 0u)) return uvec2(NONE, NONE);
        if (hi == 0x80000000u && lo == 0u) hi = 0u;
        return (hi & 0x80000000u) != 0u ? uvec2(~hi, ~lo) : uvec2(hi | 0x80000000u, lo);
    }
    // 8 << c bits, c the 2 bits at 2 * dt of 0x6198 (FLOAT32 2, FLOAT16 1,
    // UINT32 2, UINT16 1, UINT8 0, INT32 2, INT16 1, INT8 0); arithmetic, not
    // a branch a type: every place that keys an element inlines this
    uint sign = 1u << ((8u << ((0x6198u >> (2u * dt)) & 3u)) - 1u), u = v.x;
    if (dt == DT_FLOAT32 || dt == DT_FLOAT16) {
        if ((u & ~sign) > (dt == DT_FLOAT16 ? 0x7c00u : 0x7f800000u)) return uvec2(0u, NONE);   // above +inf
        if (u == sign) u = 0u;
        return uvec2(0u, (u & sign) != 0u ? ~u & ((sign << 1u) - 1u) : u | sign);
    }
    return uvec2(0u, dt >= DT_INT32 ? u ^ sign : u);   // INT32, INT16, INT8: the sign flipped
}
bool is_float(uint dt) { return dt == DT_FLOAT16 || dt == DT_FLOAT32 || dt == DT_FLOAT64; }
bool key_gt(uvec2 a, uvec2 b) { return a.x > b.x || (a.x == b.x && a.y > b.y); }
bool key_eq(uvec2 a, uvec2 b) { return a.x == b.x && a.y == b.y; }

// ArgMin/ArgMax keys: ArgMin inverts the order, NaN stays above everything.
uvec2 min_key(uint dt, bool invert, uvec2 v) {
    uvec2 k = key_of(dt, v);
    bool nan = is_float(dt) && k.y == NONE && (dt != DT_FLOAT64 || k.x == NONE);
    if (invert && !nan) { k = ~k; if (dt != DT_FLOAT64 && dt != DT_UINT64 && dt != DT_INT64) k.x = 0u; }
    return k;
}
// The same for four elements of a 32-bit type (FLOAT32, INT32, UINT32), the
// key's low word.
uvec4 key4(uint dt, bool invert, uvec4 v) {
    uvec4 k;
    if (dt == DT_FLOAT32) {
        bvec4 nan = greaterThan(v & 0x7fffffffu, uvec4(0x7f800000u));
        uvec4 u = mix(v, uvec4(0u), equal(v, uvec4(0x80000000u)));
        k = mix(u | 0x80000000u, ~u, notEqual(u & 0x80000000u, uvec4(0u)));
        if (invert) k = ~k;
        return mix(k, uvec4(NONE), nan);
    }
    k = dt == DT_INT32 ? v ^ 0x80000000u : v;
    return invert ? ~k : k;
}
// The same for four elements of a 16-bit type (FLOAT16, UINT16, INT16), one
// a word's half, as key_of's low word (TopK's vector reads).
uvec4 key16(uint dt, uvec4 u) {
    if (dt == DT_UINT16) return u;
    if (dt == DT_INT16) return u ^ 0x8000u;
    bvec4 nan = greaterThan(u & 0x7fffu, uvec4(0x7c00u));
    u = mix(u, uvec4(0u), equal(u, uvec4(0x8000u)));
    uvec4 k = mix(u | 0x8000u, u ^ 0xffffu, notEqual(u & 0x8000u, uvec4(0u)));
    return mix(k, uvec4(NONE), nan);
}
// ArgMin/ArgMax results (key, index) in any order: the larger key, then the
// first index (the last with `last`).
bool arg_better(uvec2 ka, uint ia, uvec2 kb, uint ib, bool last) {
    return key_gt(ka, kb) || (key_eq(ka, kb) && (last ? ia > ib : ia < ib));
}


