"""What each RDNA3 (gfx1100) ALU instruction computes, as tables of numpy functions.

VECTOR_OPS and SCALAR_OPS map a mnemonic, as llvm-objdump-22 prints it without the
_e32/_e64/_dpp encoding suffix, to an `Op` (see op.py for the calling convention and the
flags). The emulator core does operand fetch, modifiers, EXEC masking and writeback.

Where the ISA guide leaves room, these choices were made (each is covered by a test):
- Transcendentals are correctly rounded from f64: within the documented 1 ULP (f32, f16) and
  2**29 ULP (v_rcp/v_rsq/v_sqrt_f64), so results can be more accurate than the hardware's.
- v_div_scale_f32/f64: when 1/denominator and the quotient are both denormal, the guide's text
  scales the denominator up by 2**64 (2**128); that overflows, so it is scaled down, which
  makes LLVM's division sequence exact. v_div_fmas post-scales by 2**+-64 (2**+-128) chosen by
  the quotient's exponent (the guide prints a fixed 2**32), v_div_fixup turns a NaN quotient
  of finite operands into a signed infinity and an underflowing quotient into a signed zero.
  With these, the compiler's f32 and f64 division sequences give the correctly rounded
  quotient for every operand pair tested, denormal and near-overflow quotients included.
- DX9-zero products are +0.0 (v_fma_dx9_zero of 0 gives +0.0 + S2); v_trig_preop_f64 of NaN is
  NaN; v_bfe_i32/s_bfe_i* take the field after an arithmetic shift — as LLVM's constant
  folder has them (test_alu_llvm_folding compares against it).
- The snorm/unorm conversions round to nearest even after clamping.
"""
from __future__ import annotations

from dataclasses import replace

from .compare import SCALAR_COMPARE, VECTOR_COMPARE
from .float16 import FLOAT16
from .float32 import FLOAT32
from .float64 import FLOAT64
from .gfx9 import GFX9
from .integer import INTEGER
from .op import DTYPES, FLAGS, Op
from .packed import PACKED
from .scalar import SCALAR_ARITH, SCALAR_BITS


def _merge(*tables: dict[str, Op]) -> dict[str, Op]:
    merged: dict[str, Op] = {}
    for table in tables:
        clash = merged.keys() & table.keys()
        if clash:
            raise ValueError(f"mnemonics defined twice: {sorted(clash)}")
        merged.update(table)
    return merged


VECTOR_OPS: dict[str, Op] = _merge(INTEGER, FLOAT32, FLOAT64, FLOAT16, PACKED, VECTOR_COMPARE, GFX9)
# gfx12's SALU float operations compute what their VALU forms compute (one value per wave); an
# f16 source is bits 15:0 of its SGPR, an f16 result is written zero-extended to 32 bits
SCALAR_FLOAT: dict[str, Op] = {f"s_{name}": FLOAT32[f"v_{name}"]
                               for name in ("cvt_f32_i32", "cvt_f32_u32", "cvt_u32_f32", "cvt_i32_f32", "add_f32",
                                            "sub_f32", "mul_f32", "fmac_f32", "fmaak_f32", "fmamk_f32", "trunc_f32",
                                            "ceil_f32", "floor_f32", "rndne_f32", "min_num_f32", "max_num_f32")}
SCALAR_FLOAT |= {f"s_{name}": FLOAT16[f"v_{name}"]
                 for name in ("cvt_f32_f16", "cvt_f16_f32", "cvt_pk_rtz_f16_f32", "add_f16", "sub_f16", "mul_f16",
                              "fmac_f16", "min_num_f16", "max_num_f16", "trunc_f16", "ceil_f16", "floor_f16",
                              "rndne_f16")}
# s_cvt_hi_f32_f16 converts bits 31:16 of its SGPR (VALU code reaches them through op_sel)
SCALAR_FLOAT["s_cvt_hi_f32_f16"] = replace(FLOAT16["v_cvt_f32_f16"],
                                           flags=FLOAT16["v_cvt_f32_f16"].flags | {"src_hi_half"})
SCALAR_FLOAT |= {f"s_cmp_{c}_{t}": VECTOR_COMPARE[f"v_cmp_{c}_{t}"]   # SCC gets the lane's bit
                 for c in ("eq", "ge", "gt", "le", "lg", "lt", "neq", "nge", "ngt", "nle", "nlg", "nlt", "o", "u")
                 for t in ("f32", "f16")}
SCALAR_OPS: dict[str, Op] = _merge(SCALAR_ARITH, SCALAR_BITS, SCALAR_COMPARE, SCALAR_FLOAT)

__all__ = ["VECTOR_OPS", "SCALAR_OPS", "Op", "DTYPES", "FLAGS"]
