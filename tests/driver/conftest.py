"""Builds shared by the driver tests: each example is built once per session, in a copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from cass_cc.driver import hip_fatbin
from cass_cc.driver.cmake import TOOLCHAIN_FILE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def tool_env(**extra: str) -> dict[str, str]:
    """The environment a user has after activating the venv: cass-nvcc, cass-cc on PATH, the
    route left to its default unless `extra` names one (CASS_ROUTE)."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("CASS_ROUTE", None)
    env.update(extra)
    return env


def run(argv: list[str], cwd: str | os.PathLike, env: dict | None = None,
        timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env or tool_env(), capture_output=True, text=True,
                          timeout=timeout)


def amd_code_objects(path: str | os.PathLike) -> list[hip_fatbin.BundleEntry]:
    """The AMD code objects an object, program or library carries, whichever route made it: the
    source route's in `.hip_fatbin` (hipcc's), the binary route's in `.nv_fatbin` (in place of
    nvcc's fatbin); offload bundles, one per translation unit."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        assert elf["e_machine"] == "EM_X86_64"
        blobs = [s.data() for s in elf.iter_sections() if s.name in (".hip_fatbin", ".nv_fatbin")]
    return [e for blob in blobs for e in hip_fatbin.read_bundles(blob) if "amdgcn" in e.id and e.data]


def copy_example(name: str, dest: Path) -> Path:
    target = dest / name
    shutil.copytree(EXAMPLES / name, target, ignore=shutil.ignore_patterns("build", "*.o", name))
    return target


@pytest.fixture(scope="session")
def vector_add_build(tmp_path_factory) -> Path:
    """examples/vector_add built by its own Makefile with NVCC=cass-nvcc; returns its folder."""
    folder = copy_example("vector_add", tmp_path_factory.mktemp("make"))
    proc = run(["make", "NVCC=cass-nvcc"], cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return folder


# Debian's CMake (apt-get install cmake) and the current one from PyPI (the `cmake` wheel of
# the test extras, in the venv beside this Python).
CMAKES = {"debian": Path("/usr/bin/cmake"), "pypi": Path(sys.executable).parent / "cmake"}


def cmake_program(which: str) -> Path:
    cmake = CMAKES[which]
    if not cmake.is_file():
        pytest.skip(f"{cmake} is not installed ({'apt-get install cmake' if which == 'debian' else 'pip install -e .[test]'})")
    return cmake


@pytest.fixture(scope="session")
def cmake_builds(tmp_path_factory):
    """build(cmake, route) -> the build folder of examples/cmake_project configured with the
    toolchain file and built by that CMake ("debian" or "pypi"), the route left to its default
    (None) or set through CASS_ROUTE; each combination is built once per session."""
    built: dict[tuple[str, str | None], Path] = {}

    def build(which: str, route: str | None) -> Path:
        if (which, route) not in built:
            cmake = str(cmake_program(which))
            base = tmp_path_factory.mktemp(f"cmake-{which}-{route or 'default'}")
            source = copy_example("cmake_project", base)
            folder = base / "build"
            env = tool_env(**({"CASS_ROUTE": route} if route else {}))
            toolchain = run(["cass-cc", "toolchain-file"], cwd=base, env=env)
            assert toolchain.stdout.strip() == TOOLCHAIN_FILE, toolchain.stderr
            configure = run([cmake, f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}", "-S", str(source),
                             "-B", str(folder)], cwd=base, env=env)
            assert configure.returncode == 0, configure.stdout + configure.stderr
            compile_ = run([cmake, "--build", str(folder)], cwd=base, env=env)
            assert compile_.returncode == 0, compile_.stdout + compile_.stderr
            built[which, route] = folder
        return built[which, route]
    return build


TWICE = "__device__ int twice(int x) { return 2 * x; }\n"
RDC_MAIN = """\
#include <cstdio>
extern __device__ int twice(int x);  // defined in another .cu: relocatable device code

__global__ void doubled(int* out)
{
    out[threadIdx.x] = twice(threadIdx.x);
}

int main()
{
    int* d;
    int h[32];
    cudaMalloc(&d, sizeof h);
    doubled<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long sum = 0;
    int bad = 0;
    for (int i = 0; i < 32; ++i) {
        sum += h[i];
        bad += h[i] != 2 * i;
    }
    std::printf("checksum: %ld\\n%s\\n", sum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
"""


@pytest.fixture(scope="session")
def rdc_program(tmp_path_factory) -> Path:
    """Two .cu files sharing a device function: -dc, -rdc=true -c, then a plain link (cass-nvcc
    sees the relocatable device code in the objects)."""
    folder = tmp_path_factory.mktemp("rdc")
    (folder / "twice.cu").write_text(TWICE)
    (folder / "main.cu").write_text(RDC_MAIN)
    for argv in (["-dc", "twice.cu"], ["-rdc=true", "-c", "main.cu", "-o", "main.o"],
                 ["twice.o", "main.o", "-o", "prog"]):
        proc = run(["cass-nvcc", *argv], cwd=folder)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return folder / "prog"
