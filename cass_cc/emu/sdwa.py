"""SDWA (sub-dword addressing, GFX9 and GFX10): a VOP1/VOP2/VOPC source is one byte or word of
its register (src0_sel/src1_sel, zero- or, with sext(), sign-extended), and a result goes to one
byte or word of the destination (dst_sel) with the other bits zeroed, sign-extended from the
field or kept (dst_unused UNUSED_PAD, UNUSED_SEXT, UNUSED_PRESERVE).

GFX9's 16-bit VOP1/VOP2 results (v_add_u16_e32 ...) zero bits 31:16 of the destination: LLVM
relies on it (GCNSubtarget::zeroesHigh16BitsOfDest), so they are written as dst_sel:DWORD with
UNUSED_PAD would write them."""

from __future__ import annotations

import numpy as np

from .decode import Instr, Operand
from .fault import Unimplemented
from .operands import typed, vector_bits
from .state import WIDTH, covers_all, type_to_bits

# selector -> (shift, bits)
SELECT = {"BYTE_0": (0, 8), "BYTE_1": (8, 8), "BYTE_2": (16, 8), "BYTE_3": (24, 8),
          "WORD_0": (0, 16), "WORD_1": (16, 16), "DWORD": (0, 32)}
U32 = np.uint32


def is_sdwa(instr: Instr) -> bool:
    return instr.mnemonic.endswith("_sdwa")


def zeroes_high_half(instr: Instr, dst_type: str) -> bool:
    """A GFX9 VOP1/VOP2 (or its VOP3 form) 16-bit result, which clears bits 31:16; LLVM prints
    those with an encoding suffix. Of the VOP3-only ops (v_mad_u16, v_fma_f16 ...), which keep
    them, the GFX8 forms LLVM calls *_legacy_* clear them too."""
    name = instr.text.split(None, 1)[0]
    return (instr.isa == "gfx9" and WIDTH.get(dst_type) == 16
            and (name.endswith(("_e32", "_e64")) or "_legacy_" in name))


def _select(name) -> tuple[int, int]:
    found = SELECT.get(str(name))
    if found is None:
        raise Unimplemented(f"SDWA selector {name}")
    return found


def _extend(x: np.ndarray, shift: int, bits: int, signed: bool) -> np.ndarray:
    if bits == 32:
        return x
    x = (x >> U32(shift)) & U32((1 << bits) - 1)
    if signed:
        sign = U32(1 << (bits - 1))
        x = (x ^ sign) - sign          # wraps in uint32: the sign-extended value
    return x


def sdwa_source(s: Operand, t: str, i: int, mods: dict):
    """Reader st, w -> (k, lanes) values of type t: the selected field of the source register."""
    shift, bits = _select(mods.get(f"src{i}_sel", "DWORD"))
    raw = vector_bits(s, "b32")
    narrow = WIDTH[t] == 16
    if WIDTH[t] > 32:
        raise Unimplemented(f"SDWA source of type {t}")

    def read(st, w):
        x = _extend(raw(st, w), shift, bits, s.sext)
        return typed(x.astype(np.uint16) if narrow else x, t, s.neg, s.abs)
    return read


def sdwa_writer(dst: Operand, t: str, mods: dict):
    """Writer st, w, values, mask: the result's low bits into the dst_sel field."""
    if dst.kind != "v" or WIDTH[t] > 32:
        raise Unimplemented(f"SDWA destination {dst.name or dst.kind} of type {t}")
    shift, bits = _select(mods.get("dst_sel", "DWORD"))
    unused = str(mods.get("dst_unused", "UNUSED_PAD"))
    if unused not in ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"):
        raise Unimplemented(f"SDWA dst_unused {unused}")
    field = U32(((1 << bits) - 1) << shift) if bits < 32 else U32(0xFFFFFFFF)
    reg = dst.reg

    def write(st, w, values, mask):
        result = type_to_bits(values, t, mask.shape).astype(U32)
        placed = (result << U32(shift)) & field if bits < 32 else result
        old = st.V[:, reg][w]
        if unused == "UNUSED_PRESERVE":
            placed = placed | (old & ~field)
        elif unused == "UNUSED_SEXT" and bits < 32:
            top = (placed >> U32(shift + bits - 1)) & U32(1)
            placed = placed | np.where(top == 1, ~field & ~U32((1 << shift) - 1), U32(0))
        st.V[:, reg][w] = placed if covers_all(mask) else np.where(mask, placed, old)
    return write
