"""Allocation, copies and fills. Device pointers are host addresses of emulator-owned buffers,
so a copy in any direction is a memmove; device-side ranges are checked against the emulator's
allocations first, so a bad pointer is an error code rather than a crash."""

from __future__ import annotations

import ctypes

from . import cmem, errors
from .registry import hip_api
from .state import DEVICE, TOTAL_MEMORY
from .streams import check_stream

H2H, H2D, D2H, D2D, DEFAULT = range(5)  # hipMemcpyKind
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
def hipMallocAsync(out: int, size: int, stream: int) -> int:
    check_stream(stream)
    return _malloc(out, size, "device")


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
def hipFreeAsync(address: int, stream: int) -> int:
    check_stream(stream)
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
def hipMemAdvise(address: int, count: int, advice: int, device: int) -> int:
    DEVICE.check_range(address, count)
    return 0


@hip_api
def hipMemPrefetchAsync(address: int, count: int, device: int, stream: int) -> int:
    check_stream(stream)
    DEVICE.check_range(address, count)
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
    alloc = DEVICE.find(address)
    if alloc is None:
        return errors.NOT_FOUND
    if base:
        cmem.put_ptr(base, alloc.address)
    if size:
        cmem.put_size(size, alloc.size)
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


# --- copies ----------------------------------------------------------------------------------

def copy(dst: int, src: int, size: int, kind: int) -> int:
    if kind not in (H2H, H2D, D2H, D2D, DEFAULT):
        return errors.INVALID_MEMCPY_DIRECTION
    if size == 0:
        return 0
    if not dst or not src:
        return errors.INVALID_VALUE
    if kind in (H2D, D2D):
        DEVICE.check_range(dst, size)
    if kind in (D2H, D2D):
        DEVICE.check_range(src, size)
    ctypes.memmove(dst, src, size)
    DEVICE.advance_copy(size, across_host_link=kind != D2D)
    return 0


@hip_api
def hipMemcpy(dst: int, src: int, size: int, kind: int) -> int:
    return copy(dst, src, size, kind)


@hip_api
def hipMemcpyWithStream(dst: int, src: int, size: int, kind: int, stream: int) -> int:
    check_stream(stream)
    return copy(dst, src, size, kind)


@hip_api
def hipMemcpyAsync(dst: int, src: int, size: int, kind: int, stream: int) -> int:
    check_stream(stream)
    return copy(dst, src, size, kind)


@hip_api
def hipMemcpyHtoD(dst: int, src: int, size: int) -> int:
    return copy(dst, src, size, H2D)


@hip_api
def hipMemcpyDtoH(dst: int, src: int, size: int) -> int:
    return copy(dst, src, size, D2H)


@hip_api
def hipMemcpyDtoD(dst: int, src: int, size: int) -> int:
    return copy(dst, src, size, D2D)


@hip_api
def hipMemcpyHtoDAsync(dst: int, src: int, size: int, stream: int) -> int:
    check_stream(stream)
    return copy(dst, src, size, H2D)


@hip_api
def hipMemcpyDtoHAsync(dst: int, src: int, size: int, stream: int) -> int:
    check_stream(stream)
    return copy(dst, src, size, D2H)


@hip_api
def hipMemcpyDtoDAsync(dst: int, src: int, size: int, stream: int) -> int:
    check_stream(stream)
    return copy(dst, src, size, D2D)


@hip_api
def hipMemcpyPeer(dst: int, dst_device: int, src: int, src_device: int, size: int) -> int:
    if dst_device != 0 or src_device != 0:
        return errors.INVALID_DEVICE
    return copy(dst, src, size, D2D)


@hip_api
def hipMemcpyPeerAsync(dst: int, dst_device: int, src: int, src_device: int, size: int,
                       stream: int) -> int:
    check_stream(stream)
    if dst_device != 0 or src_device != 0:
        return errors.INVALID_DEVICE
    return copy(dst, src, size, D2D)


def copy_2d(dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
            kind: int) -> int:
    if width > dpitch or width > spitch:
        return errors.INVALID_PITCH_VALUE
    for row in range(height):
        code = copy(dst + row * dpitch, src + row * spitch, width, kind)
        if code:
            return code
    return 0


@hip_api
def hipMemcpy2D(dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
                kind: int) -> int:
    return copy_2d(dst, dpitch, src, spitch, width, height, kind)


@hip_api
def hipMemcpy2DAsync(dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
                     kind: int, stream: int) -> int:
    check_stream(stream)
    return copy_2d(dst, dpitch, src, spitch, width, height, kind)


# --- fills -----------------------------------------------------------------------------------

def fill(dst: int, value: int, count: int, width: int) -> int:
    """count elements of `width` bytes, each `value`."""
    nbytes = count * width
    DEVICE.check_range(dst, nbytes)
    if nbytes == 0:
        return 0
    if width == 1:
        ctypes.memset(dst, value & 0xFF, nbytes)
    else:
        ctype = {2: ctypes.c_uint16, 4: ctypes.c_uint32}[width]
        pattern = (ctype * count).from_address(dst)
        pattern[:] = [value & ((1 << (8 * width)) - 1)] * count
    DEVICE.advance_copy(nbytes, across_host_link=False)
    return 0


@hip_api
def hipMemset(dst: int, value: int, size: int) -> int:
    return fill(dst, value, size, 1)


@hip_api
def hipMemsetAsync(dst: int, value: int, size: int, stream: int) -> int:
    check_stream(stream)
    return fill(dst, value, size, 1)


@hip_api
def hipMemsetD8(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 1)


@hip_api
def hipMemsetD8Async(dst: int, value: int, count: int, stream: int) -> int:
    check_stream(stream)
    return fill(dst, value, count, 1)


@hip_api
def hipMemsetD16(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 2)


@hip_api
def hipMemsetD16Async(dst: int, value: int, count: int, stream: int) -> int:
    check_stream(stream)
    return fill(dst, value, count, 2)


@hip_api
def hipMemsetD32(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 4)


@hip_api
def hipMemsetD32Async(dst: int, value: int, count: int, stream: int) -> int:
    check_stream(stream)
    return fill(dst, value, count, 4)


def fill_2d(dst: int, pitch: int, value: int, width: int, height: int) -> int:
    if width > pitch:
        return errors.INVALID_VALUE
    for row in range(height):
        fill(dst + row * pitch, value, width, 1)
    return 0


@hip_api
def hipMemset2D(dst: int, pitch: int, value: int, width: int, height: int) -> int:
    return fill_2d(dst, pitch, value, width, height)


@hip_api
def hipMemset2DAsync(dst: int, pitch: int, value: int, width: int, height: int,
                     stream: int) -> int:
    check_stream(stream)
    return fill_2d(dst, pitch, value, width, height)
