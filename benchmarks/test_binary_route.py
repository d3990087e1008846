"""Benchmarks of the binary route (pytest-benchmark; run with
`pytest benchmarks/test_binary_route.py --benchmark-only`):

- build time of the example and test programs: plain nvcc (compile + link), cass-nvcc's binary
  route with a cold translation cache, and with a warm one;
- translated-code quality: wave-instructions the emulator executes (cass-run --emu-stats) per
  kernel of the binary route against the same kernel from the source route (hipcc), reported as
  the median ratio and the worst kernels (printed; run with -s).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "binary"))
from binroute import cass_nvcc, cass_run, cuda_programs, program_args, program_flags, program_sources  # noqa: E402

from cass_cc import toolchain  # noqa: E402

PROGRAMS = cuda_programs()


def _ids(folder: Path) -> str:
    return str(folder.relative_to(ROOT))


def _nvcc_build(folder: Path, out: Path) -> None:
    objs = []
    for n, src in enumerate(program_sources(folder)):
        obj = out / f"{n}.o"
        subprocess.run([toolchain.path("nvcc"), "-c", "-O2", "-arch=sm_80", *program_flags(folder), str(src),
                        "-o", str(obj)], check=True, capture_output=True)
        objs.append(str(obj))
    subprocess.run([toolchain.path("nvcc"), *objs, "-o", str(out / "prog")], check=True, capture_output=True)


def _cass_build(folder: Path, out: Path, route: str, cache: Path) -> subprocess.CompletedProcess:
    return cass_nvcc(f"--cass-route={route}", "-O2", *program_flags(folder), *program_sources(folder),
                     "-o", out / "prog", cwd=out, env={"CASS_CACHE_DIR": str(cache)})


@pytest.mark.parametrize("folder", PROGRAMS, ids=_ids)
def test_build_time_nvcc(benchmark, folder, tmp_path):
    benchmark.pedantic(_nvcc_build, args=(folder, tmp_path), rounds=3, iterations=1)


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("folder", PROGRAMS, ids=_ids)
def test_build_time_binary_route(benchmark, folder, warm, tmp_path):
    cache = tmp_path / "cache"
    probe = _cass_build(folder, tmp_path, "binary", cache)  # builds libcassrt, fills the cache
    if probe.returncode != 0:
        pytest.skip(f"binary route fails on {folder.name}: {probe.stderr.strip().splitlines()[-1]}")

    def setup():
        if not warm:
            shutil.rmtree(cache / "translations", ignore_errors=True)

    benchmark.pedantic(_cass_build, args=(folder, tmp_path, "binary", cache), setup=setup, rounds=3,
                       iterations=1)


def _wave_instructions(folder: Path, out: Path, route: str) -> dict[str, int] | None:
    """Wave-instructions per kernel (summed over launches) of the program built by `route`."""
    out.mkdir()
    if _cass_build(folder, out, route, Path(os.environ.get("CASS_CACHE_DIR") or toolchain.cache_root())).returncode:
        return None
    stats = out / "stats.json"
    proc = cass_run(out / "prog", *program_args(folder), stats=stats)
    if proc.returncode != 0 or not stats.is_file():
        return None
    per_kernel: dict[str, int] = {}
    for launch in json.loads(stats.read_text())["launches"]:
        per_kernel[launch["kernel"]] = per_kernel.get(launch["kernel"], 0) + launch["wave_instructions"]
    return per_kernel


def test_wave_instructions_binary_vs_source(tmp_path):
    rows = []
    for n, folder in enumerate(PROGRAMS):
        binary = _wave_instructions(folder, tmp_path / f"{n}-{folder.name}-binary", "binary")
        source = _wave_instructions(folder, tmp_path / f"{n}-{folder.name}-source", "source")
        if not binary or not source:
            continue
        for kernel in sorted(binary.keys() & source.keys()):
            rows.append({"program": _ids(folder), "kernel": kernel, "binary": binary[kernel],
                         "source": source[kernel], "ratio": binary[kernel] / max(source[kernel], 1)})
    if not rows:
        pytest.skip("no program runs through both routes")
    rows.sort(key=lambda r: -r["ratio"])
    median = statistics.median(r["ratio"] for r in rows)
    print(f"\nwave-instructions binary/source: median {median:.3f} over {len(rows)} kernels")
    for r in rows[:10]:
        print(f"  {r['ratio']:6.2f}  {r['binary']:>9} / {r['source']:<9} {r['kernel']}  ({r['program']})")
