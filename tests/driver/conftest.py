"""Builds shared by the driver tests: each example is built once per session, in a copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cass_cc.driver.cmake import TOOLCHAIN_FILE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def tool_env(**extra: str) -> dict[str, str]:
    """The environment a user has after activating the venv: cass-nvcc, cass-cc on PATH. These
    tests are about the driver and the source route, so the route is pinned (the binary route
    has its own tests)."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["CASS_ROUTE"] = "source"
    env.update(extra)
    return env


def run(argv: list[str], cwd: str | os.PathLike, env: dict | None = None,
        timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env or tool_env(), capture_output=True, text=True,
                          timeout=timeout)


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


@pytest.fixture(scope="session")
def cmake_build(tmp_path_factory) -> Path:
    """examples/cmake_project configured with the toolchain file and built; returns the build
    folder."""
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed (apt-get install cmake)")
    base = tmp_path_factory.mktemp("cmake")
    source = copy_example("cmake_project", base)
    build = base / "build"
    toolchain = run(["cass-cc", "toolchain-file"], cwd=base)
    assert toolchain.stdout.strip() == TOOLCHAIN_FILE, toolchain.stderr
    configure = run(["cmake", f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}", "-S", str(source),
                     "-B", str(build)], cwd=base)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compile_ = run(["cmake", "--build", str(build)], cwd=base)
    assert compile_.returncode == 0, compile_.stdout + compile_.stderr
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
