"""hipDeviceGetAttribute: HIP 5.2's hipDeviceAttribute_t (numbered by position in the header's
enum) and the emulated device's value for each."""

from __future__ import annotations

from ...targets import target
from ..device_target import device_arch
from .device_props import PROPS

CUDA_COMPATIBLE = (
    "EccEnabled", "AccessPolicyMaxWindowSize", "AsyncEngineCount", "CanMapHostMemory",
    "CanUseHostPointerForRegisteredMem", "ClockRate", "ComputeMode",
    "ComputePreemptionSupported", "ConcurrentKernels", "ConcurrentManagedAccess",
    "CooperativeLaunch", "CooperativeMultiDeviceLaunch", "DeviceOverlap",
    "DirectManagedMemAccessFromHost", "GlobalL1CacheSupported", "HostNativeAtomicSupported",
    "Integrated", "IsMultiGpuBoard", "KernelExecTimeout", "L2CacheSize",
    "LocalL1CacheSupported", "Luid", "LuidDeviceNodeMask", "ComputeCapabilityMajor",
    "ManagedMemory", "MaxBlocksPerMultiProcessor", "MaxBlockDimX", "MaxBlockDimY",
    "MaxBlockDimZ", "MaxGridDimX", "MaxGridDimY", "MaxGridDimZ", "MaxSurface1D",
    "MaxSurface1DLayered", "MaxSurface2D", "MaxSurface2DLayered", "MaxSurface3D",
    "MaxSurfaceCubemap", "MaxSurfaceCubemapLayered", "MaxTexture1DWidth",
    "MaxTexture1DLayered", "MaxTexture1DLinear", "MaxTexture1DMipmap", "MaxTexture2DWidth",
    "MaxTexture2DHeight", "MaxTexture2DGather", "MaxTexture2DLayered", "MaxTexture2DLinear",
    "MaxTexture2DMipmap", "MaxTexture3DWidth", "MaxTexture3DHeight", "MaxTexture3DDepth",
    "MaxTexture3DAlt", "MaxTextureCubemap", "MaxTextureCubemapLayered", "MaxThreadsDim",
    "MaxThreadsPerBlock", "MaxThreadsPerMultiProcessor", "MaxPitch", "MemoryBusWidth",
    "MemoryClockRate", "ComputeCapabilityMinor", "MultiGpuBoardGroupID",
    "MultiprocessorCount", "Name", "PageableMemoryAccess",
    "PageableMemoryAccessUsesHostPageTables", "PciBusId", "PciDeviceId", "PciDomainID",
    "PersistingL2CacheMaxSize", "MaxRegistersPerBlock", "MaxRegistersPerMultiprocessor",
    "ReservedSharedMemPerBlock", "MaxSharedMemoryPerBlock", "SharedMemPerBlockOptin",
    "SharedMemPerMultiprocessor", "SingleToDoublePrecisionPerfRatio",
    "StreamPrioritiesSupported", "SurfaceAlignment", "TccDriver", "TextureAlignment",
    "TexturePitchAlignment", "TotalConstantMemory", "TotalGlobalMem", "UnifiedAddressing",
    "Uuid", "WarpSize", "MemoryPoolsSupported")
AMD_SPECIFIC = (  # from 10000
    "ClockInstructionRate", "Arch", "MaxSharedMemoryPerMultiprocessor", "GcnArch",
    "GcnArchName", "HdpMemFlushCntl", "HdpRegFlushCntl", "CooperativeMultiDeviceUnmatchedFunc",
    "CooperativeMultiDeviceUnmatchedGridDim", "CooperativeMultiDeviceUnmatchedBlockDim",
    "CooperativeMultiDeviceUnmatchedSharedMem", "IsLargeBar", "AsicRevision",
    "CanUseStreamWaitValue", "ImageSupport", "PhysicalMultiProcessorCount",
    "FineGrainSupport")

INT_MAX = 2**31 - 1
BY_NAME = {
    "AsyncEngineCount": 2, "CanMapHostMemory": PROPS.canMapHostMemory,
    "ClockRate": PROPS.clockRate, "ComputeMode": PROPS.computeMode,
    "ConcurrentKernels": PROPS.concurrentKernels,
    "ConcurrentManagedAccess": PROPS.concurrentManagedAccess,
    "CooperativeLaunch": PROPS.cooperativeLaunch,
    "CooperativeMultiDeviceLaunch": PROPS.cooperativeMultiDeviceLaunch,
    "DeviceOverlap": 1, "Integrated": PROPS.integrated,
    "IsMultiGpuBoard": PROPS.isMultiGpuBoard, "L2CacheSize": PROPS.l2CacheSize,
    "LocalL1CacheSupported": 1, "ComputeCapabilityMajor": PROPS.major,
    "ManagedMemory": PROPS.managedMemory, "MaxBlocksPerMultiProcessor": 32,
    "MaxBlockDimX": PROPS.maxThreadsDim[0], "MaxBlockDimY": PROPS.maxThreadsDim[1],
    "MaxBlockDimZ": PROPS.maxThreadsDim[2], "MaxGridDimX": PROPS.maxGridSize[0],
    "MaxGridDimY": PROPS.maxGridSize[1], "MaxGridDimZ": PROPS.maxGridSize[2],
    "MaxTexture1DWidth": PROPS.maxTexture1D, "MaxTexture1DLinear": PROPS.maxTexture1DLinear,
    "MaxTexture2DWidth": PROPS.maxTexture2D[0], "MaxTexture2DHeight": PROPS.maxTexture2D[1],
    "MaxTexture3DWidth": PROPS.maxTexture3D[0], "MaxTexture3DHeight": PROPS.maxTexture3D[1],
    "MaxTexture3DDepth": PROPS.maxTexture3D[2], "MaxThreadsPerBlock": PROPS.maxThreadsPerBlock,
    "MaxThreadsPerMultiProcessor": PROPS.maxThreadsPerMultiProcessor,
    "MaxPitch": PROPS.memPitch, "MemoryBusWidth": PROPS.memoryBusWidth,
    "MemoryClockRate": PROPS.memoryClockRate, "ComputeCapabilityMinor": PROPS.minor,
    "MultiprocessorCount": PROPS.multiProcessorCount, "PciBusId": PROPS.pciBusID,
    "PciDeviceId": PROPS.pciDeviceID, "PciDomainID": PROPS.pciDomainID,
    "MaxRegistersPerBlock": PROPS.regsPerBlock, "MaxRegistersPerMultiprocessor": 2 * 65536,
    "MaxSharedMemoryPerBlock": PROPS.sharedMemPerBlock,
    "SharedMemPerBlockOptin": PROPS.sharedMemPerBlock,
    "SharedMemPerMultiprocessor": PROPS.maxSharedMemoryPerMultiProcessor,
    "SingleToDoublePrecisionPerfRatio": 32, "StreamPrioritiesSupported": 1,
    "TextureAlignment": PROPS.textureAlignment,
    "TexturePitchAlignment": PROPS.texturePitchAlignment,
    "TotalConstantMemory": PROPS.totalConstMem, "TotalGlobalMem": PROPS.totalGlobalMem,
    "UnifiedAddressing": 1, "WarpSize": PROPS.warpSize,
    "ClockInstructionRate": PROPS.clockInstructionRate,
    "MaxSharedMemoryPerMultiprocessor": PROPS.maxSharedMemoryPerMultiProcessor,
    "GcnArch": PROPS.gcnArch, "IsLargeBar": PROPS.isLargeBar,
    "AsicRevision": PROPS.asicRevision, "ImageSupport": int(target(device_arch()).image_instructions),
    "PhysicalMultiProcessorCount": PROPS.multiProcessorCount, "FineGrainSupport": 1,
    "MemoryPoolsSupported": 1,     # hipMallocAsync, hipFreeAsync and the pools are served here
}
VALUES: dict[int, int] = {}
for _base, _names in ((0, CUDA_COMPATIBLE), (10000, AMD_SPECIFIC)):
    for _i, _name in enumerate(_names):
        VALUES[_base + _i] = min(int(BY_NAME.get(_name, 0)), INT_MAX)
