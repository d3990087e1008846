"""f32 ops against exact references: Fraction arithmetic rounded to nearest even by
alu_reference.round_fraction (no numpy involved), Python's math module for the functions
the ISA allows 1 ULP on, and the functional examples printed in the RDNA3 ISA guide."""
from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from alu_reference import bits_f32, call, f32_bits, round_fraction, ulp_distance


def random_f32(n, seed, finite=True):
    """Bit patterns spread over every exponent, denormals included, plus the usual suspects."""
    rng = random.Random(seed)
    special = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, f32_bits(1), f32_bits(0x807FFFFF), f32_bits(0x00800000),
               f32_bits(0x7F7FFFFF), f32_bits(0xFF7FFFFF), 2.0 ** -126, 1.5, 1e-30, 1e30]
    out = [float(np.float32(x)) for x in special]
    while len(out) < n:
        x = f32_bits(rng.getrandbits(32))
        if rng.random() < 0.5:
            x = f32_bits(rng.choice([0x3F000000, 0xBF000000, 0x4B000000]) + rng.getrandbits(23))
        if not finite or math.isfinite(x):
            out.append(x)
    return out


def exact(fn, *xs):
    return round_fraction(fn(*map(Fraction, xs)), "f32")


def same(a, b):
    """Equal as f32 values, signs of zeros and NaN-ness included."""
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


BINARY = {
    "v_add_f32": lambda a, b: a + b,
    "v_sub_f32": lambda a, b: a - b,
    "v_subrev_f32": lambda a, b: b - a,
    "v_mul_f32": lambda a, b: a * b,
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_are_correctly_rounded(name):
    a, b = random_f32(400, 1), random_f32(400, 2)
    got = call(name, a, b)
    for x, y, g in zip(a, b, got):
        want = exact(BINARY[name], x, y)
        if want != 0:
            assert same(g, want), (name, x, y, float(g), want)


@pytest.mark.parametrize("name", ["v_fma_f32", "v_fmac_f32", "v_fmaak_f32", "v_fmamk_f32"])
def test_fma_is_a_single_rounding(name):
    a, b = random_f32(400, 3), random_f32(400, 4)
    rng = random.Random(5)
    # Half the addends cancel the product almost exactly: where double rounding would show.
    with np.errstate(over="ignore"):
        c = [float(np.float32(-x * y * (1 + rng.uniform(-1e-7, 1e-7)))) if i % 2 else z
             for i, (x, y, z) in enumerate(zip(a, b, random_f32(400, 6)))]
    got = call(name, a, b, c)
    for x, y, z, g in zip(a, b, c, got):
        if math.isfinite(z):
            want = exact(lambda p, q, r: p * q + r, x, y, z)
            if want != 0:
                assert same(g, want), (x, y, z, float(g), want)


def test_dx9_zero_rules():
    assert list(call("v_mul_dx9_zero_f32", [0.0, math.inf, math.nan, 2.0], [math.inf, 0.0, 0.0, 3.0])) == [0, 0, 0, 6]
    assert list(call("v_fma_dx9_zero_f32", [0.0, 2.0], [math.nan, 3.0], [5.0, 1.0])) == [5.0, 7.0]


QNAN, SNAN = f32_bits(0x7FC00000), f32_bits(0x7FA00000)


@pytest.mark.parametrize("name, a, b, want", [
    ("v_min_f32", 1.0, 2.0, 1.0),
    ("v_min_f32", -0.0, 0.0, -0.0),
    ("v_min_f32", 0.0, -0.0, -0.0),
    ("v_max_f32", -0.0, 0.0, 0.0),
    ("v_max_f32", 0.0, -0.0, 0.0),
    ("v_min_f32", QNAN, 3.0, 3.0),
    ("v_min_f32", 3.0, QNAN, 3.0),
    ("v_max_f32", QNAN, -math.inf, -math.inf),
    ("v_min_f32", -math.inf, 5.0, -math.inf),
    ("v_max_f32", math.inf, 5.0, math.inf),
])
def test_min_max_ieee_mode(name, a, b, want):
    assert same(call(name, [a], [b])[0], want)


def test_signalling_nan_wins_min_max_and_is_quieted():
    snan = np.array([0x7FA00000], np.uint32).view(np.float32)  # a Python float would quiet it
    one = np.array([1.0], np.float32)
    for name in ("v_min_f32", "v_max_f32"):
        for a, b in ((snan, one), (one, snan)):
            r = call(name, [a], [b])[0]
            assert np.isnan(r) and int(np.float32(r).view(np.uint32)) & 0x00400000, name


def test_min3_max3_med3():
    a, b, c = [1.0, 5.0, -1.0, QNAN], [2.0, 4.0, -0.0, 1.0], [3.0, 3.0, 0.0, 2.0]
    assert list(call("v_min3_f32", a, b, c)) == [1.0, 3.0, -1.0, 1.0]
    assert list(call("v_max3_f32", a, b, c)) == [3.0, 5.0, 0.0, 2.0]
    assert list(call("v_med3_f32", a, b, c)[:3]) == [2.0, 4.0, -0.0]
    assert call("v_med3_f32", a, b, c)[3] == 1.0  # a NaN anywhere: the min3 of the three
    assert list(call("v_minmax_f32", [5.0], [7.0], [6.0])) == [6.0]
    assert list(call("v_maxmin_f32", [5.0], [7.0], [6.0])) == [6.0]


# Functional examples from the RDNA3 ISA guide, as (input bits, output bits).
ISA_EXAMPLES = {
    "v_exp_f32": [(0xFF800000, 0x00000000), (0x80000000, 0x3F800000), (0x7F800000, 0x7F800000)],
    "v_log_f32": [(0xFF800000, 0xFFC00000), (0xBF800000, 0xFFC00000), (0x80000000, 0xFF800000),
                  (0x00000000, 0xFF800000), (0x3F800000, 0x00000000), (0x7F800000, 0x7F800000)],
    "v_rcp_f32": [(0xFF800000, 0x80000000), (0xC0000000, 0xBF000000), (0x80000000, 0xFF800000),
                  (0x00000000, 0x7F800000), (0x7F800000, 0x00000000)],
    "v_rsq_f32": [(0xFF800000, 0xFFC00000), (0x80000000, 0xFF800000), (0x00000000, 0x7F800000),
                  (0x40800000, 0x3F000000), (0x7F800000, 0x00000000)],
    "v_sqrt_f32": [(0xFF800000, 0xFFC00000), (0x80000000, 0x80000000), (0x00000000, 0x00000000),
                   (0x40800000, 0x40000000), (0x7F800000, 0x7F800000)],
    "v_sin_f32": [(0xFF800000, 0xFFC00000), (0xFF7FFFFF, 0x00000000), (0x80000000, 0x80000000),
                  (0x3E800000, 0x3F800000), (0x7F800000, 0xFFC00000)],
    "v_cos_f32": [(0xFF800000, 0xFFC00000), (0xFF7FFFFF, 0x3F800000), (0x80000000, 0x3F800000),
                  (0x3E800000, 0x00000000), (0x7F800000, 0xFFC00000)],
}


@pytest.mark.parametrize("name", sorted(ISA_EXAMPLES))
def test_isa_functional_examples(name):
    ins, outs = zip(*ISA_EXAMPLES[name])
    got = call(name, [f32_bits(b) for b in ins])
    for i, o, g in zip(ins, outs, got):
        want = f32_bits(o)
        assert same(g, want), f"{name}({i:#010x}) = {bits_f32(g):#010x}, want {o:#010x}"


TRANSCENDENTAL = {
    "v_rcp_f32": (lambda x: 1 / x, 1e-30, 1e30),
    "v_rcp_iflag_f32": (lambda x: 1 / x, 1.0, 2.0 ** 32),
    "v_rsq_f32": (lambda x: 1 / math.sqrt(x), 1e-30, 1e30),
    "v_sqrt_f32": (math.sqrt, 1e-30, 1e30),
    "v_exp_f32": (lambda x: 2.0 ** x, -120.0, 120.0),
    "v_log_f32": (math.log2, 1e-30, 1e30),
    "v_sin_f32": (lambda x: math.sin(2 * math.pi * x), -100.0, 100.0),
    "v_cos_f32": (lambda x: math.cos(2 * math.pi * x), -100.0, 100.0),
}


@pytest.mark.parametrize("name", sorted(TRANSCENDENTAL))
def test_transcendentals_within_one_ulp(name):
    fn, lo, hi = TRANSCENDENTAL[name]
    rng = random.Random(9)
    geometric = lo > 0
    xs = [float(np.float32(math.exp(rng.uniform(math.log(lo), math.log(hi))) if geometric else rng.uniform(lo, hi)))
          for _ in range(300)]
    got = call(name, xs)
    for x, g in zip(xs, got):
        want = fn(x)
        if name in ("v_sin_f32", "v_cos_f32"):
            assert abs(float(g) - want) < 2e-6, (name, x)  # absolute error near the zeros
        else:
            assert ulp_distance(float(g), want, "f32") <= 1.0, (name, x, float(g), want)


def test_transcendentals_flush_denormals():
    tiny = f32_bits(0x00000123)
    assert call("v_rcp_f32", [tiny])[0] == math.inf
    assert call("v_sqrt_f32", [tiny])[0] == 0.0
    assert call("v_log_f32", [tiny])[0] == -math.inf
    assert call("v_exp_f32", [-130.0])[0] == 0.0  # the result would be a denormal


def test_rounding_to_integers():
    xs = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.0, 1e10, -1.2, 0.7, -3.0]
    assert [float(v) for v in call("v_rndne_f32", xs)] == [float(round(x)) for x in xs]
    assert [float(v) for v in call("v_floor_f32", xs)] == [float(math.floor(x)) for x in xs]
    assert [float(v) for v in call("v_ceil_f32", xs)] == [float(math.ceil(x)) for x in xs]
    assert [float(v) for v in call("v_trunc_f32", xs)] == [float(math.trunc(x)) for x in xs]
    assert math.copysign(1, call("v_trunc_f32", [-0.5])[0]) == -1  # trunc(-0.5) is -0.0


def test_fract():
    got = call("v_fract_f32", [1.25, -1.25, -1e-10, 5.0, math.inf, math.nan])
    assert list(got[:4]) == [0.25, 0.75, float(np.float32(f32_bits(0x3F7FFFFF))), 0.0]
    assert np.isnan(got[4]) and np.isnan(got[5])


def test_ldexp_and_frexp():
    xs, es = random_f32(300, 11), [random.Random(i).randint(-300, 300) for i in range(300)]
    got = call("v_ldexp_f32", xs, es)
    for x, e, g in zip(xs, es, got):
        assert same(g, round_fraction(Fraction(x) * Fraction(2) ** e, "f32")) or x == 0, (x, e)
    mant, exp = call("v_frexp_mant_f32", xs), call("v_frexp_exp_i32_f32", xs)
    for x, m, e in zip(xs, mant, exp):
        assert (float(m), int(e)) == math.frexp(x), x
    assert call("v_frexp_exp_i32_f32", [math.inf, math.nan])[0] == 0
    assert call("v_frexp_mant_f32", [-math.inf])[0] == -math.inf


@pytest.mark.parametrize("name, lo, hi, rounding", [
    ("v_cvt_i32_f32", -2**31, 2**31 - 1, math.trunc),
    ("v_cvt_u32_f32", 0, 2**32 - 1, math.trunc),
    ("v_cvt_floor_i32_f32", -2**31, 2**31 - 1, math.floor),
])
def test_float_to_int_saturates_and_nan_is_zero(name, lo, hi, rounding):
    xs = [0.0, -0.0, 1.9, -1.9, 2.5, 3e9, -3e9, 5e9, 2147483520.0, -2147483648.0, math.inf, -math.inf, math.nan]
    want = [0 if math.isnan(x) else max(lo, min(hi, rounding(x))) if math.isfinite(x) else (hi if x > 0 else lo)
            for x in xs]
    assert [int(v) for v in call(name, xs)] == want


def test_cvt_nearest_rounds_half_up():
    assert list(call("v_cvt_nearest_i32_f32", [0.5, 1.5, -0.5, -1.5, 2.4, math.nan])) == [1, 2, 0, -1, 2, 0]


def test_int_to_float_is_correctly_rounded():
    ints = [0, 1, -1, 2**24 + 1, 2**31 - 1, -2**31, 16777217, 33554435, 123456789]
    got = call("v_cvt_f32_i32", ints)
    assert [float(g) for g in got] == [round_fraction(Fraction(i), "f32") for i in ints]
    uints = [0, 2**32 - 1, 2**31 + 1, 2**24 + 3]
    assert [float(g) for g in call("v_cvt_f32_u32", uints)] == [round_fraction(Fraction(u), "f32") for u in uints]
    assert list(call("v_cvt_f32_ubyte2", [0x00AB0000])) == [171.0]


def test_packed_conversions():
    assert int(call("v_cvt_pk_i16_f32", [-40000.0], [1.9])[0]) == (0x8000 | (1 << 16))
    assert int(call("v_cvt_pk_u16_f32", [-5.0], [70000.0])[0]) == 0xFFFF0000
    assert int(call("v_cvt_pk_norm_i16_f32", [1.0], [-2.0])[0]) == (0x7FFF | (0x8001 << 16))
    assert int(call("v_cvt_pk_norm_u16_f32", [0.5], [2.0])[0]) == (0x8000 | (0xFFFF << 16))
    assert int(call("v_cvt_pk_u8_f32", [300.0], [2], [0x11223344])[0]) == 0x11FF3344


def divide_f32(n, d):
    """The fdiv expansion LLVM emits for gfx11 (denormals kept): div_scale twice, rcp,
    Newton-Raphson with fma, div_fmas with VCC, div_fixup."""
    den, _ = call("v_div_scale_f32", d, d, n)
    num, vcc = call("v_div_scale_f32", n, d, n)
    r = call("v_rcp_f32", den)
    one = [1.0] * len(n)
    e = call("v_fma_f32", -den, r, one)
    r = call("v_fma_f32", e, r, r)
    q = call("v_mul_f32", num, r)
    e = call("v_fma_f32", -den, q, num)
    q = call("v_fma_f32", e, r, q)
    e = call("v_fma_f32", -den, q, num)
    q = call("v_div_fmas_f32", e, r, q, vcc=vcc)
    return call("v_div_fixup_f32", q, d, n)


def test_division_sequence_is_correctly_rounded():
    rng = random.Random(21)
    n, d = random_f32(600, 22), random_f32(600, 23)
    # Hard corners: quotients that overflow, underflow into denormals, huge or denormal divisors.
    n += [f32_bits(0x7F000000), f32_bits(0x00000010), 1.0, f32_bits(0x00400000), 3.0, 1e-38, f32_bits(0x7F7FFFFF)]
    d += [f32_bits(0x00800000), 3.0, f32_bits(0x7F000000), f32_bits(0x7E800000), f32_bits(0x00000003), 1e30, 0.5]
    # Quotients among the denormals or near the top of the range, from every kind of operand pair.
    for _ in range(300):
        q_exp = rng.choice([rng.randint(-152, -120), rng.randint(118, 128)])
        d_exp = rng.randint(-149, 127)
        n_exp = max(-149, min(127, q_exp + d_exp))
        n.append(float(np.float32(rng.uniform(1, 2) * 2.0 ** n_exp)))
        d.append(float(np.float32(rng.uniform(1, 2) * 2.0 ** d_exp)))
    d = [x if x != 0 else 1.0 for x in d]
    got = divide_f32(np.array(n, np.float32), np.array(d, np.float32))
    for x, y, g in zip(n, d, got):
        want = round_fraction(Fraction(x) / Fraction(y), "f32")
        if want == 0:
            want = math.copysign(0.0, math.copysign(1, x) * math.copysign(1, y))
        assert same(g, want), (x, y, float(g))


@pytest.mark.parametrize("n, d, want", [
    (0.0, 0.0, math.nan), (math.inf, math.inf, math.nan), (1.0, 0.0, math.inf), (-1.0, 0.0, -math.inf),
    (0.0, 5.0, 0.0), (0.0, -5.0, -0.0), (3.0, math.inf, 0.0), (math.inf, -2.0, -math.inf),
    (math.nan, 1.0, math.nan), (1.0, math.nan, math.nan),
])
def test_division_special_cases(n, d, want):
    assert same(divide_f32(np.array([n], np.float32), np.array([d], np.float32))[0], want)


def test_div_scale_flags_the_cases_that_need_post_scaling():
    big, small = f32_bits(0x7E000000), f32_bits(0x02000000)
    tiny, mid = f32_bits(0x0D800000), f32_bits(0x4E800000)  # 2**-100 / 2**30 is a denormal
    _, vcc = call("v_div_scale_f32", [big, 1.0, tiny], [small, 3.0, mid], [big, 1.0, tiny])
    assert list(map(bool, vcc)) == [True, False, True]


def test_cube_ops():
    x, y, z = [1.0, 0.1, 0.1], [0.2, -2.0, 0.3], [0.3, 0.4, -5.0]
    assert list(call("v_cubeid_f32", x, y, z)) == [0.0, 3.0, 5.0]
    assert list(call("v_cubema_f32", x, y, z)) == [2.0, -4.0, -10.0]


def test_small_conversions_and_legacy_ops():
    assert [float(v) for v in call("v_cvt_f32_ubyte0", [0x11223344])] == [0x44]
    assert [float(v) for v in call("v_cvt_f32_ubyte1", [0x11223344])] == [0x33]
    assert [float(v) for v in call("v_cvt_f32_ubyte3", [0x11223344])] == [0x11]
    assert list(call("v_cvt_off_f32_i4", list(range(16)))) == [i / 16 for i in range(8)] + [(i - 16) / 16 for i in range(8, 16)]
    assert list(call("v_fmac_dx9_zero_f32", [0.0, 2.0], [math.inf, 3.0], [-0.0, 1.0])) == [0.0, 7.0]
    assert math.copysign(1, call("v_fmac_dx9_zero_f32", [0.0], [math.inf], [-0.0])[0]) == 1
    assert list(call("v_mullit_f32", [2.0, 2.0], [3.0, 3.0], [1.0, -1.0])) == [6.0, float(-np.finfo(np.float32).max)]
