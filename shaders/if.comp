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
    write_output(60u, 80u, u, p[90], p[89] != 0u);
}
