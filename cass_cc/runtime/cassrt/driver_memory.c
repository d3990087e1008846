/* The driver API's memory functions: allocations, copies, sets and address ranges, made by the
 * same HIP calls as the runtime's (passthrough.def) or by their own (driver.def). A CUdeviceptr is
 * the device address as an integer; a CUarray is the runtime's cudaArray (cuda_texture.c), so
 * arrays made by either API serve both. */
#include <stdint.h>

#include <cuda.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

#define T_DPTR CUdeviceptr
#define DRV(name, params, args, hip_call)                                                   \
    int cassrt_##name params;                                                               \
    CUresult CUDAAPI name params { return (CUresult)cassrt_driver_result(cassrt_##name args); }
#include "driver.def"
#undef DRV

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

static void *pointer(CUdeviceptr p) { return (void *)(uintptr_t)p; }

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    return result(cassrt_cudaMalloc((void **)dptr, bytesize));
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) { return result(cassrt_cudaFree(pointer(dptr))); }

CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                 unsigned int ElementSizeBytes)
{
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)
        return CUDA_ERROR_INVALID_VALUE;
    return result(cassrt_cudaMallocPitch((void **)dptr, pPitch, WidthInBytes, Height));
}

/* CU_MEMHOSTALLOC_* and CU_MEM_ATTACH_* have the values of the runtime's cudaHostAlloc* and
 * cudaMemAttach* flags, which HIP takes as they are. */
CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize) { return result(cassrt_cudaMallocHost(pp, bytesize)); }

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    return result(cassrt_cudaHostAlloc(pp, bytesize, Flags));
}

CUresult CUDAAPI cuMemFreeHost(void *p) { return result(cassrt_cudaFreeHost(p)); }

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    return result(cassrt_cudaMallocManaged((void **)dptr, bytesize, flags));
}

CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return result(cassrt_cudaHostRegister(p, bytesize, Flags));
}

CUresult CUDAAPI cuMemHostUnregister(void *p) { return result(cassrt_cudaHostUnregister(p)); }

CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    return result(cassrt_cudaHostGetDevicePointer((void **)pdptr, p, Flags));
}

CUresult CUDAAPI cuMemGetInfo(size_t *free, size_t *total) { return result(cassrt_cudaMemGetInfo(free, total)); }

/* Unified addressing: every copy is cudaMemcpyDefault, the direction read from the pointers. */
static CUresult copy(void *dst, const void *src, size_t n) { return result(cassrt_cudaMemcpy(dst, src, n, cudaMemcpyDefault)); }

static CUresult copy_async(void *dst, const void *src, size_t n, CUstream stream)
{
    return result(cassrt_cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, (cudaStream_t)stream));
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copy(pointer(dst), pointer(src), n); }
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) { return copy(pointer(dst), src, n); }
CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) { return copy(dst, pointer(src), n); }
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copy(pointer(dst), pointer(src), n); }

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream)
{
    return copy_async(pointer(dst), pointer(src), n, stream);
}

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream stream)
{
    return copy_async(pointer(dst), src, n, stream);
}

CUresult CUDAAPI cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream stream)
{
    return copy_async(dst, pointer(src), n, stream);
}

CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream)
{
    return copy_async(pointer(dst), pointer(src), n, stream);
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n)
{
    return result(cassrt_cudaMemset(pointer(dst), value, n));
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream)
{
    return result(cassrt_cudaMemsetAsync(pointer(dst), value, n, (cudaStream_t)stream));
}

/* The driver's array format for a runtime channel description: CU_AD_FORMAT_* by kind and bits. */
static CUresult array_format(const struct cudaChannelFormatDesc *d, CUarray_format *format, unsigned int *channels)
{
    int bits = d->x;
    *channels = (d->x > 0) + (d->y > 0) + (d->z > 0) + (d->w > 0);
    switch (d->f) {
    case cudaChannelFormatKindUnsigned:
        *format = bits == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                                                                      : CU_AD_FORMAT_UNSIGNED_INT32;
        break;
    case cudaChannelFormatKindSigned:
        *format = bits == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_SIGNED_INT16
                                                                    : CU_AD_FORMAT_SIGNED_INT32;
        break;
    case cudaChannelFormatKindFloat:
        *format = bits == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
        break;
    default:
        cassrt_note_once("cuArrayGetDescriptor: the array's channel format has no CU_AD_FORMAT");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return (bits == 8 || bits == 16 || bits == 32) ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    struct cudaChannelFormatDesc desc;
    struct cudaExtent extent;
    unsigned int flags;
    if (!pArrayDescriptor || !hArray || cudaArrayGetInfo(&desc, &extent, &flags, (cudaArray_t)hArray) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult e = array_format(&desc, &pArrayDescriptor->Format, &pArrayDescriptor->NumChannels);
    pArrayDescriptor->Width = extent.width;
    pArrayDescriptor->Height = extent.height;
    pArrayDescriptor->Depth = extent.depth;
    pArrayDescriptor->Flags = flags;
    return e;
}

CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    if (!pArrayDescriptor)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = cuArray3DGetDescriptor(&d, hArray);
    if (e == CUDA_SUCCESS && d.Depth)
        return CUDA_ERROR_INVALID_VALUE;   /* a 3D array: as CUDA's, this call is for 1D and 2D ones */
    pArrayDescriptor->Width = d.Width;
    pArrayDescriptor->Height = d.Height;
    pArrayDescriptor->Format = d.Format;
    pArrayDescriptor->NumChannels = d.NumChannels;
    return e;
}
