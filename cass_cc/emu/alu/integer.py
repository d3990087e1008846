"""VALU integer arithmetic (VOP1/VOP2/VOP3 forms of 16-, 32- and 64-bit integer ops).

Arrays are shaped (waves, 32). Shift counts are masked to 4 (16-bit), 5 (32-bit) or 6 bits
(64-bit). Ops flagged clamp_aware saturate their result when the VOP3 clamp bit is set.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .bitops import brev, clz, cls, ctz, popcount
from .op import Op, op

U16, U32, U64, I16, I32, I64 = np.uint16, np.uint32, np.uint64, np.int16, np.int32, np.int64


def _s(x, bits):
    """A shift count masked to `bits` bits, in x's dtype."""
    return (x & U32((1 << bits) - 1)).astype(x.dtype if x.dtype.kind == "u" else U32)


def _saturating(fn, lo, hi, dtype):
    """fn computed in int64, saturated to [lo, hi] when clamp is set, else wrapped to dtype."""
    def f(*args, clamp=False):
        if not clamp and all(a.dtype == dtype for a in args):
            return fn(*args)            # +, -, * wrap in the type itself: no int64 round trip
        t = fn(*(a.astype(I64) for a in args))
        return (np.clip(t, lo, hi) if clamp else t).astype(dtype)
    return f


def _sat(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def _add_co(a, b, clamp=False):
    t = a.astype(U64) + b
    carry = t > 0xFFFFFFFF
    return (np.where(carry, U32(0xFFFFFFFF), t.astype(U32)) if clamp else t.astype(U32)), carry


def _sub_co(a, b, clamp=False):
    borrow = b > a
    return (np.where(borrow, U32(0), a - b) if clamp else a - b), borrow


def _add_co_ci(a, b, carry, clamp=False):
    t = a.astype(U64) + b + carry
    c = t > 0xFFFFFFFF
    return (np.where(c, U32(0xFFFFFFFF), t.astype(U32)) if clamp else t.astype(U32)), c


def _sub_co_ci(a, b, carry, clamp=False):
    borrow = b.astype(U64) + carry > a
    r = a - b - carry.astype(U32)
    return (np.where(borrow, U32(0), r) if clamp else r), borrow


def _u24(x):
    return (x & U32(0xFFFFFF)).astype(U64)


def _i24(x):
    return ((x.astype(U32) << U32(8)).view(I32) >> 8).astype(I64)


def _mad_u64_u32(a, b, c):
    r = a.astype(U64) * b + c
    return r, r < c


def _mad_i64_i32(a, b, c):
    p = a.astype(I64) * b
    r = p + c
    overflow = ((p < 0) == (c < 0)) & ((r < 0) != (p < 0))
    return r, (r < 0) != overflow


def _bfe_u32(a, off, width):
    mask = (U64(1) << _s(width, 5).astype(U64)) - U64(1)
    return ((a >> _s(off, 5)) & mask.astype(U32)).astype(U32)


def _bfe_i32(a, off, width):
    """The field is taken after an arithmetic shift (S0.i >> offset), so a field reaching past
    bit 31 is filled with copies of the sign bit, then sign-extended from its top bit."""
    w = _s(width, 5).astype(I32)
    mask = ((U64(1) << w.astype(U64)) - U64(1)).astype(U32)
    field = (a >> _s(off, 5).astype(I32)).view(U32) & mask
    shift = (32 - w).astype(U32)
    ext = (field << shift).view(I32) >> shift.astype(I32)
    return np.where(w == 0, I32(0), ext).astype(I32)


def _bfm(width, off):
    return (((U64(1) << _s(width, 5).astype(U64)) - U64(1)).astype(U32) << _s(off, 5)).astype(U32)


def _alignbit(hi, lo, s):
    return ((((hi.astype(U64) << U64(32)) | lo) >> _s(s, 5).astype(U64)) & U64(0xFFFFFFFF)).astype(U32)


def _alignbyte(hi, lo, s):
    return ((((hi.astype(U64) << U64(32)) | lo) >> (_s(s, 2).astype(U64) * U64(8))) & U64(0xFFFFFFFF)).astype(U32)


def _perm(hi, lo, sel):
    """v_perm_b32: each selector byte picks a byte of {hi, lo}, a sign fill, 0x00 or 0xff."""
    shape = np.broadcast(hi, lo, sel).shape
    data = ((np.broadcast_to(hi, shape).astype(U64) << U64(32)) | lo).view(np.uint8).reshape(*shape, 8)
    table = np.empty((*shape, 14), np.uint8)
    table[..., :8] = data
    table[..., 8:12] = np.where(data[..., 1::2] >= 0x80, 0xFF, 0)
    table[..., 12] = 0
    table[..., 13] = 0xFF
    picks = np.minimum(np.broadcast_to(sel, shape).astype(U32).view(np.uint8).reshape(*shape, 4), 13)
    return np.ascontiguousarray(np.take_along_axis(table, picks.astype(np.intp), -1)).view(U32).reshape(shape)


def _minmax(lt_first):
    return lambda a, b: np.where(a < b, a, b) if lt_first else np.where(a >= b, a, b)


_min, _max = _minmax(True), _minmax(False)


def _med3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def _bytes(x, k):
    return ((x >> U32(8 * k)) & U32(0xFF)).astype(I64)


def _absdiff(a, b):
    return np.abs(a - b)


def _sad_u8(a, b, c):
    return (c.astype(I64) + sum(_absdiff(_bytes(a, k), _bytes(b, k)) for k in range(4))).astype(U32)


def _msad_u8(a, b, c):
    return (c.astype(I64) + sum(np.where(_bytes(b, k) == 0, 0, _absdiff(_bytes(a, k), _bytes(b, k)))
                                for k in range(4))).astype(U32)


def _quad_sad(sad):
    """v_qsad_pk_u16_u8/v_mqsad_pk_u16_u8: four SADs of S1 against the byte windows of the
    64-bit S0 starting at bytes 0..3, each accumulated into a 16-bit field of S2."""
    def f(a, b, c):
        out = np.zeros(np.broadcast(a, b, c).shape, U64)
        for k in range(4):
            window = ((a >> U64(8 * k)) & U64(0xFFFFFFFF)).astype(U32)
            acc = ((c >> U64(16 * k)) & U64(0xFFFF)).astype(U32)
            out |= (sad(window, b, acc) & U32(0xFFFF)).astype(U64) << U64(16 * k)
        return out
    return f


def _sad_u16(a, b, c):
    h = lambda x, k: ((x >> U32(16 * k)) & U32(0xFFFF)).astype(I64)
    return (c.astype(I64) + _absdiff(h(a, 0), h(b, 0)) + _absdiff(h(a, 1), h(b, 1))).astype(U32)


def _lerp_u8(a, b, c):
    out = np.zeros(np.broadcast(a, b, c).shape, U32)
    for k in range(4):
        out |= (((_bytes(a, k) + _bytes(b, k) + (_bytes(c, k) & 1)) >> 1).astype(U32) << U32(8 * k))
    return out


def _mbcnt(shift):
    def f(mask, acc, lane):
        below = ((U64(1) << lane.astype(U64)) - U64(1)) >> U64(shift)
        return (acc + popcount(mask.astype(U64) & below & U64(0xFFFFFFFF))).astype(U32)
    return f


def _sat_pk_u8_i16(x):
    lo = np.clip((x & U32(0xFFFF)).astype(U16).view(I16), 0, 255).astype(U16)
    hi = np.clip((x >> U32(16)).astype(U16).view(I16), 0, 255).astype(U16)
    return (lo | (hi << U16(8))).astype(U16)


def dot_product(width: int, signedness: str) -> Callable:
    """The integer dot products: the sum of lane-wise products of the 16-, 8- or 4-bit elements
    of S0 and S1, plus S2. `signedness` is "u" (v_dot4_u32_u8, v_dot2_u32_u16), "i" (GFX9/GFX10's
    v_dot4_i32_i8, v_dot2_i32_i16, v_dot8_i32_i4 and the accumulating v_dot*c forms) or "iu"
    (gfx11's v_dot4_i32_iu8, whose neg_lo bits say whether A and B are signed:
    signed=(a_signed, b_signed)). Clamp saturates the sum to the result type; without it the sum
    wraps to 32 bits."""
    count = 32 // width
    mask = (1 << width) - 1
    result = U32 if signedness == "u" else I32
    lo, hi = (0, 2**32 - 1) if signedness == "u" else (-2**31, 2**31 - 1)

    def element(x, k, is_signed):
        e = ((x.astype(I64) >> (width * k)) & mask)
        return np.where(e >> (width - 1) == 1, e - (1 << width), e) if is_signed else e

    def f(a, b, c, signed=(False, False), clamp=False):
        sa, sb = {"u": (False, False), "i": (True, True), "iu": signed}[signedness]
        total = c.astype(I64) + sum(element(a, k, sa) * element(b, k, sb) for k in range(count))
        return (np.clip(total, lo, hi) if clamp else total).astype(result)
    return f


def _pack16(lo, hi):
    return (lo.astype(U16).astype(U32) | (hi.astype(U16).astype(U32) << U32(16))).astype(U32)


def _select(a, b, mask):
    return np.where(mask, b, a)


# Moves and selects are typed float because the ISA gives them float neg/abs modifiers (LLVM
# folds fneg/fabs into v_cndmask_b32_e64); the bits still pass through untouched, NaN payloads
# included, and no arithmetic happens, so they need no floating-point error state.
MOVES: dict[str, Op] = {
    "v_mov_b32": Op(("f32",), "f32", np.copy),
    "v_mov_b16": Op(("f16",), "f16", np.copy),
    "v_cndmask_b32": Op(("f32", "f32"), "f32", _select, frozenset({"mask_in"})),
    "v_cndmask_b16": Op(("f16", "f16"), "f16", _select, frozenset({"mask_in"})),
}

INTEGER: dict[str, Op] = {
    **MOVES,
    "v_add_nc_u32": op("u32 u32", "u32", _saturating(lambda a, b: a + b, 0, 2**32 - 1, U32), "clamp_aware"),
    "v_sub_nc_u32": op("u32 u32", "u32", _saturating(lambda a, b: a - b, 0, 2**32 - 1, U32), "clamp_aware"),
    "v_subrev_nc_u32": op("u32 u32", "u32", _saturating(lambda a, b: b - a, 0, 2**32 - 1, U32), "clamp_aware"),
    "v_add_nc_i32": op("i32 i32", "i32", _saturating(lambda a, b: a + b, *_sat(I32), I32), "clamp_aware"),
    "v_sub_nc_i32": op("i32 i32", "i32", _saturating(lambda a, b: a - b, *_sat(I32), I32), "clamp_aware"),
    "v_add_nc_u16": op("u16 u16", "u16", _saturating(lambda a, b: a + b, 0, 0xFFFF, U16), "clamp_aware"),
    "v_sub_nc_u16": op("u16 u16", "u16", _saturating(lambda a, b: a - b, 0, 0xFFFF, U16), "clamp_aware"),
    "v_add_nc_i16": op("i16 i16", "i16", _saturating(lambda a, b: a + b, *_sat(I16), I16), "clamp_aware"),
    "v_sub_nc_i16": op("i16 i16", "i16", _saturating(lambda a, b: a - b, *_sat(I16), I16), "clamp_aware"),
    "v_mul_lo_u16": op("u16 u16", "u16", _saturating(lambda a, b: a * b, 0, 0xFFFF, U16), "clamp_aware"),
    "v_mad_u16": op("u16 u16 u16", "u16", _saturating(lambda a, b, c: a * b + c, 0, 0xFFFF, U16), "clamp_aware"),
    "v_mad_i16": op("i16 i16 i16", "i16", _saturating(lambda a, b, c: a * b + c, *_sat(I16), I16), "clamp_aware"),
    "v_mad_u32_u16": op("u16 u16 u32", "u32", lambda a, b, c: (a.astype(U32) * b + c).astype(U32)),
    "v_mad_i32_i16": op("i16 i16 i32", "i32", lambda a, b, c: (a.astype(I32) * b + c).astype(I32)),
    "v_add_co_u32": op("u32 u32", "u32", _add_co, "carry_out", "clamp_aware"),
    "v_sub_co_u32": op("u32 u32", "u32", _sub_co, "carry_out", "clamp_aware"),
    "v_subrev_co_u32": op("u32 u32", "u32", lambda a, b, clamp=False: _sub_co(b, a, clamp), "carry_out", "clamp_aware"),
    "v_add_co_ci_u32": op("u32 u32", "u32", _add_co_ci, "carry_in", "carry_out", "clamp_aware"),
    "v_sub_co_ci_u32": op("u32 u32", "u32", _sub_co_ci, "carry_in", "carry_out", "clamp_aware"),
    "v_subrev_co_ci_u32": op("u32 u32", "u32", lambda a, b, carry, clamp=False: _sub_co_ci(b, a, carry, clamp),
                             "carry_in", "carry_out", "clamp_aware"),
    "v_mul_lo_u32": op("u32 u32", "u32", lambda a, b: a * b),
    "v_mul_hi_u32": op("u32 u32", "u32", lambda a, b: ((a.astype(U64) * b) >> U64(32)).astype(U32)),
    "v_mul_hi_i32": op("i32 i32", "i32", lambda a, b: ((a.astype(I64) * b) >> 32).astype(I32)),
    "v_mul_u32_u24": op("u32 u32", "u32", lambda a, b: (_u24(a) * _u24(b)).astype(U32)),
    "v_mul_hi_u32_u24": op("u32 u32", "u32", lambda a, b: ((_u24(a) * _u24(b)) >> U64(32)).astype(U32)),
    "v_mul_i32_i24": op("i32 i32", "i32", lambda a, b: (_i24(a) * _i24(b)).astype(I32)),
    "v_mul_hi_i32_i24": op("i32 i32", "i32", lambda a, b: ((_i24(a) * _i24(b)) >> 32).astype(I32)),
    "v_mad_u32_u24": op("u32 u32 u32", "u32", lambda a, b, c: (_u24(a) * _u24(b) + c).astype(U32)),
    "v_mad_i32_i24": op("i32 i32 i32", "i32", lambda a, b, c: (_i24(a) * _i24(b) + c).astype(I32)),
    "v_mad_u64_u32": op("u32 u32 u64", "u64", _mad_u64_u32, "carry_out"),
    "v_mad_i64_i32": op("i32 i32 i64", "i64", _mad_i64_i32, "carry_out"),
    "v_lshlrev_b32": op("u32 b32", "b32", lambda s, a: a << _s(s, 5)),
    "v_lshrrev_b32": op("u32 b32", "b32", lambda s, a: a >> _s(s, 5)),
    "v_ashrrev_i32": op("u32 i32", "i32", lambda s, a: a >> _s(s, 5).astype(I32)),
    "v_lshlrev_b64": op("u32 b64", "b64", lambda s, a: a << _s(s, 6).astype(U64)),
    "v_lshrrev_b64": op("u32 b64", "b64", lambda s, a: a >> _s(s, 6).astype(U64)),
    "v_ashrrev_i64": op("u32 i64", "i64", lambda s, a: a >> _s(s, 6).astype(I64)),
    "v_lshlrev_b16": op("u16 b16", "b16", lambda s, a: a << _s(s, 4)),
    "v_lshrrev_b16": op("u16 b16", "b16", lambda s, a: a >> _s(s, 4)),
    "v_ashrrev_i16": op("u16 i16", "i16", lambda s, a: a >> _s(s, 4).astype(I16)),
    "v_and_b32": op("b32 b32", "b32", lambda a, b: a & b),
    "v_or_b32": op("b32 b32", "b32", lambda a, b: a | b),
    "v_xor_b32": op("b32 b32", "b32", lambda a, b: a ^ b),
    "v_xnor_b32": op("b32 b32", "b32", lambda a, b: ~(a ^ b)),
    "v_not_b32": op("b32", "b32", lambda a: ~a),
    "v_and_b16": op("b16 b16", "b16", lambda a, b: a & b),
    "v_or_b16": op("b16 b16", "b16", lambda a, b: a | b),
    "v_xor_b16": op("b16 b16", "b16", lambda a, b: a ^ b),
    "v_not_b16": op("b16", "b16", lambda a: ~a),
    "v_bfe_u32": op("u32 u32 u32", "u32", _bfe_u32),
    "v_bfe_i32": op("i32 u32 u32", "i32", _bfe_i32),
    "v_bfi_b32": op("b32 b32 b32", "b32", lambda m, a, b: (m & a) | (~m & b)),
    "v_bfm_b32": op("u32 u32", "b32", _bfm),
    "v_alignbit_b32": op("b32 b32 u32", "b32", _alignbit),
    "v_alignbyte_b32": op("b32 b32 u32", "b32", _alignbyte),
    "v_perm_b32": op("b32 b32 b32", "b32", _perm),
    "v_lshl_add_u32": op("u32 u32 u32", "u32", lambda a, s, c: (a << _s(s, 5)) + c),
    "v_add_lshl_u32": op("u32 u32 u32", "u32", lambda a, b, s: (a + b) << _s(s, 5)),
    "v_lshl_or_b32": op("b32 u32 b32", "b32", lambda a, s, c: (a << _s(s, 5)) | c),
    "v_and_or_b32": op("b32 b32 b32", "b32", lambda a, b, c: (a & b) | c),
    "v_or3_b32": op("b32 b32 b32", "b32", lambda a, b, c: a | b | c),
    "v_xor3_b32": op("b32 b32 b32", "b32", lambda a, b, c: a ^ b ^ c),
    "v_add3_u32": op("u32 u32 u32", "u32", lambda a, b, c: a + b + c),
    "v_xad_u32": op("u32 u32 u32", "u32", lambda a, b, c: (a ^ b) + c),
    "v_bcnt_u32_b32": op("b32 u32", "u32", lambda a, b: popcount(a) + b),
    "v_mbcnt_lo_u32_b32": op("b32 u32", "u32", _mbcnt(0), "lane_id"),
    "v_mbcnt_hi_u32_b32": op("b32 u32", "u32", _mbcnt(32), "lane_id"),
    "v_clz_i32_u32": op("u32", "i32", clz),
    "v_ctz_i32_b32": op("b32", "i32", ctz),
    "v_cls_i32": op("i32", "i32", cls),
    "v_bfrev_b32": op("b32", "b32", brev),
    "v_sad_u8": op("u32 u32 u32", "u32", _sad_u8),
    "v_sad_hi_u8": op("u32 u32 u32", "u32", lambda a, b, c: (_sad_u8(a, b, np.zeros_like(c)) << U32(16)) + c),
    "v_sad_u16": op("u32 u32 u32", "u32", _sad_u16),
    "v_sad_u32": op("u32 u32 u32", "u32", lambda a, b, c: (np.maximum(a, b) - np.minimum(a, b)) + c),
    "v_msad_u8": op("u32 u32 u32", "u32", _msad_u8),
    "v_lerp_u8": op("u32 u32 u32", "u32", _lerp_u8),
    "v_qsad_pk_u16_u8": op("b64 u32 b64", "b64", _quad_sad(_sad_u8)),
    "v_mqsad_pk_u16_u8": op("b64 u32 b64", "b64", _quad_sad(_msad_u8)),
    "v_cvt_pk_u16_u32": op("u32 u32", "b32", lambda a, b: _pack16(np.minimum(a, U32(0xFFFF)), np.minimum(b, U32(0xFFFF)))),
    "v_cvt_pk_i16_i32": op("i32 i32", "b32", lambda a, b: _pack16(np.clip(a, -32768, 32767), np.clip(b, -32768, 32767))),
    "v_sat_pk_u8_i16": op("b32", "b16", _sat_pk_u8_i16),
    "v_cvt_i32_i16": op("i16", "i32", lambda a: a.astype(I32)),
    "v_dot4_u32_u8": op("b32 b32 u32", "u32", dot_product(8, "u"), "clamp_aware"),
    "v_dot8_u32_u4": op("b32 b32 u32", "u32", dot_product(4, "u"), "clamp_aware"),
    "v_dot4_i32_iu8": op("b32 b32 i32", "i32", dot_product(8, "iu"), "clamp_aware", "iu_signed"),
    "v_dot8_i32_iu4": op("b32 b32 i32", "i32", dot_product(4, "iu"), "clamp_aware", "iu_signed"),
    "v_cvt_u32_u16": op("u16", "u32", lambda a: a.astype(U32)),
}

for _t in ("i32", "u32", "i16", "u16"):
    INTEGER.update({
        f"v_min_{_t}": op(f"{_t} {_t}", _t, _min),
        f"v_max_{_t}": op(f"{_t} {_t}", _t, _max),
        f"v_min3_{_t}": op(f"{_t} {_t} {_t}", _t, lambda a, b, c: _min(_min(a, b), c)),
        f"v_max3_{_t}": op(f"{_t} {_t} {_t}", _t, lambda a, b, c: _max(_max(a, b), c)),
        f"v_med3_{_t}": op(f"{_t} {_t} {_t}", _t, _med3),
    })
for _t in ("i32", "u32"):
    INTEGER.update({
        f"v_minmax_{_t}": op(f"{_t} {_t} {_t}", _t, lambda a, b, c: _max(_min(a, b), c)),
        f"v_maxmin_{_t}": op(f"{_t} {_t} {_t}", _t, lambda a, b, c: _min(_max(a, b), c)),
    })
