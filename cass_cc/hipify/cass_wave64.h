/* cass_wave64.h: CUDA's 32-lane warps on 64-lane waves (gfx942, gfx90a), for the source route.
 *
 * HIP compilers give wave64 code 64-lane warps (warpSize 64, 64-bit ballots). Here, as in the
 * binary route's lifter (docs/wave64.md), each wave holds two CUDA warps, each confined to its
 * 32-lane half: lanes 0-31 are one warp, 32-63 the next (a block's threads fill waves in order,
 * so threads 32k..32k+31 are warp k as on NVIDIA, whatever the block size). The lane is
 * cass_ptx::lane() (0..31), the half's first wave lane cass_ptx::warp_base() (0 or 32); masks
 * are the 32 bits of the own half, so a warp never sees its neighbour's lanes.
 *
 * Included by cass_hip_compat.h in the device pass of a wave64 target, in place of its wave32
 * shuffles (the votes there take the half by cass_ptx::warp_base()); match, reduce and the
 * cooperative groups build on these. What costs more than on wave32: ballots and the active mask
 * shift a 64-bit mask by the half (one more instruction), and shuffles add the half's base to
 * ds_bpermute's address (one more).
 */
#ifndef CASS_WAVE64_H
#define CASS_WAVE64_H

/* ---- shuffles ----------------------------------------------------------------------------
 * As CUDA defines them over PTX shfl.sync (cass_ptx::shfl, modes up 0, down 1, bfly 2, idx 3):
 * the c operand packs the segment mask (32 - width) << 8 and the clamp lane, 0 for up and 31
 * for the others; a source lane outside the segment gives the own value (xor may read an
 * earlier segment, as on NVIDIA); 64-bit and larger types move 32 bits at a time. */

namespace cass_wave64 {
template <typename _CassT>
__device__ inline _CassT shuffle(int mode, _CassT var, unsigned b, int width) {
  unsigned c = (static_cast<unsigned>(32 - width) << 8) | (mode == 0 ? 0u : 0x1fu);
  return cass_compat::move_words(var, [=](int w) {
    return static_cast<int>(cass_ptx::shfl(mode, static_cast<unsigned>(w), b, c, nullptr));
  });
}
}  // namespace cass_wave64

template <typename _CassT>
__device__ inline _CassT __shfl_sync(unsigned mask, _CassT var, int src_lane, int width = 32) {
  (void)mask;
  return cass_wave64::shuffle(3, var, static_cast<unsigned>(src_lane), width);
}

template <typename _CassT>
__device__ inline _CassT __shfl_up_sync(unsigned mask, _CassT var, unsigned delta, int width = 32) {
  (void)mask;
  return cass_wave64::shuffle(0, var, delta, width);
}

template <typename _CassT>
__device__ inline _CassT __shfl_down_sync(unsigned mask, _CassT var, unsigned delta, int width = 32) {
  (void)mask;
  return cass_wave64::shuffle(1, var, delta, width);
}

template <typename _CassT>
__device__ inline _CassT __shfl_xor_sync(unsigned mask, _CassT var, int lane_mask, int width = 32) {
  (void)mask;
  return cass_wave64::shuffle(2, var, static_cast<unsigned>(lane_mask), width);
}

#endif  // CASS_WAVE64_H
