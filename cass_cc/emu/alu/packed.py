"""VOP3P packed math: two 16-bit lanes in one 32-bit register (element 0 in bits 15:0).

The core applies op_sel/op_sel_hi and neg_lo/neg_hi while building the packed operands; these
functions work element-wise on both halves. They are all clamp_aware, because the clamp of a
packed result applies per half: [0, 1] for f16 (NaN becomes 0), saturation for integers.
"""
from __future__ import annotations

import numpy as np

from .ieee import fma_narrow, ieee_max, ieee_min
from .op import Op, op

F16, U16, I16, U32, I64 = np.float16, np.uint16, np.int16, np.uint32, np.int64


def _split(x, dtype):
    lo = (x & U32(0xFFFF)).astype(U16)
    hi = (x >> U32(16)).astype(U16)
    return lo.view(dtype), hi.view(dtype)


def _join(lo, hi):
    return (lo.view(U16).astype(U32) | (hi.view(U16).astype(U32) << U32(16))).astype(U32)


def _float(fn):
    def f(*args, clamp=False):
        parts = [_split(a, F16) for a in args]
        halves = [fn(*(p[k] for p in parts)).astype(F16) for k in (0, 1)]
        if clamp:
            halves = [np.where(np.isnan(h), F16(0), np.clip(h, F16(0), F16(1))).astype(F16) for h in halves]
        return _join(*halves)
    return f


def _int(fn, dtype):
    info = np.iinfo(dtype)

    def f(*args, clamp=False):
        parts = [_split(a, dtype) for a in args]
        halves = []
        for k in (0, 1):
            wide = fn(*(p[k].astype(I64) for p in parts))
            halves.append((np.clip(wide, info.min, info.max) if clamp else wide).astype(dtype))
        return _join(*halves)
    return f


def _shift(fn, dtype):
    def f(s, a, clamp=False):
        (s0, s1), (a0, a1) = _split(s, U16), _split(a, dtype)
        return _join(fn(a0, (s0 & U16(15)).astype(dtype)).astype(dtype),
                     fn(a1, (s1 & U16(15)).astype(dtype)).astype(dtype))
    return f


PACKED: dict[str, Op] = {
    "v_pk_add_f16": op("pk_f16 pk_f16", "pk_f16", _float(lambda a, b: a + b), "clamp_aware"),
    "v_pk_mul_f16": op("pk_f16 pk_f16", "pk_f16", _float(lambda a, b: a * b), "clamp_aware"),
    "v_pk_fma_f16": op("pk_f16 pk_f16 pk_f16", "pk_f16", _float(fma_narrow), "clamp_aware"),
    "v_pk_fmac_f16": op("pk_f16 pk_f16 pk_f16", "pk_f16", _float(fma_narrow), "clamp_aware", "dst_in"),
    "v_pk_min_f16": op("pk_f16 pk_f16", "pk_f16", _float(ieee_min), "clamp_aware"),
    "v_pk_max_f16": op("pk_f16 pk_f16", "pk_f16", _float(ieee_max), "clamp_aware"),
    "v_pk_add_u16": op("pk_u16 pk_u16", "pk_u16", _int(lambda a, b: a + b, U16), "clamp_aware"),
    "v_pk_add_i16": op("pk_i16 pk_i16", "pk_i16", _int(lambda a, b: a + b, I16), "clamp_aware"),
    "v_pk_sub_u16": op("pk_u16 pk_u16", "pk_u16", _int(lambda a, b: a - b, U16), "clamp_aware"),
    "v_pk_sub_i16": op("pk_i16 pk_i16", "pk_i16", _int(lambda a, b: a - b, I16), "clamp_aware"),
    "v_pk_mul_lo_u16": op("pk_u16 pk_u16", "pk_u16", _int(lambda a, b: a * b, U16), "clamp_aware"),
    "v_pk_mad_u16": op("pk_u16 pk_u16 pk_u16", "pk_u16", _int(lambda a, b, c: a * b + c, U16), "clamp_aware"),
    "v_pk_mad_i16": op("pk_i16 pk_i16 pk_i16", "pk_i16", _int(lambda a, b, c: a * b + c, I16), "clamp_aware"),
    "v_pk_max_u16": op("pk_u16 pk_u16", "pk_u16", _int(np.maximum, U16), "clamp_aware"),
    "v_pk_max_i16": op("pk_i16 pk_i16", "pk_i16", _int(np.maximum, I16), "clamp_aware"),
    "v_pk_min_u16": op("pk_u16 pk_u16", "pk_u16", _int(np.minimum, U16), "clamp_aware"),
    "v_pk_min_i16": op("pk_i16 pk_i16", "pk_i16", _int(np.minimum, I16), "clamp_aware"),
    "v_pk_lshlrev_b16": op("pk_u16 pk_u16", "pk_u16", _shift(lambda a, s: a << s, U16), "clamp_aware"),
    "v_pk_lshrrev_b16": op("pk_u16 pk_u16", "pk_u16", _shift(lambda a, s: a >> s, U16), "clamp_aware"),
    "v_pk_ashrrev_i16": op("pk_u16 pk_i16", "pk_i16", _shift(lambda a, s: a >> s, I16), "clamp_aware"),
}
