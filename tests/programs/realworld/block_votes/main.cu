#include <cstdio>
__global__ void k(const int *in, int *o) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int c = __syncthreads_count(v > 5);
  int a = __syncthreads_and(v >= 0);
  int r = __syncthreads_or(v == 7);
  if (threadIdx.x == 0) { o[blockIdx.x * 3] = c; o[blockIdx.x * 3 + 1] = a; o[blockIdx.x * 3 + 2] = r; }
}
int main() { const int n = 128; int h[n], r[6]; for (int i = 0; i < n; ++i) h[i] = (i * 5) % 11 - (i == 100);
  int *d, *o; cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof r); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<2, 64>>>(d, o); cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0; for (int b = 0; b < 2; ++b) { int c = 0, a = 1, orr = 0; for (int i = 0; i < 64; ++i) { int v = h[b*64+i]; c += v > 5; a &= v >= 0; orr |= v == 7; }
    if (r[b*3] != c || (r[b*3+1] != 0) != (a != 0) || (r[b*3+2] != 0) != (orr != 0)) bad++; }
  printf("checksum: %d\n%s\n", r[0] + r[3], bad ? "FAIL" : "PASS"); return bad != 0; }
