/* cass_cuda_barrier.h: libcu++'s <cuda/barrier> and <cuda/std/barrier> for HIP device code;
 * included by cass_hip_compat.h (after cass_cuda_atomic.h, whose cuda::thread_scope it uses).
 *   cuda::barrier<Scope, CompletionFunction>: init, arrive(update), wait(token), arrive_and_wait,
 *   arrive_and_drop, try_wait, max; cuda::std::barrier<CompletionFunction> (system scope);
 *   cuda::aligned_size_t<N>; cuda::memcpy_async(dst, src, size, barrier) and its group form.
 * The barrier has real phases: a pending count that every arrive lowers by its update, and a phase
 * counter that the last arrival of a phase bumps (after running the completion function and
 * reloading the pending count from the expected count, which arrive_and_drop lowers). Atomics act
 * at the barrier's scope (block: the workgroup, so the object lives in LDS like CUDA's mbarrier).
 * The copies are synchronous: a copy has landed before the copying thread goes on, and a release
 * operation on the barrier orders it before the phase's completion even when that thread does not
 * arrive itself (CUDA's memcpy_async makes the phase wait for its copies in the same way).
 * Only fetch-add, loads and stores are used: hipcc 5.2's compare-exchange on gfx11 is unreliable.
 */
#ifndef CASS_CUDA_BARRIER_H
#define CASS_CUDA_BARRIER_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace cuda {

enum class async_contract_fulfillment { none, async };

template <::std::size_t Alignment>
struct aligned_size_t {
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;
  __host__ __device__ explicit constexpr aligned_size_t(::std::size_t size) : value(size) {}
  __host__ __device__ constexpr operator ::std::size_t() const { return value; }
};

namespace cass_detail {

struct empty_completion {
  __device__ void operator()() noexcept {}
};

__device__ inline void sleep_a_little() { __builtin_amdgcn_s_sleep(1); }

/* Thread `rank` of `count` copies its share of `bytes`: 16-byte, 4-byte or single-byte pieces,
 * the widest that the two addresses and the size allow. */
__device__ inline void copy_share(unsigned rank, unsigned count, void* dst, const void* src,
                                  ::std::size_t bytes) {
  ::std::uintptr_t all = reinterpret_cast<::std::uintptr_t>(dst) | reinterpret_cast<::std::uintptr_t>(src) | bytes;
  if ((all & 15) == 0) {
    uint4* d = static_cast<uint4*>(dst);
    const uint4* s = static_cast<const uint4*>(src);
    for (::std::size_t i = rank; i < bytes / 16; i += count) d[i] = s[i];
  } else if ((all & 3) == 0) {
    unsigned* d = static_cast<unsigned*>(dst);
    const unsigned* s = static_cast<const unsigned*>(src);
    for (::std::size_t i = rank; i < bytes / 4; i += count) d[i] = s[i];
  } else {
    unsigned char* d = static_cast<unsigned char*>(dst);
    const unsigned char* s = static_cast<const unsigned char*>(src);
    for (::std::size_t i = rank; i < bytes; i += count) d[i] = s[i];
  }
}

}  // namespace cass_detail

template <thread_scope Scope, typename CompletionFunction = cass_detail::empty_completion>
class barrier {
 public:
  class arrival_token {
   public:
    arrival_token() = default;
    __device__ explicit arrival_token(unsigned phase) : phase_(phase) {}
   private:
    friend class barrier;
    unsigned phase_;
  };

  /* Trivial, so a barrier can be a __shared__ variable; init() gives it its state. */
  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;
  __device__ explicit barrier(::std::ptrdiff_t expected, CompletionFunction completion = CompletionFunction())
      : expected_(static_cast<int>(expected)), pending_(static_cast<int>(expected)), phase_(0),
        completion_(completion) {}

  __device__ friend void init(barrier* b, ::std::ptrdiff_t expected,
                              CompletionFunction completion = CompletionFunction()) {
    new (b) barrier(expected, completion);
  }

  static constexpr ::std::ptrdiff_t max() noexcept { return (1 << 30) - 1; }

  __device__ arrival_token arrive(::std::ptrdiff_t update = 1) {
    /* The phase cannot move before this arrival is counted, so reading it first is safe. */
    unsigned phase = __hip_atomic_load(&phase_, __ATOMIC_RELAXED, Scope);
    int before = __hip_atomic_fetch_add(&pending_, -static_cast<int>(update), __ATOMIC_ACQ_REL, Scope);
    if (before == static_cast<int>(update)) {         /* the last arrival of the phase */
      completion_();
      __hip_atomic_store(&pending_, __hip_atomic_load(&expected_, __ATOMIC_RELAXED, Scope),
                         __ATOMIC_RELAXED, Scope);
      __hip_atomic_store(&phase_, phase + 1, __ATOMIC_RELEASE, Scope);
    }
    return arrival_token(phase);
  }

  __device__ bool try_wait(arrival_token&& token) const {
    return __hip_atomic_load(&phase_, __ATOMIC_ACQUIRE, Scope) != token.phase_;
  }

  __device__ void wait(arrival_token&& token) const {
    while (__hip_atomic_load(&phase_, __ATOMIC_ACQUIRE, Scope) == token.phase_)
      cass_detail::sleep_a_little();
  }

  __device__ void arrive_and_wait() { wait(arrive()); }

  __device__ void arrive_and_drop() {
    /* Before the arrival: the phase's last arrival reloads from the lowered count. */
    __hip_atomic_fetch_add(&expected_, -1, __ATOMIC_RELAXED, Scope);
    (void)arrive();
  }

  /* Until the phase of this parity has completed (cuda::pipeline waits this way). */
  __device__ void wait_parity(bool parity) const {
    while ((__hip_atomic_load(&phase_, __ATOMIC_ACQUIRE, Scope) & 1u) == static_cast<unsigned>(parity))
      cass_detail::sleep_a_little();
  }

  /* A release that the phase's completion reads from, without an arrival: what the copies of
   * memcpy_async and pipeline_producer_commit add to the phase. */
  __device__ void order_before_completion() {
    __hip_atomic_fetch_add(&pending_, 0, __ATOMIC_RELEASE, Scope);
  }

 private:
  int expected_;
  int pending_;
  unsigned phase_;
  CompletionFunction completion_;
};

namespace std {
template <typename CompletionFunction = cass_detail::empty_completion>
using barrier = cuda::barrier<thread_scope_system, CompletionFunction>;
}  // namespace std

template <typename Group, typename Size, thread_scope Scope, typename _CassF>
__device__ inline async_contract_fulfillment memcpy_async(const Group& group, void* dst, const void* src,
                                                          Size size, barrier<Scope, _CassF>& bar) {
  cass_detail::copy_share(group.thread_rank(), group.size(), dst, src, static_cast<::std::size_t>(size));
  bar.order_before_completion();
  return async_contract_fulfillment::async;
}

template <typename Size, thread_scope Scope, typename _CassF>
__device__ inline async_contract_fulfillment memcpy_async(void* dst, const void* src, Size size,
                                                          barrier<Scope, _CassF>& bar) {
  cass_detail::copy_share(0, 1, dst, src, static_cast<::std::size_t>(size));
  bar.order_before_completion();
  return async_contract_fulfillment::async;
}

}  // namespace cuda

#endif  // CASS_CUDA_BARRIER_H
