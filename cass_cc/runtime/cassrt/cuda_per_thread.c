/* The per-thread default stream forms (_ptds/_ptsz) that nvcc -default-stream per-thread calls.
 *
 * With CUDA_API_PER_THREAD_DEFAULT_STREAM, CUDA's headers rename cudaMemcpy to cudaMemcpy_ptds
 * and so on, so the functions below, written with the plain names, define the per-thread forms
 * (type-checked against their declarations). Stream 0 means the calling thread's stream here;
 * the work goes to the HIP calls behind passthrough.def on that stream.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda_runtime_api.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

static cudaStream_t per_thread(cudaStream_t stream) { return stream ? stream : cudaStreamPerThread; }

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

/* A synchronous copy: the asynchronous one on the thread's stream, then wait for that stream. */
static cudaError_t finish(int e) { return result(e ? e : cassrt_cudaStreamSynchronize(cudaStreamPerThread)); }

cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return finish(cassrt_cudaMemcpyAsync(dst, src, count, kind, cudaStreamPerThread));
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    return result(cassrt_cudaMemcpyAsync(dst, src, count, kind, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind)
{
    return finish(cassrt_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, cudaStreamPerThread));
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return result(cassrt_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count)
{
    return finish(cassrt_cudaMemsetAsync(devPtr, value, count, cudaStreamPerThread));
}

cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return result(cassrt_cudaMemsetAsync(devPtr, value, count, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return finish(cassrt_cudaMemset2DAsync(devPtr, pitch, value, width, height, cudaStreamPerThread));
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream)
{
    return result(cassrt_cudaMemset2DAsync(devPtr, pitch, value, width, height, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
    return finish(cassrt_symbol_copy(symbol, (void *)src, count, offset, kind, 1, cudaStreamPerThread, 1));
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    return finish(cassrt_symbol_copy(symbol, dst, count, offset, kind, 0, cudaStreamPerThread, 1));
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return result(cassrt_symbol_copy(symbol, (void *)src, count, offset, kind, 1, per_thread(stream), 1));
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return result(cassrt_symbol_copy(symbol, dst, count, offset, kind, 0, per_thread(stream), 1));
}

cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    return result(cassrt_cudaMallocAsync(devPtr, size, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    return result(cassrt_cudaFreeAsync(devPtr, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream)
{
    struct cassrt_dim g = {gridDim.x, gridDim.y, gridDim.z}, b = {blockDim.x, blockDim.y, blockDim.z};
    return result(cassrt_launch(cassrt_kernel_of(func), g, b, args, sharedMem, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return result(cassrt_launch_host_func(per_thread(stream), fn, userData));
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags)
{
    if (flags != 0)
        return result(cudaErrorInvalidValue);
    return result(cassrt_stream_add_callback(per_thread(stream), (void (*)(void *, int, void *))callback, userData));
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream)
{
    return result(cassrt_cudaStreamSynchronize(per_thread(stream)));
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) { return result(cassrt_cudaStreamQuery(per_thread(stream))); }

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return result(cassrt_cudaStreamWaitEvent(per_thread(stream), event, flags));
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    return result(cassrt_cudaStreamGetFlags(per_thread(stream), flags));
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    return result(cassrt_cudaStreamGetPriority(per_thread(stream), priority));
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return result(cassrt_cudaEventRecord(event, per_thread(stream)));
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return result(cassrt_cudaEventRecordWithFlags(event, per_thread(stream), flags));
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    return result(cassrt_cudaStreamAttachMemAsync(per_thread(stream), devPtr, length, flags));
}

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return result(cassrt_cudaStreamBeginCapture(per_thread(stream), mode));
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    return result(cassrt_cudaStreamEndCapture(per_thread(stream), pGraph));
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    return result(cassrt_cudaStreamIsCapturing(per_thread(stream), pCaptureStatus));
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return result(cassrt_cudaGraphLaunch(graphExec, per_thread(stream)));
}
