"""Running a list of passes over KernelUnits, with timing, dumps and refusals.

Two kinds of pass (LLVM's function and module passes): a kernel pass is a module with NAME and
run(unit) -> unit; a translation-unit pass (the link) has NAME and run_units(units) -> the artifact
they share, which the pipeline puts on every unit, in the field that cass_cc.unit.ARTIFACTS names
for the pass. Passes run in order, each over every unit still ok, so the passes after a
translation-unit pass (verify) check what that pass made for the whole translation unit."""

from __future__ import annotations

import sys
import time
from types import ModuleType
from typing import Callable, Sequence

from .errors import InternalError, Refusal, ToolMissing
from .unit import ARTIFACTS, KernelUnit

Pass = ModuleType  # a module with NAME: str and run(unit) -> unit, or run_units(units) -> artifact
Dump = Callable[[str, KernelUnit], None]


def per_tu(p: Pass) -> bool:
    """Whether `p` is a translation-unit pass."""
    return hasattr(p, "run_units")


def run_pipeline(unit: KernelUnit, passes: Sequence[Pass], dump_after: str | None = None,
                 dump: Dump | None = None) -> KernelUnit:
    """`run_units` over one unit, a translation unit of its own for the translation-unit passes."""
    return run_units([unit], passes, dump_after, dump)[0]


def run_units(units: list[KernelUnit], passes: Sequence[Pass], dump_after: str | None = None,
              dump: Dump | None = None, cache=None) -> list[KernelUnit]:
    """Run `passes` in order over the units of one translation unit. A pass refusing a kernel
    (Refusal) stops the pipeline for it and marks it failed with the reason, the pass (refused_by)
    and the refusal's kind (refusal_kind); the caller decides on a fallback. A translation-unit
    pass that refuses refuses every unit it was given. When a pass after a translation-unit pass
    refuses some of its units, the rest go through those passes again without them, so what they
    share holds only kernels that passed. `cache` (a TranslationCache) serves the artifacts of
    translation-unit passes (TranslationCache.linked).
    A missing tool (ToolMissing) goes up as it is, with its install hint; any other failure is
    an InternalError naming the pass and the kernel: a bug is never a refusal."""
    units = list(units)
    start_at = 0
    while True:
        together = _run(units, passes[start_at:], dump_after, dump, cache)
        if together is None:
            return units
        tu_pass, shared = together
        left = [u for u in shared if u.status == "ok"]
        field = ARTIFACTS[tu_pass.NAME].field
        for u in shared:
            if u.status != "ok":   # what the pass made holds this kernel; it is not its translation
                setattr(u, field, type(getattr(u, field))())
        if not left or len(left) == len(shared):
            return units
        start_at = list(passes).index(tu_pass)


def _run(units: list[KernelUnit], passes: Sequence[Pass], dump_after: str | None, dump: Dump | None,
         cache) -> tuple[Pass, list[KernelUnit]] | None:
    """The passes over the units; returns the last translation-unit pass with the units it
    linked together (None when no translation-unit pass ran)."""
    together = None
    for p in passes:
        live = [u for u in units if u.status == "ok"]
        if not live:
            break
        if per_tu(p):
            _run_tu_pass(p, live, cache)
            together = (p, live)
        else:
            for n, u in enumerate(units):
                if u.status == "ok":
                    units[n] = _run_kernel_pass(p, u)
        if dump_after == p.NAME:
            for u in units:
                if u.status == "ok":
                    (dump or _dump_to_stderr)(p.NAME, u)
    return together


def _run_kernel_pass(p: Pass, unit: KernelUnit) -> KernelUnit:
    start = time.perf_counter()
    try:
        unit = p.run(unit)
    except Refusal as r:
        unit.refuse(p.NAME, r)
    except (ToolMissing, InternalError):
        raise
    except Exception as e:  # noqa: BLE001 -- a bug in the pass, or a tool that failed: loud
        raise InternalError.from_failure(p.NAME, unit.demangled or unit.name, e) from e
    unit.seconds[p.NAME] = time.perf_counter() - start
    return unit


def _run_tu_pass(p: Pass, units: list[KernelUnit], cache) -> None:
    start = time.perf_counter()
    try:
        made = cache.linked(units, p.run_units) if cache is not None else p.run_units(units)
    except Refusal as r:
        for u in units:
            u.refuse(p.NAME, r)
        made = None
    except (ToolMissing, InternalError):
        raise
    except Exception as e:  # noqa: BLE001 -- a bug in the pass, or a tool that failed: loud
        raise InternalError.from_failure(p.NAME, ", ".join(u.demangled or u.name for u in units), e) from e
    share = (time.perf_counter() - start) / len(units)   # each kernel's share: the report's seconds add up
    for u in units:
        if made is not None:
            setattr(u, ARTIFACTS[p.NAME].field, made)
        u.seconds[p.NAME] = u.seconds.get(p.NAME, 0.0) + share


def _dump_to_stderr(name: str, unit: KernelUnit) -> None:
    artifact = ARTIFACTS.get(name)
    if artifact is None:
        text = repr(unit)
    elif artifact.binary:
        data = unit.artifact(name)
        text = f"<{len(data)} bytes of ELF: --cass-save-temps writes it to a .{artifact.extension} file>"
    else:
        text = unit.artifact(name)
    sys.stderr.write(f"*** {unit.name} after {name} ***\n{text}\n")
