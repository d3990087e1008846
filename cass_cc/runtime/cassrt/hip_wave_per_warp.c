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

hipError_t cassrt_wave_per_warp_prepare(const struct cassrt_wave_per_warp *w, const char *kernel,
                                        struct cassrt_dim block, void **args, void **extra,
                                        struct cassrt_wave_launch *out)
{
    memset(out, 0, sizeof *out);
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    out->shape[0] = block.x;
    out->shape[1] = block.y;
    out->shape[2] = block.z;
    out->lanes = LANES_PER_WARP * (unsigned)((threads + WARP - 1) / WARP);
    if (threads > THREADS_MAX && (w->flags & PACKS) && block.y == 1 && block.z == 1) {
        out->shape[0] |= PACKED;     /* one thread of the block spins: two warps to a wave */
        out->lanes = block.x;
    } else if (threads > THREADS_MAX) {
        char note[512];
        snprintf(note, sizeof note, "kernel %s runs one CUDA warp per 64-lane wave on this GPU (its warps "
                 "wait for each other), so its blocks hold at most %d threads%s; this launch asks for %llu",
                 kernel, THREADS_MAX, (w->flags & PACKS) ? " (one-dimensional blocks up to 1024)" : "", threads);
        cassrt_note_once(note);
        return hipErrorInvalidConfiguration;
    }
    if (args || !extra) {       /* a kernel without parameters may come with neither */
        if (!args && w->index > 0)
            return hipErrorInvalidValue;
        out->args = malloc((w->index + 1) * sizeof *out->args);
        if (!out->args)
            return hipErrorOutOfMemory;
        if (w->index > 0)
            memcpy(out->args, args, w->index * sizeof *args);
        out->args[w->index] = out->shape;
        return hipSuccess;
    }
    void *buffer = extra_value(extra, HIP_LAUNCH_PARAM_BUFFER_POINTER);
    size_t *given = extra_value(extra, HIP_LAUNCH_PARAM_BUFFER_SIZE);
    if (!buffer || !given)
        return hipErrorInvalidValue;
    out->size = *given > w->offset + sizeof out->shape ? *given : w->offset + sizeof out->shape;
    out->buffer = calloc(1, out->size);
    if (!out->buffer)
        return hipErrorOutOfMemory;
    memcpy(out->buffer, buffer, *given);
    memcpy(out->buffer + w->offset, out->shape, sizeof out->shape);
    void *markers[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, out->buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &out->size,
                       HIP_LAUNCH_PARAM_END};
    memcpy(out->extra, markers, sizeof markers);
    return hipSuccess;
}

void cassrt_wave_per_warp_release(struct cassrt_wave_launch *l)
{
    free(l->args);
    free(l->buffer);
}

hipError_t cassrt_wave_per_warp_launch(hipFunction_t fn, const struct cassrt_wave_per_warp *w, const char *kernel,
                                       struct cassrt_dim grid, struct cassrt_dim block, unsigned shared_mem,
                                       hipStream_t stream, void **args, void **extra)
{
    struct cassrt_wave_launch l;
    hipError_t e = cassrt_wave_per_warp_prepare(w, kernel, block, args, extra, &l);
    if (e == hipSuccess)
        e = hipModuleLaunchKernel(fn, grid.x, grid.y, grid.z, l.lanes, 1, 1, shared_mem, stream, l.args,
                                  l.args ? NULL : l.extra);
    cassrt_wave_per_warp_release(&l);
    return e;
}
