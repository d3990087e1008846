// malloc/free and new/delete in device code: per-thread buffers that live across kernels, reuse
// of freed blocks (more bytes pass through malloc than the default 8 MB heap holds), and NULL
// for a request larger than the heap.
#include <cstdio>

struct Pair { int a, b; };

__global__ void fill(int **ptrs, int *sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = t % 7 + 1;
  int *p = (int *)malloc(n * sizeof(int));
  int s = 0;
  for (int i = 0; i < n; ++i) { p[i] = t * 10 + i; s += p[i]; }
  ptrs[t] = p;          // freed by the next kernel: the heap outlives a launch
  sums[t] = s;
}

__global__ void check_and_free(int **ptrs, int *sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = ptrs[t];
  int s = 0;
  for (int i = 0; i < t % 7 + 1; ++i) s += p[i];
  sums[t] -= s;         // 0 when the memory kept its contents
  free(p);
}

__global__ void churn(int *out, int rounds) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {   // rounds x threads x 32000 bytes: more than the heap holds
    char *p = (char *)malloc(32000);
    if (!p) { acc = -1000000; break; }
    p[0] = (char)(t + r); p[31999] = (char)r;
    acc += p[0] + p[31999];
    free(p);
  }
  Pair *q = new Pair[3];
  for (int i = 0; i < 3; ++i) q[i] = Pair{t, i};
  acc += q[2].a + q[2].b;
  delete[] q;
  out[t] = acc;
}

__global__ void too_big(int *out) { out[0] = malloc((size_t)64 << 20) == nullptr; }

int main() {
  const int blocks = 4, threads = 64, n = blocks * threads, rounds = 8, churners = 64;
  int **ptrs, *sums, *out, h_sums[n], h_out[n], h_big = 0;
  cudaMalloc(&ptrs, n * sizeof(int *));
  cudaMalloc(&sums, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  fill<<<blocks, threads>>>(ptrs, sums);
  check_and_free<<<blocks, threads>>>(ptrs, sums);
  churn<<<churners / 32, 32>>>(out, rounds);
  cudaMemcpy(h_sums, sums, sizeof h_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  too_big<<<1, 1>>>(out);
  cudaMemcpy(&h_big, out, sizeof h_big, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = e != cudaSuccess || h_big != 1;
  long long checksum = 0;
  for (int t = 0; t < n; ++t) {
    int want = 0;
    for (int r = 0; r < rounds; ++r) want += (signed char)(t + r) + r;
    want += t + 2;
    if (h_sums[t] != 0 || (t < churners && h_out[t] != want)) bad++;
    checksum += t < churners ? h_out[t] : 0;
  }
  printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
  return bad != 0;
}
