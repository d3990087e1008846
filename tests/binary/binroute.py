"""Helpers for the binary route's tests: cass-nvcc and cass-run from this checkout, run with the
test's Python, and the CUDA programs of the program convention."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "programs"
EXAMPLES = ROOT / "examples"


def cass_nvcc(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bin" / "cass-nvcc"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})


def cass_run(program: Path, *args: str, stats: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    extra = ["--emu-stats", str(stats)] if stats else []
    return subprocess.run([sys.executable, str(ROOT / "bin" / "cass-run"), *extra, str(program), *args],
                          capture_output=True, text=True, timeout=600, cwd=program.parent,
                          env={**os.environ, **(env or {})})


def cuda_programs() -> list[Path]:
    """Folders of CUDA programs (tests/programs/<group>/<name> with .cu files, and examples)."""
    found = [d for d in PROGRAMS.glob("*/*") if d.is_dir() and list(d.glob("*.cu"))]
    found += [d for d in EXAMPLES.glob("*") if d.is_dir() and list(d.glob("*.cu"))]
    return sorted(found)


def program_sources(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.cu")) + sorted(folder.glob("*.cpp"))


def program_flags(folder: Path) -> list[str]:
    flags = folder / "flags.txt"
    return flags.read_text().split() if flags.is_file() else []


def program_args(folder: Path) -> list[str]:
    args = folder / "args.txt"
    return args.read_text().split() if args.is_file() else []


def reports(folder: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.cass-report.json"))]


def checksum(stdout: str) -> str | None:
    lines = [l for l in stdout.splitlines() if l.startswith("checksum:")]
    return lines[-1].split(":", 1)[1].strip() if lines else None
