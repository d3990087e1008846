/* Questions a program asks about a kernel by its host address beyond its attributes
 * (cuda_launch.c): its handle, its name, and how much dynamic shared memory its blocks can have
 * when a given number of them must be resident on one multiprocessor. */
#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

/* The kernel's handle, which the runtime's launches and queries take in place of the host stub
 * (cassrt_kernel_of). The driver API's CUkernel is another object: this one is not one. */
cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    struct cassrt_kernel *kernel = cassrt_kernel_of(entryFuncAddr);
    if (!kernelPtr)
        return result(cudaErrorInvalidValue);
    if (!kernel)
        return result(cudaErrorInvalidDeviceFunction);
    *kernelPtr = (cudaKernel_t)kernel;
    return cudaSuccess;
}

/* The name the kernel was registered with: its device symbol (mangled, for C++). */
cudaError_t CUDARTAPI cudaFuncGetName(const char **name, const void *func)
{
    struct cassrt_kernel *kernel = cassrt_kernel_of(func);
    if (!name)
        return result(cudaErrorInvalidValue);
    if (!kernel)    /* what an H200 answers for a host function */
        return result(cudaErrorInvalidResourceHandle);
    *name = cassrt_kernel_name(kernel);
    return cudaSuccess;
}

/* The most dynamic shared memory with which numBlocks blocks of blockSize threads are resident
 * on one multiprocessor at once, within the kernel's per-block limit: the occupancy calculation
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor's) asked for the largest size that still fits,
 * which it answers monotonically. 0 when even no dynamic shared memory leaves room. */
cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                int numBlocks, int blockSize)
{
    struct cassrt_kernel *kernel = cassrt_kernel_of(func);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return result(cudaErrorInvalidValue);
    if (!kernel)
        return result(cudaErrorInvalidDeviceFunction);
    struct cassrt_function_info info;
    int e = cassrt_function_info(kernel, &info);
    size_t low = 0, high = e == cudaSuccess && info.max_dynamic_shared > 0 ? (size_t)info.max_dynamic_shared : 0;
    int blocks = 0;
    if (e == cudaSuccess)
        e = cassrt_occupancy(kernel, blockSize, 0, &blocks);
    if (e != cudaSuccess)
        return result(e);
    if (blocks < numBlocks) {
        *dynamicSmemSize = 0;
        return cudaSuccess;
    }
    while (low < high) {   /* low fits; find the largest size that does */
        size_t mid = low + (high - low + 1) / 2;
        if ((e = cassrt_occupancy(kernel, blockSize, mid, &blocks)) != cudaSuccess)
            return result(e);
        if (blocks >= numBlocks)
            low = mid;
        else
            high = mid - 1;
    }
    *dynamicSmemSize = low;
    return cudaSuccess;
}
