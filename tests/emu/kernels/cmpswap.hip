// Compare-and-swap loops from many lanes on one word: the final values are exactly known, so a
// compare-and-swap reported failed after it succeeded (an update applied twice) or the other way
// round (an update lost) shows.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

// atomicCAS loop adding in[i] to one 32-bit and one 64-bit word, in global and in LDS.
extern "C" __global__ void cas_add(const unsigned* in, unsigned* sum32, unsigned long long* sum64,
                                   unsigned* lds_sums) {
  __shared__ unsigned lds_sum;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) lds_sum = 0;
  __syncthreads();
  unsigned d = in[i];
  unsigned seen = *sum32, assumed;
  do {
    assumed = seen;
    seen = atomicCAS(sum32, assumed, assumed + d);
  } while (seen != assumed);
  unsigned long long seen64 = *sum64, assumed64;
  do {
    assumed64 = seen64;
    seen64 = atomicCAS(sum64, assumed64, assumed64 + ((unsigned long long)d << 20));
  } while (seen64 != assumed64);
  unsigned s = lds_sum, a;
  do {
    a = s;
    s = atomicCAS(&lds_sum, a, a + d);
  } while (s != a);
  __syncthreads();
  if (threadIdx.x == 0) lds_sums[blockIdx.x] = lds_sum;
}

// The same through the success flag of __hip_atomic_compare_exchange_strong/_weak, with the
// orders, scopes and widths libcu++'s cuda::atomic passes, in global memory and in LDS.
template <typename T, int Order, int Scope>
__device__ void flag_add(T* sum, T d) {
  T expected = __hip_atomic_load(sum, __ATOMIC_RELAXED, Scope);
  while (!__hip_atomic_compare_exchange_strong(sum, &expected, expected + d, Order, __ATOMIC_RELAXED, Scope)) {
  }
}
template <typename T, int Scope>
__device__ void flag_add_weak(T* sum, T d) {
  T expected = __hip_atomic_load(sum, __ATOMIC_RELAXED, Scope);
  while (!__hip_atomic_compare_exchange_weak(sum, &expected, expected + d, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE, Scope)) {
  }
}

// sums[0..3]: 32-bit relaxed/agent, seq_cst/agent, acq_rel/system, weak; sums[4]: the per-block
// LDS sums added up; sums64[0..1]: 64-bit strong (d) and weak (d << 33).
extern "C" __global__ void cas_flag_add(const unsigned* in, unsigned* sums, unsigned long long* sums64) {
  __shared__ unsigned lds_sum;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) lds_sum = 0;
  __syncthreads();
  unsigned d = in[i];
  flag_add<unsigned, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT>(sums, d);
  flag_add<unsigned, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_AGENT>(sums + 1, d);
  flag_add<unsigned, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_SYSTEM>(sums + 2, d);
  flag_add_weak<unsigned, __HIP_MEMORY_SCOPE_AGENT>(sums + 3, d);
  flag_add<unsigned long long, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_AGENT>(sums64, d);
  flag_add_weak<unsigned long long, __HIP_MEMORY_SCOPE_AGENT>(sums64 + 1, (unsigned long long)d << 33);
  flag_add<unsigned, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_WORKGROUP>(&lds_sum, d);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(sums + 4, lds_sum);
}

// A half2 add as a 32-bit CAS loop, each half added with __hadd (what hipify's compat atomicAdd
// on __half2 does); the addends are multiples of 1/4 with every partial sum exact in half.
extern "C" __global__ void cas_half2_add(const unsigned* in, unsigned* word) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned short lo = __half_as_ushort(__float2half(0.25f * (v & 3)));
  unsigned short hi = __half_as_ushort(__float2half(0.5f * (v & 1)));
  unsigned seen = *word, assumed;
  do {
    assumed = seen;
    unsigned short rlo = __half_as_ushort(__hadd(__ushort_as_half(assumed & 0xffff), __ushort_as_half(lo)));
    unsigned short rhi = __half_as_ushort(__hadd(__ushort_as_half(assumed >> 16), __ushort_as_half(hi)));
    seen = atomicCAS(word, assumed, rlo | (unsigned)rhi << 16);
  } while (seen != assumed);
}
