/* passthrough.def's T_* types as CUDA's headers spell them, and the declarations of its HIP-side
 * functions (cassrt_<cuda name>, defined in hip_passthrough.c), for the files compiled against
 * CUDA's headers that call them. */
#ifndef CASSRT_PASSTHROUGH_CUDA_H
#define CASSRT_PASSTHROUGH_CUDA_H

#include <cuda_runtime_api.h>

#define T_STREAM cudaStream_t
#define T_EVENT cudaEvent_t
#define T_CAPTURE_MODE enum cudaStreamCaptureMode
#define T_CAPTURE_STATUS enum cudaStreamCaptureStatus
#define T_GRAPH cudaGraph_t
#define T_GRAPH_EXEC cudaGraphExec_t
#define T_GRAPH_NODE cudaGraphNode_t
#define T_KIND enum cudaMemcpyKind

#define PASS(name, params, args, hip_call) int cassrt_##name params;
#include "passthrough.def"
#undef PASS

#endif
