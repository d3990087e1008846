"""The benchmark's programs: discovery under tests/programs/bench/<domain>/<name>/ (the program
convention: every *.cu/*.cpp linked together, optional flags.txt and args.txt, reference.txt
recorded on NVIDIA hardware), and judging one run's output against the reference."""

from __future__ import annotations

import fnmatch
import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

PROGRAMS_ROOT = Path(__file__).resolve().parent.parent.parent / "tests" / "programs" / "bench"

# Checksums that are floats (printed with %.6e) compare with this relative tolerance: the AMD run
# uses other math libraries, so the last digits may differ.
FLOAT_RTOL = 1e-4

_CHECKSUM = re.compile(r"^checksum:\s*(\S+)\s*$", re.MULTILINE)
_INTEGER = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Program:
    name: str  # "<domain>/<program>"
    directory: Path

    @property
    def domain(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def sources(self) -> list[str]:
        return sorted(str(p) for p in self.directory.iterdir() if p.suffix in (".cu", ".cpp"))

    @property
    def flags(self) -> list[str]:
        return _words(self.directory / "flags.txt")

    @property
    def args(self) -> list[str]:
        return _words(self.directory / "args.txt")

    @property
    def reference(self) -> str | None:
        path = self.directory / "reference.txt"
        return path.read_text() if path.exists() else None


def _words(path: Path) -> list[str]:
    return shlex.split(path.read_text()) if path.exists() else []


def discover(root: Path = PROGRAMS_ROOT, only: list[str] | None = None) -> list[Program]:
    """Every program directory two levels below root, sorted, filtered by shell-style globs on
    '<domain>/<name>' (a program matches if any glob matches)."""
    programs = []
    for directory in sorted(p for p in root.glob("*/*") if p.is_dir()):
        if not any(p.suffix in (".cu", ".cpp") for p in directory.iterdir()):
            continue
        name = f"{directory.parent.name}/{directory.name}"
        if only and not any(fnmatch.fnmatchcase(name, pattern) for pattern in only):
            continue
        programs.append(Program(name, directory))
    return programs


def checksum_of(output: str) -> str | None:
    """The value on the last 'checksum: <value>' line, as printed."""
    found = _CHECKSUM.findall(output)
    return found[-1] if found else None


def checksums_agree(got: str, want: str) -> bool:
    """Integers must be equal; floats agree within FLOAT_RTOL (relative to the reference)."""
    if _INTEGER.match(got) and _INTEGER.match(want):
        return int(got) == int(want)
    try:
        g, w = float(got), float(want)
    except ValueError:
        return got == want
    if math.isnan(g) or math.isnan(w):
        return False
    return abs(g - w) <= FLOAT_RTOL * abs(w) or g == w


def judge(exit_status: int, output: str, reference: str | None) -> tuple[bool, str]:
    """(passed, why-not) for one run: exit 0, a PASS line, and the reference's checksum when one
    was recorded."""
    lines = [line.strip() for line in output.splitlines()]
    if "PASS" not in lines:
        return False, "no PASS line" + (f" (exit {exit_status})" if exit_status else "")
    if exit_status != 0:
        return False, f"PASS printed but exit status {exit_status}"
    if reference is None:
        return True, ""
    want = checksum_of(reference)
    got = checksum_of(output)
    if want is None:
        return True, ""
    if got is None:
        return False, "no checksum line"
    if not checksums_agree(got, want):
        return False, f"checksum {got} differs from the reference {want}"
    return True, ""
