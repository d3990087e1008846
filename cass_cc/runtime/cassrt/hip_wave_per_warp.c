/* Kernels run one CUDA warp per 64-lane wave (passes/lift/warp_model.py): on wave64, where two
 * warps share a wave, warps that wait for each other (a barrier one arrives at while another
 * waits, a spin lock taken by one lane of each warp) would wait forever, so the lifter gives each
 * warp a wave of its own, in lanes 0-31. Such a code object defines "__cass_wave_per_warp.<kernel>"
 * (cass_cc/rdna3/code_object.py): two u32, the index of the kernel's blockDim argument among its
 * explicit arguments and its offset, and flags (older code objects have two u32, no flags). A
 * launch gives the kernel 64 lanes per warp in a one-dimensional work-group and CUDA's blockDim
 * in that argument, from which it computes threadIdx; blocks hold at most 512 threads (1024
 * lanes). A kernel flagged PACKS (its only waits are spin loops that threadIdx.x == 0 alone
 * reaches: one thread of a one-dimensional block spins) runs a one-dimensional block of more
 * threads two warps to a wave: CUDA's block as the work-group, PACKED set in blockDim.x. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cassrt.h"
#include "hip_internal.h"

#define PREFIX "__cass_wave_per_warp."
enum { LANES_PER_WARP = 64, WARP = 32, THREADS_MAX = 512, PACKS = 1 };
#define PACKED 0x80000000u

hipError_t cassrt_wave_per_warp_find(hipModule_t module, const char *kernel, struct cassrt_wave_per_warp *out)
{
    memset(out, 0, sizeof *out);
    size_t length = strlen(PREFIX) + strlen(kernel) + 1;
    char *name = malloc(length);
    if (!name)
        return hipErrorOutOfMemory;
    snprintf(name, length, PREFIX "%s", kernel);
    hipDeviceptr_t mark;
    size_t size = 0;
    hipError_t found = hipModuleGetGlobal(&mark, &size, module, name);
    free(name);
    if (found != hipSuccess || (size != 2 * sizeof(unsigned) && size != 3 * sizeof(unsigned)))
        return hipSuccess;      /* a kernel of the usual kind */
    unsigned words[3] = {0, 0, 0};
    hipError_t e = hipMemcpyDtoH(words, mark, size);
    if (e != hipSuccess)
        return e;
    out->wave_per_warp = 1;
    out->index = words[0];
    out->offset = words[1];
    out->flags = words[2];
    return hipSuccess;
}

int cassrt_wave_per_warp_threads(const struct cassrt_wave_per_warp *w, int lanes)
{
    return w->wave_per_warp ? lanes / 2 : lanes;
}

int cassrt_wave_per_warp_lanes(const struct cassrt_wave_per_warp *w, int threads)
{
    return w->wave_per_warp ? LANES_PER_WARP * ((threads + WARP - 1) / WARP) : threads;
}

static void *extra_value(void **extra, void *marker)
{
    for (int n = 0; extra[n] != HIP_LAUNCH_PARAM_END; n += 2)
        if (extra[n] == marker)
            return extra[n + 1];
    return NULL;
}

hipError_t cassrt_wave_per_warp_launch(hipFunction_t fn, const struct cassrt_wave_per_warp *w, const char *kernel,
                                       struct cassrt_dim grid, struct cassrt_dim block, unsigned shared_mem,
                                       hipStream_t stream, void **args, void **extra)
{
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    unsigned shape[3] = {block.x, block.y, block.z};
    unsigned lanes = LANES_PER_WARP * (unsigned)((threads + WARP - 1) / WARP);
    if (threads > THREADS_MAX && (w->flags & PACKS) && block.y == 1 && block.z == 1) {
        shape[0] |= PACKED;     /* one thread of the block spins: two warps to a wave */
        lanes = block.x;
    } else if (threads > THREADS_MAX) {
        char note[512];
        snprintf(note, sizeof note, "kernel %s runs one CUDA warp per 64-lane wave on this GPU (its warps "
                 "wait for each other), so its blocks hold at most %d threads%s; this launch asks for %llu",
                 kernel, THREADS_MAX, (w->flags & PACKS) ? " (one-dimensional blocks up to 1024)" : "", threads);
        cassrt_note_once(note);
        return hipErrorInvalidConfiguration;
    }
    hipError_t e;
    if (args || !extra) {       /* a kernel without parameters may come with neither */
        if (!args && w->index > 0)
            return hipErrorInvalidValue;
        void **with_shape = malloc((w->index + 1) * sizeof *with_shape);
        if (!with_shape)
            return hipErrorOutOfMemory;
        if (w->index > 0)
            memcpy(with_shape, args, w->index * sizeof *args);
        with_shape[w->index] = shape;
        e = hipModuleLaunchKernel(fn, grid.x, grid.y, grid.z, lanes, 1, 1, shared_mem, stream, with_shape, NULL);
        free(with_shape);
        return e;
    }
    void *buffer = extra ? extra_value(extra, HIP_LAUNCH_PARAM_BUFFER_POINTER) : NULL;
    size_t *given = extra ? extra_value(extra, HIP_LAUNCH_PARAM_BUFFER_SIZE) : NULL;
    if (!buffer || !given)
        return hipErrorInvalidValue;
    size_t size = *given > w->offset + sizeof shape ? *given : w->offset + sizeof shape;
    unsigned char *copy = calloc(1, size);
    if (!copy)
        return hipErrorOutOfMemory;
    memcpy(copy, buffer, *given);
    memcpy(copy + w->offset, shape, sizeof shape);
    void *with_shape[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, copy, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                          HIP_LAUNCH_PARAM_END};
    e = hipModuleLaunchKernel(fn, grid.x, grid.y, grid.z, lanes, 1, 1, shared_mem, stream, NULL, with_shape);
    free(copy);
    return e;
}
