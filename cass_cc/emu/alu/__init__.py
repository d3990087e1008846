"""What each RDNA3 (gfx1100) ALU instruction computes, as tables of numpy functions.

VECTOR_OPS and SCALAR_OPS map a mnemonic, as llvm-objdump-22 prints it without the
_e32/_e64/_dpp encoding suffix, to an `Op` (see op.py for the calling convention and the
flags). The emulator core does operand fetch, modifiers, EXEC masking and writeback.
"""
from __future__ import annotations

from .compare import SCALAR_COMPARE, VECTOR_COMPARE
from .float16 import FLOAT16
from .float32 import FLOAT32
from .float64 import FLOAT64
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


VECTOR_OPS: dict[str, Op] = _merge(INTEGER, FLOAT32, FLOAT64, FLOAT16, PACKED, VECTOR_COMPARE)
SCALAR_OPS: dict[str, Op] = _merge(SCALAR_ARITH, SCALAR_BITS, SCALAR_COMPARE)

__all__ = ["VECTOR_OPS", "SCALAR_OPS", "Op", "DTYPES", "FLAGS"]
