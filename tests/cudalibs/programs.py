"""Helpers of the cuBLAS/cuRAND tests: building programs with cass-nvcc (default route) or with
plain nvcc against NVIDIA's libraries, and running them under cass-run."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cass_cc import toolchain
from tests.conftest import run_tool

DATA = Path(__file__).resolve().parent / "data"


def cass_build(source: str, out: Path, *libs: str) -> Path:
    """The program DATA/source built by cass-nvcc (default route), linked with -l<lib> for each lib."""
    exe = out / Path(source).stem
    proc = run_tool("cass-nvcc", str(DATA / source), "-o", str(exe), *(f"-l{l}" for l in libs), cwd=out)
    assert proc.returncode == 0, proc.stderr
    return exe


def nvidia_build(source: str, out: Path, *sonames: str) -> Path:
    """The program built by plain nvcc (sm_80) against NVIDIA's own libraries (the sonames), as on
    an NVIDIA machine."""
    include = toolchain.cuda_library_include_dir("curand.h")
    lib_dir = Path(include).parent / "lib"
    exe = out / f"{Path(source).stem}-nvidia"
    cmd = [toolchain.path("nvcc"), "-arch=sm_80", "-I", include, str(DATA / source), "-o", str(exe),
           f"-L{lib_dir}", *(f"-l:{s}" for s in sonames)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return exe


def cass_run(exe: Path) -> subprocess.CompletedProcess:
    return run_tool("cass-run", str(exe), cwd=exe.parent)


def loaded_libraries(exe: Path) -> dict[str, str]:
    """What the loader resolves each library of the program to (ldd), without running it."""
    proc = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=60)
    found = {}
    for line in proc.stdout.splitlines():
        name, _, where = line.strip().partition(" => ")
        if where:
            found[name] = where.split(" (")[0]
    return found
