"""Vector instructions that move data between lanes and the scalar unit, which the ALU tables do
not describe: v_readlane_b32, v_readfirstlane_b32, v_writelane_b32, v_swap_b32,
v_permlane16_b32, v_permlanex16_b32, the M0-relative moves v_movrels_b32, v_movreld_b32,
v_movrelsd_b32, v_movrelsd_2_b32 (hipcc's dynamically indexed private arrays) — plus the plain
v_mov_b32/v_mov_b16/v_nop used when the tables lack them."""

from __future__ import annotations

import numpy as np

from .alu.op import op
from .decode import Instr
from .fault import Unimplemented
from .operands import vector_bits
from .state import EXEC, M0, read_scalar_bits, write_scalar_bits

FALLBACK_VECTOR_OPS = {
    "v_mov_b32": op("b32", "b32", lambda a: a.copy()),
    "v_mov_b16": op("b16", "b16", lambda a: a.copy()),
}


def _lane_index(st, w, sel) -> np.ndarray:
    """The lane a readlane/writelane selects: the selector modulo the wave's lanes."""
    if sel.kind == "imm":
        return np.full(len(w), int(sel.value) & (st.lanes - 1))
    return (read_scalar_bits(st, w, sel, 32) & np.uint32(st.lanes - 1)).astype(np.int64)


def build_lanes(instr: Instr):
    m = instr.mnemonic.replace("_e32", "").replace("_e64", "")
    ops = instr.operands
    if m == "v_readlane_b32":
        sdst, vsrc, sel = ops

        def readlane(st, w):
            lane = _lane_index(st, w, sel)
            write_scalar_bits(st, w, sdst.reg, st.V[w, vsrc.reg, lane], 32)
            return False
        return readlane
    if m == "v_readfirstlane_b32":
        sdst, vsrc = ops

        def readfirstlane(st, w):
            ex = st.mask_bits(w, EXEC)
            lane = np.where(ex == 0, 0, _ctz(ex))
            if vsrc.kind == "v":
                value = st.V[w, vsrc.reg, lane]
            else:
                value = read_scalar_bits(st, w, vsrc, 32)
            write_scalar_bits(st, w, sdst.reg, value, 32)
            return False
        return readfirstlane
    if m == "v_writelane_b32":
        vdst, ssrc, sel = ops

        def writelane(st, w):
            lane = _lane_index(st, w, sel)
            if ssrc.kind == "imm":
                value = np.full(len(w), int(ssrc.value) & 0xFFFFFFFF, np.uint32)
            else:
                value = read_scalar_bits(st, w, ssrc, 32)
            st.V[w, vdst.reg, lane] = value
            return False
        return writelane
    if m == "v_swap_b32":
        a, b = ops

        def swap(st, w):
            ex = st.exec_mask(w)
            va, vb = st.V[w, a.reg], st.V[w, b.reg]
            st.V[w, a.reg] = np.where(ex, vb, va)
            st.V[w, b.reg] = np.where(ex, va, vb)
            return False
        return swap
    if m in ("v_permlane16_b32", "v_permlanex16_b32"):
        return _permlane(ops, instr.mods, cross=m == "v_permlanex16_b32")
    if m in MOVREL_OFFSETS:
        return _movrel(ops, *MOVREL_OFFSETS[m])
    if m == "v_nop":
        return lambda st, w: False
    return None


def _m0_all(m0: np.ndarray) -> np.ndarray:
    return m0


def _m0_src_field(m0: np.ndarray) -> np.ndarray:
    return m0 & 0x3FF


def _m0_dst_field(m0: np.ndarray) -> np.ndarray:
    return (m0 >> 16) & 0x3FF


# mnemonic -> (offset added to the source VGPR, offset added to the destination VGPR), from M0;
# None: that operand is used as written (movreld's source may also be an SGPR or a constant)
MOVREL_OFFSETS = {
    "v_movrels_b32": (_m0_all, None),
    "v_movreld_b32": (None, _m0_all),
    "v_movrelsd_b32": (_m0_all, _m0_all),
    "v_movrelsd_2_b32": (_m0_src_field, _m0_dst_field),   # M0[9:0] source, M0[25:16] destination
}


def _movrel(ops, src_offset, dst_offset):
    """VGPR[vdst (+ offset)] = VGPR[src (+ offset)] in each enabled lane, the offsets read from M0
    per wave. Out of range (at or past the wave's VGPR count) the ISA's out-of-range GPR rule
    applies: a source reads VGPR0, a destination is not written."""
    vdst, src = ops
    fixed_source = vector_bits(src, "b32") if src_offset is None else None

    def movrel(st, w):
        w = np.asarray(w)
        count = st.V.shape[1]
        m0 = st.S[w, M0].astype(np.int64)
        if fixed_source is not None:
            values = fixed_source(st, w)
        else:
            s = src.reg + src_offset(m0)
            values = st.V[w, np.where(s < count, s, 0)]
        d = vdst.reg + (dst_offset(m0) if dst_offset is not None else np.zeros_like(m0))
        in_range = d < count
        d = np.where(in_range, d, 0)
        write = st.exec_mask(w) & in_range[:, None]
        st.V[w, d] = np.where(write, values, st.V[w, d])
        return False
    return movrel


def _permlane(ops, mods, cross: bool):
    """Each lane reads the lane of its row (permlane16) or of the other row (permlanex16) that the
    4-bit selector for its position in ssrc1 (positions 0-7) and ssrc2 (8-15) names."""
    vdst, vsrc, sel_lo, sel_hi = ops
    fetch_inactive, bound_zero = (bool(x) for x in (list(mods.get("op_sel", [])) + [0, 0])[:2])
    lane = np.arange(32)

    def permlane(st, w):
        if st.lanes != 32:
            raise Unimplemented(f"v_permlane{'x' if cross else ''}16_b32 in a wave of {st.lanes} lanes")
        sel = (read_scalar_bits(st, w, sel_lo, 32).astype(np.uint64)
               | (read_scalar_bits(st, w, sel_hi, 32).astype(np.uint64) << np.uint64(32)))
        pick = ((sel[:, None] >> (np.uint64(4) * (lane & 15).astype(np.uint64))) & np.uint64(15)).astype(np.int64)
        row = (lane >> 4) ^ 1 if cross else lane >> 4
        src = row * 16 + pick
        ex = st.exec_mask(w)
        values = np.take_along_axis(st.V[w, vsrc.reg], src, axis=1)
        ok = np.ones_like(ex) if fetch_inactive else np.take_along_axis(ex, src, axis=1)
        old = st.V[w, vdst.reg]
        result = np.where(ok, values, np.uint32(0) if bound_zero else old)
        st.V[w, vdst.reg] = np.where(ex, result, old)
        return False
    return permlane


def _ctz(x: np.ndarray) -> np.ndarray:
    """Trailing zeros of nonzero uint32 or uint64 masks."""
    one = x.dtype.type(1)
    return np.bitwise_count((x & (~x + one)) - one).astype(np.int64)
