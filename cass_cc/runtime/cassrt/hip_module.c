/* The HIP side of the driver API's modules: code objects loaded with hipModuleLoadData, their
 * functions and globals, and launches through hipModuleLaunchKernel. */
#include <stdint.h>

#include "cassrt.h"
#include "hip_internal.h"

int cassrt_module_load(const void *code_object, void **module)
{
    return hipModuleLoadData((hipModule_t *)module, code_object);
}

int cassrt_module_unload(void *module) { return hipModuleUnload((hipModule_t)module); }

int cassrt_module_function(void *module, const char *name, void **function)
{
    return hipModuleGetFunction((hipFunction_t *)function, (hipModule_t)module, name);
}

int cassrt_module_global(void *module, const char *name, void **device_ptr, size_t *size)
{
    hipDeviceptr_t dptr;
    size_t bytes = 0;
    hipError_t e = hipModuleGetGlobal(&dptr, &bytes, (hipModule_t)module, name);
    if (e == hipSuccess) {
        *device_ptr = (void *)dptr;
        *size = bytes;
    }
    return e;
}

/* CUDA's `extra` markers (CU_LAUNCH_PARAM_END 0, _BUFFER_POINTER 1, _BUFFER_SIZE 2) in HIP's
 * numbering (END is 3 there); the list is short, so a copy on the stack. */
enum { MAX_EXTRA = 16 };

int cassrt_function_launch(void *function, struct cassrt_dim grid, struct cassrt_dim block,
                           unsigned shared_mem, void *stream, void **params, void **extra)
{
    void *hip_extra[MAX_EXTRA];
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        return hipErrorInvalidConfiguration;
    if (extra) {
        int n = 0;
        for (;; n += 2) {
            if (n + 1 >= MAX_EXTRA)
                return hipErrorInvalidValue;
            uintptr_t marker = (uintptr_t)extra[n];
            if (marker == 0) {
                hip_extra[n] = HIP_LAUNCH_PARAM_END;
                break;
            }
            if (marker == 1)
                hip_extra[n] = HIP_LAUNCH_PARAM_BUFFER_POINTER;
            else if (marker == 2)
                hip_extra[n] = HIP_LAUNCH_PARAM_BUFFER_SIZE;
            else
                return hipErrorInvalidValue;
            hip_extra[n + 1] = extra[n + 1];
        }
        extra = hip_extra;
    }
    return hipModuleLaunchKernel((hipFunction_t)function, grid.x, grid.y, grid.z, block.x, block.y,
                                 block.z, shared_mem, cassrt_hip_stream(stream), params, extra);
}

int cassrt_function_attribute(void *function, int attribute, int *value)
{
    return hipFuncGetAttribute(value, (hipFunction_attribute)attribute, (hipFunction_t)function);
}

int cassrt_function_occupancy(void *function, int block_size, size_t dynamic_shared, int *blocks)
{
    return hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (hipFunction_t)function,
                                                              block_size, dynamic_shared);
}

/* Every block of a cooperative grid must be resident at once (grid-wide barriers wait on each
 * other), so a grid larger than the device holds is refused, as CUDA does. */
int cassrt_cooperative_fits(void *function, struct cassrt_dim grid, struct cassrt_dim block, size_t shared_mem)
{
    int per_cu = 0, cus = 0, device = 0;
    hipError_t e = hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_cu, (hipFunction_t)function, (int)(block.x * block.y * block.z), shared_mem);
    if (e == hipSuccess)
        e = hipGetDevice(&device);
    if (e == hipSuccess)
        e = hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, device);
    if (e == hipSuccess && (unsigned long long)grid.x * grid.y * grid.z > (unsigned long long)per_cu * (unsigned)cus)
        e = hipErrorCooperativeLaunchTooLarge;
    return e;
}
