"""3D pitched memory: hipMalloc3D, hipMemcpy3D and hipMemset3D over linear memory, as a stack of
2D copies and fills (one per depth slice). An array (hipArray) source or destination is its
packed rows (textures.array_memory); its x position and the extent's width count elements."""

from __future__ import annotations

import ctypes

from . import errors
from .memory import _malloc_pitch
from .registry import hip_api
from .streams import enqueue
from .textures import array_memory
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


def _side(array: int | None, ptr: PitchedPtr, pos: Pos) -> tuple[PitchedPtr | None, Pos, int]:
    """One side of a copy as (pitched memory, position with x in bytes, element size or 1)."""
    if not array:
        return ptr, pos, 1
    memory = array_memory(array)
    if memory is None:
        return None, pos, 1
    base, pitch, rows, element = memory
    return PitchedPtr(base, pitch, pitch, rows), Pos(pos.x * element, pos.y, pos.z), element


def copy_3d(params: int) -> int:
    if not params:
        return errors.INVALID_VALUE
    p = Memcpy3DParms.from_address(params)
    (src, src_pos, src_element), (dst, dst_pos, dst_element) = (
        _side(p.srcArray, p.srcPtr, p.srcPos), _side(p.dstArray, p.dstPtr, p.dstPos))
    if not src or not dst or not src.ptr or not dst.ptr:
        return errors.INVALID_VALUE
    width = p.extent.width * max(src_element, dst_element)
    for z in range(p.extent.depth):
        code = copy_2d(_start(dst, Pos(dst_pos.x, dst_pos.y, dst_pos.z + z)), dst.pitch,
                       _start(src, Pos(src_pos.x, src_pos.y, src_pos.z + z)), src.pitch,
                       width, p.extent.height, p.kind)
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
