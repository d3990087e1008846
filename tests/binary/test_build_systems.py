"""Build integration on the binary route: the examples' own Makefiles with NVCC=cass-nvcc."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from binroute import EXAMPLES, ROOT, cass_run, reports

pytestmark = pytest.mark.slow  # builds and emulates whole programs


def test_vector_add_makefile(tmp_path):
    src = tmp_path / "vector_add"
    shutil.copytree(EXAMPLES / "vector_add", src, ignore=shutil.ignore_patterns("*.o", "vector_add"))
    nvcc = f"{sys.executable} {ROOT / 'bin' / 'cass-nvcc'}"
    proc = subprocess.run(["make", "-C", str(src), f"NVCC={nvcc}"], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "CASS_ROUTE": "binary", "CASS_REPORT_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = cass_run(src / "vector_add")
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    kernels = [k for r in reports(tmp_path) for k in r["kernels"]]
    assert kernels and all(k["tier"] == "lift" for k in kernels), kernels
