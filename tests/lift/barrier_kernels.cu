// Kernels for tests/lift/test_barrier.py: named barriers, thread counts, barrier reductions with
// ids, and the cluster barrier (sm_90).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Warps 0-1 produce, warps 2-3 consume, through FULL (1) and EMPTY (2) barriers of 128 threads.
extern "C" __global__ void pipeline(const int *in, int *out, int rounds) {
  __shared__ int tile[64];
  int t = threadIdx.x, acc = 0;
  for (int r = 0; r < rounds; ++r) {
    if (t < 64) {
      if (r > 0) asm volatile("bar.sync 2, 128;" ::: "memory");
      tile[t] = in[(blockIdx.x * rounds + r) * 64 + t];
      asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");
      acc = acc * 3 + tile[127 - t];
      if (r < rounds - 1) asm volatile("bar.arrive 2, 128;" ::: "memory");
    }
  }
  if (t >= 64) out[blockIdx.x * 64 + t - 64] = acc;
}

// A barrier reduction of 64 threads with its id and count in registers (warps 2-3 only).
extern "C" __global__ void counted(const int *in, int *out, int id, int count) {
  int t = threadIdx.x, v = in[blockIdx.x * blockDim.x + t], c = -1;
  if (t >= 64)
    asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 0; bar.red.popc.u32 %0, %2, %3, p; }"
                 : "=r"(c) : "r"(v), "r"(id), "r"(count) : "memory");
  out[blockIdx.x * blockDim.x + t] = c;
}

// cluster.sync() and split arrive/wait around shared-memory traffic.
extern "C" __global__ void cluster(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
#if __CUDA_ARCH__ >= 900
  cg::this_cluster().sync();
#else
  __syncthreads();
#endif
  int v = s[127 - t];
#if __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
#else
  __syncthreads();
#endif
  s[t] = v * 2;
#if __CUDA_ARCH__ >= 900
  cg::this_cluster().sync();
#else
  __syncthreads();
#endif
  out[blockIdx.x * 128 + t] = s[(t + 1) % 128];
}

// One register operand: the count (`BAR.SYNC 0x1, R0`) for warps 0-1, the id (`BAR.SYNC R6, 0x40`)
// for warps 2-3; each pair swaps values through shared memory behind its barrier.
extern "C" __global__ void one_register(const int *in, int *out, int id, int count) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  if (t < 64) asm volatile("bar.sync 1, %0;" :: "r"(count) : "memory");
  else asm volatile("bar.sync %0, 64;" :: "r"(id) : "memory");
  out[blockIdx.x * 128 + t] = s[(t & 64) + 63 - (t & 63)];
}

// Named barriers whose count is the whole block (`bar.sync 3, blockDim.x`, a reduction on barrier
// 4 likewise) in a kernel without bar.arrive: s_barrier, no software barrier spinning in LDS.
extern "C" __global__ void whole_block(const int *in, int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x, n = blockDim.x;
  s[t] = in[blockIdx.x * n + t];
  asm volatile("bar.sync 3, %0;" :: "r"(n) : "memory");
  int v = s[(t + 1) % n];
  asm volatile("bar.sync 3, %0;" :: "r"(n) : "memory");
  s[t] = 2 * v;
  int c;
  asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 0; bar.red.popc.u32 %0, 4, %2, p; }"
               : "=r"(c) : "r"(v), "r"(n) : "memory");
  out[blockIdx.x * n + t] = s[(t + 2) % n] + 1000 * c;
}
