"""Translated CUDA compiles with the real hipcc for gfx1100: one translation unit per area,
each using many names of its families, so a wrong table entry or compat function fails here."""

from __future__ import annotations

import re

import pytest

from cass_cc.hipify import tables
from cass_cc.hipify.lexer import IDENT, tokenize

HOST_RUNTIME = r"""
#include <cuda_runtime.h>
#include <cstdio>
#define CHECK(call) do { cudaError_t err = (call); if (err != cudaSuccess) { \
    std::printf("%s: %s\n", #call, cudaGetErrorString(err)); return 1; } } while (0)
__constant__ float coeff[4];
__device__ int counter;
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= coeff[i % 4];
}
static void CUDART_CB on_done(cudaStream_t, cudaError_t, void *) {}
int main() {
  int count = 0, sms = 0;
  CHECK(cudaGetDeviceCount(&count));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float *d = nullptr, *h = nullptr, *m = nullptr;
  size_t pitch = 0;
  CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
  CHECK(cudaMallocHost(&h, 1024 * sizeof(float)));
  CHECK(cudaMallocManaged(&m, 64));
  float *d2 = nullptr;
  CHECK(cudaMallocPitch(&d2, &pitch, 64 * sizeof(float), 8));
  CHECK(cudaMemcpy2D(d2, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 8, cudaMemcpyHostToDevice));
  float c[4] = {1, 2, 3, 4};
  CHECK(cudaMemcpyToSymbol(coeff, c, sizeof c));
  int zero = 0;
  CHECK(cudaMemcpyToSymbolAsync(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
  CHECK(cudaEventRecord(start, s));
  CHECK(cudaMemcpyAsync(d, h, 1024 * sizeof(float), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemsetAsync(d, 0, 16, s));
  scale<<<dim3(4), dim3(256), 0, s>>>(d, 1024);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamAddCallback(s, on_done, nullptr, 0));
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale<<<4, 256, 0, s>>>(d, 1024);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0));
  void *args[] = {&d, &count};
  CHECK(cudaLaunchKernel(scale, dim3(1), dim3(32), args, 0, s));
  cudaEvent_t timing;
  CHECK(cudaEventCreate(&timing, cudaEventDisableTiming));
  cudaFuncAttributes fattr;
  CHECK(cudaFuncGetAttributes(&fattr, scale));
  CHECK(cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, d));
  int can = 0;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
  CHECK(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferShared));
  int min_grid = 0, block_size = 0, version = 0, dev = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, scale, 0, 0));
  size_t free_mem = 0, total_mem = 0, limit = 0;
  CHECK(cudaMemGetInfo(&free_mem, &total_mem));
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDriverGetVersion(&version));
  CHECK(cudaRuntimeGetVersion(&version));
  CHECK(cudaPeekAtLastError());
  CHECK(cudaStreamQuery(s));
  CHECK(cudaEventQuery(stop));
  float *mapped = nullptr;
  CHECK(cudaHostGetDevicePointer(&mapped, h, 0));
  CHECK(cudaHostRegister(c, sizeof c, cudaHostRegisterDefault));
  CHECK(cudaHostUnregister(c));
  CHECK(cudaMemset2D(d2, pitch, 0, 64 * sizeof(float), 8));
  CHECK(cudaMemPrefetchAsync(m, 64, 0, s));
  CHECK(cudaMemAdvise(m, 64, cudaMemAdviseSetReadMostly, 0));
  void *sym = nullptr;
  CHECK(cudaGetSymbolAddress(&sym, counter));
  CHECK(cudaMemcpyFromSymbol(&zero, counter, sizeof zero));
  CHECK(cudaMemcpyPeer(d, 0, d2, 0, 16));
  cudaPitchedPtr pitched;
  cudaExtent extent = make_cudaExtent(64, 4, 4);
  CHECK(cudaMalloc3D(&pitched, extent));
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = pitched;
  copy.dstPtr = pitched;
  copy.extent = extent;
  copy.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3D(&copy));
  CHECK(cudaMemcpy3DAsync(&copy, s));
  CHECK(cudaStreamWaitEvent(s, stop));
  CHECK(cudaLaunchCooperativeKernel(scale, dim3(1), dim3(32), args));
  CHECK(cudaLaunchCooperativeKernel((void *)scale, 1, 32, args, 0, s));
  CHECK(cudaFree(pitched.ptr));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d2));
  CHECK(cudaFree(m));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  return 0;
}
"""

DEVICE = r"""
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void warps(const int *in, unsigned *out, float *f, double *d) {
  int lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  int up = __shfl_up_sync(0xffffffff, v, 1);
  float x = __shfl_xor_sync(0xffffffff, f[threadIdx.x], 1, 32);
  double y = __shfl_sync(0xffffffff, d[threadIdx.x], 0);
  unsigned ballot = __ballot_sync(0xffffffff, v > 0);
  unsigned active = __activemask();
  int any = __any_sync(active, lane == 3), all = __all_sync(active, v >= 0);
  __syncwarp();
  unsigned same = __match_any_sync(0xffffffff, v & 3);
  int pred = 0;
  unsigned all_same = __match_all_sync(0xffffffff, lane / 32, &pred);
  unsigned sum = __reduce_add_sync(0xffffffff, (unsigned)lane);
  int mx = __reduce_max_sync(0xffffffff, v);
  unsigned ored = __reduce_or_sync(0xffffffff, ballot);
  out[threadIdx.x] = ballot + active + any + all + same + all_same + pred + sum + mx + ored + up
                     + __popc(ballot) + __ffs(ballot) + __clz(ballot) + (unsigned)(x + y);
}

__global__ void halves(const __half *a, const __half *b, __half *c, __nv_bfloat16 *bf, float *o) {
  int i = threadIdx.x;
  __half h = __hadd(a[i], __hmul(b[i], __float2half(2.0f)));
  __half2 p = __halves2half2(a[i], b[i]);
  p = __hadd2(p, __hmax2(p, __floats2half2_rn(1.0f, -1.0f)));
  c[i] = __hmax(h, __hmin(a[i], b[i]));
  bf[i] = __float2bfloat16(__half2float(h) + __low2float(p));
  __nv_bfloat16 x = __hfma(bf[i], __float2bfloat16_rn(0.5f), __hmax(bf[i], __ushort_as_bfloat16(0x3f80)));
  x = __hadd(__hmul(x, x), __hneg(__habs(x)));
  o[i] = __bfloat162float(x) + __half2float(hsqrt(__habs(h))) + __bfloat16_as_ushort(x) + __hlt(x, bf[i]);
}

__global__ void groups(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  int v = in[block.thread_rank()];
  int total = cg::reduce(warp, v, cg::plus<int>());
  int small = cg::reduce(eight, v, cg::less<int>());
  int shifted = warp.shfl_down(v, 1) + eight.shfl(v, 0);
  block.sync();
  warp.sync();
  if (warp.thread_rank() == 0) out[block.group_index().x * 8 + warp.meta_group_rank_unused()] = 0;
  out[block.thread_rank()] = total + small + shifted + (int)warp.size() + (int)block.num_threads();
}

__global__ void atomics(int *i, unsigned *u, float *f, double *d, unsigned long long *ull) {
  atomicAdd(i, 1);
  atomicAdd_block(i + 1, 2);
  atomicAdd_system(f, 1.0f);
  atomicSub(i + 2, 1);
  atomicMax(i + 3, (int)threadIdx.x);
  atomicMin_block(i + 4, (int)threadIdx.x);
  atomicExch(u, 7u);
  atomicCAS(u + 1, 0u, 1u);
  atomicInc(u + 2, 100u);
  atomicDec(u + 3, 100u);
  atomicAnd(u + 4, 0xf0u);
  atomicOr_block(u + 5, 1u);
  atomicXor_system(u + 6, 3u);
  atomicAdd(d, 1.0);
  atomicAdd(ull, 1ull);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
}

__global__ void math(const float *x, float *y, const double *dx, double *dy, const int *n, long long *t) {
  int i = threadIdx.x;
  float a = x[i];
  float s, c;
  sincosf(a, &s, &c);
  y[i] = __expf(a) + __logf(a + 2.0f) + __powf(a, 2.0f) + __sinf(a) + __cosf(a) + rsqrtf(a + 1.0f)
       + __fdividef(a, 3.0f) + __saturatef(a) + fmaf(a, a, 1.0f) + erfinvf(0.5f) + s + c
       + __int_as_float(__float_as_int(a)) + __ldg(x + i) + exp10f(a) + normcdff(a);
  dy[i] = sqrt(dx[i]) + __longlong_as_double(__double_as_longlong(dx[i])) + __fma_rn(dx[i], 2.0, 1.0);
  int v = n[i];
  t[i] = clock64() + __mul24(v, v) + __umulhi(v, v) + __brev(v) + __byte_perm(v, v, 0x3210)
       + __funnelshift_l(v, v, 3) + __dp4a(v, v, 1) + __sad(v, 1, 2) + umin(v, 3u) + umax(v, 1u)
       + llmin(t[0], 2ll) + ullmax(1ull, 2ull);
  __stcs(y + i, y[i] + __ldcg(x + i));
  __nanosleep(10);
}

int main() { return 0; }
"""

DRIVER = r"""
#include <cuda.h>
#include <cstdio>
int main() {
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) return 1;
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUstream stream;
  CUevent ev;
  CUdeviceptr d;
  int warp = 0, major = 0;
  char name[64];
  size_t total = 0;
  cuDeviceGet(&dev, 0);
  cuDeviceGetName(name, sizeof name, dev);
  cuDeviceTotalMem(&total, dev);
  cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuCtxCreate(&ctx, 0, dev);
  cuModuleLoad(&mod, "kernels.hsaco");
  cuModuleGetFunction(&fn, mod, "k");
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  cuEventCreate(&ev, CU_EVENT_DEFAULT);
  cuMemAlloc(&d, 256);
  float h[64] = {};
  cuMemcpyHtoD(d, h, sizeof h);
  void *args[] = {&d};
  r = cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, stream, args, nullptr);
  if (r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_INVALID_VALUE) return 2;
  cuEventRecord(ev, stream);
  cuStreamSynchronize(stream);
  cuMemcpyDtoH(h, d, sizeof h);
  int regs = 0;
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  cuMemFree(d);
  cuEventDestroy(ev);
  cuStreamDestroy(stream);
  cuModuleUnload(mod);
  cuCtxDestroy(ctx);
  const char *error_name = nullptr, *error_text = nullptr;
  cuGetErrorName(r, &error_name);
  cuGetErrorString(r, &error_text);
  std::printf("%s %d %d %zu %d %s %s\n", name, warp, major, total, regs, error_name, error_text);
  return 0;
}
"""

# Numeric __CUDA_ARCH__ tests see sm_70 in the device pass and 0 in the host pass, as under
# nvcc; defined-tests select the device pass; __CUDACC__ becomes __HIPCC__.
MACROS = r"""
#include <cuda_runtime.h>
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 700
#error "the device pass should compile as sm_70"
#endif
#if !defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 0
#error "__CUDA_ARCH__ must be 0 (undefined) in the host pass, as under nvcc"
#endif
// The classic polyfill: HIP has atomicAdd(double *), so this must not be compiled.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#else
__device__ double atomicAdd(double *address, double val) { return val; }
#endif
#if !defined(__CUDACC__)
#error "__CUDACC__ was not rewritten"
#endif
#include <cooperative_groups.h>
#if defined(__CUDA_ARCH__)
// gfx1100 compiles as wave32, so CUDA's 32-lane warp holds (the host pass sees 64).
static_assert(__AMDGCN_WAVEFRONT_SIZE == 32, "gfx1100 is wave32");
static_assert(warpSize == 32, "warpSize is 32 on gfx1100");
// HIP 5.2 alone takes gfx1100 for a 64-lane target here; the compatibility header fixes it.
static_assert(WAVEFRONT_SIZE == 32, "cooperative groups see 32-lane wavefronts");
static_assert(sizeof(lane_mask) == 4, "cooperative groups use 32-bit lane masks");
#endif
__global__ void k(int *p) { p[0] = 1; }
int main() { return 0; }
"""


@pytest.mark.parametrize("name, source, expect_warnings", [
    ("host_runtime", HOST_RUNTIME, False),
    ("device", DEVICE.replace("out[block.group_index().x * 8 + warp.meta_group_rank_unused()] = 0",
                              "out[block.group_index().x] = 0"), False),
    ("driver", DRIVER, False),
    ("macros", MACROS, True),
])
def test_translated_source_compiles_for_gfx1100(hip_compiler, name, source, expect_warnings):
    result, proc = hip_compiler.compile_cuda(name, source)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert bool(result.diagnostics) == expect_warnings, [str(d) for d in result.diagnostics]
    # CUDA-looking names left: only those the compatibility header defines (CUDART_CB).
    leftovers = {t.text for t in tokenize(result.text)
                 if t.kind == IDENT and re.match(r"cuda|cu[A-Z]|CU|__CUDA", t.text)}
    assert leftovers <= set(tables.COMPAT), leftovers


def test_compat_header_compiles_in_a_host_compiler_cpp(tmp_path):
    """A .cpp of a CUDA project (host code calling the runtime API) is built by the host
    compiler; the header's device half must stay out of its way (it did not: g++ stopped at
    __builtin_amdgcn_read_exec)."""
    import shutil
    import subprocess
    from cass_cc.hipify import COMPAT_HEADER
    cxx = shutil.which("c++") or pytest.skip("no host C++ compiler")
    source = tmp_path / "main.cpp"
    source.write_text("int main() { char *p; hipError_t e = hipMalloc(&p, 16);\n"
                      "  cass_hipPointerAttributes a; cass_hipPointerGetAttributes(&a, p);\n"
                      "  return e == hipSuccess && cass_hipGetErrorName(e) != nullptr ? 0 : 1; }\n")
    proc = subprocess.run([cxx, "-x", "c++", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-include", COMPAT_HEADER,
                           "-c", str(source), "-o", str(tmp_path / "main.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
