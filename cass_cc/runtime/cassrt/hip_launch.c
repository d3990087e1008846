/* Launching registered kernels and the per-kernel queries (attributes, occupancy). */
#include <stdlib.h>
#include <string.h>

#include "cassrt.h"
#include "hip_internal.h"

int cassrt_launch(struct cassrt_kernel *kernel, struct cassrt_dim grid, struct cassrt_dim block,
                  void **args, size_t shared_mem, void *stream)
{
    hipFunction_t fn;
    hipError_t e = cassrt_kernel_function(kernel, &fn);
    if (e != hipSuccess)
        return e;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        return hipErrorInvalidConfiguration;
    const struct cassrt_wave_per_warp *w = cassrt_kernel_wave_per_warp(kernel);
    if (w->wave_per_warp)
        return cassrt_wave_per_warp_launch(fn, w, cassrt_kernel_name(kernel), grid, block, (unsigned)shared_mem,
                                           cassrt_hip_stream(stream), args, NULL);
    /* The code object's metadata declares CUDA's parameter layout, so CUDA's argument pointers
     * go to HIP unchanged. */
    return hipModuleLaunchKernel(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                 (unsigned)shared_mem, cassrt_hip_stream(stream), args, NULL);
}

static hipError_t attribute(int *value, hipFunction_attribute which, hipFunction_t fn)
{
    return hipFuncGetAttribute(value, which, fn);
}

int cassrt_function_info(struct cassrt_kernel *kernel, struct cassrt_function_info *info)
{
    hipFunction_t fn;
    hipError_t e = cassrt_kernel_function(kernel, &fn);
    if (e != hipSuccess)
        return e;
    int shared = 0, konst = 0, local = 0, threads = 0, regs = 0, dynamic = 0;
    if ((e = attribute(&shared, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn)) != hipSuccess ||
        (e = attribute(&konst, HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, fn)) != hipSuccess ||
        (e = attribute(&local, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn)) != hipSuccess ||
        (e = attribute(&threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn)) != hipSuccess ||
        (e = attribute(&regs, HIP_FUNC_ATTRIBUTE_NUM_REGS, fn)) != hipSuccess ||
        (e = attribute(&dynamic, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn)) != hipSuccess)
        return e;
    memset(info, 0, sizeof *info);
    info->shared_size = (size_t)shared;
    info->const_size = (size_t)konst;
    info->local_size = (size_t)local;
    info->max_threads_per_block = cassrt_wave_per_warp_threads(cassrt_kernel_wave_per_warp(kernel), threads);
    info->num_regs = regs;
    info->max_dynamic_shared = dynamic;
    return hipSuccess;
}

int cassrt_occupancy(struct cassrt_kernel *kernel, int block_size, size_t dynamic_shared, int *blocks)
{
    hipFunction_t fn;
    hipError_t e = cassrt_kernel_function(kernel, &fn);
    if (e != hipSuccess)
        return e;
    return hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
        blocks, fn, cassrt_wave_per_warp_lanes(cassrt_kernel_wave_per_warp(kernel), block_size), dynamic_shared);
}

/* Host work in stream order. cudaLaunchHostFunc's function takes only its data (HIP 5.2's
 * library lacks hipLaunchHostFunc); cudaStreamAddCallback's gets the CUDA stream handle and the
 * status as CUDA's code. Both run from a HIP stream callback. */
struct host_call {
    void (*fn)(void *);
    void (*callback)(void *stream, int status, void *data);
    void *stream, *data;
};

static void run_host_call(hipStream_t stream, hipError_t status, void *arg)
{
    struct host_call call = *(struct host_call *)arg;
    (void)stream;
    free(arg);
    if (call.fn)
        call.fn(call.data);
    else
        call.callback(call.stream, (int)status, call.data);
}

static int add_host_call(struct host_call call)
{
    struct host_call *copy = malloc(sizeof *copy);
    if (!copy)
        return hipErrorOutOfMemory;
    *copy = call;
    hipError_t e = hipStreamAddCallback(cassrt_hip_stream(call.stream), run_host_call, copy, 0);
    if (e != hipSuccess)
        free(copy);
    return e;
}

int cassrt_launch_host_func(void *stream, void (*fn)(void *), void *data)
{
    return add_host_call((struct host_call){fn, NULL, stream, data});
}

int cassrt_stream_add_callback(void *stream, void (*callback)(void *stream, int status, void *data), void *data)
{
    return add_host_call((struct host_call){NULL, callback, stream, data});
}
