"""cass-cc doctor: every tool listed with where it is and its version; missing ones say how to get
them and make the exit status 1."""

from __future__ import annotations

import os
import sys

from cass_cc.doctor import CHECKS

from .conftest import run

DOCTOR = [sys.executable, "-c", "import sys; from cass_cc.cli import main; sys.exit(main(['doctor']))"]


def test_doctor_finds_the_installed_tools(tmp_path):
    proc = run(DOCTOR, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for check in CHECKS:
        line = next(l for l in lines if f" {check.name} " in l)
        assert line.startswith("ok "), line
        assert "(" in line and ")" in line  # a version or description
    assert lines[-1] == "all required tools found"
    # The source route's compiler per target: hipcc's clang 15 lacks gfx12 and gfx942.
    compilers = {l.split()[0]: l.split()[1] for l in lines[lines.index(
        "source route (and hipify fallback) compiler per target:") + 1:-1]}
    assert compilers == {"gfx1030": "hipcc", "gfx1100": "hipcc", "gfx1101": "hipcc", "gfx1102": "hipcc",
                         "gfx1200": "clang-22", "gfx1201": "clang-22", "gfx90a": "hipcc", "gfx942": "clang-22"}


def test_doctor_reports_missing_tools(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), CC="no-such-cc")
    env.pop("ROCM_PATH", None)
    proc = run(DOCTOR, cwd=tmp_path, env=env)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    hipcc = proc.stdout.split("MISSING  hipcc", 1)
    assert len(hipcc) == 2, proc.stdout
    assert "how to get it: apt-get install hipcc" in hipcc[1].splitlines()[1]
    assert "required tool(s) missing" in proc.stdout.splitlines()[-1]
