"""One suite program through every chosen route: a private copy of its folder (and the files it
needs) per route, the build (cass-nvcc --cass-route=ROUTE, or plain nvcc: the baseline), the run
(cass-run on the emulator or an AMD GPU; the nvcc build only on an NVIDIA GPU) and the verdict.
The result is plain data (JSON), so programs can run in worker processes. Nothing here imports the
compiler (llvmlite, lark): the nvcc route works where only nvcc, Python and click exist."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .. import process_group
from ..errors import CassError
from ..toolchain import find
from . import suite_judge as J
from .runner import _emu_stats, _environment, _kernels, first_error_line, tool_command
from .suite_manifest import SuiteProgram
from .suite_reference import record_entry

CASS_ROUTES = ("auto", "binary", "source")
ROUTES = (*CASS_ROUTES, "nvcc")
TAIL = 4000  # characters of a run's stdout/stderr kept in summary.json


def _copy_tree(root: Path, program: SuiteProgram, dest: Path) -> None:
    """The program's folder and its files, at the same relative places under dest."""
    for rel in (program.dir, *program.files):
        src = root / rel
        if not src.exists():
            raise CassError(f"'{rel}' is not in the sources ({root})")
        target = dest / rel
        if src.is_dir():
            shutil.copytree(src, target, symlinks=True, dirs_exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    cwd = dest / program.dir
    missing = [s for s in program.sources if not (cwd / s).exists()]
    if missing:
        raise CassError(f"source {', '.join(missing)} not in '{program.dir}'")


def _error_line(done: process_group.Finished) -> str:
    if done.exit is None:
        return ""
    return first_error_line(done.stderr) or first_error_line(done.stdout) or f"exit status {done.exit}"


def _read_outputs(cwd: Path, program: SuiteProgram) -> dict[str, bytes | None]:
    outputs: dict[str, bytes | None] = {}
    for name in program.outputs:
        path = cwd / name
        outputs[name] = path.read_bytes() if path.is_file() else None
    return outputs


def _remove_outputs(cwd: Path, program: SuiteProgram) -> None:
    """An output file shipped with the sources must not stand in for one the run did not write."""
    for name in program.outputs:
        path = cwd / name
        if path.is_file():
            path.unlink()


def _build_argv(route: str, program: SuiteProgram, offload_arch: str) -> list[str]:
    if route == "nvcc":
        return [find("nvcc").path, *program.flags, "-o", program.binary, *program.sources]
    return [*tool_command("cass-nvcc"), f"--cass-route={route}", f"--cass-offload-arch={offload_arch}",
            *program.flags, "-o", program.binary, *program.sources]


def run_route(root: Path, program: SuiteProgram, route: str, work: Path, reference: dict | None,
              reference_note: str, gpu: str | None, warm: bool, record: bool, offload_arch: str) -> dict:
    """Build, run and judge one program through one route (cass-nvcc's builds for `offload_arch`,
    which cass-run then emulates)."""
    base = work / route
    tree, cache, reports = base / "tree", base / "cache", base / "reports"
    result: dict = {"route": route}

    def verdict(v: J.Verdict) -> dict:
        if route != "nvcc":
            v = J.expected_refusal(program, v)
        result.update(status=v.status, reason=v.reason, cell=v.cell())
        return result

    try:
        _copy_tree(root, program, tree)
    except CassError as e:
        return verdict(J.Verdict(J.BUILD_ERROR, e.message))
    cwd = tree / program.dir
    reports.mkdir(parents=True)
    env = _environment(CASS_CACHE_DIR=str(cache), CASS_REPORT_DIR=str(reports))
    try:
        argv = _build_argv(route, program, offload_arch)
    except CassError as e:  # nvcc or cass-cc's tools not found
        return verdict(J.Verdict(J.BUILD_ERROR, e.message))
    build = process_group.run(argv, program.build_timeout, cwd=str(cwd), env=env)
    result["build_seconds"] = build.seconds
    if route != "nvcc":
        result["kernels"] = _kernels(str(reports))
    if build.exit is None:
        return verdict(J.Verdict(J.BUILD_ERROR, f"build timed out after {program.build_timeout:g} s"))
    if build.exit != 0:
        result["build_output_tail"] = (build.stderr + build.stdout)[-TAIL:]
        return verdict(J.judge_build(_error_line(build), by_cass=route != "nvcc"))
    if warm:
        again = process_group.run(argv, program.build_timeout, cwd=str(cwd), env=env)
        result["build_warm_seconds"] = again.seconds
        if again.exit != 0:
            return verdict(J.Verdict(J.BUILD_ERROR, f"warm rebuild: {_error_line(again) or 'timed out'}"))
    exe = str(cwd / program.binary)
    if route == "nvcc":
        if gpu is None:
            return verdict(J.Verdict(J.NOT_RUN, "no NVIDIA GPU"))
        argv = [exe, *program.args]
        result["gpu"] = gpu
    else:
        stats = base / "stats.json"
        argv = [*tool_command("cass-run"), "--emu-stats", str(stats), exe, *program.args]
    _remove_outputs(cwd, program)
    run = process_group.run(argv, program.timeout, cwd=str(cwd), env=_environment())
    outputs = _read_outputs(cwd, program)
    result.update(run_seconds=run.seconds, exit=run.exit, stdout_tail=run.stdout[-TAIL:],
                  stderr_tail=run.stderr[-TAIL:])
    if route != "nvcc":
        result.update(_emu_stats(str(stats)))
    if record and route == "nvcc":
        return verdict(_record(program, run, outputs, argv, cwd, result))
    v = J.judge_run(program, run.exit, run.stdout, _error_line(run), outputs, reference, run.exit is None)
    if v.status == J.UNVERIFIED and reference_note:
        v = J.Verdict(J.UNVERIFIED, reference_note)
    return verdict(v)


def _record(program: SuiteProgram, run: process_group.Finished, outputs: dict[str, bytes | None], argv: list[str], cwd: Path,
            result: dict) -> J.Verdict:
    """The H200's run makes the reference, judged by the program's own checks only. A program
    whose compared output is not the same twice (inputs seeded from the clock, say) cannot be
    judged by comparison: a second run must agree with the first, or nothing is recorded."""
    v = J.judge_run(program, run.exit, run.stdout, _error_line(run), outputs, None, run.exit is None)
    if v.status not in (J.PASS, J.UNVERIFIED) or run.exit != program.exit:
        return v
    try:
        entry = record_entry(program, run.stdout, run.exit, outputs)
    except CassError as e:
        return J.Verdict(J.FAIL, e.message)
    if program.needs_reference:
        _remove_outputs(cwd, program)
        again = process_group.run(argv, program.timeout, cwd=str(cwd), env=_environment())
        if again.exit != program.exit:
            return J.Verdict(J.FAIL, f"second run: exit {again.exit}: {_error_line(again)}")
        differs = J.judge_run(program, again.exit, again.stdout, _error_line(again), _read_outputs(cwd, program),
                              entry, False)
        if differs.status != J.PASS:
            return J.Verdict(J.FAIL, f"not reproducible, nothing recorded: a second run differs: {differs.reason}")
    result["record"] = entry
    return J.Verdict(J.PASS, "recorded")


def run_program(root: str, program: SuiteProgram, routes: list[str], reference: dict | None, reference_note: str,
                gpu: str | None, warm: bool, record: bool, offload_arch: str) -> dict:
    """Everything measured for one program (worker-process entry point)."""
    work = Path(tempfile.mkdtemp(prefix=f"cass-suite-{program.name}-"))
    try:
        return {"program": program.name, "expect": program.expect,
                "routes": {route: run_route(Path(root), program, route, work, reference, reference_note,
                                            gpu, warm, record, offload_arch) for route in routes}}
    finally:
        shutil.rmtree(work, ignore_errors=True)
