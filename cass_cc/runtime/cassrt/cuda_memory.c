/* Memory functions beyond the one-call ones of passthrough.def: device variables (symbols) and
 * the unified-memory hints. */
#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t symbol_copy(const void *symbol, void *buf, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, int to_device, cudaStream_t stream, int async)
{
    return (cudaError_t)cassrt_result(
        cassrt_symbol_copy(symbol, buf, count, offset, kind, to_device, stream, async));
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, (void *)src, count, offset, kind, 1, 0, 0);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, dst, count, offset, kind, 0, 0, 0);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, (void *)src, count, offset, kind, 1, stream, 1);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy(symbol, dst, count, offset, kind, 0, stream, 1);
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    size_t size;
    return (cudaError_t)cassrt_result(cassrt_symbol_address(symbol, devPtr, &size));
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol)
{
    void *ptr;
    return (cudaError_t)cassrt_result(cassrt_symbol_address(symbol, &ptr, size));
}

/* Placement hints for managed memory: HIP places it itself, the program's results don't change. */
cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location)
{
    (void)devPtr, (void)count, (void)advice, (void)location;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream)
{
    (void)devPtr, (void)count, (void)location, (void)flags, (void)stream;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    struct cassrt_pointer_info info;
    int e = cassrt_result(cassrt_pointer_info(ptr, &info));
    if (e != cudaSuccess)
        return (cudaError_t)e;
    static const enum cudaMemoryType types[] = {
        [CASSRT_UNREGISTERED] = cudaMemoryTypeUnregistered, [CASSRT_HOST] = cudaMemoryTypeHost,
        [CASSRT_DEVICE] = cudaMemoryTypeDevice, [CASSRT_MANAGED] = cudaMemoryTypeManaged};
    attributes->type = types[info.type];
    if (info.type == CASSRT_UNREGISTERED)
        info.host_pointer = (void *)ptr; /* plain host memory, reached as it is */
    attributes->device = info.device;
    attributes->devicePointer = info.device_pointer;
    attributes->hostPointer = info.host_pointer;
    return cudaSuccess;
}

/* --- 3D pitched memory: cudaMemcpy3DParms and HIP's hipMemcpy3DParms are separate types, so
 * only plain numbers cross to the HIP side (hip_passthrough.c), field by field. */
int cassrt_malloc_3d(void **ptr, size_t *pitch, size_t width, size_t height, size_t depth);
int cassrt_memcpy_3d(void *dst, size_t dst_pitch, size_t dst_xsize, size_t dst_ysize, const size_t dst_pos[3],
                     const void *src, size_t src_pitch, size_t src_xsize, size_t src_ysize,
                     const size_t src_pos[3], const size_t extent[3], int kind, void *stream, int async);
int cassrt_memset_3d(void *ptr, size_t pitch, size_t xsize, size_t ysize, int value, const size_t extent[3],
                     void *stream, int async);

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    void *ptr = 0;
    size_t pitch = 0;
    int e = cassrt_result(cassrt_malloc_3d(&ptr, &pitch, extent.width, extent.height, extent.depth));
    if (e == cudaSuccess) {
        pitchedDevPtr->ptr = ptr;
        pitchedDevPtr->pitch = pitch;
        pitchedDevPtr->xsize = extent.width;
        pitchedDevPtr->ysize = extent.height;
    }
    return (cudaError_t)e;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, int async)
{
    if (!p)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) {
        cassrt_note_once("cudaMemcpy3D with a cudaArray source or destination is not supported");
        return (cudaError_t)cassrt_result(cudaErrorNotSupported);
    }
    const size_t src_pos[3] = {p->srcPos.x, p->srcPos.y, p->srcPos.z};
    const size_t dst_pos[3] = {p->dstPos.x, p->dstPos.y, p->dstPos.z};
    const size_t extent[3] = {p->extent.width, p->extent.height, p->extent.depth};
    return (cudaError_t)cassrt_result(cassrt_memcpy_3d(
        p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.xsize, p->dstPtr.ysize, dst_pos, p->srcPtr.ptr,
        p->srcPtr.pitch, p->srcPtr.xsize, p->srcPtr.ysize, src_pos, extent, p->kind, stream, async));
}

static cudaError_t memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent extent, cudaStream_t stream,
                             int async)
{
    const size_t box[3] = {extent.width, extent.height, extent.depth};
    return (cudaError_t)cassrt_result(cassrt_memset_3d(p.ptr, p.pitch, p.xsize, p.ysize, value, box, stream, async));
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p) { return memcpy_3d(p, 0, 0); }

cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return memcpy_3d(p, stream, 1);
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return memset_3d(pitchedDevPtr, value, extent, 0, 0);
}

cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                        cudaStream_t stream)
{
    return memset_3d(pitchedDevPtr, value, extent, stream, 1);
}

/* The per-thread default stream forms (nvcc -default-stream per-thread renames the calls to them;
 * cuda_per_thread.c has the others): the thread's stream, waited for when the call is synchronous. */
cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t stream);

cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    cudaError_t e = memcpy_3d(p, cudaStreamPerThread, 1);
    return e ? e : cudaStreamSynchronize(cudaStreamPerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return memcpy_3d(p, stream ? stream : cudaStreamPerThread, 1);
}

cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    cudaError_t e = memset_3d(pitchedDevPtr, value, extent, cudaStreamPerThread, 1);
    return e ? e : cudaStreamSynchronize(cudaStreamPerThread);
}

cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t stream)
{
    return memset_3d(pitchedDevPtr, value, extent, stream ? stream : cudaStreamPerThread, 1);
}
