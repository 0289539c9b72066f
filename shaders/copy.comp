// A plain copy, the yardstick of the benchmarks: a 16-byte vector an
// invocation when offsets and size allow, else a 32-bit word.
// p[0] source byte offset; p[1] destination byte offset; p[2] 1 for vectors.
void main() {
    uint u = unit_id();
    if (u == NONE) return;
    if (p[2] != 0u) m4[(p[1] >> 4) + u] = m4[(p[0] >> 4) + u];
    else m[(p[1] >> 2) + u] = m[(p[0] >> 2) + u];
}
