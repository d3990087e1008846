#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void vectors(const float4 *in, float4 *out, const double2 *d, double2 *e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = in[i];
    out[i] = make_float4(v.w, v.z, v.y, v.x);
    double2 w = d[i];
    e[i] = make_double2(w.y, w.x);
  }
}

__global__ void async_copy(const int *in, int *out) {
  __shared__ int buf[128];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x];
}

__global__ void warp_ops(const unsigned *in, unsigned *out) {
  unsigned v = in[threadIdx.x];
  unsigned s = __reduce_add_sync(0xffffffff, v);
  unsigned m = __reduce_max_sync(0xffffffff, v);
  unsigned any = __match_any_sync(0xffffffff, v & 3);
  int pred;
  unsigned all = __match_all_sync(0xffffffff, v, &pred);
  __syncwarp();
  out[threadIdx.x] = s + m + any + all + pred + __activemask() + __brev(v) + __clz(v) + __ffs(v);
}

__global__ void bf16_math(const __nv_bfloat16 *a, __nv_bfloat16 *b, __nv_bfloat162 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    b[i] = __hmul(a[i], a[i]) + __float2bfloat16(0.25f);
    c[i] = __hmax2(c[i], __halves2bfloat162(a[i], b[i]));
  }
}

__global__ void misc(long long *t, unsigned long long *x, int *flag, float *f) {
  long long start = clock64();
  __nanosleep(100);
  __threadfence();
  x[threadIdx.x] = x[threadIdx.x] * 0x9E3779B97F4A7C15ull + (x[threadIdx.x] >> 7) + __umul64hi(x[0], x[1]);
  f[threadIdx.x] = fminf(f[threadIdx.x], 1.0f) + truncf(f[threadIdx.x] * 3.7f) + rintf(f[0]) + (float)(x[0] % 1000);
  if (threadIdx.x == 0) atomicOr(flag, 1);
  __threadfence_system();
  t[threadIdx.x] = clock64() - start + __funnelshift_l(flag[1], flag[2], 5) + __byte_perm(flag[1], flag[2], 0x5140);
}

__global__ void grid_sync_sum(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  acc = __syncthreads_count(acc > 0) + __syncthreads_or(acc & 1) + __syncthreads_and(acc > 2);
  block.sync();
  atomicAdd(out, acc);
}

template <typename T> __global__ void templ(T *p, T v) { p[threadIdx.x] = p[threadIdx.x] * v + (T)threadIdx.y; }
template __global__ void templ<short>(short *, short);
template __global__ void templ<unsigned char>(unsigned char *, unsigned char);
template __global__ void templ<long long>(long long *, long long);
