#include <cuda_fp16.h>
#include <cstdio>
__device__ float dev_scale = 2.0f;
__device__ int dev_table[4] = {1, 2, 3, 4};
__constant__ float coeffs[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void float_math(const float *a, float *b, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = a[i];
    b[i] = sqrtf(x) * s + sinf(x) / (x + 1.0f) + expf(-x) + coeffs[i & 7] * dev_scale + (float)dev_table[i & 3];
  }
}

__global__ void double_math(const double *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = sqrt(a[i]) / (a[i] + 3.0) + fma(a[i], 2.0, -INFINITY > a[i] ? 1.0 : 0.5);
}

__global__ void half_math(const __half *a, __half *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = __hfma(a[i], a[i], __float2half(1.5f)) * __hadd(a[i], __float2half(-2.0f));
}

__global__ void atomics(int *counter, unsigned *mx, float *fsum, double *dsum, const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int local;
  if (threadIdx.x == 0) local = 0;
  __syncthreads();
  if (i < n) {
    atomicAdd(counter, v[i]);
    atomicMax(mx, (unsigned)v[i]);
    atomicAdd(fsum, (float)v[i]);
    atomicAdd(dsum, (double)v[i]);
    atomicAdd(&local, 1);
    atomicCAS(counter + 1, 0, i);
    atomicExch(counter + 2, i);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(counter + 3, local);
}

__global__ void shuffles(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  int w = __shfl_xor_sync(0xffffffff, v, 3) + __shfl_up_sync(0xffffffff, v, 2) + __shfl_sync(0xffffffff, v, 5);
  unsigned b = __ballot_sync(0xffffffff, w > 0);
  out[threadIdx.x] = w + __popc(b) + __all_sync(0xffffffff, v > 2) + __any_sync(0xffffffff, v < 0);
}

__global__ void printer(int x, double d) {
  printf("thread %d x=%d d=%f\n", threadIdx.x, x, d);
}

__global__ void switcher(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r;
  switch (in[i]) {
    case 0: r = 7; break;
    case 1: r = in[i + 1] * 3; break;
    case 2: r = i ^ 0x55; break;
    case 3: r = -i; break;
    case 4: r = i * i; break;
    case 5: r = in[0]; break;
    case 6: r = 99; break;
    case 7: r = i >> 2; break;
    default: r = 1;
  }
  out[i] = r;
}

__global__ void local_array(const int *idx, int *out) {
  int arr[32];
  for (int k = 0; k < 32; ++k) arr[k] = k * threadIdx.x;
  arr[idx[threadIdx.x] & 31] += 5;
  out[threadIdx.x] = arr[(idx[threadIdx.x] + 1) & 31];
}

__global__ void division(const int *a, const int *b, int *q, unsigned *uq, long long *lq) {
  int i = threadIdx.x;
  q[i] = a[i] / b[i] + a[i] % b[i];
  uq[i] = (unsigned)a[i] / (unsigned)b[i];
  lq[i] = (long long)a[i] * 1000000007LL / (long long)(b[i] | 1);
}

extern __shared__ float dyn[];
__global__ void __launch_bounds__(256) dynamic_shared(const float *in, float *out) {
  __shared__ float stat[64];
  dyn[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 64) stat[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x] + stat[threadIdx.x & 63];
}

struct Big { int a[5]; double d; char c; };
__global__ void by_value(Big s, char c, short h, long long l, float *out) {
  out[0] = s.a[0] + s.a[4] + s.d + s.c + c + h + l;
}
