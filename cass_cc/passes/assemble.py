"""assemble: unit.asm -> unit.obj with llvm-mc (the text is a product: llvm-mc must accept it)."""

from __future__ import annotations

from cass_cc.errors import CassError, ToolMissing, ToolVerdict
from cass_cc.rdna3.tools import assemble
from cass_cc.unit import KernelUnit

NAME = "assemble"


def run(unit: KernelUnit) -> KernelUnit:
    try:
        unit.obj = assemble(unit.asm, unit.offload_arch)
    except ToolMissing:  # the install hint, never a refusal to fall back from
        raise
    except CassError as e:
        raise ToolVerdict(e.message) from None
    return unit
