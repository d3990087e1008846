// cudaLaunchKernelEx with the launch attributes libraries pass: programmatic stream serialization
// (PDL, as Thrust's and CUB's launches on sm_90 ask for) on a kernel that consumes the previous
// kernel's output in the same stream, an Ignore entry, the cooperative attribute, and an attribute
// the runtime cannot honour (a cluster shape on a plain kernel is still a valid CUDA launch, so this
// program only uses attributes whose meaning every implementation must keep).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i * 3 + 1;
}

// Reads what produce wrote: with PDL the grid may start early, and waits for the previous grid
// where the GPU has that (sm_90); the sum is only right if it saw every element.
__global__ void consume(const int *a, int *b, int n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + a[n - 1 - i];
}

int main() {
  const int n = 1000, threads = 128;
  int *a, *b, h[n];
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  int bad = 0;
  long long checksum = 0;
  for (int round = 0; round < 3; ++round) {
    cudaMemset(a, 0, n * sizeof(int));
    cudaLaunchAttribute attrs[2];
    attrs[0].id = cudaLaunchAttributeIgnore;
    attrs[1].id = round == 2 ? cudaLaunchAttributeCooperative : cudaLaunchAttributeProgrammaticStreamSerialization;
    if (round == 2) attrs[1].val.cooperative = 1;
    else attrs[1].val.programmaticStreamSerializationAllowed = round;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + threads - 1) / threads);
    cfg.blockDim = dim3(threads);
    cfg.stream = 0;
    cfg.attrs = attrs;
    cfg.numAttrs = 2;
    cudaError_t e1 = cudaLaunchKernelEx(&cfg, produce, a, n);
    cudaError_t e2 = cudaLaunchKernelEx(&cfg, consume, (const int *)a, b, n);
    cudaError_t e3 = cudaDeviceSynchronize();
    if (e1 != cudaSuccess || e2 != cudaSuccess || e3 != cudaSuccess) {
      printf("round %d: %s / %s / %s\n", round, cudaGetErrorString(e1), cudaGetErrorString(e2),
             cudaGetErrorString(e3));
      bad++;
    }
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      int want = (i * 3 + 1) + ((n - 1 - i) * 3 + 1);
      if (h[i] != want) bad++;
      checksum += (long long)h[i] * (i % 7 + 1) * (round + 1);
    }
  }
  printf("checksum: %lld\n", checksum);
  printf(bad ? "FAIL\n" : "PASS\n");
  cudaFree(a);
  cudaFree(b);
  return bad ? 1 : 0;
}
