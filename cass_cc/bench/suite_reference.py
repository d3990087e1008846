"""A suite's H200 reference (tests/suites/<suite>.ref.json): reading the entry that applies to a
program, and recording the `nvcc` route's runs on an NVIDIA GPU into it (docs/third_party.md)."""

from __future__ import annotations

import datetime
import json
import shutil
import subprocess

from ..errors import CassError
from ..fsutil import atomic_write_text
from .suite_judge import output_record, selected_lines
from .suite_manifest import Suite, SuiteProgram

FORMAT = 1


def load(suite: Suite) -> dict:
    """The reference file's content, or an empty one when none was recorded yet."""
    path = suite.reference_path
    if not path.exists():
        return {"format": FORMAT, "suite": suite.name, "programs": {}}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise CassError(f"{path}: not a readable reference file: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("programs"), dict):
        raise CassError(f"{path}: not a format-{FORMAT} reference file (re-record it with --record)")
    return data


def entry_for(reference: dict, program: SuiteProgram) -> tuple[dict | None, str]:
    """(the program's entry, "") when it applies; (None, why) when there is none or it is stale."""
    entry = reference["programs"].get(program.name)
    if entry is None:
        return None, "no H200 reference"
    if entry.get("built_with") != program.built_with():
        return None, "stale H200 reference (recorded with other sources, flags or args)"
    return entry, ""


def nvidia_gpu() -> str | None:
    """The first NVIDIA GPU's name from nvidia-smi, or None when there is none to run on."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    return lines[0] if done.returncode == 0 and lines else None


def nvcc_version(nvcc: str) -> str:
    try:
        done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    return next((line for line in lines if "release" in line), lines[-1] if lines else "unknown")


def record_entry(program: SuiteProgram, stdout: str, exit_status: int, outputs: dict[str, bytes | None]) -> dict:
    missing = [name for name, data in outputs.items() if data is None]
    if missing:
        raise CassError(f"program '{program.name}': the H200 run wrote no {', '.join(missing)}")
    return {"built_with": program.built_with(), "exit": exit_status,
            "lines": selected_lines(program, stdout),
            "outputs": {name: output_record(data) for name, data in outputs.items() if data is not None}}


def write(suite: Suite, reference: dict, entries: dict[str, dict], gpu: str, nvcc: str) -> None:
    """Merge the newly recorded entries into the reference file: other programs' entries stay,
    those of programs the manifest no longer lists go."""
    name, _, driver = gpu.partition(",")
    listed = {p.name for p in suite.programs}
    programs = {k: v for k, v in reference.get("programs", {}).items() if k in listed}
    programs.update(entries)
    data = {"format": FORMAT, "suite": suite.name, "commit": suite.commit,
            "recorded": {"gpu": name.strip(), "driver": driver.strip(), "nvcc": nvcc,
                         "utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")},
            "programs": dict(sorted(programs.items()))}
    atomic_write_text(str(suite.reference_path), json.dumps(data, indent=1) + "\n")
