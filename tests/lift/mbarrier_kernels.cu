// Kernels for tests/lift/test_mbarrier.py: the raw sm_80 mbarrier word after init, arrives,
// cp.async arrive-ons, drops and phase completions, through the PTX operations libcu++ uses.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ unsigned long long arrive(unsigned long long *bar) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem(bar)) : "memory");
  return state;
}

__device__ __forceinline__ void wait(unsigned long long *bar, unsigned long long state) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(bar)), "l"(state) : "memory");
  } while (!done);
}

// words[0..4]: the word after init, after phase 0 (plain arrives), after phase 1 (cp.async
// arrive-ons, then plain arrives), after phase 2 (odd threads drop), after phase 3 (only even
// threads). tokens[t]: thread t's state from its phase-0 arrive; pending[t]: its pending count.
extern "C" __global__ void words(const int *in, unsigned long long *words, unsigned long long *tokens,
                                 unsigned *pending, int *copied) {
  __shared__ unsigned long long bar;
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bar)), "r"(blockDim.x) : "memory");
  __syncthreads();
  if (t == 0) words[0] = *(volatile unsigned long long *)&bar;
  unsigned long long s = arrive(&bar);
  tokens[t] = s;
  unsigned p;
  asm("mbarrier.pending_count.b64 %0, %1;" : "=r"(p) : "l"(s));
  pending[t] = p;
  wait(&bar, s);
  __syncthreads();
  if (t == 0) words[1] = *(volatile unsigned long long *)&bar;
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem(&buf[t])), "l"(in + t) : "memory");
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(smem(&bar)) : "memory");
  s = arrive(&bar);
  wait(&bar, s);
  copied[t] = buf[blockDim.x - 1 - t];
  __syncthreads();
  if (t == 0) words[2] = *(volatile unsigned long long *)&bar;
  __syncthreads();
  if (t & 1) {
    asm volatile("{ .reg .b64 st; mbarrier.arrive_drop.shared.b64 st, [%0]; }" :: "r"(smem(&bar)) : "memory");
  } else {
    s = arrive(&bar);
    wait(&bar, s);
  }
  __syncthreads();
  if (t == 0) words[3] = *(volatile unsigned long long *)&bar;
  __syncthreads();
  if (!(t & 1)) {
    s = arrive(&bar);
    wait(&bar, s);
  }
  __syncthreads();
  if (t == 0) words[4] = *(volatile unsigned long long *)&bar;
}

// Lanes of one wave arriving on four mbarriers of 3 expected arrivals each (16 arrivals per
// mbarrier, five phases completed by them), and warp 2 arriving together on one mbarrier of 3,
// completing several phases within one wave's arrivals.
extern "C" __global__ void spread(unsigned long long *words, unsigned long long *tokens) {
  __shared__ unsigned long long bars[5];
  int t = threadIdx.x;
  if (t < 5) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bars[t])), "r"(3) : "memory");
  __syncthreads();
  tokens[t] = arrive(&bars[t < 64 ? t % 4 : 4]);
  __syncthreads();
  if (t < 5) words[t] = *(volatile unsigned long long *)&bars[t];
}
