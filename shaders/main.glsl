// After every kernel, the proof that it ran whole. Each invocation that
// finished its kernel adds one to its workgroup's count in shared memory;
// the one that completes that count adds the workgroup to its dispatch's
// counters after the GPU arena (slot u_proof[0], which no other dispatch
// since the last barrier has: 64 counters, one for each workgroup x number
// modulo 64, so that workgroups seldom wait on one address, and a 65th that
// counts the counters completed). The workgroup that completes the dispatch sets
// its counters back to zero and publishes the dispatch's workgroups in the
// status block's proof word (binding 2: where the host reads it after the
// fence; one write a dispatch, no copy). The host compares what was
// published with the workgroups it dispatched: a dispatch the driver
// dropped (Mesa's V3D skips a kernel whose registers it could not
// allocate, with no GL error) or a workgroup a GPU reset cut short (V3D
// runs 256 invocations as 16 batches of 16) fails the call instead of
// answering with what the outputs held. The shared count starts at zero
// behind a barrier in uniform control flow, before any kernel code.
// this dispatch's slot, its workgroups along x, and its rows of them (y
// times z): uniforms, so that the workgroup IDs V3D keeps in registers from
// the start are x alone (reading y and z here halved topk_rank's threads)
uniform uint u_proof[3];
shared uint done_lanes;
const uint PROOF_SLOTS = 16u, PROOF_SPREAD = 64u, PROOF_SLOT_WORDS = 65u;

void main() {
    if (gl_LocalInvocationIndex == 0u) done_lanes = 0u;
    barrier();
#ifdef EDMLI_FAULT_PARTIAL_WORKGROUP
    // tests only (EDML_FAULT_PARTIAL_WORKGROUP): while the host sets the
    // switch, only the first invocation of each workgroup runs, as when a
    // reset ends a workgroup after its first batch of invocations
    if (gl_LocalInvocationIndex != 0u && mc[mc.length() - 3] != 0u) return;
#endif
    kernel_main();
    const uint lanes = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
    if (atomicAdd(done_lanes, 1u) != lanes - 1u) return;
    uint groups = u_proof[1] * u_proof[2], r = gl_WorkGroupID.x % PROOF_SPREAD;
    uint of_r = (u_proof[1] / PROOF_SPREAD + (r < u_proof[1] % PROOF_SPREAD ? 1u : 0u)) * u_proof[2];
    int top = mc.length() - 4 - int(PROOF_SLOTS * PROOF_SLOT_WORDS) + int((u_proof[0] % PROOF_SLOTS) * PROOF_SLOT_WORDS);
    if (atomicAdd(mc[top + 1 + int(r)], 1u) != of_r - 1u) return;
    atomicExchange(mc[top + 1 + int(r)], 0u);
    if (atomicAdd(mc[top], 1u) != min(u_proof[1], PROOF_SPREAD) - 1u) return;
    atomicExchange(mc[top], 0u);
    atomicAdd(st[st.length() - 2], groups);
}
