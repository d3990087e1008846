#include <cstdio>
__global__ void k(int *o) { int *p = (int *)malloc(4 * sizeof(int)); for (int i = 0; i < 4; ++i) p[i] = threadIdx.x + i; o[threadIdx.x] = p[0] + p[3]; free(p); }
int main() { int *d, h[32]; cudaMalloc(&d, sizeof h); k<<<1,32>>>(d); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0; for (int i = 0; i < 32; ++i) if (h[i] != 2 * i + 3) bad++;
  printf("checksum: %d\n%s\n", h[31], bad ? "FAIL" : "PASS"); return bad != 0; }
