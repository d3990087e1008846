/* The driver API's 2D and 3D copies (cuMemcpy2D*, cuMemcpy3D*) and 2D sets (cuMemsetD2D*).
 *
 * A copy names each side by a CUmemorytype: host or device (or unified) memory with a pitch, and
 * for 3D a slice height, or an array (cuda_texture.c's packed rows). Each side becomes the
 * address of its first byte, a pitch and a slice height, and the copy is one 3D copy of
 * WidthInBytes x Height x Depth through HIP, the direction read from the pointers as the linear
 * copies do. CUmemorytype is read here only: HIP's hipMemoryType numbers the same kinds otherwise.
 *
 * The _ptds forms run on the thread's default stream and wait for it; the _ptsz forms put work
 * given stream 0 there (CUDA_API_PER_THREAD_DEFAULT_STREAM renames calls to them).
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

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

/* offset + size <= limit, without overflow. */
static int fits(size_t offset, size_t size, size_t limit) { return offset <= limit && size <= limit - offset; }

static CUstream per_thread(CUstream stream) { return stream ? stream : CU_STREAM_PER_THREAD; }

/* A synchronous call's work on the thread's default stream: waited for. */
static CUresult waited(CUresult e) { return e == CUDA_SUCCESS ? cuStreamSynchronize(CU_STREAM_PER_THREAD) : e; }

/* --- copies ---------------------------------------------------------------------------------- */

/* One side of a copy, as CUDA_MEMCPY3D describes it. */
struct side_desc {
    size_t x, y, z, lod;            /* x in bytes */
    CUmemorytype type;
    const void *host;
    CUdeviceptr device;
    CUarray array;
    size_t pitch, height;           /* of host and device memory; 0: not given */
};

/* Where a side's box starts and how its rows and slices follow each other. */
struct side { char *start; size_t pitch, height; };

static CUresult locate(const struct side_desc *d, size_t width, size_t height, size_t depth, struct side *s)
{
    if (d->lod)
        return CUDA_ERROR_INVALID_VALUE;    /* levels belong to mipmapped arrays, never copied this way */
    char *base;
    switch (d->type) {
    case CU_MEMORYTYPE_HOST:
        base = (char *)d->host;
        break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        base = (char *)(uintptr_t)d->device;
        break;
    case CU_MEMORYTYPE_ARRAY: {
        struct cassrt_array_memory m;
        if (!d->array || cassrt_array_memory(d->array, &m) != 0)
            return CUDA_ERROR_INVALID_VALUE;
        /* x counts bytes, and may fall inside an element (NVIDIA copies from that byte: measured
         * on an H200); the box lies inside the array */
        if (!fits(d->x, width, m.pitch) || !fits(d->y, height, m.rows) || !fits(d->z, depth, m.slices))
            return CUDA_ERROR_INVALID_VALUE;
        s->start = m.base + (d->z * m.rows + d->y) * m.pitch + d->x;
        s->pitch = m.pitch;
        s->height = m.rows;
        return CUDA_SUCCESS;
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!base)
        return CUDA_ERROR_INVALID_VALUE;
    /* A pitch or slice height that is given, or that the box needs (more than one row, more than
     * one slice), holds the box's rows (columns x .. x + width) and slices (rows y .. y + height). */
    int rows = height > 1 || depth > 1, slices = depth > 1;
    if ((d->pitch || rows) && !fits(d->x, width, d->pitch))
        return CUDA_ERROR_INVALID_VALUE;
    if ((d->height || slices) && !fits(d->y, height, d->height))
        return CUDA_ERROR_INVALID_VALUE;
    s->start = base + (d->z * d->height + d->y) * d->pitch + d->x;
    s->pitch = rows ? d->pitch : width;     /* HIP's copies want a pitch of at least the width */
    s->height = slices ? d->height : height;
    return CUDA_SUCCESS;
}

static CUresult copy(const struct side_desc *dst, const struct side_desc *src, size_t width, size_t height,
                     size_t depth, CUstream stream, int async)
{
    struct side to, from;
    CUresult e = locate(dst, width, height, depth, &to);
    if (e == CUDA_SUCCESS)
        e = locate(src, width, height, depth, &from);
    if (e != CUDA_SUCCESS || !width || !height || !depth)
        return e;
    static const size_t origin[3] = {0, 0, 0};
    const size_t extent[3] = {width, height, depth};
    return result(cassrt_memcpy_3d(to.start, to.pitch, to.pitch, to.height, origin, from.start, from.pitch,
                                   from.pitch, from.height, origin, extent, cudaMemcpyDefault, stream, async));
}

static CUresult copy_2d(const CUDA_MEMCPY2D *p, CUstream stream, int async)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct side_desc src = {p->srcXInBytes, p->srcY, 0, 0, p->srcMemoryType, p->srcHost, p->srcDevice,
                            p->srcArray, p->srcPitch, 0};
    struct side_desc dst = {p->dstXInBytes, p->dstY, 0, 0, p->dstMemoryType, p->dstHost, p->dstDevice,
                            p->dstArray, p->dstPitch, 0};
    return copy(&dst, &src, p->WidthInBytes, p->Height, 1, stream, async);
}

static CUresult copy_3d(const CUDA_MEMCPY3D *p, CUstream stream, int async)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct side_desc src = {p->srcXInBytes, p->srcY, p->srcZ, p->srcLOD, p->srcMemoryType, p->srcHost,
                            p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight};
    struct side_desc dst = {p->dstXInBytes, p->dstY, p->dstZ, p->dstLOD, p->dstMemoryType, p->dstHost,
                            p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight};
    return copy(&dst, &src, p->WidthInBytes, p->Height, p->Depth, stream, async);
}

/* Every context of a device shares its memory (HIP has one per device), and addresses are
 * unified across devices, so the contexts name nothing the pointers do not. */
static CUresult copy_3d_peer(const CUDA_MEMCPY3D_PEER *p, CUstream stream, int async)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    struct side_desc src = {p->srcXInBytes, p->srcY, p->srcZ, p->srcLOD, p->srcMemoryType, p->srcHost,
                            p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight};
    struct side_desc dst = {p->dstXInBytes, p->dstY, p->dstZ, p->dstLOD, p->dstMemoryType, p->dstHost,
                            p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight};
    return copy(&dst, &src, p->WidthInBytes, p->Height, p->Depth, stream, async);
}

/* Alignment matters to NVIDIA's copy engines only: an unaligned copy is the same copy here. */
CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy) { return copy_2d(pCopy, NULL, 0); }
CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy) { return copy_2d(pCopy, NULL, 0); }
CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy) { return copy_3d(pCopy, NULL, 0); }
CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy) { return copy_3d_peer(pCopy, NULL, 0); }

CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) { return copy_2d(pCopy, hStream, 1); }
CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) { return copy_3d(pCopy, hStream, 1); }

CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, hStream, 1);
}

/* cuda.h declares no per-thread forms (its macros only rename calls): declared here. */
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy);
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);

CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return waited(copy_2d(pCopy, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
    return waited(copy_2d(pCopy, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
    return waited(copy_3d(pCopy, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return waited(copy_3d_peer(pCopy, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, per_thread(hStream), 1);
}

CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy_3d(pCopy, per_thread(hStream), 1);
}

CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy_3d_peer(pCopy, per_thread(hStream), 1);
}

/* --- sets ------------------------------------------------------------------------------------ */

/* Sets `width` values of `size` bytes (1, 2 or 4) in each of `height` rows, `pitch` bytes apart
 * (unused for one row). HIP sets 2D regions bytewise only, so wider values go row by row, or as
 * one run where the rows follow each other without a gap. */
static CUresult set_2d(CUdeviceptr dst, size_t pitch, unsigned int value, size_t size, size_t width, size_t height,
                       CUstream stream, int async)
{
    if (!dst || dst % size || (height > 1 && (pitch % size || width > pitch / size)))
        return CUDA_ERROR_INVALID_VALUE;
    if (!width || !height)
        return CUDA_SUCCESS;
    cudaStream_t s = (cudaStream_t)stream;
    if (size == 1) {
        pitch = height > 1 ? pitch : width;
        void *p = (void *)(uintptr_t)dst;
        return result(async ? cassrt_cudaMemset2DAsync(p, pitch, (int)value, width, height, s)
                            : cassrt_cudaMemset2D(p, pitch, (int)value, width, height));
    }
    if (height == 1 || pitch == width * size) {
        width *= height;
        height = 1;
    }
    for (size_t row = 0; row < height; row++) {
        CUdeviceptr p = dst + row * pitch;
        int e = size == 2 ? (async ? cassrt_cuMemsetD16Async(p, (unsigned short)value, width, s)
                                   : cassrt_cuMemsetD16(p, (unsigned short)value, width))
                          : (async ? cassrt_cuMemsetD32Async(p, value, width, s) : cassrt_cuMemsetD32(p, value, width));
        if (e != 0)
            return result(e);
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
    return set_2d(dstDevice, dstPitch, uc, 1, Width, Height, NULL, 0);
}

CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)
{
    return set_2d(dstDevice, dstPitch, us, 2, Width, Height, NULL, 0);
}

CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
    return set_2d(dstDevice, dstPitch, ui, 4, Width, Height, NULL, 0);
}

CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                   size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, uc, 1, Width, Height, hStream, 1);
}

CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                    size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, us, 2, Width, Height, hStream, 1);
}

CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                    size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, ui, 4, Width, Height, hStream, 1);
}

CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                      size_t Height);
CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                       size_t Height);
CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                       size_t Height);
CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                        size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                         size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                         size_t Height, CUstream hStream);

CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                      size_t Height)
{
    return waited(set_2d(dstDevice, dstPitch, uc, 1, Width, Height, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                       size_t Height)
{
    return waited(set_2d(dstDevice, dstPitch, us, 2, Width, Height, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                       size_t Height)
{
    return waited(set_2d(dstDevice, dstPitch, ui, 4, Width, Height, CU_STREAM_PER_THREAD, 1));
}

CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                        size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, uc, 1, Width, Height, per_thread(hStream), 1);
}

CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                         size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, us, 2, Width, Height, per_thread(hStream), 1);
}

CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                         size_t Height, CUstream hStream)
{
    return set_2d(dstDevice, dstPitch, ui, 4, Width, Height, per_thread(hStream), 1);
}
