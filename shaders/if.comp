// ElementWiseIf: Output = Condition != 0 ? A : B, bit for bit.
// Tensors (the core's coalesced dims): condition 0, A 20, B 40, output 60;
// output's sorted dims at 80; p[89] dense; p[90] elements.
uvec2 compute(uint li) {
    uint c = ld_bits(t_offset(0u, li), 1u);
    uint T = c != 0u ? 20u : 40u;
    return ld_elem(t_offset(T, li), t_es(T));
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    if (p[91] != 0u) {
        uint words = t_es(20u) >> 2;
        uint T = ld_bits(t_base(0u) + u, 1u) != 0u ? 20u : 40u;
        uint src = (t_base(T) >> 2) + u * words, dst = (t_base(60u) >> 2) + u * words;
        m[dst] = m[src];
        if (words == 2u) m[dst + 1u] = m[src + 1u];
        return;
    }
    write_output(60u, 80u, u, p[90], p[89] != 0u);
}
