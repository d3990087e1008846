"""`cass-nvcc --dryrun` prints the commands a build runs, and they replay (issue 13): pasted into a
shell one after another they make the same AMD code as the build itself. sccache's nvcc support
relies on that: it splits a compile by replaying `nvcc --dryrun`. The private folders the build
would have made are made first (a dry run makes and removes them; the commands name them)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from cass_cc.driver.binary_embed import fatbin_section
from tests.conftest import run_tool

from .conftest import tool_env

pytestmark = pytest.mark.slow   # builds and translates

KERNEL = """#include <cstdio>
__device__ int twice(int v);
__global__ void fill(int* out) { out[threadIdx.x] = twice(threadIdx.x) + 1; }
int main() {
  int* d; int h[32];
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int v : h) sum += v;
  printf("sum %d\\n", sum);
  return 0;
}
"""
HELPER = "__device__ int twice(int v) { return 2 * v; }\n"
PRIVATE = re.compile(r"/cass-nvcc-[^/]+/")


def _commands(stderr: str) -> list[list[str]]:
    """The dry run's commands, without nvcc's variable lines (TOP=..., PATH=...)."""
    lines = [l[3:] for l in stderr.splitlines() if l.startswith("#$ ")]
    return [shlex.split(l) for l in lines if not re.match(r"[A-Z_]+=", l)]


def replay_env(folder: Path, **extra: str) -> dict[str, str]:
    """The tools' environment for a build and its replay, with TMPDIR in `folder`: the replayed
    commands recreate the private folders the dry run named, and nothing removes them after."""
    (folder / "tmp").mkdir(exist_ok=True)
    return tool_env(CASS_CACHE_DIR=str(folder / "cache"), TMPDIR=str(folder / "tmp"), **extra)


def _replay(commands: list[list[str]], cwd: Path, env: dict[str, str]) -> None:
    for argv in commands:
        for token in argv:
            path = token.split("=", 1)[-1]
            if PRIVATE.search(path):
                folder = path if token.startswith("-keep-dir=") else os.path.dirname(path)
                os.makedirs(folder, exist_ok=True)
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"{shlex.join(argv)}\n{proc.stdout}{proc.stderr}"


def _write_sources(folder: Path) -> None:
    (folder / "main.cu").write_text(KERNEL.replace("__device__ int twice(int v);",
                                                   "__device__ int twice(int v) { return 2 * v; }"))
    (folder / "split.cu").write_text(KERNEL)
    (folder / "helper.cu").write_text(HELPER)


@pytest.mark.parametrize("dry", ["--dryrun", "-###"])
def test_a_compile_replays_to_the_same_amd_code(tmp_path: Path, dry: str) -> None:
    _write_sources(tmp_path)
    env = replay_env(tmp_path)
    built = run_tool("cass-nvcc", "-c", "main.cu", "-o", "built.o", cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    printed = run_tool("cass-nvcc", dry, "-c", "main.cu", "-o", "replayed.o", cwd=tmp_path, env=env)
    assert printed.returncode == 0, printed.stderr
    commands = _commands(printed.stderr)
    variables = [l[3:] for l in printed.stderr.splitlines() if re.match(r"#\$ [A-Z_]+=", l)]
    assert not [v for v in variables if re.search(r" [A-Z_]+=", v)], "one variable a line, as sccache reads them"
    assert {"CASS_ROUTE=binary", "CASS_OFFLOAD_ARCH=gfx1100"} <= set(variables), variables
    assert not (tmp_path / "replayed.o").exists()
    assert [c[1] for c in commands if c[0] == "cass-cc"] == ["translate-object"]
    _replay(commands, tmp_path, env)
    assert fatbin_section(str(tmp_path / "replayed.o")) == fatbin_section(str(tmp_path / "built.o"))


def test_an_rdc_link_prints_and_replays_the_device_link(tmp_path: Path) -> None:
    _write_sources(tmp_path)
    env = replay_env(tmp_path)
    dry = run_tool("cass-nvcc", "--dryrun", "-rdc=true", "split.cu", "helper.cu", "-o", "prog",
                   cwd=tmp_path, env=env)
    assert dry.returncode == 0, dry.stderr
    commands = _commands(dry.stderr)
    dlinks = [c for c in commands if "-dlink" in c]
    assert len(dlinks) == 1 and os.path.basename(dlinks[0][0]) == "nvcc", dry.stderr
    translated = [c for c in commands if c[:2] == ["cass-cc", "translate-object"]]
    assert any(c[2] == dlinks[0][dlinks[0].index("-o") + 1] for c in translated), \
        "the device link's product is translated"
    _replay(commands, tmp_path, env)
    run = run_tool("cass-run", "./prog", cwd=tmp_path, env=env, timeout=600)
    assert run.returncode == 0 and run.stdout == "sum 1024\n", run.stdout + run.stderr
