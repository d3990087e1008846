"""`cass-cc bench --prebuilt`: what a program that plain nvcc built costs under cass-run, side by
side with a cass-nvcc build of the same source, in one run.

Per benchmark program, with one cache folder whose translations are emptied before each cold
step (libcassrt, the emulated runtime and the device libraries are built once before any
timing, as an installation has them):

  nvcc -O2 -arch=sm_80        the prebuilt program (sm_80 SASS and PTX: the SASS cass-nvcc lifts
                              too, so both translate the same kernels)
  cass-nvcc -O2 -arch=sm_80   twice: cold (empty translation cache), then warm (same cache)
  cass-run PREBUILT           first run, empty image cache: every image is translated at load
  cass-run PREBUILT           second run: every image comes from the image cache
  cass-run CASS_NVCC_BUILD    the cass-nvcc build's run (no translation at load)

What translation adds is measured the same way on both sides: the first run's seconds less the
second's, against the cold build's seconds less the warm build's (cass-nvcc translates while
nvcc compiles, so its translate step alone would hide part of it). libcassrt also reports each
image it is handed (CASS_IMAGE_STATS_FILE: kind, bytes, whether the cache had it, seconds in the
lookup or the translator): the first run's sum is the time in the translator, and the second
run's seconds per image are the start-up cost with a warm cache (goal: under 50 ms per module),
the cost that a cass-nvcc build, whose code objects are in the program, does not have.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from ..fsutil import atomic_write_text
from ..toolchain import find
from .programs import Program, judge
from .runner import BUILD_TIMEOUT_S, RUN_TIMEOUT_S, _environment, _timed, first_error_line, tool_command

ARCH_FLAG = "-arch=sm_80"
WARM_GOAL_S = 0.050
STATS_ENV = "CASS_IMAGE_STATS_FILE"
# What a cold step starts without: the translations of kernels and of images.
COLD_FOLDERS = ("translations", "images")
WARM_UP_KERNEL = "extern \"C\" __global__ void warm_up(int *x) { x[threadIdx.x] += 1; }\n"


def _cold(cache: str) -> None:
    for folder in COLD_FOLDERS:
        shutil.rmtree(os.path.join(cache, folder), ignore_errors=True)


def warm_up(cache: str, work: str) -> None:
    """Build what an installation has before its first program: libcassrt, the emulated runtime,
    and (by translating one small kernel) the generated device libraries."""
    env = _environment(CASS_CACHE_DIR=cache)
    source, cubin = os.path.join(work, "warm_up.cu"), os.path.join(work, "warm_up.cubin")
    Path(source).write_text(WARM_UP_KERNEL)
    steps = [
        [find("nvcc").path, "-cubin", ARCH_FLAG, "-o", cubin, source],
        [*tool_command("cass-cc"), "translate-image", cubin, "-o", os.path.join(work, "warm_up.hsaco")],
        [*tool_command("cass-run"), "/bin/true"],
    ]
    for argv in steps:
        subprocess.run(argv, env=env, check=True, capture_output=True, timeout=BUILD_TIMEOUT_S)
    _cold(cache)


def _image_stats(path: str) -> list[dict]:
    try:
        return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def _run(argv: list[str], cache: str, stats: str, program: Program) -> dict:
    result = _timed(argv, _environment(CASS_CACHE_DIR=cache, **{STATS_ENV: stats}), RUN_TIMEOUT_S,
                    cwd=str(program.directory))
    passed, why = judge(result["exit"] if result["exit"] is not None else -1, result.pop("stdout"),
                        program.reference)
    result["passed"] = passed
    if not passed:
        result["error"] = why + (f": {result['error']}" if result.get("error") else "")
    result["images"] = _image_stats(stats)
    return result


def bench_prebuilt_program(program: Program, cache: str, work: str) -> dict:
    """Everything measured for one program."""
    prebuilt, cass = os.path.join(work, "prebuilt"), os.path.join(work, "cass")
    result: dict = {"program": program.name, "passed": False}
    build = _timed([find("nvcc").path, "-O2", ARCH_FLAG, *program.flags, "-o", prebuilt, *program.sources],
                   _environment(), BUILD_TIMEOUT_S)
    if not build["ok"]:
        return {**result, "stage": "nvcc build", "error": build["error"]}
    _cold(cache)
    argv = [*tool_command("cass-nvcc"), "-O2", ARCH_FLAG, *program.flags, "-o", cass, *program.sources]
    for name in ("cold", "warm"):
        built = _timed(argv, _environment(CASS_CACHE_DIR=cache), BUILD_TIMEOUT_S)
        if not built["ok"]:
            return {**result, "stage": f"cass-nvcc build ({name})", "error": built["error"]}
        result[f"cass_nvcc_{name}_build_s"] = built["seconds"]
    _cold(cache)
    runs = {"first": [prebuilt], "second": [prebuilt], "cass_nvcc": [cass]}
    for name, command in runs.items():
        run = _run([*tool_command("cass-run"), *command, *program.args], cache, os.path.join(work, f"{name}.jsonl"),
                   program)
        result[name] = run
        if not run["passed"]:
            return {**result, "stage": f"run ({name})", "error": run.get("error", "")}
    first, second = result["first"]["images"], result["second"]["images"]
    result["modules"] = len(second)
    result["translator_s"] = sum(i["seconds"] for i in first)
    result["prebuilt_added_s"] = result["first"]["seconds"] - result["second"]["seconds"]
    result["cass_nvcc_added_s"] = result["cass_nvcc_cold_build_s"] - result["cass_nvcc_warm_build_s"]
    result["warm_module_s"] = [i["seconds"] for i in second]
    result["all_cached_second"] = all(i["cached"] for i in second) and bool(second)
    result["passed"] = result["all_cached_second"] and not any(i["cached"] for i in first)
    if not result["passed"]:
        result.update(stage="image cache", error="the first run did not translate every image, or the second "
                                                  "did not find every image in the cache")
    return result


def _ratio(a: float, b: float) -> float | None:
    return a / b if b > 0 else None


def _summary(results: list[dict]) -> dict:
    ok = [r for r in results if r["passed"]]
    warm = [s for r in ok for s in r["warm_module_s"]]
    prebuilt = sum(r["prebuilt_added_s"] for r in ok)
    cass = sum(r["cass_nvcc_added_s"] for r in ok)
    return {
        "programs": len(results), "passed": len(ok), "failed": len(results) - len(ok),
        "modules": len(warm), "translator_s": sum(r["translator_s"] for r in ok),
        "prebuilt_added_s": prebuilt, "cass_nvcc_added_s": cass, "translation_ratio": _ratio(prebuilt, cass),
        "warm_module_ms": {"median": 1000 * statistics.median(warm) if warm else None,
                           "max": 1000 * max(warm) if warm else None},
        "warm_goal_ms": 1000 * WARM_GOAL_S,
        "warm_goal_met": bool(warm) and max(warm) < WARM_GOAL_S,
        "load_average": os.getloadavg(),
    }


def _number(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _markdown(results: list[dict], summary: dict) -> str:
    lines = ["# Prebuilt programs under cass-run against cass-nvcc builds", "",
             "program | modules | translator s (first run) | first − second run s | cass-nvcc cold − warm "
             "build s | ratio | warm lookup ms per module (max) | runs s: first / second / cass-nvcc build",
             "--- | --- | --- | --- | --- | --- | --- | ---"]
    for r in results:
        if not r["passed"]:
            lines.append(f"{r['program']} | FAILED at {r.get('stage')}: {r.get('error')} | | | | | |")
            continue
        lines.append(f"{r['program']} | {r['modules']} | {r['translator_s']:.2f} | {r['prebuilt_added_s']:.2f} | "
                     f"{r['cass_nvcc_added_s']:.2f} | {_number(_ratio(r['prebuilt_added_s'], r['cass_nvcc_added_s']))} | "
                     f"{1000 * max(r['warm_module_s']):.2f} | {r['first']['seconds']:.2f} / "
                     f"{r['second']['seconds']:.2f} / {r['cass_nvcc']['seconds']:.2f}")
    s, warm = summary, summary["warm_module_ms"]
    lines += ["", f"What translation adds, all programs: {s['prebuilt_added_s']:.2f} s to the prebuilt programs' "
              f"first runs ({s['translator_s']:.2f} s in the translator) against {s['cass_nvcc_added_s']:.2f} s "
              f"to cass-nvcc's cold builds (ratio {_number(s['translation_ratio'])}).",
              f"Warm start-up per module ({s['modules']} modules): median {_number(warm['median'])} ms, max "
              f"{_number(warm['max'])} ms; goal under {s['warm_goal_ms']:.0f} ms: "
              f"{'met' if s['warm_goal_met'] else 'MISSED'}.",
              "Load average at the end: " + ", ".join(f"{x:.2f}" for x in s["load_average"]) + ".",
              "", f"{s['passed']} passed, {s['failed']} failed", ""]
    return "\n".join(lines)


def run_prebuilt(programs: list[Program], out_dir: str, progress) -> dict:
    """Benchmark `programs` one after the other (timings are not taken beside each other); write
    summary.json and summary.md into out_dir; the summary."""
    work = tempfile.mkdtemp(prefix="cass-bench-prebuilt-")
    try:
        cache = os.path.join(work, "cache")
        warm_up(cache, work)
        results = []
        for program in progress(programs):
            folder = tempfile.mkdtemp(prefix="program-", dir=work)
            results.append(bench_prebuilt_program(program, cache, folder))
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = _summary(results)
    os.makedirs(out_dir, exist_ok=True)
    atomic_write_text(os.path.join(out_dir, "summary.json"),
                      json.dumps({"summary": summary, "programs": results}, indent=1) + "\n")
    atomic_write_text(os.path.join(out_dir, "summary.md"), _markdown(results, summary))
    return summary
