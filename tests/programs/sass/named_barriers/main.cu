// Named barriers and barriers with thread counts (inline PTX bar.sync/bar.arrive/bar.red with ids,
// immediate and register operands), as warp-specialised producer/consumer code uses them.
// Self-checking against a CPU reference; prints checksum and PASS/FAIL.
#include <cstdio>
#include <cstdlib>

#define ROUNDS 6
#define BLOCKS 3

__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }

// Warps 0-1 produce a tile per round, warps 2-3 consume it: FULL (1) and EMPTY (2) barriers of
// 128 threads, each side arriving on one and waiting on the other (immediate operands).
__global__ void producer_consumer(const int *in, int *out) {
  __shared__ int tile[64];
  int t = threadIdx.x, warp = t / 32;
  int acc = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    if (warp < 2) {
      if (r > 0) asm volatile("bar.sync 2, 128;" ::: "memory");      // wait until the tile is empty
      tile[t] = in[(blockIdx.x * ROUNDS + r) * 64 + t] * (r + 1);
      asm volatile("bar.arrive 1, 128;" ::: "memory");                // tile full
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");                  // wait for a full tile
      acc += tile[t - 64] + tile[127 - t];
      if (r < ROUNDS - 1) asm volatile("bar.arrive 2, 128;" ::: "memory");  // tile consumed
    }
  }
  if (warp >= 2) out[blockIdx.x * 64 + t - 64] = acc;
}

// Two independent groups of two warps, each exchanging through shared memory behind its own
// barrier of 64 threads; ids and counts come from registers (kernel arguments).
__global__ void groups(const int *in, int *out, int id0, int id1, int count) {
  __shared__ int s[128];
  int t = threadIdx.x, g = t / 64;
  s[t] = in[blockIdx.x * 128 + t];
  bar_sync(g ? id1 : id0, count);
  int v = s[g * 64 + (t + 17) % 64];
  bar_sync(g ? id1 : id0, count);
  s[t] = v * 3 + g;
  bar_sync(g ? id1 : id0, count);
  out[blockIdx.x * 128 + t] = s[g * 64 + 63 - t % 64];
}

// Barrier reductions on a named barrier of 64 threads (warps 2-3) and on barrier 6 with no
// thread count (the whole block), then a register id with no count.
__global__ void reductions(const int *in, int *out, int id) {
  int t = threadIdx.x, v = in[blockIdx.x * 128 + t];
  int c = -1, a = -1, o = -1;
  if (t >= 64) {
    asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 50; bar.red.popc.u32 %0, 5, 64, p; }" : "=r"(c) : "r"(v) : "memory");
    asm volatile("{ .reg .pred p, q; setp.ge.s32 p, %1, 0; bar.red.and.pred q, 5, 64, p; selp.s32 %0, 1, 0, q; }" : "=r"(a) : "r"(v) : "memory");
  }
  asm volatile("{ .reg .pred p, q; setp.eq.s32 p, %1, 77; bar.red.or.pred q, 6, p; selp.s32 %0, 1, 0, q; }" : "=r"(o) : "r"(v) : "memory");
  asm volatile("bar.sync %0;" :: "r"(id) : "memory");
  int n;
  asm volatile("{ .reg .pred p; setp.lt.s32 p, %1, 10; bar.red.popc.u32 %0, %2, p; }" : "=r"(n) : "r"(v), "r"(id) : "memory");
  out[(blockIdx.x * 128 + t) * 4 + 0] = c;
  out[(blockIdx.x * 128 + t) * 4 + 1] = a;
  out[(blockIdx.x * 128 + t) * 4 + 2] = o;
  out[(blockIdx.x * 128 + t) * 4 + 3] = n;
}

int main() {
  const int n1 = BLOCKS * ROUNDS * 64, n2 = BLOCKS * 128;
  int *h1 = (int *)malloc(n1 * sizeof(int)), *h2 = (int *)malloc(n2 * sizeof(int));
  unsigned s = 12345;
  for (int i = 0; i < n1; ++i) { s = s * 1103515245u + 12345u; h1[i] = (s >> 16) % 1000; }
  for (int i = 0; i < n2; ++i) { s = s * 1103515245u + 12345u; h2[i] = (int)((s >> 16) % 101) - 3; }
  h2[200] = 77;                                                       // block 1 has a 77
  int *d1, *d2, *o1, *o2, *o3;
  cudaMalloc(&d1, n1 * sizeof(int)); cudaMalloc(&d2, n2 * sizeof(int));
  cudaMalloc(&o1, BLOCKS * 64 * sizeof(int)); cudaMalloc(&o2, n2 * sizeof(int)); cudaMalloc(&o3, n2 * 4 * sizeof(int));
  cudaMemcpy(d1, h1, n1 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d2, h2, n2 * sizeof(int), cudaMemcpyHostToDevice);
  producer_consumer<<<BLOCKS, 128>>>(d1, o1);
  groups<<<BLOCKS, 128>>>(d2, o2, 3, 4, 64);
  reductions<<<BLOCKS, 128>>>(d2, o3, 7);
  int r1[BLOCKS * 64], r2[BLOCKS * 128], r3[BLOCKS * 128 * 4];
  cudaMemcpy(r1, o1, sizeof r1, cudaMemcpyDeviceToHost);
  cudaMemcpy(r2, o2, sizeof r2, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(r3, o3, sizeof r3, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) { printf("CUDA error: %s\nFAIL\n", cudaGetErrorString(err)); return 1; }
  int bad = 0;
  long long sum = 0;
  for (int b = 0; b < BLOCKS; ++b) {
    for (int i = 0; i < 64; ++i) {
      int want = 0;
      for (int r = 0; r < ROUNDS; ++r) {
        const int *tile = h1 + (b * ROUNDS + r) * 64;
        want += tile[i] * (r + 1) + tile[63 - i] * (r + 1);
      }
      if (r1[b * 64 + i] != want) { if (bad++ < 5) printf("producer_consumer[%d][%d] = %d, want %d\n", b, i, r1[b * 64 + i], want); }
      sum += r1[b * 64 + i];
    }
    int c = 0, a = 1, o = 0, nl = 0;
    for (int i = 0; i < 128; ++i) {
      int v = h2[b * 128 + i];
      if (i >= 64) { c += v > 50; a &= v >= 0; }
      o |= v == 77; nl += v < 10;
    }
    for (int t = 0; t < 128; ++t) {
      int g = t / 64, src = g * 64 + 63 - t % 64;
      int want = h2[b * 128 + g * 64 + (src % 64 + 17) % 64] * 3 + g;
      if (r2[b * 128 + t] != want) { if (bad++ < 5) printf("groups[%d][%d] = %d, want %d\n", b, t, r2[b * 128 + t], want); }
      sum += r2[b * 128 + t];
      int *got = r3 + (b * 128 + t) * 4;
      int wc = t >= 64 ? c : -1, wa = t >= 64 ? a : -1;
      if (got[0] != wc || got[1] != wa || got[2] != o || got[3] != nl) {
        if (bad++ < 5) printf("reductions[%d][%d] = %d %d %d %d, want %d %d %d %d\n", b, t, got[0], got[1], got[2], got[3], wc, wa, o, nl);
      }
      sum += got[0] + 3 * got[1] + 5 * got[2] + 7 * got[3];
    }
  }
  printf("checksum: %lld\n%s\n", sum, bad ? "FAIL" : "PASS");
  return bad != 0;
}
