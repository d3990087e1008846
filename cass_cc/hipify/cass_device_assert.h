/* cass_device_assert.h: a failed device assert() as CUDA reports it. Included by cass_hip_compat.h,
 * which renames ROCm's device __assert_fail out of the way while HIP's headers are read.
 *
 * ROCm's assert traps, and a trap ends the whole process (on a GPU, as on the emulator). On CUDA
 * the launch succeeds, the failing thread's message goes to the device's printf stream, and the
 * next call that waits for the device returns cudaErrorAssert, as does every such call after it.
 * Here a failed assert prints CUDA's message, raises a flag of its code object and ends its wave;
 * the calls that wait for the device (cass_hipDeviceSynchronize and the others below) read the
 * flags of every translation unit and from then on return hipErrorAssert. Calls that do not wait
 * for the device go on working (CUDA's fail: its context is lost). */
#ifndef CASS_DEVICE_ASSERT_H
#define CASS_DEVICE_ASSERT_H

#include <atomic>
#include <mutex>
#include <vector>

/* The host's own assert, which HIP's headers declared under the other name. */
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line, const char* function)
    noexcept __attribute__((__noreturn__));

#if defined(__HIP__)
/* This translation unit's flag. Every code object also has the flag the binary route's libcassrt
 * reads by name (cassrt.h's CASSRT_ASSERT_FLAG), for its kernels that are built from source. */
static __device__ int cass_assert_raised_here;
extern "C" {
__device__ __attribute__((weak)) int __cass_assert_raised;
}

extern "C" __device__ __attribute__((noinline)) __attribute__((weak)) void __assert_fail(
    const char* assertion, const char* file, unsigned int line, const char* function) {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __hip_atomic_store(&cass_assert_raised_here, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  __hip_atomic_store(&__cass_assert_raised, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  __builtin_amdgcn_endpgm();
}
#endif

namespace cass_device_assert {

inline std::mutex& lock() { static std::mutex m; return m; }
inline std::vector<const void*>& flags() { static std::vector<const void*> f; return f; }
inline std::atomic<bool>& raised() { static std::atomic<bool> r{false}; return r; }
/* The last error as CUDA's cudaGetLastError reads it: an assert is reported once by it. */
inline bool& unreported() { static thread_local bool u = false; return u; }

inline bool add(const void* flag) {
  std::lock_guard<std::mutex> guard(lock());
  flags().push_back(flag);
  return true;
}

/* The result of a call that waited for the device. */
inline hipError_t waited(hipError_t e) {
  if (e != hipSuccess) return e;
  if (!raised()) {
    std::lock_guard<std::mutex> guard(lock());
    for (const void* flag : flags()) {
      int value = 0;
      hipError_t read = hipMemcpyFromSymbol(&value, flag, sizeof value, 0, hipMemcpyDeviceToHost);
      if (read != hipSuccess) return read;
      if (value) raised() = true;
    }
  }
  if (!raised()) return e;
  unreported() = true;
  return hipErrorAssert;
}

}  // namespace cass_device_assert

#if defined(__HIP__)
static const bool cass_assert_flag_added __attribute__((unused)) = cass_device_assert::add(&cass_assert_raised_here);
#endif

inline hipError_t cass_hipDeviceSynchronize() { return cass_device_assert::waited(hipDeviceSynchronize()); }
inline hipError_t cass_hipStreamSynchronize(hipStream_t stream) {
  return cass_device_assert::waited(hipStreamSynchronize(stream));
}
inline hipError_t cass_hipEventSynchronize(hipEvent_t event) {
  return cass_device_assert::waited(hipEventSynchronize(event));
}
inline hipError_t cass_hipMemcpy(void* dst, const void* src, size_t count, hipMemcpyKind kind) {
  if (cass_device_assert::raised()) return cass_device_assert::waited(hipSuccess);
  return cass_device_assert::waited(hipMemcpy(dst, src, count, kind));
}

/* CUDA reports an assert once through cudaGetLastError (measured on an H200), then cudaSuccess. */
inline hipError_t cass_hipGetLastError() {
  hipError_t e = hipGetLastError();
  if (cass_device_assert::unreported()) {
    cass_device_assert::unreported() = false;
    return hipErrorAssert;
  }
  return e;
}
inline hipError_t cass_hipPeekAtLastError() {
  return cass_device_assert::unreported() ? hipErrorAssert : hipPeekAtLastError();
}

#endif  // CASS_DEVICE_ASSERT_H
