"""Helpers for the ALU table tests: calling an op on plain Python values, and an exact,
numpy-free rounding of fractions to f16/f32/f64 to serve as the independent reference."""
from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np

from cass_cc.emu.alu import DTYPES, SCALAR_OPS, VECTOR_OPS

INT_RANGES = {"i8": (-2**7, 2**7 - 1), "u8": (0, 2**8 - 1), "i16": (-2**15, 2**15 - 1), "u16": (0, 2**16 - 1),
              "b16": (0, 2**16 - 1), "i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1), "b32": (0, 2**32 - 1),
              "i64": (-2**63, 2**63 - 1), "u64": (0, 2**64 - 1), "b64": (0, 2**64 - 1),
              "pk_i16": (0, 2**32 - 1), "pk_u16": (0, 2**32 - 1), "pk_f16": (0, 2**32 - 1)}
# (significand bits without the hidden one, minimum normal exponent, maximum exponent)
FORMATS = {"f16": (10, -14, 15), "f32": (23, -126, 127), "f64": (52, -1022, 1023)}


def call(name: str, *columns, **extras):
    """Run op `name` on one wave (or, for scalar ops, one value per wave) whose lanes hold the
    given columns; returns the outputs as numpy arrays of one dimension."""
    o = VECTOR_OPS.get(name) or SCALAR_OPS[name]
    shape = (1, -1) if name.startswith("v_") else (-1,)
    arrays = [np.asarray(_in_range(col, t), dtype=DTYPES[t]).reshape(shape) for col, t in zip(columns, o.srcs)]
    extras = {k: (np.asarray(v).reshape(arrays[0].shape) if k in ("carry", "mask", "scc", "vcc", "lane") else v)
              for k, v in extras.items()}
    out = o.fn(*arrays, **extras)
    if isinstance(out, tuple):
        return tuple(np.asarray(x).reshape(-1) for x in out)
    return np.asarray(out).reshape(-1)


def _in_range(col, typ: str):
    """Python ints wrapped into the integer type's range (so 0xFFFFFFFF can feed an i32)."""
    if typ in INT_RANGES and not isinstance(col, np.ndarray):
        return [wrap(int(v), typ) for v in col]
    return col


def wrap(value: int, typ: str) -> int:
    """value reduced to the integer type's range, two's complement."""
    lo, hi = INT_RANGES[typ]
    value %= hi - lo + 1
    return value - (hi - lo + 1) if lo < 0 and value > hi else value


def edge_ints(typ: str) -> list[int]:
    lo, hi = INT_RANGES[typ]
    bits = (hi - lo + 1).bit_length() - 1
    vals = {0, 1, 2, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, lo, hi, hi - 1, lo + 1,
            (1 << (bits - 1)) - 1, 1 << (bits - 1), 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000}
    if lo < 0:
        vals |= {-1, -2, -32, -33}
    return sorted(v for v in vals if lo <= v <= hi)


def int_columns(types, n: int = 160, seed: int = 1) -> list[list[int]]:
    """Columns of test values per operand type: edge values crossed with random ones."""
    rng = random.Random(seed)
    cols = []
    for i, t in enumerate(types):
        lo, hi = INT_RANGES[t]
        edges = edge_ints(t)
        col = [edges[(j * (i + 3)) % len(edges)] if j < 2 * len(edges) else rng.randint(lo, hi)
               for j in range(n)]
        cols.append(col)
    return cols


def round_fraction(x: Fraction, fmt: str, mode: str = "even") -> float:
    """x rounded in f16/f32/f64, to nearest even (mode "even") or towards zero ("zero"), returned
    as a Python float (exact); overflow gives infinity, or towards zero the largest finite value."""
    mant, emin, emax = FORMATS[fmt]
    if x == 0:
        return 0.0
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    scaled = a / Fraction(2) ** (e - mant)
    m = round(scaled) if mode == "even" else math.floor(scaled)  # Fraction rounding is half-to-even
    value = Fraction(m) * Fraction(2) ** (e - mant)
    if value >= Fraction(2) ** (emax + 1):
        return sign * (math.inf if mode == "even" else float((2 - Fraction(2) ** -mant) * Fraction(2) ** emax))
    return sign * float(value)


def f32_bits(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bits_f32(x) -> int:
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def ulp_distance(a: float, b: float, fmt: str) -> float:
    """|a - b| in units of the last place of b, in the format."""
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
    if a == b:
        return 0.0
    if math.isinf(a) or math.isinf(b):
        return math.inf
    mant, emin, _ = FORMATS[fmt]
    e = max(math.frexp(b)[1] - 1 if b != 0 else emin, emin)
    return abs(a - b) / 2.0 ** (e - mant)


_BIG = Fraction(2) ** 3000          # stands for +inf in comparisons


def _exact(x) -> Fraction:
    return Fraction(float(x)) if np.isfinite(x) else (_BIG if x > 0 else -_BIG)


def round_directed(q: Fraction, dtype, mode: int):
    """The float of dtype that rounding q towards +inf (mode 1), -inf (2) or zero (3) gives:
    its floor or ceiling among dtype's values (infinities included), found by stepping from a
    nearby float."""
    t = np.dtype(dtype).type
    try:
        c = t(float(q))
    except OverflowError:
        c = t(np.inf if q > 0 else -np.inf)
    lo = c
    while _exact(lo) > q:
        lo = np.nextafter(lo, t(-np.inf))
    while _exact(np.nextafter(lo, t(np.inf))) <= q:
        lo = np.nextafter(lo, t(np.inf))
    hi = lo if _exact(lo) == q else np.nextafter(lo, t(np.inf))
    if mode == 1 or mode == 3 and q < 0:
        return hi
    return lo
