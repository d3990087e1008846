"""An interrupted build leaves no private folders behind (make -j sends SIGTERM to every running
compile when one of them fails)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cass_cc import toolchain

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples" / "vector_add" / "vector_add.cu"


# While nvcc runs (its preprocessed source exists), and while the kernels are translated (nvcc's
# cubin exists, the early translation starts on it).
@pytest.mark.parametrize("signum,stage", [(signal.SIGTERM, "*.ii"), (signal.SIGHUP, "*.ii"),
                                          (signal.SIGTERM, "*.cubin")])
def test_signal_removes_private_folders(tmp_path: Path, signum: int, stage: str) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir), CASS_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, str(ROOT / "bin" / "cass-nvcc"), "-O2", "-c", str(SOURCE),
                             "-o", str(tmp_path / "x.o")], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(tmpdir.rglob(f"cass-nvcc-*/**/{stage}")):
        assert proc.poll() is None, f"the compile ended before it could be interrupted: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "the compile never created its private folder"
        time.sleep(0.02)
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, stderr
    assert f"terminated by {signal.Signals(signum).name}" in stderr
    assert [p.name for p in tmpdir.iterdir() if p.name.startswith("cass-")] == []
    assert [p.name for p in tmpdir.iterdir() if p.name.startswith("tmpxft")] == []  # nvcc's own
    assert not (tmp_path / "x.o").exists()


def test_signal_removes_the_translate_steps_folder(tmp_path: Path) -> None:
    """`cass-cc translate-object`, the build step run on its own (as a replayed --dryrun runs it),
    cleans up as cass-nvcc does."""
    nvcc_object = tmp_path / "nvcc.o"
    subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", str(SOURCE), "-o", str(nvcc_object)], check=True)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir), CASS_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, str(ROOT / "bin" / "cass-cc"), "translate-object", str(nvcc_object),
                             "-o", str(tmp_path / "x.o"), "--"], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(tmpdir.glob("translate-object-*")):
        assert proc.poll() is None, f"the step ended before it could be interrupted: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "the step never created its private folder"
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert "terminated by SIGTERM" in stderr
    assert list(tmpdir.iterdir()) == []
    assert not (tmp_path / "x.o").exists()
