"""The record that describes what one RDNA3 ALU instruction computes.

Every family module (scalar, integer, float32, float64, float16, compare) maps gfx1100
mnemonics, spelled as llvm-objdump-22 prints them without the _e32/_e64/_dpp suffix, to an
`Op`. The emulator core fetches the operands (applying neg/abs/op_sel), calls `fn` on numpy
arrays shaped (waves, 32) for vector ops or (waves,) for scalar ops, and writes the result
back under EXEC.

Sources come in the order the disassembly lists them, so v_fmamk_f32 d, a, K, b and
v_fmaak_f32 d, a, b, K are both fma over their three listed sources. A VOPD half
(v_dual_mul_f32 ...) is the op of the same name without "dual_" (v_mul_f32).

Operand and result types, and the numpy dtype the arrays carry (`DTYPES`):
  f16 f32 f64          np.float16 / np.float32 / np.float64
  bf16                 np.uint16 (raw bits; numpy has no bfloat16)
  i8 u8 i16 u16 i32 u32 i64 u64   the numpy integer of that width and signedness
  b16 b32 b64          np.uint16 / np.uint32 / np.uint64 (untyped bits)
  pk_f16 pk_i16 pk_u16 np.uint32: two 16-bit values, element 0 in bits 15:0
  pk_f32               np.uint64: two f32 in a register pair (CDNA), element 0 in bits 31:0
A 64-bit operand arrives combined from its register pair (low dword first).
SOPK immediates are typed i16 (sign-extended by the instruction) or u16 (zero-extended).

Flags (the extra keyword arguments of `fn` and the shape of its result):
  cmp          the result is a bool array: the lane mask bit (vector) or SCC (scalar)
  cmpx         a v_cmpx_*: the bool result is written to EXEC (and nowhere else on gfx11)
  carry_in     fn takes carry= bool array (VCC in VOP2, the SGPR in src2 of VOP3)
  carry_out    fn returns (result, bool array) for VCC (VOP2) or the VOP3SD sdst
  vcc_in       fn takes vcc= bool array, always read from VCC (v_div_fmas_*)
  mask_in      fn takes mask= bool array (v_cndmask_*: VCC or the SGPR in src2)
  scc_in       fn takes scc= bool array (s_cselect_*, s_cmov*, s_addc/s_subb)
  scc_out      scalar: fn returns (result, scc bool array)
  lane_id      fn takes lane= uint32 array of lane numbers 0..31 (v_mbcnt_*)
  clamp_aware  fn takes clamp= bool (the VOP3 clamp bit) and applies it itself;
               without this flag the core applies float clamp/omod itself
  dst_in       the last source is the current value of the destination register
               (v_fmac_*, v_dot2acc_*, s_addk_i32, s_bitset*, ...)
  mix          v_fma_mix*: each source is f32, or f16 converted to f32 when its op_sel_hi bit
               is set (op_sel picks the half); the core does that before calling fn
  iu_signed    v_dot4_i32_iu8/v_dot8_i32_iu4: fn takes signed=(bool, bool), the neg_lo bits
               of src0 and src1, which on these ops mean "A/B elements are signed"
  rounding     fn takes round= int, the MODE.FP_ROUND field of the result's type (bits 1:0 for
               f32, 3:2 for f64 and f16): 0 nearest even, 1 towards +inf, 2 towards -inf,
               3 towards zero (alu/rounding.py has the helpers)
  denormals    the core applies MODE.FP_DENORM (bits 5:4 for f32, 7:6 for f64 and f16) to the
               float sources (flushed unless bit 0 of the field) and the float result
               (flushed unless bit 1); without the flag denormals pass through
  hi_half      v_fma_mixhi_f16: the f16 result goes to bits 31:16 of the destination,
               keeping bits 15:0 (without it a f16 result of a mix op goes to bits 15:0)
  src_hi_half  scalar (s_cvt_hi_f32_f16): the 16-bit source is bits 31:16 of its SGPR

Floating point follows the MODE register, which the kernel descriptor initialises (its
FLOAT_ROUND_MODE_* and FLOAT_DENORM_MODE_* fields) and s_round_mode, s_denorm_mode and
s_setreg change: ops flagged "rounding" (add, sub, mul, fma, float conversions) and "denormals"
(those, and min/max, float compares, floor/ceil/trunc/rndne/fract, ldexp and the division
helpers) honour it; the rest round to nearest even and keep denormals, the defaults of a
gfx1100 compute kernel (FLOAT_DENORM_MODE for f32 is "keep" unless the kernel was built with
-fgpu-flush-denormals-to-zero). IEEE mode is on (signalling NaNs are quieted by min/max).
The f32 transcendental ops (v_rcp/v_rsq/v_sqrt/v_exp/v_log_f32) always flush denormals, as
the ISA documents.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

DTYPES: dict[str, type] = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": np.uint16,
    "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
    "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
    "b16": np.uint16, "b32": np.uint32, "b64": np.uint64,
    "pk_f16": np.uint32, "pk_i16": np.uint32, "pk_u16": np.uint32,
    "pk_f32": np.uint64,
}

FLAGS = frozenset({
    "cmp", "cmpx", "carry_in", "carry_out", "vcc_in", "mask_in", "scc_in", "scc_out",
    "lane_id", "clamp_aware", "dst_in", "mix", "hi_half", "src_hi_half", "iu_signed", "rounding", "denormals",
})


@dataclass(frozen=True)
class Op:
    srcs: tuple[str, ...]
    dst: str | None
    fn: Callable
    flags: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown_types = [t for t in (*self.srcs, self.dst) if t is not None and t not in DTYPES]
        if unknown_types:
            raise ValueError(f"unknown operand type(s) {unknown_types}")
        if not self.flags <= FLAGS:
            raise ValueError(f"unknown flag(s) {sorted(self.flags - FLAGS)}")

    @property
    def bare(self) -> Callable:
        """fn without op()'s silencing of numpy's float warnings, for callers that run with them
        off already (cass_cc.emu.launch): entering np.errstate costs more than many of the ops."""
        return getattr(self.fn, "unsilenced", self.fn)


_FLOAT_TYPES = frozenset({"f16", "f32", "f64", "bf16", "pk_f16", "pk_f32"})


def op(srcs: str, dst: str | None, fn: Callable, *flags: str) -> Op:
    """Shorthand used by the tables: op("f32 f32", "f32", np.add). For float ops, overflow to
    inf and NaN arithmetic are normal results, so numpy's floating-point warnings are
    silenced around them (integer array arithmetic wraps without warnings anyway)."""
    types = srcs.split()
    if _FLOAT_TYPES & {*types, dst}:
        def quiet(*args, **kwargs):
            with np.errstate(all="ignore"):
                return fn(*args, **kwargs)
        quiet.__name__ = getattr(fn, "__name__", "op")
        quiet.unsilenced = fn
        return Op(tuple(types), dst, quiet, frozenset(flags))
    return Op(tuple(types), dst, fn, frozenset(flags))


def with_flags(table: dict[str, Op], names, *flags: str) -> None:
    """Add flags to the named entries of a table (e.g. "denormals" to a family's float ops)."""
    for name in names:
        table[name] = replace(table[name], flags=table[name].flags | frozenset(flags))
