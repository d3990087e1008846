"""CMake projects build unchanged with the toolchain file, on Debian's CMake (3.25) and on the
current one from PyPI, with the default route and with each route named: CMake's CUDA support
reads the implicit link line from `cass-nvcc -v` (the line holding LIBRARIES' text), and C++
targets that link objects cass-nvcc compiled get what it finds there. The programs run."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_tool

from cass_cc.rdna3.code_object import CodeObject

from .conftest import amd_code_objects, run, tool_env

# Every route on Debian's CMake; on PyPI's, the default and the two routes it can name (auto is
# the default spelled out, checked on Debian's).
VARIANTS = [("debian", None), ("debian", "auto"), ("debian", "binary"), ("debian", "source"),
            ("pypi", None), ("pypi", "binary"), ("pypi", "source")]
# The library CMake must find on the link line: the runtime every object of the route calls.
RUNTIME = {None: "cassrt", "auto": "cassrt", "binary": "cassrt", "source": "amdhip64"}
KERNEL = "_Z12saxpy_kernelifPKfPf"


@pytest.mark.slow
@pytest.mark.parametrize("cmake,route", VARIANTS, ids=[f"{c}-{r or 'default'}" for c, r in VARIANTS])
def test_cmake_project_builds_and_runs(cmake_builds, cmake, route):
    build = cmake_builds(cmake, route)
    [compiler] = build.glob("CMakeFiles/*/CMakeCUDACompiler.cmake")
    info = compiler.read_text()
    assert 'set(CMAKE_CUDA_COMPILER_ID "NVIDIA")' in info
    found = re.search(r'set\(CMAKE_CUDA_HOST_IMPLICIT_LINK_LIBRARIES "([^"]*)"\)', info).group(1)
    assert RUNTIME[route] in found.split(";"), info
    # saxpy_demo is linked by C++ (main.cpp) with the CUDA library, saxpy_selftest by cass-nvcc.
    for program in ("saxpy_demo", "saxpy_selftest"):
        objects = amd_code_objects(build / program)
        # the lifter's code objects are `hip-…`, hipcc's `hipv4-…`: the route taken is the one asked for
        assert {co.id.split("-")[0] for co in objects} == ({"hipv4"} if route == "source" else {"hip"})
        assert KERNEL in {k for co in objects for k in CodeObject(co.data).kernels}
        proc = run_tool("cass-run", str(build / program), timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[0].startswith("checksum: ") and lines[-1] == "PASS", proc.stdout


def cmake_link_line(verbose_output: str) -> str:
    """The command line CMake takes for nvcc's host link: the last `LIBRARIES=` value, searched
    for in each command that follows the variable lines (CMakeNVCCParseImplicitInfo.cmake)."""
    values = re.findall(r"^#\$ +LIBRARIES= *([^\n]*)$", verbose_output, re.M)
    assert values, verbose_output
    commands = [line[3:] for line in verbose_output.splitlines()
                if line.startswith("#$ ") and not re.match(r"#\$ *[^= ]+=", line)]
    found = [c for c in commands if values[-1] in c]
    assert len(found) == 1, (values[-1], commands)
    return found[0]


@pytest.mark.parametrize("route", [None, "auto", "binary", "source"])
def test_verbose_output_names_the_link_it_runs(tmp_path, route):
    """`-v --dryrun` prints the jobs a build runs; the link among them names the libraries that
    LIBRARIES says it does, and they are the route's runtime."""
    (tmp_path / "a.cu").write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); }\n")
    env = tool_env(**({"CASS_ROUTE": route} if route else {}))
    proc = run(["cass-nvcc", "-v", "--dryrun", "a.cu", "-o", "a.out"], cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    link = cmake_link_line(proc.stderr)
    assert f"-l{RUNTIME[route]}" in link.split() and " -o " in link
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.cu"]
