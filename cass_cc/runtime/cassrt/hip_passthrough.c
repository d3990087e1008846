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

/* 3D pitched memory (cuda_memory.c): CUDA's structures arrive as plain numbers and are rebuilt
 * as HIP's, field by field. */
int cassrt_malloc_3d(void **ptr, size_t *pitch, size_t width, size_t height, size_t depth)
{
    hipPitchedPtr p = {0};
    hipError_t e = hipMalloc3D(&p, make_hipExtent(width, height, depth));
    *ptr = p.ptr;
    *pitch = p.pitch;
    return (int)e;
}

int cassrt_memcpy_3d(void *dst, size_t dst_pitch, size_t dst_xsize, size_t dst_ysize, const size_t dst_pos[3],
                     const void *src, size_t src_pitch, size_t src_xsize, size_t src_ysize,
                     const size_t src_pos[3], const size_t extent[3], int kind, void *stream, int async)
{
    hipMemcpy3DParms p = {0};
    p.srcPtr = make_hipPitchedPtr((void *)src, src_pitch, src_xsize, src_ysize);
    p.srcPos = make_hipPos(src_pos[0], src_pos[1], src_pos[2]);
    p.dstPtr = make_hipPitchedPtr(dst, dst_pitch, dst_xsize, dst_ysize);
    p.dstPos = make_hipPos(dst_pos[0], dst_pos[1], dst_pos[2]);
    p.extent = make_hipExtent(extent[0], extent[1], extent[2]);
    p.kind = (hipMemcpyKind)kind;
    return (int)(async ? hipMemcpy3DAsync(&p, STREAM(stream)) : hipMemcpy3D(&p));
}

int cassrt_memset_3d(void *ptr, size_t pitch, size_t xsize, size_t ysize, int value, const size_t extent[3],
                     void *stream, int async)
{
    hipPitchedPtr p = make_hipPitchedPtr(ptr, pitch, xsize, ysize);
    hipExtent box = make_hipExtent(extent[0], extent[1], extent[2]);
    return (int)(async ? hipMemset3DAsync(p, value, box, STREAM(stream)) : hipMemset3D(p, value, box));
}
