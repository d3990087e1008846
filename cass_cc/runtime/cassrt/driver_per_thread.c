/* The per-thread default stream forms of the driver API's linear copies and sets: what a program
 * compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) calls for
 * cuMemcpy*, cuMemsetD8/16/32 and their Async forms, and what cuGetProcAddress hands out for them
 * with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM.
 *
 * The _ptds forms put the work on the thread's stream and wait for it; the _ptsz forms put work
 * given stream 0 there. driver_pitched.c and driver_array_copies.c have the 2D/3D and array ones.
 */
#include <stdint.h>

#include <cuda.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

/* driver.def's HIP calls (hip_driver.c), for the 16 and 32-bit sets */
#define T_DPTR CUdeviceptr
#define DRV(name, params, args, hip_call) int cassrt_##name params;
#include "driver.def"
#undef DRV

/* cuda.h declares no per-thread forms (its macros only rename calls): declared here. */
CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

static void *pointer(CUdeviceptr p) { return (void *)(uintptr_t)p; }

static cudaStream_t per_thread(CUstream stream) { return stream ? (cudaStream_t)stream : cudaStreamPerThread; }

/* A synchronous call's work on the thread's default stream: waited for. */
static CUresult waited(int hip_error)
{
    return result(hip_error ? hip_error : cassrt_cudaStreamSynchronize(cudaStreamPerThread));
}

/* Unified addressing: every copy is cudaMemcpyDefault, the direction read from the pointers. */
static int copy_async(void *dst, const void *src, size_t n, cudaStream_t stream)
{
    return cassrt_cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream);
}

CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return waited(copy_async(pointer(dst), pointer(src), ByteCount, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return waited(copy_async(pointer(dstDevice), srcHost, ByteCount, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return waited(copy_async(dstHost, pointer(srcDevice), ByteCount, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return waited(copy_async(pointer(dstDevice), pointer(srcDevice), ByteCount, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return result(copy_async(pointer(dst), pointer(src), ByteCount, per_thread(hStream)));
}

CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                           CUstream hStream)
{
    return result(copy_async(pointer(dstDevice), srcHost, ByteCount, per_thread(hStream)));
}

CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return result(copy_async(dstHost, pointer(srcDevice), ByteCount, per_thread(hStream)));
}

CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream)
{
    return result(copy_async(pointer(dstDevice), pointer(srcDevice), ByteCount, per_thread(hStream)));
}

CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return waited(cassrt_cudaMemsetAsync(pointer(dstDevice), uc, N, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return waited(cassrt_cuMemsetD16Async(dstDevice, us, N, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return waited(cassrt_cuMemsetD32Async(dstDevice, ui, N, cudaStreamPerThread));
}

CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    return result(cassrt_cudaMemsetAsync(pointer(dstDevice), uc, N, per_thread(hStream)));
}

CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    return result(cassrt_cuMemsetD16Async(dstDevice, us, N, per_thread(hStream)));
}

CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    return result(cassrt_cuMemsetD32Async(dstDevice, ui, N, per_thread(hStream)));
}
