/* cass_hip_compat.h: what CUDA code needs and HIP 5.2 lacks, for AMD wave32 targets (gfx10,
 * gfx11), where a CUDA warp and an AMD wavefront are both 32 lanes wide.
 *
 * cass-cc's hipify passes this header with `-include` when a translation unit needs it:
 *   - device: the CUDA 9 `_sync` warp functions, __activemask, __syncwarp, match and reduce,
 *     cache-hint loads and stores, __nanosleep, __trap, __dp4a, umin/umax and kin,
 *     __hmax/__hmin, bfloat16 conversions and arithmetic, cooperative_groups::reduce;
 *   - host: CUDART_CB, the C++ overloads of cuda_runtime.h (typed pointers, kernels passed
 *     as functions), hipLaunchHostFunc, which HIP 5.2 declares but does not implement, and
 *     the driver API's cuGetErrorName/cuGetErrorString forms, CUDA's error names;
 *   - cooperative groups that know gfx11 is wave32 (tiles and coalesced groups: cass_cg_extras.h);
 *   - CASS_CUDA_ARCH, which numeric __CUDA_ARCH__ tests become;
 *   - cass_ptx.h, the helpers that translated inline PTX calls;
 *   - the runtime header itself, standing in for nvcc's implicit cuda_runtime.h.
 *
 * Lane masks are 32 bits, as in CUDA. HIP runs all active lanes of a wavefront together, so
 * the masks select lanes for votes and reductions; they never split a wavefront.
 */
#ifndef CASS_HIP_COMPAT_H
#define CASS_HIP_COMPAT_H

/* ROCm's device assert traps, which ends the process: cass_device_assert.h has CUDA's in its place
 * (as in cass-nvcc's prelude, whichever reads HIP's headers first). */
#define __assert_fail cass_rocm_assert_fail
#include <hip/hip_runtime.h>
#undef __assert_fail
#include "cass_device_assert.h"
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>

#include <cstring>
#include <map>
#include <mutex>
#include <string>

/* One CUDA warp per wave where the unit's warps wait for each other: threadIdx and blockDim as
 * CUDA's, before the cooperative groups read them. */
#include "cass_wave_per_warp.h"

/* HIP 5.2's cooperative groups pick 32-lane wavefronts (and 32-bit lane masks) only for the
 * gfx10 chips they list, and 64 for everything else, gfx11 included. While they are read,
 * a wave32 target poses as one of the listed chips; the name is dropped right after. */
#if defined(__HIP_DEVICE_COMPILE__) && __AMDGCN_WAVEFRONT_SIZE == 32 && !defined(__gfx1030__)
#define __gfx1030__ 1
#define CASS_COMPAT_POSING_AS_GFX1030
#endif
/* Without GWS (CASS_NO_GWS, from the driver), the grid barrier is cass_grid_sync.h's. */
#if defined(__HIP_DEVICE_COMPILE__) && defined(CASS_NO_GWS)
#include "cass_grid_sync.h"
#define __ockl_grid_sync() cass_compat::grid_sync()
#endif
#include <hip/hip_cooperative_groups.h>
#ifdef CASS_NO_GWS
#undef __ockl_grid_sync
#endif
#ifdef CASS_COMPAT_POSING_AS_GFX1030
#undef __gfx1030__
#undef CASS_COMPAT_POSING_AS_GFX1030
#endif

/* CUDA's warp size, 32, on every target: warpSize and the device's properties. */
#include "cass_warp_size.h"

/* Calling-convention macros of the CUDA headers; empty on Linux. */
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDAAPI
#define CUDAAPI
#endif

/* What numeric __CUDA_ARCH__ tests become: undefined in the host pass, as __CUDA_ARCH__ is
 * under nvcc, and in the device pass the NVIDIA architecture whose features HIP and this
 * header provide (Volta: warp _sync functions, match, half, double atomics; no tensor cores). */
#if defined(__HIP_DEVICE_COMPILE__)
#define CASS_CUDA_ARCH 700
#endif

namespace cass_compat {

/* Moves a value of any trivially copyable type through a 32-bit lane operation, word by word. */
template <typename _CassT, typename Move>
__device__ inline _CassT move_words(_CassT value, Move move) {
  constexpr int words = (sizeof(_CassT) + 3) / 4;
  int buffer[words] = {};
  __builtin_memcpy(buffer, &value, sizeof(_CassT));
  for (int i = 0; i < words; ++i) buffer[i] = move(buffer[i]);
  _CassT result;
  __builtin_memcpy(&result, buffer, sizeof(_CassT));
  return result;
}

/* CUDA's match functions compare bit patterns. */
template <typename _CassT>
__device__ inline bool same_bits(const _CassT& a, const _CassT& b) {
  const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
  for (unsigned i = 0; i < sizeof(_CassT); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

}  // namespace cass_compat

/* ---- C++ overloads that CUDA's cuda_runtime.h has and HIP 5.2 lacks ------------------------ */

template <typename _CassT>
inline hipError_t hipMallocPitch(_CassT** ptr, size_t* pitch, size_t width, size_t height) {
  return hipMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <typename _CassT>
inline hipError_t hipHostGetDevicePointer(_CassT** device, void* host, unsigned flags) {
  return hipHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
}
template <typename _CassT>
inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, _CassT* kernel) {
  return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(kernel));
}
template <typename _CassT>
inline hipError_t hipFuncSetAttribute(_CassT* kernel, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <typename _CassT>
inline hipError_t hipFuncSetCacheConfig(_CassT* kernel, hipFuncCache_t config) {
  return hipFuncSetCacheConfig(reinterpret_cast<const void*>(kernel), config);
}
template <typename _CassT>
inline hipError_t hipFuncSetSharedMemConfig(_CassT* kernel, hipSharedMemConfig config) {
  return hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(kernel), config);
}
template <typename _CassT>
inline hipError_t hipLaunchKernel(_CassT* kernel, dim3 grid, dim3 block, void** args,
                                  size_t shared = 0, hipStream_t stream = 0) {
  return hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream);
}
inline hipError_t hipEventCreate(hipEvent_t* event, unsigned flags) {
  return hipEventCreateWithFlags(event, flags);
}
/* Default arguments CUDA's C++ API has and HIP 5.2's lacks. */
inline hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event) {
  return hipStreamWaitEvent(stream, event, 0);
}
template <typename _CassT>
inline hipError_t hipLaunchCooperativeKernel(_CassT* kernel, dim3 grid, dim3 block, void** args,
                                             unsigned shared = 0) {
  return hipLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args,
                                    shared, hipStream_t(0));
}

/* hipLaunchHostFunc is declared by HIP 5.2 but missing from its libamdhip64: a stream callback
 * runs the host function instead, in stream order. */
struct cass_host_call {
  hipHostFn_t fn;
  void* data;
};
inline void cass_run_host_call(hipStream_t, hipError_t, void* call) {
  cass_host_call* c = static_cast<cass_host_call*>(call);
  c->fn(c->data);
  delete c;
}
inline hipError_t cass_hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* data) {
  cass_host_call* call = new cass_host_call{fn, data};
  hipError_t err = hipStreamAddCallback(stream, cass_run_host_call, call, 0);
  if (err != hipSuccess) delete call;
  return err;
}

/* cudaGetErrorName: CUDA's name of an error ("cudaErrorInvalidValue"), which programs print
 * and compare, from HIP's ("hipErrorInvalidValue"). The names are built once per code and kept
 * for the life of the program, as CUDA's are static strings. */
inline const char* cass_hipGetErrorName(hipError_t error) {
  switch (error) {  /* the codes whose CUDA name is not HIP's with "cuda" for "hip" */
    case hipErrorLaunchTimeOut: return "cudaErrorLaunchTimeout";
    case hipErrorNoBinaryForGpu: return "cudaErrorNoKernelImageForDevice";
    case hipErrorInvalidImage: return "cudaErrorInvalidKernelImage";
    case hipErrorECCNotCorrectable: return "cudaErrorECCUncorrectable";
    case hipErrorNotFound: return "cudaErrorSymbolNotFound";
    case hipErrorInvalidHandle: return "cudaErrorInvalidResourceHandle";
    default: break;
  }
  const char* hip = hipGetErrorName(error);
  if (hip == nullptr || std::strncmp(hip, "hip", 3) != 0) return hip;
  static std::mutex lock;
  static std::map<int, std::string> names;
  std::lock_guard<std::mutex> guard(lock);
  return names.emplace(static_cast<int>(error), std::string("cuda") + (hip + 3)).first->second.c_str();
}

/* cudaPointerGetAttributes in CUDA's shape: HIP 5.2 has memoryType/isManaged for `type` and
 * numbers its memory types differently; memory HIP does not know is "unregistered" host
 * memory for CUDA (since CUDA 11), not an error. */
enum cass_hipMemoryType {
  cass_hipMemoryTypeUnregistered = 0,
  cass_hipMemoryTypeHost = 1,
  cass_hipMemoryTypeDevice = 2,
  cass_hipMemoryTypeManaged = 3
};
struct cass_hipPointerAttributes {
  enum cass_hipMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
inline hipError_t cass_hipPointerGetAttributes(cass_hipPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return hipErrorInvalidValue;
  hipPointerAttribute_t hip;
  bool no_pending_error = hipPeekAtLastError() == hipSuccess;
  hipError_t err = hipPointerGetAttributes(&hip, ptr);
  if (err == hipErrorInvalidValue && ptr != nullptr) {
    if (no_pending_error) (void)hipGetLastError();  /* CUDA reports no error here */
    *attributes = {cass_hipMemoryTypeUnregistered, -2, nullptr, const_cast<void*>(ptr)};
    return hipSuccess;
  }
  if (err != hipSuccess) return err;
  attributes->type = hip.isManaged ? cass_hipMemoryTypeManaged
                     : hip.memoryType == hipMemoryTypeHost ? cass_hipMemoryTypeHost
                     : cass_hipMemoryTypeDevice;
  attributes->device = hip.device;
  attributes->devicePointer = hip.devicePointer;
  attributes->hostPointer = hip.hostPointer;
  return hipSuccess;
}

/* cudaDeviceSetLimit/cudaDeviceGetLimit with CUDA's stack-size limit (cudaLimitStackSize = 0,
 * a value HIP 5.2's hipLimit_t leaves free). On AMD the compiler sizes each kernel's stack
 * (scratch) and the runtime allocates it at launch, so a stack size is recorded and reported,
 * not needed; HIP 5.2 has no hipDeviceSetLimit for the other limits. */
enum cass_hipLimit {
  cass_hipLimitStackSize = 0
};
inline size_t& cass_stack_size_limit() {
  static size_t bytes = 1024;  /* CUDA's default */
  return bytes;
}
inline hipError_t cass_hipDeviceSetLimit(int limit, size_t value) {
  if (limit != cass_hipLimitStackSize) return hipErrorUnsupportedLimit;
  cass_stack_size_limit() = value;
  return hipSuccess;
}
inline hipError_t cass_hipDeviceGetLimit(size_t* value, int limit) {
  if (limit != cass_hipLimitStackSize) return hipDeviceGetLimit(value, static_cast<hipLimit_t>(limit));
  if (value == nullptr) return hipErrorInvalidValue;
  *value = cass_stack_size_limit();
  return hipSuccess;
}

/* The driver API's error texts: (CUresult, const char**) forms of HIP's runtime functions. */
inline hipError_t cass_hipDrvGetErrorName(hipError_t error, const char** name) {
  *name = hipGetErrorName(error);
  return hipSuccess;
}
inline hipError_t cass_hipDrvGetErrorString(hipError_t error, const char** text) {
  *text = hipGetErrorString(error);
  return hipSuccess;
}

/* CUresult values HIP has no error for, each a code no HIP call returns (from 1200 on, above
 * hipError_t's own and within its range), so code comparing with them or switching over every
 * CUresult builds and never takes their branch. */
static constexpr hipError_t CUDA_ERROR_CDP_NOT_SUPPORTED = static_cast<hipError_t>(1200);
static constexpr hipError_t CUDA_ERROR_CDP_VERSION_MISMATCH = static_cast<hipError_t>(1201);
static constexpr hipError_t CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = static_cast<hipError_t>(1202);
static constexpr hipError_t CUDA_ERROR_CONTAINED = static_cast<hipError_t>(1203);
static constexpr hipError_t CUDA_ERROR_DEVICE_NOT_LICENSED = static_cast<hipError_t>(1204);
static constexpr hipError_t CUDA_ERROR_DEVICE_UNAVAILABLE = static_cast<hipError_t>(1205);
static constexpr hipError_t CUDA_ERROR_EXTERNAL_DEVICE = static_cast<hipError_t>(1206);
static constexpr hipError_t CUDA_ERROR_FUNCTION_NOT_LOADED = static_cast<hipError_t>(1207);
static constexpr hipError_t CUDA_ERROR_HARDWARE_STACK_ERROR = static_cast<hipError_t>(1208);
static constexpr hipError_t CUDA_ERROR_ILLEGAL_INSTRUCTION = static_cast<hipError_t>(1209);
static constexpr hipError_t CUDA_ERROR_INVALID_ADDRESS_SPACE = static_cast<hipError_t>(1210);
static constexpr hipError_t CUDA_ERROR_INVALID_CLUSTER_SIZE = static_cast<hipError_t>(1211);
static constexpr hipError_t CUDA_ERROR_INVALID_PC = static_cast<hipError_t>(1212);
static constexpr hipError_t CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = static_cast<hipError_t>(1213);
static constexpr hipError_t CUDA_ERROR_INVALID_RESOURCE_TYPE = static_cast<hipError_t>(1214);
static constexpr hipError_t CUDA_ERROR_JIT_COMPILATION_DISABLED = static_cast<hipError_t>(1215);
static constexpr hipError_t CUDA_ERROR_JIT_COMPILER_NOT_FOUND = static_cast<hipError_t>(1216);
static constexpr hipError_t CUDA_ERROR_KEY_ROTATION = static_cast<hipError_t>(1217);
static constexpr hipError_t CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = static_cast<hipError_t>(1218);
static constexpr hipError_t CUDA_ERROR_LOSSY_QUERY = static_cast<hipError_t>(1219);
static constexpr hipError_t CUDA_ERROR_MISALIGNED_ADDRESS = static_cast<hipError_t>(1220);
static constexpr hipError_t CUDA_ERROR_MPS_CLIENT_TERMINATED = static_cast<hipError_t>(1221);
static constexpr hipError_t CUDA_ERROR_MPS_CONNECTION_FAILED = static_cast<hipError_t>(1222);
static constexpr hipError_t CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = static_cast<hipError_t>(1223);
static constexpr hipError_t CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = static_cast<hipError_t>(1224);
static constexpr hipError_t CUDA_ERROR_MPS_RPC_FAILURE = static_cast<hipError_t>(1225);
static constexpr hipError_t CUDA_ERROR_MPS_SERVER_NOT_READY = static_cast<hipError_t>(1226);
static constexpr hipError_t CUDA_ERROR_NOT_PERMITTED = static_cast<hipError_t>(1227);
static constexpr hipError_t CUDA_ERROR_NVLINK_UNCORRECTABLE = static_cast<hipError_t>(1228);
static constexpr hipError_t CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = static_cast<hipError_t>(1229);
static constexpr hipError_t CUDA_ERROR_STUB_LIBRARY = static_cast<hipError_t>(1230);
static constexpr hipError_t CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = static_cast<hipError_t>(1231);
static constexpr hipError_t CUDA_ERROR_SYSTEM_NOT_READY = static_cast<hipError_t>(1232);
static constexpr hipError_t CUDA_ERROR_TENSOR_MEMORY_LEAK = static_cast<hipError_t>(1233);
static constexpr hipError_t CUDA_ERROR_TIMEOUT = static_cast<hipError_t>(1234);
static constexpr hipError_t CUDA_ERROR_TOO_MANY_PEERS = static_cast<hipError_t>(1235);
static constexpr hipError_t CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = static_cast<hipError_t>(1236);
static constexpr hipError_t CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = static_cast<hipError_t>(1237);
static constexpr hipError_t CUDA_ERROR_UNSUPPORTED_PTX_VERSION = static_cast<hipError_t>(1238);

/* CUDA 12's stream ids and attributes, event records with flags. */
#include "cass_stream_compat.h"
/* cudaFuncGetName, cudaGetKernel and the other kernel queries of CUDA 11-12. */
#include "cass_kernel_queries.h"
/* cudaLaunchKernelEx and its launch attributes. */
#include "cass_launch_ex.h"
/* Unified-memory hints at a cudaMemLocation. */
#include "cass_managed_compat.h"
/* Array copies: the linear and array-to-array ones, cudaMemcpy3DPeer. */
#include "cass_array_copies.h"
/* CUDA 12-13's graph calls: edge data, instantiation parameters, upload, dot files. */
#include "cass_graph_compat.h"

/* 128-bit integers that device code can divide (hipify writes __int128 as cass_s128/cass_u128). */
#include "cass_int128.h"

/* Everything below is device code (and the types device code uses): only a HIP compiler reads
 * it. A .cpp file that the host compiler builds gets the host half above, as under nvcc, where
 * such a file sees no device functions either. */
#if defined(__HIP__)

/* What inline PTX is translated to (cass_cc/hipify/inline_asm.py), and the device intrinsics
 * HIP 5.2 lacks (rounded float arithmetic, SIMD video, DPX, NaN-propagating half min/max). */
#include "cass_ptx.h"
#include "cass_intrinsics.h"
#include "cass_texture_compat.h"   /* CUDA texture rules HIP 5.2 misses */
/* CUDA's half conversions (__host__ __device__, rounded as named) and bfloat16 math. */
#include "cass_half.h"
/* Conversions to float and double rounded as their names say. */
#include "cass_convert.h"

/* The floating-point classification functions are __host__ __device__ in CUDA; clang's HIP
 * headers declare global isnan/isinf/isfinite/signbit for the device only, which hides
 * std::isnan from __host__ __device__ code's host pass. */
#define CASS_COMPAT_CLASSIFY(NAME, BUILTIN)                                   \
  __host__ inline bool NAME(double x) { return BUILTIN(x); }                 \
  __host__ inline bool NAME(float x) { return BUILTIN(x); }
CASS_COMPAT_CLASSIFY(isnan, __builtin_isnan)
CASS_COMPAT_CLASSIFY(isinf, __builtin_isinf)
CASS_COMPAT_CLASSIFY(isfinite, __builtin_isfinite)
CASS_COMPAT_CLASSIFY(signbit, __builtin_signbit)
#undef CASS_COMPAT_CLASSIFY

/* ---- votes and the active mask ----------------------------------------------------------
 * Of the lane's own CUDA warp: on a 64-lane wave the half it is in (cass_ptx::warp_base() is 0
 * or 32; on wave32 always 0, and the shift costs nothing). */

__device__ inline unsigned __activemask() {
  return static_cast<unsigned>(__builtin_amdgcn_read_exec() >> cass_ptx::warp_base());
}

__device__ inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return static_cast<unsigned>(__ballot(predicate) >> cass_ptx::warp_base()) & mask;
}

__device__ inline int __any_sync(unsigned mask, int predicate) {
  return __ballot_sync(mask, predicate) != 0;
}

__device__ inline int __all_sync(unsigned mask, int predicate) {
  return __ballot_sync(mask, predicate) == (mask & __activemask());
}

__device__ inline int __uni_sync(unsigned mask, int predicate) {
  unsigned votes = __ballot_sync(mask, predicate);
  return votes == 0 || votes == (mask & __activemask());
}

/* A wave runs its lanes (both warps', on wave64) in lockstep; __syncwarp still orders memory
 * among them. */
__device__ inline void __syncwarp(unsigned mask = 0xffffffffu) {
  (void)mask;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

#if defined(__HIP_DEVICE_COMPILE__) && __AMDGCN_WAVEFRONT_SIZE == 64
#include "cass_wave64.h"   /* shuffles of two CUDA warps in each 64-lane wave */
#else
/* ---- shuffles ----------------------------------------------------------------------------- */

template <typename _CassT>
__device__ inline _CassT __shfl_sync(unsigned mask, _CassT var, int src_lane, int width = warpSize) {
  (void)mask;
  /* CUDA takes the source lane modulo width within the segment (PTX shfl.idx); ROCm 5.2's
     __shfl adds it to the segment base unwrapped, reading another segment. */
  return cass_compat::move_words(var, [=](int w) { return __shfl(w, src_lane & (width - 1), width); });
}

template <typename _CassT>
__device__ inline _CassT __shfl_up_sync(unsigned mask, _CassT var, unsigned delta, int width = warpSize) {
  (void)mask;
  return cass_compat::move_words(var, [=](int w) { return __shfl_up(w, delta, width); });
}

template <typename _CassT>
__device__ inline _CassT __shfl_down_sync(unsigned mask, _CassT var, unsigned delta, int width = warpSize) {
  (void)mask;
  return cass_compat::move_words(var, [=](int w) { return __shfl_down(w, delta, width); });
}

template <typename _CassT>
__device__ inline _CassT __shfl_xor_sync(unsigned mask, _CassT var, int lane_mask, int width = warpSize) {
  (void)mask;
  return cass_compat::move_words(var, [=](int w) { return __shfl_xor(w, lane_mask, width); });
}

#endif  // wave64

/* ---- match and reduce --------------------------------------------------------------------- */

template <typename _CassT>
__device__ inline unsigned __match_any_sync(unsigned mask, _CassT value) {
  unsigned remaining = __ballot_sync(mask, 1);
  unsigned result = 0;
  while (remaining) {
    _CassT leader = __shfl_sync(mask, value, __ffs(remaining) - 1);
    bool same = cass_compat::same_bits(value, leader);
    unsigned group = __ballot_sync(remaining, same);
    if (same) result = group;
    remaining &= ~group;
  }
  return result;
}

template <typename _CassT>
__device__ inline unsigned __match_all_sync(unsigned mask, _CassT value, int* pred) {
  unsigned active = __ballot_sync(mask, 1);
  _CassT leader = __shfl_sync(mask, value, __ffs(active) - 1);
  bool all = __ballot_sync(mask, cass_compat::same_bits(value, leader)) == active;
  *pred = all;
  return all ? mask : 0u;
}

namespace cass_compat {

template <typename _CassT, typename Op>
__device__ inline _CassT reduce_lanes(unsigned mask, _CassT value, Op op) {
  unsigned lanes = __ballot_sync(mask, 1);
  _CassT total = __shfl_sync(mask, value, __ffs(lanes) - 1);
  for (lanes &= lanes - 1; lanes; lanes &= lanes - 1) total = op(total, __shfl_sync(mask, value, __ffs(lanes) - 1));
  return total;
}

}  // namespace cass_compat

#define CASS_COMPAT_REDUCE(NAME, TYPE, EXPR)                                              \
  __device__ inline TYPE NAME(unsigned mask, TYPE value) {                               \
    return cass_compat::reduce_lanes(mask, value, [](TYPE a, TYPE b) { return EXPR; }); \
  }
CASS_COMPAT_REDUCE(__reduce_add_sync, unsigned, a + b)
CASS_COMPAT_REDUCE(__reduce_add_sync, int, a + b)
CASS_COMPAT_REDUCE(__reduce_min_sync, unsigned, a < b ? a : b)
CASS_COMPAT_REDUCE(__reduce_min_sync, int, a < b ? a : b)
CASS_COMPAT_REDUCE(__reduce_max_sync, unsigned, a > b ? a : b)
CASS_COMPAT_REDUCE(__reduce_max_sync, int, a > b ? a : b)
CASS_COMPAT_REDUCE(__reduce_and_sync, unsigned, a & b)
CASS_COMPAT_REDUCE(__reduce_or_sync, unsigned, a | b)
CASS_COMPAT_REDUCE(__reduce_xor_sync, unsigned, a ^ b)
#undef CASS_COMPAT_REDUCE

/* ---- loads and stores with cache hints (the hint is dropped) -------------------------------- */

template <typename _CassT> __device__ inline _CassT __ldcg(const _CassT* p) { return *p; }
template <typename _CassT> __device__ inline _CassT __ldca(const _CassT* p) { return *p; }
template <typename _CassT> __device__ inline _CassT __ldcs(const _CassT* p) { return *p; }
template <typename _CassT> __device__ inline _CassT __ldlu(const _CassT* p) { return *p; }
template <typename _CassT> __device__ inline _CassT __ldcv(const _CassT* p) { return *p; }
template <typename _CassT> __device__ inline void __stcs(_CassT* p, _CassT v) { *p = v; }
template <typename _CassT> __device__ inline void __stcg(_CassT* p, _CassT v) { *p = v; }
template <typename _CassT> __device__ inline void __stwt(_CassT* p, _CassT v) { *p = v; }
template <typename _CassT> __device__ inline void __stwb(_CassT* p, _CassT v) { *p = v; }

/* ---- miscellaneous -------------------------------------------------------------------------- */

/* Sleeps for about `ns` nanoseconds (CUDA only promises an approximate delay), timed by the
 * real-time counter: HIP 5.2's clock64() on gfx11 is a 20-bit cycle count that wraps. */
__device__ inline void __nanosleep(unsigned ns) {
  unsigned long long start = cass_ptx::realtime(), ticks = (ns + 9ull) / 10ull;
  while (cass_ptx::realtime() - start < ticks) __builtin_amdgcn_s_sleep(1);
}

__device__ inline void __trap() { __builtin_trap(); }

/* Integer min/max with CUDA's names (math_functions.h). */
__host__ __device__ inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
__host__ __device__ inline long long llmin(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long llmax(long long a, long long b) { return a < b ? b : a; }
__host__ __device__ inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
__host__ __device__ inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a < b ? b : a;
}

__device__ inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 32; i += 8)
    c += static_cast<signed char>(a >> i) * static_cast<signed char>(b >> i);
  return c;
}

__device__ inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  for (int i = 0; i < 32; i += 8) c += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);
  return c;
}

/* Address conversions that CUDA code computes for inline PTX (a .shared address is the offset
 * in the block's shared window; global addresses are generic ones). */
__device__ inline size_t __cvta_generic_to_shared(const void* p) {
  return (size_t)cass_ptx::to_shared((unsigned long long)p);
}
__device__ inline void* __cvta_shared_to_generic(size_t a) { return (void*)cass_ptx::from_shared(a); }
__device__ inline size_t __cvta_generic_to_global(const void* p) { return (size_t)p; }
__device__ inline void* __cvta_global_to_generic(size_t a) { return (void*)a; }

/* ---- half and bfloat16 ---------------------------------------------------------------------- */

/* CUDA returns the other operand when one is NaN. */
__device__ inline __half __hmax(__half a, __half b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : __hgt(a, b) ? a : b;
}
__device__ inline __half __hmin(__half a, __half b) {
  return __hisnan(a) ? b : __hisnan(b) ? a : __hlt(a, b) ? a : b;
}
__device__ inline __half2 __hmax2(__half2 a, __half2 b) {
  return __halves2half2(__hmax(__low2half(a), __low2half(b)), __hmax(__high2half(a), __high2half(b)));
}
__device__ inline __half2 __hmin2(__half2 a, __half2 b) {
  return __halves2half2(__hmin(__low2half(a), __low2half(b)), __hmin(__high2half(a), __high2half(b)));
}

/* CUDA's __nv_bfloat16 is HIP 5.2's hip_bfloat16, which rounds to nearest even from float. */
__host__ __device__ inline hip_bfloat16 __float2bfloat16(float f) { return hip_bfloat16(f); }
__host__ __device__ inline hip_bfloat16 __float2bfloat16_rn(float f) { return hip_bfloat16(f); }
__host__ __device__ inline float __bfloat162float(hip_bfloat16 b) { return static_cast<float>(b); }
__host__ __device__ inline unsigned short __bfloat16_as_ushort(hip_bfloat16 b) { return b.data; }
__host__ __device__ inline hip_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
  hip_bfloat16 b;
  b.data = bits;
  return b;
}

/* bfloat16 arithmetic as CUDA's cuda_bf16.h spells it: computed in float, rounded once. */
#define CASS_COMPAT_BF16(NAME, RESULT, EXPR) \
  __device__ inline RESULT NAME(hip_bfloat16 a, hip_bfloat16 b) { return RESULT(EXPR); }
CASS_COMPAT_BF16(__hadd, hip_bfloat16, float(a) + float(b))
CASS_COMPAT_BF16(__hsub, hip_bfloat16, float(a) - float(b))
CASS_COMPAT_BF16(__hmul, hip_bfloat16, float(a) * float(b))
CASS_COMPAT_BF16(__hdiv, hip_bfloat16, float(a) / float(b))
CASS_COMPAT_BF16(__hmax, hip_bfloat16, fmaxf(float(a), float(b)))
CASS_COMPAT_BF16(__hmin, hip_bfloat16, fminf(float(a), float(b)))
CASS_COMPAT_BF16(__heq, bool, float(a) == float(b))
CASS_COMPAT_BF16(__hne, bool, float(a) != float(b))
CASS_COMPAT_BF16(__hlt, bool, float(a) < float(b))
CASS_COMPAT_BF16(__hle, bool, float(a) <= float(b))
CASS_COMPAT_BF16(__hgt, bool, float(a) > float(b))
CASS_COMPAT_BF16(__hge, bool, float(a) >= float(b))
#undef CASS_COMPAT_BF16
__device__ inline hip_bfloat16 __hfma(hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c) {
  return hip_bfloat16(fmaf(float(a), float(b), float(c)));
}
__device__ inline hip_bfloat16 __hneg(hip_bfloat16 a) { return hip_bfloat16(-float(a)); }
__device__ inline hip_bfloat16 __habs(hip_bfloat16 a) { return hip_bfloat16(fabsf(float(a))); }

/* ---- cooperative_groups::reduce (CUDA 11's cooperative_groups/reduce.h) --------------------- */

namespace cooperative_groups {

template <typename _CassT> struct plus {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return a + b; }
};
template <typename _CassT> struct less {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return b < a ? b : a; }
};
template <typename _CassT> struct greater {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return a < b ? b : a; }
};
template <typename _CassT> struct bit_and {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return a & b; }
};
template <typename _CassT> struct bit_or {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return a | b; }
};
template <typename _CassT> struct bit_xor {
  __device__ _CassT operator()(const _CassT& a, const _CassT& b) const { return a ^ b; }
};

/* Every lane of a power-of-two tile gets the result (a butterfly over shfl_xor). */
template <typename Group, typename _CassT, typename Op>
__device__ inline _CassT reduce(const Group& group, _CassT value, Op op) {
  for (unsigned offset = group.size() / 2; offset > 0; offset /= 2)
    value = op(value, group.shfl_xor(value, offset));
  return value;
}

}  // namespace cooperative_groups

/* Tiles (of any size), coalesced groups and partitions, scans, memcpy_async and wait. */
#include "cass_cg_extras.h"
/* Atomics on 16-bit, half-pair and 64-bit signed types; libcu++'s atomics. */
#include "cass_atomics.h"
#include "cass_cuda_atomic.h"
/* libcu++'s cuda::barrier, cuda::pipeline and cuda::memcpy_async. */
#include "cass_cuda_barrier.h"
#include "cass_cuda_pipeline.h"
/* nvcuda::wmma. */
#include "cass_wmma.h"

#endif  // defined(__HIP__)

#endif  // CASS_HIP_COMPAT_H
