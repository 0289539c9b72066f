// A plain copy, the yardstick of the benchmarks and edml_gpu_buffer_copy: a
// 16-byte vector an invocation when offsets and size allow, else a word.
EDMLI_PARAMS(edmli_copy_prm);

void kernel_main() {
    uint u = unit_id();
    if (u == NONE) return;
    if (prm_vectors != 0u) m4[(prm_dst_offset >> 4) + u] = m4[(prm_src_offset >> 4) + u];
    else m[(prm_dst_offset >> 2) + u] = m[(prm_src_offset >> 2) + u];
}
