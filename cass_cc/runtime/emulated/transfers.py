"""Copies and fills. Device pointers are host addresses of emulator-owned buffers, so a copy in
any direction is a memmove; device-side ranges are checked against the emulator's allocations
first, so a bad pointer is an error code rather than a crash."""

from __future__ import annotations

import ctypes

from . import errors
from .registry import hip_api
from .state import DEVICE
from .streams import enqueue

H2H, H2D, D2H, D2D, DEFAULT = range(5)  # hipMemcpyKind


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
    return enqueue(stream, lambda: copy(dst, src, size, kind))


@hip_api
def hipMemcpyAsync(dst: int, src: int, size: int, kind: int, stream: int) -> int:
    return enqueue(stream, lambda: copy(dst, src, size, kind))


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
    return enqueue(stream, lambda: copy(dst, src, size, H2D))


@hip_api
def hipMemcpyDtoHAsync(dst: int, src: int, size: int, stream: int) -> int:
    return enqueue(stream, lambda: copy(dst, src, size, D2H))


@hip_api
def hipMemcpyDtoDAsync(dst: int, src: int, size: int, stream: int) -> int:
    return enqueue(stream, lambda: copy(dst, src, size, D2D))


@hip_api
def hipMemcpyPeer(dst: int, dst_device: int, src: int, src_device: int, size: int) -> int:
    if dst_device != 0 or src_device != 0:
        return errors.INVALID_DEVICE
    return copy(dst, src, size, D2D)


@hip_api
def hipMemcpyPeerAsync(dst: int, dst_device: int, src: int, src_device: int, size: int,
                       stream: int) -> int:
    if dst_device != 0 or src_device != 0:
        return errors.INVALID_DEVICE
    return enqueue(stream, lambda: copy(dst, src, size, D2D))


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
    return enqueue(stream, lambda: copy_2d(dst, dpitch, src, spitch, width, height, kind))


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
    return enqueue(stream, lambda: fill(dst, value, size, 1))


@hip_api
def hipMemsetD8(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 1)


@hip_api
def hipMemsetD8Async(dst: int, value: int, count: int, stream: int) -> int:
    return enqueue(stream, lambda: fill(dst, value, count, 1))


@hip_api
def hipMemsetD16(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 2)


@hip_api
def hipMemsetD16Async(dst: int, value: int, count: int, stream: int) -> int:
    return enqueue(stream, lambda: fill(dst, value, count, 2))


@hip_api
def hipMemsetD32(dst: int, value: int, count: int) -> int:
    return fill(dst, value, count, 4)


@hip_api
def hipMemsetD32Async(dst: int, value: int, count: int, stream: int) -> int:
    return enqueue(stream, lambda: fill(dst, value, count, 4))


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
    return enqueue(stream, lambda: fill_2d(dst, pitch, value, width, height))
