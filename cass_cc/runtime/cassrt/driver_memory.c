/* The driver API's memory functions: allocations, linear copies and sets, address ranges and
 * arrays, made by the same HIP calls as the runtime's (passthrough.def) or by their own
 * (driver.def); driver_pitched.c has the 2D and 3D copies and sets. A CUdeviceptr is the device
 * address as an integer; a CUarray is the runtime's cudaArray (cuda_texture.c), so arrays made by
 * either API serve both. */
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

/* --- arrays: a CUarray is the runtime's cudaArray (cuda_texture.c) */

_Static_assert(CUDA_ARRAY3D_LAYERED == cudaArrayLayered && CUDA_ARRAY3D_SURFACE_LDST == cudaArraySurfaceLoadStore &&
                   CUDA_ARRAY3D_CUBEMAP == cudaArrayCubemap && CUDA_ARRAY3D_TEXTURE_GATHER == cudaArrayTextureGather,
               "the driver's array flags are the runtime's");
#define ARRAY_FLAGS                                                                                \
    (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER)

/* The runtime's channel format of a CU_AD_FORMAT_* with `channels` channels: bits per channel
 * (x, y, z, w) and cudaChannelFormatKind. */
static CUresult channel_format(CUarray_format format, unsigned int channels, int bits[4], int *kind)
{
    int size;
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: size = 8, *kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: size = 16, *kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: size = 32, *kind = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_SIGNED_INT8: size = 8, *kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: size = 16, *kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: size = 32, *kind = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_HALF: size = 16, *kind = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: size = 32, *kind = cudaChannelFormatKindFloat; break;
    default:
        cassrt_note_once("cuArrayCreate: only the 8, 16 and 32-bit integer, half and float array formats are "
                         "supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (channels != 1 && channels != 2 && channels != 4)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned int i = 0; i < 4; i++)
        bits[i] = i < channels ? size : 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    if (!pHandle || !pAllocateArray)
        return CUDA_ERROR_INVALID_VALUE;
    if (pAllocateArray->Flags & ~ARRAY_FLAGS) {
        cassrt_note_once("cuArray3DCreate: only the layered, surface, cubemap and texture gather flags are supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    int bits[4], kind;
    CUresult e = channel_format(pAllocateArray->Format, pAllocateArray->NumChannels, bits, &kind);
    if (e != CUDA_SUCCESS)
        return e;
    const size_t extent[3] = {pAllocateArray->Width, pAllocateArray->Height, pAllocateArray->Depth};
    return result(cassrt_array_create((void **)pHandle, bits, kind, extent, pAllocateArray->Flags));
}

CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    if (!pAllocateArray)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height, 0, pAllocateArray->Format,
                                 pAllocateArray->NumChannels, 0};
    return cuArray3DCreate(pHandle, &d);
}

CUresult CUDAAPI cuArrayDestroy(CUarray hArray)
{
    return hArray ? result(cassrt_array_destroy(hArray)) : CUDA_ERROR_INVALID_HANDLE;
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
