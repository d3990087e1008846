"""What cass-run stops and what it lets run, as a GPU would: hangs (no progress) and faults stop
a program with exit status 134; the instruction budget is an option (--emu-budget); accesses
inside an allocation's page padding run, with a warning, unless --strict."""

from __future__ import annotations

import pytest

from .conftest import cass_run


def _report(proc) -> str:
    return proc.stderr.strip().splitlines()[-1]


@pytest.mark.slow
def test_barrier_that_never_fills_is_reported_as_a_hang(hip_program):
    proc = cass_run(hip_program("fault_hang"), "--emulate", timeout=120)
    assert proc.returncode == 134, proc.stderr
    assert proc.stdout == "launching\n"
    report = _report(proc)
    assert report.startswith("cass-run: kernel '_Z12wait_for_allPj' pc 0x"), report
    assert " lane 0 hangs" in report and "no progress" in report and "back in a state" in report


@pytest.mark.slow
def test_counting_spin_is_a_hang_after_the_stretch(hip_program):
    proc = cass_run(hip_program("fault_budget"), "--emulate",
                    env_extra={"CASS_EMU_HANG_INSTRUCTIONS": "20000", "CASS_EMU_MAX_INSTRUCTIONS": ""})
    assert proc.returncode == 134, proc.stderr
    report = _report(proc)
    assert report.startswith("cass-run: kernel '_Z4spinPViPi' pc 0x") and "hangs" in report
    assert "CASS_EMU_HANG_INSTRUCTIONS=20000" in report


@pytest.mark.slow
def test_emu_budget_option_stops_the_program(hip_program):
    proc = cass_run(hip_program("fault_budget"), "--emu-budget", "20000")
    assert proc.returncode == 134, proc.stderr
    report = _report(proc)
    assert report.startswith("cass-run: kernel '_Z4spinPViPi' pc 0x")
    assert "instruction budget of 20000 wave-instructions exhausted (--emu-budget" in report


@pytest.mark.slow
def test_access_inside_the_page_runs_with_one_warning_per_instruction(hip_program):
    proc = cass_run(hip_program("fault_padding"), "--emulate")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "PASS\n"
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("cass-run: warning: kernel")]
    assert len(warnings) == 2, proc.stderr                      # the load and the store, once each
    assert all("'_Z7add_onePKiPi'" in w and "lane 30 " in w and "4 bytes past the end of the allocation at 0x"
               in w and "(size 120)" in w for w in warnings), warnings
    assert {w.split("'")[3].split()[0][:12] for w in warnings} == {"global_load_", "global_store"}
    summary = proc.stderr.strip().splitlines()[-1]
    assert summary.startswith("cass-run: warning: 2 instruction(s) went past the end of an allocation")
    assert "4 time(s) in all" in summary and "--strict" in summary


@pytest.mark.slow
def test_strict_makes_the_access_inside_the_page_a_fault(hip_program):
    proc = cass_run(hip_program("fault_padding"), "--strict")
    assert proc.returncode == 134, proc.stderr
    report = _report(proc)
    assert report.startswith("cass-run: kernel '_Z7add_onePKiPi' pc 0x") and "global_load" in report
    assert "lane 30 read of 4 bytes at 0x" in report and "past the end of the allocation" in report
    assert "--strict" in report
