/* cass_cuda_atomic.h: the part of libcu++'s <cuda/atomic> and <cuda/std/atomic> that device code
 * uses, over clang's HIP atomic builtins; included by cass_hip_compat.h in HIP compiles.
 *   cuda::std::atomic<T>, cuda::atomic<T, Scope>, cuda::atomic_ref<T, Scope>: load, store,
 *   exchange, compare_exchange_weak/strong, fetch_add/sub/and/or/xor/min/max and the operators;
 *   cuda::std::atomic_thread_fence; the memory orders and thread scopes.
 * A CUDA thread scope becomes the AMD memory scope of the same reach (block: workgroup,
 * device: agent, system: system); an atomic object has T's size and alignment, as in CUDA.
 */
#ifndef CASS_CUDA_ATOMIC_H
#define CASS_CUDA_ATOMIC_H

namespace cuda {

enum thread_scope {
  thread_scope_system = __HIP_MEMORY_SCOPE_SYSTEM,
  thread_scope_device = __HIP_MEMORY_SCOPE_AGENT,
  thread_scope_block = __HIP_MEMORY_SCOPE_WORKGROUP,
  thread_scope_thread = __HIP_MEMORY_SCOPE_SINGLETHREAD
};

namespace std {

enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_consume = __ATOMIC_CONSUME,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
};

__host__ __device__ inline void atomic_thread_fence(memory_order order) {
#if defined(__HIP_DEVICE_COMPILE__)
  if (order == memory_order_relaxed) return;
  if (order == memory_order_acquire || order == memory_order_consume)
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "");
  else if (order == memory_order_release)
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
  else if (order == memory_order_acq_rel)
    __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "");
  else
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
#else
  __atomic_thread_fence(order);
#endif
}

}  // namespace std

using std::memory_order;
using std::memory_order_relaxed;
using std::memory_order_consume;
using std::memory_order_acquire;
using std::memory_order_release;
using std::memory_order_acq_rel;
using std::memory_order_seq_cst;
using std::atomic_thread_fence;

namespace cass_detail {

/* The order a failed compare-exchange loads with, derived from the success order as C++ does. */
__device__ constexpr int failure_order(int order) {
  return order == __ATOMIC_ACQ_REL ? __ATOMIC_ACQUIRE
         : order == __ATOMIC_RELEASE ? __ATOMIC_RELAXED : order;
}

/* The operations on an object at `p`, for both atomic (which holds it) and atomic_ref. */
template <typename T, int Scope>
struct operations {
  __device__ static T load(T* p, int order) { return __hip_atomic_load(p, order, Scope); }
  __device__ static void store(T* p, T v, int order) { __hip_atomic_store(p, v, order, Scope); }
  __device__ static T exchange(T* p, T v, int order) { return __hip_atomic_exchange(p, v, order, Scope); }
  /* Success is read from the value seen, not from the builtin's flag, which hipcc 5.2's code
     for gfx11 gets wrong (a 32-bit CAS loop on it repeats stores that succeeded). */
  __device__ static bool compare_exchange(T* p, T& expected, T desired, int success, int failure) {
    T wanted = expected;
    __hip_atomic_compare_exchange_strong(p, &expected, desired, success, failure, Scope);
    const unsigned char* a = reinterpret_cast<const unsigned char*>(&wanted);
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&expected);
    for (unsigned i = 0; i < sizeof(T); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  __device__ static T fetch_add(T* p, T v, int order) { return __hip_atomic_fetch_add(p, v, order, Scope); }
  __device__ static T fetch_sub(T* p, T v, int order) { return __hip_atomic_fetch_add(p, T(0) - v, order, Scope); }
  __device__ static T fetch_and(T* p, T v, int order) { return __hip_atomic_fetch_and(p, v, order, Scope); }
  __device__ static T fetch_or(T* p, T v, int order) { return __hip_atomic_fetch_or(p, v, order, Scope); }
  __device__ static T fetch_xor(T* p, T v, int order) { return __hip_atomic_fetch_xor(p, v, order, Scope); }
  __device__ static T fetch_min(T* p, T v, int order) { return __hip_atomic_fetch_min(p, v, order, Scope); }
  __device__ static T fetch_max(T* p, T v, int order) { return __hip_atomic_fetch_max(p, v, order, Scope); }
};

/* The member functions, over the object that Derived::address() names. */
template <typename Derived, typename T, int Scope>
struct atomic_interface {
  typedef operations<T, Scope> ops;
  __device__ T* at() const { return static_cast<const Derived*>(this)->address(); }

  __device__ T load(memory_order o = memory_order_seq_cst) const { return ops::load(at(), o); }
  __device__ void store(T v, memory_order o = memory_order_seq_cst) const { ops::store(at(), v, o); }
  __device__ operator T() const { return load(); }
  __device__ T exchange(T v, memory_order o = memory_order_seq_cst) const { return ops::exchange(at(), v, o); }
  __device__ bool compare_exchange_strong(T& expected, T desired, memory_order success,
                                          memory_order failure) const {
    return ops::compare_exchange(at(), expected, desired, success, failure);
  }
  __device__ bool compare_exchange_strong(T& expected, T desired,
                                          memory_order o = memory_order_seq_cst) const {
    return ops::compare_exchange(at(), expected, desired, o, failure_order(o));
  }
  /* A strong exchange never fails spuriously, which a weak one may but need not. */
  __device__ bool compare_exchange_weak(T& expected, T desired, memory_order success,
                                        memory_order failure) const {
    return ops::compare_exchange(at(), expected, desired, success, failure);
  }
  __device__ bool compare_exchange_weak(T& expected, T desired,
                                        memory_order o = memory_order_seq_cst) const {
    return ops::compare_exchange(at(), expected, desired, o, failure_order(o));
  }
  __device__ T fetch_add(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_add(at(), v, o); }
  __device__ T fetch_sub(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_sub(at(), v, o); }
  __device__ T fetch_and(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_and(at(), v, o); }
  __device__ T fetch_or(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_or(at(), v, o); }
  __device__ T fetch_xor(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_xor(at(), v, o); }
  __device__ T fetch_min(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_min(at(), v, o); }
  __device__ T fetch_max(T v, memory_order o = memory_order_seq_cst) const { return ops::fetch_max(at(), v, o); }
  __device__ T operator++() const { return fetch_add(T(1)) + T(1); }
  __device__ T operator++(int) const { return fetch_add(T(1)); }
  __device__ T operator--() const { return fetch_sub(T(1)) - T(1); }
  __device__ T operator--(int) const { return fetch_sub(T(1)); }
  __device__ T operator+=(T v) const { return fetch_add(v) + v; }
  __device__ T operator-=(T v) const { return fetch_sub(v) - v; }
  __device__ T operator&=(T v) const { return fetch_and(v) & v; }
  __device__ T operator|=(T v) const { return fetch_or(v) | v; }
  __device__ T operator^=(T v) const { return fetch_xor(v) ^ v; }
};

}  // namespace cass_detail

template <typename T, thread_scope Scope = thread_scope_system>
class atomic : public cass_detail::atomic_interface<atomic<T, Scope>, T, Scope> {
  alignas(sizeof(T)) mutable T value_;

 public:
  atomic() = default;
  __host__ __device__ constexpr atomic(T value) : value_(value) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;
  __device__ T operator=(T v) {
    this->store(v);
    return v;
  }
  __device__ T* address() const { return &value_; }
};

template <typename T, thread_scope Scope = thread_scope_system>
class atomic_ref : public cass_detail::atomic_interface<atomic_ref<T, Scope>, T, Scope> {
  T* object_;

 public:
  __device__ explicit atomic_ref(T& object) : object_(&object) {}
  __device__ T operator=(T v) const {
    this->store(v);
    return v;
  }
  __device__ T* address() const { return object_; }
};

namespace std {
template <typename T>
using atomic = ::cuda::atomic<T, thread_scope_system>;
template <typename T>
using atomic_ref = ::cuda::atomic_ref<T, thread_scope_system>;
}  // namespace std

}  // namespace cuda

#endif  // CASS_CUDA_ATOMIC_H
