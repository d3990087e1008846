"""Shared test helpers. Tests run the real tools (nvcc, llvm-mc, hipcc); make test installs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"


def run_tool(name: str, *args: str, cwd: str | os.PathLike | None = None, env: dict | None = None,
             timeout: int = 600) -> subprocess.CompletedProcess:
    """Run bin/<name> (cass-nvcc, cass-run, cass-cc) with this Python, capturing text output."""
    return subprocess.run([sys.executable, str(BIN / name), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Each test session gets its own translation cache, so tests never see stale entries."""
    if "CASS_CACHE_DIR" not in os.environ:
        os.environ["CASS_CACHE_DIR"] = str(tmp_path_factory.mktemp("cass-cache"))
    yield


@pytest.fixture(scope="session", autouse=True)
def _no_model_server():
    """No CASS model server exists in tests: the model translator's refusal ("no server at") is
    what tests that force a lifter refusal rely on. Port 9 (discard) is closed on test machines."""
    os.environ["CASS_MODEL_URL"] = "http://127.0.0.1:9/v1"
    yield
