"""VALU operations of GFX9 and GFX10 processors that gfx11 lacks: CDNA's (gfx90a, gfx942) 64-bit
moves and shifted adds and packed f32 math on register pairs (v_pk_*_f32), and the unfused f32
multiply-add (v_mad_f32, v_mac_f32, v_madak_f32, v_madmk_f32; not on gfx942), and the
signed integer dot products (gfx11 has only the mixed-sign iu forms), among them the VOP2 forms
that accumulate into their destination (v_dot4c_i32_i8, which LLVM selects for `__dp4a`).

v_mad_f32 rounds the product, then the sum, and supports no denormals: LLVM selects it only
where f32 denormals are flushed (hipcc's default for gfx9), so its sources, product and result
are flushed here.

A pk_f32 operand is a 64-bit register pair holding two f32 (element 0 in the low dword); the
core picks each element's dword by op_sel (element 0) and op_sel_hi (element 1) and applies
neg_lo/neg_hi before calling fn, as for pk_f16 (AMD's MI200 ISA guide, VOP3P)."""

from __future__ import annotations

import numpy as np

from . import rounding
from .ieee import flush_denormals
from .integer import dot_product
from .op import Op, op

U32, U64, F32 = np.uint32, np.uint64, np.float32
_LOW = U64(0xFFFFFFFF)


def _halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (x & _LOW).astype(U32).view(F32), (x >> U64(32)).astype(U32).view(F32)


def _pair(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.asarray(lo, F32).view(U32).astype(U64) | (np.asarray(hi, F32).view(U32).astype(U64) << U64(32))


def _packed(fn):
    """fn over both f32 elements of each pk_f32 source, each element rounded as its own op."""
    def f(*args, round=0):
        parts = [_halves(a) for a in args]
        return _pair(*(fn(*(p[k] for p in parts), round=round) for k in (0, 1)))
    return f


def _mad(a: np.ndarray, b: np.ndarray, c: np.ndarray, round: int = 0) -> np.ndarray:
    product = flush_denormals(rounding.mul(flush_denormals(a), flush_denormals(b), round))
    return flush_denormals(rounding.add(product, flush_denormals(c), round))


def _pk_mov(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """v_pk_mov_b32: the low dword from src0's dword op_sel[0] picks, the high from src1's
    dword op_sel[1] picks (each source's element 0, as the core selects it)."""
    return (a & _LOW) | ((b & _LOW) << U64(32))


GFX9: dict[str, Op] = {
    "v_mad_f32": op("f32 f32 f32", "f32", _mad, "rounding"),
    "v_madak_f32": op("f32 f32 f32", "f32", _mad, "rounding"),     # a * b + K
    "v_madmk_f32": op("f32 f32 f32", "f32", _mad, "rounding"),     # a * K + b
    "v_mac_f32": op("f32 f32 f32", "f32", _mad, "dst_in", "rounding"),
    "v_mov_b64": op("b64", "b64", lambda a: a.copy()),
    # D = (S0 << S1[2:0]) + S2 (gfx940: an address's shifted index plus its base)
    "v_lshl_add_u64": op("u64 u32 u64", "u64", lambda a, s, c: (a << (s & U32(7)).astype(U64)) + c),
    "v_fmac_f64": op("f64 f64 f64", "f64", rounding.fma, "dst_in", "rounding", "denormals"),
    "v_pk_mov_b32": op("pk_f32 pk_f32", "b64", _pk_mov),
    "v_pk_add_f32": op("pk_f32 pk_f32", "pk_f32", _packed(rounding.add), "rounding"),
    "v_pk_mul_f32": op("pk_f32 pk_f32", "pk_f32", _packed(rounding.mul), "rounding"),
    "v_pk_fma_f32": op("pk_f32 pk_f32 pk_f32", "pk_f32", _packed(rounding.fma), "rounding"),
    "v_dot2_i32_i16": op("b32 b32 i32", "i32", dot_product(16, "i"), "clamp_aware"),
    "v_dot2_u32_u16": op("b32 b32 u32", "u32", dot_product(16, "u"), "clamp_aware"),
    "v_dot4_i32_i8": op("b32 b32 i32", "i32", dot_product(8, "i"), "clamp_aware"),
    "v_dot8_i32_i4": op("b32 b32 i32", "i32", dot_product(4, "i"), "clamp_aware"),
    "v_dot2c_i32_i16": op("b32 b32 i32", "i32", dot_product(16, "i"), "dst_in", "clamp_aware"),
    "v_dot4c_i32_i8": op("b32 b32 i32", "i32", dot_product(8, "i"), "dst_in", "clamp_aware"),
    "v_dot8c_i32_i4": op("b32 b32 i32", "i32", dot_product(4, "i"), "dst_in", "clamp_aware"),
}
