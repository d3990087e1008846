// Warp operations with masks that differ between lanes (__reduce_*_sync, __shfl_sync,
// __ballot_sync, __match_any_sync on lane groups, as cooperative_groups tiles and per-lane masks
// make them): nvcc splits the warp into groups of equal masks (WARPSYNC.EXCLUSIVE on sm_90).
// Only results that CUDA defines are checked: the bits of ballot/match inside the mask.
#include <cstdio>

__global__ void groups(const int *in, unsigned *out) {
  int t = threadIdx.x, v = in[blockIdx.x * 32 + t];
  unsigned m = (t & 1) ? 0xaaaaaaaau : 0x55555555u;      // even and odd lanes
  unsigned q = 0xffu << (t & ~7);                        // four groups of eight
  unsigned *o = out + (blockIdx.x * 32 + t) * 8;
  o[0] = __reduce_add_sync(m, v);
  o[1] = __reduce_max_sync(m, v);
  o[2] = __reduce_min_sync(q, v);
  o[3] = __shfl_sync(m, v, (t & 1) + 4);                 // lane 4 or 5: inside the lane's mask
  o[4] = __ballot_sync(m, v > 5) & m;
  o[5] = __match_any_sync(q, v & 3) & q;
  o[6] = __reduce_or_sync(q, 1u << (v & 31));
  o[7] = __shfl_xor_sync(q, v, 2);
}

int main() {
  const int blocks = 3, n = blocks * 32;
  int h[n];
  unsigned s = 777;
  for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; h[i] = (int)((s >> 20) % 13) - 2; }
  int *d; unsigned *o;
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, n * 8 * sizeof(unsigned));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  groups<<<blocks, 32>>>(d, o);
  static unsigned r[n * 8];
  cudaError_t err = cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) { printf("CUDA error: %s\nFAIL\n", cudaGetErrorString(err)); return 1; }
  int bad = 0;
  unsigned long long sum = 0;
  for (int b = 0; b < blocks; ++b) {
    const int *v = h + b * 32;
    for (int t = 0; t < 32; ++t) {
      unsigned m = (t & 1) ? 0xaaaaaaaau : 0x55555555u, q = 0xffu << (t & ~7);
      int add = 0, mx = -1000, mn = 1000; unsigned ballot = 0, match = 0, bits = 0;
      for (int i = 0; i < 32; ++i) {
        if (m >> i & 1) { add += v[i]; mx = v[i] > mx ? v[i] : mx; if (v[i] > 5) ballot |= 1u << i; }
        if (q >> i & 1) { mn = v[i] < mn ? v[i] : mn; if ((v[i] & 3) == (v[t] & 3)) match |= 1u << i; bits |= 1u << (v[i] & 31); }
      }
      unsigned want[8] = {(unsigned)add, (unsigned)mx, (unsigned)mn, (unsigned)v[(t & 1) + 4], ballot, match, bits, (unsigned)v[t ^ 2]};
      for (int k = 0; k < 8; ++k) {
        unsigned got = r[(b * 32 + t) * 8 + k];
        if (got != want[k] && bad++ < 8) printf("block %d lane %d result %d: %u, want %u\n", b, t, k, got, want[k]);
        sum = sum * 31 + got;
      }
    }
  }
  printf("checksum: %llu\n%s\n", sum % 1000000007ull, bad ? "FAIL" : "PASS");
  return bad != 0;
}
