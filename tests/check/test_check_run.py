"""cass-run --check on real builds: a correct program passes with every launch checked; wrong
translations (injected into the lifter, see inject.py) are reported launch by launch with the
kernel, grid, block, buffer, first differing element and both values; kernels without a
reference are named in the summary; the exit status says whether the check passed."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_tool

N = 64
A = [(i * 37) % 101 - 50 for i in range(N)]
B = [(i * 53) % 97 - 48 for i in range(N)]
CHECK_FAILED = 3


def _tile_partials(values: list[int], width: int, bound: int) -> list[int]:
    """Every lane's v after `for offset = 8..1: v += shfl_down(v, offset)` on 16-lane tiles of
    32-lane warps; a lane whose source lies at or past `bound(lane)` keeps its own value."""
    out = []
    for warp in range(0, len(values), 32):
        v = values[warp:warp + 32]
        offset = 8
        while offset:
            v = [v[l] + (v[l + offset] if l + offset <= bound(l) else v[l]) for l in range(32)]
            offset //= 2
        out += v
    return out


def _first_difference(translated: list[int], reference: list[int]) -> tuple[int, int, int]:
    i = next(i for i, (t, r) in enumerate(zip(translated, reference)) if t != r)
    return i, translated[i], reference[i]


def test_correct_program_passes_with_every_launch_checked(check_programs):
    """Every launch checked; sinf/expf (nvcc's library against ROCm's) differ in the last bits
    and pass within the stated tolerance, counted in the summary."""
    proc = run_tool("cass-run", "--check", str(check_programs["ok"]))
    assert proc.returncode == 0, proc.stderr
    assert "PASS" in proc.stdout
    assert ("cass-run --check: 7 launch(es) of 7 translated kernel(s) checked against the reference; "
            "0 differed; 0 unchecked; floats compared within rtol=1e-05 atol=1e-08") in proc.stderr
    tolerated = re.search(r"cass-run --check: within tolerance, not bit-equal: (\d+) float element\(s\) in 1 "
                          r"launch\(es\) \(largest relative difference ([0-9.e+-]+)\): "
                          r"sines\(float const\*, float\*, int\) \(1 launch\)\n", proc.stderr)
    assert tolerated, proc.stderr
    assert 0 < int(tolerated[1]) <= N and 0 < float(tolerated[2]) <= 1e-5
    assert "UNCHECKED" not in proc.stderr and "FAILED" not in proc.stderr


def test_zero_tolerance_reports_the_last_bit_differences(check_programs):
    proc = run_tool("cass-run", "--check", "--check-rtol", "0", "--check-atol=0", str(check_programs["ok"]))
    assert proc.returncode == CHECK_FAILED
    assert "PASS" in proc.stdout  # the program's own check accepts both results
    report = re.search(r"launch 6: sines\(float const\*, float\*, int\) \[_Z5sinesPKfPfi\] grid \(2, 1, 1\) "
                       r"block \(32, 1, 1\): .*\(floats within rtol=0 atol=0 count as equal\)\n  buffer 0x[0-9a-f]+ "
                       r"\(256 bytes, argument 1 \(float\*\)\): \d+ element\(s\) differ; first element \[(\d+)\] "
                       r"\(float, byte offset (\d+)\): translated (\S+), reference (\S+)\n", proc.stderr)
    assert report, proc.stderr
    index, offset, translated, reference = report.groups()
    assert int(offset) == 4 * int(index) and float(translated) != float(reference)
    assert abs(float(translated) - float(reference)) <= 1e-5 * abs(float(reference))
    assert "1 differed; 0 unchecked; floats compared within rtol=0 atol=0" in proc.stderr


@pytest.fixture(scope="module")
def bad_run(check_programs):
    """cass-run --check of the program with wrong lowerings, once for the tests that read it."""
    return run_tool("cass-run", "--check", str(check_programs["bad"]))


def test_wrong_tile_shuffle_is_caught(bad_run):
    """The cooperative-groups tile bug: SHFL's segment mask dropped, so shfl_down on a 16-lane
    tile reads the next tile's lanes. The tile sums stay right (lane 0 only reads inside its
    tile); the partial sums of other lanes are wrong, and --check names the first one."""
    proc = bad_run
    assert proc.returncode == CHECK_FAILED
    reference = _tile_partials(A, 16, lambda lane: lane // 16 * 16 + 15)
    translated = _tile_partials(A, 16, lambda lane: 31)
    i, t, r = _first_difference(translated, reference)
    differing = sum(x != y for x, y in zip(translated, reference))
    report = re.search(r"cass-run --check: launch 5: tileSums\(int const\*, int\*, int\*\) \[_Z8tileSumsPKiPiS1_\] "
                       r"grid \(2, 1, 1\) block \(32, 1, 1\): the translated kernel and the reference wrote "
                       r"different memory.*\n  buffer 0x[0-9a-f]+ \(256 bytes, argument 2 \(int\*\)\): (\d+) "
                       r"element\(s\) differ; first element \[(\d+)\] \(int, byte offset (\d+)\): "
                       r"translated (-?\d+), reference (-?\d+)", proc.stderr)
    assert report, proc.stderr
    assert [int(g) for g in report.groups()] == [differing, i, 4 * i, t, r]


def test_wrong_integer_max_is_caught_first_and_the_program_continues(bad_run):
    """IMNMX one too large: pairMax (launch 2) is the first launch that differs; the program
    goes on with the translated (wrong) results, so its own check fails and later launches are
    still checked and reported."""
    proc = bad_run
    reference = [max(a, b) for a, b in zip(A, B)]
    first = (f"cass-run --check: first difference: launch 2, pairMax(int const*, int const*, int*, int) "
             f"grid (2, 1, 1) block (32, 1, 1): buffer ")
    assert first in proc.stderr
    assert (f"(256 bytes, argument 2 (int*)): {N} element(s) differ; first element [0] (int, byte offset 0): "
            f"translated {reference[0] + 1}, reference {reference[0]}") in proc.stderr
    assert "FAIL" in proc.stdout
    assert ("cass-run --check: 6 launch(es) of 6 translated kernel(s) checked against the reference; "
            "3 differed; 1 unchecked") in proc.stderr
    assert ("differing kernels: pairMax(int const*, int const*, int*, int) (1 launch), "
            "countPositive(int const*, int) (1 launch), tileSums(") in proc.stderr
    assert f"FAILED (the program's own exit status was 1); exit status {CHECK_FAILED}" in proc.stderr


def test_wrong_atomic_on_a_device_variable_is_caught(bad_run):
    """RED.ADD one too large: only the __device__ counter changes (through an atomic, once per
    warp after nvcc's warp aggregation); --check compares the code object's variables by name."""
    proc = bad_run
    positives = sum(a > 0 for a in A)
    warps = sum(any(a > 0 for a in A[w:w + 32]) for w in range(0, N, 32))
    assert re.search(r"cass-run --check: launch 3: countPositive\(int const\*, int\) \[_Z13countPositivePKii\] "
                     r"grid \(2, 1, 1\) block \(32, 1, 1\).*\n  buffer 0x[0-9a-f]+ \(4 bytes, device variable "
                     rf"'positives'\): 1 element\(s\) differ; first element \[0\] \(32-bit word, byte offset 0\): "
                     rf"translated {positives + warps}, reference {positives}\n", proc.stderr), proc.stderr


def test_kernel_without_reference_is_named_unchecked(check_programs):
    proc = run_tool("cass-run", "--check", str(check_programs["partial"]))
    assert proc.returncode == 0, proc.stderr
    assert "PASS" in proc.stdout
    assert "6 launch(es) of 6 translated kernel(s) checked against the reference; 0 differed; 1 unchecked" in proc.stderr
    assert ("cass-run --check: UNCHECKED: no reference (build with cass-nvcc --cass-embed-reference, or "
            "CASS_EMBED_REFERENCE=1; the build warns when hipify + hipcc cannot make one): "
            "scale(int*, int, int) (1 launch)") in proc.stderr
    strict = run_tool("cass-run", "--check", "--check-require-reference", str(check_programs["partial"]))
    assert strict.returncode == CHECK_FAILED
    assert "--check-require-reference: unchecked launches fail the check" in strict.stderr


def test_without_check_the_program_runs_as_built(check_programs):
    proc = run_tool("cass-run", str(check_programs["ok"]))
    assert proc.returncode == 0 and "PASS" in proc.stdout
    assert "cass-run --check" not in proc.stderr
