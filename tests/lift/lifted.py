"""Compile a CUDA file with nvcc, lift every kernel through the pipeline (optionally editing the
SASS text first) and hand back the code objects (the fixture of test_barrier and test_warp_forms), and run a kernel of
one on the emulator (test_families_atomics, test_native_atomics)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

# (SASS arch, offload arch) pairs the lift tests build for: sm_80 (what cass-nvcc asks nvcc for)
# and sm_90 on gfx1100 (wave32: a warp is a wave), and sm_80 on gfx942 (wave64: two warps a wave,
# each in its half; lift/warp_model.py), whose expected values are the same.
BUILDS = [pytest.param(("sm_80", "gfx1100"), id="sm_80"), pytest.param(("sm_90", "gfx1100"), id="sm_90"),
          pytest.param(("sm_80", "gfx942"), id="sm_80-gfx942")]


def code_objects(source: Path, arch: str, folder: Path, edits: dict[str, list[tuple[str, str]]] | None = None,
                 offload_arch: str = "gfx1100") -> dict[str, bytes]:
    """{kernel: code object for `offload_arch`}; `edits` maps a kernel to (regex, replacement)
    pairs applied to its SASS text before parsing."""
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    cubin = folder / f"{source.stem}_{arch}_{offload_arch}.cubin"
    subprocess.run(["nvcc", f"-arch={arch}", "-cubin", "-o", str(cubin), str(source)], check=True)
    out = {}
    for unit in units_from_file(str(cubin), offload_arch):
        before = [p for p in LIFT_PIPELINE if p.NAME in ("extract", "disasm")]
        unit = run_pipeline(unit, before)
        for pattern, replacement in (edits or {}).get(unit.name, []):
            text, n = re.subn(pattern, replacement, unit.sass_text)
            assert n, f"{pattern!r} not in the SASS of {unit.name}"
            unit.sass_text = text
        unit = run_pipeline(unit, [p for p in LIFT_PIPELINE if p not in before])
        assert unit.status == "ok", unit.reasons
        out[unit.name] = unit.code_object
    return out


def lifted_unit(source: str, folder: Path, offload_arch: str = "gfx1100"):
    """The one kernel of CUDA source text, compiled by nvcc for sm_80 and lifted for
    `offload_arch` through the whole pipeline (asserted to succeed): its SASS, assembly and code
    object."""
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    from cass_cc.pipeline import run_pipeline
    (folder / "k.cu").write_text(source)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    (unit,) = [run_pipeline(u, LIFT_PIPELINE) for u in units_from_file(str(cubin), offload_arch)]
    assert unit.status == "ok", unit.reasons
    return unit


def launch_as_runtime(co, mem, name: str, grid: int, block: int, kernarg: bytes) -> None:
    """Launch as libcassrt does: a kernel run one warp per wave (its __cass_wave_per_warp mark,
    lift/warp_model.py) gets 64 lanes per warp and CUDA's blockDim at the mark's offset."""
    import struct

    from cass_cc.emu import launch
    from cass_cc.rdna3.code_object import WAVE_PER_WARP_PREFIX, wave_per_warp_lanes
    lanes = block
    mark = co.globals.get(WAVE_PER_WARP_PREFIX + name)
    if mark is not None:
        _index, offset = struct.unpack("<2I", bytes(mem.view(mark[0], 8)))
        kernarg = kernarg.ljust(offset, b"\0") + struct.pack("<3I", block, 1, 1)
        lanes = wave_per_warp_lanes(block)
    launch(co, name, grid=(grid, 1, 1), block=(lanes, 1, 1), kernarg=kernarg, memory=mem)


def run_one_block(code: bytes, name: str, threads: int, buffers: list) -> list:
    """Launch kernel `name` of a code object on the emulator as one block of `threads`, its
    arguments the device copies of `buffers` (numpy arrays, in order); their contents after it."""
    import ctypes
    import struct

    import numpy as np

    from cass_cc.emu import CodeObject, Memory
    mem = Memory()
    co = CodeObject.load(code, mem)
    addrs = []
    for array in buffers:
        addr = mem.allocate(max(array.nbytes, 4))
        ctypes.memmove(addr, np.ascontiguousarray(array).ctypes.data, array.nbytes)
        addrs.append(addr)
    launch_as_runtime(co, mem, name, 1, threads, struct.pack("<" + "Q" * len(addrs), *addrs))
    out = []
    for array, addr in zip(buffers, addrs):
        result = np.empty_like(array)
        ctypes.memmove(result.ctypes.data, addr, array.nbytes)
        out.append(result)
    return out
