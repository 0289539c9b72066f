// After every kernel: main() runs the kernel, then the first invocation of
// each workgroup adds one to the status block's last word. After the
// submission's fence the host compares that count with the workgroups it
// dispatched: a dispatch the driver dropped (Mesa's V3D skips a kernel whose
// registers it could not allocate, with no GL error) or one a GPU reset cut
// short fails the call instead of answering with what the outputs held.
void main() {
    kernel_main();
    if (gl_LocalInvocationIndex == 0u) atomicAdd(st[st.length() - 1], 1u);
}
