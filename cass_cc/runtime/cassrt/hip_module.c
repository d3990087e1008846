/* The HIP side of the driver API's modules: code objects loaded with hipModuleLoadData, their
 * functions and globals, and launches through hipModuleLaunchKernel. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cassrt.h"
#include "hip_internal.h"

/* The functions looked up here that run one CUDA warp per wave (hip_wave_per_warp.c); the driver
 * API's handles carry only HIP's function, so their kind is found by it. */
struct wave_per_warp_function {
    hipFunction_t function;
    struct cassrt_wave_per_warp kind;
    char *name;
    struct wave_per_warp_function *next;
};
static struct wave_per_warp_function *wave_per_warp_functions;
static pthread_mutex_t wave_per_warp_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct wave_per_warp_function *wave_per_warp_of(hipFunction_t function)
{
    pthread_mutex_lock(&wave_per_warp_lock);
    struct wave_per_warp_function *f = wave_per_warp_functions;
    while (f && f->function != function)
        f = f->next;
    pthread_mutex_unlock(&wave_per_warp_lock);
    return f;
}

int cassrt_module_load(const void *code_object, void **module)
{
    return hipModuleLoadData((hipModule_t *)module, code_object);
}

int cassrt_module_unload(void *module) { return hipModuleUnload((hipModule_t)module); }

int cassrt_module_function(void *module, const char *name, void **function)
{
    hipError_t e = hipModuleGetFunction((hipFunction_t *)function, (hipModule_t)module, name);
    struct cassrt_wave_per_warp kind;
    if (e != hipSuccess || (e = cassrt_wave_per_warp_find((hipModule_t)module, name, &kind)) != hipSuccess)
        return e;
    if (!kind.wave_per_warp || wave_per_warp_of((hipFunction_t)*function))
        return hipSuccess;
    struct wave_per_warp_function *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) {
        free(f);
        return hipErrorOutOfMemory;
    }
    f->function = (hipFunction_t)*function;
    f->kind = kind;
    pthread_mutex_lock(&wave_per_warp_lock);
    f->next = wave_per_warp_functions;
    wave_per_warp_functions = f;
    pthread_mutex_unlock(&wave_per_warp_lock);
    return hipSuccess;
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
    const struct wave_per_warp_function *w = wave_per_warp_of((hipFunction_t)function);
    if (w)
        return cassrt_wave_per_warp_launch((hipFunction_t)function, &w->kind, w->name, grid, block, shared_mem,
                                           cassrt_hip_stream(stream), params, extra);
    return hipModuleLaunchKernel((hipFunction_t)function, grid.x, grid.y, grid.z, block.x, block.y,
                                 block.z, shared_mem, cassrt_hip_stream(stream), params, extra);
}

int cassrt_function_attribute(void *function, int attribute, int *value)
{
    hipError_t e = hipFuncGetAttribute(value, (hipFunction_attribute)attribute, (hipFunction_t)function);
    const struct wave_per_warp_function *w = wave_per_warp_of((hipFunction_t)function);
    if (e == hipSuccess && w && attribute == HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
        *value = cassrt_wave_per_warp_threads(&w->kind, *value);
    return e;
}

int cassrt_function_occupancy(void *function, int block_size, size_t dynamic_shared, int *blocks)
{
    const struct wave_per_warp_function *w = wave_per_warp_of((hipFunction_t)function);
    if (w)
        block_size = cassrt_wave_per_warp_lanes(&w->kind, block_size);
    return hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (hipFunction_t)function,
                                                              block_size, dynamic_shared);
}

/* Every block of a cooperative grid must be resident at once (grid-wide barriers wait on each
 * other), so a grid larger than the device holds is refused, as CUDA does. */
int cassrt_cooperative_fits(struct cassrt_dim grid, int per_cu)
{
    int cus = 0, device = 0;
    hipError_t e = hipGetDevice(&device);
    if (e == hipSuccess)
        e = hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, device);
    if (e == hipSuccess && (unsigned long long)grid.x * grid.y * grid.z > (unsigned long long)per_cu * (unsigned)cus)
        e = hipErrorCooperativeLaunchTooLarge;
    return e;
}
