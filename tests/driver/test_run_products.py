"""The built AMD programs run (cass-run: on an AMD GPU, or on the emulator here) and check
themselves: the vector_add example from make, a program of relocatable device code (the CMake
example's programs run in test_cmake.py)."""

from __future__ import annotations

from tests.conftest import run_tool


def test_vector_add_runs(vector_add_build):
    proc = run_tool("cass-run", str(vector_add_build / "vector_add"), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["checksum: 1.250750e+06", "PASS"]


def test_relocatable_device_code_program_runs(rdc_program):
    proc = run_tool("cass-run", str(rdc_program), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["checksum: 992", "PASS"]
