"""The translation passes and the pipelines, as data (Triton-style stages).

Each pass is a module with NAME and run(unit) -> unit (cass_cc.pipeline runs them). The lifter
(passes/lift) comes in as the `lift` stage; when it cannot be imported the stage refuses every
kernel with "lift: not available" instead of failing the whole translation.
"""

from __future__ import annotations

import types

from cass_cc.errors import Refusal

from . import assemble, codegen, disasm, extract, link, normalize, parse, verify
from .extract import units_from_file


def _unavailable(name: str, why: str) -> types.ModuleType:
    """A stage that refuses every kernel, standing in for a translator that cannot be imported."""
    stage = types.ModuleType(f"cass_cc.passes.{name}")
    stage.NAME = name

    def run(unit):
        raise Refusal(f"not available ({why})" if why else "not available")
    stage.run = run
    return stage


try:
    from . import lift
    if not callable(getattr(lift, "run", None)):
        lift = _unavailable("lift", "")
except Exception as e:  # the lifter is another module's work in progress: never fail the front end
    lift = _unavailable("lift", f"{type(e).__name__}: {e}".splitlines()[0])

FRONT_END = [extract, disasm, parse, normalize]
BACK_END = [codegen, assemble, link, verify]
LIFT_PIPELINE = FRONT_END + [lift] + BACK_END
PASSES = {p.NAME: p for p in LIFT_PIPELINE}

__all__ = ["FRONT_END", "BACK_END", "LIFT_PIPELINE", "PASSES", "units_from_file"]
