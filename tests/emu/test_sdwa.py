"""Byte, short and half arithmetic as LLVM compiles it for GFX9 and GFX10.3: SDWA operand
selection (src_sel with sign extension, dst_sel and dst_unused), GFX9's 16-bit VOP2 results
that clear bits 31:16, v_cmpx writing VCC too on GFX9. Kernels from llc-22; the values are the
host's."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.decode import disassemble

from .emu_build import Device, llc_code_object

TAIL = '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}\n'
KERNEL = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %h) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %t
  %x = load i32, ptr addrspace(1) %pa
  %v = bitcast i32 %x to <4 x i8>
  %w = add <4 x i8> %v, <i8 3, i8 5, i8 7, i8 9>
  %m = mul <4 x i8> %w, %v
  %r = bitcast <4 x i8> %m to i32
  %sb = ashr <4 x i8> %v, <i8 1, i8 2, i8 3, i8 1>
  %sw = sext <4 x i8> %sb to <4 x i16>
  %ss = add <4 x i16> %sw, <i16 -300, i16 7, i16 1000, i16 -2>
  %sr = bitcast <4 x i16> %ss to i64
  %srl = trunc i64 %sr to i32
  %srh64 = lshr i64 %sr, 32
  %srh = trunc i64 %srh64 to i32
  %ph = getelementptr <2 x half>, ptr addrspace(1) %h, i32 %t
  %hv = load <2 x half>, ptr addrspace(1) %ph
  %e1 = extractelement <2 x half> %hv, i32 1
  %ef = fpext half %e1 to float
  %ei = fptosi float %ef to i32
  %s16 = trunc i32 %x to i16
  %s16b = lshr i32 %x, 16
  %s16c = trunc i32 %s16b to i16
  %sm = mul i16 %s16, %s16c
  %sa = add i16 %sm, 12345
  %smx = zext i16 %sa to i32
  %o0 = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %o0
  %t1 = add i32 %t, 64
  %o1 = getelementptr i32, ptr addrspace(1) %out, i32 %t1
  store i32 %ei, ptr addrspace(1) %o1
  %t2 = add i32 %t, 128
  %o2 = getelementptr i32, ptr addrspace(1) %out, i32 %t2
  store i32 %smx, ptr addrspace(1) %o2
  %t3 = add i32 %t, 192
  %o3 = getelementptr i32, ptr addrspace(1) %out, i32 %t3
  store i32 %srl, ptr addrspace(1) %o3
  %t4 = add i32 %t, 256
  %o4 = getelementptr i32, ptr addrspace(1) %out, i32 %t4
  store i32 %srh, ptr addrspace(1) %o4
  ret void
}
"""


def host(x: np.ndarray, h: np.ndarray) -> np.ndarray:
    v = x.view(np.uint8).reshape(-1, 4)
    w = (v + np.array([3, 5, 7, 9], np.uint8)).astype(np.uint8)
    r = (w * v).astype(np.uint8).reshape(-1).view(np.uint32)
    hv = h.view(np.float16).reshape(-1, 2)
    ei = hv[:, 1].astype(np.float32).astype(np.int32).view(np.uint32)
    lo, hi = (x & 0xFFFF).astype(np.uint16), (x >> 16).astype(np.uint16)
    smx = ((lo * hi).astype(np.uint16) + np.uint16(12345)).astype(np.uint16).astype(np.uint32)
    sb = x.view(np.int8).reshape(-1, 4) >> np.array([1, 2, 3, 1], np.int8)
    ss = (sb.astype(np.int16) + np.array([-300, 7, 1000, -2], np.int16)).astype(np.int16)
    sr = ss.reshape(-1).view(np.uint32).reshape(-1, 2)
    return np.concatenate([r, ei, smx, sr[:, 0], sr[:, 1]])


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942", "gfx1030"])
def test_bytes_shorts_and_halves_match_the_host(arch):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2**32, 64, dtype=np.uint32)
    h = rng.normal(scale=100, size=128).astype(np.float16).view(np.uint32)
    dev = Device(llc_code_object(KERNEL + TAIL, arch))
    out, pa, ph = dev.zeros(320, np.uint32), dev.upload(x), dev.upload(h)
    dev.run("k", (1, 1, 1), (64, 1, 1), out, pa, ph)
    np.testing.assert_array_equal(dev.download(out, 320, np.uint32), host(x, h))


@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030"])
def test_the_kernel_uses_sdwa(arch):
    text = disassemble(llc_code_object(KERNEL + TAIL, arch))
    assert "_sdwa" in text and "src0_sel:WORD_1" in text


def _run_one(text: str, isa: str, regs: dict[int, int]) -> np.ndarray:
    """One instruction, decoded as for `isa`, on one wave of 64 lanes whose VGPRs hold `regs`."""
    from cass_cc.emu.decode import parse_instruction
    from cass_cc.emu.isa_names import gfx11_mnemonic
    from cass_cc.emu.program import build
    from cass_cc.emu.state import EXEC, Waves
    instr = parse_instruction(text, 0, 8)
    instr.isa, instr.mnemonic = isa, gfx11_mnemonic(instr.mnemonic, isa)
    st = Waves(1, 8, 1, 0, 0, lanes=64)
    st.S[0, EXEC:EXEC + 2] = 0xFFFFFFFF
    for reg, value in regs.items():
        st.V[0, reg] = value
    build(instr)(st, np.array([0]))
    return st.V[0, 0]


def test_vop3_op_sel_picks_and_writes_16_bit_halves():
    """GFX9's VOP3 op_sel: sources' high halves, the result into bits 31:16 (15:0 kept)."""
    half = lambda x: int(np.float16(x).view(np.uint16))          # noqa: E731
    regs = {0: 0x1234_0000 | half(9), 1: half(1) | half(2) << 16, 2: half(3) | half(4) << 16,
            3: half(5) | half(6) << 16}
    out = _run_one("v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,1,1]", "gfx9", regs)
    assert (out == (half(2 * 3 + 6) << 16 | half(9))).all()
    low = _run_one("v_fma_f16 v0, v1, v2, v3", "gfx9", regs)
    assert (low == (0x1234_0000 | half(1 * 3 + 5))).all()     # VOP3-only: bits 31:16 kept


def test_op_sel_on_a_32_bit_operand_is_refused():
    from cass_cc.emu.fault import Unimplemented
    with pytest.raises(Unimplemented, match="op_sel bit 0"):
        _run_one("v_add3_u32 v0, v1, v2, v3 op_sel:[1,0,0,0]", "gfx9", {})

