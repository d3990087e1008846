"""Scalar ALU, branches and EXEC masking, in tiny gfx1100 assembly kernels checked on the host."""

from __future__ import annotations

import numpy as np

from .emu_build import asm_device


def _run(body: str, n_out: int = 32, block: int = 32, grid: int = 1, **kw) -> np.ndarray:
    dev = asm_device(body, **kw)
    out = dev.zeros(n_out, np.uint32)
    dev.run("k", grid, block, out)
    return dev.download(out, n_out, np.uint32)


def _store_sgprs(*regs: int) -> str:
    """Store s<r> of each listed register to out[i] (lane 0 does it)."""
    code = "  v_mov_b32 v9, 0\n"
    for i, r in enumerate(regs):
        code += f"  v_mov_b32 v10, s{r}\n  global_store_b32 v9, v10, s[4:5] offset:{4 * i}\n"
    return code


def test_scalar_arithmetic_carries_and_64bit():
    out = _run("""
  s_mov_b32 s10, 0xffffffff
  s_add_u32 s11, s10, 2              ; 1, carry
  s_addc_u32 s12, 0, 0               ; 1 from the carry
  s_sub_u32 s13, 0, 1                ; 0xffffffff, borrow
  s_subb_u32 s14, 5, 0               ; 4
  s_mov_b64 s[16:17], 0x7
  s_lshl_b64 s[16:17], s[16:17], 33  ; 7 << 33
  s_ashr_i32 s18, s10, 4             ; -1
  s_lshr_b32 s19, s10, 28            ; 15
  s_mul_i32 s20, -7, 6
  s_mov_b32 s21, 0xabcd1234
  s_bfe_u32 s21, s21, 0x80008        ; 8 bits at offset 8 -> 0x12
  s_movk_i32 s22, 0x8000             ; sign-extended
  s_cselect_b32 s23, 11, 22          ; SCC from s_bfe_u32 (result nonzero) -> 11
""" + _store_sgprs(11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23), 12)
    assert out.tolist() == [1, 1, 0xFFFFFFFF, 4, 0, 14, 0xFFFFFFFF, 15, (-42) & 0xFFFFFFFF, 0x12, 0xFFFF8000, 11]


def test_compare_and_branches():
    out = _run("""
  s_mov_b32 s10, 0
  s_mov_b32 s11, 10
.Lloop:
  s_add_u32 s10, s10, s11
  s_sub_u32 s11, s11, 1
  s_cmp_lg_u32 s11, 0
  s_cbranch_scc1 .Lloop             ; s10 = 10+9+...+1 = 55
  s_mov_b32 s12, 1
  s_cmp_lt_i32 -1, 0
  s_cbranch_scc0 .Lskip
  s_mov_b32 s12, 2                  ; signed compare: taken path
.Lskip:
  s_mov_b32 s13, 1
  s_cmp_lt_u32 -1, 0
  s_cbranch_scc1 .Lskip2
  s_mov_b32 s13, 3                  ; unsigned: -1 is not below 0
.Lskip2:
""" + _store_sgprs(10, 12, 13), 3)
    assert out.tolist() == [55, 2, 3]


def test_exec_masking_if_else_with_saveexec():
    # odd lanes get 100 + lane, even lanes 200 + lane; lanes >= 20 are never launched (block 20)
    out = _run("""
  v_lshrrev_b32 v2, 2, v1            ; lane id
  v_and_b32 v3, 1, v2
  v_cmp_eq_u32 vcc_lo, 1, v3
  s_and_saveexec_b32 s10, vcc_lo
  s_cbranch_execz .Lelse
  v_add_nc_u32 v4, 100, v2
.Lelse:
  s_xor_b32 exec_lo, exec_lo, s10    ; flip to the other lanes of the original mask
  v_add_nc_u32 v4, 200, v2
  s_or_b32 exec_lo, exec_lo, s10     ; reconverge (and-saveexec saved the full mask)
  s_and_b32 exec_lo, exec_lo, s10
  global_store_b32 v1, v4, s[4:5]
""", block=20)
    expect = [(100 if i % 2 else 200) + i if i < 20 else 0 for i in range(32)]
    assert out.tolist() == expect


def test_multiple_workgroups_see_their_ids():
    out = _run("""
  s_lshl_b32 s10, s2, 7              ; workgroup id * 32 lanes * 4 bytes
  v_add_nc_u32 v2, s10, v1
  v_mov_b32 v3, s2
  global_store_b32 v2, v3, s[4:5]
""", n_out=96, grid=3)
    assert out.tolist() == [0] * 32 + [1] * 32 + [2] * 32


def test_calls_with_swappc_and_setpc():
    out = _run("""
  s_getpc_b64 s[20:21]
.Lpc:
  s_add_u32 s20, s20, .Lfunc-.Lpc
  s_addc_u32 s21, s21, 0
  s_mov_b32 s10, 5
  s_swappc_b64 s[30:31], s[20:21]
  s_swappc_b64 s[30:31], s[20:21]
  s_branch .Ldone
.Lfunc:
  s_mul_i32 s10, s10, 3
  s_setpc_b64 s[30:31]
.Ldone:
""" + _store_sgprs(10), 1)
    assert out[0] == 45
