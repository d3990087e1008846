"""codegen: unit.llvm_ir -> unit.asm, RDNA3 assembly for unit.offload_arch (llvmlite, LLVM 22)."""

from __future__ import annotations

from cass_cc.errors import CassError, FailedCheck, ToolMissing, ToolVerdict
from cass_cc.rdna3.target import count_instructions, emit_assembly
from cass_cc.unit import KernelUnit

NAME = "codegen"


def run(unit: KernelUnit) -> KernelUnit:
    if not unit.llvm_ir:
        raise FailedCheck("no LLVM IR to compile")
    try:
        unit.asm = emit_assembly(unit.llvm_ir, unit.offload_arch)
    except ToolMissing:  # the install hint, never a refusal to fall back from
        raise
    except CassError as e:
        raise ToolVerdict(e.message) from None
    unit.rdna3_instructions = count_instructions(unit.asm)
    return unit
