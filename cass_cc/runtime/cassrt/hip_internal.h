/* Shared by the hip_*.c files (HIP's headers only). */
#ifndef CASSRT_HIP_INTERNAL_H
#define CASSRT_HIP_INTERNAL_H

#include <hip/hip_runtime_api.h>

/* CUDA's special stream handles (cudaStreamLegacy, cudaStreamPerThread) as HIP streams. */
hipStream_t cassrt_hip_stream(void *cuda_stream);

/* The HIP function of a registered kernel, loading its image's code objects on first use. */
hipError_t cassrt_kernel_function(struct cassrt_kernel *kernel, hipFunction_t *fn);

/* The result of a call that waited for the device (a synchronization, a blocking copy): once it
 * succeeds, hipErrorAssert when a kernel's assert() has failed (CASSRT_ASSERT_FLAG). */
hipError_t cassrt_waited(hipError_t e);

/* A kernel run one CUDA warp per 64-lane wave (hip_wave_per_warp.c), or not (wave_per_warp 0). */
struct cassrt_wave_per_warp { int wave_per_warp; unsigned index, offset, flags; };

/* Whether `kernel` of `module` is one (out), or the error reading its mark. */
hipError_t cassrt_wave_per_warp_find(hipModule_t module, const char *kernel, struct cassrt_wave_per_warp *out);

/* The kernel's maximum block size in CUDA threads, from its maximum in lanes. */
int cassrt_wave_per_warp_threads(const struct cassrt_wave_per_warp *w, int lanes);

/* The lanes of a block of `threads` CUDA threads. */
int cassrt_wave_per_warp_lanes(const struct cassrt_wave_per_warp *w, int threads);

/* A launch of one as HIP takes it: the work-group's lanes (in x) and the arguments with CUDA's
 * blockDim (args: CUDA's argument pointers and the shape's; else extra, HIP's markers around a
 * copy of the packed argument buffer with the shape in it). */
struct cassrt_wave_launch {
    unsigned lanes;
    unsigned shape[3];
    void **args;
    void *extra[5];
    unsigned char *buffer;
    size_t size;
};

/* Fills `out` for a launch of `block` (args or extra as the caller got them), or the error such a
 * launch gets (blocks too large, saying why); cassrt_wave_per_warp_release frees it either way. */
hipError_t cassrt_wave_per_warp_prepare(const struct cassrt_wave_per_warp *w, const char *kernel,
                                        struct cassrt_dim block, void **args, void **extra,
                                        struct cassrt_wave_launch *out);
void cassrt_wave_per_warp_release(struct cassrt_wave_launch *l);

/* Launches one: 64 lanes per warp, CUDA's blockDim in its argument (args: CUDA's argument
 * pointers; else extra, in HIP's markers, with a packed argument buffer). */
hipError_t cassrt_wave_per_warp_launch(hipFunction_t fn, const struct cassrt_wave_per_warp *w, const char *kernel,
                                       struct cassrt_dim grid, struct cassrt_dim block, unsigned shared_mem,
                                       hipStream_t stream, void **args, void **extra);

/* The registered kernel's kind (after cassrt_kernel_function has found it). */
const struct cassrt_wave_per_warp *cassrt_kernel_wave_per_warp(const struct cassrt_kernel *kernel);

#endif
