/* Device facts for cudaGetDeviceProperties and cudaDeviceGetAttribute, from HIP's properties. */
#include <string.h>

#include "cassrt.h"
#include "hip_internal.h"

int cassrt_device_info(int device, struct cassrt_device_info *d)
{
    hipDeviceProp_t p;
    hipError_t e = hipGetDeviceProperties(&p, device);
    if (e != hipSuccess)
        return e;
    memset(d, 0, sizeof *d);
    memcpy(d->name, p.name, sizeof d->name);
    d->name[sizeof d->name - 1] = 0;
    memcpy(d->arch, p.gcnArchName, sizeof d->arch);
    d->arch[sizeof d->arch - 1] = 0;
    d->total_global_mem = p.totalGlobalMem;
    d->shared_mem_per_block = p.sharedMemPerBlock;
    d->total_const_mem = p.totalConstMem;
    d->mem_pitch = p.memPitch;
    d->texture_alignment = p.textureAlignment;
    d->texture_pitch_alignment = p.texturePitchAlignment;
    d->shared_mem_per_multiprocessor = p.maxSharedMemoryPerMultiProcessor;
    d->regs_per_block = p.regsPerBlock;
    /* CUDA's warp, whatever the wave: cass-cc's code runs two 32-lane warps in each wave64
       (docs/wave64.md), so CUDA code sizing work by warpSize gets the warps it runs as. */
    d->warp_size = 32;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    memcpy(d->max_threads_dim, p.maxThreadsDim, sizeof d->max_threads_dim);
    memcpy(d->max_grid_size, p.maxGridSize, sizeof d->max_grid_size);
    d->clock_rate_khz = p.clockRate;
    d->memory_clock_rate_khz = p.memoryClockRate;
    d->memory_bus_width = p.memoryBusWidth;
    d->multiprocessor_count = p.multiProcessorCount;
    d->l2_cache_size = p.l2CacheSize;
    d->max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    d->compute_mode = p.computeMode;
    d->concurrent_kernels = p.concurrentKernels;
    d->pci_domain_id = p.pciDomainID;
    d->pci_bus_id = p.pciBusID;
    d->pci_device_id = p.pciDeviceID;
    d->is_multi_gpu_board = p.isMultiGpuBoard;
    d->can_map_host_memory = p.canMapHostMemory;
    d->integrated = p.integrated;
    d->cooperative_launch = p.cooperativeLaunch;
    d->ecc_enabled = p.ECCEnabled;
    d->managed_memory = p.managedMemory;
    d->concurrent_managed_access = p.concurrentManagedAccess;
    d->pageable_memory_access = p.pageableMemoryAccess;
    d->direct_managed_mem_access_from_host = p.directManagedMemAccessFromHost;
    d->max_texture_1d = p.maxTexture1D;
    memcpy(d->max_texture_2d, p.maxTexture2D, sizeof d->max_texture_2d);
    memcpy(d->max_texture_3d, p.maxTexture3D, sizeof d->max_texture_3d);
    if (hipDeviceGetAttribute(&d->memory_pools_supported, hipDeviceAttributeMemoryPoolsSupported, device) != hipSuccess)
        d->memory_pools_supported = 0;
    return hipSuccess;
}

int cassrt_pointer_info(const void *ptr, struct cassrt_pointer_info *info)
{
    hipPointerAttribute_t a;
    hipError_t e = hipPointerGetAttributes(&a, ptr);
    memset(info, 0, sizeof *info);
    if (e == hipErrorInvalidValue) { /* memory HIP does not know: CUDA calls it unregistered */
        info->type = CASSRT_UNREGISTERED;
        info->device = -2;
        return hipSuccess;
    }
    if (e != hipSuccess)
        return e;
    info->type = a.isManaged ? CASSRT_MANAGED
                 : a.memoryType == hipMemoryTypeHost ? CASSRT_HOST : CASSRT_DEVICE;
    info->device = a.device;
    info->device_pointer = a.devicePointer;
    info->host_pointer = a.hostPointer;
    return hipSuccess;
}
