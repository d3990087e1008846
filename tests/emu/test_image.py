"""The emulator's image family (cass_cc/emu/image.py) on real emulator memory: descriptor fields,
format conversion, clamp modes and CUDA's filtering rules, with descriptors written by the
emulated runtime's own encoder (runtime/emulated/textures.py). Whole programs using textures
(tests/programs/realworld/texture_1d, texture_2d) run through both routes in the program tests."""

from __future__ import annotations

import math
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from cass_cc.emu import image
from cass_cc.emu.decode import parse_instruction
from cass_cc.emu.fault import EmuFault, Unimplemented
from cass_cc.emu.memory import Memory
from cass_cc.runtime.emulated import textures


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def make_image(data: np.ndarray, fmt: int, channels: int, *, clamp=image.CLAMP_LAST_TEXEL,
               linear=False, unnormalized=True, border=None):
    """An emulator memory holding `data` (rows x columns [x channels]) and its T#/S# words."""
    mem = Memory()
    raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
    base = mem.allocate(raw.size)
    mem.write(np.array([base], np.uint64), raw.reshape(1, -1))
    height, width = data.shape[:2]
    t = textures._image_descriptor(base, fmt, channels, width, height, 1, width, textures.IMG_2D)
    td = textures.TextureDesc()
    td.addressMode[0] = td.addressMode[1] = {image.CLAMP_LAST_TEXEL: 1, image.WRAP: 0, image.MIRROR: 2,
                                             image.CLAMP_BORDER: 3}[clamp]
    td.filterMode = 1 if linear else 0
    td.normalizedCoords = 0 if unnormalized else 1
    if border:
        for c in range(4):
            td.borderColor[c] = border[c]
    s = textures._sampler_descriptor(td)
    return SimpleNamespace(mem=mem), image.Image(t, s)


def test_descriptor_fields_round_trip():
    st, img = make_image(np.zeros((5, 7), np.float32), 22, 1)
    assert (img.width, img.height, img.depth) == (7, 5, 1)
    assert img.format.channels == 1 and img.format.numeric == "float"
    assert img.unnormalized and not img.linear


def test_formats_convert_like_cuda_read_modes():
    unorm = image.Format(42, 0o7654)                       # 8_8_8_8 UNORM, X Y Z W
    assert [f32(v) for v in unorm.convert(bytes([0, 255, 51, 128]))] == [0.0, 1.0, np.float32(51) / np.float32(255),
                                                                       np.float32(128) / np.float32(255)]
    snorm = image.Format(2, 0o1004)                        # 8 SNORM, X 0 0 1
    assert [f32(v) for v in snorm.convert(bytes([0x80]))] == [-1.0, 0.0, 0.0, 1.0]
    half = image.Format(13, 0o4)
    assert f32(half.convert(struct.pack("<e", -2.5))[0]) == -2.5
    sint = image.Format(12, 0o4)
    assert sint.convert(struct.pack("<h", -3))[0] == (-3) & 0xFFFFFFFF
    with pytest.raises(EmuFault, match="FORMAT 99 .* not implemented"):
        image.Format(99, 0)


@pytest.mark.parametrize("clamp, index, want", [
    (image.CLAMP_LAST_TEXEL, -3, 0), (image.CLAMP_LAST_TEXEL, 9, 3),
    (image.WRAP, -1, 3), (image.WRAP, 9, 1), (image.MIRROR, 4, 3), (image.MIRROR, -1, 0),
    (image.CLAMP_BORDER, 4, None), (image.CLAMP_BORDER, 2, 2)])
def test_clamp_modes_with_normalised_coordinates(clamp, index, want):
    _, img = make_image(np.zeros((1, 4), np.float32), 22, 1, clamp=clamp, unnormalized=False)
    assert img.address(index, 0) == want


def test_wrap_acts_as_clamp_for_unnormalised_coordinates():
    _, img = make_image(np.zeros((1, 4), np.float32), 22, 1, clamp=image.WRAP)
    assert img.address(9, 0) == 3


def test_point_and_bilinear_sampling_with_eight_bit_weights():
    data = np.arange(12, dtype=np.float32).reshape(3, 4) * 4
    st, point = make_image(data, 22, 1)
    assert f32(point.sample(st, [2.9, 1.2], 2)[0]) == data[1, 2]
    st, lin = make_image(data, 22, 1, linear=True)
    # x = 1.75 -> between columns 1 and 2 with a = 0.25; y = 1.0 -> rows 0 and 1 with b = 0.5
    want = 0.75 * 0.5 * data[0, 1] + 0.25 * 0.5 * data[0, 2] + 0.75 * 0.5 * data[1, 1] + 0.25 * 0.5 * data[1, 2]
    assert f32(lin.sample(st, [1.75, 1.0], 2)[0]) == pytest.approx(want, abs=0)
    # a fraction of 1/1000 rounds to the 1/256 grid: the weight is 0, the texel alone
    assert f32(lin.sample(st, [1.501, 0.5], 2)[0]) == data[0, 1]


def test_border_colour_comes_from_the_palette():
    st, img = make_image(np.ones((2, 2), np.float32), 22, 1, clamp=image.CLAMP_BORDER,
                         border=(0.25, 0.5, 0.75, 1.0))
    assert [f32(v) for v in img.sample(st, [5.0, 0.5], 2)] == [0.25, 0.5, 0.75, 1.0]
    assert f32(img.sample(st, [1.5, 0.5], 2)[0]) == 1.0


def test_the_instructions_hipcc_emits_decode_and_build():
    sample = parse_instruction("image_sample_lz v9, v[2:3], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D", 0, 8)
    fetch = parse_instruction("buffer_load_format_x v1, v0, s[4:7], 0 idxen", 0, 8)
    assert not sample.error and not fetch.error
    assert image.build_image_family(sample) is not None
    assert image.build_image_family(fetch) is not None
    assert image.build_image_family(parse_instruction("global_load_b32 v1, v0, s[0:1]", 0, 8)) is None
    with pytest.raises(Unimplemented):
        image.build_image_family(parse_instruction(
            "image_sample_lz v9, v[2:3], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA", 0, 8))


def test_gather4_returns_the_footprint_in_direct3d_order():
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    st, img = make_image(data, 22, 1)
    # (1.75, 1.25): i = 1, j = 0 -> (1, 1), (2, 1), (2, 0), (1, 0)
    assert [f32(v) for v in img.gather(st, [1.75, 1.25], 0)] == [data[1, 1], data[1, 2], data[0, 2], data[0, 1]]
    gather = parse_instruction("image_gather4_lz v[0:3], v[0:1], s[0:7], s[12:15] dmask:0x2 dim:SQ_RSRC_IMG_2D", 0, 8)
    assert image.build_image_family(gather) is not None


def test_image_store_encodes_the_texel_format_and_drops_out_of_range_stores():
    data = np.zeros((2, 3, 4), np.uint8)
    st, img = make_image(data, 46, 4)                      # 8_8_8_8 UINT: integers keep their low bits
    img.store(st, [1, 1, 0], [200, 7, 300, 0xFFFFFFFF])
    assert img.texel(st, [1, 1, 0]) == [200, 7, 300 & 0xFF, 0xFF]
    unorm = image.Format(42, 0o7654)
    assert list(unorm.encode([bits(0.5), bits(-1.0), bits(2.0), bits(51 / 255)])) == [128, 0, 255, 51]
    snorm = image.Format(8, 0o7654)                        # 16 SNORM
    assert snorm.encode([bits(-0.5), 0, 0, 0]) == (-16384 & 0xFFFF).to_bytes(2, "little")   # -16383.5, to even
    store = parse_instruction("image_store v[5:8], v[11:12], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D unorm", 0, 8)
    assert not store.error and image.build_image_family(store) is not None


def test_descriptors_carry_the_hsa_channel_type_and_order_hip_reads():
    # HIP's surf* functions turn CUDA's byte x into a texel index from dwords 8 and 9
    t = textures._image_descriptor(0x1000, 46, 4, 8, 2, 1, 8, textures.IMG_2D)
    assert (t[8], t[9], t[10]) == (11, 8, 8)                # UNSIGNED_INT8, RGBA, width
    t = textures._image_descriptor(0x1000, 22, 1, 8, 2, 1, 8, textures.IMG_2D)
    assert (t[8], t[9]) == (15, 1)                          # FLOAT, R


def test_a_layered_image_samples_within_the_nearest_layer():
    layers = np.stack([np.full((2, 4), 10.0 * k, np.float32) + np.arange(4, dtype=np.float32) for k in range(3)])
    mem = Memory()
    raw = layers.view(np.uint8).reshape(1, -1)
    base = mem.allocate(raw.size)
    mem.write(np.array([base], np.uint64), raw)
    t = textures._image_descriptor(base, 22, 1, 4, 2, 3, 4, textures.IMG_2D_ARRAY)
    td = textures.TextureDesc()
    td.addressMode[0] = td.addressMode[1] = 1
    td.filterMode = 1
    td.normalizedCoords = 0
    img = image.Image(t, textures._sampler_descriptor(td))
    st = SimpleNamespace(mem=mem)
    assert [img.layer(v) for v in (-1.0, 0.4, 1.6, 7.0)] == [0, 0, 2, 2]
    # linear along x inside layer 1 only: halfway between texels 1 and 2
    assert f32(img.sample(st, [2.0, 1.0], 2, img.layer(1.0))[0]) == 11.5
    sample = parse_instruction("image_sample_lz v9, v[2:4], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY", 0, 8)
    assert not sample.error and image.build_image_family(sample) is not None


# ---- mip chains and cubes, through the instructions ----------------------------------------------

def _mip_chain(width: int, height: int, levels: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The bytes of a float mip chain as image.py documents the layout (levels after each other,
    packed rows, each start rounded up to 256 bytes), texel (x, y) of level l = 100 l + 10 y + x."""
    chunks, extents = [], []
    for level in range(levels):
        w, h = max(width >> level, 1), max(height >> level, 1)
        texels = (100 * level + 10 * np.arange(h)[:, None] + np.arange(w)[None, :]).astype(np.float32)
        raw = texels.view(np.uint8).reshape(-1)
        chunks.append(np.concatenate([raw, np.zeros(-raw.size % 256, np.uint8)]))
        extents.append((w, h))
    return np.concatenate(chunks), extents


def _descriptors(t: list[int], td) -> np.ndarray:
    return np.array(t + textures._sampler_descriptor(td, mipmapped=True), np.uint32)


SAMPLE_L = """
  s_load_b256 s[12:19], s[4:5], 0x0
  s_load_b128 s[20:23], s[4:5], 0x30
  v_lshlrev_b32 v2, 2, v1                     ; 16 bytes of query per lane
  global_load_b128 v[4:7], v2, s[6:7]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  image_sample_l v10, [v4, v5, v6], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v10, s[8:9]
"""


@pytest.mark.parametrize("mip_filter", [0, 1])              # hipFilterModePoint, hipFilterModeLinear
def test_sample_l_picks_and_blends_mip_levels_within_the_lod_clamps(mip_filter):
    from .emu_build import asm_device
    chain, extents = _mip_chain(8, 6, 4)
    dev = asm_device(SAMPLE_L, npointers=3)
    base = dev.upload(chain)
    assert base % 256 == 0
    td = textures.TextureDesc()
    td.normalizedCoords, td.mipmapFilterMode = 1, mip_filter
    td.minMipmapLevelClamp, td.maxMipmapLevelClamp = 0.5, 2.75
    t = textures._image_descriptor(base, 22, 1, 8, 6, 1, 8, textures.IMG_2D, levels=4)
    lods = [-32.0, 0.0, 0.625, 1.25, 1.75, 2.375, 2.75, 9.0, float("nan")]
    u, v = 0.8125, 0.4375                                    # inside a texel at every level
    queries = np.array([[u, v, lod, 0.0] for lod in lods], np.float32)
    pout = dev.zeros(len(lods), np.float32)
    dev.run("k", 1, len(lods), dev.upload(_descriptors(t, td)), dev.upload(queries), pout)
    got = dev.download(pout, len(lods), np.float32)

    def texel(level):
        w, h = extents[level]
        return 100 * level + 10 * math.floor(v * h) + math.floor(u * w)
    for lod, value in zip(lods, got):
        c = min(max(0.5 if math.isnan(lod) else lod, 0.5), 2.75)
        if mip_filter == 0:
            want = texel(math.floor(c + 0.5))
        else:
            near, w = math.floor(c), c - math.floor(c)      # multiples of 1/8: exact on the 1/256 grid
            want = (1 - w) * texel(near) + w * texel(min(near + 1, 3))
        assert value == pytest.approx(want, abs=0), lod


CUBE = """
  s_load_b256 s[12:19], s[4:5], 0x0
  s_load_b128 s[20:23], s[4:5], 0x30
  v_lshlrev_b32 v2, 2, v1
  global_load_b128 v[4:7], v2, s[6:7]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_cubema_f32 v7, v4, v5, v6
  v_cubesc_f32 v8, v4, v5, v6
  v_cubetc_f32 v9, v4, v5, v6
  v_cubeid_f32 v6, v4, v5, v6
  v_rcp_f32_e64 v7, |v7|                      ; AMD's shaders divide by |2 major axis|
  v_fma_f32 v4, v8, v7, 0.5
  v_fma_f32 v5, v9, v7, 0.5
  image_sample_lz v10, v[4:6], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_CUBE
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v10, s[8:9]
"""

# (direction, face, row, column) by the OpenGL/CUDA cube table: +X (s, t) = (-z, -y), -X (z, -y),
# +Y (x, z), -Y (x, -z), +Z (x, -y), -Z (-x, -y), each divided by the major axis, then (c + 1) / 2
CUBE_CASES = [((1.0, 0.3, -0.6), 0, 1, 3), ((-2.0, 1.1, 0.4), 1, 0, 2), ((0.2, 4.0, -3.0), 2, 0, 2),
              ((-0.7, -1.0, 0.1), 3, 1, 0), ((0.45, -0.3, 1.0), 4, 2, 2), ((-1.3, 0.9, -2.0), 5, 1, 3)]


def _cube_device(linear: bool):
    from .emu_build import asm_device
    faces = np.array([[[100 * f + 10 * y + x for x in range(4)] for y in range(4)] for f in range(6)], np.float32)
    dev = asm_device(CUBE, npointers=3)
    base = dev.upload(faces)
    td = textures.TextureDesc()
    td.normalizedCoords, td.filterMode = 1, int(linear)
    t = textures._image_descriptor(base, 22, 1, 4, 4, 6, 4, textures.IMG_CUBE)
    return dev, dev.upload(np.array(t + textures._sampler_descriptor(td), np.uint32))


def test_a_cube_sample_reads_the_face_and_texel_the_direction_points_at():
    dev, desc = _cube_device(linear=False)
    queries = np.array([[*d, 0.0] for d, *_ in CUBE_CASES], np.float32)
    pout = dev.zeros(len(CUBE_CASES), np.float32)
    dev.run("k", 1, len(CUBE_CASES), desc, dev.upload(queries), pout)
    got = dev.download(pout, len(CUBE_CASES), np.float32)
    assert list(got) == [100 * f + 10 * row + col for _, f, row, col in CUBE_CASES]


def test_linear_filtering_of_a_cube_is_refused_by_name():
    dev, desc = _cube_device(linear=True)
    with pytest.raises(EmuFault, match="linear filtering of a cube"):
        dev.run("k", 1, 1, desc, dev.upload(np.array([[1.0, 0.0, 0.0, 0.0]], np.float32)), dev.zeros(1, np.float32))


def test_an_nsa_address_decodes_to_its_registers():
    instr = parse_instruction("image_sample_l v7, [v0, v0, v5], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D", 0, 8)
    assert not instr.error and instr.operands[1].kind == "vlist" and instr.operands[1].value == [0, 0, 5]
    with pytest.raises(Unimplemented, match="address of 2 registers where 3"):
        image.build_image_family(parse_instruction(
            "image_sample_l v7, [v0, v5], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D", 0, 8))
