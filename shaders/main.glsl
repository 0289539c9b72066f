// After every kernel: main() runs the kernel, then the first invocation of
// each workgroup adds one to a word of the 64 after the GPU arena (its
// workgroup's x % 64: no one address every workgroup waits on). After the
// submission's fence the host adds them up and compares the sum with the
// workgroups it dispatched: a dispatch the driver dropped (Mesa's V3D skips
// a kernel whose registers it could not allocate, with no GL error) or one a
// GPU reset cut short fails the call instead of answering with what the
// outputs held.
void main() {
    kernel_main();
    if (gl_LocalInvocationIndex == 0u) atomicAdd(mc[mc.length() - 64 + int(gl_WorkGroupID.x & 63u)], 1u);
}
