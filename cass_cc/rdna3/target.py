"""LLVM IR -> RDNA3 assembly text with llvmlite's AMDGPU backend (LLVM 22).

Code generation mutates the module, so every emit parses the text afresh (DESIGN.md, facts)."""

from __future__ import annotations

import functools
import re
import subprocess
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


@functools.lru_cache(maxsize=None)
def known_processors() -> frozenset[str]:
    """The AMDGPU processors llvm-mc knows (`-mcpu=help`)."""
    from .. import toolchain
    proc = subprocess.run([toolchain.path("llvm-mc"), f"-triple={TRIPLE}", "-mcpu=help"],
                          capture_output=True, text=True, timeout=60)
    return frozenset(m.group(1) for m in re.finditer(r"^\s+(gfx[\w-]+)\s+-", proc.stdout + proc.stderr, re.M))


def check_offload_arch(offload_arch: str) -> None:
    """An error unless `offload_arch` is an AMDGPU processor that runs 32-lane waves (RDNA):
    CUDA's warps are 32 threads, and LLVM aborts the process on a processor it does not know."""
    if not re.fullmatch(r"gfx1\d{3}", offload_arch):
        raise CassError(f"offload arch '{offload_arch}' is not supported: CUDA's 32-thread warps need "
                        f"an RDNA processor with wave32 (gfx10xx, gfx11xx, gfx12xx; default gfx1100)")
    known = known_processors()
    if known and offload_arch not in known:
        raise CassError(f"offload arch '{offload_arch}' is not a processor LLVM knows "
                        f"(e.g. {', '.join(sorted(p for p in known if p.startswith('gfx11')))})")


def emit_assembly(ir_text: str, offload_arch: str = "gfx1100", opt: int = 2) -> str:
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
