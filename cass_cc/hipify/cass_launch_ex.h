/* cass_launch_ex.h: CUDA 12's cudaLaunchKernelEx (and cudaLaunchKernelExC) with its launch
 * attributes, which HIP 5.2 lacks, as hipLaunchKernel or hipLaunchCooperativeKernel. Included by
 * cass_hip_compat.h.
 *
 * Attributes that only allow the runtime something (programmatic stream serialization lets a
 * grid start before the previous one ends) or only hint (access-policy window, synchronization
 * policy, priority, memory-sync domains) are honoured by running the launch as a plain one, as
 * CUDA may. Those whose meaning AMD's runtime cannot keep (a thread-block cluster larger than one
 * block, programmatic events) make the launch fail with hipErrorNotSupported. */
#ifndef CASS_LAUNCH_EX_H
#define CASS_LAUNCH_EX_H

#include <tuple>
#include <utility>

/* cudaLaunchAttributeID of CUDA 12 */
enum cass_hipLaunchAttributeID {
  cass_hipLaunchAttributeIgnore = 0,
  cass_hipLaunchAttributeAccessPolicyWindow = 1,
  cass_hipLaunchAttributeCooperative = 2,
  cass_hipLaunchAttributeSynchronizationPolicy = 3,
  cass_hipLaunchAttributeClusterDimension = 4,
  cass_hipLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cass_hipLaunchAttributeProgrammaticStreamSerialization = 6,
  cass_hipLaunchAttributeProgrammaticEvent = 7,
  cass_hipLaunchAttributePriority = 8,
  cass_hipLaunchAttributeMemSyncDomainMap = 9,
  cass_hipLaunchAttributeMemSyncDomain = 10
};

/* cudaLaunchAttributeValue: CUDA 12's union, 64 bytes. */
union cass_hipLaunchAttributeValue {
  char pad[64];
  hipAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int syncPolicy;
  struct { unsigned x, y, z; } clusterDim;
  int clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  struct { hipEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
  int priority;
  struct { unsigned char default_, remote; } memSyncDomainMap;
  int memSyncDomain;
};

/* cudaLaunchAttribute: the id padded to 8 bytes, then the value. */
struct cass_hipLaunchAttribute {
  cass_hipLaunchAttributeID id;
  char pad[8 - sizeof(cass_hipLaunchAttributeID)];
  cass_hipLaunchAttributeValue val;
};

/* cudaLaunchConfig_t */
struct cass_hipLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  hipStream_t stream;
  cass_hipLaunchAttribute* attrs;
  unsigned int numAttrs;
};

inline hipError_t cass_hipLaunchKernelExC(const cass_hipLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr || func == nullptr || (config->numAttrs && config->attrs == nullptr))
    return hipErrorInvalidValue;
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cass_hipLaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case cass_hipLaunchAttributeCooperative: cooperative = a.val.cooperative != 0; break;
      case cass_hipLaunchAttributeClusterDimension:
        if (a.val.clusterDim.x * a.val.clusterDim.y * a.val.clusterDim.z > 1) return hipErrorNotSupported;
        break;
      case cass_hipLaunchAttributeIgnore:
      case cass_hipLaunchAttributeAccessPolicyWindow:
      case cass_hipLaunchAttributeSynchronizationPolicy:
      case cass_hipLaunchAttributeClusterSchedulingPolicyPreference:
      case cass_hipLaunchAttributeProgrammaticStreamSerialization:
      case cass_hipLaunchAttributePriority:
      case cass_hipLaunchAttributeMemSyncDomainMap:
      case cass_hipLaunchAttributeMemSyncDomain:
        break;
      default: return hipErrorNotSupported;
    }
  }
  if (cooperative)
    return hipLaunchCooperativeKernel(func, config->gridDim, config->blockDim, args,
                                      static_cast<unsigned>(config->dynamicSmemBytes), config->stream);
  return hipLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}

namespace cass_launch_ex {
/* std::index_sequence, which C++11 lacks (nvcc's -std=c++11 builds include this header too). */
template <size_t... _CassI> struct indices {};
template <size_t _CassN, size_t... _CassI> struct make_indices : make_indices<_CassN - 1, _CassN - 1, _CassI...> {};
template <size_t... _CassI> struct make_indices<0, _CassI...> { using type = indices<_CassI...>; };

template <typename _CassTuple, size_t... _CassI>
inline hipError_t launch(const cass_hipLaunchConfig_t* config, const void* func, _CassTuple& values,
                         indices<_CassI...>) {
  void* args[] = {static_cast<void*>(&std::get<_CassI>(values))..., nullptr};
  return cass_hipLaunchKernelExC(config, func, args);
}
}  // namespace cass_launch_ex

/* The C++ form: each argument converted to its parameter's type, as a <<<>>> launch does. */
template <typename... _CassParams, typename... _CassArgs>
inline hipError_t cass_hipLaunchKernelEx(const cass_hipLaunchConfig_t* config, void (*kernel)(_CassParams...),
                                         _CassArgs&&... args) {
  static_assert(sizeof...(_CassParams) == sizeof...(_CassArgs), "cudaLaunchKernelEx: wrong number of kernel arguments");
  std::tuple<typename std::decay<_CassParams>::type...> values(std::forward<_CassArgs>(args)...);
  return cass_launch_ex::launch(config, reinterpret_cast<const void*>(kernel), values,
                                typename cass_launch_ex::make_indices<sizeof...(_CassParams)>::type{});
}

#if defined(__HIP__)
/* Programmatic dependent launch, device side: every launch runs after the previous grid in its
 * stream has ended (above), so there is nothing to wait for and nothing to signal early. */
__device__ inline void cass_hipGridDependencySynchronize() {}
__device__ inline void cass_hipTriggerProgrammaticLaunchCompletion() {}
#endif

#endif  // CASS_LAUNCH_EX_H
