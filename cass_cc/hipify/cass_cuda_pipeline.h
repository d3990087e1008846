/* cass_cuda_pipeline.h: libcu++'s <cuda/pipeline> for HIP device code; included by
 * cass_hip_compat.h after cass_cuda_barrier.h, whose barrier and copies it uses.
 *   cuda::pipeline_shared_state<Scope, Stages>, cuda::make_pipeline(group, &state[, producer
 *   count | pipeline_role]) and cuda::make_pipeline() (thread scope), producer_acquire /
 *   producer_commit / consumer_wait / consumer_release, cuda::memcpy_async(group or thread, dst,
 *   src, size, pipeline), cuda::pipeline_consumer_wait_prior<N>, cuda::pipeline_producer_commit.
 * As in libcu++, a shared pipeline is two barriers per stage: producers arrive on "produced" at
 * commit and consumers wait for it; consumers arrive on "consumed" at release and producers wait
 * for it before refilling the stage. Each thread walks the stages with a parity bit per side, so a
 * wait is for the phase of the stage's current round. The copies are synchronous, so a thread's
 * part of a stage has landed before its commit arrives; a thread-scope pipeline has nothing to
 * wait for at all.
 */
#ifndef CASS_CUDA_PIPELINE_H
#define CASS_CUDA_PIPELINE_H

#include <cstdint>

namespace cuda {

enum class pipeline_role { producer, consumer };

template <thread_scope Scope, ::std::uint8_t Stages>
struct pipeline_shared_state {
  pipeline_shared_state() = default;      /* trivial: it is a __shared__ variable */
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;
  barrier<Scope> produced[Stages];
  barrier<Scope> consumed[Stages];
  int producers;                           /* counted by make_pipeline with roles */
};

template <thread_scope Scope>
class pipeline {
 public:
  __device__ pipeline(barrier<Scope>* produced, barrier<Scope>* consumed, ::std::uint8_t stages)
      : produced_(produced), consumed_(consumed), stages_(stages), head_(0), tail_(0),
        head_parity_(true), tail_parity_(false) {}

  /* The first round finds every stage free: "consumed" has parity 1 pending, phase 0 done. */
  __device__ void producer_acquire() { consumed_[head_].wait_parity(head_parity_); }

  __device__ void producer_commit() {
    (void)produced_[head_].arrive();
    if (++head_ == stages_) { head_ = 0; head_parity_ = !head_parity_; }
  }

  __device__ void consumer_wait() { produced_[tail_].wait_parity(tail_parity_); }

  __device__ void consumer_release() {
    (void)consumed_[tail_].arrive();
    if (++tail_ == stages_) { tail_ = 0; tail_parity_ = !tail_parity_; }
  }

 private:
  barrier<Scope>* produced_;
  barrier<Scope>* consumed_;
  ::std::uint8_t stages_, head_, tail_;
  bool head_parity_, tail_parity_;
};

/* A thread's own pipeline: its copies land at once, so every wait is already satisfied. */
template <>
class pipeline<thread_scope_thread> {
 public:
  __device__ void producer_acquire() {}
  __device__ void producer_commit() {}
  __device__ void consumer_wait() {}
  __device__ void consumer_release() {}
};

__device__ inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }

template <typename Group, thread_scope Scope, ::std::uint8_t Stages>
__device__ inline pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state,
                                                ::std::size_t producers) {
  if (group.thread_rank() == 0) {
    for (int s = 0; s < Stages; ++s) {
      init(&state->produced[s], static_cast<::std::ptrdiff_t>(producers));
      init(&state->consumed[s], static_cast<::std::ptrdiff_t>(group.size() - producers));
    }
  }
  group.sync();
  return pipeline<Scope>(state->produced, state->consumed, Stages);
}

/* Every thread of the group both produces and consumes. */
template <typename Group, thread_scope Scope, ::std::uint8_t Stages>
__device__ inline pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state) {
  if (group.thread_rank() == 0) {
    for (int s = 0; s < Stages; ++s) {
      init(&state->produced[s], static_cast<::std::ptrdiff_t>(group.size()));
      init(&state->consumed[s], static_cast<::std::ptrdiff_t>(group.size()));
    }
  }
  group.sync();
  return pipeline<Scope>(state->produced, state->consumed, Stages);
}

/* Each thread names its role; the group counts the producers first. */
template <typename Group, thread_scope Scope, ::std::uint8_t Stages>
__device__ inline pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state,
                                                pipeline_role role) {
  if (group.thread_rank() == 0) __hip_atomic_store(&state->producers, 0, __ATOMIC_RELAXED, Scope);
  group.sync();
  if (role == pipeline_role::producer) __hip_atomic_fetch_add(&state->producers, 1, __ATOMIC_RELAXED, Scope);
  group.sync();
  int producers = __hip_atomic_load(&state->producers, __ATOMIC_RELAXED, Scope);
  return make_pipeline(group, state, static_cast<::std::size_t>(producers));
}

template <typename Group, typename Size, thread_scope Scope>
__device__ inline async_contract_fulfillment memcpy_async(const Group& group, void* dst, const void* src,
                                                          Size size, pipeline<Scope>& pipe) {
  (void)pipe;            /* landed before the thread's producer_commit arrives */
  cass_detail::copy_share(group.thread_rank(), group.size(), dst, src, static_cast<::std::size_t>(size));
  return async_contract_fulfillment::async;
}

template <typename Size, thread_scope Scope>
__device__ inline async_contract_fulfillment memcpy_async(void* dst, const void* src, Size size,
                                                          pipeline<Scope>& pipe) {
  (void)pipe;
  cass_detail::copy_share(0, 1, dst, src, static_cast<::std::size_t>(size));
  return async_contract_fulfillment::async;
}

template <::std::uint8_t Prior>
__device__ inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& pipe) {
  pipe.consumer_wait();
}

/* Commit, and make the barrier's current phase wait for the committed copies (it does not
 * arrive): the copies have landed, so that is a release the completion reads from. */
template <thread_scope Scope, typename _CassF>
__device__ inline void pipeline_producer_commit(pipeline<thread_scope_thread>& pipe, barrier<Scope, _CassF>& bar) {
  pipe.producer_commit();
  bar.order_before_completion();
}

}  // namespace cuda

#endif  // CASS_CUDA_PIPELINE_H
