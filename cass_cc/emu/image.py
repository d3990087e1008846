"""Image and typed-buffer instructions: buffer_load_format_* (HIP's tex1Dfetch) and
image_sample* / image_load / image_gather4* (tex1D/tex2D/tex3D, tex2Dgather) and image_store
(HIP's surf*write), reading the resource (T#, V#) and sampler (S#) descriptors as gfx11 lays them
out. An image store out of range is dropped, as an image load out of range reads zeros.

The fields the emulator reads: V# base (dwords 0-1), stride (dword 1 [29:16]), num_records
(dword 2), DST_SEL (dword 3 [11:0]), FORMAT (dword 3 [17:12]); T# base >> 8 (dwords 0-1 [7:0]),
FORMAT (dword 1 [27:20]), width - 1 (dword 1 [31:30] and dword 2 [11:0]), height - 1 (dword 2
[27:14]), DST_SEL (dword 3 [11:0]), depth - 1 (dword 4 [12:0], 3D) or pitch - 1 in texels (dword 4
[13:0]), BASE_LEVEL and LAST_LEVEL (dword 3 [15:12], [19:16]); S# CLAMP_X/Y/Z (dword 0 [8:0]),
FORCE_UNNORMALIZED (dword 0 [15]), MIN_LOD and MAX_LOD (dword 1 [11:0], [23:12], unsigned 4.8
fixed point), XY_MAG_FILTER (dword 2 [21:20]), MIP_FILTER (dword 2 [27:26]: none, point, linear),
BORDER_COLOR_PTR and BORDER_COLOR_TYPE (dword 3 [11:0], [31:30]). FORMAT codes are FORMATS below
(gfx11's numbering); the runtime (runtime/emulated/textures.py) writes them.
Filtering follows the rules CUDA documents (the lifter's, cass_cc/passes/lift/texture.py), so both routes
compute the same values: 8-bit fractional weights, (1-a)(1-b) T00 + a(1-b) T10 + ... in order.

Memory layout (the emulator's, as its arrays are linear where the hardware's are tiled): a mip
chain holds its levels after each other from the T# base, each with packed rows, extents halved
(floor, at least 1; the layers of an array and the faces of a cube do not halve), each level's
start rounded up to 256 bytes. A cube (dim CUBE) is addressed by (s, t, face) after
v_cubeid/v_cubesc/v_cubetc/v_cubema, s and t in [0, 1] on the face, its six faces the slices.
"""

from __future__ import annotations

import math
import re
import struct

import numpy as np

from .decode import Instr
from .fault import EmuFault, Unimplemented
from .state import read_scalar_bits
from .vmem import active_lanes

# FORMAT code -> (channels, bits per channel, numeric format): gfx11's unified format numbers
# (llvm-mc-22 encodes format:[BUF_FMT_32_FLOAT] as 22, [BUF_FMT_8_8_8_8_UNORM] as 42, ...)
FORMATS = {
    1: (1, 8, "unorm"), 2: (1, 8, "snorm"), 5: (1, 8, "uint"), 6: (1, 8, "sint"),
    7: (1, 16, "unorm"), 8: (1, 16, "snorm"), 11: (1, 16, "uint"), 12: (1, 16, "sint"), 13: (1, 16, "float"),
    14: (2, 8, "unorm"), 15: (2, 8, "snorm"), 18: (2, 8, "uint"), 19: (2, 8, "sint"),
    20: (1, 32, "uint"), 21: (1, 32, "sint"), 22: (1, 32, "float"),
    23: (2, 16, "unorm"), 24: (2, 16, "snorm"), 27: (2, 16, "uint"), 28: (2, 16, "sint"), 29: (2, 16, "float"),
    42: (4, 8, "unorm"), 43: (4, 8, "snorm"), 46: (4, 8, "uint"), 47: (4, 8, "sint"),
    48: (2, 32, "uint"), 49: (2, 32, "sint"), 50: (2, 32, "float"),
    51: (4, 16, "unorm"), 52: (4, 16, "snorm"), 55: (4, 16, "uint"), 56: (4, 16, "sint"), 57: (4, 16, "float"),
    61: (4, 32, "uint"), 62: (4, 32, "sint"), 63: (4, 32, "float"),
}
SEL_0, SEL_1, SEL_X = 0, 1, 4                    # DST_SEL: 0, 1, X, Y, Z, W = 0, 1, 4..7
WRAP, MIRROR, CLAMP_LAST_TEXEL, CLAMP_BORDER = 0, 1, 2, 6
BORDER_TRANSPARENT_BLACK, BORDER_OPAQUE_BLACK, BORDER_OPAQUE_WHITE, BORDER_REGISTER = 0, 1, 2, 3
# The border colour palette (the hardware's border colour registers): the runtime adds a colour
# and puts its index in BORDER_COLOR_PTR with BORDER_COLOR_TYPE = register.
BORDER_PALETTE: list[tuple[float, float, float, float]] = []

BUFFER_FORMAT = re.compile(r"^buffer_load_format_(?P<c>x|xy|xyz|xyzw)$")
IMAGE = re.compile(r"^image_(?P<op>sample|sample_lz|sample_l|load|store|gather4|gather4_lz)$")
DIMS = {"SQ_RSRC_IMG_1D": 1, "SQ_RSRC_IMG_2D": 2, "SQ_RSRC_IMG_3D": 3}
# array images: the coordinates, then the layer (a float for sampling, rounded to the nearest
# layer and clamped; an integer for load and store); layers are the slices
LAYERED_DIMS = {"SQ_RSRC_IMG_1D_ARRAY": 1, "SQ_RSRC_IMG_2D_ARRAY": 2}
IMG_3D, IMG_CUBE, IMG_1D_ARRAY, IMG_2D_ARRAY = 10, 11, 12, 13      # T# TYPE with a depth field
CUBE_DIM = "SQ_RSRC_IMG_CUBE"
MIP_NONE, MIP_POINT, MIP_LINEAR = 0, 1, 2                            # S# MIP_FILTER
LEVEL_ALIGN = 256


def _f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def _bits_f32(v: int) -> float:
    return struct.unpack("<f", struct.pack("<I", v & 0xFFFFFFFF))[0]


def _f32(v: float) -> float:
    """Round to single precision (the filter arithmetic is fp32)."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


class Format:
    def __init__(self, code: int, dst_sel: int):
        if code not in FORMATS:      # e.g. 0: a null descriptor, which the hardware reads as zeros
            raise EmuFault("unimplemented", f"a resource descriptor of FORMAT {code} (no bound texture "
                           "or buffer of a format the emulator reads) is not implemented")
        self.channels, self.bits, self.numeric = FORMATS[code]
        self.size = self.channels * self.bits // 8
        self.sel = [(dst_sel >> (3 * c)) & 7 for c in range(4)]
        self.floating = self.numeric in ("unorm", "snorm", "float")

    def convert(self, raw: bytes) -> list[int]:
        """One texel's bytes -> its four result dwords (float bits or integers), after DST_SEL."""
        values = []
        for c in range(self.channels):
            word = int.from_bytes(raw[c * self.bits // 8:(c + 1) * self.bits // 8], "little")
            values.append(self._channel(word))
        one = _f32_bits(1.0) if self.floating else 1
        out = []
        for sel in self.sel:
            if sel >= SEL_X:
                out.append(values[sel - SEL_X] if sel - SEL_X < self.channels else 0)
            else:
                out.append(one if sel == SEL_1 else 0)
        return out

    def encode(self, words: list[int]) -> bytes:
        """Four data dwords (x, y, z, w) -> one texel's bytes, the inverse of convert: unorm and
        snorm clamp and round to nearest even, integers keep their low bits."""
        raw = b""
        for c in range(self.channels):
            raw += (self._encode_channel(words[c]) & ((1 << self.bits) - 1)).to_bytes(self.bits // 8, "little")
        return raw

    def _encode_channel(self, word: int) -> int:
        if self.numeric in ("uint", "sint") or (self.numeric == "float" and self.bits == 32):
            return word
        value = _bits_f32(word)
        if self.numeric == "float":
            return int(np.array([value], np.float16).view(np.uint16)[0])
        if math.isnan(value):
            return 0
        if self.numeric == "unorm":
            return round(min(max(value, 0.0), 1.0) * ((1 << self.bits) - 1))
        return round(min(max(value, -1.0), 1.0) * ((1 << (self.bits - 1)) - 1))

    def _channel(self, word: int) -> int:
        bits = self.bits
        signed = word - (1 << bits) if word >> (bits - 1) else word
        if self.numeric == "uint":
            return word
        if self.numeric == "sint":
            return signed & 0xFFFFFFFF
        if self.numeric == "float":
            return word if bits == 32 else _f32_bits(float(np.frombuffer(word.to_bytes(2, "little"), np.float16)[0]))
        if self.numeric == "unorm":
            return _f32_bits(float(np.float32(word) / np.float32((1 << bits) - 1)))
        return _f32_bits(max(float(np.float32(signed) / np.float32((1 << (bits - 1)) - 1)), -1.0))


def _read(st, address: int, nbytes: int) -> bytes:
    return bytes(st.mem.read(np.array([address], np.uint64), nbytes)[0])


def _store_data(st, wave, lane, vdata: int, dmask: int) -> list[int]:
    """The data of a store: the dmask components from consecutive registers, zero for the rest."""
    words, reg = [0, 0, 0, 0], vdata
    for c in range(4):
        if dmask >> c & 1:
            words[c] = int(st.V[wave, reg, lane])
            reg += 1
    return words


def _write_result(st, wave, lane, vdst: int, dmask: int, words: list[int]) -> None:
    reg = vdst
    for c in range(4):
        if dmask >> c & 1:
            st.V[wave, reg, lane] = words[c] & 0xFFFFFFFF
            reg += 1


# ---- buffer_load_format ------------------------------------------------------------------------

def build_buffer_format(instr: Instr):
    m = BUFFER_FORMAT.match(instr.mnemonic)
    if not m:
        return None
    count = len(m.group("c"))
    vdst, vaddr, desc, soffset = instr.operands[:4]
    offset = int(instr.mods.get("offset", 0))
    idxen, offen = bool(instr.mods.get("idxen")), bool(instr.mods.get("offen"))

    def load(st, w):
        waves, lanes, wi = active_lanes(st, w)
        soff = read_scalar_bits(st, w, soffset, 32)[wi] if soffset.kind == "s" else \
            np.full(len(wi), soffset.value if soffset.kind == "imm" else 0, np.uint32)
        for n, (wave, lane) in enumerate(zip(waves, lanes)):
            d = [int(x) for x in st.S[wave, desc.reg:desc.reg + 4]]
            base = d[0] | (d[1] & 0xFFFF) << 32
            stride = (d[1] >> 16) & 0x3FFF
            fmt = Format((d[3] >> 12) & 0x3F, d[3] & 0xFFF)
            reg = vaddr.reg
            index = int(st.V[wave, reg, lane]) if idxen else 0
            extra = int(st.V[wave, reg + idxen, lane]) if offen else 0
            in_range = index < d[2] if stride else extra + offset < d[2]
            words = fmt.convert(_read(st, base + index * stride + extra + offset + int(soff[n]), fmt.size)) \
                if in_range else [0, 0, 0, 0]
            for c in range(count):
                st.V[wave, vdst.reg + c, lane] = words[c]
        return False
    return load


# ---- image instructions ------------------------------------------------------------------------

class Image:
    """A T# (and its S#) as the sampling code needs them."""

    def __init__(self, t: list[int], s: list[int] | None):
        self.base = (t[0] | (t[1] & 0xFF) << 32) << 8
        self.format = Format((t[1] >> 20) & 0xFF, t[3] & 0xFFF)
        self.width = ((t[1] >> 30) | (t[2] & 0xFFF) << 2) + 1
        self.height = ((t[2] >> 14) & 0x3FFF) + 1
        self.type = t[3] >> 28
        sliced = self.type in (IMG_3D, IMG_CUBE, IMG_1D_ARRAY, IMG_2D_ARRAY)
        self.depth = (t[4] & 0x1FFF) + 1 if sliced else 1
        pitch = self.width if sliced else (t[4] & 0x3FFF) + 1
        if self.type == IMG_1D_ARRAY:
            self.height = 1
        self.row = pitch * self.format.size
        self.slice = self.row * self.height
        self.sizes = (self.width, self.height, self.depth)
        self.levels = max(((t[3] >> 16) & 0xF) - ((t[3] >> 12) & 0xF), 0) + 1
        if self.levels > 1 and (t[3] >> 12) & 0xF:
            raise EmuFault("unimplemented", "a mip chain whose BASE_LEVEL is not 0 is not implemented")
        if s is not None:
            self.clamp = [(s[0] >> (3 * a)) & 7 for a in range(3)]
            self.unnormalized = bool(s[0] >> 15 & 1)
            self.linear = bool((s[2] >> 20) & 3)
            self.lod_range = ((s[1] & 0xFFF) / 256, ((s[1] >> 12) & 0xFFF) / 256)
            self.mip_filter = (s[2] >> 26) & 3
            colour = _border_colour(s[3] >> 30, s[3] & 0xFFF)
            self.border = [_f32_bits(v) if self.format.floating else int(v) & 0xFFFFFFFF for v in colour]

    def level(self, level: int) -> "Image":
        """Mip level `level` as an image of its own (level 0 is this one)."""
        if level == 0:
            return self
        out = object.__new__(Image)
        out.__dict__.update(self.__dict__)
        base = self.base
        for k in range(level):
            width, height, depth = self._extents(k)
            base += -(-width * height * depth * self.format.size // LEVEL_ALIGN) * LEVEL_ALIGN
        out.base = base
        out.width, out.height, out.depth = self._extents(level)
        out.row = out.width * self.format.size
        out.slice = out.row * out.height
        out.sizes = (out.width, out.height, out.depth)
        return out

    def _extents(self, level: int) -> tuple[int, int, int]:
        halve = lambda n: max(n >> level, 1)
        depth = halve(self.depth) if self.type == IMG_3D else self.depth
        return halve(self.width), halve(self.height) if self.type != IMG_1D_ARRAY else 1, depth

    def address(self, i: int, axis: int) -> int | None:
        """Texel index along an axis after the clamp mode; None for the border."""
        n, mode = self.sizes[axis], self.clamp[axis]
        if self.unnormalized and mode in (WRAP, MIRROR):
            mode = CLAMP_LAST_TEXEL
        if mode == WRAP:
            return i % n
        if mode == MIRROR:
            p = i % (2 * n)
            return p if p < n else 2 * n - 1 - p
        if mode == CLAMP_BORDER:
            return i if 0 <= i < n else None
        return min(max(i, 0), n - 1)

    def texel(self, st, index: list[int | None]) -> list[int]:
        if any(i is None for i in index):
            return self.border
        address = self.base + index[0] * self.format.size + index[1] * self.row + index[2] * self.slice
        return self.format.convert(_read(st, address, self.format.size))

    def store(self, st, index: list[int], words: list[int]) -> None:
        address = self.base + index[0] * self.format.size + index[1] * self.row + index[2] * self.slice
        data = np.frombuffer(self.format.encode(words), np.uint8).reshape(1, self.format.size)
        st.mem.write(np.array([address], np.uint64), data)

    def layer(self, value: float) -> int:
        return min(max(round(value) if math.isfinite(value) else 0, 0), self.depth - 1)

    def sample_lod(self, st, coords: list[float], dims: int, layer: int, lod: float) -> list[int]:
        """Sampling at a level of detail: clamped to the S#'s MIN_LOD..MAX_LOD and the levels
        there are; the nearest level (halves up) or the two around it, blended with an 8-bit
        fraction (truncated), as the MIP_FILTER says (none: level 0)."""
        if self.levels == 1 or self.mip_filter == MIP_NONE:
            return self.sample(st, coords, dims, layer)
        low, high = self.lod_range
        c = low if math.isnan(lod) else lod
        c = min(max(min(max(c, low), high), 0.0), self.levels - 1.0)
        if self.mip_filter == MIP_POINT:
            return self.level(math.floor(c + 0.5)).sample(st, coords, dims, layer)
        near = math.floor(c)
        weight = math.floor(_f32(c - near) * 256) / 256     # truncated, as the lifter has the H200's
        words = self.level(near).sample(st, coords, dims, layer)
        if weight == 0:
            return words
        far = self.level(min(near + 1, self.levels - 1)).sample(st, coords, dims, layer)
        return [_f32_bits(_f32(_f32(_bits_f32(a) * _f32(1.0 - weight)) + _f32(_bits_f32(b) * weight)))
                for a, b in zip(words, far)]

    def sample(self, st, coords: list[float], dims: int, layer: int = 0) -> list[int]:
        """Point or linear sampling over the first dims axes, in slice `layer` of an array."""
        coords = list(coords) + [0.0] * (3 - len(coords))
        scaled = [coords[a] if self.unnormalized or a >= dims else _f32(coords[a] * self.sizes[a]) for a in range(3)]
        if not self.linear:
            index = [self.address(_floor(scaled[a]), a) if a < dims else 0 for a in range(3)]
            index[2] = layer if dims < 3 else index[2]
            return self.texel(st, index)
        corners = []
        for a in range(dims):
            shifted = _f32(scaled[a] - 0.5)
            low = _floor(shifted)
            alpha = round(_f32(shifted - low) * 256) / 256           # round half to even, like rint
            corners.append(((self.address(low, a), _f32(1.0 - alpha)), (self.address(low + 1, a), alpha)))
        total = None
        for corner in range(1 << dims):
            weight, index = None, [0, 0, layer]
            for a in range(dims):
                at, w = corners[a][corner >> a & 1]
                index[a] = at
                weight = w if weight is None else _f32(weight * w)
            words = self.texel(st, index)
            term = [_f32(weight * _bits_f32(v)) for v in words]
            total = term if total is None else [_f32(t + x) for t, x in zip(total, term)]
        return [_f32_bits(v) for v in total]


    def gather(self, st, coords: list[float], component: int) -> list[int]:
        """Gather4: the component of texels (i, j+1), (i+1, j+1), (i+1, j), (i, j) around
        (x - 0.5, y - 0.5)."""
        scaled = [coords[a] if self.unnormalized else _f32(coords[a] * self.sizes[a]) for a in range(2)]
        low = [_floor(_f32(u - 0.5)) for u in scaled]
        return [self.texel(st, [self.address(low[0] + dx, 0), self.address(low[1] + dy, 1), 0])[component]
                for dx, dy in ((0, 1), (1, 1), (1, 0), (0, 0))]


def _border_colour(kind: int, index: int) -> tuple[float, float, float, float]:
    if kind == BORDER_REGISTER and index < len(BORDER_PALETTE):
        return BORDER_PALETTE[index]
    if kind == BORDER_OPAQUE_WHITE:
        return (1.0, 1.0, 1.0, 1.0)
    return (0.0, 0.0, 0.0, 1.0 if kind == BORDER_OPAQUE_BLACK else 0.0)


def _floor(v: float) -> int:
    if not math.isfinite(v):
        return 0 if math.isnan(v) else (1 << 30 if v > 0 else -(1 << 30))
    return max(min(math.floor(v), 1 << 30), -(1 << 30))


def build_image(instr: Instr):
    m = IMAGE.match(instr.mnemonic)
    if not m:
        return None
    op = m.group("op")
    vdst, vaddr, rsrc = instr.operands[:3]
    ssamp = instr.operands[3] if op not in ("load", "store") else None
    dmask = int(instr.mods.get("dmask", 1))
    dim = instr.mods.get("dim", "SQ_RSRC_IMG_1D")
    cube = dim == CUBE_DIM          # (s, t, face): the face is the layer of a 2D array
    if cube:
        dim = "SQ_RSRC_IMG_2D_ARRAY"
    if dim not in DIMS and dim not in LAYERED_DIMS:
        raise Unimplemented(f"image dimension {dim}")
    if instr.mods.get("a16") or instr.mods.get("d16"):
        raise Unimplemented("16-bit image addresses or data")
    if op.startswith("gather4") and (dim != "SQ_RSRC_IMG_2D" or cube or dmask not in (1, 2, 4, 8)):
        raise Unimplemented("gather4 other than 2D of one component")
    layered = dim in LAYERED_DIMS
    dims = LAYERED_DIMS[dim] if layered else DIMS[dim]
    words = dims + layered + (op == "sample_l")
    # consecutive VGPRs, or the NSA form's list (gfx11 encodes up to five separate addresses)
    address_regs = vaddr.value[:words] if vaddr.kind == "vlist" else [vaddr.reg + a for a in range(words)]
    if len(address_regs) != words:
        raise Unimplemented(f"an image address of {len(address_regs)} registers where {words} are read")

    def execute(st, w):
        waves, lanes, _ = active_lanes(st, w)
        for wave, lane in zip(waves, lanes):
            t = [int(x) for x in st.S[wave, rsrc.reg:rsrc.reg + 8]]
            s = [int(x) for x in st.S[wave, ssamp.reg:ssamp.reg + 4]] if ssamp is not None else None
            image = Image(t, s)
            raw = [int(st.V[wave, r, lane]) for r in address_regs]
            if layered:     # the layer goes to the slice axis
                raw = raw[:dims] + [0] * (2 - dims) + raw[dims:]
            if op.startswith("gather4"):
                words = image.gather(st, [_bits_f32(v) for v in raw], dmask.bit_length() - 1)
                _write_result(st, wave, lane, vdst.reg, 0xF, words)
                continue
            if op == "store":
                index = [raw[a] if a < dims or layered else 0 for a in range(3)]
                if all(0 <= index[a] < image.sizes[a] for a in range(3)):
                    image.store(st, index, _store_data(st, wave, lane, vdst.reg, dmask))
                continue
            if op == "load":
                index = [raw[a] if a < dims or layered else 0 for a in range(3)]
                inside = all(0 <= index[a] < image.sizes[a] for a in range(3))
                words = image.texel(st, index) if inside else [0, 0, 0, 0]
            else:
                if cube and image.linear:
                    raise EmuFault("unimplemented", "linear filtering of a cube (across its face edges) "
                                   "is not implemented")
                layer = image.layer(_bits_f32(raw[2])) if layered else 0
                lod = _bits_f32(raw[-1]) if op == "sample_l" else 0.0
                words = image.sample_lod(st, [_bits_f32(v) for v in raw[:dims]], dims, layer, lod)
            _write_result(st, wave, lane, vdst.reg, dmask, words)
        return False
    return execute


def build_image_family(instr: Instr):
    """The executor of a buffer_load_format_* or image_* instruction, or None."""
    return build_buffer_format(instr) or build_image(instr)
