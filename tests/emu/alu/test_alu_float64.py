"""f64 ops against Fraction arithmetic rounded by alu_reference.round_fraction."""
from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest

from alu_reference import call, round_fraction, ulp_distance


def f64_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def random_f64(n, seed):
    rng = random.Random(seed)
    out = [0.0, -0.0, 1.0, -3.0, f64_bits(1), f64_bits(0x000FFFFFFFFFFFFF), 2.0 ** -1022, 1.7e308, 1e-300, 1e300]
    while len(out) < n:
        x = f64_bits(rng.getrandbits(64)) if rng.random() < 0.5 else rng.uniform(-4, 4) * 2.0 ** rng.randint(-60, 60)
        if math.isfinite(x):
            out.append(x)
    return out


def same(a, b):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


@pytest.mark.parametrize("name, fn", [("v_add_f64", lambda a, b: a + b), ("v_mul_f64", lambda a, b: a * b)])
def test_binary_ops_are_correctly_rounded(name, fn):
    a, b = random_f64(300, 1), random_f64(300, 2)
    for x, y, g in zip(a, b, call(name, a, b)):
        want = round_fraction(fn(Fraction(x), Fraction(y)), "f64")
        if want != 0:
            assert same(g, want), (name, x, y)


def test_fma_f64_is_a_single_rounding():
    rng = random.Random(3)
    a, b = random_f64(500, 4), random_f64(500, 5)
    c = [-(x * y) * (1 + rng.uniform(-1e-15, 1e-15)) if i % 2 else z
         for i, (x, y, z) in enumerate(zip(a, b, random_f64(500, 6)))]
    c = [z if math.isfinite(z) else 1.0 for z in c]
    for x, y, z, g in zip(a, b, c, call("v_fma_f64", a, b, c)):
        want = round_fraction(Fraction(x) * Fraction(y) + Fraction(z), "f64")
        if want != 0:
            assert same(g, want), (x, y, z, float(g), want)
    assert same(call("v_fma_f64", [math.inf], [2.0], [1.0])[0], math.inf)
    assert math.isnan(call("v_fma_f64", [math.inf], [0.0], [1.0])[0])
    assert same(call("v_fma_f64", [1e300], [1e300], [-math.inf])[0], -math.inf)


def divide_f64(n, d):
    """LLVM's f64 fdiv expansion for gfx11."""
    den, _ = call("v_div_scale_f64", d, d, n)
    num, vcc = call("v_div_scale_f64", n, d, n)
    one = np.ones_like(n)
    r = call("v_rcp_f64", den)
    t = call("v_fma_f64", -den, r, one)
    r = call("v_fma_f64", r, t, r)
    t = call("v_fma_f64", -den, r, one)
    r = call("v_fma_f64", r, t, r)
    q = call("v_mul_f64", num, r)
    e = call("v_fma_f64", -den, q, num)
    q = call("v_div_fmas_f64", e, r, q, vcc=vcc)
    return call("v_div_fixup_f64", q, d, n)


def test_division_sequence_is_correctly_rounded():
    n, d = random_f64(400, 7), random_f64(400, 8)
    n += [1.7e308, f64_bits(0x10), 1.0, 1e-300, 3.0]
    d += [2.0 ** -1022, 3.0, 1.5e308, 1e300, f64_bits(3)]
    rng = random.Random(9)
    for _ in range(300):  # quotients among the denormals or near the top of the range
        q_exp = rng.choice([rng.randint(-1076, -1015), rng.randint(1015, 1024)])
        d_exp = rng.randint(-1074, 1023)
        n.append(rng.uniform(1, 2) * 2.0 ** max(-1074, min(1023, q_exp + d_exp)))
        d.append(rng.uniform(1, 2) * 2.0 ** d_exp)
    d = [y if y != 0 else 1.0 for y in d]
    got = divide_f64(np.array(n), np.array(d))
    for x, y, g in zip(n, d, got):
        want = round_fraction(Fraction(x) / Fraction(y), "f64")
        if want == 0:
            want = math.copysign(0.0, math.copysign(1, x) * math.copysign(1, y))
        assert same(g, want), (x, y, float(g))


@pytest.mark.parametrize("n, d, want", [
    (0.0, 0.0, math.nan), (1.0, 0.0, math.inf), (0.0, -2.0, -0.0), (math.inf, math.inf, math.nan),
    (-math.inf, 2.0, -math.inf), (2.0, math.inf, 0.0),
])
def test_division_special_cases(n, d, want):
    assert same(divide_f64(np.array([n]), np.array([d]))[0], want)


def test_min_max_f64():
    assert same(call("v_min_f64", [0.0], [-0.0])[0], -0.0)
    assert same(call("v_max_f64", [-0.0], [0.0])[0], 0.0)
    assert call("v_max_f64", [math.nan], [2.0])[0] == 2.0


def test_sqrt_rsq_rcp_f64():
    xs = random_f64(200, 9)
    xs = [abs(x) for x in xs if x != 0]
    for x, s, r, q in zip(xs, call("v_sqrt_f64", xs), call("v_rsq_f64", xs), call("v_rcp_f64", xs)):
        assert s == math.sqrt(x)
        assert ulp_distance(float(r), 1 / math.sqrt(x), "f64") <= 1
        assert ulp_distance(float(q), round_fraction(1 / Fraction(x), "f64"), "f64") <= 0.5 or math.isinf(q)


def test_conversions_f64():
    assert list(call("v_cvt_i32_f64", [1e10, -1e10, -2.9, math.nan])) == [2**31 - 1, -2**31, -2, 0]
    assert list(call("v_cvt_u32_f64", [1e10, -1.0, 4294967295.9])) == [2**32 - 1, 0, 2**32 - 1]
    assert list(call("v_cvt_f64_u32", [2**32 - 1])) == [4294967295.0]
    assert float(call("v_cvt_f32_f64", [1 + 2.0 ** -24])[0]) == 1.0  # a tie rounds to even
    assert float(call("v_cvt_f32_f64", [1 + 2.0 ** -24 + 2.0 ** -50])[0]) == 1 + 2.0 ** -23


def test_rounding_and_fract_f64():
    xs = [-2.5, 2.5, -0.3, 7.0]
    assert list(call("v_rndne_f64", xs)) == [-2.0, 2.0, -0.0, 7.0]
    assert list(call("v_fract_f64", [-1e-20, 2.75])) == [f64_bits(0x3FEFFFFFFFFFFFFF), 0.75]
    m, e = call("v_frexp_mant_f64", [48.0]), call("v_frexp_exp_i32_f64", [48.0])
    assert (m[0], e[0]) == (0.75, 6)
    assert call("v_ldexp_f64", [1.5], [-1074])[0] == f64_bits(2)  # 1.5 * 2**-1074 ties to even


def test_trig_preop_slices_two_over_pi():
    parts = call("v_trig_preop_f64", [1.0, 1.0, 1.0], [0, 1, 2])
    assert float(parts[0]) == math.floor((2 / math.pi) * 2**53) / 2**53 or abs(parts[0] - 2 / math.pi) < 2**-52
    assert sum(Fraction(float(p)) for p in parts) - Fraction(2 / math.pi) < Fraction(1, 2**52)
    # consecutive slices do not overlap: each is below the previous one's last bit
    assert 0 < parts[1] < 2.0 ** -52 and 0 < parts[2] < 2.0 ** -105
    big = call("v_trig_preop_f64", [2.0 ** 100], [0])[0]  # large inputs skip the leading bits
    assert 0 < big < 2.0 ** -20


def test_f64_rounding_and_conversions_from_narrower_types():
    xs = [-2.5, -0.5, 0.5, 1e300, -7.0, 2.0 ** 52 + 0.5]
    assert list(call("v_trunc_f64", xs)) == [float(math.trunc(x)) for x in xs]
    assert list(call("v_ceil_f64", xs)) == [float(math.ceil(x)) for x in xs]
    f32s = [float(np.float32(x)) for x in (1e-40, 3.4e38, -0.1)]
    assert list(call("v_cvt_f64_f32", f32s)) == f32s
    assert list(call("v_cvt_f64_i32", [-2**31, 2**31 - 1])) == [-2.0**31, 2.0**31 - 1]
