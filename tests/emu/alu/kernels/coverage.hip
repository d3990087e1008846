// Kernels that make hipcc emit a wide spread of gfx1100 ALU instructions (integer division,
// bit tricks, 64-bit math, float/double/half math library calls, shuffles, atomics, printf);
// test_alu_compiled_coverage.py checks every ALU mnemonic in their disassembly is in the tables.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <cstdio>
#include <cstdint>
__global__ void kint(int* a, unsigned* b, long long* c, unsigned long long* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i]; unsigned y = b[i];
  a[i] = x / (y|1) + x % 7 + (x >> (y & 31)) + __popc(y) + __clz(x) + __ffs(y) + __brev(y) + min(x, (int)y) + abs(x);
  b[i] = y / 13u + y % (x|1) + __umulhi(y, 77u) + __mul24(x, 3) + __byte_perm(y, x, 0x5140) + __funnelshift_l(y, x, 5);
  c[i] = c[i] / (long long)(x|1) + c[i] * (long long)x + (c[i] >> 7) + __popcll(d[i]) + __clzll(c[i]);
  d[i] = d[i] % (unsigned long long)(y|1) + (d[i] << (y&63)) + __brevll(d[i]);
}
__global__ void kfloat(float* f, double* g, __half* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  f[i] = x / (x + 1.0f) + sqrtf(x) + sinf(x) + cosf(x) + expf(x) + logf(x) + powf(x, 2.5f) + tanhf(x) + fmodf(x, 3.0f)
        + rsqrtf(x) + floorf(x) + ceilf(x) + truncf(x) + roundf(x) + fmaxf(x, 1.0f) + (float)(int)x + (float)(unsigned)x + erff(x) + atan2f(x, 2.0f) + __expf(x) + __logf(x) + __fdividef(x, 3.0f) + ldexpf(x, 3) + cbrtf(x);
  double y = g[i];
  g[i] = y / (y + 1.0) + sqrt(y) + sin(y) + exp(y) + log(y) + pow(y, 1.5) + floor(y) + fma(y, y, 1.0) + (double)(int)y + (double)x + fmax(y, 2.0) + rint(y) + cbrt(y) + atan(y);
  __half z = h[i];
  h[i] = __hadd(z, __hmul(z, z)) + hsqrt(z) + hexp(z) + __float2half(x) + (z / z);
  __half2 p = __halves2half2(z, z);
  p = __hfma2(p, p, p);
  h[i] = __hadd(h[i], __low2half(p));
}
__global__ void kwarp(int* a, float* f, unsigned long long* m) {
  __shared__ float s[256];
  int i = threadIdx.x;
  s[i] = f[i];
  __syncthreads();
  float v = s[255 - i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
  m[i] = __ballot(v > 0.0f);
  atomicAdd(a, (int)v); atomicMax(a + 1, i); atomicAdd(f, v); atomicCAS(a + 2, 0, i); atomicExch(a+3, i);
  atomicAdd((unsigned long long*)m, 1ull); atomicMin((unsigned*)a + 4, (unsigned)i);
  if (i == 0) printf("hello %d %f\n", a[0], v);
  f[i] = v;
}
