"""The translation passes and the pipelines, as data (Triton-style stages).

Each pass is a module with NAME and run(unit) -> unit (cass_cc.pipeline runs them). The lifter
(cass_cc/passes/lift) comes in as the `lift` stage; when it cannot be imported, the stage stands in for it
and fails every kernel it meets with that import error, an InternalError (a broken lifter is a
bug to fix, never a reason to fall back), while the front end (`cass-cc extract`) keeps working.

The pipelines are built on first use (PEP 562 module __getattr__): the passes import llvmlite and
lark, which a build served from the translation cache never needs, so `units_from_file` and the
cache stay cheap to import.
"""

from __future__ import annotations

import importlib
import types

from cass_cc.errors import InternalError

from .extract import units_from_file


def _broken(name: str, failure: BaseException) -> types.ModuleType:
    """A stage standing in for a pass that cannot be imported: it fails each kernel with the
    import's failure, naming the pass and the kernel."""
    stage = types.ModuleType(f"cass_cc.passes.{name}")
    stage.NAME = name

    def run(unit):
        raise InternalError.from_failure(name, unit.demangled or unit.name, failure)
    stage.run = run
    return stage


def _lift() -> types.ModuleType:
    try:
        lift = importlib.import_module(f"{__name__}.lift")
    except Exception as e:  # noqa: BLE001 -- reported, loudly, at the first kernel it should lift
        return _broken("lift", e)
    if not callable(getattr(lift, "run", None)):
        return _broken("lift", ImportError(f"{lift.__name__} has no run(unit) function"))
    return lift


def _pipelines() -> dict[str, object]:
    names = ("extract", "disasm", "parse", "callees", "normalize", "codegen", "assemble", "link", "verify")
    p = {n: importlib.import_module(f"{__name__}.{n}") for n in names}
    front = [p["extract"], p["disasm"], p["parse"], p["callees"], p["normalize"]]
    back = [p["codegen"], p["assemble"], p["link"], p["verify"]]
    lift = _lift()
    pipeline = front + [lift] + back
    return {"FRONT_END": front, "BACK_END": back, "LIFT_PIPELINE": pipeline,
            "PASSES": {s.NAME: s for s in pipeline}, "lift": lift}


def __getattr__(name: str):
    if name in ("FRONT_END", "BACK_END", "LIFT_PIPELINE", "PASSES", "lift"):
        built = _pipelines()
        globals().update(built)  # once: later lookups find the names without __getattr__
        return built[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FRONT_END", "BACK_END", "LIFT_PIPELINE", "PASSES", "units_from_file"]
