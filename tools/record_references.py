#!/usr/bin/env python3
"""Record reference outputs of the self-checking CUDA programs on real NVIDIA hardware.

`record OUT.json [PROGRAM_DIR ...]` (on a machine with an NVIDIA GPU): builds every program directory
(or only the named ones, e.g. tests/programs/realworld/cg_tile_reduce) (the program
convention: tests/programs/<group>/<name>/ and examples/<name>/ with *.cu, optional flags.txt and
args.txt) with nvcc for the local GPU, runs it, and writes one JSON with stdout, exit status and
the nvcc/driver/GPU versions. `apply IN.json`: writes each program's stdout as reference.txt beside
it, plus tests/programs/REFERENCE_MACHINE.txt with the versions.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def program_dirs() -> list[Path]:
    dirs = sorted({p.parent for p in (ROOT / "tests" / "programs").rglob("*.cu")})
    dirs += sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir() and list(p.glob("*.cu")))
    return dirs


def build_and_run(directory: Path, arch: str) -> dict:
    flags = shlex.split((directory / "flags.txt").read_text()) if (directory / "flags.txt").exists() else []
    args = shlex.split((directory / "args.txt").read_text()) if (directory / "args.txt").exists() else []
    sources = sorted(str(p) for p in directory.iterdir() if p.suffix in (".cu", ".cpp"))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "prog")
        build = subprocess.run(["nvcc", "-O2", f"-arch={arch}", *flags, "-o", exe, *sources],
                               capture_output=True, text=True, timeout=600)
        if build.returncode != 0:
            return {"build_error": build.stderr[-4000:], "exit": None, "stdout": ""}
        try:
            run = subprocess.run([exe, *args], capture_output=True, text=True, timeout=120, cwd=directory)
        except subprocess.TimeoutExpired:
            return {"exit": "timeout", "stdout": ""}
        return {"exit": run.returncode, "stdout": run.stdout, "stderr": run.stderr[-2000:]}


def versions() -> dict:
    def out(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError as e:
            return str(e)
    return {
        "nvcc": out(["nvcc", "--version"]).splitlines()[-1:],
        "gpu": out(["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"]),
    }


def record(out_path: str, only: list[str], arch: str = "sm_90") -> int:
    """Record every program, or only those whose directory (relative to the repository) is in `only`."""
    dirs = [d for d in program_dirs() if not only or str(d.relative_to(ROOT)) in only]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        futures = {pool.submit(build_and_run, d, arch): d for d in dirs}
        for fut in concurrent.futures.as_completed(futures):
            d = futures[fut]
            results[str(d.relative_to(ROOT))] = fut.result()
            r = results[str(d.relative_to(ROOT))]
            print(f"{d.relative_to(ROOT)}: exit {r['exit']}", flush=True)
    Path(out_path).write_text(json.dumps({"machine": versions(), "arch": arch, "programs": results}, indent=1))
    failed = [k for k, r in results.items() if r["exit"] != 0]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    for k in failed:
        print("FAILED", k, results[k].get("build_error", "")[:500], results[k].get("stdout", "")[-300:])
    return 0


def apply(in_path: str) -> int:
    data = json.loads(Path(in_path).read_text())
    for rel, r in data["programs"].items():
        if r["exit"] == 0:
            (ROOT / rel / "reference.txt").write_text(r["stdout"])
        else:
            print(f"not applied (exit {r['exit']}): {rel}", file=sys.stderr)
    machine = data["machine"]
    (ROOT / "tests" / "programs" / "REFERENCE_MACHINE.txt").write_text(
        f"gpu: {machine['gpu']}\nnvcc: {' '.join(machine['nvcc'])}\narch: {data['arch']}\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("record", "apply"):
        sys.exit("usage: record_references.py record OUT.json [PROGRAM_DIR ...] | apply IN.json")
    sys.exit(record(sys.argv[2], [d.rstrip("/") for d in sys.argv[3:]]) if sys.argv[1] == "record"
             else apply(sys.argv[2]))
