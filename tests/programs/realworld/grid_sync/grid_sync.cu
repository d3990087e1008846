// Grid-wide barriers: cudaLaunchCooperativeKernel with cooperative_groups::this_grid().sync()
// in a loop whose blocks have unequal work, and the error for a grid larger than the device
// holds at once.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void twoPhase(int *data, int *out, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = i * 2;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = data[n - 1 - i] + 1;
}

// Each step every element becomes the sum of itself and its right neighbour (from the previous
// step, hence the barrier); block b also spins through b * 40 extra iterations first.
__global__ void steps(int *a, int *b, int n, int rounds, int *work) {
  cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    int extra = 0;
    for (int k = 0; k < (int)blockIdx.x * 40; ++k) extra += k & 1;
    if (threadIdx.x == 0) atomicAdd(work, extra);
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      b[i] = a[i] + a[(i + 1) % n];
    grid.sync();
    int *t = a; a = b; b = t;
  }
}

int main() {
  const int n = 300, rounds = 5, blocks = 4, threads = 64;
  int *d, *o, *w, h[n], ref[n], tmp[n], h_work = 0;
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof h); cudaMalloc(&w, sizeof(int));
  int supports = 0; cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0);
  int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, twoPhase, threads, 0);
  int nn = n;
  void *args[] = {&d, &o, &nn};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)twoPhase, dim3(2), dim3(threads), args, 0, 0);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess || !supports || nb < 1;
  if (bad) printf("launch: %s supports %d nb %d\n", cudaGetErrorString(e), supports, nb);
  for (int i = 0; i < n; ++i) if (h[i] != (n - 1 - i) * 2 + 1) bad++;
  long long checksum = h[0];

  for (int i = 0; i < n; ++i) ref[i] = i % 13;
  cudaMemcpy(d, ref, sizeof ref, cudaMemcpyHostToDevice);
  cudaMemset(w, 0, sizeof(int));
  int r = rounds;
  void *sargs[] = {&d, &o, &nn, &r, &w};
  e = cudaLaunchCooperativeKernel((void *)steps, dim3(blocks), dim3(threads), sargs, 0, 0);
  if (e != cudaSuccess) { printf("steps: %s\n", cudaGetErrorString(e)); bad++; }
  cudaMemcpy(h, rounds % 2 ? o : d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&h_work, w, sizeof h_work, cudaMemcpyDeviceToHost);
  for (int s = 0; s < rounds; ++s) {
    for (int i = 0; i < n; ++i) tmp[i] = ref[i] + ref[(i + 1) % n];
    for (int i = 0; i < n; ++i) ref[i] = tmp[i];
  }
  for (int i = 0; i < n; ++i) { if (h[i] != ref[i]) bad++; checksum += h[i]; }
  if (h_work != rounds * (0 + 20 + 40 + 60)) bad++;

  e = cudaLaunchCooperativeKernel((void *)twoPhase, dim3(nb * sms + 1), dim3(threads), args, 0, 0);
  if (e != cudaErrorCooperativeLaunchTooLarge) { printf("too large: %s\n", cudaGetErrorString(e)); bad++; }
  cudaGetLastError();
  printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
  return bad != 0;
}
