"""VALU half-precision arithmetic (one f16 per operand: the core picks the half of a 32-bit
register from the .l/.h or op_sel of the true16 encoding), the fma_mix and dot-product ops,
and the conversions from and to f16. numpy's f16 arithmetic goes through f32, which is a
single correct rounding for + - * (f32 has more than twice the bits plus two)."""
from __future__ import annotations

import numpy as np

from . import rounding
from .float32 import div_fixup, sin_cos_revolutions, to_int
from .ieee import bits, fma_narrow, ieee_max, ieee_med3, ieee_min, number_max, number_med3, number_min
from .op import Op, op, with_flags

F16, F32, F64, U16, U32 = np.float16, np.float32, np.float64, np.uint16, np.uint32


def _in_f64(fn):
    def f(x):
        return fn(x.astype(F64)).astype(F16)
    return f


def _fract(x):
    below_one = np.nextafter(F16(1), F16(0))
    r = np.minimum(x - np.floor(x), below_one)
    return np.where(np.isinf(x), F16(np.nan), np.where(np.isnan(x), x, r)).astype(F16)


def f32_to_f16_rtz(x):
    """f32 -> f16 rounding toward zero (v_cvt_pk_rtz_f16_f32)."""
    h = x.astype(F16)
    away = np.isfinite(x) & (np.abs(h.astype(F32)) > np.abs(x))
    return np.where(away, (bits(h) - U16(1)).view(F16), h).astype(F16)


def _half(x, k):
    return ((x >> U32(16 * k)) & U32(0xFFFF)).astype(U16)


def halves_f16(x):
    """The two f16 of a packed register, as f64 (low, high)."""
    return _half(x, 0).view(F16).astype(F64), _half(x, 1).view(F16).astype(F64)


def pack_halves(lo, hi):
    return (lo.astype(U16).astype(U32) | (hi.astype(U16).astype(U32) << U32(16))).astype(U32)


def bf16_to_f64(h):
    return (h.astype(U32) << U32(16)).view(F32).astype(F64)


def f32_to_bf16(x):
    """f32 -> bf16 bits, round to nearest even; NaN stays a quiet NaN."""
    b = x.astype(F32).view(U32)
    rounded = (b + U32(0x7FFF) + ((b >> U32(16)) & U32(1))) >> U32(16)
    return np.where(np.isnan(x), (b >> U32(16)) | U32(0x40), rounded).astype(U16)


def _dot2_f32_f16(a, b, c):
    (a0, a1), (b0, b1) = halves_f16(a), halves_f16(b)
    return (a0 * b0 + a1 * b1 + c.astype(F64)).astype(F32)


def _dot2_f16_f16(a, b, c):
    (a0, a1), (b0, b1) = halves_f16(a), halves_f16(b)
    return (a0 * b0 + a1 * b1 + c.astype(F64)).astype(F16)


def _bf16_pair(x):
    return bf16_to_f64(_half(x, 0)), bf16_to_f64(_half(x, 1))


def _dot2_f32_bf16(a, b, c):
    (a0, a1), (b0, b1) = _bf16_pair(a), _bf16_pair(b)
    return (a0 * b0 + a1 * b1 + c.astype(F64)).astype(F32)


def _dot2_bf16_bf16(a, b, c):
    (a0, a1), (b0, b1) = _bf16_pair(a), _bf16_pair(b)
    return f32_to_bf16((a0 * b0 + a1 * b1 + bf16_to_f64(c)).astype(F32))


def _norm(x, lo, scale, dtype):
    v = np.clip(x.astype(F64), lo, 1.0) * scale
    return np.where(np.isnan(v), 0, np.rint(v)).astype(dtype)


FLOAT16: dict[str, Op] = {
    "v_add_f16": op("f16 f16", "f16", rounding.add, "rounding", "denormals"),
    "v_sub_f16": op("f16 f16", "f16", rounding.sub, "rounding", "denormals"),
    "v_subrev_f16": op("f16 f16", "f16", lambda a, b, round=0: rounding.sub(b, a, round), "rounding", "denormals"),
    "v_mul_f16": op("f16 f16", "f16", rounding.mul, "rounding", "denormals"),
    "v_fma_f16": op("f16 f16 f16", "f16", rounding.fma, "rounding", "denormals"),
    "v_fmac_f16": op("f16 f16 f16", "f16", rounding.fma, "dst_in", "rounding", "denormals"),
    "v_fmaak_f16": op("f16 f16 f16", "f16", rounding.fma, "rounding", "denormals"),
    "v_fmamk_f16": op("f16 f16 f16", "f16", rounding.fma, "rounding", "denormals"),
    "v_min_f16": op("f16 f16", "f16", ieee_min),
    "v_max_f16": op("f16 f16", "f16", ieee_max),
    "v_min_num_f16": op("f16 f16", "f16", number_min),   # gfx12
    "v_max_num_f16": op("f16 f16", "f16", number_max),
    "v_min3_num_f16": op("f16 f16 f16", "f16", lambda a, b, c: number_min(number_min(a, b), c)),   # gfx12
    "v_max3_num_f16": op("f16 f16 f16", "f16", lambda a, b, c: number_max(number_max(a, b), c)),
    "v_minmax_num_f16": op("f16 f16 f16", "f16", lambda a, b, c: number_max(number_min(a, b), c)),
    "v_maxmin_num_f16": op("f16 f16 f16", "f16", lambda a, b, c: number_min(number_max(a, b), c)),
    "v_med3_num_f16": op("f16 f16 f16", "f16", number_med3),
    "v_min3_f16": op("f16 f16 f16", "f16", lambda a, b, c: ieee_min(ieee_min(a, b), c)),
    "v_max3_f16": op("f16 f16 f16", "f16", lambda a, b, c: ieee_max(ieee_max(a, b), c)),
    "v_med3_f16": op("f16 f16 f16", "f16", ieee_med3),
    "v_minmax_f16": op("f16 f16 f16", "f16", lambda a, b, c: ieee_max(ieee_min(a, b), c)),
    "v_maxmin_f16": op("f16 f16 f16", "f16", lambda a, b, c: ieee_min(ieee_max(a, b), c)),
    "v_ldexp_f16": op("f16 i16", "f16", lambda a, e: np.ldexp(a.astype(F64), e.astype(np.int32)).astype(F16)),
    "v_frexp_mant_f16": op("f16", "f16", lambda x: np.where(np.isfinite(x), np.frexp(x.astype(F32))[0], x).astype(F16)),
    "v_frexp_exp_i16_f16": op("f16", "i16", lambda x: np.where(np.isfinite(x), np.frexp(x.astype(F32))[1], 0).astype(np.int16)),
    "v_fract_f16": op("f16", "f16", _fract),
    "v_trunc_f16": op("f16", "f16", np.trunc),
    "v_ceil_f16": op("f16", "f16", np.ceil),
    "v_floor_f16": op("f16", "f16", np.floor),
    "v_rndne_f16": op("f16", "f16", np.rint),
    "v_rcp_f16": op("f16", "f16", _in_f64(lambda x: 1 / x)),
    "v_rsq_f16": op("f16", "f16", _in_f64(lambda x: 1 / np.sqrt(x))),
    "v_sqrt_f16": op("f16", "f16", _in_f64(np.sqrt)),
    "v_exp_f16": op("f16", "f16", _in_f64(np.exp2)),
    "v_log_f16": op("f16", "f16", _in_f64(np.log2)),
    "v_sin_f16": op("f16", "f16", lambda x: sin_cos_revolutions(x, False)),
    "v_cos_f16": op("f16", "f16", lambda x: sin_cos_revolutions(x, True)),
    "v_div_fixup_f16": op("f16 f16 f16", "f16", div_fixup(None, None)),
    "v_cvt_f16_f32": op("f32", "f16", lambda a, round=0: rounding.convert(a, F16, round), "rounding", "denormals"),
    "v_cvt_f32_f16": op("f16", "f32", lambda a: a.astype(F32), "denormals"),
    "v_cvt_f16_i16": op("i16", "f16", lambda a, round=0: rounding.convert(a, F16, round), "rounding"),
    "v_cvt_f16_u16": op("u16", "f16", lambda a, round=0: rounding.convert(a, F16, round), "rounding"),
    "v_cvt_i16_f16": op("f16", "i16", lambda x: to_int(x, -32768, 32767, np.int16)),
    "v_cvt_u16_f16": op("f16", "u16", lambda x: to_int(x, 0, 65535, U16)),
    "v_cvt_norm_i16_f16": op("f16", "i16", lambda x: _norm(x, -1.0, 32767, np.int16)),
    "v_cvt_norm_u16_f16": op("f16", "u16", lambda x: _norm(x, 0.0, 65535, U16)),
    "v_cvt_pk_norm_i16_f16": op("f16 f16", "b32", lambda a, b: pack_halves(_norm(a, -1.0, 32767, np.int16),
                                                                           _norm(b, -1.0, 32767, np.int16))),
    "v_cvt_pk_norm_u16_f16": op("f16 f16", "b32", lambda a, b: pack_halves(_norm(a, 0.0, 65535, U16),
                                                                           _norm(b, 0.0, 65535, U16))),
    "v_cvt_pk_rtz_f16_f32": op("f32 f32", "pk_f16", lambda a, b: pack_halves(f32_to_f16_rtz(a).view(U16),
                                                                             f32_to_f16_rtz(b).view(U16))),
    "v_pack_b32_f16": op("f16 f16", "pk_f16", lambda a, b: pack_halves(a.view(U16), b.view(U16))),
    "v_fma_mix_f32": op("f32 f32 f32", "f32", fma_narrow, "mix"),
    "v_fma_mixlo_f16": op("f32 f32 f32", "f16", lambda a, b, c: fma_narrow(a, b, c).astype(F16), "mix"),
    "v_fma_mixhi_f16": op("f32 f32 f32", "f16", lambda a, b, c: fma_narrow(a, b, c).astype(F16), "mix", "hi_half"),
    "v_dot2_f32_f16": op("pk_f16 pk_f16 f32", "f32", _dot2_f32_f16),
    "v_dot2acc_f32_f16": op("pk_f16 pk_f16 f32", "f32", _dot2_f32_f16, "dst_in"),
    "v_dot2_f16_f16": op("pk_f16 pk_f16 f16", "f16", _dot2_f16_f16),
    "v_dot2_f32_bf16": op("b32 b32 f32", "f32", _dot2_f32_bf16),
    "v_dot2_bf16_bf16": op("b32 b32 bf16", "bf16", _dot2_bf16_bf16),
    # Exists on gfx11 only as a VOPD half (v_dual_dot2acc_f32_bf16); the core looks VOPD halves
    # up without "dual_".
    "v_dot2acc_f32_bf16": op("b32 b32 f32", "f32", _dot2_f32_bf16, "dst_in"),
}
# min/max, rounding to integers, ldexp and the division helpers also follow MODE.FP_DENORM
with_flags(FLOAT16, (
    "v_min_f16", "v_max_f16", "v_min_num_f16", "v_max_num_f16", "v_min3_num_f16", "v_max3_num_f16",
    "v_minmax_num_f16", "v_maxmin_num_f16", "v_med3_num_f16",
    "v_min3_f16", "v_max3_f16", "v_med3_f16", "v_minmax_f16",
    "v_maxmin_f16", "v_ldexp_f16", "v_fract_f16", "v_trunc_f16", "v_ceil_f16", "v_floor_f16",
    "v_rndne_f16", "v_div_fixup_f16"
), "denormals")
