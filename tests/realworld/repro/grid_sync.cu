#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void twoPhase(int *data, int *out, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = i * 2;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = data[n - 1 - i] + 1;
}
int main() {
  const int n = 300; int *d, *o, h[n];
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof h);
  int supports = 0; cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0);
  int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, twoPhase, 64, 0);
  void *args[] = {&d, &o, (void *)&n};
  int nn = n; args[2] = &nn;
  cudaError_t e = cudaLaunchCooperativeKernel((void *)twoPhase, dim3(2), dim3(64), args, 0, 0);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess || !supports || nb < 1; if (bad) printf("launch: %s supports %d nb %d\n", cudaGetErrorString(e), supports, nb);
  for (int i = 0; i < n; ++i) if (h[i] != (n - 1 - i) * 2 + 1) bad++;
  printf("checksum: %d\n%s\n", h[0], bad ? "FAIL" : "PASS"); return bad != 0; }
