"""The MODE register: round and denormal modes set by the kernel descriptor and changed by
s_round_mode, s_denorm_mode and s_setreg (read back by s_getreg), honoured by the VALU."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from .alu.alu_reference import round_directed
from .emu_build import asm_device

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

LOAD_AB = """
  global_load_b32 v2, v1, s[6:7]
  global_load_b32 v3, v1, s[8:9]
  s_waitcnt vmcnt(0)
"""


def _inputs(rng, n=32):
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-4, 4, n)).astype(np.float32)
    b = (rng.standard_normal(n) * 2.0 ** rng.integers(-30, 4, n)).astype(np.float32)
    return a, b


def _run(body: str, a, b, n_out: int, grid: int = 1, **kw) -> np.ndarray:
    dev = asm_device(LOAD_AB + body, npointers=3, **kw)
    out = dev.zeros(n_out, np.uint32)
    dev.run("k", grid, 32, out, dev.upload(a), dev.upload(b))
    return dev.download(out, n_out, np.uint32)


def _sum_rounded(a, b, mode: int) -> np.ndarray:
    if mode == 0:
        return (a + b).astype(np.float32)
    return np.array([round_directed(Fraction(float(x)) + Fraction(float(y)), np.float32, mode)
                     for x, y in zip(a, b)], np.float32)


def test_round_mode_instructions_and_getreg():
    a, b = _inputs(np.random.default_rng(1))
    out = _run("""
  v_add_f32 v4, v2, v3                                 ; nearest even (the descriptor's default)
  s_round_mode 0x1                                     ; f32 towards +inf
  v_add_f32 v5, v2, v3
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 2       ; f32 towards -inf
  v_add_f32 v6, v2, v3
  s_mov_b32 s10, 3
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s10           ; f32 towards zero
  v_add_f32 v7, v2, v3
  s_getreg_b32 s11, hwreg(HW_REG_MODE, 0, 10)
  v_mov_b32 v8, s11
  global_store_b32 v1, v4, s[4:5]
  global_store_b32 v1, v5, s[4:5] offset:128
  global_store_b32 v1, v6, s[4:5] offset:256
  global_store_b32 v1, v7, s[4:5] offset:384
  global_store_b32 v1, v8, s[4:5] offset:512
""", a, b, 160)
    for mode in range(4):
        want = _sum_rounded(a, b, mode)
        assert out[32 * mode:32 * (mode + 1)].tolist() == want.view(np.uint32).tolist(), mode
    # f32 towards zero, f64 nearest; f32 denormals flushed (llvm-mc's default descriptor), f64
    # kept; DX10 clamp, IEEE
    assert (out[128:] == 0x3C3).all()
    assert (out[32:64] != out[64:96]).sum() > 16       # the inputs do round


def test_round_mode_fields_by_type():
    """FP_ROUND bits 3:2 (f64, f16) leave f32 alone and the other way round."""
    a = np.full(32, 1.0, np.float32)
    b = np.full(32, 2.0 ** -30, np.float32)
    out = _run("""
  s_round_mode 0x4                                     ; f64/f16 towards +inf, f32 nearest
  v_add_f32 v4, v2, v3
  v_cvt_f64_f32 v[6:7], v2
  v_cvt_f64_f32 v[8:9], v3
  v_mul_f64 v[8:9], v[8:9], v[8:9]                     ; 2**-60, exact
  v_add_f64 v[6:7], v[6:7], v[8:9]                     ; 1 + 2**-60, rounded up
  v_cvt_f16_f32 v10, v2
  v_cvt_f16_f32 v11, v3
  v_add_f16 v10, v10, v11                              ; 1 + 2**-30 in f16, rounded up
  global_store_b32 v1, v4, s[4:5]
  global_store_b32 v1, v6, s[4:5] offset:128
  global_store_b32 v1, v7, s[4:5] offset:256
  global_store_b32 v1, v10, s[4:5] offset:384
""", a, b, 128)
    assert (out[:32].view(np.float32) == 1.0).all()
    f64 = (out[32:64].astype(np.uint64) | (out[64:96].astype(np.uint64) << np.uint64(32))).view(np.float64)
    assert (f64 == np.nextafter(1.0, 2.0)).all()
    assert ((out[96:] & 0xFFFF).astype(np.uint16).view(np.float16) == np.nextafter(np.float16(1), np.float16(2))).all()


def test_descriptor_round_mode_and_divergent_waves():
    """The descriptor's FLOAT_ROUND_MODE_32 starts every wave towards zero; one workgroup's wave
    then switches to towards +inf, and both execute the same add at once in their own modes."""
    a, b = _inputs(np.random.default_rng(2))
    out = _run("""
  s_cmp_eq_u32 s2, 1
  s_cbranch_scc0 .Lsame
  s_round_mode 0x1
.Lsame:
  v_add_f32 v4, v2, v3
  s_lshl_b32 s12, s2, 7
  v_add_nc_u32 v5, s12, v1
  global_store_b32 v5, v4, s[4:5]
""", a, b, 64, grid=2, descriptor="\t\t.amdhsa_float_round_mode_32 3")
    assert out[:32].tolist() == _sum_rounded(a, b, 3).view(np.uint32).tolist()
    assert out[32:].tolist() == _sum_rounded(a, b, 1).view(np.uint32).tolist()


TINY = np.float32(2.0 ** -140)         # an f32 denormal


@pytest.mark.parametrize("denorm, flush_in, flush_out", [(3, False, False), (0, True, True),
                                                           (1, False, True), (2, True, False)])
def test_descriptor_denorm_mode(denorm, flush_in, flush_out):
    """FLOAT_DENORM_MODE_32: bit 0 keeps denormal inputs, bit 1 denormal results."""
    a = np.full(32, TINY, np.float32)
    b = np.full(32, 0.5, np.float32)
    out = _run("""
  v_add_f32 v4, v2, 0                                  ; a denormal input and result
  v_mul_f32 v5, 0x3fc00000, v2                         ; 1.5 * tiny: a denormal result
  v_mul_f32 v6, 0x4b800000, v2                         ; 2**24 * tiny: normal result
  v_mul_f32 v7, 0x7f000000, v3                         ; 2**127 * 0.5 (no denormals at all)
  v_mul_f32 v8, 0x00800000, v3                         ; 2**-126 * 0.5: a denormal result
  global_store_b32 v1, v4, s[4:5]
  global_store_b32 v1, v5, s[4:5] offset:128
  global_store_b32 v1, v6, s[4:5] offset:256
  global_store_b32 v1, v7, s[4:5] offset:384
  global_store_b32 v1, v8, s[4:5] offset:512
""", a, b, 160, descriptor=f"\t\t.amdhsa_float_denorm_mode_32 {denorm}").view(np.float32)
    t = np.float32
    any_flush = flush_in or flush_out
    assert (out[:32] == (0 if any_flush else TINY)).all()
    assert (out[32:64] == (0 if any_flush else t(1.5) * TINY)).all()
    assert (out[64:96] == (0 if flush_in else t(2.0 ** -116))).all()
    assert (out[96:128] == t(2.0 ** 126)).all()
    assert (out[128:160] == (0 if flush_out else t(2.0 ** -127))).all()


def test_denorm_mode_instruction_and_f64_field():
    """s_denorm_mode sets FP_DENORM: flushing f32 leaves f64 denormals alone, and back."""
    a = np.full(32, TINY, np.float32)
    b = np.zeros(32, np.float32)
    out = _run("""
  s_denorm_mode 0xc                                    ; f32 flushed, f64/f16 kept
  v_add_f32 v4, v2, v3
  v_cvt_f64_f32 v[6:7], v2                             ; f32 input flushed: 0
  v_mov_b32 v8, 0
  v_mov_b32 v9, 0x00080000                             ; an f64 denormal (2**-1023)
  v_add_f64 v[8:9], v[8:9], 0
  s_denorm_mode 0xf
  v_add_f32 v10, v2, v3
  s_getreg_b32 s11, hwreg(HW_REG_MODE, 4, 4)
  v_mov_b32 v11, s11
  global_store_b32 v1, v4, s[4:5]
  global_store_b32 v1, v7, s[4:5] offset:128
  global_store_b32 v1, v9, s[4:5] offset:256
  global_store_b32 v1, v10, s[4:5] offset:384
  global_store_b32 v1, v11, s[4:5] offset:512
""", a, b, 160)
    assert (out[:32] == 0).all()
    assert (out[32:64] == 0).all()
    assert (out[64:96] == 0x00080000).all()
    assert (out[96:128].view(np.float32) == TINY).all()
    assert (out[128:] == 0xF).all()


@pytest.mark.parametrize("denorm", [0, 3])
def test_compares_and_min_max_follow_denorm_mode(denorm):
    """In flush mode a denormal compares equal to zero and min/max return the flushed zero."""
    a = np.full(32, TINY, np.float32)
    b = np.zeros(32, np.float32)
    out = _run("""
  v_cmp_lt_f32 vcc_lo, v3, v2                          ; 0 < tiny
  v_cndmask_b32 v4, 0, 1, vcc_lo
  v_max_f32 v5, v2, v3
  v_floor_f32 v6, v2
  global_store_b32 v1, v4, s[4:5]
  global_store_b32 v1, v5, s[4:5] offset:128
  global_store_b32 v1, v6, s[4:5] offset:256
""", a, b, 96, descriptor=f"\t\t.amdhsa_float_denorm_mode_32 {denorm}")
    keep = denorm == 3
    assert (out[:32] == (1 if keep else 0)).all()
    assert (out[32:64].view(np.float32) == (TINY if keep else 0)).all()
    assert (out[64:96] == 0).all()
