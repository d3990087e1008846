"""Vector ALU operand handling in gfx1100 assembly: inline and literal constants (incl. 1/(2pi)),
neg/abs, omod and clamp, VOP3 carry out (VOP3SD), VOPC to VCC and to an SGPR, v_cndmask,
64-bit operands, 16-bit halves (true16 .l/.h), packed math with op_sel, VOPD dual issue, DPP,
v_readlane/v_writelane/v_readfirstlane."""

from __future__ import annotations

import struct

import numpy as np

from .emu_build import asm_device

LANE = np.arange(32)


def _run(body: str, dtype=np.uint32, n_out: int = 32, block: int = 32, init=None) -> np.ndarray:
    dev = asm_device(body)
    out = dev.upload(init) if init is not None else dev.zeros(n_out, dtype)
    dev.run("k", 1, block, out)
    return dev.download(out, n_out, dtype)


def _f32(x) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_float_constants_and_modifiers():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_cvt_f32_u32 v2, v2                       ; lane as float
  v_mul_f32 v3, 0.15915494, v2               ; 1/(2*pi) inline constant
  v_add_f32 v4, 0x40490fdb, v3               ; literal pi
  v_mul_f32_e64 v5, -v4, |v4|
  v_sub_f32 v5, v5, v4
  global_store_b32 v1, v5, s[4:5]
""", np.float32)
    lane = LANE.astype(np.float32)
    v4 = np.float32(np.pi) + np.float32(0.15915494) * lane
    assert np.array_equal(out, (-v4 * np.abs(v4)) - v4)


def test_output_modifiers_and_clamp():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_cvt_f32_u32 v2, v2
  v_mul_f32_e64 v3, v2, 0.5 mul:2            ; lane
  v_mul_f32_e64 v4, v2, 0.5 clamp div:2      ; min(lane / 4, 1)
  v_add_f32 v3, v3, v4
  global_store_b32 v1, v3, s[4:5]
""", np.float32)
    lane = LANE.astype(np.float32)
    assert np.array_equal(out, lane + np.minimum(lane / 4, 1))


def test_vop3_carry_chain_64bit_add_and_compare_to_sgpr():
    # 64-bit add with v_add_co_u32 / v_add_co_ci_u32, carry from lane-dependent overflow
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_mov_b32 v3, -1
  v_add_co_u32 v4, s10, v2, v3               ; lane + 0xffffffff: carries for lane >= 1
  v_add_co_ci_u32_e64 v5, null, 0, 0, s10
  v_cmp_gt_u32_e64 s11, v2, 9                ; lanes 10.. set
  v_cndmask_b32_e64 v6, 0, 1, s11
  v_lshlrev_b32 v5, 1, v5
  v_or_b32 v5, v5, v6
  global_store_b32 v1, v5, s[4:5]
""")
    assert out.tolist() == [(2 if i >= 1 else 0) | (1 if i > 9 else 0) for i in range(32)]


def test_vopc_to_vcc_cndmask_and_cmpx():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_cmp_lt_i32 vcc_lo, 15, v2
  v_cndmask_b32 v3, 7, v2, vcc_lo            ; lane > 15 ? lane : 7
  s_mov_b32 s12, exec_lo
  v_cmpx_ne_u32 3, v2                        ; all but lane 3 stay active
  v_add_nc_u32 v3, 100, v3
  s_mov_b32 exec_lo, s12
  global_store_b32 v1, v3, s[4:5]
""")
    assert out.tolist() == [(i if i > 15 else 7) + (0 if i == 3 else 100) for i in range(32)]


def test_f64_arithmetic_and_literals():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_cvt_f64_u32 v[4:5], v2
  v_fma_f64 v[6:7], v[4:5], 0.5, -v[4:5]     ; -lane/2
  v_mul_f64 v[6:7], v[6:7], 0x40080000       ; literal high half: 3.0
  v_lshlrev_b32 v3, 1, v1
  global_store_b64 v3, v[6:7], s[4:5]
""", np.float64)
    assert np.array_equal(out, -LANE / 2 * 3.0)


def test_true16_halves_and_packed_op_sel():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_cvt_f16_u16 v3.l, v2.l                   ; lane as half in the low half
  v_add_f16 v3.h, v3.l, 1.0                  ; lane + 1 in the high half, low half kept
  v_pk_add_f16 v4, v3, v3 op_sel:[1,0] op_sel_hi:[0,1]   ; lo = hi+lo, hi = lo+hi
  v_pk_mul_f16 v5, v4, 2.0 op_sel_hi:[1,0]   ; the constant's low half for both elements
  global_store_b32 v1, v5, s[4:5]
""")
    halves = out.view(np.float16).reshape(32, 2)
    assert np.array_equal(halves[:, 0], ((LANE + LANE + 1) * 2).astype(np.float16))
    assert np.array_equal(halves[:, 1], ((LANE + LANE + 1) * 2).astype(np.float16))


def test_packed_16_bit_constants_are_one_dword():
    """An inline constant of a v_pk_* 16-bit op is a dword (LLVM's getInlineEncodingV216): an
    integer sign-extended, a float its f16 bits over zero, so the high element reads 0 (or -1 for
    a negative integer) unless op_sel_hi points it at the low half. clang-22 selects
    `v_pk_lshlrev_b16 v, 4, v` to shift only the low element."""
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_lshl_or_b32 v3, v2, 16, v2               ; lane in both halves
  v_pk_lshlrev_b16 v4, 4, v3                 ; lo << 4, hi << 0
  v_pk_add_u16 v5, v4, -1                    ; both - 1
  v_cvt_f16_u16 v6.l, v2.l
  v_mov_b16 v6.h, v6.l                       ; lane as half in both halves
  v_pk_add_f16 v7, v6, 1.0                   ; lo + 1, hi + 0
  v_and_b32 v5, 0xffff0fff, v5               ; keep the ints below 0x1000
  v_xor_b32 v5, v5, v7
  global_store_b32 v1, v5, s[4:5]
""")
    half = lambda x: np.array(x, np.float16).view(np.uint16).astype(np.uint32)
    lo = ((LANE << 4) - 1) & 0x0fff ^ half(LANE + 1.0)
    hi = (LANE - 1) & 0xffff ^ half(LANE)
    assert out.tolist() == (lo | (hi << 16)).tolist()


def test_vopd_reads_old_values():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_mov_b32 v3, 1000
  v_dual_mov_b32 v3, v2 :: v_dual_add_nc_u32 v4, v3, v2   ; v4 sees the old v3
  v_add_nc_u32 v5, v3, v4
  global_store_b32 v1, v5, s[4:5]
""")
    assert out.tolist() == [i + 1000 + i for i in range(32)]


def test_dpp_row_shr_quad_perm_and_dpp8():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_mov_b32 v3, 0x4000
  v_mov_b32_dpp v3, v2 row_shr:1 row_mask:0xf bank_mask:0xf     ; lanes 0 and 16 keep 0x4000
  v_mov_b32 v4, 0
  v_add_nc_u32_dpp v4, v2, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
  v_mov_b32_dpp v5, v2 dpp8:[1,0,3,2,5,4,7,6]
  v_lshlrev_b32 v3, 20, v3
  v_lshlrev_b32 v4, 10, v4
  v_or3_b32 v3, v3, v4, v5
  global_store_b32 v1, v3, s[4:5]
""")
    shr = [0x4000 if i % 16 == 0 else i - 1 for i in range(32)]
    quad = [(i & ~3) + 3 - (i & 3) + i for i in range(32)]
    eight = [i ^ 1 for i in range(32)]
    assert out.tolist() == [((s << 20) | (q << 10) | e) & 0xFFFFFFFF for s, q, e in zip(shr, quad, eight)]


def test_readlane_writelane_readfirstlane():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_mul_lo_u32 v2, v2, 3
  v_readlane_b32 s10, v2, 7                  ; 21
  s_mov_b32 s11, 9
  v_writelane_b32 v2, s10, s11               ; lane 9 = 21 + ... (overwritten with 21)
  s_mov_b32 exec_lo, 0xfff0
  v_readfirstlane_b32 s12, v2                ; lane 4 -> 12
  s_mov_b32 exec_lo, -1
  v_add_nc_u32 v2, s12, v2
  global_store_b32 v1, v2, s[4:5]
""")
    expect = [3 * i + 12 for i in range(32)]
    expect[9] = 21 + 12
    assert out.tolist() == expect


def test_permlane16_and_permlanex16():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  s_mov_b32 s10, 0x01234567                  ; positions 0-7 read lanes 7, 6, ..., 0 of the row
  s_mov_b32 s11, 0x89abcdef                  ; positions 8-15 read 15, 14, ..., 8
  v_permlane16_b32 v3, v2, s10, s11
  v_permlanex16_b32 v4, v2, s10, s11
  v_lshl_or_b32 v3, v3, 8, v4
  global_store_b32 v1, v3, s[4:5]
""")
    lane = np.arange(32)
    pos = lane & 15
    rev = (lane & 16) + np.where(pos < 8, 7 - pos, 23 - pos)
    assert out.tolist() == ((rev << 8) | (rev ^ 16)).tolist()


def test_dot4_iu8_signedness_from_neg_lo():
    out = _run("""
  v_mov_b32 v2, 0xff02ff03                   ; bytes 3, -1, 2, -1 when signed
  v_mov_b32 v3, 0x01ff0204                   ; bytes 4, 2, -1, 1 when signed
  v_mov_b32 v4, 100
  v_dot4_i32_iu8 v5, v2, v3, v4 neg_lo:[1,1,0]
  v_dot4_i32_iu8 v6, v2, v3, v4
  v_dot4_i32_iu8 v7, v2, v3, v4 neg_lo:[1,0,0]
  global_store_b32 v1, v5, s[4:5]
  global_store_b32 v1, v6, s[4:5] offset:128
  global_store_b32 v1, v7, s[4:5] offset:256
""", n_out=96)
    a, b = [3, 0xFF, 2, 0xFF], [4, 2, 0xFF, 1]
    sa, sb = [3, -1, 2, -1], [4, 2, -1, 1]
    dot = lambda x, y: 100 + sum(p * q for p, q in zip(x, y))
    assert out[::32].view(np.int32).tolist() == [dot(sa, sb), dot(a, b), dot(sa, b)]


def test_dpp_row_and_bank_masks_row_share_and_xmask():
    out = _run("""
  v_lshrrev_b32 v2, 2, v1
  v_mov_b32 v3, 99
  v_mov_b32_dpp v3, v2 row_share:5 row_mask:0x1 bank_mask:0xf      ; only row 0 (lanes 0-15) written
  v_mov_b32 v4, 99
  v_mov_b32_dpp v4, v2 row_xmask:1 row_mask:0xf bank_mask:0x5      ; banks 0 and 2 of each row
  v_lshl_or_b32 v3, v3, 8, v4
  global_store_b32 v1, v3, s[4:5]
""")
    lane = np.arange(32)
    share = np.where(lane < 16, 5, 99)
    xmask = np.where(((lane >> 2) & 3) % 2 == 0, (lane & 16) + ((lane & 15) ^ 1), 99)
    assert out.tolist() == ((share << 8) | xmask).tolist()
