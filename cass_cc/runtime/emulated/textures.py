"""Texture objects and arrays: hipMallocArray, hipMalloc3DArray (cubemaps included), hipFreeArray,
the mipmapped arrays (hipMallocMipmappedArray, hipGetMipmappedArrayLevel, hipFreeMipmappedArray),
the array copies, hipCreateTextureObject and hipDestroyTextureObject.

A hipTextureObject_t points to HIP 5.2's texture object in device memory: 12 dwords of image
descriptor (a gfx11 T#, or a V# for a linear resource, which tex1Dfetch reads with
buffer_load_format; dwords 8 and 9 hold the HSA channel type and order and dword 10 the width,
which HIP's device code reads there: its surf* functions turn CUDA's byte x into a texel index
with them) and 8 dwords of
sampler (an S#), laid out as the emulator reads them (cass_cc/emu/image.py). A hipArray is linear
device memory with packed rows; a cubemap has six square faces as its slices; a mipmapped array
holds its levels after each other as the emulator reads a mip chain (cass_cc/emu/image.py), each
level a hipArray of its own.
"""

from __future__ import annotations

import ctypes

from ...emu import image
from ...targets import target
from ..device_target import device_arch
from . import errors
from .registry import hip_api
from .state import DEVICE
from .streams import enqueue
from .transfers import D2H, DEFAULT, H2D, copy, copy_2d

IMAGE_DWORDS, SAMPLER_DWORDS = 12, 8
SIGNED, UNSIGNED, FLOAT = 0, 1, 2                       # hipChannelFormatKind
RESOURCE_ARRAY, RESOURCE_MIPMAP, RESOURCE_LINEAR, RESOURCE_PITCH2D = range(4)
FILTER_LINEAR, READ_NORMALIZED = 1, 1
ARRAY_LAYERED, ARRAY_CUBEMAP = 1, 4                      # hipMalloc3DArray flags
# hipTextureAddressMode -> S# CLAMP: wrap, clamp, mirror, border
CLAMP = {0: image.WRAP, 1: image.CLAMP_LAST_TEXEL, 2: image.MIRROR, 3: image.CLAMP_BORDER}
IMG_1D, IMG_2D, IMG_3D, IMG_CUBE, IMG_1D_ARRAY, IMG_2D_ARRAY = 8, 9, 10, 11, 12, 13     # T# TYPE
SLICED = (IMG_3D, IMG_CUBE, IMG_1D_ARRAY, IMG_2D_ARRAY)  # T# dword 4 holds depth - 1
TEXTURE_1D_LAYERED, TEXTURE_2D_LAYERED = 0xF1, 0xF2     # hipArray.textureType of a layered array
TEXTURE_CUBEMAP = 0x0C                                  # hipTextureTypeCubemap
MIP_FILTER = {0: image.MIP_POINT, 1: image.MIP_LINEAR}  # hipTextureFilterMode -> S# MIP_FILTER
MAX_LEVELS = 16                                         # T# LAST_LEVEL is 4 bits
SEL_XYZW = [image.SEL_X, image.SEL_X + 1, image.SEL_X + 2, image.SEL_X + 3]
# (numeric format, bits) -> hsa_ext_image_channel_type_t; channels -> hsa_ext_image_channel_order_t
HSA_CHANNEL_TYPE = {("snorm", 8): 0, ("snorm", 16): 1, ("unorm", 8): 2, ("unorm", 16): 3,
                    ("sint", 8): 8, ("sint", 16): 9, ("sint", 32): 10, ("uint", 8): 11, ("uint", 16): 12,
                    ("uint", 32): 13, ("float", 16): 14, ("float", 32): 15}
HSA_CHANNEL_ORDER = {1: 1, 2: 3, 4: 8}                   # R, RG, RGBA


class ChannelFormatDesc(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("z", ctypes.c_int), ("w", ctypes.c_int),
                ("f", ctypes.c_int)]


class Array(ctypes.Structure):
    """struct hipArray of HIP 5.2 (programs may read its fields)."""
    _fields_ = [("data", ctypes.c_void_p), ("desc", ChannelFormatDesc), ("type", ctypes.c_uint),
                ("width", ctypes.c_uint), ("height", ctypes.c_uint), ("depth", ctypes.c_uint),
                ("Format", ctypes.c_int), ("NumChannels", ctypes.c_uint), ("isDrv", ctypes.c_bool),
                ("textureType", ctypes.c_uint)]


class _Linear(ctypes.Structure):
    _fields_ = [("devPtr", ctypes.c_void_p), ("desc", ChannelFormatDesc), ("sizeInBytes", ctypes.c_size_t)]


class _Pitch2D(ctypes.Structure):
    _fields_ = [("devPtr", ctypes.c_void_p), ("desc", ChannelFormatDesc), ("width", ctypes.c_size_t),
                ("height", ctypes.c_size_t), ("pitchInBytes", ctypes.c_size_t)]


class _Res(ctypes.Union):
    _fields_ = [("array", ctypes.c_void_p), ("mipmap", ctypes.c_void_p), ("linear", _Linear), ("pitch2D", _Pitch2D)]


class ResourceDesc(ctypes.Structure):
    _fields_ = [("resType", ctypes.c_int), ("res", _Res)]


class TextureDesc(ctypes.Structure):
    _fields_ = [("addressMode", ctypes.c_int * 3), ("filterMode", ctypes.c_int), ("readMode", ctypes.c_int),
                ("sRGB", ctypes.c_int), ("borderColor", ctypes.c_float * 4), ("normalizedCoords", ctypes.c_int),
                ("maxAnisotropy", ctypes.c_uint), ("mipmapFilterMode", ctypes.c_int),
                ("mipmapLevelBias", ctypes.c_float), ("minMipmapLevelClamp", ctypes.c_float),
                ("maxMipmapLevelClamp", ctypes.c_float)]


class MipmappedArray(ctypes.Structure):
    """struct hipMipmappedArray of HIP 5.2."""
    _fields_ = [("data", ctypes.c_void_p), ("desc", ChannelFormatDesc), ("type", ctypes.c_uint),
                ("width", ctypes.c_uint), ("height", ctypes.c_uint), ("depth", ctypes.c_uint),
                ("min_mipmap_level", ctypes.c_uint), ("max_mipmap_level", ctypes.c_uint),
                ("flags", ctypes.c_uint), ("format", ctypes.c_int)]


ARRAYS: dict[int, Array] = {}           # address of each live hipArray -> the structure itself
# address of each live hipMipmappedArray -> it and its levels (which are in ARRAYS too)
MIPMAPS: dict[int, tuple[MipmappedArray, list[Array]]] = {}


def _format(desc: ChannelFormatDesc) -> tuple[int, int] | None:
    """(channels, bits) of a channel format the emulator's descriptors express, or None."""
    sizes = [desc.x, desc.y, desc.z, desc.w]
    n = next((i for i, s in enumerate(sizes) if s == 0), 4)
    if n in (0, 3) or any(sizes[n:]) or any(s != sizes[0] for s in sizes[:n]) or sizes[0] not in (8, 16, 32):
        return None
    if desc.f not in (SIGNED, UNSIGNED, FLOAT) or (desc.f == FLOAT and sizes[0] == 8):
        return None
    return n, sizes[0]


def _format_code(channels: int, bits: int, kind: int, normalized: bool) -> int:
    numeric = "float" if kind == FLOAT else ("unorm" if kind == UNSIGNED else "snorm") if normalized and bits < 32 \
        else "uint" if kind == UNSIGNED else "sint"
    return next(code for code, f in image.FORMATS.items() if f == (channels, bits, numeric))


def _make_array(out: int, desc_ptr: int, width: int, height: int, depth: int, layered: bool = False,
                cubemap: bool = False) -> int:
    if not out or not desc_ptr or not width:
        return errors.INVALID_VALUE
    desc = ChannelFormatDesc.from_address(desc_ptr)
    fmt = _format(desc)
    if fmt is None:
        return errors.INVALID_VALUE
    element = fmt[0] * fmt[1] // 8
    array = Array(None, ChannelFormatDesc(desc.x, desc.y, desc.z, desc.w, desc.f), 0, width, height, depth)
    array.NumChannels = fmt[0]
    if layered:                     # depth counts the layers; a 1D layered array has height 0
        array.textureType = TEXTURE_2D_LAYERED if height else TEXTURE_1D_LAYERED
    if cubemap:
        array.textureType = TEXTURE_CUBEMAP
    array.data = DEVICE.allocate(width * max(height, 1) * max(depth, 1) * element, "device")
    address = ctypes.addressof(array)
    ARRAYS[address] = array
    ctypes.c_void_p.from_address(out).value = address
    return 0


@hip_api
def hipMallocArray(out: int, desc: int, width: int, height: int, flags: int) -> int:
    return _make_array(out, desc, width, height, 0)


@hip_api
def hipMalloc3DArray(out: int, desc: int, width: int, height: int, depth: int, flags: int) -> int:
    if flags & ARRAY_CUBEMAP:
        if flags & ARRAY_LAYERED:
            return errors.NOT_SUPPORTED                  # layered cubemaps
        if width != height or depth != 6:
            return errors.INVALID_VALUE                  # six square faces
        return _make_array(out, desc, width, height, depth, cubemap=True)
    if flags & ARRAY_LAYERED and not depth:
        return errors.INVALID_VALUE
    return _make_array(out, desc, width, height, depth, bool(flags & ARRAY_LAYERED))


@hip_api
def hipFreeArray(address: int) -> int:
    if any(address in map(ctypes.addressof, levels) for _, levels in MIPMAPS.values()):
        return errors.INVALID_VALUE                      # a level goes with its mipmapped array
    array = ARRAYS.pop(address, None)
    if array is None:
        return errors.INVALID_VALUE if address else 0
    DEVICE.free(array.data, ("device",))
    return 0


@hip_api
def hipMallocMipmappedArray(out: int, desc_ptr: int, width: int, height: int, depth: int, levels: int,
                            flags: int) -> int:
    if not out or not desc_ptr or not width or (depth and not height):
        return errors.INVALID_VALUE
    if flags & (ARRAY_LAYERED | ARRAY_CUBEMAP):
        return errors.NOT_SUPPORTED                      # layered and cubemap mip chains
    desc = ChannelFormatDesc.from_address(desc_ptr)
    fmt = _format(desc)
    if fmt is None:
        return errors.INVALID_VALUE
    levels = min(max(levels, 1), max(width, height, depth).bit_length())   # CUDA's clamp
    if levels > MAX_LEVELS:
        return errors.NOT_SUPPORTED
    element = fmt[0] * fmt[1] // 8
    extents = [(max(width >> l, 1), max(height >> l, 1) if height else 0, max(depth >> l, 1) if depth else 0)
               for l in range(levels)]
    sizes = [-(-w * max(h, 1) * max(d, 1) * element // image.LEVEL_ALIGN) * image.LEVEL_ALIGN for w, h, d in extents]
    mip = MipmappedArray(None, ChannelFormatDesc(desc.x, desc.y, desc.z, desc.w, desc.f), 0, width, height, depth,
                         0, levels - 1, flags)
    mip.data = DEVICE.allocate(sum(sizes), "device")
    arrays, offset = [], 0
    for (w, h, d), size in zip(extents, sizes):
        level = Array(mip.data + offset, ChannelFormatDesc(desc.x, desc.y, desc.z, desc.w, desc.f), 0, w, h, d)
        level.NumChannels = fmt[0]
        ARRAYS[ctypes.addressof(level)] = level
        arrays.append(level)
        offset += size
    MIPMAPS[ctypes.addressof(mip)] = (mip, arrays)
    ctypes.c_void_p.from_address(out).value = ctypes.addressof(mip)
    return 0


@hip_api
def hipGetMipmappedArrayLevel(out: int, address: int, level: int) -> int:
    entry = MIPMAPS.get(address)
    if not out or entry is None or level >= len(entry[1]):
        return errors.INVALID_VALUE
    ctypes.c_void_p.from_address(out).value = ctypes.addressof(entry[1][level])
    return 0


@hip_api
def hipFreeMipmappedArray(address: int) -> int:
    entry = MIPMAPS.pop(address, None)
    if entry is None:
        return errors.INVALID_VALUE if address else 0
    for level in entry[1]:
        ARRAYS.pop(ctypes.addressof(level), None)
    DEVICE.free(entry[0].data, ("device",))
    return 0


def _geometry(array: Array) -> tuple[int, int]:
    """(row pitch in bytes, rows in all slices)."""
    fmt = _format(array.desc)
    return array.width * fmt[0] * fmt[1] // 8, max(array.height, 1) * max(array.depth, 1)


def array_memory(address: int) -> tuple[int, int, int, int] | None:
    """(base, row pitch in bytes, rows per slice, element size) of a live hipArray, for
    hipMemcpy3D with an array (whose positions and extent count the array's elements)."""
    array = ARRAYS.get(address)
    if array is None:
        return None
    fmt = _format(array.desc)
    return array.data, _geometry(array)[0], max(array.height, 1), fmt[0] * fmt[1] // 8


def _array_at(address: int, x: int, y: int, width: int, height: int) -> tuple[int, int] | None:
    array = ARRAYS.get(address)
    if array is None:
        return None
    pitch, rows = _geometry(array)
    if x + width > pitch or y + height > rows:
        return None
    return array.data + y * pitch + x, pitch


@hip_api
def hipMemcpy2DToArray(dst: int, x: int, y: int, src: int, spitch: int, width: int, height: int, kind: int) -> int:
    at = _array_at(dst, x, y, width, height)
    if at is None:
        return errors.INVALID_VALUE
    return copy_2d(at[0], at[1], src, spitch, width, height, H2D if kind == DEFAULT else kind)


@hip_api
def hipMemcpy2DFromArray(dst: int, dpitch: int, src: int, x: int, y: int, width: int, height: int, kind: int) -> int:
    at = _array_at(src, x, y, width, height)
    if at is None:
        return errors.INVALID_VALUE
    return copy_2d(dst, dpitch, at[0], at[1], width, height, D2H if kind == DEFAULT else kind)


@hip_api
def hipMemcpy2DToArrayAsync(dst: int, x: int, y: int, src: int, spitch: int, width: int, height: int, kind: int,
                            stream: int) -> int:
    return enqueue(stream, lambda: hipMemcpy2DToArray(dst, x, y, src, spitch, width, height, kind))


@hip_api
def hipMemcpy2DFromArrayAsync(dst: int, dpitch: int, src: int, x: int, y: int, width: int, height: int,
                              kind: int, stream: int) -> int:
    return enqueue(stream, lambda: hipMemcpy2DFromArray(dst, dpitch, src, x, y, width, height, kind))


def _linear_at(address: int, x: int, y: int, count: int) -> int | None:
    array = ARRAYS.get(address)
    if array is None:
        return None
    pitch, rows = _geometry(array)
    start = y * pitch + x
    return array.data + start if start + count <= pitch * rows else None


@hip_api
def hipMemcpyToArray(dst: int, x: int, y: int, src: int, count: int, kind: int) -> int:
    at = _linear_at(dst, x, y, count)
    return errors.INVALID_VALUE if at is None else copy(at, src, count, H2D if kind == DEFAULT else kind)


@hip_api
def hipMemcpyFromArray(dst: int, src: int, x: int, y: int, count: int, kind: int) -> int:
    at = _linear_at(src, x, y, count)
    return errors.INVALID_VALUE if at is None else copy(dst, at, count, D2H if kind == DEFAULT else kind)


# ---- texture objects -----------------------------------------------------------------------

def _buffer_descriptor(base: int, element: int, count: int, fmt: int, channels: int) -> list[int]:
    """A V#: tex1Dfetch's typed buffer (structured: index < num_records or zero)."""
    sel = sum(s << (3 * c) for c, s in enumerate(_dst_sel(channels)))
    return [base & 0xFFFFFFFF, (base >> 32) & 0xFFFF | element << 16, count, sel | fmt << 12]


def _dst_sel(channels: int) -> list[int]:
    return [SEL_XYZW[c] if c < channels else (image.SEL_1 if c == 3 else image.SEL_0) for c in range(4)]


def _image_descriptor(base: int, fmt: int, channels: int, width: int, height: int, depth: int,
                      pitch_texels: int, kind: int, levels: int = 1) -> list[int]:
    if base & 0xFF:
        raise errors.HipFailure(errors.INVALID_VALUE)       # T# bases are 256-byte aligned
    sel = sum(s << (3 * c) for c, s in enumerate(_dst_sel(channels)))
    t = [0] * IMAGE_DWORDS
    t[0] = (base >> 8) & 0xFFFFFFFF
    t[1] = (base >> 40) & 0xFF | fmt << 20 | ((width - 1) & 3) << 30
    t[2] = (width - 1) >> 2 | (height - 1) << 14
    t[3] = sel | (levels - 1) << 16 | kind << 28         # BASE_LEVEL 0, LAST_LEVEL
    t[4] = depth - 1 if kind in SLICED else pitch_texels - 1
    _, bits, numeric = image.FORMATS[fmt]
    t[8] = HSA_CHANNEL_TYPE[numeric, bits]
    t[9] = HSA_CHANNEL_ORDER[channels]
    t[10] = width
    return t


def _lod_fixed(value: float) -> int:
    """An LOD clamp as the S#'s unsigned 4.8 fixed point."""
    return min(max(round(value * 256), 0), 0xFFF)


def _sampler_descriptor(td: TextureDesc, mipmapped: bool = False) -> list[int]:
    s = [0] * SAMPLER_DWORDS
    for axis in range(3):
        s[0] |= CLAMP.get(td.addressMode[axis], image.CLAMP_LAST_TEXEL) << (3 * axis)
    if not td.normalizedCoords:
        s[0] |= 1 << 15
    if td.filterMode == FILTER_LINEAR:
        s[2] |= 1 << 20 | 1 << 22
    if mipmapped:
        s[1] = _lod_fixed(td.minMipmapLevelClamp) | _lod_fixed(td.maxMipmapLevelClamp) << 12
        s[2] |= MIP_FILTER.get(td.mipmapFilterMode, image.MIP_POINT) << 26
    border = tuple(float(v) for v in td.borderColor)
    if any(border):
        image.BORDER_PALETTE.append(border)
        s[3] = (len(image.BORDER_PALETTE) - 1) | image.BORDER_REGISTER << 30
    return s


def _descriptors(rd: ResourceDesc, td: TextureDesc) -> list[int]:
    array, levels = None, 1
    if rd.resType == RESOURCE_MIPMAP:
        entry = MIPMAPS.get(rd.res.mipmap or 0)
        if entry is None:
            raise errors.HipFailure(errors.INVALID_VALUE)
        if td.mipmapLevelBias != 0.0:
            raise errors.HipFailure(errors.NOT_SUPPORTED)
        array, levels = entry[1][0], len(entry[1])
    elif rd.resType == RESOURCE_ARRAY:
        array = ARRAYS.get(rd.res.array or 0)
    if rd.resType in (RESOURCE_ARRAY, RESOURCE_MIPMAP):
        if array is None:
            raise errors.HipFailure(errors.INVALID_VALUE)
        desc, base = array.desc, array.data
        width, height, depth = array.width, max(array.height, 1), max(array.depth, 1)
        layers = {TEXTURE_1D_LAYERED: IMG_1D_ARRAY, TEXTURE_2D_LAYERED: IMG_2D_ARRAY, TEXTURE_CUBEMAP: IMG_CUBE}
        kind = layers.get(array.textureType) or (IMG_3D if array.depth else IMG_2D if array.height else IMG_1D)
        pitch = width
        if kind == IMG_CUBE:
            # point sampling inside a face needs no seam rule, filtering across an edge would
            if td.filterMode == FILTER_LINEAR or not td.normalizedCoords:
                raise errors.HipFailure(errors.NOT_SUPPORTED)
            td.addressMode[0] = td.addressMode[1] = 1      # a face clamps at its edges
    elif rd.resType in (RESOURCE_LINEAR, RESOURCE_PITCH2D):
        part = rd.res.linear if rd.resType == RESOURCE_LINEAR else rd.res.pitch2D
        desc, base = part.desc, part.devPtr or 0
        if not base:
            raise errors.HipFailure(errors.INVALID_VALUE)
    else:
        raise errors.HipFailure(errors.INVALID_VALUE)
    fmt = _format(desc)
    if fmt is None:
        raise errors.HipFailure(errors.INVALID_VALUE)
    channels, bits = fmt
    element = channels * bits // 8
    normalized = td.readMode == READ_NORMALIZED and desc.f != FLOAT
    code = _format_code(channels, bits, desc.f, normalized)
    if rd.resType == RESOURCE_LINEAR:
        words = _buffer_descriptor(base, element, rd.res.linear.sizeInBytes // element, code, channels)
        return words + [0] * (IMAGE_DWORDS - len(words)) + [0] * SAMPLER_DWORDS
    if rd.resType == RESOURCE_PITCH2D:
        p = rd.res.pitch2D
        if p.pitchInBytes % element or p.pitchInBytes < p.width * element:
            raise errors.HipFailure(errors.INVALID_VALUE)
        width, height, depth, kind, pitch = p.width, p.height, 1, IMG_2D, p.pitchInBytes // element
    return _image_descriptor(base, code, channels, width, height, depth, pitch, kind, levels) + \
        _sampler_descriptor(td, levels > 1)


@hip_api
def hipCreateTextureObject(out: int, res_desc: int, tex_desc: int, view_desc: int) -> int:
    if not out or not res_desc or not tex_desc:
        return errors.INVALID_VALUE
    if view_desc:
        return errors.NOT_SUPPORTED
    if not target(device_arch()).image_instructions:
        return errors.NOT_SUPPORTED     # ROCm's answer on a device without image instructions (MI300)
    # a copy: the descriptors may adjust it (a cubemap's faces clamp), the caller's stays as given
    td = TextureDesc.from_buffer_copy(TextureDesc.from_address(tex_desc))
    words = _descriptors(ResourceDesc.from_address(res_desc), td)
    data = (ctypes.c_uint32 * len(words))(*words)
    address = DEVICE.allocate(ctypes.sizeof(data), "device")
    ctypes.memmove(address, data, ctypes.sizeof(data))
    ctypes.c_void_p.from_address(out).value = address
    return 0


@hip_api
def hipDestroyTextureObject(texture: int) -> int:
    if texture:
        DEVICE.free(texture, ("device",))
    return 0


__all__ = ["hipCreateTextureObject", "hipDestroyTextureObject", "hipMallocArray", "hipFreeArray",
           "hipMallocMipmappedArray", "hipGetMipmappedArrayLevel", "hipFreeMipmappedArray"]
