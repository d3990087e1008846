"""Kernels translated through the translation cache, and the files a translation leaves: per kernel
its SASS, LLVM IR, RDNA3 assembly and object, per translation unit the linked code object and
the report. Shared by `cass-cc translate` and cass-nvcc's --cass-save-temps."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .fsutil import atomic_write_bytes, atomic_write_text
from .report import Report
from .unit import ARTIFACTS, KERNEL_ARTIFACTS, KernelUnit


def translate_unit(unit: KernelUnit, cache=None) -> KernelUnit:
    """Run the kernel stages (KERNEL_STAGES: extract ... assemble) over one kernel, from the cache
    when it holds it. A pass refusing the kernel marks it failed with the pass's reason
    (cass_cc.pipeline); a missing tool or a failing pass is an error (ToolMissing,
    InternalError), never a failed kernel to fall back from."""
    if cache is not None and cache.lookup(unit):
        return unit
    from .passes import KERNEL_STAGES  # llvmlite and lark: only when a kernel is translated
    from .pipeline import run_pipeline
    run_pipeline(unit, KERNEL_STAGES)
    if cache is not None:
        cache.store(unit)
    return unit


def link_units(units: list[KernelUnit], cache=None, dump_after: str | None = None) -> bytes | None:
    """The translation unit's stages (TU_STAGES: the link, then verify on the code object it made)
    over those of `units` that translated; a kernel that verify refuses is left out and the rest
    linked again (cass_cc.pipeline.run_units). The code object, None when no kernel is in it."""
    ok = [u for u in units if u.status == "ok"]
    if not ok:
        return None
    from .passes import TU_STAGES  # the link and verify only: a warm build imports no other pass
    from .pipeline import run_units
    run_units(ok, TU_STAGES, dump_after, cache=cache)
    return next((u.code_object for u in ok if u.status == "ok"), None)


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
    """Per kernel, what each kernel stage made (<kernel>.<extension>, cass_cc.unit.ARTIFACTS); per
    translation unit, its code object (<source>.hsaco, <source>.N.hsaco when there are several)
    and the report, whose path is returned. A kernel has no code object of its own: it is linked
    once, with its translation unit (as nvcc -keep keeps one cubin per translation unit)."""
    os.makedirs(outdir, exist_ok=True)
    for u in units:
        stem = os.path.join(outdir, file_stem(u.name))
        for a in KERNEL_ARTIFACTS:
            data = getattr(u, a.field)
            if data:
                (atomic_write_bytes if a.binary else atomic_write_text)(f"{stem}.{a.extension}", data)
    extension = ARTIFACTS["link"].extension
    for n, code_object in enumerate(combined):
        suffix = f".{extension}" if len(combined) == 1 else f".{n}.{extension}"
        atomic_write_bytes(os.path.join(outdir, Path(source).stem + suffix), code_object)
    report = Report(source=source, route="binary", offload_arch=offload_arch,
                    kernels=[u.report_entry() for u in units], diagnostics=diagnostics,
                    nvidia_targets=sorted({u.sm_arch for u in units if u.sm_arch}))
    path = os.path.join(outdir, Path(source).stem + ".cass-report.json")
    report.write(path)
    return path
