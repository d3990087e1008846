/* cass_wave_per_warp.h: one CUDA warp per 64-lane wave, for the source route's translation units
 * whose warps wait for each other (docs/wave64.md).
 *
 * The lanes of a wave run one side of a branch at a time, so where a CUDA warp spins until
 * another warp writes memory (a producer/consumer pair on cuda::barrier, a lock taken by one lane
 * of each warp) two warps in one wave would wait forever. cass-nvcc finds such kernels in nvcc's
 * SASS (`cass-cc warp-waits`) and compiles their translation unit with CASS_WAVE_PER_WARP: each
 * CUDA warp then sits in lanes 0-31 of a wave of its own. The host side (cass_wave_per_warp.c,
 * merged into the object) launches the unit's kernels with blockDim.x doubled, so a row of
 * CUDA's block of bx threads (bx a multiple of 32) fills bx / 32 whole waves; here lanes 32-63
 * leave at the kernel's entry (CASS_KERNEL_ENTRY, which hipify writes first in every kernel
 * body) and threadIdx.x and blockDim.x are read back as CUDA's (hipify names them cass_threadIdx
 * and cass_blockDim; elsewhere those are HIP's values). Everything built on the lane
 * (cass_wave64.h's shuffles, votes, the active mask) keeps its wave64 form: the half's base is 0.
 *
 * Every kernel of such a unit runs this way on wave64 targets (device functions read threadIdx
 * and cannot tell which kernel called them); wave32 targets and the host pass see HIP's own.
 */
#ifndef CASS_WAVE_PER_WARP_H
#define CASS_WAVE_PER_WARP_H

#if defined(CASS_WAVE_PER_WARP) && defined(__HIP_DEVICE_COMPILE__) && __AMDGCN_WAVEFRONT_SIZE == 64

namespace cass_coords {
/* CUDA's thread index from the work-item's: row x of the hardware block holds CUDA's row x
 * spread over waves, 32 lanes of each used. */
__device__ inline unsigned thread_x() {
  unsigned h = __builtin_amdgcn_workitem_id_x();
  return ((h >> 6) << 5) | (h & 31u);
}
__device__ inline dim3 thread_index() {
  return dim3(thread_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z());
}
__device__ inline dim3 block_dim() {
  return dim3(static_cast<unsigned>(__ockl_get_local_size(0)) >> 1, static_cast<unsigned>(__ockl_get_local_size(1)),
              static_cast<unsigned>(__ockl_get_local_size(2)));
}
}  // namespace cass_coords

/* HIP's cooperative groups (included after this) read these macros */
#undef hipThreadIdx_x
#undef hipBlockDim_x
#define hipThreadIdx_x (cass_coords::thread_x())
#define hipBlockDim_x (__ockl_get_local_size(0) >> 1)

/* A kernel's bound is CUDA's threads; its work-groups hold twice as many lanes. */
#undef launch_bounds_impl0
#undef launch_bounds_impl1
#define CASS_WPW_LANES(threads) ((threads) > 512 ? 1024 : 2 * (threads))
#define launch_bounds_impl0(requiredMaxThreadsPerBlock) \
  __attribute__((amdgpu_flat_work_group_size(1, CASS_WPW_LANES(requiredMaxThreadsPerBlock))))
#define launch_bounds_impl1(requiredMaxThreadsPerBlock, minBlocksPerMultiprocessor)               \
  __attribute__((amdgpu_flat_work_group_size(1, CASS_WPW_LANES(requiredMaxThreadsPerBlock)),      \
                 amdgpu_waves_per_eu(minBlocksPerMultiprocessor)))

#define CASS_KERNEL_ENTRY                                  \
  if (__builtin_amdgcn_workitem_id_x() & 32u) return;
/* The lanes of a wave that hold CUDA threads (barriers of whole waves count them). */
#define CASS_THREADS_PER_WAVE 32

#else

#if defined(__HIP__)
namespace cass_coords {
__device__ inline dim3 thread_index() {
  return dim3(__ockl_get_local_id(0), __ockl_get_local_id(1), __ockl_get_local_id(2));
}
__device__ inline dim3 block_dim() {
  return dim3(__ockl_get_local_size(0), __ockl_get_local_size(1), __ockl_get_local_size(2));
}
}  // namespace cass_coords
#endif
#define CASS_KERNEL_ENTRY
#define CASS_THREADS_PER_WAVE __AMDGCN_WAVEFRONT_SIZE
#endif

/* hipify writes these for CUDA's threadIdx, blockDim, blockIdx and gridDim: in device code plain
 * unsigned members,
 * which printf takes (HIP's are objects that convert, which clang's device printf refuses); in the
 * host pass the names as written (a host function's parameter called blockDim). */
#if defined(__HIP__)
namespace cass_coords {
__device__ inline dim3 block_index() {
  return dim3(__ockl_get_group_id(0), __ockl_get_group_id(1), __ockl_get_group_id(2));
}
__device__ inline dim3 grid_dim() {
  return dim3(__ockl_get_num_groups(0), __ockl_get_num_groups(1), __ockl_get_num_groups(2));
}
}  // namespace cass_coords
#endif
#if defined(__HIP_DEVICE_COMPILE__)
#define cass_threadIdx (cass_coords::thread_index())
#define cass_blockDim (cass_coords::block_dim())
#define cass_blockIdx (cass_coords::block_index())
#define cass_gridDim (cass_coords::grid_dim())
#else
#define cass_threadIdx threadIdx
#define cass_blockDim blockDim
#define cass_blockIdx blockIdx
#define cass_gridDim gridDim
#endif

#endif  // CASS_WAVE_PER_WARP_H
