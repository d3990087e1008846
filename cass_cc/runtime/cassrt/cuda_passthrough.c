/* The CUDA runtime functions that map to one HIP call each (passthrough.def). */
#include "cassrt.h"
#include "passthrough_cuda.h"

#define PASS(name, params, args, hip_call)                                                   \
    cudaError_t CUDARTAPI name params { return (cudaError_t)cassrt_result(cassrt_##name args); }
#include "passthrough.def"
