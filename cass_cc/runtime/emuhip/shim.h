/* Types of the HIP API as the emulated runtime sees them. Built normally, the shim needs no HIP
 * headers: handles are opaque pointers and enums are ints. With CASS_CHECK_HIP_HEADERS the real
 * hip_runtime_api.h is used instead, so the compiler checks every generated wrapper against
 * ROCm's own prototypes (tests/runtime does that). */
#ifndef CASS_EMUHIP_SHIM_H
#define CASS_EMUHIP_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef CASS_CHECK_HIP_HEADERS
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#else
typedef int hipError_t;
typedef int hipDevice_t;
typedef int hipDeviceAttribute_t;
typedef int hipFuncCache_t;
typedef int hipSharedMemConfig;
typedef int hipMemoryAdvise;
typedef int hipMemcpyKind;
typedef int hipJitOption;
typedef int hipFunction_attribute;
typedef int hipFuncAttribute;
typedef int hipChannelFormatKind;
typedef int hipStreamCaptureMode;
typedef int hipStreamCaptureStatus;
enum hipLimit_t { hipLimitPrintfFifoSize = 1, hipLimitMallocHeapSize = 2 };
typedef void *hipDeviceptr_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef struct ihipGraph *hipGraph_t;
typedef struct hipGraphExec *hipGraphExec_t;
typedef struct hipGraphNode *hipGraphNode_t;
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void *userData);
typedef struct hipDeviceProp_t hipDeviceProp_t;
typedef struct hipPointerAttribute_t hipPointerAttribute_t;
struct hipFuncAttributes;
typedef struct dim3 { uint32_t x, y, z; } dim3;
typedef struct hipChannelFormatDesc { int x, y, z, w; hipChannelFormatKind f; } hipChannelFormatDesc;
typedef struct hipPitchedPtr { void *ptr; size_t pitch, xsize, ysize; } hipPitchedPtr;
typedef struct hipExtent { size_t width, height, depth; } hipExtent;
struct hipMemcpy3DParms;
typedef struct hipMemcpy3DParms hipMemcpy3DParms;
typedef struct hipArray hipArray;
typedef const struct hipArray *hipArray_const_t;
typedef struct __hip_texture *hipTextureObject_t;
typedef struct hipResourceDesc hipResourceDesc;
typedef struct hipTextureDesc hipTextureDesc;
struct hipResourceViewDesc;
typedef int hipGraphNodeType;
typedef int hipGraphExecUpdateResult;
typedef struct hipKernelNodeParams hipKernelNodeParams;
typedef struct hipMemsetParams hipMemsetParams;
typedef struct hipHostNodeParams hipHostNodeParams;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef int hipMemPoolAttr;
typedef int hipMemRangeAttribute;
typedef int hipMemAccessFlags;
typedef struct hipMemPoolProps hipMemPoolProps;
typedef struct hipMemAccessDesc hipMemAccessDesc;
typedef struct hipMemLocation hipMemLocation;
#endif

/* Calls API[name] with the arguments Py_BuildValue makes of `format`; its integer result. */
unsigned long long cass_call(const char *name, const char *format, ...);

#endif
