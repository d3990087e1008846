/* cass_kernel_queries.h: what CUDA 11-12 programs ask about their kernels and HIP 5.2 lacks:
 * cudaFuncGetName, cudaOccupancyAvailableDynamicSMemPerBlock, cudaGetKernel (cudaKernel_t) and
 * cudaDeviceGetTexture1DLinearMaxWidth, each over what ROCm 5.2's libamdhip64 has. Included by
 * cass_hip_compat.h. */
#ifndef CASS_KERNEL_QUERIES_H
#define CASS_KERNEL_QUERIES_H

/* The kernel's device name (mangled as CUDA's is), from HIP's registration of its host stub. */
inline hipError_t cass_hipFuncGetName(const char** name, const void* func) {
  if (name == nullptr || func == nullptr) return hipErrorInvalidValue;
  const char* found = hipKernelNameRefByPtr(func, nullptr);
  if (found == nullptr) return hipErrorInvalidHandle;   /* CUDA: not a kernel */
  *name = found;
  return hipSuccess;
}
template <typename _CassF>
inline hipError_t cass_hipFuncGetName(const char** name, _CassF* func) {
  return cass_hipFuncGetName(name, reinterpret_cast<const void*>(func));
}

/* The largest dynamic shared memory with which `blocks` blocks of `block_size` threads are still
 * resident on one multiprocessor, by HIP's own occupancy calculator: the answer is the calculator's
 * for the device the program runs on (0 when that many blocks never fit). */
inline hipError_t cass_hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic, const void* func, int blocks,
                                                                int block_size) {
  if (dynamic == nullptr || blocks <= 0 || block_size <= 0) return hipErrorInvalidValue;
  hipFuncAttributes attrs;
  hipError_t e = hipFuncGetAttributes(&attrs, func);
  int device = 0, per_block = 0;
  if (e == hipSuccess) e = hipGetDevice(&device);
  if (e == hipSuccess) e = hipDeviceGetAttribute(&per_block, hipDeviceAttributeMaxSharedMemoryPerBlock, device);
  if (e != hipSuccess) return e;
  size_t low = 0, high = per_block > (int)attrs.sharedSizeBytes ? per_block - attrs.sharedSizeBytes : 0;
  int resident = 0;
  e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&resident, func, block_size, 0);
  if (e != hipSuccess) return e;
  if (resident < blocks) {
    *dynamic = 0;
    return hipSuccess;
  }
  while (low < high) {   /* the largest size that keeps `blocks` resident */
    size_t mid = low + (high - low + 1) / 2;
    e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&resident, func, block_size, mid);
    if (e != hipSuccess) return e;
    if (resident >= blocks) low = mid; else high = mid - 1;
  }
  *dynamic = low;
  return hipSuccess;
}
template <typename _CassF>
inline hipError_t cass_hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic, _CassF* func, int blocks,
                                                                int block_size) {
  return cass_hipOccupancyAvailableDynamicSMemPerBlock(dynamic, reinterpret_cast<const void*>(func), blocks,
                                                       block_size);
}

/* cudaKernel_t: HIP launches a kernel by its host stub, so the handle is the stub's address;
 * cudaLaunchKernel((const void*)handle, ...) then launches it as CUDA does. */
typedef struct cass_hipKernel* cass_hipKernel_t;
template <typename _CassF>
inline hipError_t cass_hipGetKernel(cass_hipKernel_t* kernel, _CassF* func) {
  if (kernel == nullptr) return hipErrorInvalidValue;
  hipFuncAttributes attrs;   /* not a kernel: the error HIP gives for it */
  hipError_t e = hipFuncGetAttributes(&attrs, reinterpret_cast<const void*>(func));
  if (e == hipSuccess) *kernel = reinterpret_cast<cass_hipKernel_t>(reinterpret_cast<void*>(func));
  return e;
}

/* AMD's 1D linear textures are buffer resources whose limit counts texels of any format. */
inline hipError_t cass_hipDeviceGetTexture1DLinearMaxWidth(size_t* width, const hipChannelFormatDesc* desc,
                                                           int device) {
  if (width == nullptr || desc == nullptr) return hipErrorInvalidValue;
  int texels = 0;
  hipError_t e = hipDeviceGetAttribute(&texels, hipDeviceAttributeMaxTexture1DLinear, device);
  if (e == hipSuccess) *width = static_cast<size_t>(texels);
  return e;
}

#endif  // CASS_KERNEL_QUERIES_H
