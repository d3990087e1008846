// The device heap's size follows cudaDeviceSetLimit(cudaLimitMallocHeapSize), and
// cudaLaunchKernelEx with the cooperative attribute runs a grid-wide barrier.
#include <cstdio>
#include <cooperative_groups.h>

__global__ void sizes(unsigned long long *out) {
  char *fits = (char *)malloc(512 << 10), *over = (char *)malloc(2 << 20);
  out[0] = fits != nullptr;
  out[1] = over == nullptr;
  out[2] = (unsigned long long)fits % 16;    // CUDA's malloc aligns to 16 bytes
  free(fits);
}

__global__ void reversed(int *a, int *b, int n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) a[i] = i;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) b[i] = a[n - 1 - i];
}

int main() {
  int bad = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) != cudaSuccess;
  size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  unsigned long long *d, h[3];
  cudaMalloc(&d, sizeof h);
  sizes<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bad += limit != (1 << 20) || h[0] != 1 || h[1] != 1 || h[2] != 0;

  const int n = 200;
  int *a, *b, hb[n], nn = n;
  cudaMalloc(&a, sizeof hb);
  cudaMalloc(&b, sizeof hb);
  void *args[] = {&a, &b, &nn};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(3);
  config.blockDim = dim3(32);
  config.attrs = &attr;
  config.numAttrs = 1;
  bad += cudaLaunchKernelExC(&config, (const void *)reversed, args) != cudaSuccess;
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) bad += hb[i] != n - 1 - i;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
