// Kernels for the lifter's semantic checks on the emulator (tests/lift/test_emulated.py).
// Each writes one 32-bit word per thread (or per element) so the host can recompute it.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void intdiv(const int* a, const int* b, int* q, int* r, unsigned* uq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  uq[i] = (unsigned)a[i] / (unsigned)b[i];
}
extern "C" __global__ void fpdiv(const float* a, const float* b, float* q, float* s, double* dq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = a[i] / b[i];
  s[i] = sqrtf(fabsf(a[i]));
  dq[i] = (double)a[i] / (double)b[i];
}
extern "C" __global__ void bits(const unsigned* a, const unsigned* b, unsigned* o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i];
  o[8 * i + 0] = __byte_perm(x, y, y & 0x7777);
  o[8 * i + 1] = __funnelshift_l(x, y, y & 63);
  o[8 * i + 2] = __funnelshift_r(x, y, x & 63);
  o[8 * i + 3] = __popc(x) + __clz(y) + (__brev(x) ^ y);
  o[8 * i + 4] = (x & y) ^ (~x | (y >> 3));
  o[8 * i + 5] = __umulhi(x, y) + (unsigned)((long long)(int)x * (int)y >> 40);
  unsigned long long w = ((unsigned long long)x << 32 | y) + ((unsigned long long)y * 12345u);
  o[8 * i + 6] = (unsigned)(w >> 17) ^ (unsigned)(w % 1000003u);
  o[8 * i + 7] = (int)x < (int)y ? __ffs(x) : __sad(x, y, 7u);
}
extern "C" __global__ void warp(const int* a, int* o) {
  int t = threadIdx.x;
  int v = a[blockIdx.x * blockDim.x + t];
  int base = 8 * (blockIdx.x * blockDim.x + t);
  o[base + 0] = __shfl_down_sync(0xffffffff, v, 3);
  o[base + 1] = __shfl_up_sync(0xffffffff, v, 5, 16);
  o[base + 2] = __shfl_xor_sync(0xffffffff, v, 6);
  o[base + 3] = __shfl_sync(0xffffffff, v, (t * 7) & 31);
  o[base + 4] = __ballot_sync(0xffffffff, v & 1);
  o[base + 5] = __any_sync(0xffffffff, v > 90) + 2 * __all_sync(0xffffffff, v >= 0);
  unsigned m = 0;
  if (v & 2) m = __ballot_sync(__activemask(), v & 4);  // a vote under divergence
  o[base + 6] = m;
  o[base + 7] = __reduce_add_sync(0xffffffff, v) + __match_any_sync(0xffffffff, v & 3);
}
extern "C" __global__ void atomics(int* counters, unsigned* u, float* f, const int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  atomicAdd(&counters[0], v);
  atomicMax(&counters[1], v);
  atomicMin(&counters[2], v);
  atomicOr(&counters[3], 1 << (v & 31));
  atomicXor(&counters[4], v);
  atomicInc(&u[0], 17u);
  atomicDec(&u[1], 5u);
  atomicAdd(&f[0], 0.5f);
  atomicCAS(&counters[5], 0, 7);
  __shared__ int s[2];
  if (threadIdx.x == 0) { s[0] = 0; s[1] = 1 << 30; }
  __syncthreads();
  atomicAdd(&s[0], 1);
  atomicMin(&s[1], v);
  __syncthreads();
  if (threadIdx.x == 0) { atomicAdd(&counters[6], s[0]); atomicMin(&counters[7], s[1]); }
}
extern "C" __global__ void rounding(const float* a, const float* b, const float* c, const double* d,
                                    const long long* l, float* of, double* od) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], y = b[i], z = c[i];
  double p = d[3 * i], q = d[3 * i + 1], r = d[3 * i + 2];
  of[8 * i + 0] = __fmaf_rz(x, y, z);
  of[8 * i + 1] = __fmaf_rd(x, y, z);
  of[8 * i + 2] = __fmaf_ru(x, y, z);
  of[8 * i + 3] = __fadd_rz(x, z);
  of[8 * i + 4] = __fmul_rd(x, y);
  of[8 * i + 5] = __ll2float_ru(l[i]);
  of[8 * i + 6] = __double2float_rz(p);
  of[8 * i + 7] = __int2float_rd((int)l[i]);
  od[4 * i + 0] = __dadd_rz(p, q);
  od[4 * i + 1] = __dmul_ru(p, q);
  od[4 * i + 2] = __fma_rd(p, q, r);
  od[4 * i + 3] = __fma_rz(p, q, r);
}
extern "C" __global__ void barred(const int* in, int* out) {
  __shared__ int staged[64];                    // shared memory behind the reduction word
  int t = threadIdx.x, v = in[blockIdx.x * 64 + t];
  staged[t] = v;
  int r = __syncthreads_count(v & 1) + 100 * __syncthreads_and(v > 3) + 1000 * __syncthreads_or(v > 950);
  r += 10000 * __syncthreads_count(v > 500);    // a second round reuses the word
  out[blockIdx.x * 64 + t] = r + 1000000 * staged[63 - t];
}
extern "C" __global__ void nanminmax(const float* a, const float* b, const __half2* h, float* o, __half2* ho) {
  int i = threadIdx.x;
  float hi, lo;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(hi) : "f"(a[i]), "f"(b[i]));
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(lo) : "f"(a[i]), "f"(b[i]));
  o[2 * i] = hi;
  o[2 * i + 1] = lo;
  ho[2 * i] = __hmax2_nan(h[2 * i], h[2 * i + 1]);
  ho[2 * i + 1] = __hmin2_nan(h[2 * i], h[2 * i + 1]);
}
extern "C" __global__ void tanh_approx(const float* a, float* o) {
  int i = threadIdx.x;
  asm("tanh.approx.f32 %0, %1;" : "=f"(o[i]) : "f"(a[i]));   // MUFU.TANH (--use_fast_math tanhf)
}
extern "C" __global__ void half_rounding(const float* a, const int* k, __half* o) {
  int i = threadIdx.x;
  o[6 * i] = __float2half_rz(a[i]);
  o[6 * i + 1] = __float2half_rd(a[i]);
  o[6 * i + 2] = __float2half_ru(a[i]);
  o[6 * i + 3] = __int2half_rz(k[i]);
  o[6 * i + 4] = __int2half_rd(k[i]);
  o[6 * i + 5] = __int2half_ru(k[i]);
}
extern "C" __global__ void group_reduce(const int* in, const int* masks, int* out) {
  int t = threadIdx.x, lane = t & 31, v = in[t];
  unsigned m16 = lane < 16 ? 0xffffu : 0xffff0000u;    // masks that differ between lanes, as
  unsigned m8 = 0xffu << (lane & ~7);                  // cooperative_groups tiles have
  out[3 * t] = __reduce_add_sync(m16, v);
  out[3 * t + 1] = __reduce_min_sync(m8, v);
  out[3 * t + 2] = __reduce_max_sync(masks[t], v);     // a mask from memory
}
extern "C" __global__ void bf16_minmax(const __nv_bfloat162* a, const __nv_bfloat162* b, __nv_bfloat162* o, int* p) {
  int i = threadIdx.x;
  o[2 * i] = __hmax2_nan(a[i], b[i]);
  o[2 * i + 1] = __hmin2(a[i], b[i]);
  p[i] = __hbgt2(a[i], b[i]) + 2 * __hble2(a[i], b[i]) + 4 * __hbeq2(a[i], a[i]);
}
