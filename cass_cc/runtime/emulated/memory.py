"""Allocation of every kind (device, pinned, registered, managed, pitched) and what HIP says
about a pointer. Allocations are emulator-owned buffers whose host address is the device
pointer."""

from __future__ import annotations

import ctypes

from . import cmem, errors
from .registry import hip_api
from .state import DEVICE, TOTAL_MEMORY
from .streams import check_stream

MEMORY_TYPE_HOST, MEMORY_TYPE_DEVICE = 0, 1
PITCH_ALIGNMENT = 256


def _malloc(out: int, size: int, kind: str, flags: int = 0) -> int:
    if not out:
        return errors.INVALID_VALUE
    cmem.put_ptr(out, DEVICE.allocate(size, kind, flags) if size else 0)
    return 0


@hip_api
def hipMalloc(out: int, size: int) -> int:
    return _malloc(out, size, "device")


@hip_api
def hipExtMallocWithFlags(out: int, size: int, flags: int) -> int:
    return _malloc(out, size, "device", flags)



@hip_api
def hipMallocManaged(out: int, size: int, flags: int) -> int:
    return _malloc(out, size, "managed", flags)


@hip_api
def hipHostMalloc(out: int, size: int, flags: int) -> int:
    return _malloc(out, size, "host", flags)


@hip_api
def hipHostAlloc(out: int, size: int, flags: int) -> int:
    return _malloc(out, size, "host", flags)


@hip_api
def hipMallocHost(out: int, size: int) -> int:
    return _malloc(out, size, "host")


@hip_api
def hipMemAllocHost(out: int, size: int) -> int:
    return _malloc(out, size, "host")


def _malloc_pitch(out: int, pitch_out: int, width: int, height: int) -> int:
    pitch = -(-width // PITCH_ALIGNMENT) * PITCH_ALIGNMENT
    cmem.put_size(pitch_out, pitch)
    return _malloc(out, pitch * height, "device")


@hip_api
def hipMallocPitch(out: int, pitch: int, width: int, height: int) -> int:
    return _malloc_pitch(out, pitch, width, height)


@hip_api
def hipMemAllocPitch(out: int, pitch: int, width: int, height: int, element_size: int) -> int:
    return _malloc_pitch(out, pitch, width, height)


@hip_api
def hipFree(address: int) -> int:
    DEVICE.free(address, ("device", "managed"))
    return 0



@hip_api
def hipHostFree(address: int) -> int:
    DEVICE.free(address, ("host",))
    return 0


@hip_api
def hipFreeHost(address: int) -> int:
    DEVICE.free(address, ("host",))
    return 0


@hip_api
def hipHostRegister(address: int, size: int, flags: int) -> int:
    if not address or not size:
        return errors.INVALID_VALUE
    DEVICE.register(address, size, flags)
    return 0


@hip_api
def hipHostUnregister(address: int) -> int:
    DEVICE.unregister(address)
    return 0


@hip_api
def hipHostGetDevicePointer(out: int, host: int, flags: int) -> int:
    alloc = DEVICE.find(host)
    if alloc is None or alloc.kind not in ("host", "registered"):
        return errors.INVALID_VALUE
    cmem.put_ptr(out, host)
    return 0


@hip_api
def hipHostGetFlags(out: int, host: int) -> int:
    alloc = DEVICE.find(host)
    if alloc is None or alloc.kind not in ("host", "registered"):
        return errors.INVALID_VALUE
    cmem.put_uint(out, alloc.flags)
    return 0


@hip_api
def hipStreamAttachMemAsync(stream: int, address: int, length: int, flags: int) -> int:
    check_stream(stream)
    return 0


@hip_api
def hipMemGetInfo(free: int, total: int) -> int:
    cmem.put_size(free, TOTAL_MEMORY - DEVICE.used_bytes())
    cmem.put_size(total, TOTAL_MEMORY)
    return 0


@hip_api
def hipMemPtrGetInfo(address: int, size: int) -> int:
    alloc = DEVICE.find(address)
    if alloc is None:
        return errors.INVALID_VALUE
    cmem.put_size(size, alloc.size)
    return 0


@hip_api
def hipMemGetAddressRange(base: int, size: int, address: int) -> int:
    """The allocation holding address; for an address in a loaded code object (a global
    variable, a string literal a kernel handed out), the code object's loaded image, which the
    loader allocated whole (cass_cc.emu.code_object), as ROCr's loader does."""
    alloc = DEVICE.find(address)
    if alloc is not None:
        start, length = alloc.address, alloc.size
    else:
        found = DEVICE.memory.find(address)
        if found is None or found[2] != "global":
            return errors.NOT_FOUND
        start, length = found[0], found[1]
    if base:
        cmem.put_ptr(base, start)
    if size:
        cmem.put_size(size, length)
    return 0


class PointerAttributes(ctypes.Structure):
    """hipPointerAttribute_t of HIP 5.2."""
    _fields_ = [("memoryType", ctypes.c_int), ("device", ctypes.c_int),
                ("devicePointer", ctypes.c_void_p), ("hostPointer", ctypes.c_void_p),
                ("isManaged", ctypes.c_int), ("allocationFlags", ctypes.c_uint)]


@hip_api
def hipPointerGetAttributes(out: int, address: int) -> int:
    alloc = DEVICE.find(address)
    if alloc is None or not out:
        return errors.INVALID_VALUE
    attrs = PointerAttributes.from_address(out)
    on_host = alloc.kind in ("host", "registered")
    attrs.memoryType = MEMORY_TYPE_HOST if on_host else MEMORY_TYPE_DEVICE
    attrs.device = 0
    attrs.devicePointer = address
    attrs.hostPointer = address if alloc.kind != "device" else None
    attrs.isManaged = int(alloc.kind == "managed")
    attrs.allocationFlags = alloc.flags
    return 0
