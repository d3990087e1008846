"""Directed rounding (MODE.FP_ROUND) of add, sub, mul, fma and conversions, against the exact
result computed with fractions and rounded by searching the neighbouring floats."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cass_cc.emu.alu import VECTOR_OPS
from cass_cc.emu.alu.rounding import DOWN, NEAREST, UP, ZERO, add, convert, fma, mul, sub

from alu_reference import round_directed

MODES = {UP: "up", DOWN: "down", ZERO: "zero"}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")   # overflow to inf is a tested result


def operands(dtype, n: int, rng) -> np.ndarray:
    """Random bit patterns (every exponent, denormals included) and values of nearby magnitudes
    (where sums cancel and round), without NaNs and infinities."""
    t = np.dtype(dtype)
    u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[t.itemsize]
    raw = rng.integers(0, np.iinfo(u).max, n // 2, dtype=np.uint64).astype(u).view(t)
    near = (rng.standard_normal(n - n // 2) * 2.0 ** rng.integers(-6, 6, n - n // 2)).astype(t)
    x = np.concatenate([raw, near])
    return np.where(np.isfinite(x), x, t.type(1.5)).astype(t)


def check(got, want, q, what):
    if q == 0:
        assert got == 0, what
    else:
        assert got.tobytes() == want.tobytes(), f"{what}: got {got!r}, want {want!r}"


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("mode", sorted(MODES))
def test_arithmetic_directed(dtype, mode):
    rng = np.random.default_rng(mode * 10 + np.dtype(dtype).itemsize)
    n = 300
    a, b, c = (operands(dtype, n, rng) for _ in range(3))
    rng.shuffle(b)
    results = {"add": add(a, b, round=mode), "sub": sub(a, b, round=mode),
               "mul": mul(a, b, round=mode), "fma": fma(a, b, c, round=mode)}
    for i in range(n):
        qa, qb, qc = Fraction(float(a[i])), Fraction(float(b[i])), Fraction(float(c[i]))
        for name, q in (("add", qa + qb), ("sub", qa - qb), ("mul", qa * qb), ("fma", qa * qb + qc)):
            check(results[name][i], round_directed(q, dtype, mode), q,
                  f"{name} {a[i]!r} {b[i]!r} {c[i]!r} rounding {MODES[mode]}")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_conversions_directed(mode):
    rng = np.random.default_rng(mode)
    cases = [(operands(np.float64, 400, rng), np.float32), (operands(np.float32, 400, rng), np.float16),
             (rng.integers(-2**31, 2**31, 400).astype(np.int32), np.float32),
             (rng.integers(0, 2**32, 400).astype(np.uint32), np.float32),
             (rng.integers(-2**15, 2**15, 400).astype(np.int16), np.float16)]
    for x, dtype in cases:
        got = convert(x, dtype, round=mode)
        for i in range(len(x)):
            q = Fraction(int(x[i])) if x.dtype.kind in "iu" else Fraction(float(x[i]))
            check(got[i], round_directed(q, dtype, mode), q, f"{x.dtype} {x[i]!r} -> {np.dtype(dtype)}")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_overflow_and_zero_signs(dtype):
    t = np.dtype(dtype).type
    big = np.array([np.finfo(dtype).max], dtype)
    one = np.array([1.0], dtype)
    assert add(big, big, round=ZERO)[0] == big[0]           # overflow towards zero: max finite
    assert add(big, big, round=DOWN)[0] == big[0]
    assert np.isposinf(add(big, big, round=UP)[0])
    assert add(-big, -big, round=UP)[0] == -big[0]
    assert add(big, one, round=UP)[0] == np.inf              # max + 1 rounds up past max
    assert add(big, one, round=ZERO)[0] == big[0]
    # x - x is -0 rounding down, +0 otherwise; (+0) + (+0) stays +0
    assert np.signbit(sub(one, one, round=DOWN)[0]) and not np.signbit(sub(one, one, round=UP)[0])
    zero = np.array([0.0], dtype)
    assert not np.signbit(add(zero, zero, round=DOWN)[0])
    assert np.signbit(fma(one, -one, one, round=DOWN)[0])
    # a tiny positive product: +0 towards zero, the smallest denormal upwards
    tiny = np.array([np.finfo(dtype).smallest_subnormal], dtype)
    assert mul(tiny, tiny, round=ZERO)[0] == 0 and mul(tiny, tiny, round=UP)[0] == tiny[0]
    assert mul(-tiny, tiny, round=DOWN)[0] == -tiny[0]
    assert add(one, one, round=NEAREST)[0] == t(2)


def test_mode_flags_name_the_rounding_ops():
    rounding = {name for name, o in VECTOR_OPS.items() if "rounding" in o.flags}
    assert {"v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_f32", "v_fma_f32", "v_fmac_f32", "v_fmaak_f32",
            "v_fmamk_f32", "v_add_f64", "v_mul_f64", "v_fma_f64", "v_add_f16", "v_mul_f16", "v_fma_f16",
            "v_cvt_f32_f64", "v_cvt_f16_f32", "v_cvt_f32_i32", "v_cvt_f32_u32"} <= rounding
    one = np.ones((1, 32), np.float32)
    third = np.full((1, 32), 1 / 3, np.float32)
    down = VECTOR_OPS["v_subrev_f32"].fn(one, third, round=DOWN)      # 1/3 - 1, rounded down
    up = VECTOR_OPS["v_subrev_f32"].fn(one, third, round=UP)
    assert (np.nextafter(down, np.float32(1)) == up).all()
