"""The translation passes and the pipelines, as data (Triton-style stages).

Each pass is a module with NAME and run(unit) -> unit (cass_cc.pipeline runs them). The lifter
(cass_cc/passes/lift) comes in as the `lift` stage; when it cannot be imported, the stage stands in for it
and fails every kernel it meets with that import error, an InternalError (a broken lifter is a
bug to fix, never a reason to fall back), while the front end (`cass-cc extract`) keeps working.

The pipelines are built on first use (PEP 562 module __getattr__): the passes import llvmlite and
lark, which a build served from the translation cache never needs, so `units_from_file` and the
cache stay cheap to import.

LIFT_PIPELINE is KERNEL_STAGES (extract ... assemble, each kernel on its own: what the cache keeps
per kernel) then TU_STAGES (the translation unit's link and verify on what it made, over all of
its kernels together: cass_cc.pipeline.run_units). What each stage makes is cass_cc.unit.ARTIFACTS.
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


def _tu_stages() -> dict[str, object]:
    """The translation unit's stages: the link, then verify on the code object it made. Built
    apart from the rest: a build served from the cache runs these and no other pass."""
    return {"TU_STAGES": [importlib.import_module(f"{__name__}.{n}") for n in ("link", "verify")]}


def _pipelines() -> dict[str, object]:
    names = ("extract", "disasm", "parse", "callees", "normalize", "codegen", "assemble")
    p = {n: importlib.import_module(f"{__name__}.{n}") for n in names}
    tu = _tu_stages()["TU_STAGES"]
    front = [p["extract"], p["disasm"], p["parse"], p["callees"], p["normalize"]]
    lift = _lift()
    kernel = front + [lift, p["codegen"], p["assemble"]]
    pipeline = kernel + tu
    return {"FRONT_END": front, "BACK_END": [p["codegen"], p["assemble"]] + tu, "KERNEL_STAGES": kernel,
            "TU_STAGES": tu, "LIFT_PIPELINE": pipeline, "PASSES": {s.NAME: s for s in pipeline}, "lift": lift}


_BUILT_BY = {"TU_STAGES": _tu_stages, **{name: _pipelines for name in
                                          ("FRONT_END", "BACK_END", "KERNEL_STAGES", "LIFT_PIPELINE", "PASSES", "lift")}}


def __getattr__(name: str):
    if name in _BUILT_BY:
        built = _BUILT_BY[name]()
        globals().update(built)  # once: later lookups find the names without __getattr__
        return built[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FRONT_END", "BACK_END", "KERNEL_STAGES", "TU_STAGES", "LIFT_PIPELINE", "PASSES", "units_from_file"]
