"""`cass-cc bench` on a quick subset: three small programs through the binary and source routes,
real builds and emulator runs; the three output files and the summary's last line."""

from __future__ import annotations

import json
import re

import pytest

from cass_cc.bench.programs import checksums_agree, discover, judge
from tests.conftest import run_tool

QUICK = "primitives/reduce_warp,crypto/crc32_table,bio/smith_waterman"


def test_programs_cover_every_domain_three_times():
    programs = discover()
    domains = {}
    for p in programs:
        domains.setdefault(p.domain, []).append(p.name)
    assert len(programs) >= 48
    assert len(domains) == 16
    assert all(len(names) >= 3 for names in domains.values()), domains


def test_checksums_compare_integers_exactly_and_floats_within_tolerance():
    assert checksums_agree("12345", "12345")
    assert not checksums_agree("12346", "12345")
    assert checksums_agree("1.000050e+00", "1.000000e+00")
    assert not checksums_agree("1.000200e+00", "1.000000e+00")
    assert not checksums_agree("nan", "1.0")


def test_judge_needs_pass_exit_zero_and_the_reference_checksum():
    ref = "checksum: 7\nPASS\n"
    assert judge(0, "checksum: 7\nPASS\n", ref) == (True, "")
    assert judge(0, "checksum: 8\nPASS\n", ref)[0] is False
    assert judge(1, "checksum: 7\nFAIL\n", ref)[0] is False
    assert judge(3, "checksum: 7\nPASS\n", ref)[0] is False
    assert judge(0, "checksum: 8\nPASS\n", None) == (True, "")


@pytest.fixture(scope="session")
def quick_bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    done = run_tool("cass-cc", "bench", "--only", QUICK, "--routes", "binary,source", "--jobs", "2",
                    "--out", str(out), timeout=900)
    return done, out


@pytest.mark.slow
def test_quick_subset_writes_three_files_and_ends_with_the_count(quick_bench):
    done, out = quick_bench
    assert done.returncode == 0, done.stderr
    md = (out / "summary.md").read_text().splitlines()
    assert re.fullmatch(r"\d+ passed, \d+ failed", md[-1])
    assert md[-1] == "6 passed, 0 failed", (out / "summary.md").read_text()
    assert done.stdout.splitlines()[-1] == md[-1]
    assert (out / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((out / "summary.json").read_text())
    assert data["summary"]["passed"] == 6 and data["summary"]["programs"] == 3
    for result in data["results"]:
        binary, source = result["routes"]["binary"], result["routes"]["source"]
        assert binary["kernels"] and all(k["tier"] == "lift" for k in binary["kernels"])
        assert source["kernels"] and all(k["tier"] == "hipify" for k in source["kernels"])
        assert binary["build_cold_seconds"] > 0 and binary["build_warm_seconds"] > 0
        assert binary["wave_instructions"] and source["wave_instructions"]
    assert data["summary"]["wave_ratios"], "binary/source ratios per kernel"


@pytest.mark.slow
def test_offload_arch_builds_and_runs_every_route_for_that_target(tmp_path):
    """--offload-arch gfx942: both routes build a wave64 program the emulator runs as gfx942, and
    the binary route's wave instructions are compared with the native (source route) build's."""
    done = run_tool("cass-cc", "bench", "--offload-arch", "gfx942", "--only", "crypto/crc32_table",
                    "--routes", "binary,source", "--out", str(tmp_path), timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "2 passed, 0 failed", (tmp_path / "summary.md").read_text()
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["summary"]["offload_arch"] == "gfx942" and data["summary"]["wave_ratios"]
    assert "1 programs built for gfx942" in (tmp_path / "summary.md").read_text()


def test_offload_arch_goes_with_the_default_mode_quality_and_translators_only(tmp_path):
    done = run_tool("cass-cc", "bench", "--prebuilt", "--offload-arch", "gfx942", "--out", str(tmp_path))
    assert done.returncode == 2 and "--offload-arch goes with the default mode" in done.stderr
    done = run_tool("cass-cc", "bench", "--offload-arch", "gfx999", "--out", str(tmp_path))
    assert done.returncode == 2 and "gfx999" in done.stderr and "Traceback" not in done.stderr


def test_no_matching_program_is_a_one_line_error(tmp_path):
    done = run_tool("cass-cc", "bench", "--only", "nosuch/*", "--out", str(tmp_path / "o"))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "no benchmark program matches 'nosuch/*'" in done.stderr
    assert not (tmp_path / "o").exists()


def test_unknown_route_is_refused(tmp_path):
    done = run_tool("cass-cc", "bench", "--routes", "binary,magic", "--out", str(tmp_path / "o"))
    assert done.returncode == 2
    assert "magic" in done.stderr and "Traceback" not in done.stderr


def test_prebuilt_refuses_routes_and_jobs(tmp_path):
    proc = run_tool("cass-cc", "bench", "--prebuilt", "--routes", "binary", "--out", str(tmp_path))
    assert proc.returncode == 2 and "--prebuilt takes no --routes" in proc.stderr


@pytest.mark.slow
def test_prebuilt_translates_at_the_first_run_and_reads_the_cache_at_the_second(tmp_path):
    """One plain nvcc build under cass-run: its image is translated at the first run, found in the
    image cache at the second, beside a cass-nvcc build of the same source (no timing is judged)."""
    proc = run_tool("cass-cc", "bench", "--prebuilt", "--only", "crypto/crc32_table", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 passed, 0 failed"
    result, = json.loads((tmp_path / "summary.json").read_text())["programs"]
    assert result["passed"] and result["modules"] == 1
    assert [i["cached"] for i in result["first"]["images"]] == [False]
    assert [i["cached"] for i in result["second"]["images"]] == [True]
    assert (tmp_path / "summary.md").read_text().rstrip().endswith("1 passed, 0 failed")
