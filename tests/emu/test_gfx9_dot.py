"""The integer and f16 dot products of GFX9 (gfx90a, gfx942) and GFX10.3 (gfx1030) as LLVM selects
them from its dot intrinsics: the signed forms gfx11 lacks (v_dot4_i32_i8, v_dot8_i32_i4,
v_dot2_i32_i16), the unsigned ones, the VOP2 forms that accumulate into their destination
(v_dot4c_i32_i8 is what `__dp4a` becomes on gfx942) and clamp saturation. Kernels from llc-22;
the expected values are the host's, computed element by element with Python integers."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.decode import disassemble

from .emu_build import Device, llc_code_object

KERNEL = """declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.sdot4(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.udot4(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.sdot8(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.udot8(i32, i32, i32, i1)
declare i32 @llvm.amdgcn.sdot2(<2 x i16>, <2 x i16>, i32, i1)
declare i32 @llvm.amdgcn.udot2(<2 x i16>, <2 x i16>, i32, i1)
declare float @llvm.amdgcn.fdot2(<2 x half>, <2 x half>, float, i1)
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t3 = mul i32 %t, 3
  %pa = getelementptr i32, ptr addrspace(1) %in, i32 %t3
  %a = load i32, ptr addrspace(1) %pa
  %pb = getelementptr i32, ptr addrspace(1) %pa, i32 1
  %b = load i32, ptr addrspace(1) %pb
  %pc = getelementptr i32, ptr addrspace(1) %pa, i32 2
  %c = load i32, ptr addrspace(1) %pc
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %ah = bitcast i32 %a to <2 x half>
  %bh = bitcast i32 %b to <2 x half>
  %cf = uitofp i32 %c to float
  %r0 = call i32 @llvm.amdgcn.sdot4(i32 %a, i32 %b, i32 %c, i1 false)
  %r1 = call i32 @llvm.amdgcn.sdot4(i32 %a, i32 %b, i32 %c, i1 true)
  %r2 = call i32 @llvm.amdgcn.udot4(i32 %a, i32 %b, i32 %c, i1 true)
  %r3 = call i32 @llvm.amdgcn.sdot8(i32 %a, i32 %b, i32 %c, i1 false)
  %r4 = call i32 @llvm.amdgcn.sdot8(i32 %a, i32 %b, i32 %c, i1 true)
  %r5 = call i32 @llvm.amdgcn.udot8(i32 %a, i32 %b, i32 %c, i1 false)
  %r6 = call i32 @llvm.amdgcn.sdot2(<2 x i16> %a2, <2 x i16> %b2, i32 %c, i1 false)
  %r7 = call i32 @llvm.amdgcn.sdot2(<2 x i16> %a2, <2 x i16> %b2, i32 %c, i1 true)
  %r8 = call i32 @llvm.amdgcn.udot2(<2 x i16> %a2, <2 x i16> %b2, i32 %c, i1 true)
  %f9 = call float @llvm.amdgcn.fdot2(<2 x half> %ah, <2 x half> %bh, float %cf, i1 false)
  %r9 = bitcast float %f9 to i32
  %o = mul i32 %t, 10
"""
KERNEL += "".join(f"  %o{k} = add i32 %o, {k}\n" for k in range(10))
KERNEL += "".join(f"  %p{k} = getelementptr i32, ptr addrspace(1) %out, i32 %o{k}\n"
                  f"  store i32 %r{k}, ptr addrspace(1) %p{k}\n" for k in range(10))
KERNEL += """  ret void
}
"""
TAIL = '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}\n'
LANES = 64


def _elements(x: int, width: int, signed: bool) -> list[int]:
    values = [(x >> (width * k)) & ((1 << width) - 1) for k in range(32 // width)]
    return [v - (1 << width) if signed and v >> (width - 1) else v for v in values]


def _dot(a: int, b: int, c: int, width: int, signed: bool, clamp: bool) -> int:
    c = c - (1 << 32) if signed and c >> 31 else c
    total = c + sum(x * y for x, y in zip(_elements(a, width, signed), _elements(b, width, signed)))
    if clamp:
        total = min(max(total, -2**31), 2**31 - 1) if signed else min(max(total, 0), 2**32 - 1)
    return total & 0xFFFFFFFF


def _fdot2(a: int, b: int, c: int) -> int:
    """Both f16 products and the f32 sum are exact in f64 for these inputs: one rounding to f32."""
    ha = np.array([a], np.uint32).view(np.float16).astype(np.float64)
    hb = np.array([b], np.uint32).view(np.float16).astype(np.float64)
    return int(np.array([ha @ hb + float(c)], np.float32).view(np.uint32)[0])


FDOT_LANES = slice(32, 48)    # the lanes whose a and b hold normal f16 halves


def host(triples: np.ndarray) -> np.ndarray:
    rows = []
    for lane, (a, b, c) in enumerate(map(int, t) for t in triples):
        rows.append([_dot(a, b, c, 8, True, False), _dot(a, b, c, 8, True, True), _dot(a, b, c, 8, False, True),
                     _dot(a, b, c, 4, True, False), _dot(a, b, c, 4, True, True), _dot(a, b, c, 4, False, False),
                     _dot(a, b, c, 16, True, False), _dot(a, b, c, 16, True, True), _dot(a, b, c, 16, False, True),
                     _fdot2(a, b, c) if lane in range(LANES)[FDOT_LANES] else 0])
    return np.array(rows, np.uint32).reshape(-1)


def _inputs() -> np.ndarray:
    """Random words, and sums near the 32-bit limits so that clamping and wrapping both show; the
    f16 halves of a and b stay normal and small so the f16 dot is exact before its rounding."""
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 2**32, LANES, dtype=np.uint32), rng.integers(0, 2**32, LANES, dtype=np.uint32)
    c = rng.integers(0, 2**32, LANES, dtype=np.uint32)
    c[:16] = [0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0, 0x7FFFFF00, 0x80000100, 0xFFFFFF00, 0x100] * 2
    halves = rng.uniform(-8, 8, (LANES, 2, 2)).astype(np.float16).view(np.uint16)
    a[FDOT_LANES] = halves[FDOT_LANES, 0, 0] | halves[FDOT_LANES, 0, 1].astype(np.uint32) << 16
    b[FDOT_LANES] = halves[FDOT_LANES, 1, 0] | halves[FDOT_LANES, 1, 1].astype(np.uint32) << 16
    c[FDOT_LANES] %= 1000
    return np.stack([a, b, c], axis=1)


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942", "gfx1030"])
def test_dot_products_match_the_host(arch):
    triples = _inputs()
    dev = Device(llc_code_object(KERNEL + TAIL, arch))
    out, data = dev.zeros(10 * LANES, np.uint32), dev.upload(triples.reshape(-1))
    dev.run("k", (1, 1, 1), (LANES, 1, 1), out, data)
    got = dev.download(out, 10 * LANES, np.uint32).reshape(LANES, 10)
    want = host(triples).reshape(LANES, 10)
    np.testing.assert_array_equal(got[:, :9], want[:, :9])
    np.testing.assert_array_equal(got[FDOT_LANES, 9], want[FDOT_LANES, 9])


@pytest.mark.parametrize("arch,forms", [
    ("gfx942", ["v_dot4c_i32_i8_e32", "v_dot8c_i32_i4_e32", "v_dot2c_i32_i16_e32", "v_dot2c_f32_f16_e32",
                "v_dot4_i32_i8", "v_dot8_i32_i4", "v_dot2_i32_i16", "v_dot2_u32_u16"]),
    ("gfx1030", ["v_dot4c_i32_i8", "v_dot2c_f32_f16", "v_dot4_i32_i8", "v_dot2_i32_i16"]),
])
def test_the_kernel_uses_each_form(arch, forms):
    text = disassemble(llc_code_object(KERNEL + TAIL, arch))
    assert [f for f in forms if f"{f} " not in text] == []
