"""`cass-cc bench --suite`: the manifest reader, the line/number comparison and the verdicts, and
the runner end to end on tests/suites/selftest (tiny programs of our own, real builds and runs):
a pass, a pass compared with the reference lines and file, a build error, a timeout, an expected
refusal, and a reference that disagrees, which must be reported WRONG."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cass_cc.bench import suite_judge as J
from cass_cc.bench.suite_manifest import load
from cass_cc.bench.suite_reference import entry_for, record_entry
from cass_cc.errors import CassError
from tests.conftest import ROOT, run_tool

SUITES = ROOT / "tests" / "suites"
SELFTEST = SUITES / "selftest.toml"
HAS_NVIDIA_GPU = shutil.which("nvidia-smi") is not None and subprocess.run(
    ["nvidia-smi", "-L"], capture_output=True).returncode == 0


def _manifest(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "m.toml"
    path.write_text(text)
    return path


MINIMAL = '[suite]\nname = "t"\n\n[[program]]\nname = "p"\ndir = "p"\nsources = ["p.cu"]\n'


def test_manifest_defaults_and_files(tmp_path):
    suite = load(_manifest(tmp_path, MINIMAL.replace('name = "t"', 'name = "t"\nfiles = ["common"]')))
    (p,) = suite.programs
    assert (p.binary, p.expect, p.timeout, p.rtol, p.files) == ("p", "pass", 300, 1e-5, ("common",))
    assert suite.reference_path == tmp_path / "m.ref.json"


@pytest.mark.parametrize("extra, message", [
    ('comapre = ["x"]', "unknown key 'comapre'"),
    ('args = "1 2"', "'args' must be a list"),
    ('files = ["../outside"]', "must be a relative path inside the source root"),
    ('pass = "("', "'pass' is not a valid regular expression"),
    ('expect = "refused"', "needs a 'reason'"),
    ('expect = "maybe"', "'expect' must be"),
    ('exit = "1"', "'exit' must be an integer"),
    ('exit = 1.0', "'exit' must be an integer"),
    ('exit = 256', "'exit' must be an exit status, 0 to 255"),
    ('exit = -1', "'exit' must be an exit status, 0 to 255"),
])
def test_manifest_mistakes_are_one_line_errors(tmp_path, extra, message):
    with pytest.raises(CassError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load(_manifest(tmp_path, MINIMAL + extra + "\n"))


def test_numbers_within_tolerance_text_and_integers_exactly():
    assert J.line_difference("sum: 1.0000001e+06 ok", "sum:  1.0e+06 ok", 1e-5, 0) is None
    assert J.line_difference("sum: 1.0001e+06", "sum: 1.0e+06", 1e-5, 0) is not None
    assert J.line_difference("count 12346", "count 12345", 1e-3, 0) is not None  # integers are exact
    assert J.line_difference("x-1 nan", "x-1 nan", 0, 0) is None
    assert J.line_difference("nan", "1.0", 1, 1) is not None
    assert J.line_difference("total 5", "sum 5", 0, 0) is not None
    assert J.line_difference("-0.0000001", "0.0", 0, 1e-6) is None


def _program(tmp_path, extra=""):
    return load(_manifest(tmp_path, MINIMAL + 'pass = "^PASS$"\nfail = "FAIL"\ncompare = ["^r: "]\n'
                          'outputs = ["o.txt"]\n' + extra)).programs[0]


def test_verdicts(tmp_path):
    p = _program(tmp_path)
    out = "r: 1.5\nPASS\n"
    ref = record_entry(p, out, 0, {"o.txt": b"1 2 3\n"})
    assert ref["lines"] == ["r: 1.5"] and ref["outputs"] == {"o.txt": {"text": "1 2 3\n"}}
    ok = {"o.txt": b"1 2 3\n"}
    assert J.judge_run(p, 0, out, "", ok, ref, False) == J.Verdict(J.PASS)
    assert J.judge_run(p, 0, out, "", ok, None, False).status == J.UNVERIFIED
    assert J.judge_run(p, 0, "r: 1.6\nPASS\n", "", ok, ref, False).status == J.WRONG
    assert J.judge_run(p, 0, out, "", {"o.txt": b"1 2 4\n"}, ref, False).status == J.WRONG
    assert J.judge_run(p, 0, out, "", {"o.txt": None}, ref, False).status == J.WRONG
    assert J.judge_run(p, 0, "r: 1.5\nFAIL\n", "", ok, ref, False).status == J.WRONG  # exit 0, own check fails
    assert J.judge_run(p, 134, "", "emulator: fault in k at pc 0x10", ok, ref, False) == J.Verdict(
        J.FAIL, "exit 134: emulator: fault in k at pc 0x10")
    assert J.judge_run(p, None, "", "", ok, ref, True).reason == "timeout after 300 s"
    assert J.judge_run(p, 1, "", "cass-run: error: cooperative launch not supported", ok, ref,
                       False).status == J.REFUSED
    assert J.judge_build("x.cu(2): error: identifier \"y\" is undefined", by_cass=True).status == J.BUILD_ERROR
    assert J.judge_build("cass-nvcc: error: option '-G' is not supported yet: ...", by_cass=True).status == J.REFUSED
    refused = _program(tmp_path, 'expect = "refused"\nreason = "texture references"\n')
    assert J.expected_refusal(refused, J.Verdict(J.REFUSED, "r")).reason == "as expected: r"
    assert J.expected_refusal(refused, J.Verdict(J.PASS)).reason.startswith("expected refused")


def test_a_program_that_ends_nonzero_on_success(tmp_path):
    """`exit = N`: the exit status of a normal end; 0 then is a failure like any other status."""
    p = load(_manifest(tmp_path, MINIMAL + 'exit = 1\npass = "^PASS$"\n')).programs[0]
    assert p.exit == 1 and load(_manifest(tmp_path, MINIMAL)).programs[0].exit == 0
    assert J.judge_run(p, 1, "PASS\n", "", {}, None, False) == J.Verdict(J.PASS)
    assert J.judge_run(p, 0, "PASS\n", "", {}, None, False) == J.Verdict(J.FAIL, "exit 0, expected 1")
    assert J.judge_run(p, 1, "no\n", "", {}, None, False).status == J.WRONG


def test_a_reference_recorded_with_other_arguments_is_stale(tmp_path):
    p = _program(tmp_path)
    entry = record_entry(p, "r: 1\nPASS\n", 0, {"o.txt": b""})
    entry["built_with"]["args"] = ["999"]
    assert entry_for({"programs": {"p": entry}}, p) == (
        None, "stale H200 reference (recorded with other sources, flags or args)")


def _cells(stdout: str) -> dict[str, list[str]]:
    rows = [line for line in stdout.splitlines() if line.startswith("| ") and not line.startswith("| program")]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in row.strip("|").split(" | ")] for row in rows)}


@pytest.fixture(scope="module")
def selftest_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("selftest")
    done = run_tool("cass-cc", "bench", "--suite", str(SELFTEST), "--routes", "auto,nvcc", "--jobs", "2",
                    "--out", str(out), timeout=1200)
    return done, out


@pytest.mark.slow
def test_selftest_suite_tells_every_outcome_apart(selftest_run):
    done, out = selftest_run
    assert done.returncode == 0, done.stdout + done.stderr
    cells = _cells(done.stdout)
    assert cells["pass_simple"][0] == "pass"
    assert cells["checksum_ref"][0] == "pass"
    assert cells["build_error"][0].startswith("build error(") and "undeclared_value" in cells["build_error"][0]
    assert cells["build_error"][1].startswith("build error(") and "undeclared_value" in cells["build_error"][1]
    assert cells["timeout"][0] == "FAIL(timeout after 10 s)"
    assert cells["refused_option"][0].startswith(
        "refused(as expected: cass-nvcc: error: option '-time' is not supported yet"), cells["refused_option"]
    if not HAS_NVIDIA_GPU:
        assert all(cells[p][1] == "not run(no NVIDIA GPU)" for p in ("pass_simple", "checksum_ref", "timeout"))
    md = (out / "summary.md").read_text()
    assert md.splitlines()[-1] == done.stdout.splitlines()[-1]
    if not HAS_NVIDIA_GPU:  # the expected refusal counts as neither
        assert md.splitlines()[-2:] == ["0 unverified (no H200 reference that applies), 1 refused as expected, 4 not run",
                                        "2 passed, 3 failed"]
    data = json.loads((out / "summary.json").read_text())
    by_name = {r["program"]: r for r in data["results"]}
    kernels = by_name["checksum_ref"]["routes"]["auto"]["kernels"]
    assert {k["demangled"].split("(")[0] for k in kernels} == {"fill", "block_sums"}
    assert by_name["checksum_ref"]["routes"]["nvcc"]["build_seconds"] > 0  # the baseline is always timed


@pytest.mark.slow
def test_a_different_reference_is_reported_wrong(tmp_path):
    """The H200 said another sum: the emulated run ends normally with its own check passing, and
    the runner must call it WRONG, loudly, and exit 3."""
    shutil.copy(SELFTEST, tmp_path / "selftest.toml")
    ref = json.loads((SUITES / "selftest.ref.json").read_text())
    lines = ref["programs"]["checksum_ref"]["lines"]
    lines[1] = lines[1].replace("2046384", "2046385")
    (tmp_path / "selftest.ref.json").write_text(json.dumps(ref))
    done = run_tool("cass-cc", "bench", "--suite", str(tmp_path / "selftest.toml"), "--sources",
                    str(SUITES / "selftest"), "--routes", "auto", "--only", "checksum_*", "--out",
                    str(tmp_path / "out"), timeout=900)
    assert done.returncode == 3, done.stdout + done.stderr
    cell = _cells(done.stdout)["checksum_ref"][0]
    assert cell == "WRONG(stdout line 2: 2046384 vs H200 2046385 in 'sum: 2046385')", cell
    assert "WRONG: checksum_ref (auto)" in done.stderr
    assert "WRONG results (never ship these)" in (tmp_path / "out" / "summary.md").read_text()
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed"


def test_the_nvcc_route_needs_no_compiler_modules(tmp_path):
    """The H200 machine has nvcc, Python and click only: the nvcc route (and --record's checks)
    must work with llvmlite and lark unimportable, run as `python3 -m cass_cc.bench.suite`."""
    code = ("import runpy, sys\n"
            "for name in ('llvmlite', 'lark', 'elftools', 'matplotlib'):\n"
            "    sys.modules[name] = None\n"
            "sys.argv = ['suite'] + sys.argv[1:]\n"
            "runpy.run_module('cass_cc.bench.suite', run_name='__main__')\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code, "--suite", str(SELFTEST), "--routes", "nvcc", "--only",
                           "pass_simple", "--out", str(tmp_path / "o")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    want = "pass" if HAS_NVIDIA_GPU else "not run(no NVIDIA GPU)"
    assert _cells(done.stdout)["pass_simple"] == [want]
    if not HAS_NVIDIA_GPU:
        record = subprocess.run([sys.executable, "-c", code, "--suite", str(SELFTEST), "--routes", "nvcc",
                                 "--record", "--out", str(tmp_path / "o")], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=600)
        assert record.returncode == 1
        assert record.stderr.strip() == ("cass-cc: error: --record needs an NVIDIA GPU (nvidia-smi finds none): "
                                         "the reference is the output of the nvcc build on NVIDIA hardware")


@pytest.mark.parametrize("args, message", [
    (["--suite", "nosuch.toml"], "nosuch.toml: no such manifest"),
    (["--suite", str(SELFTEST), "--sources", "/nonexistent"], "are not at '/nonexistent'"),
    (["--suite", str(SELFTEST), "--only", "zzz*"], "no program of suite 'selftest' matches 'zzz*'"),
    (["--suite", str(SELFTEST), "--routes", "auto", "--record"], "add nvcc to --routes"),
    (["--record"], "--record goes with --suite"),
])
def test_bad_invocations_are_one_line_errors(tmp_path, args, message):
    done = run_tool("cass-cc", "bench", *args, "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert done.returncode in (1, 2), done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()


def test_unknown_suite_route_is_refused(tmp_path):
    done = run_tool("cass-cc", "bench", "--suite", str(SELFTEST), "--routes", "auto,gpu")
    assert done.returncode == 2 and "'auto,gpu': choose from auto, binary, source, nvcc" in done.stderr


def test_recording_needs_two_runs_that_agree(tmp_path):
    """--record runs a compared program twice on the GPU: output seeded from the clock (Rodinia's
    lavaMD) must not become a reference that every later run contradicts. Real processes (Python
    printing the clock or a constant) stand in for the GPU program, since this machine has no GPU."""
    from cass_cc.bench.suite_run import _record
    from cass_cc.process_group import run
    p = load(_manifest(tmp_path, MINIMAL + 'pass = "^PASS$"\ncompare = ["^r: "]\n')).programs[0]
    for code, recorded in (("print('r:', time.perf_counter_ns()); print('PASS')", False),
                           ("print('r:', 42); print('PASS')", True)):
        argv = [sys.executable, "-c", "import time; " + code]
        first = run(argv, 60, cwd=str(tmp_path))
        result: dict = {}
        verdict = _record(p, first, {}, argv, tmp_path, result)
        assert ("record" in result) is recorded, verdict
        assert verdict == (J.Verdict(J.PASS, "recorded") if recorded else verdict)
        if not recorded:
            assert verdict.status == J.FAIL and verdict.reason.startswith(
                "not reproducible, nothing recorded: a second run differs: stdout line 1:"), verdict


def test_recording_a_program_that_ends_nonzero_on_success(tmp_path):
    """The H200's run is recorded when it ends with the manifest's `exit`, and only then."""
    from cass_cc.bench.suite_run import _record
    from cass_cc.process_group import run
    p = load(_manifest(tmp_path, MINIMAL + 'exit = 2\npass = "^PASS$"\ncompare = ["^r: "]\n')).programs[0]
    for status, recorded in ((2, True), (0, False)):
        argv = [sys.executable, "-c", f"import sys; print('r: 7'); print('PASS'); sys.exit({status})"]
        result: dict = {}
        verdict = _record(p, run(argv, 60, cwd=str(tmp_path)), {}, argv, tmp_path, result)
        assert ("record" in result) is recorded, verdict
        if recorded:
            assert result["record"]["exit"] == 2 and verdict == J.Verdict(J.PASS, "recorded")


CPP_CUDA = r"""#include <cstdio>
__global__ void add(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += i; }
int main() {
  int n = 100, *d, h[100] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  add<<<1, 128>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("sum %ld\n", sum);
  return sum == 4950 ? 3 : 1;  /* like programs whose success is a non-zero status */
}
"""


@pytest.mark.slow
def test_cpp_sources_compiled_as_cuda_and_a_nonzero_exit(tmp_path):
    """A suite program in a .cpp file built with `-x cu` (nvcc's way to make it CUDA: cass-nvcc
    must pass it on to each of its steps) that ends with status 3 when its answer is right: with
    `exit = 3` it passes on the default route; without, the same run is a failure."""
    (tmp_path / "src" / "p").mkdir(parents=True)
    (tmp_path / "src" / "p" / "k.cpp").write_text(CPP_CUDA)
    program = 'dir = "p"\nsources = ["k.cpp"]\nflags = ["-x", "cu", "-O2"]\npass = "^sum 4950$"\n'
    manifest = _manifest(tmp_path, f'[suite]\nname = "t"\n\n[[program]]\nname = "ends3"\n{program}exit = 3\n\n'
                                   f'[[program]]\nname = "ends0"\n{program}')
    done = run_tool("cass-cc", "bench", "--suite", str(manifest), "--sources", str(tmp_path / "src"),
                    "--routes", "auto", "--out", str(tmp_path / "out"), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    cells = _cells(done.stdout)
    assert cells["ends3"] == ["pass"], done.stdout
    assert cells["ends0"] == ["FAIL(exit 3: sum 4950)"], done.stdout


@pytest.mark.slow
def test_a_suite_builds_and_runs_for_the_target_asked(tmp_path):
    """`--offload-arch gfx942`: cass-nvcc builds for gfx942 and cass-run runs that code (GFX9's
    instruction names, s_load_dwordx2 where gfx1100 has s_load_b64), judged against the H200."""
    done = run_tool("cass-cc", "bench", "--suite", str(SELFTEST), "--routes", "auto", "--only", "checksum_*",
                    "--offload-arch", "gfx942", "--out", str(tmp_path / "out"), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _cells(done.stdout)["checksum_ref"] == ["pass"], done.stdout
    data = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert data["suite"]["offload_arch"] == "gfx942"
    opcodes = {op for per_kernel in data["results"][0]["routes"]["auto"]["opcodes"].values() for op in per_kernel}
    assert any("dword" in op for op in opcodes) and not any(op.endswith("_b64") and op.startswith("s_load")
                                                            for op in opcodes), sorted(opcodes)
    assert "built for gfx942" in (tmp_path / "out" / "summary.md").read_text()
