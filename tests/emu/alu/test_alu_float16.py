"""f16, packed (VOP3P) and dot-product ops against Fraction references and per-half Python
models of the ISA pseudocode."""
from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest

from alu_reference import call, round_fraction


def f16_bits(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def bits_f16(x):
    return struct.unpack("<H", struct.pack("<e", float(x)))[0]


def all_finite_f16(seed, n):
    rng = random.Random(seed)
    vals = []
    while len(vals) < n:
        x = f16_bits(rng.getrandbits(16))
        if math.isfinite(x):
            vals.append(x)
    return vals


def same(a, b):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("name, fn", [
    ("v_add_f16", lambda a, b: a + b), ("v_sub_f16", lambda a, b: a - b),
    ("v_subrev_f16", lambda a, b: b - a), ("v_mul_f16", lambda a, b: a * b),
])
def test_f16_arithmetic_is_correctly_rounded(name, fn):
    a, b = all_finite_f16(1, 1500), all_finite_f16(2, 1500)
    for x, y, g in zip(a, b, call(name, a, b)):
        want = round_fraction(fn(Fraction(x), Fraction(y)), "f16")
        if want != 0:
            assert same(g, want), (name, x, y)


@pytest.mark.parametrize("name", ["v_fma_f16", "v_fmac_f16"])
def test_fma_f16_single_rounding(name):
    a, b, c = all_finite_f16(3, 1500), all_finite_f16(4, 1500), all_finite_f16(5, 1500)
    for x, y, z, g in zip(a, b, c, call(name, a, b, c)):
        want = round_fraction(Fraction(x) * Fraction(y) + Fraction(z), "f16")
        if want != 0:
            assert same(g, want), (x, y, z)


def test_cvt_f16_f32_rounds_to_nearest_even_and_rtz_truncates():
    rng = random.Random(6)
    xs = [float(np.float32(rng.uniform(-70000, 70000) * 2.0 ** rng.randint(-30, 0))) for _ in range(500)]
    xs += [65519.0, 65520.0, 2.0 ** -25, 3 * 2.0 ** -26, 1 + 2.0 ** -11]
    for x, g in zip(xs, call("v_cvt_f16_f32", xs)):
        assert same(g, round_fraction(Fraction(x), "f16")), x
    packed = call("v_cvt_pk_rtz_f16_f32", xs, [-x for x in xs])
    for x, p in zip(xs, packed):
        lo = f16_bits(int(p) & 0xFFFF)
        assert abs(lo) <= abs(x) and (abs(x) - abs(lo)) < 2.0 ** (math.frexp(x)[1] - 11) + 2.0 ** -24, x
        assert f16_bits(int(p) >> 16) == -lo
    assert int(call("v_cvt_pk_rtz_f16_f32", [1e6], [-math.inf])[0]) == (0x7BFF | 0xFC00 << 16)


def test_f16_int_conversions():
    assert list(call("v_cvt_i16_f16", [40000.0, -40000.0, -2.7, math.nan])) == [32767, -32768, -2, 0]
    assert list(call("v_cvt_u16_f16", [-3.0, 65504.0, 2.9])) == [0, 65504, 2]
    assert list(call("v_cvt_f16_i16", [-32768, 2049])) == [-32768.0, 2048.0]
    assert list(call("v_cvt_norm_i16_f16", [0.5, -1.0])) == [16384, -32767]


def test_f16_special_functions():
    assert [bits_f16(v) for v in call("v_rcp_f16", [f16_bits(b) for b in (0xFC00, 0xC000, 0x8000, 0x0000, 0x7C00)])] \
        == [0x8000, 0xB800, 0xFC00, 0x7C00, 0x0000]
    assert [bits_f16(v) for v in call("v_sqrt_f16", [4.0, -0.0])] == [0x4000, 0x8000]
    assert [bits_f16(v) for v in call("v_sin_f16", [0.25, -0.0])] == [0x3C00, 0x8000]
    assert [bits_f16(v) for v in call("v_cos_f16", [0.25, f16_bits(0x7BFF)])] == [0x0000, 0x3C00]
    assert list(call("v_ldexp_f16", [1.5], [-25])) == [f16_bits(1)]  # 1.5 * 2**-25 rounds up to the smallest denormal
    assert same(call("v_min_f16", [-0.0], [0.0])[0], -0.0)
    assert list(call("v_frexp_exp_i16_f16", [48.0, math.inf])) == [6, 0]


def test_div_fixup_f16_specials():
    q = [1.0] * 5
    got = call("v_div_fixup_f16", q, [0.0, 0.0, math.inf, 2.0, -4.0], [0.0, 3.0, 1.0, -math.inf, 8.0])
    assert math.isnan(got[0]) and list(got[1:]) == [math.inf, 0.0, -math.inf, -1.0]


def pack(lo, hi):
    return bits_f16(lo) | bits_f16(hi) << 16


def unpack(p):
    return f16_bits(int(p) & 0xFFFF), f16_bits(int(p) >> 16)


def test_packed_f16_ops_work_per_half():
    a, b = [pack(1.5, -2.0), pack(0.0, 65504.0)], [pack(2.0, 0.25), pack(-0.0, 65504.0)]
    assert [unpack(p) for p in call("v_pk_add_f16", a, b)] == [(3.5, -1.75), (0.0, math.inf)]
    assert [unpack(p) for p in call("v_pk_mul_f16", a, b)] == [(3.0, -0.5), (-0.0, math.inf)]
    assert [unpack(p) for p in call("v_pk_fma_f16", a, b, a)] == [(4.5, -2.5), (0.0, math.inf)]
    assert [unpack(p) for p in call("v_pk_max_f16", a, b)] == [(2.0, 0.25), (0.0, 65504.0)]
    assert [unpack(p) for p in call("v_pk_add_f16", a, b, clamp=True)] == [(1.0, 0.0), (0.0, 1.0)]


@pytest.mark.parametrize("name, fn, signed", [
    ("v_pk_add_u16", lambda a, b: a + b, False), ("v_pk_sub_i16", lambda a, b: a - b, True),
    ("v_pk_mul_lo_u16", lambda a, b: a * b, False), ("v_pk_max_i16", max, True), ("v_pk_min_u16", min, False),
    ("v_pk_lshlrev_b16", lambda s, a: a << (s & 15), False), ("v_pk_ashrrev_i16", lambda s, a: a >> (s & 15), True),
    ("v_pk_add_i16", lambda a, b: a + b, True), ("v_pk_sub_u16", lambda a, b: a - b, False),
    ("v_pk_max_u16", max, False), ("v_pk_min_i16", min, True),
    ("v_pk_lshrrev_b16", lambda s, a: a >> (s & 15), False),
])
def test_packed_integer_ops(name, fn, signed):
    rng = random.Random(8)
    a, b = [rng.getrandbits(32) for _ in range(200)], [rng.getrandbits(32) for _ in range(200)]

    def half(v, k):
        h = (v >> (16 * k)) & 0xFFFF
        return h - 0x10000 if signed and h >> 15 else h
    for x, y, g in zip(a, b, call(name, a, b)):
        want = sum((fn(half(x, k), half(y, k)) & 0xFFFF) << (16 * k) for k in (0, 1))
        assert int(g) == want, (name, hex(x), hex(y))


def test_packed_integer_clamp_saturates_each_half():
    assert int(call("v_pk_add_u16", [0xFFFF0001], [0x00010001], clamp=True)[0]) == 0xFFFF0002
    assert int(call("v_pk_sub_i16", [0x80000005], [0x00010006], clamp=True)[0]) == 0x8000FFFF
    assert int(call("v_pk_mad_u16", [0x00020003], [0x00040005], [0x00010001])[0]) == 0x00090010


def test_dot2_and_pack():
    a, b = pack(1.5, 2.0), pack(4.0, -0.5)
    assert list(call("v_dot2_f32_f16", [a], [b], [10.0])) == [15.0]
    assert list(call("v_dot2acc_f32_f16", [a], [b], [0.5])) == [5.5]
    assert list(call("v_dot2_f16_f16", [a], [b], [1.0])) == [6.0]
    bf = lambda x: struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    assert list(call("v_dot2_f32_bf16", [bf(3.0) | bf(2.0) << 16], [bf(0.5) | bf(4.0) << 16], [1.0])) == [10.5]
    assert list(call("v_dot2_bf16_bf16", [bf(3.0) | bf(2.0) << 16], [bf(0.5) | bf(4.0) << 16], [bf(1.0)])) == [bf(10.5)]
    assert int(call("v_pack_b32_f16", [1.0], [-2.0])[0]) == pack(1.0, -2.0)


def test_fma_mix():
    assert list(call("v_fma_mix_f32", [1.5], [2.0], [0.25])) == [3.25]
    assert list(call("v_fma_mixlo_f16", [1.0], [1.0], [2.0 ** -12])) == [1.0]


@pytest.mark.parametrize("name, fn", [
    ("v_trunc_f16", math.trunc), ("v_floor_f16", math.floor), ("v_ceil_f16", math.ceil), ("v_rndne_f16", round),
])
def test_f16_rounding_to_integers(name, fn):
    xs = [x for x in all_finite_f16(10, 500)]
    for x, g in zip(xs, call(name, xs)):
        assert float(g) == float(fn(x)), (name, x)


@pytest.mark.parametrize("name, fn", [
    ("v_exp_f16", lambda x: 2.0 ** x), ("v_log_f16", math.log2), ("v_rsq_f16", lambda x: 1 / math.sqrt(x)),
    ("v_sqrt_f16", math.sqrt), ("v_rcp_f16", lambda x: 1 / x),
])
def test_f16_transcendentals_are_correctly_rounded(name, fn):
    xs = [x for x in all_finite_f16(11, 800) if x > 0 and (name != "v_exp_f16" or x < 15)]
    for x, g in zip(xs, call(name, xs)):
        assert same(g, round_fraction(Fraction(fn(x)), "f16")) or abs(float(g) - fn(x)) <= abs(fn(x)) * 2 ** -11, (name, x)


def ref_min(a, b):
    """v_min_f16 in IEEE mode for non-signalling inputs: NaN loses, -0 < +0."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    if a == b == 0:
        return a if math.copysign(1, a) < 0 else b
    return a if a < b else b


def ref_max(a, b):
    return -ref_min(-a, -b)


@pytest.mark.parametrize("name, ref", [
    ("v_min_f16", ref_min), ("v_max_f16", ref_max),
    ("v_min3_f16", lambda a, b, c: ref_min(ref_min(a, b), c)),
    ("v_max3_f16", lambda a, b, c: ref_max(ref_max(a, b), c)),
    ("v_minmax_f16", lambda a, b, c: ref_max(ref_min(a, b), c)),
    ("v_maxmin_f16", lambda a, b, c: ref_min(ref_max(a, b), c)),
])
def test_f16_min_max_family(name, ref):
    rng = random.Random(12)
    pool = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 2.5]
    n = len(ref.__code__.co_varnames[:ref.__code__.co_argcount])
    cols = [[rng.choice(pool) for _ in range(200)] for _ in range(n)]
    for args, g in zip(zip(*cols), call(name, *cols)):
        assert same(g, ref(*args)), (name, args, float(g))


def test_f16_conversions_and_packing():
    assert list(call("v_cvt_f16_u16", [65535, 2049, 7])) == [math.inf, 2048.0, 7.0]
    assert list(call("v_cvt_norm_u16_f16", [0.5, -1.0, 2.0])) == [32768, 0, 65535]
    assert int(call("v_cvt_pk_norm_i16_f16", [-0.5], [1.0])[0]) == (0xC000 | 0x7FFF << 16)
    assert int(call("v_cvt_pk_norm_u16_f16", [1.0], [0.25])[0]) == (0xFFFF | 0x4000 << 16)
    assert list(call("v_frexp_mant_f16", [48.0, -0.375])) == [0.75, -0.75]
    assert list(call("v_fmaak_f16", [2.0], [3.0], [0.5])) == [6.5]
    assert list(call("v_fmamk_f16", [2.0], [3.0], [0.5])) == [6.5]
    assert list(call("v_fma_mixhi_f16", [1.0], [2.0], [0.25])) == [2.25]
    assert "hi_half" in __import__("cass_cc.emu.alu", fromlist=["VECTOR_OPS"]).VECTOR_OPS["v_fma_mixhi_f16"].flags


def test_more_packed_ops():
    a, b = pack(1.0, -3.0), pack(2.0, 0.5)
    assert unpack(call("v_pk_fmac_f16", [a], [b], [pack(1.0, 1.0)])[0]) == (3.0, -0.5)
    assert unpack(call("v_pk_min_f16", [a], [b])[0]) == (1.0, -3.0)
    bf = lambda x: struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    assert list(call("v_dot2acc_f32_bf16", [bf(3.0) | bf(2.0) << 16], [bf(0.5) | bf(4.0) << 16], [1.0])) == [10.5]


def test_pk_mad_i16_per_half():
    rng = random.Random(13)
    for _ in range(100):
        x, y, z = (rng.getrandbits(32) for _ in range(3))
        h = lambda v, k: (v >> 16 * k & 0xFFFF) - (0x10000 if v >> 16 * k & 0x8000 else 0)
        want = sum(((h(x, k) * h(y, k) + h(z, k)) & 0xFFFF) << 16 * k for k in (0, 1))
        assert int(call("v_pk_mad_i16", [x], [y], [z])[0]) == want
