"""Directed rounding (MODE.FP_ROUND) for the float arithmetic that honours it.

Each function computes the round-to-nearest-even result r in the operands' own type (numpy does
that correctly for add/sub/mul, fma_narrow/fma64 for fma), and the sign of the exact result
minus r, exactly; `directed` then moves r one step to the requested side where the exact value
lies on the other. The sign comes from error-free transformations in f64 (an f16/f32 product is
exact in f64, TwoSum gives a sum's exact error); f64 products and fmas whose error terms could
underflow or overflow are settled with fractions, lane by lane.

Modes (the `round=` keyword) use MODE's encoding: 0 nearest even, 1 towards +inf, 2 towards -inf, 3 towards zero.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .ieee import _split, _two_sum_err, fma64, fma_narrow

NEAREST, UP, DOWN, ZERO = 0, 1, 2, 3
F64 = np.float64


def directed(r: np.ndarray, cmp: np.ndarray, mode: int) -> np.ndarray:
    """r (the nearest-even result) moved to the neighbour the mode asks for, where cmp (the sign
    of exact - r: -1, 0 or +1) says the exact value lies beyond it."""
    if mode == UP:
        step = cmp > 0
        target = np.inf
    elif mode == DOWN:
        step = cmp < 0
        target = -np.inf
    elif mode == ZERO:
        step = ((cmp > 0) & (r < 0)) | ((cmp < 0) & (r > 0))
        target = 0.0
    else:
        return r
    if not step.any():
        return r
    return np.where(step, np.nextafter(r, r.dtype.type(target)), r).astype(r.dtype)


def _sign(x: np.ndarray) -> np.ndarray:
    return np.sign(np.nan_to_num(x, nan=0.0))


def _zero_sum_sign(r, cmp, x, y, mode):
    """An exact zero sum of two terms is -0 when rounding down, unless both terms are +0."""
    if mode != DOWN:
        return r
    both_plus_zero = (x == 0) & ~np.signbit(x) & (y == 0) & ~np.signbit(y)
    return np.where((r == 0) & (cmp == 0) & ~both_plus_zero, -r.dtype.type(0), r).astype(r.dtype)


def _overflowed(r, cmp, *terms):
    """Finite terms whose result rounded to infinity: the exact value is on the finite side."""
    finite = np.isfinite(terms[0])
    for t in terms[1:]:
        finite = finite & np.isfinite(t)
    return np.where(finite & np.isinf(r), -np.sign(r), cmp)


def add(a: np.ndarray, b: np.ndarray, round: int = NEAREST) -> np.ndarray:
    r = (a + b).astype(a.dtype)
    if round == NEAREST:
        return r
    a64, b64 = a.astype(F64), b.astype(F64)
    s = a64 + b64
    err = _two_sum_err(a64, b64, s)
    cmp = _overflowed(r, _sign((s - r.astype(F64)) + err), a, b)
    return _zero_sum_sign(directed(r, cmp, round), cmp, a, b, round)


def sub(a: np.ndarray, b: np.ndarray, round: int = NEAREST) -> np.ndarray:
    return add(a, -b, round)


def mul(a: np.ndarray, b: np.ndarray, round: int = NEAREST) -> np.ndarray:
    r = (a * b).astype(a.dtype)
    if round == NEAREST:
        return r
    if a.dtype != F64:
        p = a.astype(F64) * b.astype(F64)                # exact
        cmp = _sign(p - r.astype(F64))
    else:
        cmp = _product_error_sign(a, b, r)
    return directed(r, _overflowed(r, cmp, a, b), round)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, round: int = NEAREST) -> np.ndarray:
    if a.dtype == F64:
        r = fma64(a, b, c)
        if round == NEAREST:
            return r
        cmp = _exact_sign(r, a, b, c)
        p = a * b
    else:
        r = fma_narrow(a, b, c)
        if round == NEAREST:
            return r
        p = a.astype(F64) * b.astype(F64)
        c64 = c.astype(F64)
        s = p + c64
        cmp = _sign((s - r.astype(F64)) + _two_sum_err(p, c64, s))
    cmp = _overflowed(r, cmp, a, b, c)
    return _zero_sum_sign(directed(r, cmp, round), cmp, p, c, round)


def convert(x: np.ndarray, dtype, round: int = NEAREST) -> np.ndarray:
    """x (a float or an integer of at most 32 bits) rounded to the float type dtype."""
    r = x.astype(dtype)
    if round == NEAREST:
        return r
    if x.dtype.kind in "iu":
        cmp = np.sign(x.astype(np.int64) - np.nan_to_num(r.astype(F64), posinf=2.0**63 - 1024).astype(np.int64))
    else:
        cmp = _overflowed(r, _sign(x.astype(F64) - r.astype(F64)), x)
    return directed(r, cmp, round)


def _product_error_sign(a, b, r):
    """sign(a*b - r) for f64: Dekker's exact product where its terms cannot underflow or
    overflow, fractions elsewhere."""
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - r) + ah * bl + al * bh) + al * bl
    cmp = _sign(err)
    safe = _in_range(a) & _in_range(b)
    slow = ~safe & np.isfinite(a) & np.isfinite(b) & np.isfinite(r) & (a != 0) & (b != 0)
    for idx in zip(*np.nonzero(slow)):
        exact = Fraction(float(a[idx])) * Fraction(float(b[idx]))
        cmp[idx] = _fraction_sign(exact - Fraction(float(r[idx])))
    return cmp


def _exact_sign(r, a, b, c):
    """sign(a*b + c - r) for f64 fma, exactly (fractions, lane by lane over the finite lanes)."""
    cmp = np.zeros(r.shape, F64)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & np.isfinite(r)
    for idx in zip(*np.nonzero(finite)):
        exact = Fraction(float(a[idx])) * Fraction(float(b[idx])) + Fraction(float(c[idx]))
        cmp[idx] = _fraction_sign(exact - Fraction(float(r[idx])))
    return cmp


def _in_range(x):
    ax = np.abs(x)
    return (ax >= 2.0 ** -450) & (ax <= 2.0 ** 450)


def _fraction_sign(f: Fraction) -> int:
    return (f > 0) - (f < 0)

