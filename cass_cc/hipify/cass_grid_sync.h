/* cass_grid_sync.h: cooperative_groups' grid barrier (grid_group::sync, this_grid().sync()) for
 * targets without the global wave sync unit (GWS; gfx12: cass_cc/targets.py's `gws` fact).
 *
 * HIP 5.2's grid_group::sync is ROCm's __ockl_grid_sync, whose barrier is ds_gws_barrier; LLVM
 * cannot select that on a processor without GWS ("Cannot select: intrinsic
 * llvm.amdgcn.ds.gws.barrier"). The driver defines CASS_NO_GWS for such targets' device passes,
 * and cass_hip_compat.h then reads HIP's cooperative groups with __ockl_grid_sync() standing for
 * cass_compat::grid_sync() below.
 *
 * The barrier is one 32-bit word in global memory, as in CUDA's own grid sync: the leader of each
 * block adds 1, block 0's adds 0x80000000 - (blocks - 1), so the word's sign bit flips exactly when
 * the last block arrives, and every leader waits for the flip. A barrier adds 0x80000000 in all,
 * so the low 31 bits are zero again after each one and the word serves every later barrier and
 * launch, whatever its grid size. A cooperative launch makes every block resident, so the
 * waiting leaders never keep a block from arriving. (Two cooperative launches running at once
 * on two streams would share the word of their translation unit; CUDA's word is per launch.)
 *
 * Memory order is ockl's: every thread fences at agent scope before the block's barrier (its
 * writes reach the other blocks' view before its leader arrives), and again after the second one
 * (the other blocks' writes are seen after the grid barrier).
 */
#ifndef CASS_GRID_SYNC_H
#define CASS_GRID_SYNC_H

namespace cass_compat {
namespace {   /* a word of each translation unit's own, like its kernels (also with -fgpu-rdc) */

__device__ unsigned grid_barrier_word;

__device__ __attribute__((convergent)) inline void grid_sync() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  __builtin_amdgcn_s_barrier();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
    bool first = blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0;
    unsigned add = first ? 0x80000000u - (blocks - 1u) : 1u;
    unsigned before = __hip_atomic_fetch_add(&grid_barrier_word, add, __ATOMIC_ACQ_REL,
                                             __HIP_MEMORY_SCOPE_AGENT);
    while (((before ^ __hip_atomic_load(&grid_barrier_word, __ATOMIC_ACQUIRE,
                                         __HIP_MEMORY_SCOPE_AGENT)) & 0x80000000u) == 0)
      __builtin_amdgcn_s_sleep(1);
  }
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

}  // namespace
}  // namespace cass_compat

#endif
