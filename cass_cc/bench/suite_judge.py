"""Judging one run of a suite program: the lines a manifest selects, comparing them (and output
files) with the H200's numbers within tolerance, and the status of the run (pass, unverified,
WRONG, FAIL, refused, build error, not run), as in docs/third_party.md."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass

from .suite_manifest import SuiteProgram

PASS, UNVERIFIED, WRONG, FAIL, REFUSED, BUILD_ERROR, NOT_RUN = (
    "pass", "unverified", "WRONG", "FAIL", "refused", "build error", "not run")
FAILED = (WRONG, FAIL, REFUSED, BUILD_ERROR)

# A number as C's printf writes one (%d, %f, %e, %g), nan and inf included; a '-' is its sign only
# where no letter or digit precedes it, so "x-1" stays text and "-1" a number.
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf(?:inity)?)"
                     r"(?![\w.])", re.IGNORECASE)
_INTEGER = re.compile(r"^[-+]?\d+$")
_BLANKS = re.compile(r"\s+")
# How cass-nvcc and the runtime word a refusal (driver/options.py, errors.Refusal, the kernel
# reports' reasons): a refusal is loud by design and is told apart from a build that broke.
_REFUSAL = re.compile(r"not supported|refused|refuses|cannot be translated|has no route|unsupported", re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    status: str
    reason: str = ""

    def cell(self) -> str:
        return self.status if not self.reason else f"{self.status}({self.reason})"


def selected_lines(program: SuiteProgram, stdout: str) -> list[str]:
    """The stdout lines any of the program's `compare` regexes matches, in order."""
    return _matching(program, [line.rstrip() for line in stdout.splitlines()])


def _matching(program: SuiteProgram, lines: list[str]) -> list[str]:
    patterns = [re.compile(c) for c in program.compare]
    return [line for line in lines if any(p.search(line) for p in patterns)]


def _split(line: str) -> tuple[list[str], list[str]]:
    numbers = _NUMBER.findall(line)
    text = [_BLANKS.sub(" ", part).strip() for part in _NUMBER.split(line)]
    return text, numbers


def numbers_agree(got: str, want: str, rtol: float, atol: float) -> bool:
    if _INTEGER.match(got) and _INTEGER.match(want):
        return int(got) == int(want)
    g, w = float(got), float(want)
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    if math.isinf(w) or math.isinf(g):
        return g == w
    return abs(g - w) <= atol + rtol * abs(w)


def line_difference(got: str, want: str, rtol: float, atol: float) -> str | None:
    """Why got differs from want (None when they agree): the text between numbers must be equal,
    the numbers within tolerance."""
    got_text, got_numbers = _split(got)
    want_text, want_numbers = _split(want)
    if got_text != want_text or len(got_numbers) != len(want_numbers):
        return f"'{got.strip()[:120]}' vs H200 '{want.strip()[:120]}'"
    for g, w in zip(got_numbers, want_numbers):
        if not numbers_agree(g, w, rtol, atol):
            return f"{g} vs H200 {w} in '{want.strip()[:120]}'"
    return None


def lines_difference(got: list[str], want: list[str], rtol: float, atol: float, what: str) -> str | None:
    if len(got) != len(want):
        return f"{what}: {len(got)} lines, H200 {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        why = line_difference(g, w, rtol, atol)
        if why:
            return f"{what} line {i + 1}: {why}"
    return None


def output_record(data: bytes) -> dict:
    """How an output file is kept in the reference: its text, or its hash when it is not text."""
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def output_difference(name: str, data: bytes | None, want: dict, rtol: float, atol: float) -> str | None:
    if data is None:
        return f"{name}: not written"
    got = output_record(data)
    if "text" in want and "text" in got:
        return lines_difference(got["text"].splitlines(), want["text"].splitlines(), rtol, atol, name)
    if got != want:
        return f"{name}: differs from the H200's ({got.get('bytes', len(data))} bytes)"
    return None


def self_check(program: SuiteProgram, stdout: str) -> str | None:
    """Why the program's own check says its answer is wrong, or None."""
    if program.pass_re and not re.search(program.pass_re, stdout, re.MULTILINE):
        said = selected_lines(program, stdout)
        if said:  # the program's own verdict line says more than the pattern it missed
            return f"its check says '{said[-1].strip()[:160]}'"
        return f"no line matches pass /{program.pass_re}/"
    if program.fail_re:
        found = re.search(program.fail_re, stdout, re.MULTILINE)
        if found:
            line = stdout[stdout.rfind("\n", 0, found.start()) + 1:].split("\n", 1)[0]
            return f"fail /{program.fail_re}/ matched: '{line.strip()[:120]}'"
    return None


def is_refusal(text: str) -> bool:
    return bool(_REFUSAL.search(text))


def judge_run(program: SuiteProgram, exit_status: int | None, stdout: str, error_line: str,
              outputs: dict[str, bytes | None], reference: dict | None, timed_out: bool) -> Verdict:
    """The status of one finished (or timed-out) run. `reference` is the program's H200 entry when
    one applies (recorded with the same sources, flags and args), else None."""
    if timed_out:
        return Verdict(FAIL, f"timeout after {program.timeout:g} s")
    want_exit = reference["exit"] if reference else program.exit
    if exit_status != want_exit:
        detail = f": {error_line}" if error_line else ""
        if error_line and is_refusal(error_line):
            return Verdict(REFUSED, f"exit {exit_status}{detail}")
        expected = f", H200 {want_exit}" if reference else f", expected {want_exit}"
        return Verdict(FAIL, f"exit {exit_status}" + (expected if want_exit else "") + detail)
    why = self_check(program, stdout)
    if why:
        return Verdict(WRONG, f"exit {exit_status} but {why}")
    if not program.needs_reference:
        return Verdict(PASS)
    if reference is None:
        return Verdict(UNVERIFIED, "no H200 reference")
    # the recorded lines that today's `compare` still selects: narrowing it needs no new recording
    diff = lines_difference(selected_lines(program, stdout), _matching(program, reference["lines"]),
                            program.rtol, program.atol, "stdout")
    if diff:
        return Verdict(WRONG, diff)
    for name in program.outputs:
        want = reference.get("outputs", {}).get(name)
        if want is None:
            return Verdict(UNVERIFIED, f"the H200 reference has no output '{name}'")
        diff = output_difference(name, outputs.get(name), want, program.rtol, program.atol)
        if diff:
            return Verdict(WRONG, diff)
    return Verdict(PASS)


def judge_build(first_error_line: str, by_cass: bool) -> Verdict:
    """A failed build: refused when cass-nvcc's first error is a refusal, else a build error."""
    if by_cass and is_refusal(first_error_line):
        return Verdict(REFUSED, first_error_line)
    return Verdict(BUILD_ERROR, first_error_line)


def expected_refusal(program: SuiteProgram, verdict: Verdict) -> Verdict:
    """A program the manifest expects to be refused: refused is what it should be; a pass is news
    (the manifest is out of date); WRONG stays WRONG."""
    if program.expect != "refused":
        return verdict
    if verdict.status == REFUSED:
        return Verdict(REFUSED, f"as expected: {verdict.reason}")
    if verdict.status == PASS:
        return Verdict(PASS, "expected refused: update the manifest")
    return verdict
