"""Device management: one emulated gfx1100 device, its properties and attributes, versions,
flags and the primary context."""

from __future__ import annotations

import ctypes

from .. import device_heap
from . import attributes, cmem, errors
from .device_props import HIP_VERSION, PROPS
from .registry import hip_api
from .state import DEVICE, TOTAL_MEMORY

def _check_device(device: int) -> None:
    if device != 0:
        raise errors.HipFailure(errors.INVALID_DEVICE)


@hip_api
def hipInit(flags: int) -> int:
    return errors.SUCCESS if flags == 0 else errors.INVALID_VALUE


@hip_api
def hipGetDeviceCount(count: int) -> int:
    cmem.put_int(count, 1)
    return 0


@hip_api
def hipSetDevice(device: int) -> int:
    _check_device(device)
    return 0


@hip_api
def hipGetDevice(device: int) -> int:
    cmem.put_int(device, 0)
    return 0


@hip_api
def hipDeviceGet(device: int, ordinal: int) -> int:
    _check_device(ordinal)
    cmem.put_int(device, 0)
    return 0


@hip_api
def hipGetDeviceProperties(prop: int, device: int) -> int:
    _check_device(device)
    if not prop:
        return errors.INVALID_VALUE
    ctypes.memmove(prop, ctypes.addressof(PROPS), ctypes.sizeof(PROPS))
    return 0


@hip_api
def hipChooseDevice(device: int, prop: int) -> int:
    cmem.put_int(device, 0)
    return 0


@hip_api
def hipDeviceGetAttribute(value: int, attribute: int, device: int) -> int:
    _check_device(device)
    if attribute not in attributes.VALUES:
        return errors.INVALID_VALUE
    cmem.put_int(value, attributes.VALUES[attribute])
    return 0


@hip_api
def hipDeviceGetName(name: int, length: int, device: int) -> int:
    _check_device(device)
    if not name or length <= 0:
        return errors.INVALID_VALUE
    text = PROPS.name[: length - 1]
    ctypes.memmove(name, text + b"\0", len(text) + 1)
    return 0


@hip_api
def hipDeviceGetPCIBusId(bus_id: int, length: int, device: int) -> int:
    _check_device(device)
    text = f"0000:{PROPS.pciBusID:02x}:00.0".encode()[: max(length - 1, 0)]
    if not bus_id or length <= 0:
        return errors.INVALID_VALUE
    ctypes.memmove(bus_id, text + b"\0", len(text) + 1)
    return 0


@hip_api
def hipDeviceTotalMem(nbytes: int, device: int) -> int:
    _check_device(device)
    cmem.put_size(nbytes, TOTAL_MEMORY)
    return 0


@hip_api
def hipDeviceComputeCapability(major: int, minor: int, device: int) -> int:
    _check_device(device)
    cmem.put_int(major, PROPS.major)
    cmem.put_int(minor, PROPS.minor)
    return 0


@hip_api
def hipDriverGetVersion(version: int) -> int:
    cmem.put_int(version, HIP_VERSION)
    return 0


@hip_api
def hipRuntimeGetVersion(version: int) -> int:
    cmem.put_int(version, HIP_VERSION)
    return 0


_device_flags = [0]


@hip_api
def hipSetDeviceFlags(flags: int) -> int:
    _device_flags[0] = flags
    return 0


@hip_api
def hipGetDeviceFlags(flags: int) -> int:
    cmem.put_uint(flags, _device_flags[0])
    return 0


@hip_api
def hipDeviceGetLimit(value: int, limit: int) -> int:
    limits = {1: 4 * 1024 * 1024, 2: device_heap.DEFAULT_LIMIT}  # printf FIFO, malloc heap
    if limit not in limits:
        return errors.UNSUPPORTED_LIMIT
    cmem.put_size(value, limits[limit])
    return 0


@hip_api
def hipDeviceSetCacheConfig(config: int) -> int:
    return 0


@hip_api
def hipDeviceGetCacheConfig(config: int) -> int:
    cmem.put_int(config, 0)
    return 0


@hip_api
def hipDeviceSetSharedMemConfig(config: int) -> int:
    return 0


@hip_api
def hipDeviceGetSharedMemConfig(config: int) -> int:
    cmem.put_int(config, 1)  # hipSharedMemBankSizeFourByte
    return 0


@hip_api
def hipDeviceCanAccessPeer(can_access: int, device: int, peer: int) -> int:
    _check_device(device)
    _check_device(peer)
    cmem.put_int(can_access, 0)
    return 0


@hip_api
def hipDeviceEnablePeerAccess(peer: int, flags: int) -> int:
    return errors.INVALID_DEVICE


@hip_api
def hipDeviceDisablePeerAccess(peer: int) -> int:
    return errors.INVALID_DEVICE


@hip_api
def hipDeviceReset() -> int:
    DEVICE.reset()
    return 0


@hip_api
def hipCtxGetCurrent(ctx: int) -> int:
    cmem.put_ptr(ctx, PRIMARY_CONTEXT)
    return 0


@hip_api
def hipCtxSetCurrent(ctx: int) -> int:
    return 0 if ctx in (0, PRIMARY_CONTEXT) else errors.INVALID_VALUE


@hip_api
def hipCtxGetDevice(device: int) -> int:
    cmem.put_int(device, 0)
    return 0


@hip_api
def hipDevicePrimaryCtxRetain(ctx: int, device: int) -> int:
    _check_device(device)
    cmem.put_ptr(ctx, PRIMARY_CONTEXT)
    return 0


@hip_api
def hipDevicePrimaryCtxRelease(device: int) -> int:
    _check_device(device)
    return 0


@hip_api
def hipDevicePrimaryCtxGetState(device: int, flags: int, active: int) -> int:
    _check_device(device)
    cmem.put_uint(flags, _device_flags[0])
    cmem.put_int(active, 1)
    return 0


@hip_api
def hipProfilerStart() -> int:
    return 0


@hip_api
def hipProfilerStop() -> int:
    return 0


PRIMARY_CONTEXT = cmem.new_handle()
