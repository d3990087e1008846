"""Kernels translated through the translation cache, and the files a translation leaves: per kernel
its SASS, LLVM IR, RDNA3 assembly and code object, per translation unit the linked code object and
the report. Shared by `cass-cc translate` and cass-nvcc's --cass-save-temps."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .fsutil import atomic_write_bytes, atomic_write_text
from .report import Report
from .unit import KernelUnit


def translate_unit(unit: KernelUnit, cache=None) -> KernelUnit:
    """Run the lift pipeline over one kernel (from the cache when it holds it). A pass refusing
    the kernel marks it failed with the pass's reason (cass_cc.pipeline); a missing tool or a
    failing pass is an error (ToolMissing, InternalError), never a failed kernel to fall back from."""
    if cache is not None and cache.lookup(unit):
        return unit
    from .passes import LIFT_PIPELINE  # llvmlite and lark: only when a kernel is translated
    from .pipeline import run_pipeline
    run_pipeline(unit, LIFT_PIPELINE)
    if cache is not None:
        cache.store(unit)
    return unit



def file_stem(name: str) -> str:
    """A file name for a kernel: its mangled name, shortened with a digest when too long."""
    safe = "".join(c if c.isalnum() or c in "_-.$" else "_" for c in name)
    return safe if len(safe) <= 120 else safe[:100] + "-" + hashlib.sha256(name.encode()).hexdigest()[:12]



def by_cubin(units: list[KernelUnit]) -> list[list[KernelUnit]]:
    """Units grouped by the cubin (translation unit) they came from, in file order."""
    groups: dict[int, list[KernelUnit]] = {}
    for u in units:
        groups.setdefault(id(getattr(u.kernel, "cubin", None)), []).append(u)
    return list(groups.values())



def write_outputs(units: list[KernelUnit], outdir: str, source: str, offload_arch: str,
                  combined: list[bytes], diagnostics: list[str]) -> str:
    os.makedirs(outdir, exist_ok=True)
    for u in units:
        stem = os.path.join(outdir, file_stem(u.name))
        for suffix, text in ((".sass", u.sass_text), (".ll", u.llvm_ir), (".s", u.asm)):
            if text:
                atomic_write_text(stem + suffix, text)
        if u.code_object:
            atomic_write_bytes(stem + ".hsaco", u.code_object)
    for n, code_object in enumerate(combined):
        suffix = ".hsaco" if len(combined) == 1 else f".{n}.hsaco"
        atomic_write_bytes(os.path.join(outdir, Path(source).stem + suffix), code_object)
    report = Report(source=source, route="binary", offload_arch=offload_arch,
                    kernels=[u.report_entry() for u in units], diagnostics=diagnostics,
                    nvidia_targets=sorted({u.sm_arch for u in units}))
    path = os.path.join(outdir, Path(source).stem + ".cass-report.json")
    report.write(path)
    return path
