"""LLVM IR -> RDNA3 assembly text with llvmlite's AMDGPU backend (LLVM 22).

Code generation mutates the module, so every emit parses the text afresh (DESIGN.md, facts)."""

from __future__ import annotations

import functools
import re
import threading

from ..errors import CassError

TRIPLE = "amdgcn-amd-amdhsa"
_lock = threading.Lock()  # one LLVM context user at a time


def features(offload_arch: str) -> str:
    """Subtarget features: RDNA (gfx10+) runs CUDA's 32-lane warps as wave32."""
    return "+wavefrontsize32" if offload_arch.startswith("gfx1") else ""


@functools.lru_cache(maxsize=None)
def _llvm():
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


def emit_assembly(ir_text: str, offload_arch: str = "gfx1100", opt: int = 2) -> str:
    llvm = _llvm()
    with _lock:
        try:
            module = llvm.parse_assembly(ir_text)
            module.verify()
        except RuntimeError as e:
            lines = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
            raise CassError(f"invalid LLVM IR: {' '.join(lines[:2])}") from None
        if module.triple and module.triple != TRIPLE:
            raise CassError(f"LLVM module targets '{module.triple}', expected '{TRIPLE}'")
        module.triple = TRIPLE
        try:
            target = llvm.Target.from_triple(TRIPLE)
        except RuntimeError as e:
            raise CassError(f"this llvmlite has no AMDGPU target: {e}") from None
        machine = target.create_target_machine(cpu=offload_arch, features=features(offload_arch),
                                               opt=opt, reloc="pic", codemodel="default")
        try:
            return machine.emit_assembly(module)
        except RuntimeError as e:
            raise CassError(f"LLVM code generation for {offload_arch} failed: {e}") from None


_INSTRUCTION = re.compile(r"^\s+(?:[sv]_|global_|flat_|scratch_|ds_|buffer_|image_|exp\b|lds_)\w*")


def count_instructions(asm: str) -> int:
    """Machine instructions in an assembly text (directives, labels and comments excluded)."""
    return sum(1 for line in asm.splitlines() if _INSTRUCTION.match(line))
