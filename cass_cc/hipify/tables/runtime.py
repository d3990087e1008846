"""CUDA runtime API functions -> HIP runtime API (memory incl. async, 2D/3D, arrays, symbols,
peer access, streams, events, graphs, occupancy, device management, errors)."""

from .rules import by_prefix

FAMILY = "runtime"

RENAMES = by_prefix("cuda", "hip", """
cudaChooseDevice
cudaDestroyExternalMemory cudaDestroyExternalSemaphore 
cudaDeviceCanAccessPeer cudaDeviceDisablePeerAccess
cudaDeviceEnablePeerAccess cudaDeviceGetByPCIBusId
cudaDeviceGetCacheConfig cudaDeviceGetDefaultMemPool cudaDeviceGetMemPool
cudaDeviceGetP2PAttribute cudaDeviceGetPCIBusId cudaDeviceGetSharedMemConfig
cudaDeviceGetStreamPriorityRange cudaDeviceReset cudaDeviceSetCacheConfig 
cudaDeviceSetMemPool cudaDeviceSetSharedMemConfig cudaDeviceSynchronize cudaDriverGetVersion
cudaEventCreate cudaEventCreateWithFlags cudaEventDestroy cudaEventElapsedTime cudaEventQuery
cudaEventRecord cudaEventSynchronize cudaExternalMemoryGetMappedBuffer cudaFree cudaFreeArray
cudaFreeAsync cudaFreeHost cudaFreeMipmappedArray cudaFuncGetAttributes cudaFuncSetAttribute
cudaFuncSetCacheConfig cudaFuncSetSharedMemConfig cudaGetChannelDesc cudaGetDevice
cudaGetDeviceCount cudaGetDeviceFlags
cudaGetErrorString cudaGetLastError cudaGetMipmappedArrayLevel cudaGetSymbolAddress
cudaGetSymbolSize cudaGetTextureObjectResourceViewDesc
cudaGraphAddChildGraphNode cudaGraphAddDependencies
cudaGraphAddEmptyNode cudaGraphAddEventRecordNode cudaGraphAddEventWaitNode cudaGraphAddHostNode
cudaGraphAddKernelNode cudaGraphAddMemcpyNode cudaGraphAddMemcpyNode1D
cudaGraphAddMemcpyNodeFromSymbol cudaGraphAddMemcpyNodeToSymbol cudaGraphAddMemsetNode
cudaGraphChildGraphNodeGetGraph cudaGraphClone cudaGraphCreate cudaGraphDestroy
cudaGraphDestroyNode cudaGraphEventRecordNodeGetEvent cudaGraphEventRecordNodeSetEvent
cudaGraphEventWaitNodeGetEvent cudaGraphEventWaitNodeSetEvent
cudaGraphExecChildGraphNodeSetParams cudaGraphExecDestroy cudaGraphExecEventRecordNodeSetEvent
cudaGraphExecEventWaitNodeSetEvent cudaGraphExecHostNodeSetParams
cudaGraphExecKernelNodeSetParams cudaGraphExecMemcpyNodeSetParams
cudaGraphExecMemcpyNodeSetParams1D cudaGraphExecMemcpyNodeSetParamsFromSymbol
cudaGraphExecMemcpyNodeSetParamsToSymbol cudaGraphExecMemsetNodeSetParams cudaGraphExecUpdate
cudaGraphGetEdges cudaGraphGetNodes cudaGraphGetRootNodes cudaGraphHostNodeGetParams
cudaGraphHostNodeSetParams cudaGraphInstantiateWithFlags 
cudaGraphKernelNodeGetParams cudaGraphKernelNodeSetParams
cudaGraphLaunch cudaGraphMemcpyNodeGetParams cudaGraphMemcpyNodeSetParams
cudaGraphMemcpyNodeSetParams1D cudaGraphMemcpyNodeSetParamsFromSymbol
cudaGraphMemcpyNodeSetParamsToSymbol cudaGraphMemsetNodeGetParams cudaGraphMemsetNodeSetParams
cudaGraphNodeFindInClone cudaGraphNodeGetDependencies cudaGraphNodeGetDependentNodes
cudaGraphNodeGetType cudaGraphRemoveDependencies cudaGraphicsMapResources
cudaGraphicsResourceGetMappedPointer cudaGraphicsSubResourceGetMappedArray
cudaGraphicsUnmapResources cudaGraphicsUnregisterResource cudaHostGetDevicePointer
cudaHostGetFlags cudaHostRegister cudaHostUnregister cudaImportExternalMemory
cudaImportExternalSemaphore cudaIpcCloseMemHandle cudaIpcGetEventHandle cudaIpcGetMemHandle
cudaIpcOpenEventHandle cudaIpcOpenMemHandle cudaLaunchCooperativeKernel 
cudaLaunchKernel cudaMalloc cudaMalloc3D cudaMalloc3DArray cudaMallocArray cudaMallocAsync
cudaMallocFromPoolAsync cudaMallocManaged cudaMallocMipmappedArray cudaMallocPitch cudaMemAdvise
cudaMemGetInfo cudaMemPoolCreate cudaMemPoolDestroy cudaMemPoolExportPointer
cudaMemPoolExportToShareableHandle cudaMemPoolGetAccess cudaMemPoolGetAttribute
cudaMemPoolImportFromShareableHandle cudaMemPoolImportPointer cudaMemPoolSetAccess
cudaMemPoolSetAttribute cudaMemPoolTrimTo cudaMemPrefetchAsync cudaMemRangeGetAttribute
cudaMemRangeGetAttributes cudaMemcpy cudaMemcpy2D cudaMemcpy2DAsync cudaMemcpy2DFromArray
cudaMemcpy2DFromArrayAsync cudaMemcpy2DToArray cudaMemcpy2DToArrayAsync cudaMemcpy3D
cudaMemcpy3DAsync cudaMemcpyAsync cudaMemcpyFromArray cudaMemcpyFromSymbol
cudaMemcpyFromSymbolAsync cudaMemcpyPeer cudaMemcpyPeerAsync cudaMemcpyToArray
cudaMemcpyToSymbol cudaMemcpyToSymbolAsync cudaMemset cudaMemset2D cudaMemset2DAsync
cudaMemset3D cudaMemset3DAsync cudaMemsetAsync cudaOccupancyMaxActiveBlocksPerMultiprocessor
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags cudaOccupancyMaxPotentialBlockSize
cudaOccupancyMaxPotentialBlockSizeWithFlags cudaPeekAtLastError
cudaProfilerStart cudaProfilerStop cudaRuntimeGetVersion cudaSetDevice cudaSetDeviceFlags
cudaSignalExternalSemaphoresAsync cudaStreamAddCallback cudaStreamAttachMemAsync
cudaStreamBeginCapture cudaStreamCreate cudaStreamCreateWithFlags cudaStreamCreateWithPriority
cudaStreamDestroy cudaStreamEndCapture cudaStreamGetFlags cudaStreamGetPriority
cudaStreamIsCapturing cudaStreamQuery cudaStreamSynchronize cudaStreamUpdateCaptureDependencies
cudaStreamWaitEvent cudaThreadExchangeStreamCaptureMode cudaWaitExternalSemaphoresAsync""")

RENAMES.update({
    # Pinned host memory: HIP's hipMallocHost/hipHostAlloc are deprecated spellings.
    "cudaMallocHost": "hipHostMalloc",
    "cudaHostAlloc": "hipHostMalloc",
    "cudaFreeHost": "hipHostFree",
    "cudaThreadSynchronize": "hipDeviceSynchronize",
    "cudaThreadExit": "hipDeviceReset",
    # CUDA 12 dropped the error-node arguments: (exec, graph, flags) is HIP's WithFlags form.
    "cudaGraphInstantiate": "hipGraphInstantiateWithFlags",
    # CUDA 12's capture-info signature is HIP's _v2 one.
    "cudaStreamGetCaptureInfo": "hipStreamGetCaptureInfo_v2",
    # Declared by HIP 5.2 but missing from its libamdhip64: the compatibility header implements
    # it with hipStreamAddCallback.
    "cudaLaunchHostFunc": "cass_hipLaunchHostFunc",
    # HIP's names say "hip..."; programs print, log or compare CUDA's "cuda..." names.
    "cudaGetErrorName": "cass_hipGetErrorName",
    # Fills CUDA's cudaPointerAttributes (types.py) from HIP's.
    "cudaPointerGetAttributes": "cass_hipPointerGetAttributes",
    # Textures (cass_texture_compat.h): uchar channel descriptors that say unsigned, CUDA's
    # border colour of normalised-integer textures, CUDA's tex2Dgather components.
    "cudaCreateChannelDesc": "cass_hipCreateChannelDesc",
    "cudaCreateTextureObject": "cass_hipCreateTextureObject",
    "tex2Dgather": "cass_tex2Dgather",
    # Stack-size limits (HIP 5.2 has no hipDeviceSetLimit): the compatibility header's.
    "cudaDeviceSetLimit": "cass_hipDeviceSetLimit",
    "cudaDeviceGetLimit": "cass_hipDeviceGetLimit",
    # A CUDA warp is 32 threads on every target, on wave64 ones too (cass_warp_size.h).
    "cudaGetDeviceProperties": "cass_hipGetDeviceProperties",
    "cudaDeviceGetAttribute": "cass_hipDeviceGetAttribute",
    # Surface objects are texture objects of their array there.
    "cudaCreateSurfaceObject": "cass_hipCreateSurfaceObject",
    "cudaDestroySurfaceObject": "cass_hipDestroySurfaceObject",
    "cudaGetSurfaceObjectResourceDesc": "cass_hipGetSurfaceObjectResourceDesc",
    # Objects of devices without image instructions are cass_texture_software.h's.
    "cudaDestroyTextureObject": "cass_hipDestroyTextureObject",
    "cudaGetTextureObjectResourceDesc": "cass_hipGetTextureObjectResourceDesc",
    "cudaGetTextureObjectTextureDesc": "cass_hipGetTextureObjectTextureDesc",
})
# CUDA's fetches: HIP's, or the software ones where the target has no image instructions.
RENAMES.update({name: f"cass_{name}" for name in ("tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered",
                                                  "tex2DLayered")})
RENAMES.update({f"surf{shape}{op}": f"cass_surf{shape}{op}"
                for shape in ("1D", "2D", "3D", "1DLayered", "2DLayered") for op in ("read", "write")})

# Calls whose HIP name depends on how many arguments the CUDA version of the caller passed
# (CUDA 12 changed these signatures; RENAMES holds the CUDA 12 choice for other uses).
BY_ARITY = {
    "cudaGraphInstantiate": {3: "hipGraphInstantiateWithFlags", 5: "hipGraphInstantiate"},
    "cudaStreamGetCaptureInfo": {3: "hipStreamGetCaptureInfo", 6: "hipStreamGetCaptureInfo_v2"},
}

# HIP functions to which the compatibility header adds the C++ overloads that CUDA's
# cuda_runtime.h has (typed pointers, kernels passed as functions, cudaEventCreate(e, flags),
# default arguments).
COMPAT_OVERLOADS = """
hipMallocPitch hipHostGetDevicePointer hipFuncGetAttributes hipFuncSetAttribute
hipFuncSetCacheConfig hipFuncSetSharedMemConfig hipLaunchKernel hipEventCreate hipStreamWaitEvent
hipLaunchCooperativeKernel
"""

# Functions the compatibility header defines in place of HIP 5.2's.
COMPAT_FUNCTIONS = """
cass_hipLaunchHostFunc cass_hipGetErrorName cass_hipDrvGetErrorName cass_hipDrvGetErrorString
cass_hipPointerGetAttributes cass_hipCreateChannelDesc cass_hipCreateTextureObject cass_tex2Dgather
cass_hipCreateSurfaceObject cass_hipDestroySurfaceObject cass_hipDestroyTextureObject
cass_hipGetTextureObjectResourceDesc cass_hipGetTextureObjectTextureDesc cass_hipGetSurfaceObjectResourceDesc
cass_tex1Dfetch cass_tex1D cass_tex2D cass_tex3D cass_tex1DLayered cass_tex2DLayered
cass_surf1Dread cass_surf1Dwrite cass_surf2Dread cass_surf2Dwrite cass_surf3Dread cass_surf3Dwrite cass_surf1DLayeredread cass_surf1DLayeredwrite cass_surf2DLayeredread cass_surf2DLayeredwrite
cass_hipDeviceSetLimit cass_hipDeviceGetLimit cass_hipGetDeviceProperties cass_hipDeviceGetAttribute
"""

# Types and enumerators the compatibility header defines in CUDA's shape.
COMPAT_TYPES = """
cass_hipPointerAttributes cass_hipMemoryType cass_hipMemoryTypeUnregistered cass_hipMemoryTypeHost
cass_hipMemoryTypeDevice cass_hipMemoryTypeManaged cass_hipLimitStackSize
"""

_NOT_IN_LIBAMDHIP64 = "declared by HIP 5.2's headers but missing from its libamdhip64"
UNSUPPORTED = {
    "cudaGraphKernelNodeGetAttribute": _NOT_IN_LIBAMDHIP64,
    "cudaGraphKernelNodeSetAttribute": _NOT_IN_LIBAMDHIP64,
}

# CUDA 12's stream identity and attributes and event records with flags (cass_stream_compat.h):
# HIP 5.2 has none of them; cudaStreamDestroy goes through the header to drop a stream's record.
_STREAM_COMPAT = """
cudaStreamGetId cudaStreamGetDevice cudaStreamGetAttribute cudaStreamSetAttribute
cudaStreamCopyAttributes cudaStreamDestroy cudaEventRecordWithFlags
"""
_STREAM_COMPAT_TYPES = """
cudaStreamLegacy cudaStreamAttrValue cudaStreamAttrID cudaStreamAttributeAccessPolicyWindow
cudaStreamAttributeSynchronizationPolicy cudaStreamAttributePriority cudaSynchronizationPolicy
cudaSyncPolicyAuto cudaSyncPolicySpin cudaSyncPolicyYield cudaSyncPolicyBlockingSync
cudaEventRecordDefault cudaEventRecordExternal
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in (_STREAM_COMPAT + _STREAM_COMPAT_TYPES).split()})
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _STREAM_COMPAT.split()) + "\n"
COMPAT_TYPES += " ".join("cass_hip" + name[4:] for name in _STREAM_COMPAT_TYPES.split()) + "\n"

# Kernel queries of CUDA 11-12 (cass_kernel_queries.h).
_KERNEL_QUERIES = """
cudaFuncGetName cudaOccupancyAvailableDynamicSMemPerBlock cudaGetKernel
cudaDeviceGetTexture1DLinearMaxWidth
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in _KERNEL_QUERIES.split() + ["cudaKernel_t"]})
RENAMES["cudaDevAttrMaxTexture1DLinearWidth"] = "hipDeviceAttributeMaxTexture1DLinear"
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _KERNEL_QUERIES.split()) + "\n"
COMPAT_TYPES += "cass_hipKernel_t\n"

# CUDA 12's extensible launch (cass_launch_ex.h).
_LAUNCH_EX = """
cudaLaunchKernelEx cudaLaunchKernelExC cudaGridDependencySynchronize cudaTriggerProgrammaticLaunchCompletion
"""
_LAUNCH_EX_TYPES = """
cudaLaunchConfig_t cudaLaunchAttribute cudaLaunchAttributeValue cudaLaunchAttributeID
cudaLaunchAttributeIgnore cudaLaunchAttributeAccessPolicyWindow cudaLaunchAttributeCooperative
cudaLaunchAttributeSynchronizationPolicy cudaLaunchAttributeClusterDimension
cudaLaunchAttributeClusterSchedulingPolicyPreference cudaLaunchAttributeProgrammaticStreamSerialization
cudaLaunchAttributeProgrammaticEvent cudaLaunchAttributePriority cudaLaunchAttributeMemSyncDomainMap
cudaLaunchAttributeMemSyncDomain
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in (_LAUNCH_EX + _LAUNCH_EX_TYPES).split()})
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _LAUNCH_EX.split()) + "\n"
COMPAT_TYPES += " ".join("cass_hip" + name[4:] for name in _LAUNCH_EX_TYPES.split()) + "\n"

# Unified-memory hints with CUDA 12.2+/13's cudaMemLocation (cass_managed_compat.h): overloads of
# hipMemAdvise and hipMemPrefetchAsync, and range queries that answer a location's type and id.
COMPAT_OVERLOADS += "hipMemAdvise hipMemPrefetchAsync\n"
_MANAGED_COMPAT = "cudaMemRangeGetAttribute cudaMemRangeGetAttributes"
_MANAGED_COMPAT_TYPES = """
cudaMemLocationTypeHost cudaMemLocationTypeHostNuma cudaMemLocationTypeHostNumaCurrent
cudaMemRangeAttributePreferredLocationType cudaMemRangeAttributePreferredLocationId
cudaMemRangeAttributeLastPrefetchLocationType cudaMemRangeAttributeLastPrefetchLocationId
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in (_MANAGED_COMPAT + _MANAGED_COMPAT_TYPES).split()})
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _MANAGED_COMPAT.split()) + "\n"
COMPAT_TYPES += " ".join("cass_hip" + name[4:] for name in _MANAGED_COMPAT_TYPES.split()) + "\n"

# Array copies HIP 5.2 lacks (cass_array_copies.h).
_ARRAY_COPIES = """
cudaMemcpyToArrayAsync cudaMemcpyFromArrayAsync cudaMemcpyArrayToArray cudaMemcpy2DArrayToArray
cudaMemcpy3DPeer cudaMemcpy3DPeerAsync
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in _ARRAY_COPIES.split() + ["cudaMemcpy3DPeerParms"]})
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _ARRAY_COPIES.split()) + "\n"
COMPAT_TYPES += "cass_hipMemcpy3DPeerParms\n"

# CUDA 12-13's graph API (cass_graph_compat.h). The dependency calls with edge data (CUDA 12.3's
# _v2 names, CUDA 13's plain ones) and CUDA 12's cudaGraphExecUpdate differ from HIP's by their
# argument count.
_GRAPH_EDGES = {"cudaGraphGetEdges": 4, "cudaGraphNodeGetDependencies": 3, "cudaGraphNodeGetDependentNodes": 3,
                "cudaGraphAddDependencies": 4, "cudaGraphRemoveDependencies": 4}
for _name, _hip_arity in _GRAPH_EDGES.items():
    BY_ARITY[_name] = {_hip_arity: "hip" + _name[4:], _hip_arity + 1: "cass_hip" + _name[4:]}
BY_ARITY["cudaGraphExecUpdate"] = {4: "hipGraphExecUpdate", 3: "cass_hipGraphExecUpdate"}
# HIP 5.2 numbers node types from 1 where CUDA numbers them from 0: CUDA's numbers, through
# cudaGraphNodeGetType.
_GRAPH_COMPAT = "cudaGraphInstantiateWithParams cudaGraphUpload cudaGraphDebugDotPrint cudaGraphNodeGetType"
_GRAPH_COMPAT_TYPES = """
cudaGraphNodeType cudaGraphNodeTypeKernel cudaGraphNodeTypeMemcpy cudaGraphNodeTypeMemset cudaGraphNodeTypeHost
cudaGraphNodeTypeGraph cudaGraphNodeTypeEmpty cudaGraphNodeTypeWaitEvent cudaGraphNodeTypeEventRecord
cudaGraphNodeTypeExtSemaphoreSignal cudaGraphNodeTypeExtSemaphoreWait cudaGraphNodeTypeMemAlloc
cudaGraphNodeTypeMemFree cudaGraphNodeTypeConditional cudaGraphNodeTypeCount
cudaGraphEdgeData cudaGraphExecUpdateResultInfo cudaGraphInstantiateParams cudaGraphInstantiateResult
cudaGraphInstantiateSuccess cudaGraphInstantiateError cudaGraphInstantiateInvalidStructure
cudaGraphInstantiateNodeOperationNotSupported cudaGraphInstantiateMultipleDevicesNotSupported
cudaGraphInstantiateFlagUpload cudaGraphInstantiateFlagDeviceLaunch cudaGraphInstantiateFlagUseNodePriority
cudaGraphDebugDotFlagsVerbose cudaGraphDebugDotFlagsKernelNodeParams cudaGraphDebugDotFlagsMemcpyNodeParams
cudaGraphDebugDotFlagsMemsetNodeParams cudaGraphDebugDotFlagsHostNodeParams cudaGraphDebugDotFlagsEventNodeParams
cudaGraphDebugDotFlagsKernelNodeAttributes cudaGraphDebugDotFlagsHandles
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in (_GRAPH_COMPAT + _GRAPH_COMPAT_TYPES).split()})
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _GRAPH_COMPAT.split()) + "\n"
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _GRAPH_EDGES) + " cass_hipGraphExecUpdate\n"
COMPAT_TYPES += " ".join("cass_hip" + name[4:] for name in _GRAPH_COMPAT_TYPES.split()) + "\n"

# A failed device assert reported as CUDA reports it (cass_device_assert.h): the calls that wait
# for the device, and the last error that reports it once.
_ASSERT_REPORTING = """
cudaDeviceSynchronize cudaStreamSynchronize cudaEventSynchronize cudaMemcpy cudaGetLastError
cudaPeekAtLastError
"""
RENAMES.update({name: "cass_hip" + name[4:] for name in _ASSERT_REPORTING.split()})
RENAMES["cudaThreadSynchronize"] = "cass_hipDeviceSynchronize"
COMPAT_FUNCTIONS += " ".join("cass_hip" + name[4:] for name in _ASSERT_REPORTING.split()) + "\n"
