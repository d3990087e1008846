/* The driver API's stream-ordered calls beyond driver_device.c's streams and events: host
 * functions and callbacks, event records with flags, stream queries, stream-ordered allocation,
 * managed-memory attachment and prefetch, peer copies; and the per-thread default stream forms of
 * these and of driver_device.c's, which a program compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM
 * (nvcc --default-stream per-thread) calls, and which cuGetProcAddress hands out to NVIDIA's static
 * runtime in such a program.
 *
 * CUstream is the runtime's cudaStream_t, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are
 * cudaStreamLegacy and cudaStreamPerThread, and the flags have the runtime's values, so each call
 * is the runtime's HIP call (passthrough.def) or libcassrt's own stream machinery.
 */
#include <stdint.h>

#include <cuda.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

static void *pointer(CUdeviceptr p) { return (void *)(uintptr_t)p; }

static CUstream per_thread(CUstream stream) { return stream ? stream : CU_STREAM_PER_THREAD; }

CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority)
{
    return result(cassrt_cudaStreamGetPriority((cudaStream_t)hStream, priority));
}

CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    return result(cassrt_cudaStreamGetFlags((cudaStream_t)hStream, flags));
}

CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return result(cassrt_cudaEventRecordWithFlags((cudaEvent_t)hEvent, (cudaStream_t)hStream, flags));
}

CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    return result(cassrt_launch_host_func(hStream, fn, userData));
}

/* CUstreamCallback is called as cudaStreamCallback_t is: (stream, status, data); flags must be 0. */
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    return result(cassrt_stream_add_callback(hStream, (void (*)(void *, int, void *))callback, userData));
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    void *p = 0;
    CUresult e = result(cassrt_cudaMallocAsync(&p, bytesize, (cudaStream_t)hStream));
    if (e == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return e;
}

CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    return result(cassrt_cudaFreeAsync(pointer(dptr), (cudaStream_t)hStream));
}

CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    return result(cassrt_cudaStreamAttachMemAsync((cudaStream_t)hStream, pointer(dptr), length, flags));
}

/* A placement hint, as cudaMemPrefetchAsync (cuda_memory.c): HIP places managed memory itself
 * and the program's results do not depend on where it is. */
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                    CUstream hStream)
{
    (void)devPtr, (void)count, (void)location, (void)flags, (void)hStream;
    return CUDA_SUCCESS;
}

/* A context names a device here (driver_device.c) and addresses are unified, so a peer copy is a
 * copy whose direction and devices the pointers tell. */
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    (void)dstContext, (void)srcContext;
    return result(cassrt_cudaMemcpyAsync(pointer(dstDevice), pointer(srcDevice), ByteCount, cudaMemcpyDefault,
                                         (cudaStream_t)hStream));
}

CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                              CUcontext srcContext, size_t ByteCount)
{
    CUresult e = cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_LEGACY);
    return e == CUDA_SUCCESS ? cuStreamSynchronize(CU_STREAM_LEGACY) : e;
}

/* --- per-thread default stream forms. cuda.h declares none of them (its macros only rename
 * calls), so each is declared as it is defined. A _ptsz form is the plain call with stream 0
 * (the legacy default stream there) standing for the calling thread's stream; the parameter that
 * holds the stream is hStream in every one. */
#define PER_THREAD_STREAM(name, params, args) \
    CUresult CUDAAPI name##_ptsz params;      \
    CUresult CUDAAPI name##_ptsz params       \
    {                                         \
        hStream = per_thread(hStream);        \
        return name args;                     \
    }

PER_THREAD_STREAM(cuStreamSynchronize, (CUstream hStream), (hStream))
PER_THREAD_STREAM(cuStreamQuery, (CUstream hStream), (hStream))
PER_THREAD_STREAM(cuStreamWaitEvent, (CUstream hStream, CUevent hEvent, unsigned int Flags), (hStream, hEvent, Flags))
PER_THREAD_STREAM(cuStreamGetPriority, (CUstream hStream, int *priority), (hStream, priority))
PER_THREAD_STREAM(cuStreamGetFlags, (CUstream hStream, unsigned int *flags), (hStream, flags))
PER_THREAD_STREAM(cuEventRecord, (CUevent hEvent, CUstream hStream), (hEvent, hStream))
PER_THREAD_STREAM(cuEventRecordWithFlags, (CUevent hEvent, CUstream hStream, unsigned int flags),
                  (hEvent, hStream, flags))
PER_THREAD_STREAM(cuLaunchHostFunc, (CUstream hStream, CUhostFn fn, void *userData), (hStream, fn, userData))
PER_THREAD_STREAM(cuStreamAddCallback, (CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags),
                  (hStream, callback, userData, flags))
PER_THREAD_STREAM(cuMemAllocAsync, (CUdeviceptr *dptr, size_t bytesize, CUstream hStream), (dptr, bytesize, hStream))
PER_THREAD_STREAM(cuMemFreeAsync, (CUdeviceptr dptr, CUstream hStream), (dptr, hStream))
PER_THREAD_STREAM(cuStreamAttachMemAsync, (CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags),
                  (hStream, dptr, length, flags))
PER_THREAD_STREAM(cuMemPrefetchAsync_v2,
                  (CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream),
                  (devPtr, count, location, flags, hStream))
PER_THREAD_STREAM(cuMemcpyPeerAsync,
                  (CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                   size_t ByteCount, CUstream hStream),
                  (dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream))

/* The synchronous peer copy: on the thread's stream, waited for. */
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount);
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount)
{
    CUresult e = cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_PER_THREAD);
    return e == CUDA_SUCCESS ? cuStreamSynchronize(CU_STREAM_PER_THREAD) : e;
}
