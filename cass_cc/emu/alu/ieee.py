"""IEEE-754 building blocks shared by the float families: bit views, NaN quieting, the
RDNA3 min/max rules, and fused multiply-add rounded once (numpy has no fma)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

_UINT = {np.dtype(np.float16): np.uint16, np.dtype(np.float32): np.uint32,
         np.dtype(np.float64): np.uint64}
_MANT_BITS = {np.dtype(np.float16): 10, np.dtype(np.float32): 23, np.dtype(np.float64): 52}


def bits(x: np.ndarray) -> np.ndarray:
    """The raw bits of a float array, as the unsigned integer of its width."""
    return x.view(_UINT[x.dtype])


def exponent(x: np.ndarray) -> np.ndarray:
    """The biased exponent field (0 for zeros and denormals), as int64."""
    m = _MANT_BITS[x.dtype]
    return ((bits(x).astype(np.int64) >> m) & ((1 << (8 * x.dtype.itemsize - 1 - m)) - 1))


def exponent_all_ones(dtype) -> int:
    """The biased exponent of infinities and NaNs (31, 255 or 2047)."""
    d = np.dtype(dtype)
    return (1 << (8 * d.itemsize - 1 - _MANT_BITS[d])) - 1


def quiet_bit(dtype) -> int:
    return 1 << (_MANT_BITS[np.dtype(dtype)] - 1)


def is_snan(x: np.ndarray) -> np.ndarray:
    return np.isnan(x) & ((bits(x) & quiet_bit(x.dtype)) == 0)


def quieted(x: np.ndarray) -> np.ndarray:
    """x with the quiet bit set (a no-op on anything but a signalling NaN)."""
    u = _UINT[x.dtype]
    return np.where(np.isnan(x), bits(x) | u(quiet_bit(x.dtype)), bits(x)).astype(u).view(x.dtype)


def is_denormal(x: np.ndarray) -> np.ndarray:
    return (x != 0) & (exponent(x) == 0)


def flush_denormals(x: np.ndarray) -> np.ndarray:
    """Denormals become zeros of the same sign (the f32 transcendental unit does this)."""
    tiny = np.finfo(x.dtype).smallest_normal
    return np.where(np.abs(x) < tiny, x * x.dtype.type(0), x).astype(x.dtype, copy=False)


def _select_ieee(a, b, pick_a):
    """The NaN ladder of RDNA3's v_min/v_max in IEEE mode, most important last. Without NaNs
    (the common case) it is a plain select."""
    r = np.where(pick_a, a, b)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if nan_a.any() or nan_b.any():
        r = np.where(nan_a, b, r)
        r = np.where(nan_b, a, r)
        r = np.where(is_snan(b), quieted(b), r)
        r = np.where(is_snan(a), quieted(a), r)
    return r.astype(a.dtype, copy=False)


def _zero_tie(a, b):
    return (a == 0) & (b == 0)


def ieee_min(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """v_min_f16/f32/f64: a quiet NaN loses to a number, a signalling NaN wins (quieted),
    and -0.0 is less than +0.0."""
    lt = a < b
    ties = _zero_tie(a, b)
    if ties.any():
        lt = lt | (ties & np.signbit(a) & ~np.signbit(b))
    return _select_ieee(a, b, lt)


def ieee_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    gt = a > b
    ties = _zero_tie(a, b)
    if ties.any():
        gt = gt | (ties & ~np.signbit(a) & np.signbit(b))
    return _select_ieee(a, b, gt)


def ieee_med3(a, b, c):
    """v_med3_f16/f32 as the ISA's pseudocode states it (NaN anywhere: min3)."""
    mx = ieee_max(ieee_max(a, b), c)
    any_nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    r = np.where(mx == a, ieee_max(b, c), np.where(mx == b, ieee_max(a, c), ieee_max(a, b)))
    return np.where(any_nan, ieee_min(ieee_min(a, b), c), r).astype(a.dtype)


def fma_narrow(a: np.ndarray, b: np.ndarray, c: np.ndarray, scale=None) -> np.ndarray:
    """fma for f16/f32, times 2**scale when given: the product is exact in f64; the f64 sum
    is rounded to odd, which makes the final rounding to the narrow type a single correct
    rounding (also after the exact power-of-two scaling)."""
    dtype = a.dtype
    a64, b64, c64 = a.astype(np.float64), b.astype(np.float64), c.astype(np.float64)
    p = a64 * b64
    s = p + c64
    if scale is None and not _may_double_round(s, dtype):
        return s.astype(dtype)
    odd = _round_to_odd_fix(s, _two_sum_err(p, c64, s))
    if scale is not None:
        odd = np.ldexp(odd, scale)
    return odd.astype(dtype)


def _may_double_round(s: np.ndarray, dtype) -> bool:
    """Whether rounding the f64 sum s to dtype could differ from rounding the exact sum: only
    when s sits exactly halfway between two dtype values, or lands among dtype's denormals
    (where the rounding point moves)."""
    drop = 52 - _MANT_BITS[np.dtype(dtype)]
    low = s.view(np.uint64) & np.uint64((1 << drop) - 1)
    halfway = low == np.uint64(1 << (drop - 1))
    return bool((halfway | (np.abs(s) < np.finfo(dtype).smallest_normal)).any())


def _two_sum_err(x, y, s):
    """The exact error of s = x + y (Knuth's TwoSum)."""
    yy = s - x
    return (x - (s - yy)) + (y - yy)


def _round_to_odd_fix(s, err):
    """Turn the round-to-nearest sum s, whose exact error is err, into the round-to-odd sum."""
    sb = s.view(np.uint64)
    fix = np.isfinite(s) & (err != 0) & ((sb & np.uint64(1)) == 0)
    away = (err > 0) == (s > 0)
    one = np.uint64(1)
    return np.where(fix, np.where(away, sb + one, sb - one), sb).view(np.float64)


def _split(x):
    t = 134217729.0 * x  # Veltkamp: 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi


def fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded f64 fma. Lanes in a safe exponent range use Boldo and Melquiond's
    emulation (exact product, exact sum, round-to-odd of the tail); the rest are computed
    exactly with fractions."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                  np.asarray(c, np.float64))
    uh = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl
    th = c + uh
    tl = _two_sum_err(c, uh, th)
    v = tl + ul
    v = _round_to_odd_fix(v, _two_sum_err(tl, ul, v))
    result = th + v
    lo, hi = 2.0 ** -450, 2.0 ** 450
    aa, ab, ac = np.abs(a), np.abs(b), np.abs(c)
    safe = ((aa >= lo) & (aa <= hi) & (ab >= lo) & (ab <= hi)
            & ((ac == 0) | ((ac >= 2.0 ** -900) & (ac <= 2.0 ** 950))))
    zero_product = ((a == 0) | (b == 0)) & np.isfinite(a) & np.isfinite(b)
    result = np.where(zero_product, uh + c, result)
    special = ~(np.isfinite(a) & np.isfinite(b) & np.isfinite(c))
    result = np.where(special, np.where(np.isfinite(a) & np.isfinite(b), c, uh + c), result)
    slow = ~(safe | zero_product | special)
    if slow.any():
        result = np.array(result)
        for idx in zip(*np.nonzero(slow)):
            result[idx] = _fma_exact(float(a[idx]), float(b[idx]), float(c[idx]))
    return result


def _fma_exact(a: float, b: float, c: float) -> float:
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def _number_first(a: np.ndarray, b: np.ndarray, pick) -> np.ndarray:
    """gfx12's v_min_num/v_max_num (IEEE 754-2019 minimumNumber/maximumNumber): a NaN, quiet or
    signalling, loses to a number; two NaNs give a quiet NaN; otherwise as v_min/v_max."""
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not (nan_a.any() or nan_b.any()):
        return pick(a, b)
    r = pick(np.where(nan_a, b, a), np.where(nan_b, a, b))
    return np.where(nan_a & nan_b, quieted(a), r)


def number_min(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _number_first(a, b, ieee_min)


def number_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _number_first(a, b, ieee_max)


def number_med3(a, b, c):
    """gfx12's v_med3_num_f16/f32: v_med3's pseudocode on the _num operations (NaN anywhere:
    min3_num, so a NaN operand loses as it does to v_min_num)."""
    mx = number_max(number_max(a, b), c)
    any_nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    r = np.where(mx == a, number_max(b, c), np.where(mx == b, number_max(a, c), number_max(a, b)))
    return np.where(any_nan, number_min(number_min(a, b), c), r).astype(a.dtype)
