"""VALU double-precision arithmetic, the f64 division helpers, v_trig_preop_f64, and the
conversions from and to f64. Everything is correctly rounded (v_rcp/v_rsq/v_sqrt_f64 too,
which lies within the ISA's 2**29 ULP); denormals are kept."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import rounding
from .float32 import div_fixup, div_scale, to_int
from .ieee import exponent, fma64, ieee_max, ieee_min, number_max, number_min
from .op import Op, op, with_flags

F32, F64, I32, U32 = np.float32, np.float64, np.int32, np.uint32
_BELOW_ONE = np.nextafter(1.0, 0.0)


def _pi_scaled(bits: int) -> int:
    """floor(pi * 2**bits), by Machin's formula in integer arithmetic."""
    guard = bits + 32
    one = 1 << guard

    def arctan_inv(n: int) -> int:
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k += 2
            sign = -sign
        return total
    return (16 * arctan_inv(5) - 4 * arctan_inv(239)) >> 32


# 2/pi as a 1201-bit binary fraction: the table v_trig_preop_f64 reads 53-bit slices of.
_TWO_OVER_PI = (1 << (1201 + 1300 + 1)) // _pi_scaled(1300)


def _trig_preop(x, seg):
    """v_trig_preop_f64: the 53 bits of 2/pi starting `shift` bits after the binary point,
    as a double scaled to their place (used by large-argument sin/cos reduction)."""
    e = exponent(x)
    shift = (seg & U32(31)).astype(np.int64) * 53 + np.where(e > 1077, e - 1077, 0)
    scale = -53 - shift + np.where(e >= 1968, 128, 0)
    shift, scale = np.broadcast_arrays(shift, scale)
    out = np.empty(shift.shape, F64)
    for s in np.unique(shift):  # few distinct shifts per wave: one big-integer slice each
        s = int(s)
        part = (_TWO_OVER_PI >> (1201 - 53 - s)) & ((1 << 53) - 1) if s <= 1148 else 0
        where = shift == s
        out[where] = np.ldexp(float(part), scale[where])
    return np.where(np.isnan(x), x + 0.0, out)  # a NaN input gives the (quiet) NaN back


def _div_fmas_f64(a, b, c, vcc):
    r = fma64(a, b, c)
    k = np.where(exponent(c) > 1023, 128, -128)
    scaled = np.where(vcc, np.ldexp(r, k), r)
    # A scaled result that lands among the denormals must be rounded once, from the exact value.
    redo = vcc & (np.abs(scaled) < 2.0 ** -1022) & (r != 0) & np.isfinite(r)
    if redo.any():
        scaled = np.array(scaled)
        for idx in zip(*np.nonzero(redo)):
            exact = (Fraction(float(a[idx])) * Fraction(float(b[idx])) + Fraction(float(c[idx])))
            scaled[idx] = float(exact * Fraction(2) ** int(k[idx]))
    return scaled


def _fract(x):
    r = np.minimum(x - np.floor(x), _BELOW_ONE)
    return np.where(np.isinf(x), np.nan, np.where(np.isnan(x), x, r))


FLOAT64: dict[str, Op] = {
    "v_add_f64": op("f64 f64", "f64", rounding.add, "rounding", "denormals"),
    "v_mul_f64": op("f64 f64", "f64", rounding.mul, "rounding", "denormals"),
    "v_fma_f64": op("f64 f64 f64", "f64", rounding.fma, "rounding", "denormals"),
    "v_min_f64": op("f64 f64", "f64", ieee_min),
    "v_max_f64": op("f64 f64", "f64", ieee_max),
    "v_min_num_f64": op("f64 f64", "f64", number_min),   # gfx12
    "v_max_num_f64": op("f64 f64", "f64", number_max),
    "v_ldexp_f64": op("f64 i32", "f64", lambda a, e: np.ldexp(a, e)),
    "v_frexp_mant_f64": op("f64", "f64", lambda x: np.where(np.isfinite(x), np.frexp(x)[0], x)),
    "v_frexp_exp_i32_f64": op("f64", "i32", lambda x: np.where(np.isfinite(x), np.frexp(x)[1], 0).astype(I32)),
    "v_fract_f64": op("f64", "f64", _fract),
    "v_trunc_f64": op("f64", "f64", np.trunc),
    "v_ceil_f64": op("f64", "f64", np.ceil),
    "v_floor_f64": op("f64", "f64", np.floor),
    "v_rndne_f64": op("f64", "f64", np.rint),
    "v_rcp_f64": op("f64", "f64", lambda x: 1 / x),
    "v_rsq_f64": op("f64", "f64", lambda x: 1 / np.sqrt(x)),
    "v_sqrt_f64": op("f64", "f64", np.sqrt),
    "v_div_scale_f64": op("f64 f64 f64", "f64", div_scale(768, 128, 53), "carry_out"),
    "v_div_fmas_f64": op("f64 f64 f64", "f64", _div_fmas_f64, "vcc_in"),
    "v_div_fixup_f64": op("f64 f64 f64", "f64", div_fixup(-1075, 2047)),
    "v_trig_preop_f64": op("f64 u32", "f64", _trig_preop),
    "v_cvt_f64_f32": op("f32", "f64", lambda a: a.astype(F64), "denormals"),
    "v_cvt_f32_f64": op("f64", "f32", lambda a, round=0: rounding.convert(a, F32, round), "rounding", "denormals"),
    "v_cvt_f64_i32": op("i32", "f64", lambda a: a.astype(F64)),
    "v_cvt_f64_u32": op("u32", "f64", lambda a: a.astype(F64)),
    "v_cvt_i32_f64": op("f64", "i32", lambda x: to_int(x, -2**31, 2**31 - 1, I32)),
    "v_cvt_u32_f64": op("f64", "u32", lambda x: to_int(x, 0, 2**32 - 1, U32)),
}
# min/max, rounding to integers, ldexp and the division helpers also follow MODE.FP_DENORM
with_flags(FLOAT64, (
    "v_min_f64", "v_max_f64", "v_min_num_f64", "v_max_num_f64", "v_ldexp_f64", "v_fract_f64", "v_trunc_f64", "v_ceil_f64",
    "v_floor_f64", "v_rndne_f64", "v_div_scale_f64", "v_div_fmas_f64", "v_div_fixup_f64"
), "denormals")
