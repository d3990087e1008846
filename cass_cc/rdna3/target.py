"""LLVM IR -> RDNA3 assembly text with llvmlite's AMDGPU backend (LLVM 22).

Code generation mutates the module, so every emit parses the text afresh (DESIGN.md, facts)."""

from __future__ import annotations

import functools
import re
import threading

from ..errors import CassError
from ..targets import DEFAULT, target

TRIPLE = "amdgcn-amd-amdhsa"
_lock = threading.Lock()  # one LLVM context user at a time


def features(offload_arch: str) -> str:
    """Subtarget features of the target (cass_cc/targets.py)."""
    return target(offload_arch).llvm_features


@functools.lru_cache(maxsize=None)
def _llvm():
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


def check_offload_arch(offload_arch: str) -> None:
    """An error unless cass-cc can lift CUDA kernels for `offload_arch`: a target of the table
    (LLVM aborts the process on a processor it does not know)."""
    target(offload_arch)


def emit_assembly(ir_text: str, offload_arch: str = DEFAULT, opt: int = 2) -> str:
    check_offload_arch(offload_arch)
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
