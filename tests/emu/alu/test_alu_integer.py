"""VALU integer ops against Python-int references written from the ISA pseudocode, on edge
values (0, 1, sign bits, all ones, shift counts of 31/32/33/63/64) crossed with random ones."""
from __future__ import annotations

import pytest

from alu_reference import call, int_columns, wrap
from cass_cc.emu.alu import VECTOR_OPS

M32, M64 = 2**32 - 1, 2**64 - 1


def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def byte(v, k):
    return (v >> (8 * k)) & 0xFF


def perm(s0, s1, sel):
    data = ((s0 & M32) << 32) | (s1 & M32)
    out = 0
    for k in range(4):
        s = byte(sel, k)
        if s >= 13:
            b = 0xFF
        elif s == 12:
            b = 0
        elif s >= 8:
            b = 0xFF if (data >> (8 * (2 * (s - 8) + 1) + 7)) & 1 else 0
        else:
            b = byte(data, s)
        out |= b << (8 * k)
    return out


def bfe_u(a, off, w):
    return (a >> (off & 31)) & ((1 << (w & 31)) - 1)


def bfe_i(a, off, w):
    """V_BFE_I32: the field of an arithmetic shift of S0.i, sign-extended from its top bit."""
    w &= 31
    return sext((sext(a, 32) >> (off & 31)) & ((1 << w) - 1), w) if w else 0


def clz(v, bits=32):
    return bits - (v & ((1 << bits) - 1)).bit_length() if v else -1


def ctz(v):
    return (v & -v).bit_length() - 1 if v else -1


def cls(v):
    v &= M32
    flipped = v ^ M32 if v >> 31 else v
    return 32 - flipped.bit_length() if flipped else -1


def sad_u8(a, b, c):
    return (c + sum(abs(byte(a, k) - byte(b, k)) for k in range(4))) & M32


REFERENCES = {
    "v_add_nc_u32": lambda a, b: a + b,
    "v_sub_nc_u32": lambda a, b: a - b,
    "v_subrev_nc_u32": lambda a, b: b - a,
    "v_add_nc_i32": lambda a, b: a + b,
    "v_sub_nc_i32": lambda a, b: a - b,
    "v_add_nc_u16": lambda a, b: a + b,
    "v_sub_nc_i16": lambda a, b: a - b,
    "v_mul_lo_u16": lambda a, b: a * b,
    "v_mad_u16": lambda a, b, c: a * b + c,
    "v_mad_i16": lambda a, b, c: a * b + c,
    "v_mad_u32_u16": lambda a, b, c: a * b + c,
    "v_mad_i32_i16": lambda a, b, c: a * b + c,
    "v_mul_lo_u32": lambda a, b: a * b,
    "v_mul_hi_u32": lambda a, b: (a * b) >> 32,
    "v_mul_hi_i32": lambda a, b: (a * b) >> 32,
    "v_mul_u32_u24": lambda a, b: (a & 0xFFFFFF) * (b & 0xFFFFFF),
    "v_mul_hi_u32_u24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32,
    "v_mul_i32_i24": lambda a, b: sext(a, 24) * sext(b, 24),
    "v_mul_hi_i32_i24": lambda a, b: (sext(a, 24) * sext(b, 24)) >> 32,
    "v_mad_u32_u24": lambda a, b, c: (a & 0xFFFFFF) * (b & 0xFFFFFF) + c,
    "v_mad_i32_i24": lambda a, b, c: sext(a, 24) * sext(b, 24) + c,
    "v_lshlrev_b32": lambda s, a: a << (s & 31),
    "v_lshrrev_b32": lambda s, a: a >> (s & 31),
    "v_ashrrev_i32": lambda s, a: a >> (s & 31),
    "v_lshlrev_b64": lambda s, a: a << (s & 63),
    "v_lshrrev_b64": lambda s, a: a >> (s & 63),
    "v_ashrrev_i64": lambda s, a: a >> (s & 63),
    "v_lshlrev_b16": lambda s, a: a << (s & 15),
    "v_lshrrev_b16": lambda s, a: a >> (s & 15),
    "v_ashrrev_i16": lambda s, a: a >> (s & 15),
    "v_and_b32": lambda a, b: a & b,
    "v_xnor_b32": lambda a, b: ~(a ^ b),
    "v_not_b32": lambda a: ~a,
    "v_not_b16": lambda a: ~a,
    "v_bfe_u32": bfe_u,
    "v_bfe_i32": lambda a, off, w: bfe_i(a & M32, off, w),
    "v_bfi_b32": lambda m, a, b: (m & a) | (~m & b),
    "v_bfm_b32": lambda w, off: ((1 << (w & 31)) - 1) << (off & 31),
    "v_alignbit_b32": lambda a, b, s: ((a << 32 | b) >> (s & 31)),
    "v_alignbyte_b32": lambda a, b, s: ((a << 32 | b) >> (8 * (s & 3))),
    "v_perm_b32": perm,
    "v_lshl_add_u32": lambda a, s, c: (a << (s & 31)) + c,
    "v_add_lshl_u32": lambda a, b, s: ((a + b) & M32) << (s & 31),
    "v_lshl_or_b32": lambda a, s, c: (a << (s & 31)) | c,
    "v_and_or_b32": lambda a, b, c: (a & b) | c,
    "v_or3_b32": lambda a, b, c: a | b | c,
    "v_xor3_b32": lambda a, b, c: a ^ b ^ c,
    "v_add3_u32": lambda a, b, c: a + b + c,
    "v_xad_u32": lambda a, b, c: (a ^ b) + c,
    "v_min_i32": min, "v_max_u32": max, "v_min_u16": min, "v_max_i16": max,
    "v_min3_i32": lambda a, b, c: min(a, b, c),
    "v_max3_u32": lambda a, b, c: max(a, b, c),
    "v_med3_i32": lambda a, b, c: sorted((a, b, c))[1],
    "v_med3_u32": lambda a, b, c: sorted((a, b, c))[1],
    "v_med3_i16": lambda a, b, c: sorted((a, b, c))[1],
    "v_minmax_i32": lambda a, b, c: max(min(a, b), c),
    "v_maxmin_u32": lambda a, b, c: min(max(a, b), c),
    "v_bcnt_u32_b32": lambda a, b: bin(a).count("1") + b,
    "v_clz_i32_u32": clz,
    "v_ctz_i32_b32": ctz,
    "v_cls_i32": cls,
    "v_bfrev_b32": lambda a: int(f"{a:032b}"[::-1], 2),
    "v_sad_u8": sad_u8,
    "v_sad_hi_u8": lambda a, b, c: (sad_u8(a, b, 0) << 16) + c,
    "v_sad_u16": lambda a, b, c: c + abs((a & 0xFFFF) - (b & 0xFFFF)) + abs((a >> 16) - (b >> 16)),
    "v_sad_u32": lambda a, b, c: abs(a - b) + c,
    "v_msad_u8": lambda a, b, c: c + sum(abs(byte(a, k) - byte(b, k)) for k in range(4) if byte(b, k)),
    "v_lerp_u8": lambda a, b, c: sum(((byte(a, k) + byte(b, k) + (byte(c, k) & 1)) >> 1) << (8 * k) for k in range(4)),
    "v_cvt_pk_u16_u32": lambda a, b: min(a, 0xFFFF) | min(b, 0xFFFF) << 16,
    "v_cvt_pk_i16_i32": lambda a, b: (max(min(a, 32767), -32768) & 0xFFFF) | (max(min(b, 32767), -32768) & 0xFFFF) << 16,
    "v_sat_pk_u8_i16": lambda a: max(min(sext(a, 16), 255), 0) | max(min(sext(a >> 16, 16), 255), 0) << 8,
    "v_cvt_i32_i16": lambda a: a,
    "v_cvt_u32_u16": lambda a: a,
    "v_add_nc_i16": lambda a, b: a + b,
    "v_sub_nc_u16": lambda a, b: a - b,
    "v_and_b16": lambda a, b: a & b, "v_or_b16": lambda a, b: a | b, "v_xor_b16": lambda a, b: a ^ b,
    "v_or_b32": lambda a, b: a | b, "v_xor_b32": lambda a, b: a ^ b,
    "v_max_i32": max, "v_min_u32": min, "v_max_u16": max, "v_min_i16": min,
    "v_max3_i16": lambda a, b, c: max(a, b, c), "v_max3_i32": lambda a, b, c: max(a, b, c),
    "v_max3_u16": lambda a, b, c: max(a, b, c), "v_min3_i16": lambda a, b, c: min(a, b, c),
    "v_min3_u16": lambda a, b, c: min(a, b, c), "v_min3_u32": lambda a, b, c: min(a, b, c),
    "v_med3_u16": lambda a, b, c: sorted((a, b, c))[1],
    "v_maxmin_i32": lambda a, b, c: min(max(a, b), c),
    "v_minmax_u32": lambda a, b, c: max(min(a, b), c),
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_integer_op_matches_reference(name):
    o = VECTOR_OPS[name]
    cols = int_columns(o.srcs)
    got = call(name, *cols)
    ref = REFERENCES[name]
    bad = [(args, int(g), wrap(ref(*args), o.dst)) for args, g in zip(zip(*cols), got)
           if int(g) != wrap(ref(*args), o.dst)]
    assert not bad, f"{name}: {len(bad)} lanes differ, first (args, got, want): {bad[:3]}"


CARRY_REFERENCES = {
    "v_add_co_u32": lambda a, b: (a + b, a + b > M32),
    "v_sub_co_u32": lambda a, b: (a - b, b > a),
    "v_subrev_co_u32": lambda a, b: (b - a, a > b),
    "v_mad_u64_u32": lambda a, b, c: (a * b + c, a * b + c > M64),
    "v_mad_i64_i32": lambda a, b, c: (a * b + c, ((a * b + c) >> 64) & 1 == 1),
}


@pytest.mark.parametrize("name", sorted(CARRY_REFERENCES))
def test_carry_out(name):
    o = VECTOR_OPS[name]
    cols = int_columns(o.srcs, seed=7)
    value, carry = call(name, *cols)
    for args, v, c in zip(zip(*cols), value, carry):
        want_v, want_c = CARRY_REFERENCES[name](*args)
        assert (int(v), bool(c)) == (wrap(want_v, o.dst), want_c), (name, args)


@pytest.mark.parametrize("name, ref", [
    ("v_add_co_ci_u32", lambda a, b, ci: (a + b + ci, a + b + ci > M32)),
    ("v_sub_co_ci_u32", lambda a, b, ci: (a - b - ci, b + ci > a)),
    ("v_subrev_co_ci_u32", lambda a, b, ci: (b - a - ci, a + ci > b)),
])
def test_carry_in_and_out(name, ref):
    a, b = int_columns(("u32", "u32"), seed=3)
    carry = [i % 3 == 0 for i in range(len(a))]
    value, out = call(name, a, b, carry=carry)
    for x, y, ci, v, co in zip(a, b, carry, value, out):
        want_v, want_c = ref(x, y, int(ci))
        assert (int(v), bool(co)) == (want_v & M32, want_c), (name, x, y, ci)


def test_64_bit_add_chain_with_carry():
    """The pair v_add_co_u32 + v_add_co_ci_u32 that compilers emit for a 64-bit add."""
    a = [0xFFFFFFFF_FFFFFFFF, 0x00000001_FFFFFFFF, 0x12345678_9ABCDEF0]
    b = [1, 1, 0xFEDCBA98_76543210]
    lo, carry = call("v_add_co_u32", [x & M32 for x in a], [y & M32 for y in b])
    hi, _ = call("v_add_co_ci_u32", [x >> 32 for x in a], [y >> 32 for y in b], carry=carry)
    assert [(int(h) << 32) | int(low) for h, low in zip(hi, lo)] == [(x + y) & M64 for x, y in zip(a, b)]


@pytest.mark.parametrize("name, args, want", [
    ("v_add_nc_u32", (0xFFFFFFF0, 0x20), 0xFFFFFFFF),
    ("v_sub_nc_u32", (5, 6), 0),
    ("v_add_nc_i32", (2**31 - 1, 1), 2**31 - 1),
    ("v_sub_nc_i32", (-2**31, 1), -2**31),
    ("v_add_nc_u16", (0xFFFF, 1), 0xFFFF),
    ("v_sub_nc_i16", (-32768, 1), -32768),
    ("v_mad_u16", (0x100, 0x100, 0), 0xFFFF),
])
def test_clamp_saturates(name, args, want):
    assert int(call(name, *[[a] for a in args], clamp=True)[0]) == want
    assert int(call(name, *[[a] for a in args], clamp=False)[0]) != want  # without clamp it wraps


def test_add_co_clamp_saturates_and_still_reports_carry():
    value, carry = call("v_add_co_u32", [0xFFFFFFFF], [2], clamp=True)
    assert (int(value[0]), bool(carry[0])) == (0xFFFFFFFF, True)


def test_mbcnt_counts_lanes_below():
    mask = [0xFFFFFFFF] * 32
    lanes = list(range(32))
    lo = call("v_mbcnt_lo_u32_b32", mask, [0] * 32, lane=lanes)
    assert list(lo) == lanes
    assert list(call("v_mbcnt_hi_u32_b32", mask, list(lo), lane=lanes)) == lanes
    sparse = call("v_mbcnt_lo_u32_b32", [0b1011] * 32, [100] * 32, lane=lanes)
    assert list(sparse[:5]) == [100, 101, 102, 102, 103]


def test_cndmask_picks_src1_where_mask_set():
    assert list(call("v_cndmask_b32", [1, 2, 3], [10, 20, 30], mask=[True, False, True])) == [10, 2, 30]


def test_dot_products_of_bytes_and_nibbles():
    a, b = 0x01FF_02FE, 0x03_04_05_06  # bytes (lsb first): 0xFE 0x02 0xFF 0x01 and 6 5 4 3
    assert int(call("v_dot4_u32_u8", [a], [b], [10])[0]) == 10 + 0xFE * 6 + 2 * 5 + 0xFF * 4 + 1 * 3
    assert int(call("v_dot4_i32_iu8", [a], [b], [10], signed=(True, False))[0]) == 10 - 2 * 6 + 2 * 5 - 1 * 4 + 3
    assert int(call("v_dot4_u32_u8", [0xFFFFFFFF], [0xFFFFFFFF], [0xFFFFFFFF], clamp=True)[0]) == 0xFFFFFFFF
    nibbles = 0x1234_567F
    assert int(call("v_dot8_u32_u4", [nibbles], [0x11111111], [0])[0]) == sum(int(h, 16) for h in "1234567F")
    assert int(call("v_dot8_i32_iu4", [0xF], [0xF], [0], signed=(True, True))[0]) == 1  # (-1) * (-1)


def test_quad_sad():
    a = 0x0807060504030201
    b = 0x04030201
    got = int(call("v_qsad_pk_u16_u8", [a], [b], [0x0004000300020001])[0])
    want = sum(((sum(abs(((a >> (8 * (k + j))) & 0xFF) - ((b >> (8 * j)) & 0xFF)) for j in range(4)) + k + 1)
                & 0xFFFF) << (16 * k) for k in range(4))
    assert got == want
    masked = int(call("v_mqsad_pk_u16_u8", [a], [0x04000201], [0])[0])
    assert masked & 0xFFFF == 0  # window 0 equals b where b's bytes are non-zero


def test_moves_and_selects_keep_every_bit_pattern():
    import numpy as np
    raw = np.array([0xFFFFFFFF, 0x7FA00001, 0x80000000, 0x00000001, 0x12345678], np.uint32)
    as_f32 = raw.view(np.float32)
    assert (call("v_mov_b32", as_f32).view(np.uint32) == raw).all()
    picked = call("v_cndmask_b32", as_f32, as_f32[::-1].copy(), mask=[False] * 5)
    assert (picked.view(np.uint32) == raw).all()
    half = np.array([0xFE01, 0x8000], np.uint16)
    assert (call("v_mov_b16", half.view(np.float16)).view(np.uint16) == half).all()
