/* The driver API's 1D array copies: cuMemcpyHtoA, AtoH, AtoD, DtoA, AtoA and the async HtoA and
 * AtoH, in their legacy and per-thread-default-stream forms.
 *
 * Each is a one-row 2D copy (driver_pitched.c's cuMemcpy2D*): the array side starts at a byte
 * offset into the array's first row and the copy is ByteCount bytes of that row, so a copy that
 * runs past the row (width * element size bytes) is CUDA_ERROR_INVALID_VALUE, and an offset may
 * fall inside an element, as the 2D copies' x may on NVIDIA's driver. The sync/async and stream
 * behaviour is the 2D copy's: the _ptds forms call cuMemcpy2D_v2_ptds, the _ptsz forms
 * cuMemcpy2DAsync_v2_ptsz.
 */
#include <string.h>

#include <cuda.h>

/* cuda.h declares no per-thread forms (its macros only rename calls): declared here. */
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream);

static CUDA_MEMCPY2D row_copy(size_t bytes)
{
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    p.WidthInBytes = bytes;
    p.Height = 1;
    return p;
}

static CUDA_MEMCPY2D host_to_array(CUarray dst, size_t dst_offset, const void *src, size_t bytes)
{
    CUDA_MEMCPY2D p = row_copy(bytes);
    p.srcMemoryType = CU_MEMORYTYPE_HOST, p.srcHost = src;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY, p.dstArray = dst, p.dstXInBytes = dst_offset;
    return p;
}

static CUDA_MEMCPY2D array_to_host(void *dst, CUarray src, size_t src_offset, size_t bytes)
{
    CUDA_MEMCPY2D p = row_copy(bytes);
    p.dstMemoryType = CU_MEMORYTYPE_HOST, p.dstHost = dst;
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY, p.srcArray = src, p.srcXInBytes = src_offset;
    return p;
}

static CUDA_MEMCPY2D array_to_device(CUdeviceptr dst, CUarray src, size_t src_offset, size_t bytes)
{
    CUDA_MEMCPY2D p = row_copy(bytes);
    p.dstMemoryType = CU_MEMORYTYPE_DEVICE, p.dstDevice = dst;
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY, p.srcArray = src, p.srcXInBytes = src_offset;
    return p;
}

static CUDA_MEMCPY2D device_to_array(CUarray dst, size_t dst_offset, CUdeviceptr src, size_t bytes)
{
    CUDA_MEMCPY2D p = row_copy(bytes);
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE, p.srcDevice = src;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY, p.dstArray = dst, p.dstXInBytes = dst_offset;
    return p;
}

static CUDA_MEMCPY2D array_to_array(CUarray dst, size_t dst_offset, CUarray src, size_t src_offset, size_t bytes)
{
    CUDA_MEMCPY2D p = row_copy(bytes);
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY, p.dstArray = dst, p.dstXInBytes = dst_offset;
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY, p.srcArray = src, p.srcXInBytes = src_offset;
    return p;
}

/* --- legacy default stream ------------------------------------------------------------------- */

CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
    CUDA_MEMCPY2D p = host_to_array(dstArray, dstOffset, srcHost, ByteCount);
    return cuMemcpy2D(&p);
}

CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_host(dstHost, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D(&p);
}

CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_device(dstDevice, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D(&p);
}

CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUDA_MEMCPY2D p = device_to_array(dstArray, dstOffset, srcDevice, ByteCount);
    return cuMemcpy2D(&p);
}

CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_array(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D(&p);
}

CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                   CUstream hStream)
{
    CUDA_MEMCPY2D p = host_to_array(dstArray, dstOffset, srcHost, ByteCount);
    return cuMemcpy2DAsync(&p, hStream);
}

CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                   CUstream hStream)
{
    CUDA_MEMCPY2D p = array_to_host(dstHost, srcArray, srcOffset, ByteCount);
    return cuMemcpy2DAsync(&p, hStream);
}

/* --- per-thread default stream --------------------------------------------------------------- */

CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
    CUDA_MEMCPY2D p = host_to_array(dstArray, dstOffset, srcHost, ByteCount);
    return cuMemcpy2D_v2_ptds(&p);
}

CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_host(dstHost, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D_v2_ptds(&p);
}

CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_device(dstDevice, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D_v2_ptds(&p);
}

CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUDA_MEMCPY2D p = device_to_array(dstArray, dstOffset, srcDevice, ByteCount);
    return cuMemcpy2D_v2_ptds(&p);
}

CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount)
{
    CUDA_MEMCPY2D p = array_to_array(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
    return cuMemcpy2D_v2_ptds(&p);
}

CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                           CUstream hStream)
{
    CUDA_MEMCPY2D p = host_to_array(dstArray, dstOffset, srcHost, ByteCount);
    return cuMemcpy2DAsync_v2_ptsz(&p, hStream);
}

CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream)
{
    CUDA_MEMCPY2D p = array_to_host(dstHost, srcArray, srcOffset, ByteCount);
    return cuMemcpy2DAsync_v2_ptsz(&p, hStream);
}
