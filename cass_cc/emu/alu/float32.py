"""VALU single-precision arithmetic, transcendentals, the division helpers and the
conversions from and to f32.

Basic arithmetic is correctly rounded (0.5 ULP, as the ISA states) and keeps denormals. The
transcendental unit (v_rcp/v_rsq/v_sqrt/v_exp/v_log_f32) is modelled as correctly rounded
from f64, which lies within the documented 1 ULP, and flushes denormal inputs and results as
the ISA documents. v_sin/v_cos take their argument in revolutions: sin(2*pi*x).
"""
from __future__ import annotations

import numpy as np

from . import rounding
from .ieee import (exponent, flush_denormals, fma_narrow, ieee_max, ieee_med3, ieee_min, is_denormal, number_max,
                   number_med3, number_min, quieted)
from .op import Op, op, with_flags

F32, F64, I32, U32 = np.float32, np.float64, np.int32, np.uint32
_BELOW_ONE = F32(np.nextafter(F32(1), F32(0)))


def _trans(fn):
    """A transcendental: flush denormal input, compute in f64, round once, flush the result."""
    def f(x):
        return flush_denormals(fn(flush_denormals(x).astype(F64)).astype(F32))
    return f


def sin_cos_revolutions(x: np.ndarray, cosine: bool) -> np.ndarray:
    """sin(2*pi*x) or cos(2*pi*x), reduced exactly to an eighth of a turn first so that
    quarter turns give exact zeros and ones, as the hardware does."""
    x64 = x.astype(F64)
    r = x64 - np.round(x64)
    quadrant = np.round(4 * r)
    theta = 2 * np.pi * (r - quadrant / 4)
    q = (quadrant.astype(np.int64) + (1 if cosine else 0)) % 4
    s, c = np.sin(theta), np.cos(theta)
    v = np.select([q == 0, q == 1, q == 2], [s, c, -s], -c) + 0.0
    if not cosine:
        v = np.where(x == 0, x64, v)
    return v.astype(x.dtype)


def _fract(x):
    r = np.minimum(x - np.floor(x), _BELOW_ONE)
    return np.where(np.isinf(x), F32(np.nan), np.where(np.isnan(x), x, r)).astype(F32)


def _frexp_mant(x):
    m, _ = np.frexp(x)
    return np.where(np.isfinite(x), m, x).astype(x.dtype)


def _frexp_exp(x):
    _, e = np.frexp(x)
    return np.where(np.isfinite(x), e, 0).astype(I32)


def to_int(x, lo: int, hi: int, dtype, rounding=np.trunc):
    """Float to integer as the ISA converts: round, saturate to [lo, hi], NaN becomes 0."""
    x64 = rounding(x.astype(F64))
    return np.where(np.isnan(x64), 0, np.clip(x64, lo, hi)).astype(dtype)


def _nearest_i32(x):
    return to_int((x + F32(0.5)).astype(F32), -2**31, 2**31 - 1, I32, np.floor)


def _norm(x, lo, scale, dtype):
    v = np.clip(x.astype(F64), lo, 1.0) * scale
    return np.where(np.isnan(v), 0, np.rint(v)).astype(dtype)


def _pack16(lo, hi):
    return (lo.astype(np.uint16).astype(U32) | (hi.astype(np.uint16).astype(U32) << U32(16))).astype(U32)


def _cvt_pk_u8(x, sel, orig):
    shift = (sel & U32(3)) * U32(8)
    byte = to_int(x, 0, 255, U32, np.rint)
    return ((orig & ~(U32(0xFF) << shift)) | (byte << shift)).astype(U32)


_OFF_TABLE = (np.arange(16, dtype=F64) - np.where(np.arange(16) >= 8, 16, 0)) / 16


def _dx9_mul(a, b):
    return np.where((a == 0) | (b == 0), F32(0), a * b).astype(F32)


def _dx9_fma(a, b, c):
    # The DX9 product of a zero is +0.0, whatever the other factor: +0.0 + c (so -0.0 + ... is
    # +0.0 when c is -0.0, as LLVM's constant folder also has it).
    return np.where((a == 0) | (b == 0), F32(0) + c, fma_narrow(a, b, c)).astype(F32)


def div_scale(n_exp_gap: int, scale: int, tiny_exp: int):
    """v_div_scale_f32/f64: S0 is the value to scale (the numerator or the denominator),
    S1 the denominator, S2 the numerator. Returns (scaled S0, VCC). Where the ISA text
    scales a huge denominator up when the quotient is denormal, the sign is taken as -64
    (-128 for f64): scaling it up would overflow, scaling it down is what makes
    div_fmas's post-scale give the right quotient."""
    def f(s0, den, num):
        e_num, e_den = exponent(num), exponent(den)
        zero = (num == 0) | (den == 0)
        rcp_tiny = is_denormal((1 / den).astype(den.dtype))
        quot_tiny = is_denormal((num / den).astype(den.dtype))
        huge_gap = ~zero & (e_num - e_den >= n_exp_gap)
        rest = ~zero & ~huge_gap
        den_denorm = rest & is_denormal(den)
        rest &= ~den_denorm
        both_tiny = rest & rcp_tiny & quot_tiny
        rcp_only = rest & rcp_tiny & ~quot_tiny
        quot_only = rest & ~rcp_tiny & quot_tiny
        num_tiny = rest & ~rcp_tiny & ~quot_tiny & (e_num <= tiny_exp)
        up, down = np.ldexp(s0, scale).astype(s0.dtype), np.ldexp(s0, -scale).astype(s0.dtype)
        d = s0
        d = np.where(huge_gap & (s0 == den), up, d)
        d = np.where(den_denorm | num_tiny, up, d)
        d = np.where(both_tiny & (s0 == den), down, d)
        d = np.where(rcp_only, down, d)
        d = np.where(quot_only & (s0 == num), up, d)
        d = np.where(zero, s0.dtype.type(np.nan), d)
        return d.astype(s0.dtype), huge_gap | both_tiny | quot_only
    return f


def div_fixup(exp_gap: int, max_exp: int):
    """v_div_fixup_f16/f32/f64: S0 quotient, S1 denominator, S2 numerator."""
    def f(q, den, num):
        t = q.dtype.type
        neg = np.signbit(den) ^ np.signbit(num)
        signed = lambda v: np.where(neg, -t(v), t(v))
        r = np.where(neg, -np.abs(q), np.abs(q))
        r = np.where(np.isnan(q), signed(np.inf), r)
        if exp_gap is not None:
            r = np.where(exponent(den) == max_exp, signed(np.inf), r)
            r = np.where(exponent(num) - exponent(den) < exp_gap, signed(0), r)
        r = np.where(np.isinf(den) | (num == 0), signed(0), r)
        r = np.where((den == 0) | np.isinf(num), signed(np.inf), r)
        default_nan = -t(np.nan)
        r = np.where(np.isinf(den) & np.isinf(num), default_nan, r)
        r = np.where((den == 0) & (num == 0), default_nan, r)
        r = np.where(np.isnan(den), quieted(den), r)
        r = np.where(np.isnan(num), quieted(num), r)
        return r.astype(q.dtype)
    return f


def _div_fmas_f32(a, b, c, vcc):
    up = fma_narrow(a, b, c, 64)
    down = fma_narrow(a, b, c, -64)
    return np.where(vcc, np.where(exponent(c) > 127, up, down), fma_narrow(a, b, c)).astype(F32)


def _cube(x, y, z):
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    return (az >= ax) & (az >= ay), (ay >= ax)


def _cubeid(x, y, z):
    zmaj, ymaj = _cube(x, y, z)
    return np.where(zmaj, np.where(z < 0, 5, 4), np.where(ymaj, np.where(y < 0, 3, 2),
                                                          np.where(x < 0, 1, 0))).astype(F32)


def _cubesc(x, y, z):
    zmaj, ymaj = _cube(x, y, z)
    return np.where(zmaj, np.where(z < 0, -x, x), np.where(ymaj, x, np.where(x < 0, z, -z))).astype(F32)


def _cubetc(x, y, z):
    zmaj, ymaj = _cube(x, y, z)
    return np.where(zmaj, -y, np.where(ymaj, np.where(y < 0, -z, z), -y)).astype(F32)


def _cubema(x, y, z):
    zmaj, ymaj = _cube(x, y, z)
    return (np.where(zmaj, z, np.where(ymaj, y, x)) * F32(2)).astype(F32)


_MAX_F32 = np.finfo(F32).max

FLOAT32: dict[str, Op] = {
    "v_add_f32": op("f32 f32", "f32", rounding.add, "rounding", "denormals"),
    "v_sub_f32": op("f32 f32", "f32", rounding.sub, "rounding", "denormals"),
    "v_subrev_f32": op("f32 f32", "f32", lambda a, b, round=0: rounding.sub(b, a, round), "rounding", "denormals"),
    "v_mul_f32": op("f32 f32", "f32", rounding.mul, "rounding", "denormals"),
    "v_mul_dx9_zero_f32": op("f32 f32", "f32", _dx9_mul),
    "v_fma_f32": op("f32 f32 f32", "f32", rounding.fma, "rounding", "denormals"),
    "v_fmac_f32": op("f32 f32 f32", "f32", rounding.fma, "dst_in", "rounding", "denormals"),
    "v_fmaak_f32": op("f32 f32 f32", "f32", rounding.fma, "rounding", "denormals"),
    "v_fmamk_f32": op("f32 f32 f32", "f32", rounding.fma, "rounding", "denormals"),
    "v_fma_dx9_zero_f32": op("f32 f32 f32", "f32", _dx9_fma),
    "v_fmac_dx9_zero_f32": op("f32 f32 f32", "f32", _dx9_fma, "dst_in"),
    "v_mullit_f32": op("f32 f32 f32", "f32", lambda a, b, c: np.where(
        (b == -_MAX_F32) | np.isneginf(b) | np.isnan(b) | (c <= 0) | np.isnan(c), -_MAX_F32, a * b).astype(F32)),
    "v_min_f32": op("f32 f32", "f32", ieee_min),
    "v_max_f32": op("f32 f32", "f32", ieee_max),
    "v_min_num_f32": op("f32 f32", "f32", number_min),   # gfx12
    "v_max_num_f32": op("f32 f32", "f32", number_max),
    # gfx12's three-operand forms on minimumNumber/maximumNumber (gfx12 spells v_max3_f32 so too)
    "v_min3_num_f32": op("f32 f32 f32", "f32", lambda a, b, c: number_min(number_min(a, b), c)),
    "v_max3_num_f32": op("f32 f32 f32", "f32", lambda a, b, c: number_max(number_max(a, b), c)),
    "v_minmax_num_f32": op("f32 f32 f32", "f32", lambda a, b, c: number_max(number_min(a, b), c)),
    "v_maxmin_num_f32": op("f32 f32 f32", "f32", lambda a, b, c: number_min(number_max(a, b), c)),
    "v_med3_num_f32": op("f32 f32 f32", "f32", number_med3),
    "v_min3_f32": op("f32 f32 f32", "f32", lambda a, b, c: ieee_min(ieee_min(a, b), c)),
    "v_max3_f32": op("f32 f32 f32", "f32", lambda a, b, c: ieee_max(ieee_max(a, b), c)),
    "v_med3_f32": op("f32 f32 f32", "f32", ieee_med3),
    "v_minmax_f32": op("f32 f32 f32", "f32", lambda a, b, c: ieee_max(ieee_min(a, b), c)),
    "v_maxmin_f32": op("f32 f32 f32", "f32", lambda a, b, c: ieee_min(ieee_max(a, b), c)),
    "v_ldexp_f32": op("f32 i32", "f32", lambda a, e: np.ldexp(a, e).astype(F32)),
    "v_frexp_mant_f32": op("f32", "f32", _frexp_mant),
    "v_frexp_exp_i32_f32": op("f32", "i32", _frexp_exp),
    "v_fract_f32": op("f32", "f32", _fract),
    "v_trunc_f32": op("f32", "f32", np.trunc),
    "v_ceil_f32": op("f32", "f32", np.ceil),
    "v_floor_f32": op("f32", "f32", np.floor),
    "v_rndne_f32": op("f32", "f32", np.rint),
    "v_rcp_f32": op("f32", "f32", _trans(lambda x: 1 / x)),
    "v_rcp_iflag_f32": op("f32", "f32", _trans(lambda x: 1 / x)),
    "v_rsq_f32": op("f32", "f32", _trans(lambda x: 1 / np.sqrt(x))),
    "v_sqrt_f32": op("f32", "f32", _trans(np.sqrt)),
    "v_exp_f32": op("f32", "f32", _trans(np.exp2)),
    "v_log_f32": op("f32", "f32", _trans(np.log2)),
    "v_sin_f32": op("f32", "f32", lambda x: sin_cos_revolutions(x, False)),
    "v_cos_f32": op("f32", "f32", lambda x: sin_cos_revolutions(x, True)),
    "v_div_scale_f32": op("f32 f32 f32", "f32", div_scale(96, 64, 23), "carry_out"),
    "v_div_fmas_f32": op("f32 f32 f32", "f32", _div_fmas_f32, "vcc_in"),
    "v_div_fixup_f32": op("f32 f32 f32", "f32", div_fixup(-150, 255)),
    "v_cvt_f32_i32": op("i32", "f32", lambda a, round=0: rounding.convert(a, F32, round), "rounding"),
    "v_cvt_f32_u32": op("u32", "f32", lambda a, round=0: rounding.convert(a, F32, round), "rounding"),
    "v_cvt_i32_f32": op("f32", "i32", lambda x: to_int(x, -2**31, 2**31 - 1, I32)),
    "v_cvt_u32_f32": op("f32", "u32", lambda x: to_int(x, 0, 2**32 - 1, U32)),
    "v_cvt_floor_i32_f32": op("f32", "i32", lambda x: to_int(x, -2**31, 2**31 - 1, I32, np.floor)),
    "v_cvt_nearest_i32_f32": op("f32", "i32", _nearest_i32),
    "v_cvt_off_f32_i4": op("u32", "f32", lambda a: _OFF_TABLE[a & U32(15)].astype(F32)),
    "v_cvt_pk_i16_f32": op("f32 f32", "b32", lambda a, b: _pack16(to_int(a, -32768, 32767, np.int16),
                                                                 to_int(b, -32768, 32767, np.int16))),
    "v_cvt_pk_u16_f32": op("f32 f32", "b32", lambda a, b: _pack16(to_int(a, 0, 65535, np.uint16),
                                                                 to_int(b, 0, 65535, np.uint16))),
    "v_cvt_pk_norm_i16_f32": op("f32 f32", "b32", lambda a, b: _pack16(_norm(a, -1.0, 32767, np.int16),
                                                                      _norm(b, -1.0, 32767, np.int16))),
    "v_cvt_pk_norm_u16_f32": op("f32 f32", "b32", lambda a, b: _pack16(_norm(a, 0.0, 65535, np.uint16),
                                                                      _norm(b, 0.0, 65535, np.uint16))),
    "v_cvt_pk_u8_f32": op("f32 u32 u32", "u32", _cvt_pk_u8),
    "v_cubeid_f32": op("f32 f32 f32", "f32", _cubeid),
    "v_cubesc_f32": op("f32 f32 f32", "f32", _cubesc),
    "v_cubetc_f32": op("f32 f32 f32", "f32", _cubetc),
    "v_cubema_f32": op("f32 f32 f32", "f32", _cubema),
}
for _i in range(4):
    FLOAT32[f"v_cvt_f32_ubyte{_i}"] = op("u32", "f32", lambda a, _i=_i: ((a >> U32(8 * _i)) & U32(0xFF)).astype(F32))
# min/max, rounding to integers, ldexp and the division helpers also follow MODE.FP_DENORM
with_flags(FLOAT32, (
    "v_min_f32", "v_max_f32", "v_min_num_f32", "v_max_num_f32", "v_min3_num_f32", "v_max3_num_f32",
    "v_minmax_num_f32", "v_maxmin_num_f32", "v_med3_num_f32",
    "v_min3_f32", "v_max3_f32", "v_med3_f32", "v_minmax_f32",
    "v_maxmin_f32", "v_ldexp_f32", "v_fract_f32", "v_trunc_f32", "v_ceil_f32", "v_floor_f32",
    "v_rndne_f32", "v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32"
), "denormals")
