/* Memory functions beyond the one-call ones of passthrough.def: device variables (symbols), 3D
 * pitched memory and memory pools (the unified-memory hints: cuda_managed.c). */
#include <stdlib.h>

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

/* --- 3D pitched memory (cassrt_*_3d in cassrt.h) */
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

/* One side of a 3D copy as pitched memory: an array's packed rows, or the pitched pointer. */
static int copy_side(cudaArray_const_t array, struct cudaPitchedPtr given, struct cudaPitchedPtr *side,
                     size_t *element)
{
    *side = given;
    if (!array)
        return cudaSuccess;
    struct cassrt_array_memory m;
    int e = cassrt_array_memory(array, &m);
    if (e == cudaSuccess) {
        side->ptr = m.base;
        side->pitch = side->xsize = m.pitch;
        side->ysize = m.rows;
        *element = m.element;
    }
    return e;
}

/* A cudaMemcpy3DParms as plain numbers (arrays as their memory): for the copies here and the graph
 * nodes of cuda_graph.c. */
int cassrt_copy_3d_of(const void *cuda_parms, struct cassrt_copy_3d *c)
{
    const struct cudaMemcpy3DParms *p = cuda_parms;
    if (!p)
        return cudaErrorInvalidValue;
    struct cudaPitchedPtr dst, src;
    size_t element = 1;
    if (copy_side(p->dstArray, p->dstPtr, &dst, &element) || copy_side(p->srcArray, p->srcPtr, &src, &element))
        return cudaErrorInvalidValue;
    /* with an array in the copy, the extent and the array's x position count its elements */
    *c = (struct cassrt_copy_3d){dst.ptr, dst.pitch, dst.xsize, dst.ysize, {p->dstPos.x, p->dstPos.y, p->dstPos.z},
                                 src.ptr, src.pitch, src.xsize, src.ysize, {p->srcPos.x, p->srcPos.y, p->srcPos.z},
                                 {p->extent.width * element, p->extent.height, p->extent.depth}, p->kind};
    if (p->srcArray)
        c->src_pos[0] *= element;
    if (p->dstArray)
        c->dst_pos[0] *= element;
    return cudaSuccess;
}

static cudaError_t memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, int async)
{
    struct cassrt_copy_3d c;
    int e = cassrt_copy_3d_of(p, &c);
    if (e == cudaSuccess)
        e = cassrt_memcpy_3d(c.dst, c.dst_pitch, c.dst_xsize, c.dst_ysize, c.dst_pos, c.src, c.src_pitch,
                             c.src_xsize, c.src_ysize, c.src_pos, c.extent, c.kind, stream, async);
    return (cudaError_t)cassrt_result(e);
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

/* Copies between devices' memory: with unified addressing, the 3D copy of the same places with
 * the kind cudaMemcpyDefault (the devices are implied by the pointers and arrays). */
static cudaError_t memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream, int async)
{
    if (!p)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    struct cudaMemcpy3DParms q = {0};
    q.srcArray = p->srcArray;
    q.srcPos = p->srcPos;
    q.srcPtr = p->srcPtr;
    q.dstArray = p->dstArray;
    q.dstPos = p->dstPos;
    q.dstPtr = p->dstPtr;
    q.extent = p->extent;
    q.kind = cudaMemcpyDefault;
    return memcpy_3d(&q, stream, async);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p) { return memcpy_3d_peer(p, 0, 0); }

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return memcpy_3d_peer(p, stream, 1);
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

cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream);

cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
    cudaError_t e = memcpy_3d_peer(p, cudaStreamPerThread, 1);
    return e ? e : cudaStreamSynchronize(cudaStreamPerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return memcpy_3d_peer(p, stream ? stream : cudaStreamPerThread, 1);
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

/* --- Memory pools of stream-ordered allocation. cudaMallocAsync allocates from HIP's own pool,
 * so a pool here is the settings a program gives it: the release threshold and reuse policies
 * are kept and read back (HIP decides when memory goes back), and every pool of a device hands
 * out memory through cudaMallocAsync. Usage statistics are not kept: asking for them is refused. */
#include <stdlib.h>

#define MAX_DEVICES 64

struct CUmemPoolHandle_st {
    int device, owned;
    int reuse[3]; /* cudaMemPoolReuseFollowEventDependencies .. AllowInternalDependencies */
    unsigned long long release_threshold;
};

static struct CUmemPoolHandle_st default_pools[MAX_DEVICES];
static cudaMemPool_t current_pools[MAX_DEVICES];

static cudaError_t pool_device(int device)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return e;
    return device >= 0 && device < count && device < MAX_DEVICES ? cudaSuccess
                                                                 : (cudaError_t)cassrt_result(cudaErrorInvalidDevice);
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    cudaError_t e = pool_device(device);
    if (e != cudaSuccess)
        return e;
    if (!memPool)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    struct CUmemPoolHandle_st *pool = &default_pools[device];
    if (!pool->owned) { /* first use: CUDA's defaults (every reuse policy on, threshold 0) */
        pool->device = device;
        pool->owned = 1;
        pool->reuse[0] = pool->reuse[1] = pool->reuse[2] = 1;
    }
    *memPool = pool;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    cudaError_t e = pool_device(device);
    if (e != cudaSuccess)
        return e;
    if (!current_pools[device])
        return cudaDeviceGetDefaultMemPool(memPool, device);
    if (!memPool)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    *memPool = current_pools[device];
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    cudaError_t e = pool_device(device);
    if (e != cudaSuccess)
        return e;
    if (!memPool || memPool->device != device)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    current_pools[device] = memPool;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    if (!memPool || !poolProps || poolProps->location.type != cudaMemLocationTypeDevice)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    cudaError_t e = pool_device(poolProps->location.id);
    if (e != cudaSuccess)
        return e;
    struct CUmemPoolHandle_st *pool = calloc(1, sizeof *pool);
    if (!pool)
        return (cudaError_t)cassrt_result(cudaErrorMemoryAllocation);
    pool->device = poolProps->location.id;
    pool->reuse[0] = pool->reuse[1] = pool->reuse[2] = 1;
    *memPool = pool;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    if (!memPool)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    if (memPool >= default_pools && memPool < default_pools + MAX_DEVICES)
        return cudaSuccess; /* a device's default pool is not destroyed */
    if (current_pools[memPool->device] == memPool)
        current_pools[memPool->device] = 0;
    free(memPool);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    if (!memPool || !value)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        memPool->reuse[attr - cudaMemPoolReuseFollowEventDependencies] = *(int *)value;
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        memPool->release_threshold = *(unsigned long long *)value;
        return cudaSuccess;
    default: /* the statistics can only be reset, and they are not kept */
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    }
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    if (!memPool || !value)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        *(int *)value = memPool->reuse[attr - cudaMemPoolReuseFollowEventDependencies];
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        *(unsigned long long *)value = memPool->release_threshold;
        return cudaSuccess;
    default:
        cassrt_note_once("cudaMemPoolGetAttribute: memory pool usage statistics are not kept");
        return (cudaError_t)cassrt_result(cudaErrorNotSupported);
    }
}

/* Memory beyond the threshold goes back to the system when HIP's pool decides. */
cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep;
    return memPool ? cudaSuccess : (cudaError_t)cassrt_result(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    if (!memPool)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    return cudaMallocAsync(ptr, size, stream);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream);

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(ptr, size, memPool, stream ? stream : cudaStreamPerThread);
}
