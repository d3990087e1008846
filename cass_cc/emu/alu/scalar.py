"""SALU arithmetic (SOP1, SOP2, SOPK; the SOPC compares live in compare.py).

Arrays are shaped (waves,). Ops flagged scc_out return (result, scc). Shift counts are
masked to 5 bits (32-bit ops) or 6 bits (64-bit ops), as the hardware does.
"""
from __future__ import annotations

import numpy as np

from .bitops import brev, clz, cls, ctz, popcount
from .op import Op, op

U32, U64 = np.uint32, np.uint64


def _nz(r):
    return r, r != 0


def _sh32(s):
    return (s & U32(31)).astype(U32)


def _sh64(s):
    return (s & U32(63)).astype(U64)


def _add_u32(a, b):
    t = a.astype(U64) + b
    return t.astype(U32), t > 0xFFFFFFFF


def _sub_u32(a, b):
    return a - b, b > a


def _addc_u32(a, b, scc):
    t = a.astype(U64) + b + scc
    return t.astype(U32), t > 0xFFFFFFFF


def _subb_u32(a, b, scc):
    return a - b - scc.astype(U32), b.astype(U64) + scc > a


def _add_i32(a, b):
    r = a + b
    return r, ((a < 0) == (b < 0)) & ((r < 0) != (a < 0))


def _sub_i32(a, b):
    r = a - b
    return r, ((a < 0) != (b < 0)) & ((r < 0) != (a < 0))


def _min(a, b):
    lt = a < b
    return np.where(lt, a, b), lt


def _max(a, b):
    ge = a >= b
    return np.where(ge, a, b), ge


def _mul_hi_u32(a, b):
    return ((a.astype(U64) * b) >> U64(32)).astype(U32)


def _mul_hi_i32(a, b):
    return ((a.astype(np.int64) * b) >> 32).astype(np.int32)


def _field_mask(width, dtype):
    """(1 << width) - 1 in dtype, all ones once width reaches the type's size."""
    nbits = np.dtype(dtype).itemsize * 8
    w = np.minimum(width, nbits).astype(U64)
    below = (U64(1) << np.minimum(w, U64(63))) - U64(1)
    return np.where(w >= 64, U64(2**64 - 1), below).astype(dtype)


def _bfe_u(width_bits, offset_mask):
    udt = U32 if width_bits == 32 else U64

    def bfe(a, s):
        off = (s & U32(offset_mask)).astype(udt)
        width = (s >> U32(16)) & U32(0x7F)
        return _nz(((a.astype(udt) >> off) & _field_mask(width, udt)).astype(udt))
    return bfe


def _bfe_i(width_bits, offset_mask):
    """s_bfe_i32/i64: the field of an arithmetic shift (S0.i >> offset), sign-extended from
    its top bit; widths of the register size or more keep the shifted value."""
    udt, idt = (U32, np.int32) if width_bits == 32 else (U64, np.int64)

    def bfe(a, s):
        off = (s & U32(offset_mask)).astype(idt)
        width = np.minimum((s >> U32(16)) & U32(0x7F), width_bits).astype(np.int64)
        field = (a >> off).view(udt) & _field_mask(width, udt)
        shift = (width_bits - width).astype(udt)
        r = np.where(width == 0, idt(0), ((field << shift).view(idt) >> shift.astype(idt))).astype(idt)
        return r, r != 0
    return bfe


def _bfm(nbits):
    dt, mask = (U32, 31) if nbits == 32 else (U64, 63)

    def bfm(width, offset):
        return (_field_mask(width & U32(mask), dt) << (offset & U32(mask)).astype(dt)).astype(dt)
    return bfm


def _lshl_add(n):
    def f(a, b):
        t = (a.astype(U64) << U64(n)) + b
        return t.astype(U32), t > 0xFFFFFFFF
    return f


def _lo(x):
    return x & U32(0xFFFF)


def _hi(x):
    return x >> U32(16)


def _wqm(x):
    nib = x.dtype.itemsize * 2
    out = np.zeros_like(x)
    for i in range(nib):
        sh = x.dtype.type(4 * i)
        out |= np.where(((x >> sh) & x.dtype.type(0xF)) != 0, x.dtype.type(0xF) << sh, x.dtype.type(0))
    return out


def _quadmask(x):
    nib = x.dtype.itemsize * 2
    out = np.zeros_like(x)
    for i in range(nib):
        out |= np.where(((x >> x.dtype.type(4 * i)) & x.dtype.type(0xF)) != 0,
                        x.dtype.type(1 << i), x.dtype.type(0))
    return out


def _bitreplicate(x):
    out = np.zeros(x.shape, U64)
    for i in range(32):
        bit = (x.astype(U64) >> U64(i)) & U64(1)
        out |= (bit | (bit << U64(1))) << U64(2 * i)
    return out


def _bitset(value, nbits):
    dt, mask = (U32, 31) if nbits == 32 else (U64, 63)

    def f(pos, d):
        b = dt(1) << (pos & U32(mask)).astype(dt)
        return (d | b) if value else (d & ~b)
    return f


def _logic(fn):
    return lambda a, b: _nz(fn(a, b))


def _sign16(k):
    return k.astype(np.int32)


SCALAR_ARITH: dict[str, Op] = {
    "s_add_u32": op("u32 u32", "u32", _add_u32, "scc_out"),
    "s_sub_u32": op("u32 u32", "u32", _sub_u32, "scc_out"),
    "s_add_i32": op("i32 i32", "i32", _add_i32, "scc_out"),
    "s_sub_i32": op("i32 i32", "i32", _sub_i32, "scc_out"),
    "s_addc_u32": op("u32 u32", "u32", lambda a, b, scc: _addc_u32(a, b, scc), "scc_in", "scc_out"),
    "s_subb_u32": op("u32 u32", "u32", lambda a, b, scc: _subb_u32(a, b, scc), "scc_in", "scc_out"),
    "s_min_i32": op("i32 i32", "i32", _min, "scc_out"),
    "s_min_u32": op("u32 u32", "u32", _min, "scc_out"),
    "s_max_i32": op("i32 i32", "i32", _max, "scc_out"),
    "s_max_u32": op("u32 u32", "u32", _max, "scc_out"),
    "s_absdiff_i32": op("i32 i32", "i32", lambda a, b: _nz(np.abs(a - b)), "scc_out"),
    "s_abs_i32": op("i32", "i32", lambda a: _nz(np.abs(a)), "scc_out"),
    "s_mul_i32": op("i32 i32", "i32", lambda a, b: a * b),
    # gfx12's 64-bit SALU arithmetic (no SCC); modulo 2^64 like the hardware
    "s_add_nc_u64": op("u64 u64", "u64", lambda a, b: a + b),
    "s_sub_nc_u64": op("u64 u64", "u64", lambda a, b: a - b),
    "s_mul_u64": op("u64 u64", "u64", lambda a, b: a * b),
    "s_mul_hi_u32": op("u32 u32", "u32", _mul_hi_u32),
    "s_mul_hi_i32": op("i32 i32", "i32", _mul_hi_i32),
    "s_lshl1_add_u32": op("u32 u32", "u32", _lshl_add(1), "scc_out"),
    "s_lshl2_add_u32": op("u32 u32", "u32", _lshl_add(2), "scc_out"),
    "s_lshl3_add_u32": op("u32 u32", "u32", _lshl_add(3), "scc_out"),
    "s_lshl4_add_u32": op("u32 u32", "u32", _lshl_add(4), "scc_out"),
    "s_movk_i32": op("i16", "i32", _sign16),
    "s_cmovk_i32": op("i16 i32", "i32", lambda k, d, scc: np.where(scc, _sign16(k), d), "scc_in", "dst_in"),
    "s_addk_i32": op("i16 i32", "i32", lambda k, d: _add_i32(d, _sign16(k)), "dst_in", "scc_out"),
    "s_mulk_i32": op("i16 i32", "i32", lambda k, d: d * _sign16(k), "dst_in"),
    "s_sext_i32_i8": op("i32", "i32", lambda a: a.astype(np.int8).astype(np.int32)),
    "s_sext_i32_i16": op("i32", "i32", lambda a: a.astype(np.int16).astype(np.int32)),
    "s_pack_ll_b32_b16": op("b32 b32", "b32", lambda a, b: _lo(a) | (_lo(b) << U32(16))),
    "s_pack_lh_b32_b16": op("b32 b32", "b32", lambda a, b: _lo(a) | (_hi(b) << U32(16))),
    "s_pack_hh_b32_b16": op("b32 b32", "b32", lambda a, b: _hi(a) | (_hi(b) << U32(16))),
    "s_pack_hl_b32_b16": op("b32 b32", "b32", lambda a, b: _hi(a) | (_lo(b) << U32(16))),
}

SCALAR_BITS: dict[str, Op] = {}
for _w, _t in ((32, "b32"), (64, "b64")):
    _sh = _sh32 if _w == 32 else _sh64
    _i = "i32" if _w == 32 else "i64"
    SCALAR_BITS.update({
        f"s_mov_b{_w}": op(_t, _t, lambda a: a.copy()),
        f"s_cmov_b{_w}": op(f"{_t} {_t}", _t, lambda a, d, scc: np.where(scc, a, d), "scc_in", "dst_in"),
        f"s_cselect_b{_w}": op(f"{_t} {_t}", _t, lambda a, b, scc: np.where(scc, a, b), "scc_in"),
        f"s_and_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: a & b), "scc_out"),
        f"s_or_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: a | b), "scc_out"),
        f"s_xor_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: a ^ b), "scc_out"),
        f"s_nand_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: ~(a & b)), "scc_out"),
        f"s_nor_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: ~(a | b)), "scc_out"),
        f"s_xnor_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: ~(a ^ b)), "scc_out"),
        f"s_and_not1_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: a & ~b), "scc_out"),
        f"s_or_not1_b{_w}": op(f"{_t} {_t}", _t, _logic(lambda a, b: a | ~b), "scc_out"),
        f"s_not_b{_w}": op(_t, _t, lambda a: _nz(~a), "scc_out"),
        f"s_wqm_b{_w}": op(_t, _t, lambda a: _nz(_wqm(a)), "scc_out"),
        f"s_quadmask_b{_w}": op(_t, _t, lambda a: _nz(_quadmask(a)), "scc_out"),
        f"s_brev_b{_w}": op(_t, _t, brev),
        f"s_bcnt0_i32_b{_w}": op(_t, "i32", lambda a: _nz((a.dtype.itemsize * 8 - popcount(a)).astype(np.int32)), "scc_out"),
        f"s_bcnt1_i32_b{_w}": op(_t, "i32", lambda a: _nz(popcount(a).astype(np.int32)), "scc_out"),
        f"s_ctz_i32_b{_w}": op(_t, "i32", ctz),
        f"s_lshl_b{_w}": op(f"{_t} u32", _t, lambda a, s, _sh=_sh: _nz(a << _sh(s)), "scc_out"),
        f"s_lshr_b{_w}": op(f"{_t} u32", _t, lambda a, s, _sh=_sh: _nz(a >> _sh(s)), "scc_out"),
        f"s_ashr_i{_w}": op(f"{_i} u32", _i, lambda a, s, _sh=_sh: _nz(a >> _sh(s).astype(a.dtype)), "scc_out"),
        f"s_bfm_b{_w}": op("u32 u32", _t, _bfm(_w)),
        f"s_bfe_u{_w}": op(f"{_t.replace('b', 'u')} u32", _t.replace("b", "u"), _bfe_u(_w, _w - 1), "scc_out"),
        f"s_bfe_i{_w}": op(f"{_i} u32", _i, _bfe_i(_w, _w - 1), "scc_out"),
        f"s_bitset0_b{_w}": op(f"u32 {_t}", _t, _bitset(0, _w), "dst_in"),
        f"s_bitset1_b{_w}": op(f"u32 {_t}", _t, _bitset(1, _w), "dst_in"),
    })
SCALAR_BITS.update({
    "s_clz_i32_u32": op("u32", "i32", clz),
    "s_clz_i32_u64": op("u64", "i32", clz),
    "s_cls_i32": op("i32", "i32", cls),
    "s_cls_i32_i64": op("i64", "i32", cls),
    "s_bitreplicate_b64_b32": op("b32", "b64", _bitreplicate),
})
