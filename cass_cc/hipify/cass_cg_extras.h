/* cass_cg_extras.h: cooperative groups of CUDA 11 that HIP 5.2 lacks, over HIP's groups and warp
 * functions; included by cass_hip_compat.h in HIP compiles, after its tile type.
 *   - cg::inclusive_scan / cg::exclusive_scan on power-of-two tiles (cooperative_groups/scan.h);
 *   - cg::memcpy_async / cg::wait (cooperative_groups/memcpy_async.h): the group copies at once,
 *     and wait is the group's barrier, which makes the copy visible to all its threads;
 *   - cg::labeled_partition / cg::binary_partition (as cass_lane_group, a set of lanes of one
 *     wavefront), and cg::reduce on those and on coalesced groups, which need not be a
 *     power-of-two run of lanes.
 */
#ifndef CASS_CG_EXTRAS_H
#define CASS_CG_EXTRAS_H

namespace cooperative_groups {

/* Hillis-Steele over shfl_up: after the step of distance d each lane holds the combination of
 * the 2d lanes ending at it; op takes the earlier lanes' value first. */
template <typename Group, typename T, typename Op>
__device__ inline T inclusive_scan(const Group& group, T value, Op op) {
  unsigned rank = group.thread_rank();
  for (unsigned d = 1; d < group.size(); d *= 2) {
    T earlier = group.shfl_up(value, d);
    if (rank >= d) value = op(earlier, value);
  }
  return value;
}
template <typename Group, typename T>
__device__ inline T inclusive_scan(const Group& group, T value) {
  return inclusive_scan(group, value, plus<T>());
}

/* The inclusive scan of the lanes before; the first lane gets T() (op's identity for plus and
 * the bitwise operators; CUDA leaves it unspecified for the others). */
template <typename Group, typename T, typename Op>
__device__ inline T exclusive_scan(const Group& group, T value, Op op) {
  T inclusive = inclusive_scan(group, value, op);
  T before = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T() : before;
}
template <typename Group, typename T>
__device__ inline T exclusive_scan(const Group& group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

/* The lanes of one wavefront in `mask`, ranked in lane order, as CUDA's coalesced groups are. */
class cass_lane_group {
  unsigned mask_;

 public:
  __device__ explicit cass_lane_group(unsigned mask) : mask_(mask) {}
  __device__ unsigned mask() const { return mask_; }
  __device__ unsigned size() const { return __popc(mask_); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ unsigned thread_rank() const { return __popc(mask_ & ((1u << __lane_id()) - 1u)); }
  __device__ void sync() const { __syncwarp(mask_); }
  template <typename T>
  __device__ T shfl(T value, unsigned rank) const {
    unsigned lanes = mask_;
    for (unsigned i = 0; i < rank && lanes; ++i) lanes &= lanes - 1;
    return __shfl_sync(mask_, value, lanes ? __ffs(lanes) - 1 : __lane_id());
  }
};

template <typename Parent>
__device__ inline cass_lane_group labeled_partition(const Parent& parent, int label) {
  (void)parent;
  return cass_lane_group(__match_any_sync(__activemask(), label));
}
template <typename Parent>
__device__ inline cass_lane_group binary_partition(const Parent& parent, bool predicate) {
  (void)parent;
  unsigned active = __activemask(), set = __ballot_sync(active, predicate);
  return cass_lane_group(predicate ? set : active & ~set);
}

/* Lane by lane in lane order over any set of lanes. */
template <typename T, typename Op>
__device__ inline T reduce(const cass_lane_group& group, T value, Op op) {
  return cass_compat::reduce_lanes(group.mask(), value, op);
}
/* A coalesced group is the lanes active where it was made, which are the active lanes here. */
template <typename T, typename Op>
__device__ inline T reduce(const coalesced_group& group, T value, Op op) {
  (void)group;
  return cass_compat::reduce_lanes(__activemask(), value, op);
}

template <typename Group>
__device__ inline void memcpy_async(const Group& group, void* dst, const void* src, size_t bytes) {
  unsigned char* to = static_cast<unsigned char*>(dst);
  const unsigned char* from = static_cast<const unsigned char*>(src);
  for (size_t i = group.thread_rank(); i < bytes; i += group.size()) to[i] = from[i];
}
template <typename Group, typename T>
__device__ inline void memcpy_async(const Group& group, T* dst, const T* src, size_t bytes) {
  memcpy_async(group, static_cast<void*>(dst), static_cast<const void*>(src), bytes);
}
template <typename Group>
__device__ inline void wait(const Group& group) {
  group.sync();
}
template <unsigned Stage, typename Group>
__device__ inline void wait_prior(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups

#endif  // CASS_CG_EXTRAS_H
