"""The built AMD programs run (cass-run: on an AMD GPU, or on the emulator here) and check
themselves: the vector_add example from make and the CMake example."""

from __future__ import annotations

import pytest

from tests.conftest import run_tool


def test_vector_add_runs(vector_add_build):
    proc = run_tool("cass-run", str(vector_add_build / "vector_add"), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["checksum: 1.250750e+06", "PASS"]


@pytest.mark.parametrize("program", ["saxpy_demo", "saxpy_selftest"])
def test_cmake_programs_run(cmake_build, program):
    proc = run_tool("cass-run", str(cmake_build / program), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "PASS"
    assert proc.stdout.splitlines()[0].startswith("checksum: ")


def test_relocatable_device_code_program_runs(rdc_program):
    proc = run_tool("cass-run", str(rdc_program), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["checksum: 992", "PASS"]
