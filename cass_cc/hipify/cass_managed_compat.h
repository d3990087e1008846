/* cass_managed_compat.h: unified-memory hints in CUDA 12.2+/13's terms, a cudaMemLocation where
 * HIP 5.2 takes a device ordinal (hipCpuDeviceId for the host), and the range attributes that read
 * a location back as a type and an id. Included by cass_hip_compat.h. */
#ifndef CASS_MANAGED_COMPAT_H
#define CASS_MANAGED_COMPAT_H

/* cudaMemLocationType's host kinds (HIP 5.2 knows only hipMemLocationTypeDevice). */
#define cass_hipMemLocationTypeHost ((hipMemLocationType)2)
#define cass_hipMemLocationTypeHostNuma ((hipMemLocationType)3)
#define cass_hipMemLocationTypeHostNumaCurrent ((hipMemLocationType)4)

/* cudaMemRangeAttribute's location read as a type and an id (CUDA 12.2). */
#define cass_hipMemRangeAttributePreferredLocationType ((hipMemRangeAttribute)5)
#define cass_hipMemRangeAttributePreferredLocationId ((hipMemRangeAttribute)6)
#define cass_hipMemRangeAttributeLastPrefetchLocationType ((hipMemRangeAttribute)7)
#define cass_hipMemRangeAttributeLastPrefetchLocationId ((hipMemRangeAttribute)8)

namespace cass_managed_compat {
/* HIP's device ordinal of a location. ROCm places host memory itself, so a NUMA node named for
 * host memory is not chosen there; the hint still says "the host". */
inline hipError_t device_of(const hipMemLocation& location, int* device) {
  switch (static_cast<int>(location.type)) {
    case hipMemLocationTypeDevice: *device = location.id; return hipSuccess;
    case 2: case 3: case 4: *device = hipCpuDeviceId; return hipSuccess;
    default: return hipErrorInvalidValue;
  }
}
}  // namespace cass_managed_compat

inline hipError_t hipMemAdvise(const void* ptr, size_t count, hipMemoryAdvise advice, hipMemLocation location) {
  int device;
  hipError_t e = cass_managed_compat::device_of(location, &device);
  return e == hipSuccess ? hipMemAdvise(ptr, count, advice, device) : e;
}

/* CUDA 13's form: flags must be 0 (CUDA has none yet). */
inline hipError_t hipMemPrefetchAsync(const void* ptr, size_t count, hipMemLocation location, unsigned flags,
                                      hipStream_t stream = 0) {
  int device;
  hipError_t e = flags ? hipErrorInvalidValue : cass_managed_compat::device_of(location, &device);
  return e == hipSuccess ? hipMemPrefetchAsync(ptr, count, device, stream) : e;
}

/* The type and id attributes, from the ordinal HIP answers (hipInvalidDeviceId: no one location;
 * CUDA ignores a host location's id, 0 here). */
inline hipError_t cass_hipMemRangeGetAttribute(void* data, size_t size, hipMemRangeAttribute attribute,
                                               const void* ptr, size_t count) {
  int kind = static_cast<int>(attribute);
  if (kind < 5 || kind > 8) return hipMemRangeGetAttribute(data, size, attribute, ptr, count);
  if (data == nullptr || size != sizeof(int)) return hipErrorInvalidValue;
  int device = 0;
  hipError_t e = hipMemRangeGetAttribute(&device, sizeof device,
                                         kind <= 6 ? hipMemRangeAttributePreferredLocation
                                                   : hipMemRangeAttributeLastPrefetchLocation, ptr, count);
  if (e != hipSuccess) return e;
  bool type = kind == 5 || kind == 7;
  int value;
  if (device >= 0) value = type ? hipMemLocationTypeDevice : device;
  else if (device == hipCpuDeviceId) value = type ? 2 : 0;
  else value = type ? hipMemLocationTypeInvalid : device;
  *static_cast<int*>(data) = value;
  return hipSuccess;
}

inline hipError_t cass_hipMemRangeGetAttributes(void** data, size_t* sizes, hipMemRangeAttribute* attributes,
                                                size_t number, const void* ptr, size_t count) {
  if (data == nullptr || sizes == nullptr || attributes == nullptr || number == 0) return hipErrorInvalidValue;
  for (size_t i = 0; i < number; ++i) {
    hipError_t e = cass_hipMemRangeGetAttribute(data[i], sizes[i], attributes[i], ptr, count);
    if (e != hipSuccess) return e;
  }
  return hipSuccess;
}

#endif  // CASS_MANAGED_COMPAT_H
