"""gfx12's scalar float instructions (RDNA4: s_add_f16, s_fmac_f16, s_max_num_f32, s_cmp_lt_f16,
s_cvt_hi_f32_f16 ...), which clang-22 emits for wave-uniform float math on gfx1200/gfx1201: each
runs in a gfx1201 kernel, one operand set per wave, against exact host references (fractions
rounded as the ISA guide says: IEEE round to nearest even, or MODE's rounding; denormals kept or
flushed by MODE; maximumNumber/minimumNumber for max_num/min_num; NaN compares unordered). An f16
source is bits 15:0 of its SGPR, so the tests put noise in bits 31:16 (bits 15:0 for the _hi form)."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest

from .alu.alu_reference import FORMATS, round_fraction
from .emu_build import Device, asm_kernel, assemble

WAVES = 400
SPECIAL_F16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D00, 0xFE01, 0x0001, 0x8001, 0x03FF, 0x0400,
               0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3800, 0x3E00, 0x4100, 0xC100, 0x3555]
SPECIAL_F32 = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00000, 0x00000001,
               0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000, 0xBF800000, 0x477FF000, 0x477FF001,
               0x477FEFFF, 0x33800000, 0x33800001, 0xB3000000, 0x387FC000, 0x38800000]


def f16(bits: int) -> float:
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


# (fraction bits, minimum normal exponent, maximum exponent)


def flushed(x: float, fmt: str) -> float:
    """Denormals of the format flushed to a zero of their sign."""
    tiny = 2.0 ** FORMATS[fmt][1]
    return math.copysign(0.0, x) if math.isfinite(x) and abs(x) < tiny else x


def fused(a: float, b: float, c: float, fmt: str, mode: str = "even") -> float:
    """a * b + c rounded once; a zero sum is +0 unless both addends are -0 (IEEE 754)."""
    if not all(map(math.isfinite, (a, b, c))):
        return a * b + c
    product = Fraction(a) * Fraction(b)
    total = product + Fraction(c)
    if total == 0:
        product_negative = math.copysign(1, a) * math.copysign(1, b) < 0
        return -0.0 if product_negative and math.copysign(1, c) < 0 else 0.0
    return round_fraction(total, fmt, mode)


def maximum_number(a: float, b: float, largest: bool) -> float:
    """IEEE 754-2019 maximumNumber/minimumNumber: a NaN loses to a number, -0 < +0."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    if a == b:
        pick_a = (math.copysign(1, a) > math.copysign(1, b)) == largest
        return a if pick_a else b
    return max(a, b) if largest else min(a, b)


COMPARES = {
    "lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
    "lg": lambda a, b: a < b or a > b, "ge": lambda a, b: a >= b,
    "o": lambda a, b: not (math.isnan(a) or math.isnan(b)), "u": lambda a, b: math.isnan(a) or math.isnan(b),
    "nge": lambda a, b: not a >= b, "nlg": lambda a, b: not (a < b or a > b), "ngt": lambda a, b: not a > b,
    "nle": lambda a, b: not a <= b, "neq": lambda a, b: not a == b, "nlt": lambda a, b: not a < b,
}


def operands(width: int, count: int, seed: int) -> list[int]:
    """Raw operand bits: the special values, then random ones (every class, NaNs included)."""
    rng = random.Random(seed)
    special = SPECIAL_F16 if width == 16 else SPECIAL_F32
    values = [special[(i * 7 + seed) % len(special)] for i in range(len(special) * 2)]
    values += [rng.getrandbits(width) for _ in range(count - len(values))]
    return values


def run(instruction: str, columns: list[list[int]], setup: str = "") -> tuple[list[int], list[int]]:
    """Each wave loads s8, s9, s10 from its row of `columns`, copies s10 to s13 (the destination
    of an accumulating form), runs `setup` and `instruction` (its result in s13) and stores s13
    and SCC. Returns (s13, SCC) per wave."""
    rows = np.zeros((WAVES, 4), np.uint32)
    for j, column in enumerate(columns):
        rows[:, j] = column
    body = f"""  s_load_b64 s[4:5], s[0:1], 0x0
  s_load_b64 s[6:7], s[0:1], 0x8
  s_wait_kmcnt 0x0
  s_lshl_b32 s12, ttmp9, 4
  s_load_b128 s[8:11], s[4:5], s12 offset:0x0
  s_wait_kmcnt 0x0
  s_mov_b32 s13, s10
{setup}
  {instruction}
  s_cselect_b32 s14, 1, 0
  s_lshl_b32 s12, ttmp9, 3
  v_mov_b32 v2, s12
  v_mov_b32 v3, s13
  v_mov_b32 v4, s14
  global_store_b64 v2, v[3:4], s[6:7]
"""
    # f32 denormals kept, as in clang's kernels (the descriptor's default flushes them)
    dev = Device(assemble(asm_kernel("k", body, [("rows", 0, 8, "global_buffer"), ("out", 8, 8, "global_buffer")],
                                     descriptor="\t\t.amdhsa_float_denorm_mode_32 3", arch="gfx1201"), "gfx1201"))
    out, src = dev.zeros(2 * WAVES, np.uint32), dev.upload(rows)
    dev.run("k", (WAVES, 1, 1), (1, 1, 1), src, out)
    result = dev.download(out, 2 * WAVES, np.uint32).reshape(WAVES, 2)
    return [int(v) for v in result[:, 0]], [int(v) for v in result[:, 1]]


def noisy_halves(seed: int) -> list[int]:
    """f16 operands in bits 15:0 with random bits 31:16."""
    rng = random.Random(seed + 100)
    return [v | rng.getrandbits(16) << 16 for v in operands(16, WAVES, seed)]


def same(got: float, want: float) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def assert_f16_results(got_bits: list[int], want: list[float], context: list[tuple]) -> None:
    bad = [(ctx, f16(g), w) for g, w, ctx in zip(got_bits, want, context) if not same(f16(g), w)]
    assert not bad, bad[:5]


def test_signalling_nan_results_are_quiet():
    """A NaN result of an arithmetic op is quiet (bit 9 set), as IEEE mode requires."""
    got, _ = run("s_add_f16 s13, s8, s9", [[0x7D00] * WAVES, [0x3C00] * WAVES])
    assert all(g & 0x7E00 == 0x7E00 for g in got)


@pytest.mark.parametrize("name,fn", [("add", lambda a, b: a + b), ("sub", lambda a, b: a - b),
                                     ("mul", lambda a, b: a * b)])
@pytest.mark.parametrize("rounding", ["even", "zero"])
def test_f16_arithmetic_rounds_as_mode_says(name, fn, rounding):
    """s_add/sub/mul_f16 round correctly, to nearest even by default, towards zero after
    s_round_mode (MODE.FP_ROUND bits 3:2 for f16)."""
    a, b = noisy_halves(1), noisy_halves(2)
    setup = "  s_round_mode 0xc" if rounding == "zero" else ""
    got, _ = run(f"s_{name}_f16 s13, s8, s9", [a, b], setup)
    want = []
    for x, y in zip(map(f16, a), map(f16, b)):
        if not (math.isfinite(x) and math.isfinite(y)):
            want.append(fn(x, y))     # infinities and NaNs: what IEEE arithmetic on doubles gives
            continue
        exact = fn(Fraction(x), Fraction(y))
        if exact == 0:   # IEEE: x - x is +0; -0 + -0 and signed products keep their sign
            want.append(fn(x, y))
        else:
            want.append(round_fraction(exact, "f16", rounding))
    assert_f16_results(got, want, list(zip(map(f16, a), map(f16, b))))


def test_f16_denormals_flush_when_mode_says():
    """With MODE.FP_DENORM for f16/f64 cleared (s_denorm_mode 0), denormal sources and results
    of s_mul_f16 are zeros of their sign; with the default they are kept."""
    a, b = noisy_halves(3), noisy_halves(4)
    for setup, flush in (("", False), ("  s_denorm_mode 0x0", True)):
        got, _ = run("s_mul_f16 s13, s8, s9", [a, b], setup)
        want = []
        for x, y in zip(map(f16, a), map(f16, b)):
            if flush:
                x, y = flushed(x, "f16"), flushed(y, "f16")
            if not (math.isfinite(x) and math.isfinite(y)) or x * y == 0:
                r = x * y
            else:
                r = round_fraction(Fraction(x) * Fraction(y), "f16")
            want.append(flushed(r, "f16") if flush else r)
        assert_f16_results(got, want, list(zip(map(f16, a), map(f16, b))))


def test_f16_fmac_rounds_once():
    """s_fmac_f16 d, a, b: d = a * b + d with one rounding (the accumulator is bits 15:0 of d)."""
    a, b, c = noisy_halves(5), noisy_halves(6), noisy_halves(7)
    got, _ = run("s_fmac_f16 s13, s8, s9", [a, b, c])
    want = [fused(x, y, z, "f16") for x, y, z in zip(map(f16, a), map(f16, b), map(f16, c))]
    assert_f16_results(got, want, list(zip(map(f16, a), map(f16, b), map(f16, c))))


@pytest.mark.parametrize("name,largest", [("max_num", True), ("min_num", False)])
@pytest.mark.parametrize("width", [16, 32])
def test_max_min_num(name, largest, width):
    """s_max_num/s_min_num: maximumNumber/minimumNumber, a signalling NaN against a number
    gives the number too (gfx12's _num forms), -0 below +0."""
    if width == 16:
        a, b = noisy_halves(8), noisy_halves(9)
        got, _ = run(f"s_{name}_f16 s13, s8, s9", [a, b])
        want = [maximum_number(x, y, largest) for x, y in zip(map(f16, a), map(f16, b))]
        assert_f16_results(got, want, list(zip(map(f16, a), map(f16, b))))
    else:
        a, b = operands(32, WAVES, 10), operands(32, WAVES, 11)
        got, _ = run(f"s_{name}_f32 s13, s8, s9", [a, b])
        bad = [(f32(x), f32(y), f32(g)) for x, y, g in zip(a, b, got)
               if not same(f32(g), maximum_number(f32(x), f32(y), largest))]
        assert not bad, bad[:5]


@pytest.mark.parametrize("cond", sorted(COMPARES))
def test_f16_compares_set_scc(cond):
    a, b = noisy_halves(12), noisy_halves(13)
    b[::3] = a[::3]     # equal pairs, zeros of both signs and NaNs against themselves among them
    _, scc = run(f"s_cmp_{cond}_f16 s8, s9", [a, b])
    want = [int(COMPARES[cond](x, y)) for x, y in zip(map(f16, a), map(f16, b))]
    assert scc == want


@pytest.mark.parametrize("hi", [False, True])
def test_cvt_f32_from_either_half(hi):
    """s_cvt_f32_f16 converts bits 15:0, s_cvt_hi_f32_f16 bits 31:16, exactly."""
    halves = operands(16, WAVES, 14)
    rng = random.Random(15)
    packed = [(h << 16 | rng.getrandbits(16)) if hi else (rng.getrandbits(16) << 16 | h) for h in halves]
    got, _ = run(f"s_cvt_{'hi_' if hi else ''}f32_f16 s13, s8", [packed])
    bad = [(hex(h), f32(g)) for h, g in zip(halves, got) if not same(f32(g), f16(h))]
    assert not bad, bad[:5]


def test_cvt_f16_f32_rounds_to_nearest_even():
    a = operands(32, WAVES, 16)
    got, _ = run("s_cvt_f16_f32 s13, s8", [a])
    want = [f32(x) if not math.isfinite(f32(x)) else round_fraction(Fraction(f32(x)), "f16") for x in a]
    want = [math.copysign(w, f32(x)) if w == 0 else w for w, x in zip(want, a)]
    assert_f16_results(got, want, [f32(x) for x in a])


def test_cvt_pk_rtz_packs_two_halves_rounded_towards_zero():
    a, b = operands(32, WAVES, 17), operands(32, WAVES, 18)
    got, _ = run("s_cvt_pk_rtz_f16_f32 s13, s8, s9", [a, b])

    def rtz(bits: int) -> float:
        x = f32(bits)
        if not math.isfinite(x):
            return x
        r = round_fraction(Fraction(x), "f16", "zero")
        return math.copysign(r, x) if r == 0 else r
    assert_f16_results([g & 0xFFFF for g in got], [rtz(x) for x in a], [f32(x) for x in a])
    assert_f16_results([g >> 16 for g in got], [rtz(x) for x in b], [f32(x) for x in b])


@pytest.mark.parametrize("name,fn", [("ceil", math.ceil), ("floor", math.floor), ("trunc", math.trunc),
                                     ("rndne", round)])
def test_f16_round_to_integer(name, fn):
    a = noisy_halves(19)
    got, _ = run(f"s_{name}_f16 s13, s8", [a])
    want = []
    for x in map(f16, a):
        if not math.isfinite(x):
            want.append(x)
        else:
            r = float(fn(Fraction(x)))    # Fraction's round() is half to even
            want.append(math.copysign(0.0, x) if r == 0 else r)
    assert_f16_results(got, want, [f16(x) for x in a])

