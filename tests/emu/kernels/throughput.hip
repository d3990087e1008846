// Kernels for the emulator throughput benchmark (benchmarks/test_emu_throughput.py).
#include <hip/hip_runtime.h>

// compute-bound: a dependent FMA chain per thread
extern "C" __global__ void fma_loop(float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = i * 0.001f, b = 1.0001f, c = 0.5f;
  for (int k = 0; k < iters; ++k) { a = a * b + c; c = c * b - a * 0.0001f; }
  out[i] = a + c;
}

// memory-bound: a grid-stride scaled copy, `reps` elements per thread
extern "C" __global__ void copy(const float* in, float* out, int n, int reps) {
  int stride = gridDim.x * blockDim.x;
  for (int r = 0, i = blockIdx.x * blockDim.x + threadIdx.x; r < reps && i < n; ++r, i += stride)
    out[i] = in[i] * 2.0f;
}
