/* cass_stream_compat.h: CUDA 12's stream identity and stream attributes, and event records
 * with flags, which HIP 5.2 lacks (no hipStreamGetId, hipStreamGetDevice,
 * hipStreamGet/SetAttribute or hipEventRecordWithFlags in its libamdhip64). Included by
 * cass_hip_compat.h.
 *
 * The attributes are hints on CUDA (the L2 access-policy window, how a host thread waits for the
 * stream); AMD's runtime has neither, so they are kept per stream here, read back as CUDA reads
 * them, and have no effect on the work. A stream's record goes with cass_hipStreamDestroy, so a
 * new stream at a reused handle gets a new id and the default attributes, as on CUDA. */
#ifndef CASS_STREAM_COMPAT_H
#define CASS_STREAM_COMPAT_H

#include <map>
#include <mutex>

/* cudaSynchronizationPolicy */
enum cass_hipSynchronizationPolicy {
  cass_hipSyncPolicyAuto = 1,
  cass_hipSyncPolicySpin = 2,
  cass_hipSyncPolicyYield = 3,
  cass_hipSyncPolicyBlockingSync = 4
};

/* cudaStreamAttrID (CUDA 12: cudaLaunchAttributeID's values). */
enum cass_hipStreamAttrID {
  cass_hipStreamAttributeAccessPolicyWindow = 1,
  cass_hipStreamAttributeSynchronizationPolicy = 3,
  cass_hipStreamAttributePriority = 8
};

/* cudaStreamAttrValue: CUDA 12's cudaLaunchAttributeValue, 64 bytes. */
union cass_hipStreamAttrValue {
  char pad[64];
  hipAccessPolicyWindow accessPolicyWindow;
  cass_hipSynchronizationPolicy syncPolicy;
  int priority;
};

/* CUDA's legacy default stream is HIP's null stream, which synchronizes with the other blocking
 * streams as CUDA's legacy stream does. */
#define cass_hipStreamLegacy ((hipStream_t)0)

namespace cass_stream_compat {

struct Record {
  unsigned long long id;
  hipAccessPolicyWindow window;
  /* What CUDA 12/13 read back for a policy never set (measured on an H200): not a policy. */
  int sync_policy;
};

inline std::mutex& lock() { static std::mutex m; return m; }
inline std::map<hipStream_t, Record>& records() { static std::map<hipStream_t, Record> r; return r; }
inline unsigned long long next_id() { static unsigned long long id = 16; return ++id; }

/* The record of a stream, made on first use; the per-thread default stream has one per thread.
 * Callers hold lock(). */
inline Record& record(hipStream_t stream) {
  static thread_local Record per_thread{0, {}, -1};
  Record* r;
  if (stream == hipStreamPerThread) {
    r = &per_thread;
  } else {
    auto found = records().find(stream);
    if (found == records().end()) found = records().emplace(stream, Record{0, {}, -1}).first;
    r = &found->second;
  }
  if (r->id == 0) r->id = stream == cass_hipStreamLegacy ? 1 : next_id();
  return *r;
}

}  // namespace cass_stream_compat

inline hipError_t cass_hipStreamGetId(hipStream_t stream, unsigned long long* id) {
  if (id == nullptr) return hipErrorInvalidValue;
  if (stream != cass_hipStreamLegacy && stream != hipStreamPerThread) {
    unsigned flags;   /* an unknown handle fails as on CUDA */
    hipError_t e = hipStreamGetFlags(stream, &flags);
    if (e != hipSuccess) return e;
  }
  std::lock_guard<std::mutex> guard(cass_stream_compat::lock());
  *id = cass_stream_compat::record(stream).id;
  return hipSuccess;
}

/* HIP 5.2 has the stream's device as hipGetStreamDeviceId (-1 for a handle that is no stream);
 * ROCm 5.2 takes the per-thread stream's handle for a pointer there, so that one is asked apart. */
inline hipError_t cass_hipStreamGetDevice(hipStream_t stream, int* device) {
  if (device == nullptr) return hipErrorInvalidValue;
  if (stream == hipStreamPerThread) return hipGetDevice(device);
  int id = hipGetStreamDeviceId(stream);
  if (id < 0) return hipErrorInvalidHandle;
  *device = id;
  return hipSuccess;
}

inline hipError_t cass_hipStreamGetAttribute(hipStream_t stream, cass_hipStreamAttrID attr,
                                             cass_hipStreamAttrValue* value) {
  if (value == nullptr) return hipErrorInvalidValue;
  if (attr == cass_hipStreamAttributePriority) return hipStreamGetPriority(stream, &value->priority);
  std::lock_guard<std::mutex> guard(cass_stream_compat::lock());
  cass_stream_compat::Record& r = cass_stream_compat::record(stream);
  switch (attr) {
    case cass_hipStreamAttributeAccessPolicyWindow: value->accessPolicyWindow = r.window; return hipSuccess;
    case cass_hipStreamAttributeSynchronizationPolicy:
      value->syncPolicy = static_cast<cass_hipSynchronizationPolicy>(r.sync_policy);
      return hipSuccess;
    default: return hipErrorInvalidValue;
  }
}

inline hipError_t cass_hipStreamSetAttribute(hipStream_t stream, cass_hipStreamAttrID attr,
                                             const cass_hipStreamAttrValue* value) {
  if (value == nullptr) return hipErrorInvalidValue;
  std::lock_guard<std::mutex> guard(cass_stream_compat::lock());
  cass_stream_compat::Record& r = cass_stream_compat::record(stream);
  switch (attr) {
    case cass_hipStreamAttributeAccessPolicyWindow:
      if (value->accessPolicyWindow.hitRatio < 0.0f || value->accessPolicyWindow.hitRatio > 1.0f)
        return hipErrorInvalidValue;
      r.window = value->accessPolicyWindow;
      return hipSuccess;
    case cass_hipStreamAttributeSynchronizationPolicy:
      if (value->syncPolicy < cass_hipSyncPolicyAuto || value->syncPolicy > cass_hipSyncPolicyBlockingSync)
        return hipErrorInvalidValue;
      r.sync_policy = value->syncPolicy;
      return hipSuccess;
    default:   /* a priority is fixed when the stream is made, on HIP as on CUDA */
      return hipErrorInvalidValue;
  }
}

inline hipError_t cass_hipStreamCopyAttributes(hipStream_t dst, hipStream_t src) {
  std::lock_guard<std::mutex> guard(cass_stream_compat::lock());
  cass_stream_compat::Record from = cass_stream_compat::record(src);
  cass_stream_compat::Record& to = cass_stream_compat::record(dst);
  to.window = from.window;
  to.sync_policy = from.sync_policy;
  return hipSuccess;
}

inline hipError_t cass_hipStreamDestroy(hipStream_t stream) {
  hipError_t e = hipStreamDestroy(stream);
  if (e == hipSuccess) {
    std::lock_guard<std::mutex> guard(cass_stream_compat::lock());
    cass_stream_compat::records().erase(stream);
  }
  return e;
}

/* cudaEventRecordWithFlags: cudaEventRecordDefault is a plain record; cudaEventRecordExternal
 * only means something inside a graph capture, which HIP 5.2 cannot express. */
#define cass_hipEventRecordDefault 0x0
#define cass_hipEventRecordExternal 0x1
inline hipError_t cass_hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream = 0, unsigned flags = 0) {
  if (flags == cass_hipEventRecordDefault) return hipEventRecord(event, stream);
  if (flags != cass_hipEventRecordExternal) return hipErrorInvalidValue;
  hipStreamCaptureStatus status;
  hipError_t e = hipStreamIsCapturing(stream, &status);
  if (e != hipSuccess) return e;
  /* Outside a capture CUDA ignores the flag; inside one it makes an external event-record node,
   * which HIP 5.2's graphs do not have: fail as CUDA does for an unsupported capture. */
  return status == hipStreamCaptureStatusNone ? hipEventRecord(event, stream) : hipErrorStreamCaptureUnsupported;
}

#endif  // CASS_STREAM_COMPAT_H
