"""Whether a kernel's warps wait for each other, read from its SASS (passes/lift/warp_model.py),
for the routes that put two CUDA warps in a 64-lane wave: the hipify fallback refuses such a
kernel there, and the source route runs its translation unit one warp per wave
(`cass-cc warp-waits`, cass_wave_per_warp.h and .c).

The lifter decides it for its own kernels; the other routes ask here, with nvcc's SASS of the
same source, so all routes agree on which kernels need it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile

from ..errors import CassError
from ..pipeline import run_pipeline
from ..unit import KernelUnit
from .step_arguments import read_arguments, settings_of

# The host calls that launch or describe a kernel: on wave64 targets every source-route object
# calls cass_wave_per_warp.c's forms of them, which launch a one-warp-per-wave kernel with the
# work-group it needs, and others unchanged.
WRAPPED_CALLS = ("hipLaunchKernel", "hipLaunchKernel_spt", "hipLaunchCooperativeKernel", "hipGraphAddKernelNode",
                 "hipGraphKernelNodeSetParams", "hipGraphKernelNodeGetParams",
                 "hipGraphExecKernelNodeSetParams", "hipFuncGetAttributes",
                 "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hipOccupancyMaxPotentialBlockSize")
# Where a unit runs one warp per wave, its kernels are registered through this, which notes them.
REGISTRATION = "__hipRegisterFunction"
WRAPPER_PREFIX = "cass_wpw_"


def warps_wait(unit: KernelUnit, arch: str) -> str | None:
    """Why warps of the kernel may wait for each other, where `arch` puts two CUDA warps in a wave
    (the lifter runs such kernels one warp per wave), read from its SASS; None where they do not
    or no wave is shared."""
    from cass_cc.passes import FRONT_END
    from cass_cc.passes.lift import warp_model

    model = warp_model.for_target(arch)
    if not model.split:
        return None
    # extract's check refuses relocatable (-rdc) SASS, which only the device link can translate;
    # it reads as well as any to tell a wait
    relocatable = getattr(getattr(unit.kernel, "cubin", None), "relocatable", False)
    front = run_pipeline(KernelUnit(name=unit.name, sm_arch=unit.sm_arch, offload_arch=arch,
                                    demangled=unit.demangled, kernel=unit.kernel),
                         FRONT_END[1:] if relocatable else FRONT_END)
    if front.status != "ok":
        return f"its SASS cannot be read to tell whether its warps wait for each other ({'; '.join(front.reasons)})"
    hazard = warp_model.wait_hazard(model, sorted(front.instructions, key=lambda i: i.address))
    return hazard[1] if hazard else None


def kernel_waits(source: str, language: str, options: list[str], arch: str) -> dict[str, str | None]:
    """{kernel (demangled): why its warps wait, or None} for the kernels of `source` compiled by
    nvcc with the build's options (`options`: cass-nvcc's), on the wave64 target `arch`."""
    from ..passes.extract import units_from_file
    from .nvcc_command import SASS_TARGET, nvcc_command

    settings = settings_of(options)
    with tempfile.TemporaryDirectory(prefix="cass-warp-waits-") as work:
        cubin = os.path.join(work, "unit.cubin")
        cmd = nvcc_command(source, language, cubin, settings)
        at = cmd.index(SASS_TARGET[0])
        cmd[at:at + len(SASS_TARGET)] = ["-arch=sm_80"]
        cmd[cmd.index("-c")] = "-cubin"
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr.strip())
            raise CassError(f"{source}: nvcc, asked for the SASS that tells whether warps wait for each other "
                            f"on {arch}, failed: {first}")
        if not os.path.isfile(cubin) or os.path.getsize(cubin) == 0:
            return {}
        units = units_from_file(cubin, arch)
    return {unit.demangled or unit.name: warps_wait(unit, arch) for unit in units}


def header_text(waiting: dict[str, str], arch: str) -> str:
    """The header the unit's compile includes: CASS_WAVE_PER_WARP where warps wait."""
    if not waiting:
        return f"/* cass-cc warp-waits: no kernel's warps wait for each other on {arch} */\n"
    lines = [f"/* cass-cc warp-waits: one warp per wave on {arch}, as warps of these kernels wait for each other:"]
    lines += [f" *   {name}: {why.replace('*/', '* /')}" for name, why in sorted(waiting.items())]
    return "\n".join(lines) + "\n */\n#define CASS_WAVE_PER_WARP 1\n"


def symbol_map(waiting: bool) -> str:
    """llvm-objcopy --redefine-syms' file for the unit's object."""
    names = WRAPPED_CALLS + ((REGISTRATION,) if waiting else ())
    return "".join(f"{n} {WRAPPER_PREFIX}{n}\n" for n in names)


def step(argv: list[str]) -> None:
    """`cass-cc warp-waits SOURCE --mirror DIR --header FILE --symbols FILE [--language L] --
    [NVCC_OPTIONS]`."""
    from ..demangle import base_name
    from .mirror import Mirror

    values, inputs, options = read_arguments(
        argv, "warp-waits", {"--header": "header", "--symbols": "symbols", "--language": "language",
                             "--mirror": "mirror"},
        ("SOURCE", 1, 1), ("header", "symbols", "mirror"))
    settings = settings_of(options)
    archs = [a for a in settings.offload_archs if _wave_size(a) == 64]
    source = inputs[0]
    arch = archs[0] if archs else settings.offload_archs[0]
    kernels = kernel_waits(source, values.get("language", "cu"), options, arch) if archs else {}
    waiting = {name: why for name, why in kernels.items() if why}
    if waiting:
        name, why = sorted(waiting.items())[0]
        if settings.rdc:
            raise CassError(f"{source}: kernel '{name}' runs one warp per wave on {arch} ({why}), which the "
                            f"source route does for a whole translation unit; with -rdc the device functions of "
                            f"other units would read threadIdx as the hardware's: build without -rdc, or use "
                            f"the binary route (the default)")
        # Every kernel of the unit runs one warp per wave: each must begin with the entry hipify
        # writes, or the idle half of its waves would run it too.
        entered = set(Mirror.load(values["mirror"]).entered_kernels)
        missed = sorted(k for k in kernels if base_name(k) not in entered)
        if missed:
            raise CassError(f"{source}: kernel '{missed[0]}' would run one warp per wave on {arch} (as kernel "
                            f"'{name}' of its unit does: {why}), but hipify found no body of it to begin with "
                            f"the wave's entry (a kernel defined through a macro, or in a system header): use "
                            f"the binary route (the default)")
    _write(values["header"], header_text(waiting, arch))
    _write(values["symbols"], symbol_map(bool(waiting)))


def _wave_size(arch: str) -> int:
    from ..targets import target
    return target(arch).wave_size


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CassError(f"cannot write '{path}': {e.strerror}") from None
