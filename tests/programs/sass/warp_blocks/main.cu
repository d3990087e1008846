// Warp operations in blocks of 32, 96, 100 (a partial last warp) and 256 threads: the kernel of
// tests/lift/warp_blocks.cu, checked against a host model of PTX's warp operations. On a wave64
// target cass-cc puts two warps in each wave (docs/wave64.md); the checksum must be the H200's.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "../../../lift/warp_blocks.cu"

static int shfl(const std::vector<int> &w, int lane, char mode, int b, int width = 32) {
  int seg = (32 - width) & 31, clamp = mode == 'u' ? 0 : 31;
  int max_lane = (lane & seg) | (clamp & ~seg & 31), j;
  bool ok;
  if (mode == 'i') { j = (lane & seg) | (b & ~seg & 31); ok = j <= max_lane; }
  else if (mode == 'u') { j = lane - b; ok = j >= max_lane; }
  else if (mode == 'd') { j = lane + b; ok = j <= max_lane; }
  else { j = lane ^ b; ok = j <= max_lane; }
  return ok ? w[j] : w[lane];
}

static void model(const int *v, int block, std::vector<unsigned> &out) {
  int whole = (block + 31) & ~31, first = whole < 64 ? whole : 64, odd = 0;
  for (int t = 0; t < block; t++) odd += v[t] & 1;
  out.assign((size_t)block * WORDS, 0);
  for (int t = 0; t < block; t++) {
    int w = t / 32, lane = t % 32, n = block - 32 * w < 32 ? block - 32 * w : 32, x = v[t];
    std::vector<int> warp(32, 0);
    for (int k = 0; k < n; k++) warp[k] = v[32 * w + k];
    unsigned *r = &out[(size_t)t * WORDS], ballot = 0, match = 0;
    int any = 0, all = 1, sum = 0, mx = warp[0];
    for (int k = 0; k < n; k++) {
      ballot |= (unsigned)(warp[k] & 1) << k;
      match |= (unsigned)((warp[k] & 3) == (x & 3)) << k;
      any |= warp[k] > 90; all &= warp[k] > 2; sum += warp[k]; mx = warp[k] > mx ? warp[k] : mx;
    }
    r[0] = lane; r[1] = n == 32 ? 0xffffffffu : (1u << n) - 1; r[2] = ballot; r[3] = any + 2 * all;
    r[4] = match; r[5] = sum; r[6] = mx; r[7] = warp[(lane * 7 + 3) % n];
    r[8] = shfl(warp, lane, 'x', 1, 4); r[9] = odd;
    if (n == 32) {
      int tile = 0;
      for (int k = lane & ~15; k < (lane & ~15) + 16; k++) tile += warp[k];
      r[10] = shfl(warp, lane, 'u', 3); r[11] = shfl(warp, lane, 'd', 5); r[12] = shfl(warp, lane, 'd', 5, 8);
      r[13] = shfl(warp, lane, 'u', 1, 16); r[14] = shfl(warp, lane, 'x', 16); r[15] = shfl(warp, lane, 'i', 9, 16);
      r[16] = tile; r[17] = shfl(warp, lane, 'd', 2, 16);
    }
    r[18] = t < 64 ? (first - 1 - t < block ? v[first - 1 - t] : x) : v[64 + block - 1 - t];
    r[19] = w;
  }
}

int main() {
  const int sizes[] = {32, 96, 100, 256}, blocks = 2;
  unsigned long long checksum = 1469598103934665603ull;
  int bad = 0;
  unsigned seed = 12345;
  for (int block : sizes) {
    int n = blocks * block;
    std::vector<int> v(n);
    for (int &x : v) { seed = seed * 1664525u + 1013904223u; x = (int)((seed >> 8) % 100); }
    int *dv, *dout;
    cudaMalloc(&dv, n * sizeof(int));
    cudaMalloc(&dout, (size_t)n * WORDS * sizeof(int));
    cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, (size_t)n * WORDS * sizeof(int));
    warp_blocks<<<blocks, block>>>(dv, dout);
    std::vector<unsigned> got((size_t)n * WORDS), want;
    cudaError_t err = cudaMemcpy(got.data(), dout, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) { printf("block %d: %s\n", block, cudaGetErrorString(err)); return 1; }
    for (int b = 0; b < blocks; b++) {
      model(&v[b * block], block, want);
      for (int i = 0; i < block * WORDS; i++) {
        unsigned g = got[(size_t)b * block * WORDS + i];
        checksum = (checksum ^ g) * 1099511628211ull;
        if (g != want[i] && bad++ < 8)
          printf("block %d (of %d) thread %d word %d: got %u want %u\n", b, block, i / WORDS, i % WORDS, g, want[i]);
      }
    }
    printf("block %d: thread %d words 0-9: ", block, block - 1);
    for (int k = 0; k < 10; k++) printf("%u ", got[(size_t)(block - 1) * WORDS + k]);
    printf("\n");
    cudaFree(dv); cudaFree(dout);
  }
  printf("checksum: %llu\n", checksum);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
