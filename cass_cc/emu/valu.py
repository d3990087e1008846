"""Vector ALU instructions (VOP1, VOP2, VOP3, VOP3SD, VOP3P, VOPC, DPP, VOPD).

The arithmetic comes from the ALU tables (cass_cc.emu.alu.VECTOR_OPS, an `Op` per mnemonic);
this module fetches operands (registers, constants, neg/abs, op_sel, DPP routing), applies
EXEC, output modifiers and clamp, and routes results to VGPRs, VCC/SGPRs or EXEC.

A builder returns a Valu: `run(st, w)`, and `compute(st, w) -> commit(st, w)` so VOPD can read
both halves' sources before either half writes.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

import numpy as np

from .alu.ieee import flush_denormals
from .alu.op import DTYPES, Op
from .decode import Instr, Operand
from .dpp import Route
from .fault import Unimplemented
from .operands import typed, vector_bits, vector_writer
from .sdwa import is_sdwa, sdwa_source, sdwa_writer, zeroes_high_half
from .state import DEFAULT_MODE, EXEC, VCC, WIDTH, constant_bits, only, pack_mask

SUFFIX = re.compile(r"(_e32|_e64|_dpp|_sdwa)+$")
LANE_IDS = np.arange(64, dtype=np.uint32)     # a wave's lane numbers: the first 32 or all 64
FLOAT_TYPES = ("f16", "f32", "f64")
MODE_SHIFT = {"f32": 0, "f64": 2, "f16": 2}    # where a type's FP_ROUND field starts in MODE (FP_DENORM: +4)
DPP_CONTROLS = ("quad_perm", "dpp8", "row_shl", "row_shr", "row_ror", "row_mirror", "row_half_mirror",
                "row_share", "row_xmask", "wave_shl", "wave_shr", "wave_rol", "wave_ror", "row_bcast")


def base_name(mnemonic: str) -> str:
    return SUFFIX.sub("", mnemonic)


class Valu(NamedTuple):
    """The executor of one VALU instruction, and its two halves for VOPD, which reads both
    instructions' sources before either writes."""
    run: Callable           # run(st, w) -> False (the pc is the scheduler's to advance)
    compute: Callable       # compute(st, w) -> commit(st, w)


def build_valu(instr: Instr, op: Op) -> Valu:
    """The executor of one VALU instruction described by `op`."""
    ops = list(instr.operands)
    flags = op.flags
    mods = instr.mods
    vop3p = instr.mnemonic.startswith(("v_pk_", "v_dot", "v_fma_mix")) or "op_sel_hi" in mods
    nsrc = len(op.srcs) - (1 if "dst_in" in flags else 0)

    # destinations by operand position
    dst = sdst = None
    if "cmp" in flags and "cmpx" not in flags:
        sdst, ops = ops[0], ops[1:]
    elif "cmpx" in flags:
        if len(ops) == nsrc + 1 and ops[0].kind == "s":
            sdst, ops = ops[0], ops[1:]     # GFX9's v_cmpx writes its result to EXEC and to VCC or an SGPR pair
    elif op.dst is not None:
        dst, ops = ops[0], ops[1:]
        if "carry_out" in flags:
            sdst, ops = ops[0], ops[1:]
    srcs, extra = ops[:nsrc], ops[nsrc:]
    if len(srcs) != nsrc:
        raise Unimplemented(f"expected {nsrc} sources")
    mask_reg = VCC
    if ("carry_in" in flags or "mask_in" in flags) and extra:
        mask_reg = extra[0].reg if extra[0].kind == "s" else None
        if mask_reg is None:
            raise Unimplemented("lane mask operand must be an SGPR")

    dst_hi = not vop3p and "mix" not in flags and _vop3_halves(instr.mnemonic, op, nsrc, mods.get("op_sel"))
    sdwa = is_sdwa(instr)
    readers = [sdwa_source(s, t, i, mods) if sdwa else _source(s, t, i, mods, vop3p, "mix" in flags)
               for i, (s, t) in enumerate(zip(srcs, op.srcs))]
    if "dst_in" in flags:
        readers.append(_source(dst, op.srcs[-1], len(srcs), {}, False, False))
    route = Route(mods) if any(k in mods for k in DPP_CONTROLS) else None
    writer = None
    if dst is not None:
        if "mix" in flags and op.dst == "f16":       # v_fma_mixlo_f16 / v_fma_mixhi_f16
            dst = Operand("v", dst.reg, hi="hi_half" in flags)
        if dst_hi:                                   # bits 31:16, keeping 15:0
            writer = vector_writer(Operand("v", dst.reg, hi=True), op.dst)
        elif sdwa or zeroes_high_half(instr, op.dst):
            writer = sdwa_writer(dst, op.dst, mods if sdwa else {})
        else:
            writer = vector_writer(dst, op.dst)
    post = _output_modifiers(op, mods)
    fn = op.bare       # launch() runs with numpy's float warnings off
    neg_lo = list(mods.get("neg_lo", [])) + [0, 0]
    signed = (bool(neg_lo[0]), bool(neg_lo[1]))      # v_dot*_iu*: neg_lo marks signed A/B
    uses_mode = "rounding" in flags or "denormals" in flags
    round_shift = MODE_SHIFT.get(op.dst, 0)
    flushed_srcs = [(i, MODE_SHIFT[t] + 4) for i, t in enumerate(op.srcs) if t in MODE_SHIFT] \
        if "denormals" in flags else []
    result_denorm_shift = MODE_SHIFT[op.dst] + 4 if "denormals" in flags and op.dst in MODE_SHIFT else None

    # what fn takes besides the sources, decided once: lane masks read per call, constants
    mask_args = [(name, reg) for flag, name, reg in (("carry_in", "carry", mask_reg), ("mask_in", "mask", mask_reg),
                                                     ("vcc_in", "vcc", VCC)) if flag in flags]
    static_kwargs = {}
    if "clamp_aware" in flags:
        static_kwargs["clamp"] = bool(mods.get("clamp", False))
    if "iu_signed" in flags:
        static_kwargs["signed"] = signed
    rounds, lane_ids = "rounding" in flags, "lane_id" in flags
    takes_kwargs = bool(mask_args or static_kwargs or rounds or lane_ids)
    is_cmpx, is_cmp, has_carry_out = "cmpx" in flags, "cmp" in flags, "carry_out" in flags
    if is_cmp:
        post = None

    def evaluate(st, w, mode: int):
        """(result, carry or None, lanes to write) of the waves w, which share `mode`."""
        exec_mask = st.exec_mask(w)
        values = [r(st, w) for r in readers]
        write = exec_mask
        if route is not None:
            values[0], write = route.apply(values[0], exec_mask)
        for i, shift in flushed_srcs:
            if not (mode >> shift) & 1:
                values[i] = flush_denormals(values[i])
        if takes_kwargs:
            kwargs = dict(static_kwargs)
            for name, reg in mask_args:
                kwargs[name] = st.sgpr_mask(w, reg)
            if rounds:
                kwargs["round"] = (mode >> round_shift) & 3
            if lane_ids:
                kwargs["lane"] = np.broadcast_to(LANE_IDS[:exec_mask.shape[1]], exec_mask.shape)
            result = fn(*values, **kwargs)
        else:
            result = fn(*values)
        carry = None
        if has_carry_out:
            result, carry = result
        if post is not None:
            result = post(result)
        if result_denorm_shift is not None and not (mode >> result_denorm_shift) & 2:
            result = flush_denormals(np.asarray(result))
        return result, carry, write

    def store(st, w, result, carry, write) -> None:
        if is_cmpx:
            bits = pack_mask(only(np.asarray(result, bool), write))
            st.write_mask(w, EXEC, bits)
            if sdst is not None:
                st.write_mask(w, sdst.reg, bits)
        elif is_cmp:
            st.write_mask(w, sdst.reg, pack_mask(only(np.asarray(result, bool), write)))
        elif writer is not None:
            writer(st, w, result, write)
        if carry is not None:
            st.write_mask(w, sdst.reg, pack_mask(only(np.asarray(carry, bool), write)))

    def compute(st, w):
        if not uses_mode:
            done = evaluate(st, w, DEFAULT_MODE)
        elif not st.mode_split:
            done = evaluate(st, w, int(st.mode[w[0]]))
        else:
            modes = st.mode[w]                 # waves in different MODEs: one group per MODE
            parts = [(g, evaluate(st, g, int(m))) for m in np.unique(modes) for g in [w[modes == m]]]

            def commit_parts(st, w):
                for g, part in parts:
                    store(st, g, *part)
            return commit_parts
        return lambda st, w: store(st, w, *done)

    def run(st, w) -> bool:
        if not uses_mode:
            store(st, w, *evaluate(st, w, DEFAULT_MODE))
        elif not st.mode_split:
            store(st, w, *evaluate(st, w, int(st.mode[w[0]])))
        else:
            compute(st, w)(st, w)
        return False
    return Valu(run, compute)


def _vop3_halves(mnemonic: str, op: Op, nsrc: int, op_sel) -> bool:
    """A VOP3 op_sel (GFX9/GFX10 print it for 16-bit operands): bit i picks the high half of
    source i, the last bit writes the result to the high half (returned). A bit set for an
    operand that is not 16-bit is refused."""
    if not op_sel or not any(op_sel):
        return False
    for i, bit in enumerate(op_sel):
        if not bit:
            continue
        if i < nsrc and WIDTH[op.srcs[i]] == 16:
            continue
        if i == len(op_sel) - 1 and op.dst is not None and WIDTH[op.dst] == 16:
            return True
        raise Unimplemented(f"{mnemonic} op_sel bit {i} on an operand that is not 16-bit")
    return False


def _source(s: Operand, t: str, i: int, mods: dict, vop3p: bool, mix: bool):
    """Reader st, w -> (k, lanes) values of type t, with modifiers applied."""
    def pick(name, default):
        value = mods.get(name)
        return bool(value[i]) if isinstance(value, list) and i < len(value) else default

    if mix:
        return _mix_source(s, i, pick)
    if t == "pk_f32":
        return _pk_f32_source(s, pick)
    if t.startswith("pk_") and vop3p:
        raw = vector_bits(s, t)
        sel_lo, sel_hi = pick("op_sel", False), pick("op_sel_hi", True)
        neg_lo = pick("neg_lo", False) and t == "pk_f16"
        neg_hi = pick("neg_hi", False) and t == "pk_f16"

        def read(st, w):
            x = raw(st, w)
            lo = (x >> np.uint32(16)) if sel_lo else (x & np.uint32(0xFFFF))
            hi = (x >> np.uint32(16)) if sel_hi else (x & np.uint32(0xFFFF))
            lo = lo ^ np.uint32(0x8000) if neg_lo else lo
            hi = hi ^ np.uint32(0x8000) if neg_hi else hi
            return (lo & np.uint32(0xFFFF)) | (hi << np.uint32(16))
        return read
    neg, abs_ = s.neg, s.abs
    if vop3p:            # a non-packed source of a VOP3P op: neg_lo is neg, neg_hi is abs
        neg, abs_ = pick("neg_lo", neg), pick("neg_hi", abs_)
    if WIDTH[t] == 16 and s.kind == "v" and pick("op_sel", False):   # VOP3P, or VOP3's 16-bit halves
        s = Operand(s.kind, s.reg, s.count, s.value, s.is_float, hi=True)
    raw = vector_bits(s, t)
    if not (neg or abs_) and WIDTH[t] >= 16:       # the common case: the bits, viewed as the type
        dtype = np.dtype(DTYPES[t])
        if s.kind == "v" and WIDTH[t] == 32:        # the commonest: one VGPR, one indexing
            reg = s.reg
            return (lambda st, w: st.V[:, reg][w]) if dtype == np.uint32 else (lambda st, w: st.V[:, reg][w].view(dtype))
        return lambda st, w: raw(st, w).view(dtype)
    return lambda st, w: typed(raw(st, w), t, neg, abs_)


def _pk_f32_source(s: Operand, pick):
    """A register pair of two f32: element 0 is the dword op_sel picks, element 1 the dword
    op_sel_hi picks (default: as stored); neg_lo/neg_hi negate them."""
    sel_lo, sel_hi = pick("op_sel", False), pick("op_sel_hi", True)
    if s.kind == "imm":
        # a constant is a dword: LLVM gives it to both elements with op_sel and op_sel_hi 0 (what
        # the upper dword of a constant register pair holds is not needed, nor known here)
        if sel_lo or sel_hi and not (s.value == 0 and not s.is_float):
            raise Unimplemented(f"packed f32 constant {s.value} in its upper dword")
        value = np.uint64(constant_bits(s, "f32"))
        both = (value | (value << np.uint64(32))) ^ np.uint64((0x80000000 if pick("neg_lo", False) else 0)
                                                               | (0x80000000 << 32 if pick("neg_hi", False) else 0))
        return lambda st, w: np.full((len(w), st.lanes), both, np.uint64)
    if s.kind != "v" and s.kind != "s":
        raise Unimplemented(f"packed f32 source {s.name or s.kind}")
    raw = vector_bits(s, "b64")
    neg_lo, neg_hi = pick("neg_lo", False), pick("neg_hi", False)
    low, sign = np.uint64(0xFFFFFFFF), np.uint64(0x80000000)

    def read(st, w):
        x = raw(st, w)
        lo = (x >> np.uint64(32)) if sel_lo else (x & low)
        hi = (x >> np.uint64(32)) if sel_hi else (x & low)
        lo = lo ^ sign if neg_lo else lo
        hi = hi ^ sign if neg_hi else hi
        return lo | (hi << np.uint64(32))
    return read


def _mix_source(s: Operand, i: int, pick):
    """v_fma_mix*: an f32 source, or the f16 half op_sel picks converted to f32 when op_sel_hi."""
    as_f16 = pick("op_sel_hi", False)
    neg, abs_ = pick("neg_lo", s.neg), pick("neg_hi", s.abs)
    if as_f16:
        raw = vector_bits(Operand(s.kind, s.reg, s.count, s.value, s.is_float, hi=pick("op_sel", False)), "f16")
        return lambda st, w: typed(raw(st, w), "f16", neg, abs_).astype(np.float32)
    raw = vector_bits(s, "f32")
    return lambda st, w: typed(raw(st, w), "f32", neg, abs_)


def _output_modifiers(op: Op, mods: dict):
    """omod (mul:2, mul:4, div:2) and clamp for float results the op does not clamp itself."""
    if op.dst not in FLOAT_TYPES or "clamp_aware" in op.flags and not mods.get("mul") and not mods.get("div"):
        return None
    scale = float(mods.get("mul", 1)) / float(mods.get("div", 1))
    clamp = bool(mods.get("clamp", False)) and "clamp_aware" not in op.flags
    if scale == 1.0 and not clamp:
        return None
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[op.dst]

    def post(result):
        r = np.asarray(result, dtype)
        if scale != 1.0:
            r = (r * dtype(scale)).astype(dtype)
        if clamp:
            r = np.where(np.isnan(r), dtype(0), np.clip(r, dtype(0), dtype(1))).astype(dtype)
        return r
    return post
