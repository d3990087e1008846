"""Compares: VOPC v_cmp_*/v_cmpx_* (the result is one bit per lane: VCC or an SGPR mask, or
EXEC for v_cmpx) and SOPC/SOPK s_cmp_*/s_cmpk_*/s_bitcmp* (the result is SCC).

Float predicates follow IEEE: the ordered ones (lt, eq, le, gt, lg, ge, o) are false when
either operand is NaN, their negations (nge, nlg, ngt, nle, neq, nlt, u) true. -0.0 == +0.0.
"""
from __future__ import annotations

import numpy as np

from .ieee import bits, exponent, exponent_all_ones, quiet_bit
from .op import Op, op

_ORDERED = {
    "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "lg": lambda a, b: (a < b) | (a > b), "ge": np.greater_equal,
    "o": lambda a, b: ~(np.isnan(a) | np.isnan(b)),
}
_NEGATED = {"nge": "ge", "nlg": "lg", "ngt": "gt", "nle": "le", "neq": "eq", "nlt": "lt", "u": "o"}
_INTEGER = {"lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
            "ne": np.not_equal, "ge": np.greater_equal}


def _false(a, b):
    return np.zeros(np.broadcast(a, b).shape, bool)


def _true(a, b):
    return np.ones(np.broadcast(a, b).shape, bool)


def _negate(fn):
    return lambda a, b: ~fn(a, b)


def fp_class(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """v_cmp_class: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
    7 +denormal, 8 +normal, 9 +inf of the mask select the classes that give true."""
    b = bits(x)
    e = exponent(x)
    zero = (b & b.dtype.type(quiet_bit(x.dtype) * 2 - 1)) == 0  # the significand field
    positive = np.select([(e == 0) & zero, e == 0, e == exponent_all_ones(x.dtype)], [6, 7, 9], 8)
    index = np.where(np.signbit(x), 11 - positive, positive)
    index = np.where(np.isnan(x), np.where((b & b.dtype.type(quiet_bit(x.dtype))) != 0, 1, 0), index)
    return ((mask >> index.astype(np.uint32)) & np.uint32(1)) != 0


def _vector_table() -> dict[str, Op]:
    preds: dict[str, tuple[str, object]] = {}
    for t in ("f16", "f32", "f64"):
        for name, fn in _ORDERED.items():
            preds[f"{name}_{t}"] = (t, fn)
        for name, base in _NEGATED.items():
            preds[f"{name}_{t}"] = (t, _negate(_ORDERED[base]))
        preds[f"f_{t}"] = (t, _false)
        preds[f"t_{t}"] = (t, _true)
    for t in ("i16", "u16", "i32", "u32", "i64", "u64"):
        for name, fn in _INTEGER.items():
            preds[f"{name}_{t}"] = (t, fn)
        if t[1:] != "16":
            preds[f"f_{t}"] = (t, _false)
            preds[f"t_{t}"] = (t, _true)
    table: dict[str, Op] = {}
    for suffix, (t, fn) in preds.items():
        denormals = ("denormals",) if t[0] == "f" else ()    # float compares flush as MODE says
        table[f"v_cmp_{suffix}"] = op(f"{t} {t}", None, fn, "cmp", *denormals)
        table[f"v_cmpx_{suffix}"] = op(f"{t} {t}", None, fn, "cmp", "cmpx", *denormals)
    for t in ("f16", "f32", "f64"):
        table[f"v_cmp_class_{t}"] = op(f"{t} u32", None, fp_class, "cmp")
        table[f"v_cmpx_class_{t}"] = op(f"{t} u32", None, fp_class, "cmp", "cmpx")
    return table


def _bitcmp(value: int, mask: int):
    def f(a, pos):
        bit = (a >> (pos & np.uint32(mask)).astype(a.dtype)) & a.dtype.type(1)
        return bit == value
    return f


def _scalar_table() -> dict[str, Op]:
    scalar_ops = {"eq": np.equal, "lg": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
                  "lt": np.less, "le": np.less_equal}
    table: dict[str, Op] = {}
    for name, fn in scalar_ops.items():
        for t in ("i32", "u32"):
            table[f"s_cmp_{name}_{t}"] = op(f"{t} {t}", None, fn, "cmp")
            # SOPK: the register against the 16-bit immediate, extended as the type says.
            imm = "i16" if t == "i32" else "u16"
            table[f"s_cmpk_{name}_{t}"] = op(f"{t} {imm}", None, lambda a, k, fn=fn: fn(a, k.astype(a.dtype)), "cmp")
    table["s_cmp_eq_u64"] = op("u64 u64", None, np.equal, "cmp")
    table["s_cmp_lg_u64"] = op("u64 u64", None, np.not_equal, "cmp")
    for value in (0, 1):
        table[f"s_bitcmp{value}_b32"] = op("b32 u32", None, _bitcmp(value, 31), "cmp")
        table[f"s_bitcmp{value}_b64"] = op("b64 u32", None, _bitcmp(value, 63), "cmp")
    return table


VECTOR_COMPARE: dict[str, Op] = _vector_table()
SCALAR_COMPARE: dict[str, Op] = _scalar_table()
