// ArgMin/ArgMax, second pass: merges each output's chunk results in order.
// Output tensor 20; p[75] keep last; p[77] chunks per output; p[79] scratch.
uvec2 compute(uint li) {
    bool last = p[75] != 0u;
    uint w = (p[79] >> 2) + li * p[77] * 3u;
    uvec2 best = uvec2(m[w], m[w + 1u]);
    uint best_i = m[w + 2u];
    for (uint c = 1u; c < p[77]; c++) {
        w += 3u;
        uvec2 k = uvec2(m[w], m[w + 1u]);
        if (key_gt(k, best) || (last && key_eq(k, best))) { best = k; best_i = m[w + 2u]; }
    }
    return uvec2(best_i, 0u);
}

void main() {
    uint u = unit_id();
    if (u == NONE) return;
    write_output(20u, 0u, u, 0u, true);
}
