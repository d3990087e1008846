/* cass_cg_extras.h: cooperative groups of CUDA 11/12 that HIP 5.2 lacks, over HIP's groups and
 * warp functions; included by cass_hip_compat.h in HIP compiles, after cg::reduce.
 *   - thread_block_tile<N> (hipify's cass_thread_block_tile) for N = 1..32 with CUDA's members
 *     (meta_group_rank/size, ballot/any/all, match_any/all, shuffles that wrap their source rank),
 *     and for N = 64..512, a tile of whole warps whose sync is a barrier of its warps in LDS;
 *     block_tile_memory (cass_block_tile_memory) and this_thread_block(memory);
 *   - coalesced_group (cass_coalesced_group): any set of lanes of one wavefront, ranked in lane
 *     order, as coalesced_threads(), tiled_partition of it, labeled_partition and
 *     binary_partition make it;
 *   - cg::reduce on coalesced groups and big tiles, cg::inclusive_scan / exclusive_scan;
 *   - cg::memcpy_async / cg::wait (cooperative_groups/memcpy_async.h): the group copies at once,
 *     and wait is the group's barrier, which makes the copy visible to all its threads.
 */
#ifndef CASS_CG_EXTRAS_H
#define CASS_CG_EXTRAS_H

namespace cooperative_groups {

namespace cass_detail {

/* The lanes [first, first + size) of the wavefront, as a 32-bit mask. */
__device__ inline unsigned run_of_lanes(unsigned first, unsigned size) {
  return (size >= 32 ? 0xffffffffu : (1u << size) - 1u) << first;
}

/* Bits of `lanes` that are in `mask`, packed in lane order (bit k: the mask's k-th lane). */
__device__ inline unsigned pack_lanes(unsigned mask, unsigned lanes) {
  unsigned packed = 0, rank = 0;
  for (; mask; mask &= mask - 1, ++rank)
    if (lanes & mask & (0u - mask)) packed |= 1u << rank;
  return packed;
}

/* The lane of the n-th member (rank n) of `mask`, or 32 when it has fewer members. */
__device__ inline unsigned lane_of_rank(unsigned mask, unsigned n) {
  for (unsigned i = 0; i < n && mask; ++i) mask &= mask - 1;
  return mask ? __ffs(mask) - 1 : 32u;
}

/* LDS state of the tiles larger than a wavefront: one barrier (arrivals, generation) per tile of
 * the block and one 8-byte slot per wavefront, for shuffles and reductions across warps. */
constexpr unsigned max_warps = 32;
struct big_tile_state {
  unsigned arrived[max_warps];
  unsigned generation[max_warps];
  unsigned long long slot[max_warps];
};
__device__ inline big_tile_state& big_tiles() {
  __shared__ big_tile_state state;
  return state;
}

/* A barrier of the wavefronts of tile `tile`, `threads` threads: lane 0 of each wavefront
 * arrives, the last one releases the others by bumping the generation. One arrival per
 * wavefront, not per warp: the two warps of a 64-lane wave run their lanes together, so one of
 * them waiting for the other's arrival would never let it arrive (a unit run one warp per wave
 * has a wave per warp: cass_wave_per_warp.h). */
__device__ inline void sync_warps(unsigned tile, unsigned threads) {
  big_tile_state& s = big_tiles();
  unsigned waves = threads / CASS_THREADS_PER_WAVE;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  if (__lane_id() == 0) {
    unsigned generation = __hip_atomic_load(&s.generation[tile], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
    if (atomicAdd(&s.arrived[tile], 1u) == waves - 1) {
      __hip_atomic_store(&s.arrived[tile], 0u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
      __hip_atomic_fetch_add(&s.generation[tile], 1u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_WORKGROUP);
    } else {
      while (__hip_atomic_load(&s.generation[tile], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP) == generation)
        __builtin_amdgcn_s_sleep(1);
    }
  }
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

template <typename T>
__device__ inline void put_slot(unsigned warp, const T& value) {
  static_assert(sizeof(T) <= 8, "collectives of tiles larger than 32 threads take types of at most 8 bytes");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  big_tiles().slot[warp] = bits;
}
template <typename T>
__device__ inline T get_slot(unsigned warp) {
  unsigned long long bits = big_tiles().slot[warp];
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

}  // namespace cass_detail

/* CUDA 12's scratch for tiles larger than a warp; the tiles here keep theirs in cass_detail. */
template <unsigned int MaxBlockSize = 1024>
struct cass_block_tile_memory {};

template <unsigned int MaxBlockSize>
__device__ inline thread_block this_thread_block(cass_block_tile_memory<MaxBlockSize>& memory) {
  (void)memory;
  return this_thread_block();
}

/* ---- thread_block_tile ------------------------------------------------------------------
 * HIP 5.2's static tiles do not know which tile of their parent they are, make tiles of thread
 * blocks only and at most a wavefront wide. hipify renames thread_block_tile to
 * cass_thread_block_tile, which records meta_group_rank/size when tiled_partition makes it; a
 * tile of a tile is the same lanes as the block's tile of that size, because tiles are aligned
 * runs of lanes. */
template <unsigned int Size, class Parent = void, bool Wide = (Size > 32)>
class cass_thread_block_tile;

template <unsigned int Size, class Parent>
class cass_thread_block_tile<Size, Parent, false> : public thread_block_tile<Size, void> {
  unsigned int meta_rank_, meta_count_;

  __device__ static unsigned first_lane() { return cass_ptx::lane() & ~(Size - 1u); }

 public:
  __device__ cass_thread_block_tile(const thread_block_tile<Size, void>& tile, unsigned int rank,
                                    unsigned int count)
      : thread_block_tile<Size, void>(tile), meta_rank_(rank), meta_count_(count) {}
  template <class Other>
  __device__ cass_thread_block_tile(const cass_thread_block_tile<Size, Other>& tile)
      : thread_block_tile<Size, void>(tile), meta_rank_(tile.meta_group_rank()),
        meta_count_(tile.meta_group_size()) {}
  __device__ unsigned int meta_group_rank() const { return meta_rank_; }
  __device__ unsigned int meta_group_size() const { return meta_count_; }
  __device__ unsigned int num_threads() const { return Size; }
  __device__ static unsigned int lanes() { return cass_detail::run_of_lanes(first_lane(), Size); }

  /* CUDA's shuffles on any trivially copyable type; the source rank wraps at the tile size
     (ROCm 5.2's __shfl reads past the tile). */
  template <typename T>
  __device__ T shfl(T value, int rank) const { return __shfl_sync(lanes(), value, rank, Size); }
  template <typename T>
  __device__ T shfl_up(T value, unsigned delta) const { return __shfl_up_sync(lanes(), value, delta, Size); }
  template <typename T>
  __device__ T shfl_down(T value, unsigned delta) const { return __shfl_down_sync(lanes(), value, delta, Size); }
  template <typename T>
  __device__ T shfl_xor(T value, unsigned mask) const { return __shfl_xor_sync(lanes(), value, mask, Size); }

  /* Votes and matches over the tile's lanes; bit i is the tile's thread i. */
  __device__ unsigned int ballot(int predicate) const { return __ballot_sync(lanes(), predicate) >> first_lane(); }
  __device__ int any(int predicate) const { return ballot(predicate) != 0; }
  __device__ int all(int predicate) const { return __ballot_sync(lanes(), predicate) == (lanes() & __activemask()); }
  template <typename T>
  __device__ unsigned int match_any(T value) const { return __match_any_sync(lanes(), value) >> first_lane(); }
  template <typename T>
  __device__ unsigned int match_all(T value, int& pred) const {
    return __match_all_sync(lanes(), value, &pred) >> first_lane();
  }
};

/* A tile of Size / 32 whole wavefronts (CUDA allows 64, 128, 256, 512). */
template <unsigned int Size, class Parent>
class cass_thread_block_tile<Size, Parent, true> {
  static_assert(Size == 64 || Size == 128 || Size == 256 || Size == 512, "Size must be one of 64/128/256/512");
  static constexpr unsigned warps = Size / 32;
  unsigned int meta_rank_, meta_count_;

  __device__ static unsigned block_rank() { return this_thread_block().thread_rank(); }
  __device__ unsigned first_warp() const { return (block_rank() - thread_rank()) / 32; }

 public:
  __device__ cass_thread_block_tile(unsigned int rank, unsigned int count) : meta_rank_(rank), meta_count_(count) {}
  template <class Other>
  __device__ cass_thread_block_tile(const cass_thread_block_tile<Size, Other>& tile)
      : meta_rank_(tile.meta_group_rank()), meta_count_(tile.meta_group_size()) {}
  __device__ static unsigned int thread_rank() { return block_rank() & (Size - 1); }
  __device__ static unsigned int size() { return Size; }
  __device__ static unsigned int num_threads() { return Size; }
  __device__ unsigned int meta_group_rank() const { return meta_rank_; }
  __device__ unsigned int meta_group_size() const { return meta_count_; }
  /* Tiles of one size share nothing: each has its own barrier, found by its first wavefront. */
  __device__ void sync() const { cass_detail::sync_warps(first_warp(), Size); }

  template <typename T>
  __device__ T shfl(T value, unsigned rank) const {
    if (thread_rank() == rank) cass_detail::put_slot(first_warp(), value);
    sync();
    T result = cass_detail::get_slot<T>(first_warp());
    sync();
    return result;
  }
  /* op over the warps' results, in warp order; every thread of the tile gets it. */
  template <typename T, typename Op>
  __device__ T combine_warps(T warp_value, Op op) const {
    if (cass_ptx::lane() == 0) cass_detail::put_slot(block_rank() / 32, warp_value);
    sync();
    T total = cass_detail::get_slot<T>(first_warp());
    for (unsigned w = 1; w < warps; ++w) total = op(total, cass_detail::get_slot<T>(first_warp() + w));
    sync();
    return total;
  }
  /* op over the results of the warps before this thread's one (T() for the first). */
  template <typename T, typename Op>
  __device__ T before_warps(T warp_total, Op op) const {
    if (cass_ptx::lane() == 31) cass_detail::put_slot(block_rank() / 32, warp_total);
    sync();
    unsigned mine = thread_rank() / 32;
    T prefix = mine ? cass_detail::get_slot<T>(first_warp()) : T();
    for (unsigned w = 1; w < mine; ++w) prefix = op(prefix, cass_detail::get_slot<T>(first_warp() + w));
    sync();
    return prefix;
  }
  __device__ int any(int predicate) const {
    return combine_warps<int>(__any_sync(0xffffffffu, predicate), [](int a, int b) { return a | b; });
  }
  __device__ int all(int predicate) const {
    return combine_warps<int>(__all_sync(0xffffffffu, predicate), [](int a, int b) { return a & b; });
  }
};

namespace cass_detail {
/* A tile of `Size` made while the block (or a parent tile) is partitioned: the wide tiles start
 * their barriers at rest, for which the block waits (CUDA's tiled_partition is collective). */
template <bool Wide> struct width {};
template <unsigned int Size, class Parent>
__device__ inline cass_thread_block_tile<Size, Parent> make_tile(unsigned rank, unsigned count, width<true>) {
  if (this_thread_block().thread_rank() < max_warps) big_tiles().arrived[this_thread_block().thread_rank()] = 0;
  this_thread_block().sync();
  return cass_thread_block_tile<Size, Parent>(rank, count);
}
template <unsigned int Size, class Parent>
__device__ inline cass_thread_block_tile<Size, Parent> make_tile(unsigned rank, unsigned count, width<false>) {
  thread_block_tile<Size, void> tile = impl::tiled_partition_internal<Size, thread_block>(this_thread_block());
  return {tile, rank, count};
}
template <unsigned int Size, class Parent>
__device__ inline cass_thread_block_tile<Size, Parent> make_tile(unsigned rank, unsigned count) {
  return make_tile<Size, Parent>(rank, count, width<(Size > 32)>());
}
}  // namespace cass_detail

template <unsigned int Size>
__device__ inline cass_thread_block_tile<Size, thread_block> tiled_partition(const thread_block& parent) {
  return cass_detail::make_tile<Size, thread_block>(parent.thread_rank() / Size, (parent.size() + Size - 1) / Size);
}

template <unsigned int Size, unsigned int ParentSize, class Grandparent, bool Wide>
__device__ inline cass_thread_block_tile<Size, cass_thread_block_tile<ParentSize, Grandparent>>
tiled_partition(const cass_thread_block_tile<ParentSize, Grandparent, Wide>& parent) {
  static_assert(Size <= ParentSize, "a tile is at most as large as its parent");
  return cass_detail::make_tile<Size, cass_thread_block_tile<ParentSize, Grandparent>>(parent.thread_rank() / Size,
                                                                                    ParentSize / Size);
}

/* cg::reduce on a wide tile: each warp reduces its lanes, then the warps' results in order. */
template <unsigned int Size, class Parent, typename T, typename Op>
__device__ inline T reduce(const cass_thread_block_tile<Size, Parent, true>& tile, T value, Op op) {
  for (unsigned offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return tile.combine_warps(value, op);
}

/* ---- coalesced groups ---------------------------------------------------------------------- */

/* The lanes of one wavefront in `mask`, ranked in lane order, as CUDA's coalesced groups are;
 * a tiled one (a tile of a tile) knows its place among its siblings. */
class cass_coalesced_group {
  unsigned mask_, meta_rank_, meta_count_;

 public:
  __device__ explicit cass_coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_count = 1)
      : mask_(mask), meta_rank_(meta_rank), meta_count_(meta_count) {}
  __device__ unsigned mask() const { return mask_; }
  __device__ unsigned size() const { return __popc(mask_); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ unsigned thread_rank() const { return __popc(mask_ & ((1u << cass_ptx::lane()) - 1u)); }
  __device__ unsigned meta_group_rank() const { return meta_rank_; }
  __device__ unsigned meta_group_size() const { return meta_count_; }
  __device__ void sync() const { __syncwarp(mask_); }
  template <typename T>
  __device__ T shfl(T value, unsigned rank) const {
    unsigned lane = cass_detail::lane_of_rank(mask_, rank);
    return __shfl_sync(mask_, value, lane < 32 ? lane : cass_ptx::lane());
  }
  /* The member `delta` ranks before (after) this one; the own value where there is none. */
  template <typename T>
  __device__ T shfl_up(T value, unsigned delta) const {
    unsigned rank = thread_rank();
    unsigned lane = rank >= delta ? cass_detail::lane_of_rank(mask_, rank - delta) : 32u;
    return __shfl_sync(mask_, value, lane < 32 ? lane : cass_ptx::lane());
  }
  template <typename T>
  __device__ T shfl_down(T value, unsigned delta) const {
    unsigned lane = cass_detail::lane_of_rank(mask_, thread_rank() + delta);
    return __shfl_sync(mask_, value, lane < 32 ? lane : cass_ptx::lane());
  }
  /* Votes and matches; bit k is the member of rank k. */
  __device__ unsigned ballot(int predicate) const {
    return cass_detail::pack_lanes(mask_, __ballot_sync(mask_, predicate));
  }
  __device__ int any(int predicate) const { return __ballot_sync(mask_, predicate) != 0; }
  __device__ int all(int predicate) const { return __ballot_sync(mask_, predicate) == mask_; }
  template <typename T>
  __device__ unsigned match_any(T value) const { return cass_detail::pack_lanes(mask_, __match_any_sync(mask_, value)); }
  template <typename T>
  __device__ unsigned match_all(T value, int& pred) const {
    return cass_detail::pack_lanes(mask_, __match_all_sync(mask_, value, &pred));
  }
};

__device__ inline cass_coalesced_group cass_coalesced_threads() { return cass_coalesced_group(__activemask()); }

/* Tiles of `size` members, by rank (a coalesced group need not be a run of lanes). */
__device__ inline cass_coalesced_group tiled_partition(const cass_coalesced_group& parent, unsigned size) {
  unsigned first = parent.thread_rank() / size * size, mask = 0;
  for (unsigned k = first; k < first + size; ++k) {
    unsigned lane = cass_detail::lane_of_rank(parent.mask(), k);
    if (lane < 32) mask |= 1u << lane;
  }
  return cass_coalesced_group(mask, parent.thread_rank() / size, (parent.size() + size - 1) / size);
}

template <typename Parent>
__device__ inline cass_coalesced_group labeled_partition(const Parent& parent, int label) {
  (void)parent;
  return cass_coalesced_group(__match_any_sync(__activemask(), label));
}
template <typename Parent>
__device__ inline cass_coalesced_group binary_partition(const Parent& parent, bool predicate) {
  (void)parent;
  unsigned active = __activemask(), set = __ballot_sync(active, predicate);
  return cass_coalesced_group(predicate ? set : active & ~set);
}

/* Lane by lane in lane order over any set of lanes. */
template <typename T, typename Op>
__device__ inline T reduce(const cass_coalesced_group& group, T value, Op op) {
  return cass_compat::reduce_lanes(group.mask(), value, op);
}

/* ---- scans (cooperative_groups/scan.h) ----------------------------------------------------- */

/* Hillis-Steele over shfl_up: after the step of distance d each member holds the combination of
 * the 2d members ending at it; op takes the earlier members' value first. */
template <typename Group, typename T, typename Op>
__device__ inline T inclusive_scan(const Group& group, T value, Op op) {
  unsigned rank = group.thread_rank();
  for (unsigned d = 1; d < group.size(); d *= 2) {
    T earlier = group.shfl_up(value, d);
    if (rank >= d) value = op(earlier, value);
  }
  return value;
}
/* A wide tile: each warp scans its lanes, then adds what the warps before it hold. */
template <unsigned int Size, class Parent, typename T, typename Op>
__device__ inline T inclusive_scan(const cass_thread_block_tile<Size, Parent, true>& tile, T value, Op op) {
  unsigned lane = cass_ptx::lane();
  for (unsigned d = 1; d < 32; d *= 2) {
    T earlier = __shfl_up_sync(0xffffffffu, value, d);
    if (lane >= d) value = op(earlier, value);
  }
  T prefix = tile.before_warps(value, op);
  return tile.thread_rank() >= 32 ? op(prefix, value) : value;
}
template <typename Group, typename T>
__device__ inline T inclusive_scan(const Group& group, T value) {
  return inclusive_scan(group, value, plus<T>());
}

/* The inclusive scan of the members before; the first member gets T() (op's identity for plus
 * and the bitwise operators; CUDA leaves it unspecified for the others). */
template <typename Group, typename T, typename Op>
__device__ inline T exclusive_scan(const Group& group, T value, Op op) {
  T inclusive = inclusive_scan(group, value, op);
  T before = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T() : before;
}
template <unsigned int Size, class Parent, typename T, typename Op>
__device__ inline T exclusive_scan(const cass_thread_block_tile<Size, Parent, true>& tile, T value, Op op) {
  unsigned lane = cass_ptx::lane();
  for (unsigned d = 1; d < 32; d *= 2) {
    T earlier = __shfl_up_sync(0xffffffffu, value, d);
    if (lane >= d) value = op(earlier, value);
  }
  T prefix = tile.before_warps(value, op);
  T inclusive = tile.thread_rank() >= 32 ? op(prefix, value) : value;
  T before = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (tile.thread_rank() == 0) return T();
  return lane == 0 ? prefix : before;      /* a warp's first lane: what the warps before hold */
}
template <typename Group, typename T>
__device__ inline T exclusive_scan(const Group& group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

/* ---- memcpy_async (cooperative_groups/memcpy_async.h) ------------------------------------ */

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
