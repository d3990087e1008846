"""Translation time and memory per stage of one kernel, in a fresh process so that its peak memory
is that kernel's alone: `python benchmarks/scaling.py FILE.cubin` prints one JSON object.

Stages are the lift pipeline's passes, with `lift` split into building the IR in Python
(`lift_module`) and LLVM's O2 pipeline on it (`optimize`); each has wall seconds, CPU seconds
(this process and its children: nvdisasm, llvm-mc, ld.lld; CPU time stays meaningful on a busy
machine) and the process's peak resident memory after it (it only grows, so the stage that
raised it is the one whose value jumps).
"""

from __future__ import annotations

import json
import resource
import sys
import time


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _peak_mb() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(max(own.ru_maxrss, children.ru_maxrss) / 1024, 1)   # Linux: kilobytes


def measure(cubin: str) -> dict:
    """Run every stage over the first kernel of `cubin`; {"stages": {name: {...}}, ...}."""
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    from cass_cc.passes import lift as lift_pass

    unit = units_from_file(cubin)[0]
    stages: dict[str, dict] = {}

    def timed(name: str, fn):
        wall, cpu = time.perf_counter(), _cpu()
        result = fn()
        stages[name] = {"wall_s": round(time.perf_counter() - wall, 3), "cpu_s": round(_cpu() - cpu, 3),
                        "peak_mb": _peak_mb()}
        return result

    for p in LIFT_PIPELINE:
        if p.NAME == "lift":
            raw = timed("lift_module", lambda: lift_pass.lift_module(unit))
            unit.llvm_ir = timed("optimize", lambda: lift_pass.optimize(raw, unit.offload_arch))
            continue
        if hasattr(p, "run"):
            unit = timed(p.NAME, lambda: p.run(unit))
        else:  # a translation unit's stage (the link): over this one kernel
            from cass_cc.unit import ARTIFACTS
            setattr(unit, ARTIFACTS[p.NAME].field, timed(p.NAME, lambda: p.run_units([unit])))
        if unit.status != "ok":
            break
    return {"kernel": unit.name, "sass_instructions": unit.sass_instructions, "status": unit.status,
            "reasons": unit.reasons, "stages": stages,
            "total_wall_s": round(sum(s["wall_s"] for s in stages.values()), 2),
            "total_cpu_s": round(sum(s["cpu_s"] for s in stages.values()), 2), "peak_mb": _peak_mb()}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} FILE.cubin")
    print(json.dumps(measure(sys.argv[1])))
