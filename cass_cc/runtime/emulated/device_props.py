"""The emulated device's hipDeviceProp_t: ROCm 5.2's layout (tests compare it with the C
header) and the values of a gfx1100 card."""

from __future__ import annotations

import ctypes

from cass_cc import targets
from cass_cc.toolchain import isa_version
from cass_cc.runtime.device_target import device_arch

from .state import TOTAL_MEMORY

HIP_VERSION = 5 * 10_000_000 + 2 * 100_000 + 21153  # the installed headers' HIP_VERSION
ARCH_FLAGS = ("hasGlobalInt32Atomics", "hasGlobalFloatAtomicExch", "hasSharedInt32Atomics",
              "hasSharedFloatAtomicExch", "hasFloatAtomicAdd", "hasGlobalInt64Atomics",
              "hasSharedInt64Atomics", "hasDoubles", "hasWarpVote", "hasWarpBallot",
              "hasWarpShuffle", "hasFunnelShift", "hasThreadFenceSystem", "hasSyncThreadsExt",
              "hasSurfaceFuncs", "has3dGrid", "hasDynamicParallelism")


class DeviceArch(ctypes.Structure):
    _fields_ = [(f, ctypes.c_uint, 1) for f in ARCH_FLAGS]


def _ints(*names: str) -> list:
    return [(n, ctypes.c_int) for n in names]


class DeviceProp(ctypes.Structure):
    """hipDeviceProp_t of hip_runtime_api.h (HIP 5.2); tests compare it with the C header."""
    _fields_ = [
        ("name", ctypes.c_char * 256), ("totalGlobalMem", ctypes.c_size_t),
        ("sharedMemPerBlock", ctypes.c_size_t),
        *_ints("regsPerBlock", "warpSize", "maxThreadsPerBlock"),
        ("maxThreadsDim", ctypes.c_int * 3), ("maxGridSize", ctypes.c_int * 3),
        *_ints("clockRate", "memoryClockRate", "memoryBusWidth"),
        ("totalConstMem", ctypes.c_size_t),
        *_ints("major", "minor", "multiProcessorCount", "l2CacheSize",
               "maxThreadsPerMultiProcessor", "computeMode", "clockInstructionRate"),
        ("arch", DeviceArch),
        *_ints("concurrentKernels", "pciDomainID", "pciBusID", "pciDeviceID"),
        ("maxSharedMemoryPerMultiProcessor", ctypes.c_size_t),
        *_ints("isMultiGpuBoard", "canMapHostMemory", "gcnArch"),
        ("gcnArchName", ctypes.c_char * 256),
        *_ints("integrated", "cooperativeLaunch", "cooperativeMultiDeviceLaunch",
               "maxTexture1DLinear", "maxTexture1D"),
        ("maxTexture2D", ctypes.c_int * 2), ("maxTexture3D", ctypes.c_int * 3),
        ("hdpMemFlushCntl", ctypes.c_void_p), ("hdpRegFlushCntl", ctypes.c_void_p),
        ("memPitch", ctypes.c_size_t), ("textureAlignment", ctypes.c_size_t),
        ("texturePitchAlignment", ctypes.c_size_t),
        *_ints("kernelExecTimeoutEnabled", "ECCEnabled", "tccDriver",
               "cooperativeMultiDeviceUnmatchedFunc", "cooperativeMultiDeviceUnmatchedGridDim",
               "cooperativeMultiDeviceUnmatchedBlockDim",
               "cooperativeMultiDeviceUnmatchedSharedMem", "isLargeBar", "asicRevision",
               "managedMemory", "directManagedMemAccessFromHost", "concurrentManagedAccess",
               "pageableMemoryAccess", "pageableMemoryAccessUsesHostPageTables"),
    ]


def properties() -> DeviceProp:
    """An RX 7900 XTX (gfx1100, 48 WGPs, wave32) as ROCm describes it."""
    p = DeviceProp()
    p.name = f"{targets.target(device_arch()).product} (cass-cc emulated)".encode()
    p.totalGlobalMem = TOTAL_MEMORY
    p.sharedMemPerBlock = targets.target(device_arch()).lds_per_workgroup
    p.regsPerBlock = 65536
    p.warpSize = targets.target(device_arch()).wave_size
    p.maxThreadsPerBlock = 1024
    p.maxThreadsDim[:] = (1024, 1024, 1024)
    p.maxGridSize[:] = (2147483647, 65536, 65536)
    p.clockRate = 2_500_000
    p.memoryClockRate = 1_250_000
    p.memoryBusWidth = 384
    p.totalConstMem = 2147483647
    p.major, p.minor = divmod(isa_version(device_arch()) // 100, 10)
    p.multiProcessorCount = 48
    p.l2CacheSize = 6 * 1024 * 1024
    p.maxThreadsPerMultiProcessor = 2048
    p.clockInstructionRate = 100_000
    for flag in ARCH_FLAGS:
        setattr(p.arch, flag, flag not in ("hasSurfaceFuncs", "hasDynamicParallelism"))
    p.concurrentKernels = 1
    p.pciBusID = 3
    p.maxSharedMemoryPerMultiProcessor = p.sharedMemPerBlock
    p.canMapHostMemory = 1
    version = isa_version(device_arch())          # as ROCm computes it: gfx90a -> 910, gfx1100 -> 1100
    p.gcnArch = version // 1000 * 100 + version // 100 % 10 * 10 + version % 100
    p.gcnArchName = device_arch().encode()
    p.cooperativeLaunch = 1
    p.cooperativeMultiDeviceLaunch = 1
    p.maxTexture1DLinear = 2**31 - 1
    p.maxTexture1D = 16384
    p.maxTexture2D[:] = (16384, 16384)
    p.maxTexture3D[:] = (2048, 2048, 2048)
    p.memPitch = 2147483647
    p.textureAlignment = 256
    p.texturePitchAlignment = 256
    p.isLargeBar = 1
    p.managedMemory = 1
    p.concurrentManagedAccess = 1
    return p


PROPS = properties()
