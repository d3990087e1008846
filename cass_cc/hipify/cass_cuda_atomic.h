/* cass_cuda_atomic.h: the part of libcu++'s <cuda/atomic> and <cuda/std/atomic> that device code
 * uses, over clang's HIP atomic builtins; included by cass_hip_compat.h in HIP compiles.
 *   cuda::std::atomic<_CassT>, cuda::atomic<_CassT, Scope>, cuda::atomic_ref<_CassT, Scope>: load, store,
 *   exchange, compare_exchange_weak/strong, fetch_add/sub/and/or/xor/min/max and the operators;
 *   cuda::std::atomic_thread_fence; the memory orders and thread scopes.
 * A CUDA thread scope becomes the AMD memory scope of the same reach (block: workgroup,
 * device: agent, system: system); an atomic object has _CassT's size and alignment, as in CUDA.
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
template <typename _CassT, int Scope>
struct operations {
  __device__ static _CassT load(_CassT* p, int order) { return __hip_atomic_load(p, order, Scope); }
  __device__ static void store(_CassT* p, _CassT v, int order) { __hip_atomic_store(p, v, order, Scope); }
  __device__ static _CassT exchange(_CassT* p, _CassT v, int order) { return __hip_atomic_exchange(p, v, order, Scope); }
  /* Success is read from the value seen, not from the builtin's flag, which hipcc 5.2's code
     for gfx11 gets wrong (a 32-bit CAS loop on it repeats stores that succeeded). */
  __device__ static bool compare_exchange(_CassT* p, _CassT& expected, _CassT desired, int success, int failure) {
    _CassT wanted = expected;
    __hip_atomic_compare_exchange_strong(p, &expected, desired, success, failure, Scope);
    const unsigned char* a = reinterpret_cast<const unsigned char*>(&wanted);
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&expected);
    for (unsigned i = 0; i < sizeof(_CassT); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  __device__ static _CassT fetch_add(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_add(p, v, order, Scope); }
  __device__ static _CassT fetch_sub(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_add(p, _CassT(0) - v, order, Scope); }
  __device__ static _CassT fetch_and(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_and(p, v, order, Scope); }
  __device__ static _CassT fetch_or(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_or(p, v, order, Scope); }
  __device__ static _CassT fetch_xor(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_xor(p, v, order, Scope); }
  __device__ static _CassT fetch_min(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_min(p, v, order, Scope); }
  __device__ static _CassT fetch_max(_CassT* p, _CassT v, int order) { return __hip_atomic_fetch_max(p, v, order, Scope); }
};

/* The member functions, over the object that Derived::address() names. */
template <typename Derived, typename _CassT, int Scope>
struct atomic_interface {
  typedef operations<_CassT, Scope> ops;
  __device__ _CassT* at() const { return static_cast<const Derived*>(this)->address(); }

  __device__ _CassT load(memory_order o = memory_order_seq_cst) const { return ops::load(at(), o); }
  __device__ void store(_CassT v, memory_order o = memory_order_seq_cst) const { ops::store(at(), v, o); }
  __device__ operator _CassT() const { return load(); }
  __device__ _CassT exchange(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::exchange(at(), v, o); }
  __device__ bool compare_exchange_strong(_CassT& expected, _CassT desired, memory_order success,
                                          memory_order failure) const {
    return ops::compare_exchange(at(), expected, desired, success, failure);
  }
  __device__ bool compare_exchange_strong(_CassT& expected, _CassT desired,
                                          memory_order o = memory_order_seq_cst) const {
    return ops::compare_exchange(at(), expected, desired, o, failure_order(o));
  }
  /* A strong exchange never fails spuriously, which a weak one may but need not. */
  __device__ bool compare_exchange_weak(_CassT& expected, _CassT desired, memory_order success,
                                        memory_order failure) const {
    return ops::compare_exchange(at(), expected, desired, success, failure);
  }
  __device__ bool compare_exchange_weak(_CassT& expected, _CassT desired,
                                        memory_order o = memory_order_seq_cst) const {
    return ops::compare_exchange(at(), expected, desired, o, failure_order(o));
  }
  __device__ _CassT fetch_add(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_add(at(), v, o); }
  __device__ _CassT fetch_sub(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_sub(at(), v, o); }
  __device__ _CassT fetch_and(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_and(at(), v, o); }
  __device__ _CassT fetch_or(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_or(at(), v, o); }
  __device__ _CassT fetch_xor(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_xor(at(), v, o); }
  __device__ _CassT fetch_min(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_min(at(), v, o); }
  __device__ _CassT fetch_max(_CassT v, memory_order o = memory_order_seq_cst) const { return ops::fetch_max(at(), v, o); }
  __device__ _CassT operator++() const { return fetch_add(_CassT(1)) + _CassT(1); }
  __device__ _CassT operator++(int) const { return fetch_add(_CassT(1)); }
  __device__ _CassT operator--() const { return fetch_sub(_CassT(1)) - _CassT(1); }
  __device__ _CassT operator--(int) const { return fetch_sub(_CassT(1)); }
  __device__ _CassT operator+=(_CassT v) const { return fetch_add(v) + v; }
  __device__ _CassT operator-=(_CassT v) const { return fetch_sub(v) - v; }
  __device__ _CassT operator&=(_CassT v) const { return fetch_and(v) & v; }
  __device__ _CassT operator|=(_CassT v) const { return fetch_or(v) | v; }
  __device__ _CassT operator^=(_CassT v) const { return fetch_xor(v) ^ v; }
};

}  // namespace cass_detail

template <typename _CassT, thread_scope Scope = thread_scope_system>
class atomic : public cass_detail::atomic_interface<atomic<_CassT, Scope>, _CassT, Scope> {
  alignas(sizeof(_CassT)) mutable _CassT value_;

 public:
  atomic() = default;
  __host__ __device__ constexpr atomic(_CassT value) : value_(value) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;
  __device__ _CassT operator=(_CassT v) {
    this->store(v);
    return v;
  }
  __device__ _CassT* address() const { return &value_; }
};

template <typename _CassT, thread_scope Scope = thread_scope_system>
class atomic_ref : public cass_detail::atomic_interface<atomic_ref<_CassT, Scope>, _CassT, Scope> {
  _CassT* object_;

 public:
  __device__ explicit atomic_ref(_CassT& object) : object_(&object) {}
  __device__ _CassT operator=(_CassT v) const {
    this->store(v);
    return v;
  }
  __device__ _CassT* address() const { return object_; }
};

namespace std {
template <typename _CassT>
using atomic = ::cuda::atomic<_CassT, thread_scope_system>;
template <typename _CassT>
using atomic_ref = ::cuda::atomic_ref<_CassT, thread_scope_system>;
}  // namespace std

}  // namespace cuda

#endif  // CASS_CUDA_ATOMIC_H
