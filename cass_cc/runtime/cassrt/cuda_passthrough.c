/* The CUDA runtime functions that map to one HIP call each (passthrough.def). */
#include <cuda_runtime_api.h>

#include "cassrt.h"

#define T_STREAM cudaStream_t
#define T_EVENT cudaEvent_t
#define T_CAPTURE_MODE enum cudaStreamCaptureMode
#define T_CAPTURE_STATUS enum cudaStreamCaptureStatus
#define T_GRAPH cudaGraph_t
#define T_GRAPH_EXEC cudaGraphExec_t
#define T_GRAPH_NODE cudaGraphNode_t
#define T_KIND enum cudaMemcpyKind

#define PASS(name, params, args, hip_call)                                                   \
    int cassrt_##name params;                                                                \
    cudaError_t CUDARTAPI name params { return (cudaError_t)cassrt_result(cassrt_##name args); }
#include "passthrough.def"
