"""3D pitched memory: hipMalloc3D, hipMemcpy3D and hipMemset3D over linear memory, as a stack of
2D copies and fills (one per depth slice). Array (hipArray) sources and destinations are
texture memory, which the emulator does not have."""

from __future__ import annotations

import ctypes

from . import errors
from .memory import _malloc_pitch
from .registry import hip_api
from .streams import enqueue
from .transfers import copy_2d, fill_2d


class Pos(ctypes.Structure):
    _fields_ = [("x", ctypes.c_size_t), ("y", ctypes.c_size_t), ("z", ctypes.c_size_t)]


class PitchedPtr(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p), ("pitch", ctypes.c_size_t), ("xsize", ctypes.c_size_t),
                ("ysize", ctypes.c_size_t)]


class Extent(ctypes.Structure):
    _fields_ = [("width", ctypes.c_size_t), ("height", ctypes.c_size_t), ("depth", ctypes.c_size_t)]


class Memcpy3DParms(ctypes.Structure):
    """hipMemcpy3DParms of HIP 5.2."""
    _fields_ = [("srcArray", ctypes.c_void_p), ("srcPos", Pos), ("srcPtr", PitchedPtr),
                ("dstArray", ctypes.c_void_p), ("dstPos", Pos), ("dstPtr", PitchedPtr),
                ("extent", Extent), ("kind", ctypes.c_int)]


@hip_api
def hipMalloc3D(out: int, width: int, height: int, depth: int) -> int:
    """width in bytes; the rows of every slice are pitched like hipMallocPitch's."""
    if not out:
        return errors.INVALID_VALUE
    result = PitchedPtr.from_address(out)
    pitch = ctypes.c_size_t()
    base = ctypes.c_void_p()
    code = _malloc_pitch(ctypes.addressof(base), ctypes.addressof(pitch), width, height * depth)
    if code:
        return code
    result.ptr, result.pitch, result.xsize, result.ysize = base.value, pitch.value, width, height
    return 0


def _start(ptr: PitchedPtr, pos: Pos) -> int:
    """Address of the element at pos (x in bytes) of a pitched allocation."""
    return (ptr.ptr or 0) + (pos.z * ptr.ysize + pos.y) * ptr.pitch + pos.x


def copy_3d(params: int) -> int:
    if not params:
        return errors.INVALID_VALUE
    p = Memcpy3DParms.from_address(params)
    if p.srcArray or p.dstArray:
        return errors.NOT_SUPPORTED
    src, dst, extent = p.srcPtr, p.dstPtr, p.extent
    if not src.ptr or not dst.ptr:
        return errors.INVALID_VALUE
    for z in range(extent.depth):
        code = copy_2d(_start(dst, Pos(p.dstPos.x, p.dstPos.y, p.dstPos.z + z)), dst.pitch,
                       _start(src, Pos(p.srcPos.x, p.srcPos.y, p.srcPos.z + z)), src.pitch,
                       extent.width, extent.height, p.kind)
        if code:
            return code
    return 0


@hip_api
def hipMemcpy3D(params: int) -> int:
    return copy_3d(params)


@hip_api
def hipMemcpy3DAsync(params: int, stream: int) -> int:
    saved = bytes(Memcpy3DParms.from_address(params)) if params else b""  # the caller may reuse it
    kept = ctypes.create_string_buffer(saved, len(saved))
    return enqueue(stream, lambda: copy_3d(ctypes.addressof(kept) if saved else 0))


def fill_3d(ptr: int, pitch: int, ysize: int, value: int, width: int, height: int, depth: int) -> int:
    if not ptr:
        return errors.INVALID_VALUE
    for z in range(depth):
        code = fill_2d(ptr + z * ysize * pitch, pitch, value, width, height)
        if code:
            return code
    return 0


@hip_api
def hipMemset3D(ptr: int, pitch: int, xsize: int, ysize: int, value: int, width: int, height: int,
                depth: int) -> int:
    return fill_3d(ptr, pitch, ysize, value, width, height, depth)


@hip_api
def hipMemset3DAsync(ptr: int, pitch: int, xsize: int, ysize: int, value: int, width: int, height: int,
                     depth: int, stream: int) -> int:
    return enqueue(stream, lambda: fill_3d(ptr, pitch, ysize, value, width, height, depth))
