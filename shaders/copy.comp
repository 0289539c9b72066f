// A plain copy of 32-bit words, the yardstick of the benchmarks.
// p[0] source byte offset; p[1] destination byte offset.
void main() {
    uint u = unit_id();
    if (u == NONE) return;
    m[(p[1] >> 2) + u] = m[(p[0] >> 2) + u];
}
