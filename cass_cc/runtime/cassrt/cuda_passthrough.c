/* The CUDA runtime functions that map to one HIP call each (passthrough.def). */
#include <cuda_runtime_api.h>

#include "cassrt.h"

#define T_STREAM cudaStream_t
#define T_EVENT cudaEvent_t
#define T_KIND enum cudaMemcpyKind

#define PASS(name, params, args, hip_call)                                                   \
    int cassrt_##name params;                                                                \
    cudaError_t CUDARTAPI name params { return (cudaError_t)cassrt_result(cassrt_##name args); }
#include "passthrough.def"
