/* The HIP calls behind the CUDA functions of passthrough.def. */
#include <hip/hip_runtime_api.h>

#include "cassrt.h"
#include "hip_internal.h"

#define T_STREAM hipStream_t
#define T_EVENT hipEvent_t
#define T_CAPTURE_MODE hipStreamCaptureMode
#define T_CAPTURE_STATUS hipStreamCaptureStatus
#define T_GRAPH hipGraph_t
#define T_GRAPH_EXEC hipGraphExec_t
#define T_GRAPH_NODE hipGraphNode_t
#define T_KIND hipMemcpyKind
#define STREAM(s) cassrt_hip_stream(s)

#define PASS(name, params, args, hip_call) \
    int cassrt_##name params;              \
    int cassrt_##name params { return (int)hip_call; }
#include "passthrough.def"
