"""Running a list of passes over a KernelUnit, with timing, dumps and refusals."""

from __future__ import annotations

import sys
import time
from types import ModuleType
from typing import Callable, Sequence

from .errors import InternalError, Refusal, ToolMissing
from .unit import KernelUnit

Pass = ModuleType  # a module with NAME: str and run(unit) -> unit


def run_pipeline(unit: KernelUnit, passes: Sequence[Pass], dump_after: str | None = None,
                 dump: Callable[[str, KernelUnit], None] | None = None) -> KernelUnit:
    """Run `passes` in order. A pass refusing the kernel (Refusal) stops the pipeline and marks
    the unit failed with the reason, the pass (refused_by) and the refusal's kind (refusal_kind);
    the caller decides on a fallback.
    A missing tool (ToolMissing) goes up as it is, with its install hint; any other failure is
    an InternalError naming the pass and the kernel: a bug is never a refusal."""
    for p in passes:
        start = time.perf_counter()
        try:
            unit = p.run(unit)
        except Refusal as r:
            unit.refuse(p.NAME, r)
            unit.seconds[p.NAME] = time.perf_counter() - start
            return unit
        except (ToolMissing, InternalError):
            raise
        except Exception as e:  # noqa: BLE001 -- a bug in the pass, or a tool that failed: loud
            raise InternalError.from_failure(p.NAME, unit.demangled or unit.name, e) from e
        unit.seconds[p.NAME] = time.perf_counter() - start
        if dump_after == p.NAME:
            (dump or _dump_to_stderr)(p.NAME, unit)
    return unit


def _dump_to_stderr(name: str, unit: KernelUnit) -> None:
    artifact = {"disasm": unit.sass_text, "lift": unit.llvm_ir, "codegen": unit.asm}.get(name, repr(unit))
    sys.stderr.write(f"*** {unit.name} after {name} ***\n{artifact}\n")
