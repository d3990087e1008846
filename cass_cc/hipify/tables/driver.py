"""CUDA driver API (cu*, CU*) -> HIP: contexts, modules, launches, driver memory calls, and
the driver's types, enumerators and error codes."""

from .rules import by_enum_words, by_prefix

FAMILY = "driver"

RENAMES = by_prefix("cu", "hip", """
cuInit cuDriverGetVersion cuDeviceGet cuDeviceGetName cuDeviceTotalMem
cuDeviceComputeCapability cuDeviceCanAccessPeer cuDeviceGetByPCIBusId cuDeviceGetPCIBusId
cuDeviceGetUuid cuDeviceGetP2PAttribute cuDevicePrimaryCtxGetState cuDevicePrimaryCtxRelease
cuDevicePrimaryCtxReset cuDevicePrimaryCtxRetain cuDevicePrimaryCtxSetFlags
cuCtxCreate cuCtxDestroy cuCtxGetCurrent cuCtxSetCurrent cuCtxPushCurrent cuCtxPopCurrent
cuCtxGetDevice cuCtxGetFlags cuCtxSynchronize cuCtxGetApiVersion cuCtxGetCacheConfig
cuCtxSetCacheConfig cuCtxGetSharedMemConfig cuCtxSetSharedMemConfig cuCtxEnablePeerAccess
cuCtxDisablePeerAccess
cuModuleGetFunction cuModuleGetGlobal cuModuleLoad cuModuleLoadData cuModuleLoadDataEx
cuModuleUnload
cuFuncGetAttribute
cuMemGetInfo cuMemAllocPitch cuMemGetAddressRange cuMemsetD8 cuMemsetD16 cuMemsetD32
cuMemsetD8Async cuMemsetD16Async cuMemsetD32Async cuMemcpyHtoD cuMemcpyDtoH cuMemcpyDtoD
cuMemcpyHtoDAsync cuMemcpyDtoHAsync cuMemcpyDtoDAsync cuMemcpyHtoA cuMemcpyAtoH cuMemcpyPeer
cuMemcpyPeerAsync cuMemAdvise cuMemPrefetchAsync cuMemRangeGetAttribute cuMemRangeGetAttributes
cuMemCreate cuMemRelease cuMemMap cuMemUnmap cuMemSetAccess cuMemGetAccess cuMemAddressReserve
cuMemAddressFree cuMemGetAllocationGranularity
cuMemPoolCreate cuMemPoolDestroy cuMemPoolGetAttribute cuMemPoolSetAttribute cuMemPoolTrimTo
cuPointerGetAttribute cuPointerGetAttributes
cuIpcGetMemHandle cuIpcOpenMemHandle cuIpcCloseMemHandle cuIpcGetEventHandle cuIpcOpenEventHandle
cuArrayCreate cuArray3DCreate cuArrayDestroy
cuStreamCreateWithPriority cuStreamDestroy cuStreamQuery cuStreamSynchronize cuStreamWaitEvent
cuStreamGetFlags cuStreamGetPriority cuStreamAddCallback cuStreamAttachMemAsync
cuStreamBeginCapture cuStreamEndCapture cuStreamIsCapturing cuStreamWaitValue32
cuStreamWaitValue64 cuStreamWriteValue32 cuStreamWriteValue64
cuEventDestroy cuEventElapsedTime cuEventQuery cuEventRecord cuEventSynchronize
cuGraphCreate cuGraphDestroy cuGraphLaunch cuGraphExecDestroy cuGraphAddKernelNode
cuGraphAddMemcpyNode cuGraphAddMemsetNode cuGraphAddEmptyNode cuGraphAddHostNode
cuGraphAddChildGraphNode cuGraphAddDependencies cuGraphGetNodes cuGraphGetRootNodes cuGraphClone
cuGraphInstantiateWithFlags cuGraphExecUpdate cuGraphExecKernelNodeSetParams
cuTexObjectCreate cuTexObjectDestroy cuTexObjectGetResourceDesc cuTexObjectGetTextureDesc
cuTexObjectGetResourceViewDesc
cuImportExternalMemory cuDestroyExternalMemory cuExternalMemoryGetMappedBuffer
cuImportExternalSemaphore cuDestroyExternalSemaphore cuSignalExternalSemaphoresAsync
cuWaitExternalSemaphoresAsync
""")

RENAMES.update({
    "cuMemAlloc": "hipMalloc",
    "cuMemAlloc_v2": "hipMalloc",
    "cuMemFree": "hipFree",
    "cuMemFree_v2": "hipFree",
    "cuMemAllocHost": "hipHostMalloc",
    "cuMemFreeHost": "hipHostFree",
    "cuMemHostAlloc": "hipHostMalloc",
    "cuMemHostRegister": "hipHostRegister",
    "cuMemHostUnregister": "hipHostUnregister",
    "cuMemHostGetDevicePointer": "hipHostGetDevicePointer",
    "cuMemAllocManaged": "hipMallocManaged",
    "cuMemcpy2D": "hipMemcpyParam2D",
    "cuMemcpy2DAsync": "hipMemcpyParam2DAsync",
    "cuMemcpy2DUnaligned": "hipDrvMemcpy2DUnaligned",
    "cuMemcpy3D": "hipDrvMemcpy3D",
    "cuMemcpy3DAsync": "hipDrvMemcpy3DAsync",
    "cuLaunchKernel": "hipModuleLaunchKernel",
    "cuStreamCreate": "hipStreamCreateWithFlags",
    "cuEventCreate": "hipEventCreateWithFlags",
    "cuLaunchHostFunc": "cass_hipLaunchHostFunc",
    # The driver's (CUresult, const char**) forms; HIP 5.2 has only the runtime's.
    "cuGetErrorName": "cass_hipDrvGetErrorName",
    "cuGetErrorString": "cass_hipDrvGetErrorString",
    "cuGraphInstantiate": "hipGraphInstantiateWithFlags",
    "cuModuleGetTexRef": "hipModuleGetTexRef",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor": "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
    "cuOccupancyMaxPotentialBlockSize": "hipModuleOccupancyMaxPotentialBlockSize",
    "cuCtxGetLimit": "hipDeviceGetLimit",
    # A CUDA warp is 32 threads on wave64 targets too (cass_warp_size.h): HIP's attribute is the
    # wave's width.
    "cuDeviceGetAttribute": "cass_hipDeviceGetAttribute",
    # Types
    "CUresult": "hipError_t",
    "cudaError_enum": "hipError_t",
    "CUdevice": "hipDevice_t",
    "CUdevice_attribute": "hipDeviceAttribute_t",
    "CUcontext": "hipCtx_t",
    "CUmodule": "hipModule_t",
    "CUfunction": "hipFunction_t",
    "CUfunction_attribute": "hipFunction_attribute",
    "CUstream": "hipStream_t",
    "CUevent": "hipEvent_t",
    "CUdeviceptr": "hipDeviceptr_t",
    "CUdeviceptr_v2": "hipDeviceptr_t",
    "CUarray": "hipArray_t",
    "CUtexObject": "hipTextureObject_t",
    "CUsurfObject": "hipSurfaceObject_t",
    "CUgraph": "hipGraph_t",
    "CUgraphExec": "hipGraphExec_t",
    "CUgraphNode": "hipGraphNode_t",
    "CUjit_option": "hipJitOption",
    "CUDA_MEMCPY2D": "hip_Memcpy2D",
    "CUDA_MEMCPY3D": "HIP_MEMCPY3D",
    "CUDA_ARRAY_DESCRIPTOR": "HIP_ARRAY_DESCRIPTOR",
    "CUDA_ARRAY3D_DESCRIPTOR": "HIP_ARRAY3D_DESCRIPTOR",
    "CUDA_SUCCESS": "hipSuccess",
    "CU_STREAM_DEFAULT": "hipStreamDefault",
    "CU_STREAM_NON_BLOCKING": "hipStreamNonBlocking",
    "CU_CTX_SCHED_AUTO": "hipDeviceScheduleAuto",
    "CU_CTX_SCHED_SPIN": "hipDeviceScheduleSpin",
    "CU_CTX_SCHED_YIELD": "hipDeviceScheduleYield",
    "CU_CTX_SCHED_BLOCKING_SYNC": "hipDeviceScheduleBlockingSync",
    "CU_CTX_MAP_HOST": "hipDeviceMapHost",
    "CU_MEMORYTYPE_HOST": "hipMemoryTypeHost",
    "CU_MEMORYTYPE_DEVICE": "hipMemoryTypeDevice",
    "CU_MEMORYTYPE_ARRAY": "hipMemoryTypeArray",
    "CU_MEMORYTYPE_UNIFIED": "hipMemoryTypeUnified",
    "CU_JIT_MAX_REGISTERS": "hipJitOptionMaxRegisters",
    "CU_JIT_THREADS_PER_BLOCK": "hipJitOptionThreadsPerBlock",
    "CU_JIT_WALL_TIME": "hipJitOptionWallTime",
    "CU_JIT_INFO_LOG_BUFFER": "hipJitOptionInfoLogBuffer",
    "CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES": "hipJitOptionInfoLogBufferSizeBytes",
    "CU_JIT_ERROR_LOG_BUFFER": "hipJitOptionErrorLogBuffer",
    "CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES": "hipJitOptionErrorLogBufferSizeBytes",
    "CU_JIT_OPTIMIZATION_LEVEL": "hipJitOptionOptimizationLevel",
    "CU_LAUNCH_PARAM_BUFFER_POINTER": "HIP_LAUNCH_PARAM_BUFFER_POINTER",
    "CU_LAUNCH_PARAM_BUFFER_SIZE": "HIP_LAUNCH_PARAM_BUFFER_SIZE",
    "CU_LAUNCH_PARAM_END": "HIP_LAUNCH_PARAM_END",
    "CU_LIMIT_MALLOC_HEAP_SIZE": "hipLimitMallocHeapSize",
    "CU_LIMIT_PRINTF_FIFO_SIZE": "hipLimitPrintfFifoSize",
    "CU_MEM_ATTACH_GLOBAL": "hipMemAttachGlobal",
    "CU_MEM_ATTACH_HOST": "hipMemAttachHost",
    "CU_MEM_ATTACH_SINGLE": "hipMemAttachSingle",
    "CU_EVENT_DEFAULT": "hipEventDefault",
    "CU_EVENT_BLOCKING_SYNC": "hipEventBlockingSync",
    "CU_EVENT_DISABLE_TIMING": "hipEventDisableTiming",
    "CU_EVENT_INTERPROCESS": "hipEventInterprocess",
    "CU_FUNC_CACHE_PREFER_NONE": "hipFuncCachePreferNone",
    "CU_FUNC_CACHE_PREFER_SHARED": "hipFuncCachePreferShared",
    "CU_FUNC_CACHE_PREFER_L1": "hipFuncCachePreferL1",
    "CU_FUNC_CACHE_PREFER_EQUAL": "hipFuncCachePreferEqual",
})

RENAMES.update(by_prefix("CU_FUNC_ATTRIBUTE_", "HIP_FUNC_ATTRIBUTE_", """
CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES CU_FUNC_ATTRIBUTE_NUM_REGS
CU_FUNC_ATTRIBUTE_PTX_VERSION CU_FUNC_ATTRIBUTE_BINARY_VERSION CU_FUNC_ATTRIBUTE_CACHE_MODE_CA
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
"""))

RENAMES.update(by_prefix("CU_POINTER_ATTRIBUTE_", "HIP_POINTER_ATTRIBUTE_", """
CU_POINTER_ATTRIBUTE_CONTEXT CU_POINTER_ATTRIBUTE_MEMORY_TYPE CU_POINTER_ATTRIBUTE_DEVICE_POINTER
CU_POINTER_ATTRIBUTE_HOST_POINTER CU_POINTER_ATTRIBUTE_IS_MANAGED
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL CU_POINTER_ATTRIBUTE_RANGE_START_ADDR
CU_POINTER_ATTRIBUTE_RANGE_SIZE CU_POINTER_ATTRIBUTE_MAPPED CU_POINTER_ATTRIBUTE_BUFFER_ID
CU_POINTER_ATTRIBUTE_SYNC_MEMOPS
"""))

RENAMES.update(by_prefix("CU_AD_FORMAT_", "HIP_AD_FORMAT_", """
CU_AD_FORMAT_UNSIGNED_INT8 CU_AD_FORMAT_UNSIGNED_INT16 CU_AD_FORMAT_UNSIGNED_INT32
CU_AD_FORMAT_SIGNED_INT8 CU_AD_FORMAT_SIGNED_INT16 CU_AD_FORMAT_SIGNED_INT32 CU_AD_FORMAT_HALF
CU_AD_FORMAT_FLOAT
"""))

RENAMES.update(by_enum_words("CU_DEVICE_ATTRIBUTE_", "hipDeviceAttribute", """
ASYNC_ENGINE_COUNT CAN_MAP_HOST_MEMORY CLOCK_RATE COMPUTE_CAPABILITY_MAJOR
COMPUTE_CAPABILITY_MINOR COMPUTE_MODE CONCURRENT_KERNELS CONCURRENT_MANAGED_ACCESS
COOPERATIVE_LAUNCH COOPERATIVE_MULTI_DEVICE_LAUNCH ECC_ENABLED GLOBAL_L1_CACHE_SUPPORTED
INTEGRATED KERNEL_EXEC_TIMEOUT L2_CACHE_SIZE LOCAL_L1_CACHE_SUPPORTED MANAGED_MEMORY
MAX_BLOCK_DIM_X MAX_BLOCK_DIM_Y MAX_BLOCK_DIM_Z MAX_GRID_DIM_X MAX_GRID_DIM_Y MAX_GRID_DIM_Z
MAX_PITCH MAX_REGISTERS_PER_BLOCK MAX_REGISTERS_PER_MULTIPROCESSOR MAX_SHARED_MEMORY_PER_BLOCK
MAX_SHARED_MEMORY_PER_MULTIPROCESSOR MAX_THREADS_PER_BLOCK MEMORY_CLOCK_RATE MULTIPROCESSOR_COUNT
PAGEABLE_MEMORY_ACCESS PCI_BUS_ID PCI_DEVICE_ID STREAM_PRIORITIES_SUPPORTED TEXTURE_ALIGNMENT
TOTAL_CONSTANT_MEMORY UNIFIED_ADDRESSING WARP_SIZE
"""))

RENAMES.update(by_enum_words("CUDA_ERROR_", "hipError", """
ALREADY_ACQUIRED ALREADY_MAPPED ARRAY_IS_MAPPED ASSERT CONTEXT_ALREADY_CURRENT
CONTEXT_ALREADY_IN_USE CONTEXT_IS_DESTROYED COOPERATIVE_LAUNCH_TOO_LARGE DEINITIALIZED
FILE_NOT_FOUND HOST_MEMORY_ALREADY_REGISTERED HOST_MEMORY_NOT_REGISTERED ILLEGAL_ADDRESS
INVALID_CONTEXT INVALID_DEVICE INVALID_HANDLE INVALID_IMAGE INVALID_SOURCE INVALID_VALUE
LAUNCH_OUT_OF_RESOURCES MAP_FAILED NOT_FOUND NOT_INITIALIZED NOT_MAPPED NOT_READY NOT_SUPPORTED
NO_BINARY_FOR_GPU NO_DEVICE OPERATING_SYSTEM OUT_OF_MEMORY PEER_ACCESS_ALREADY_ENABLED
PEER_ACCESS_NOT_ENABLED PEER_ACCESS_UNSUPPORTED SHARED_OBJECT_INIT_FAILED
SHARED_OBJECT_SYMBOL_NOT_FOUND UNKNOWN UNMAP_FAILED UNSUPPORTED_LIMIT
CAPTURED_EVENT GRAPH_EXEC_UPDATE_FAILURE ILLEGAL_STATE INVALID_GRAPHICS_CONTEXT NOT_MAPPED_AS_ARRAY
NOT_MAPPED_AS_POINTER PROFILER_ALREADY_STARTED PROFILER_ALREADY_STOPPED PROFILER_DISABLED
PROFILER_NOT_INITIALIZED STREAM_CAPTURE_IMPLICIT STREAM_CAPTURE_INVALIDATED STREAM_CAPTURE_ISOLATION
STREAM_CAPTURE_MERGE STREAM_CAPTURE_UNJOINED STREAM_CAPTURE_UNMATCHED STREAM_CAPTURE_UNSUPPORTED
STREAM_CAPTURE_WRONG_THREAD
"""))
RENAMES.update({
    "CUDA_ERROR_LAUNCH_FAILED": "hipErrorLaunchFailure",
    "CUDA_ERROR_LAUNCH_TIMEOUT": "hipErrorLaunchTimeOut",
    "CUDA_ERROR_INVALID_PTX": "hipErrorInvalidKernelFile",
    "CUDA_ERROR_ECC_UNCORRECTABLE": "hipErrorECCNotCorrectable",
})

# CUresult values HIP has no error for: the compatibility header defines them (error codes that
# no HIP call returns, so a switch over every CUresult, as error-name helpers write, still builds).
COMPAT = """
CUDA_ERROR_CDP_NOT_SUPPORTED CUDA_ERROR_CDP_VERSION_MISMATCH CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
CUDA_ERROR_CONTAINED CUDA_ERROR_DEVICE_NOT_LICENSED CUDA_ERROR_DEVICE_UNAVAILABLE CUDA_ERROR_EXTERNAL_DEVICE
CUDA_ERROR_FUNCTION_NOT_LOADED CUDA_ERROR_HARDWARE_STACK_ERROR CUDA_ERROR_ILLEGAL_INSTRUCTION
CUDA_ERROR_INVALID_ADDRESS_SPACE CUDA_ERROR_INVALID_CLUSTER_SIZE CUDA_ERROR_INVALID_PC
CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION CUDA_ERROR_INVALID_RESOURCE_TYPE CUDA_ERROR_JIT_COMPILATION_DISABLED
CUDA_ERROR_JIT_COMPILER_NOT_FOUND CUDA_ERROR_KEY_ROTATION CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING
CUDA_ERROR_LOSSY_QUERY CUDA_ERROR_MISALIGNED_ADDRESS CUDA_ERROR_MPS_CLIENT_TERMINATED
CUDA_ERROR_MPS_CONNECTION_FAILED CUDA_ERROR_MPS_MAX_CLIENTS_REACHED CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED
CUDA_ERROR_MPS_RPC_FAILURE CUDA_ERROR_MPS_SERVER_NOT_READY CUDA_ERROR_NOT_PERMITTED
CUDA_ERROR_NVLINK_UNCORRECTABLE CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE CUDA_ERROR_STUB_LIBRARY
CUDA_ERROR_SYSTEM_DRIVER_MISMATCH CUDA_ERROR_SYSTEM_NOT_READY CUDA_ERROR_TENSOR_MEMORY_LEAK CUDA_ERROR_TIMEOUT
CUDA_ERROR_TOO_MANY_PEERS CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY
CUDA_ERROR_UNSUPPORTED_PTX_VERSION
"""
