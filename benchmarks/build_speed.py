"""Build speed of a corpus of CUDA programs: plain nvcc against cass-nvcc (binary route, the
default) with a cold translation cache and with a warm one, two builds at a time (as `make -j2`
over independent programs), all in one run so the three see the same machine.

The corpus: the program folders of tests/programs and examples (tests/binary/binroute.py: every
.cu/.cpp of a folder built together, flags.txt), and the third-party suites' programs where their
sources are under .thirdparty/<suite> (tests/suites/<suite>.toml: sources, flags, support files).
Each program is one command, `TOOL FLAGS SOURCES -o PROG`, the same for both tools (the drop-in
comparison: `make` against `make NVCC=cass-nvcc`).

Every build's wall seconds and CPU seconds (its own and its children's: cicc, ptxas, the host
compiler, llvm-mc; os.wait4) are kept; the corpus's wall time is the makespan of the two slots.
cass-nvcc runs with CASS_TIME_PASSES=1 (per-job seconds on stderr, `cass-nvcc: time: LABEL: S s`)
and CASS_REPORT_DIR (per-kernel pass seconds), which give the shares of its compile.

Cold: a translation cache that holds no translations (the one-time pieces, libcassrt and the
device libraries, are built before the timings, once: a first build of anything pays for them);
warm: the same cache again, every kernel found. A program that either tool fails to build is left
out of the ratios and listed.

`python benchmarks/build_speed.py [-j 2] [--only GLOB] [--limit N] [--json OUT]` prints the
tables; benchmarks/test_build_speed.py runs it (opt-in) and writes benchmarks/build_speed.json.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THIRDPARTY = ROOT / ".thirdparty"
SUITES = ROOT / "tests" / "suites"
DEFAULT_SUITES = ("polybench", "rodinia")
BUILD_TIMEOUT_S = 900
GOAL_COLD, GOAL_WARM = 1.3, 1.05
_TIME_LINE = re.compile(r"^cass-nvcc: time: (.+): ([0-9.]+) s$", re.M)


@dataclass
class Program:
    name: str                       # "tests/programs/realworld/x", "polybench/2mm"
    sources: list[str]              # relative to the build folder, or absolute
    flags: list[str]
    copy_from: Path | None = None   # a suite's source root: the files to copy into the build folder
    copy: list[str] = field(default_factory=list)
    subdir: str = ""                # the build runs in <build folder>/<subdir>


def local_programs() -> list[Program]:
    sys.path.insert(0, str(ROOT / "tests" / "binary"))
    from binroute import cuda_programs, program_flags, program_sources
    return [Program(str(d.relative_to(ROOT)), [str(s) for s in program_sources(d)], program_flags(d))
            for d in cuda_programs()]


def suite_programs(names=DEFAULT_SUITES) -> list[Program]:
    from cass_cc.bench.suite_manifest import load
    found = []
    for name in names:
        manifest, sources = SUITES / f"{name}.toml", THIRDPARTY / name
        if not manifest.is_file() or not sources.is_dir():
            continue
        suite = load(manifest)
        for p in suite.programs:
            found.append(Program(f"{name}/{p.name}", list(p.sources), list(p.flags), sources,
                                 [p.dir, *p.files], p.dir))
    return found


def corpus(only: list[str] | None = None, limit: int | None = None, suites=DEFAULT_SUITES) -> list[Program]:
    programs = local_programs() + suite_programs(suites)
    if only:
        programs = [p for p in programs if any(fnmatch.fnmatch(p.name, g) for g in only)]
    return programs[:limit] if limit else programs


def _prepare(program: Program, folder: Path) -> Path:
    """The build folder of one program: a private copy of a suite program's files."""
    folder.mkdir(parents=True)
    if program.copy_from is not None:
        for rel in program.copy:
            src, dst = program.copy_from / rel, folder / rel
            if src.is_dir():
                shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
    return folder / program.subdir


def _tool(name: str) -> list[str]:
    if name == "nvcc":
        from cass_cc import toolchain
        return [toolchain.path("nvcc")]
    return [sys.executable, str(ROOT / "bin" / "cass-nvcc")]


def build(program: Program, tool: str, folder: Path, env: dict[str, str]) -> dict:
    """One build; its wall and CPU seconds (own + children, from wait4)."""
    cwd = _prepare(program, folder)
    argv = [*_tool(tool), *program.flags, *program.sources, "-o", str(folder / "prog.exe")]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err)
        deadline = start + BUILD_TIMEOUT_S
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    result = {"ok": proc.returncode == 0, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
              "exit": proc.returncode}
    if not result["ok"]:
        result["error"] = (stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:300]
    times: dict[str, float] = {}
    for label, seconds in _TIME_LINE.findall(stderr):
        times[label] = times.get(label, 0.0) + float(seconds)
    if times:  # what no job accounts for: Python's start, imports, planning, the jobs' gaps
        times["driver (start-up, planning)"] = max(wall - sum(times.values()), 0.0)
        result["jobs"] = times
    return result


def _kernel_seconds(reports: Path) -> dict[str, float]:
    """Per-pass seconds summed over every kernel of every report under `reports`."""
    sums: dict[str, float] = {}
    for path in reports.rglob("*.json"):
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for kernel in report.get("kernels", []):
            for stage, seconds in (kernel.get("seconds") or {}).items():
                if isinstance(seconds, (int, float)):
                    sums[stage] = sums.get(stage, 0.0) + seconds
    return sums


def run_pass(programs: list[Program], tool: str, work: Path, env: dict[str, str], jobs: int) -> dict:
    """Every program built with `tool`, `jobs` at a time: per-program results and the makespan."""
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {p.name: pool.submit(build, p, tool, work / f"{i:03d}", env) for i, p in enumerate(programs)}
        results = {name: f.result() for name, f in futures.items()}
    return {"makespan_s": time.perf_counter() - start, "builds": results}


def measure(programs: list[Program], jobs: int = 2, work: Path | None = None) -> dict:
    own_work = work is None
    work = Path(tempfile.mkdtemp(prefix="cass-build-speed-")) if own_work else work
    try:
        cache, reports = work / "cache", work / "reports"
        base = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
        cass_env = {**base, "CASS_CACHE_DIR": str(cache), "CASS_TIME_PASSES": "1"}
        # the one-time pieces (libcassrt, device libraries, the parser's tables) before any timing
        prime = build(programs[0], "cass", work / "prime", cass_env)
        shutil.rmtree(cache / "translations", ignore_errors=True)
        passes = {"nvcc": run_pass(programs, "nvcc", work / "nvcc", base, jobs)}
        passes["cold"] = run_pass(programs, "cass", work / "cold", {**cass_env, "CASS_REPORT_DIR": str(reports)}, jobs)
        passes["warm"] = run_pass(programs, "cass", work / "warm", cass_env, jobs)
        return summarize(programs, passes, jobs, prime, _kernel_seconds(reports))
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)


def summarize(programs: list[Program], passes: dict, jobs: int, prime: dict, kernel_seconds: dict) -> dict:
    names = [p.name for p in programs]
    ok = [n for n in names if all(passes[k]["builds"][n]["ok"] for k in passes)]
    failed = {n: {k: passes[k]["builds"][n].get("error") for k in passes if not passes[k]["builds"][n]["ok"]}
              for n in names if n not in ok}
    totals = {}
    for k, data in passes.items():
        builds = [data["builds"][n] for n in ok]
        totals[k] = {"wall_s": sum(b["wall_s"] for b in builds), "cpu_s": sum(b["cpu_s"] for b in builds),
                     "makespan_s": data["makespan_s"]}
    ratios = {k: {m: totals[k][m] / totals["nvcc"][m] if totals["nvcc"][m] else None
                  for m in ("cpu_s", "wall_s", "makespan_s")} for k in ("cold", "warm")}
    shares = {}
    for k in ("cold", "warm"):
        jobs_sum: dict[str, float] = {}
        for n in ok:
            for label, s in passes[k]["builds"][n].get("jobs", {}).items():
                jobs_sum[label] = jobs_sum.get(label, 0.0) + s
        shares[k] = jobs_sum
    worst = sorted(((passes["cold"]["builds"][n]["cpu_s"] / max(passes["nvcc"]["builds"][n]["cpu_s"], 1e-9), n)
                    for n in ok), reverse=True)[:10]
    return {"programs": len(names), "compared": len(ok), "jobs": jobs, "failed": failed, "totals": totals,
            "ratios": ratios, "job_seconds": shares, "kernel_pass_seconds": kernel_seconds,
            "prime": prime, "worst_cold_cpu": [{"program": n, "ratio": r} for r, n in worst],
            "load_average": [round(x, 2) for x in os.getloadavg()], "nproc": os.cpu_count(),
            "builds": {k: passes[k]["builds"] for k in passes}, "goal": {"cold": GOAL_COLD, "warm": GOAL_WARM}}


def tables(result: dict) -> str:
    t, r = result["totals"], result["ratios"]
    lines = [f"{result['compared']} of {result['programs']} programs built by both, {result['jobs']} at a time "
             f"(load average after: {result['load_average']}, {result['nproc']} cores)", "",
             "build | CPU s | sum of build wall s | makespan s | CPU ratio | wall ratio | makespan ratio",
             "--- | --- | --- | --- | --- | --- | ---"]
    for k in ("nvcc", "cold", "warm"):
        ratio = r.get(k, {"cpu_s": 1.0, "wall_s": 1.0, "makespan_s": 1.0})
        lines.append(f"{k if k == 'nvcc' else 'cass-nvcc ' + k} | {t[k]['cpu_s']:.1f} | {t[k]['wall_s']:.1f} | "
                     f"{t[k]['makespan_s']:.1f} | {ratio['cpu_s']:.2f} | {ratio['wall_s']:.2f} | {ratio['makespan_s']:.2f}")
    for k in ("cold", "warm"):
        jobs = result["job_seconds"][k]
        total = sum(jobs.values()) or 1.0
        lines += ["", f"cass-nvcc {k}: job | wall s (summed over builds) | share",  "--- | --- | ---"]
        lines += [f"{label} | {s:.1f} | {100 * s / total:.1f} %" for label, s in sorted(jobs.items(), key=lambda x: -x[1])]
    ks = result["kernel_pass_seconds"]
    if ks:
        total = sum(ks.values()) or 1.0
        lines += ["", "cold: translation pass | seconds (summed over kernels) | share", "--- | --- | ---"]
        lines += [f"{label} | {s:.1f} | {100 * s / total:.1f} %" for label, s in sorted(ks.items(), key=lambda x: -x[1])]
    if result["worst_cold_cpu"]:
        lines += ["", "most costly cold builds (CPU cass/nvcc): " +
                  ", ".join(f"{w['program']} {w['ratio']:.2f}" for w in result["worst_cold_cpu"][:5])]
    for name, errors in result["failed"].items():
        lines.append(f"not compared: {name}: {errors}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="comma-separated shell globs on program names")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    programs = corpus(args.only.split(",") if args.only else None, args.limit)
    if not programs:
        sys.exit("no programs")
    result = measure(programs, args.jobs)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    print(tables(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
