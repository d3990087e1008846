"""On the source route (and for .c/.cpp host files) `cass-nvcc --dryrun` prints real commands too:
`cass-cc hipify` into the mirror, the compiler with `-include <mirror>/cass-compat.h`, `cass-cc
unmirror`, `cass-cc report`, `cass-cc save-temps`, `mv`. Replayed one after another they give what
the build gives (issue 13, item 1)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from cass_cc.driver.hip_fatbin import code_objects, section_bytes
from cass_cc.rdna3.code_object import CodeObject
from tests.conftest import run_tool

from .test_dryrun_replay import _replay, replay_env

pytestmark = pytest.mark.slow   # builds with hipcc

MAIN = """#include <cstdio>
#include "fill.cuh"
void report(const int* h, int n);
int main() {
  int* d; int h[32];
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  report(h, 32);
  return 0;
}
"""
HEADER = "__global__ void fill(int* out) { out[threadIdx.x] = 2 * threadIdx.x + 1; }\n"
HOST = """#include <cstdio>
#include <cuda_runtime.h>
void report(const int* h, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  int count = 0;
  cudaGetDeviceCount(&count);
  printf("sum %d devices %d\\n", sum, count > 0);
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "main.cu").write_text(MAIN)
    (tmp_path / "fill.cuh").write_text(HEADER)
    (tmp_path / "host.cpp").write_text(HOST)
    return tmp_path


def _env(folder: Path, **extra: str) -> dict[str, str]:
    return replay_env(folder, CASS_ROUTE="source", **extra)


VARIABLE = re.compile(r"([A-Z_][A-Z0-9_]*)=(.*)")


def _dry(folder: Path, env: dict[str, str], *args: str) -> list[tuple[dict[str, str], list[str]]]:
    """The dry run's commands, each with the environment it runs in: nvcc's `#$ NAME=value` lines
    set a variable for the commands that follow (as sccache replays them)."""
    dry = run_tool("cass-nvcc", "--dryrun", *args, cwd=folder, env=env)
    assert dry.returncode == 0, dry.stderr
    steps, variables = [], dict(env)
    for line in (l[3:] for l in dry.stderr.splitlines() if l.startswith("#$ ")):
        m = VARIABLE.fullmatch(line)
        if m:
            variables = {**variables, m[1]: m[2]}
        else:
            steps.append((variables, shlex.split(line)))
    return steps


def _replay_steps(steps: list[tuple[dict[str, str], list[str]]], cwd: Path) -> None:
    for variables, argv in steps:
        _replay([argv], cwd, variables)


def _kernels(path: Path) -> list[str]:
    return sorted(n for co in code_objects(str(path)) for n in CodeObject(co.data).kernels)


def test_a_source_route_compile_replays(project: Path) -> None:
    env = _env(project)
    built = run_tool("cass-nvcc", "-c", "main.cu", "-o", "built.o", "--cass-report", "built.json",
                     "--cass-save-temps", "-MD", cwd=project, env=env)
    assert built.returncode == 0, built.stderr
    (project / "built.hip").write_bytes((project / "main.hip").read_bytes())
    (project / "main.hip").unlink()
    steps = _dry(project, env, "-c", "main.cu", "-o", "replayed.o", "--cass-report", "replayed.json",
                 "--cass-save-temps", "-MD")
    commands = [argv for _, argv in steps]
    assert [c[1] for c in commands if c[0] == "cass-cc"] == ["hipify", "report", "unmirror", "save-temps"], commands
    compile_ = next(c for c in commands if "-c" in c and c[0].endswith("hipcc"))
    mirror = commands[0][commands[0].index("--mirror") + 1]
    assert compile_[-5:-1] == ["-include", f"{mirror}/cass-compat.h", f"{mirror}{project}/main.cu", "-o"]
    assert not (project / "replayed.o").exists()

    _replay_steps(steps, project)
    assert _kernels(project / "replayed.o") == _kernels(project / "built.o") == ["_Z4fillPi"]
    assert section_bytes(str(project / "replayed.o")) == section_bytes(str(project / "built.o"))
    assert (project / "main.hip").read_bytes() == (project / "built.hip").read_bytes()
    assert "__global__ void fill" in (project / "main.hip-fill.cuh").read_text()
    built_report, replayed = (json.loads((project / f"{n}.json").read_text()) for n in ("built", "replayed"))
    assert [k["name"] for k in replayed["kernels"]] == [k["name"] for k in built_report["kernels"]]
    assert replayed["route"] == "source" and replayed["source"] == "main.cu"
    deps = (project / "replayed.d").read_text()
    assert deps.startswith("replayed.o:") and " main.cu " in deps and " fill.cuh" in deps, deps[:200]
    assert "cass-compat.h" not in deps and "cass-nvcc-" not in deps
    assert deps == (project / "built.d").read_text().replace("built.o:", "replayed.o:", 1)


def test_a_source_route_program_replays_and_runs(project: Path) -> None:
    env = _env(project)
    steps = _dry(project, env, "main.cu", "host.cpp", "-o", "prog")
    commands = [argv for _, argv in steps]
    hipified = [c[2] for c in commands if c[:2] == ["cass-cc", "hipify"]]
    assert hipified == ["main.cu", "host.cpp"], commands
    _replay_steps(steps, project)
    run = run_tool("cass-run", "./prog", cwd=project, env=env, timeout=600)
    assert run.returncode == 0 and run.stdout == "sum 1024 devices 1\n", run.stdout + run.stderr


@pytest.mark.parametrize("mode, source", [(["-M", "-MP"], "main.cu"), (["-E"], "main.cu"), (["-M"], "host.cpp")])
def test_dependencies_and_preprocessed_text_replay(project: Path, mode: list[str], source: str) -> None:
    env = _env(project)
    built = run_tool("cass-nvcc", *mode, source, "-o", "built.txt", cwd=project, env=env)
    assert built.returncode == 0, built.stderr
    steps = _dry(project, env, *mode, source, "-o", "replayed.txt")
    assert [c[1] for _, c in steps if c[0] == "cass-cc"] == ["hipify", "unmirror"], steps
    _replay_steps(steps, project)
    text = (project / "replayed.txt").read_text()
    assert text == (project / "built.txt").read_text()
    assert "cass-nvcc-" not in text and "cass-compat.h" not in text


def test_hipify_step_prints_its_warnings_about_the_users_files(project: Path) -> None:
    (project / "fill.cuh").write_text("void later();\nvoid use() { cudaStreamBeginCaptureToGraph(0, later); }\n" + HEADER)
    env = _env(project)
    variables, hipify = _dry(project, env, "-c", "main.cu", "-o", "main.o")[0]
    assert hipify[:3] == ["cass-cc", "hipify", "main.cu"]
    Path(hipify[hipify.index("--mirror") + 1]).parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(hipify, cwd=project, env=variables, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "fill.cuh:2: warning: 'cudaStreamBeginCaptureToGraph' is not in the CUDA->HIP tables; it is left unchanged\n"
    manifest = json.loads((Path(hipify[hipify.index("--mirror") + 1]) / "cass-manifest.json").read_text())
    assert manifest["source"] == "main.cu" and len(manifest["files"]) == 2


@pytest.mark.parametrize("argv, message", [
    (["hipify", "main.cu"], "hipify: option '--mirror' is needed (see cass-cc hipify --help)"),
    (["unmirror", "x.d", "--mirror", "m"], "unmirror: option '-o' is needed (see cass-cc unmirror --help)"),
    (["save-temps", "--mirror", "nowhere", "out"], "'nowhere' holds no hipified copy (cass-manifest.json is "
     "missing): run cass-cc hipify first"),
    (["report", "a.o", "b.o", "--mirror", "m"], "report: one OBJECT expected, got 2 (see cass-cc report --help)"),
    (["hipify", "-q", "main.cu", "--mirror", "m"], "hipify: unknown option '-q' (nvcc options go after '--') "
     "(see cass-cc hipify --help)"),
])
def test_bad_step_arguments_give_one_line(project: Path, argv: list[str], message: str) -> None:
    proc = run_tool("cass-cc", *argv, cwd=project, env=_env(project))
    assert proc.returncode == 1 and proc.stderr == f"cass-cc: error: {message}\n", proc.stderr
