"""One program through the benchmark: build with nvcc (the build-time baseline), then per route
build with cass-nvcc twice (cold: a fresh translation cache; warm: the same cache again), run the
AMD build under `cass-run --emu-stats`, and judge its output. The result is plain data (JSON), so
programs can run in worker processes."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .. import process_group
from ..errors import ToolMissing
from ..toolchain import find
from .programs import Program, checksum_of, judge
from .quality import Measured, kernel_opcodes

REPO_BIN = Path(__file__).resolve().parent.parent.parent / "bin"
BUILD_TIMEOUT_S = 900
RUN_TIMEOUT_S = 600


def tool_command(name: str) -> list[str]:
    """How to start one of cass-cc's own tools: the checkout's bin/ script with this Python (works
    without installing), else the installed console script."""
    script = REPO_BIN / name
    if script.exists():
        return [sys.executable, str(script)]
    found = shutil.which(name)
    if found is None:
        raise ToolMissing(f"{name} not found: install cass-cc (pip install -e .) or run from a checkout")
    return [found]


def first_error_line(text: str) -> str:
    """The line a reader wants first: the first that mentions an error or fault, else the last."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        lowered = line.lower()
        if "error" in lowered or "fault" in lowered or "traceback" in lowered:
            return line[:300]
    return lines[-1][:300] if lines else ""


def _environment(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    # tools installed next to this Python (nvdisasm wheels, console scripts) come first
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def _timed(argv: list[str], env: dict[str, str], timeout: int, cwd: str | None = None) -> dict:
    done = process_group.run(argv, timeout, cwd=cwd, env=env)
    if done.timed_out:
        return {"ok": False, "exit": None, "seconds": done.seconds, "stdout": "",
                "error": f"timed out after {timeout} s"}
    result = {"ok": done.exit == 0, "exit": done.exit, "seconds": done.seconds, "stdout": done.stdout}
    if done.exit != 0:
        result["error"] = first_error_line(done.stderr + "\n" + done.stdout) or f"exit status {done.exit}"
    return result


def build_nvcc(program: Program, work: str) -> dict:
    argv = [find("nvcc").path, "-O2", *program.flags, "-o", os.path.join(work, "nvcc.out"), *program.sources]
    result = _timed(argv, _environment(), BUILD_TIMEOUT_S)
    result.pop("stdout")
    return result


def _kernels(report_dir: str) -> list[dict]:
    kernels = []
    for path in sorted(Path(report_dir).glob("*.json")):
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for k in report.get("kernels", []):
            kernels.append({"name": k.get("name"), "demangled": k.get("demangled"), "tier": k.get("tier"),
                            "status": k.get("status"), "reasons": k.get("reasons", [])})
    return kernels


def _emu_stats(path: str) -> dict:
    """Wave instructions and opcode counts per kernel (summed over its launches) and the
    emulator's own time."""
    try:
        stats = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {"wave_instructions": {}, "opcodes": {}, "emu_seconds": None}
    waves: dict[str, int] = {}
    for launch in stats.get("launches", []):
        waves[launch["kernel"]] = waves.get(launch["kernel"], 0) + launch.get("wave_instructions", 0)
    return {"wave_instructions": waves, "opcodes": kernel_opcodes(stats),
            "emu_seconds": stats.get("totals", {}).get("seconds")}


def bench_route(program: Program, route: str, work: str, offload_arch: str, warm: bool = True) -> dict:
    """Build for `offload_arch` (cold, and with warm again on the same cache) and run one program
    through one route."""
    base = os.path.join(work, route)
    os.makedirs(base)
    cache, reports = os.path.join(base, "cache"), os.path.join(base, "reports")
    os.makedirs(reports)
    exe, stats = os.path.join(base, "prog"), os.path.join(base, "stats.json")
    argv = [*tool_command("cass-nvcc"), f"--cass-route={route}", f"--cass-offload-arch={offload_arch}", "-O2",
            *program.flags, "-o", exe, *program.sources]
    env = _environment(CASS_CACHE_DIR=cache, CASS_REPORT_DIR=reports)
    result: dict = {"route": route, "passed": False}
    cold = _timed(argv, env, BUILD_TIMEOUT_S)
    result["build_cold_seconds"] = cold["seconds"]
    result["kernels"] = _kernels(reports)
    if not cold["ok"]:
        result.update(stage="build", error=cold["error"])
        return result
    if warm:
        shutil.rmtree(reports)
        os.makedirs(reports)
        again = _timed(argv, env, BUILD_TIMEOUT_S)
        result["build_warm_seconds"] = again["seconds"]
        if not again["ok"]:
            result.update(stage="build (warm cache)", error=again["error"])
            return result
    run = _timed([*tool_command("cass-run"), "--emu-stats", stats, exe, *program.args], _environment(),
                 RUN_TIMEOUT_S, cwd=str(program.directory))
    result["run_seconds"] = run["seconds"]
    result.update(_emu_stats(stats))
    passed, why = judge(run["exit"] if run["exit"] is not None else -1, run["stdout"], program.reference)
    result["passed"] = passed
    result["checksum"] = checksum_of(run["stdout"])
    if not passed:
        # the runtime's or emulator's own message says more than "no PASS line"
        detail = run.get("error", "")
        result.update(stage="run", error=f"{why}: {detail}" if detail and detail != "FAIL" else why)
    return result


def bench_program(program: Program, routes: list[str], offload_arch: str) -> dict:
    """Everything measured for one program (worker-process entry point)."""
    work = tempfile.mkdtemp(prefix="cass-bench-")
    try:
        return {"program": program.name, "domain": program.domain,
                "has_reference": program.reference is not None,
                "nvcc": build_nvcc(program, work),
                "routes": {route: bench_route(program, route, work, offload_arch) for route in routes}}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def quality_program(program: Program, offload_arch: str) -> dict:
    """The code-quality measurement of one program (worker-process entry point): one build per
    route, binary (lifted) and source (hipcc), each run under cass-run --emu-stats and judged."""
    work = tempfile.mkdtemp(prefix="cass-quality-")
    try:
        return {"program": program.name, "domain": program.domain,
                "routes": {route: bench_route(program, route, work, offload_arch, warm=False) for route in ("binary", "source")}}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measured(result: dict) -> Measured:
    """A bench result with binary and source routes as quality.py's input."""
    b, s = result["routes"]["binary"], result["routes"]["source"]
    note = "; ".join(f"{name}: {rr.get('stage', '')}: {rr.get('error', '')}"
                     for name, rr in (("lifted", b), ("hipcc", s)) if not rr["passed"])
    return Measured(result["program"], b.get("opcodes", {}), s.get("opcodes", {}), b["passed"], s["passed"], note)
