// Program-level test kernels for the emulator, compiled once per test session by hipcc for gfx1100.
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Tree reduction in shared memory with __syncthreads, one partial sum per block.
extern "C" __global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

// Warp (wave32) reduction with shuffles, then one atomicAdd per wave.
extern "C" __global__ void warp_sum(const float* in, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down(v, off, 32);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

// Ballot and prefix count within a wave.
extern "C" __global__ void ballot_rank(const int* flags, int* rank, unsigned long long* masks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  unsigned long long m = __ballot(flags[i] != 0);
  rank[i] = __popcll(m & ((1ull << lane) - 1));
  if (lane == 0) masks[i / 32] = m;
}

#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// 5-point stencil in double precision on a 2D grid.
extern "C" __global__ void stencil(const double* in, double* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  out[i] = 0.5 * in[i] + 0.125 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

// Every thread of a 3D grid of 3D blocks writes its global linear id.
extern "C" __global__ void grid3d(int* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
}

// Histogram with global atomics (many lanes hit the same address).
extern "C" __global__ void histogram(const int* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & 15], 1u);
}

// LDS atomics and dynamic shared memory.
extern "C" __global__ void lds_histogram(const int* in, unsigned* bins, int n) {
  extern __shared__ unsigned sbins[];
  int t = threadIdx.x;
  if (t < 16) sbins[t] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) atomicAdd(&sbins[in[i] & 15], 1u);
  __syncthreads();
  if (t < 16) atomicAdd(&bins[t], sbins[t]);
}

// A big private array indexed dynamically (scratch) and a function that is not inlined.
__device__ __attribute__((noinline)) int collatz_steps(long long v) {
  int steps = 0;
  while (v != 1 && steps < 1000) { v = (v & 1) ? 3 * v + 1 : v / 2; ++steps; }
  return steps;
}

extern "C" __global__ void private_array(const int* idx, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  volatile int a[64];
  for (int k = 0; k < 64; ++k) a[k] = k * k + t;
  out[t] = a[idx[t] & 63] + collatz_steps(t + 1);
}

// Math functions (accuracy checked on the host within an ulp budget).
extern "C" __global__ void math_funcs(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[5 * i + 0] = sqrtf(v);
  out[5 * i + 1] = expf(v * 0.1f);
  out[5 * i + 2] = logf(v);
  out[5 * i + 3] = sinf(v);
  out[5 * i + 4] = 1.0f / v;
}

extern "C" __global__ void hello(int n) {
  int t = threadIdx.x;
  if (t < n) printf("thread %d of %d: %s %.2f %x\n", t, n, "hi", 0.25 * t, 255 + t);
}

__device__ int counter = 5;
__device__ int* counter_ptr = &counter;

extern "C" __global__ void global_vars(int* out) {
  atomicAdd(counter_ptr, 1);
  out[threadIdx.x] = counter;
}

template <typename T>
__global__ void scale(T* data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
template __global__ void scale<double>(double*, double, int);
template __global__ void scale<short>(short*, short, int);

// printf with more than seven arguments, a string longer than one 56-byte packet, and %s of null.
extern "C" __global__ void long_printf(const char* name) {
  int t = threadIdx.x;
  if (t % 32 == 1)
    printf("%s|%-5d|%5.1f|%lu|%c|%08x|%lld|%u|%e|%s|%%|%s\n",
           "a string that is longer than fifty-six bytes, so it spans two packets", t, 2.5 * t,
           (unsigned long)t * 1000000000000ul, 'A' + t, t * 0x1001, -5ll * t, 4000000000u, 1e-3 * t,
           name, t > 40 ? (const char*)0 : "ok");
}

// A contended compare-and-swap loop: every thread adds to one counter through atomicCAS.
extern "C" __global__ void cas_sum(int* total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int old = *total, assumed;
  do { assumed = old; old = atomicCAS(total, assumed, assumed + t % 7); } while (old != assumed);
}
