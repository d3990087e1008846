"""Compile time of the binary route against plain nvcc on the same files (issue 5 aims at
cass-nvcc -c ≤ 1.5× nvcc -c with an empty translation cache, ≤ 1.1× with a warm one).

Each round compiles every .cu of a program three ways, one after the other so that the machine's
load weighs on all three alike: nvcc, cass-nvcc with a fresh cache (cold), cass-nvcc again on
that cache (warm). The ratios of the medians, wall and CPU time (the processes' user + system),
are the benchmark's extra_info and are printed (-s):

    .venv/bin/python -m pytest tests/binary/test_build_speed.py --benchmark-enable -s

`make test` runs with --benchmark-disable: one round, no timing, and the checks that the cold and
warm builds embed the same code (a warm build that translated differently would be a cache bug).
"""

from __future__ import annotations

import io
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from binroute import EXAMPLES, PROGRAMS, ROOT, program_flags
from cass_cc import toolchain

pytestmark = pytest.mark.slow

FOLDERS = [EXAMPLES / "vector_add", PROGRAMS / "bench" / "linalg" / "matmul_tiled",
           PROGRAMS / "realworld" / "warp_scan"]
ROUNDS = 5


def _timed(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one command (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, proc.stderr
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _compile_all(compiler: list[str], sources: list[Path], flags: list[str], out: Path,
                 env: dict | None = None) -> tuple[float, float]:
    out.mkdir(parents=True, exist_ok=True)
    wall = cpu = 0.0
    for src in sources:
        w, c = _timed([*compiler, "-O2", "-arch=sm_80", *flags, "-c", str(src), "-o", str(out / f"{src.stem}.o")], env)
        wall, cpu = wall + w, cpu + c
    return wall, cpu


def _fatbin(obj: Path) -> bytes:
    out = obj.with_suffix(".fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", str(obj), str(out)], check=True)
    return out.read_bytes()


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_compile_time_against_nvcc(benchmark, folder, tmp_path):
    sources = sorted(folder.glob("*.cu"))
    flags = program_flags(folder)
    nvcc = [toolchain.path("nvcc")]
    cass = [sys.executable, str(ROOT / "bin" / "cass-nvcc"), "--cass-route=binary"]
    times: dict[str, list[tuple[float, float]]] = {"nvcc": [], "cold": [], "warm": []}

    def one_round() -> None:
        n = len(times["nvcc"])
        env = {**os.environ, "CASS_CACHE_DIR": str(tmp_path / f"cache{n}")}
        times["nvcc"].append(_compile_all(nvcc, sources, flags, tmp_path / f"nvcc{n}"))
        times["cold"].append(_compile_all(cass, sources, flags, tmp_path / f"cold{n}", env))
        times["warm"].append(_compile_all(cass, sources, flags, tmp_path / f"warm{n}", env))
        for src in sources:
            assert _fatbin(tmp_path / f"warm{n}" / f"{src.stem}.o") == _fatbin(tmp_path / f"cold{n}" / f"{src.stem}.o")

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1)

    def median(kind: str, which: int) -> float:
        return statistics.median(t[which] for t in times[kind])
    info = {}
    for kind in ("cold", "warm"):
        info[f"{kind}_ratio_wall"] = round(median(kind, 0) / median("nvcc", 0), 3)
        info[f"{kind}_ratio_cpu"] = round(median(kind, 1) / median("nvcc", 1), 3)
    for kind in times:
        info[f"{kind}_wall_s"] = round(median(kind, 0), 3)
    benchmark.extra_info.update(info)
    print(f"\n{folder.name}: {info}")


def test_one_kernel_is_linked_once(tmp_path, monkeypatch):
    """A kernel is linked once, with its translation unit (no link of its own first): a
    translation unit of one kernel runs ld.lld once, its code object holds the kernel's
    descriptor and one metadata note; with a device variable the link adds the variables."""
    from cass_cc.passes import link as link_pass
    from cass_cc.passes import units_from_file
    from cass_cc.rdna3 import CodeObject
    from cass_cc.rdna3.tools import link
    from cass_cc.translation import link_units, translate_unit

    runs = []
    monkeypatch.setattr(link_pass, "link", lambda objects: runs.append(len(objects)) or link(objects))

    def linked(source: str) -> bytes:
        (tmp_path / "k.cu").write_text(source)
        subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", str(tmp_path / "k.cu"), "-o",
                        str(tmp_path / "k.o")], check=True)
        units = [translate_unit(u) for u in units_from_file(str(tmp_path / "k.o"))]
        code = link_units(units)
        assert code and all(u.status == "ok" for u in units), [u.reasons for u in units]
        return code

    alone = CodeObject(linked("__global__ void k(int *x) { x[threadIdx.x] = 1; }\n"))
    assert runs == [1] and len(alone.notes) == 1 and alone.kernels["_Z1kPi"].descriptor is not None
    with_variable = linked("__device__ int v;\n__global__ void k(int *x) { x[threadIdx.x] = v; }\n")
    symbols = {s.name for s in ELFFile(io.BytesIO(with_variable)).get_section_by_name(".dynsym").iter_symbols()}
    assert {"_Z1kPi.kd", "v"} <= symbols and len(runs) == 2


def test_early_translation_is_used_only_for_the_cubins_nvcc_embedded(tmp_path):
    """The translation made from nvcc's kept cubin while nvcc runs stands for the object's only
    when the object embeds that same cubin; otherwise the compile translates the object itself."""
    from cass_cc.driver.binary_compile import EarlyTranslation
    from cass_cc.driver.nvcc_command import SASS_TARGET
    from cass_cc.driver.plan import TranslationUnit
    from cass_cc.driver.settings import Settings

    def compiled(name: str, body: str) -> tuple[Path, Path, TranslationUnit]:
        src, keep = tmp_path / f"{name}.cu", tmp_path / f"{name}-keep"
        src.write_text(f"__global__ void {name}(int *x) {{ {body} }}\n")
        keep.mkdir()
        subprocess.run([toolchain.path("nvcc"), "-c", str(src), "-o", str(tmp_path / f"{name}.o"), *SASS_TARGET,
                        "-keep", f"-keep-dir={keep}"], check=True, capture_output=True)
        return tmp_path / f"{name}.o", keep, TranslationUnit(str(src), "cu")

    a_obj, a_keep, a_tu = compiled("a", "x[threadIdx.x] = 1;")
    b_obj, _, _ = compiled("b", "x[threadIdx.x] = 2;")
    for obj, used in ((a_obj, True), (b_obj, False)):
        work = tmp_path / f"work-{used}"
        work.mkdir()
        early = EarlyTranslation(str(a_keep), a_tu, Settings(), str(work), None)
        early.poll()  # the kept folder is complete: the thread starts at once
        code = early.result(str(obj))
        assert (code is not None) == used
        if used:
            assert [k["name"] for k in code.kernels] == ["_Z1aPi"] and code.code_objects
