"""Build time of the examples' CUDA files: cass-nvcc (source route: hipify + hipcc, one process
per compile as make runs it) against plain hipcc on the same hipified file with the same options.

    .venv/bin/pytest benchmarks/test_source_route_build.py --benchmark-enable -s

Not part of `make test`: timings are no pass/fail criterion. pytest-benchmark's table shows wall
time; on a loaded machine the CPU time of the compiler processes (user + system, recorded as
extra_info and printed by the last test as a ratio) says more about the driver's overhead
(aim: at most 1.2x).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from cass_cc import toolchain

ROOT = Path(__file__).resolve().parent.parent
SAXPY = ROOT / "examples" / "cmake_project"
EXAMPLES = {
    "vector_add": (ROOT / "examples" / "vector_add" / "vector_add.cu", []),
    "cmake_project": (SAXPY / "src" / "saxpy.cu", ["-I", str(SAXPY / "include"), "-I", str(SAXPY / "src")]),
}
FLAGS = ["-O2", "-std=c++17"]
ROUNDS = 5
CPU: dict[tuple[str, str], list[float]] = {}


def cass_nvcc() -> list[str]:
    return [os.path.join(os.path.dirname(sys.executable), "cass-nvcc"), "--cass-route=source"]


def timed_run(key: tuple[str, str], argv: list[str], env: dict | None = None) -> None:
    """Run a compile and add the CPU seconds its processes used to CPU[key]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(key, []).append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


@pytest.fixture(scope="module")
def hipified(tmp_path_factory) -> dict[str, Path]:
    """Each example's .cu as cass-nvcc hipifies it (kept with --keep)."""
    out = {}
    for name, (source, includes) in EXAMPLES.items():
        folder = tmp_path_factory.mktemp(name)
        subprocess.run([*cass_nvcc(), *FLAGS, *includes, "-c", str(source), "-o", "x.o", "--keep"],
                       cwd=folder, check=True)
        out[name] = folder / (source.stem + ".hip")
    return out


@pytest.mark.parametrize("example", EXAMPLES)
def test_cass_nvcc(benchmark, example, tmp_path):
    source, includes = EXAMPLES[example]
    benchmark.group = example
    argv = [*cass_nvcc(), *FLAGS, *includes, "-c", str(source), "-o", str(tmp_path / "a.o")]
    benchmark.pedantic(timed_run, args=(("cass-nvcc", example), argv), rounds=ROUNDS, iterations=1)
    benchmark.extra_info["cpu_seconds"] = CPU[("cass-nvcc", example)]


@pytest.mark.parametrize("example", EXAMPLES)
def test_plain_hipcc(benchmark, example, hipified, tmp_path):
    _, includes = EXAMPLES[example]
    benchmark.group = example
    argv = [toolchain.find("hipcc").path, "-x", "hip", "--offload-arch=gfx1100",
            f"--rocm-device-lib-path={toolchain.rocm_device_lib_path('gfx1100')}",
            # nvcc includes the runtime header into every .cu; the route's prelude does the same
            "-include", "hip/hip_runtime.h", *FLAGS, *includes,
            "-c", str(hipified[example]), "-o", str(tmp_path / "b.o")]
    benchmark.pedantic(timed_run, args=(("hipcc", example), argv, toolchain.hip_environment()),
                       rounds=ROUNDS, iterations=1)
    benchmark.extra_info["cpu_seconds"] = CPU[("hipcc", example)]


def test_overhead_ratio():
    """Prints cass-nvcc's CPU time over plain hipcc's, per example (after the runs above)."""
    for example in EXAMPLES:
        ours, theirs = CPU.get(("cass-nvcc", example)), CPU.get(("hipcc", example))
        if not ours or not theirs:
            pytest.skip("run the whole file with --benchmark-enable")
        ratio = (sum(ours) / len(ours)) / (sum(theirs) / len(theirs))
        print(f"\n{example}: cass-nvcc {sum(ours) / len(ours):.3f} s CPU, hipcc "
              f"{sum(theirs) / len(theirs):.3f} s CPU, ratio {ratio:.2f}x")
