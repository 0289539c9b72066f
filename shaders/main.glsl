// After every kernel: each invocation that finished its kernel adds one to
// its workgroup's count in shared memory, and the one that completes the
// count adds the workgroup to a word of the 64 counters after the GPU arena
// (its x % 64: no one address every workgroup waits on). After the
// submission's fence the host reads the counters through the mapping it
// reads the outputs from and compares their sum with the workgroups it
// dispatched: a dispatch the driver dropped (Mesa's V3D skips a kernel
// whose registers it could not allocate, with no GL error), a workgroup a
// GPU reset cut short (V3D runs 256 invocations as 16 batches of 16) or a
// stale mapping fails the call instead of answering with what the outputs
// held. The count starts at zero behind a barrier in uniform control flow,
// before any kernel code; no invocation leaves main() before counting.
shared uint done_lanes;

void main() {
    if (gl_LocalInvocationIndex == 0u) done_lanes = 0u;
    barrier();
#ifdef EDMLI_FAULT_PARTIAL_WORKGROUP
    // tests only (EDML_FAULT_PARTIAL_WORKGROUP): while the host sets the
    // switch, only the first invocation of each workgroup runs, as when a
    // reset ends a workgroup after its first batch of invocations
    if (gl_LocalInvocationIndex != 0u && mc[mc.length() - 67] != 0u) return;
#endif
    kernel_main();
    const uint lanes = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
    if (atomicAdd(done_lanes, 1u) == lanes - 1u) atomicAdd(mc[mc.length() - 64 + int(gl_WorkGroupID.x & 63u)], 1u);
}
