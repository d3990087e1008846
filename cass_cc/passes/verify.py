"""verify: each kernel in the code object that the translation unit's link made (the one that is
embedded) loads (ELF, kernel descriptor `<name>.kd`, metadata) and declares the CUDA parameter
layout: every CUDA parameter is an explicit argument at the same offset and size, hidden arguments
start after them, the target's wave size (32, or 64 on CDNA), launch bounds as the flat work-group size
(in lanes: 64 a warp for a kernel run one warp per wave, whose blockDim argument follows the
parameters). A kernel translated from a
saved .ll or .s has no cubin to compare with: its code object is checked on its own (it loads,
descriptor, wave size, hidden arguments after the explicit ones).

Differential checks (running the kernel on the emulator next to a reference) register themselves
in DIFFERENTIAL_CHECKS: each is called as check(unit, code_object_info) after the static checks and
raises FailedCheck when the kernel misbehaves."""

from __future__ import annotations

from typing import Callable

from cass_cc.errors import CassError, FailedCheck, ToolMissing
from cass_cc.rdna3.code_object import WAVE_PER_WARP_PREFIX, CodeObject, wave_per_warp_lanes
from cass_cc.targets import target
from cass_cc.unit import KernelUnit

NAME = "verify"

DIFFERENTIAL_CHECKS: list[Callable[[KernelUnit, CodeObject], None]] = []


def check_layout(unit: KernelUnit, info: CodeObject) -> list[str]:
    """Problems of the code object against the cubin's kernel (empty when it matches)."""
    problems = []
    if info.processor != unit.offload_arch.split(":")[0]:
        problems.append(f"code object for {info.processor}, expected {unit.offload_arch}")
    meta = info.kernels.get(unit.name)
    if meta is None:
        return problems + [f"kernel '{unit.name}' missing from the code object metadata"]
    if meta.descriptor is None:
        problems.append(f"kernel descriptor '{meta.symbol}' missing")
    wave = target(unit.offload_arch.split(":")[0]).wave_size
    if meta.wavefront_size != wave:
        problems.append(f"wavefront size {meta.wavefront_size}, expected {wave}")
    k = unit.kernel
    if k is None:   # from a saved .ll or .s: the code object's own arguments are all there is
        param_end = max((a.offset + a.size for a in meta.explicit_args), default=0)
    else:
        params = [tuple(p) for p in k.params]
        explicit = {a.offset: a for a in meta.explicit_args}
        for index, offset, size in params:
            arg = explicit.get(offset)
            if arg is None or arg.size != size:
                got = f"{arg.size} bytes" if arg else "nothing"
                problems.append(f"parameter {index} (offset {offset}, {size} bytes): code object has {got}")
        param_end = max((o + s for _i, o, s in params), default=0)
    hidden = [a.offset for a in meta.args if a.hidden]
    if hidden and min(hidden) < param_end:
        problems.append(f"hidden arguments start at {min(hidden)}, inside the parameters (end {param_end})")
    if k is None:
        return problems
    bounds = k.reqntid or k.max_threads
    expected = 1
    for d in bounds or (1024,):
        expected *= max(d, 1)
    lanes = expected
    if WAVE_PER_WARP_PREFIX + unit.name in info.globals:     # 64 lanes a warp, blockDim after the parameters
        lanes = wave_per_warp_lanes(expected)
        shape = (param_end + 3) // 4 * 4
        if not any(a.offset == shape and a.size == 12 for a in meta.explicit_args):
            problems.append(f"run one warp per wave, but no 12-byte blockDim argument at offset {shape}")
    if meta.max_flat_workgroup_size != min(lanes, 1024):
        problems.append(f"max flat work-group size {meta.max_flat_workgroup_size}, launch bounds say {expected} threads")
    return problems


def run(unit: KernelUnit) -> KernelUnit:
    try:
        info = CodeObject(unit.code_object, f"code object of {unit.name}'s translation unit")
        problems = check_layout(unit, info)   # reads the metadata note: a bad one is a refusal too
    except ToolMissing:  # the install hint, never a refusal to fall back from
        raise
    except CassError as e:
        raise FailedCheck(e.message) from None
    if problems:
        raise FailedCheck("; ".join(problems))
    for check in DIFFERENTIAL_CHECKS:
        check(unit, info)
    return unit
