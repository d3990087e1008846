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
