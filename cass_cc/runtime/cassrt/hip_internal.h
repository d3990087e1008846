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

#endif
