"""One source through the tools, as the CASS paper pairs them: nvcc's host x86 assembly and
per-kernel SASS, the HIP translation (cass-cc's hipify) and hipcc's host x86 and per-kernel AMD
device assembly, the lifter's RDNA3 per kernel; and, for a program with main, both builds run on
the emulator and the pair is kept only when they print the same.

A tool that fails or runs out of time drops the sample with that reason (a `Dropped`); a bug in
cass-cc is an exception like anywhere else. Runs in a worker: it takes and returns plain data."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from .. import process_group, toolchain
from .corpus import digest

# nvcc has no -Os of its own: the host compiler gets it, ptxas keeps its default (-O3).
NVCC_FLAGS = ["-Xcompiler=-Os", "-arch=sm_80"]
HIPCC_FLAGS = ["-Os", "-std=c++17", "-w"]
REASONS = ("duplicate", "nvcc failed", "hipify failed", "hipcc failed", "outputs differ", "timeout")
_MAIN = re.compile(r"\bint\s+main\s*\(")
# An AMD device function in hipcc's assembly: its label up to the .Lfunc_end that closes it.
_AMD_FUNCTION = re.compile(r"^([\w.$]+):[^\n]*\n(.*?)^\.Lfunc_end\d+:", re.S | re.M)


class Dropped(Exception):
    """The sample leaves the data set, for `reason` (one of REASONS); `detail` says what failed."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


def _run(argv: list[str], reason: str, timeout: float, env: dict | None = None,
         cwd: str | None = None) -> process_group.Finished:
    done = process_group.run(argv, timeout, cwd=cwd, env=env)
    if done.timed_out:
        raise Dropped("timeout", f"{Path(argv[0]).name} ran past {timeout:.0f} s")
    if done.exit != 0 and reason:
        lines = [l for l in (done.stderr + done.stdout).splitlines() if l.strip()]
        first = next((l for l in lines if "error" in l.lower()), lines[-1] if lines else "")
        first = _in_sample(first, cwd) if cwd else first
        raise Dropped(reason, first.strip()[:500] or f"exit status {done.exit}")
    return done


def _in_sample(message: str, work: str) -> str:
    """A tool's message with the sample's private folder left out of its file names (sample.cu,
    not /tmp/cass-dataset-x1y2/sample.cu), so a drop reads the same in every build of the corpus.
    The hipified copy sits in the mirror at its absolute path."""
    return message.replace(os.path.join(work, "hip") + work + os.sep, "").replace(work + os.sep, "")


def _host_assembly(obj: str, timeout: float) -> str:
    """The x86 assembly of an object's host code (objdump: the object is what the toolchain
    links, whereas a -S run would be a second, different compile)."""
    done = _run(["objdump", "-d", "--no-show-raw-insn", "-M", "att", obj], "", timeout)
    return done.stdout.split("\n\n", 1)[-1] if done.exit == 0 else ""


def amd_kernels(assembly: str) -> dict[str, str]:
    """hipcc's device assembly split per function (kernels and device functions it kept)."""
    return {m.group(1): m.group(2) for m in _AMD_FUNCTION.finditer(assembly)}


def process(path: str, text: str, folder: str, offload_arch: str, timeout: float) -> dict:
    """The sample's record (shards.SCHEMA), or {"path", "dropped": reason, "detail"}. `folder`
    is where the source lives: its own headers (`#include "common.h"`, `"../util/x.cuh"`) are
    found there, by nvcc as they are and by hipcc hipified."""
    with tempfile.TemporaryDirectory(prefix="cass-dataset-") as work:
        try:
            return _process(path, text, folder, offload_arch, timeout, work)
        except Dropped as e:
            return {"path": path, "dropped": e.reason, "detail": e.detail}


def _process(path: str, text: str, folder: str, offload_arch: str, timeout: float, work: str) -> dict:
    from ..driver.mirror import Mirror
    from ..passes import units_from_file
    from ..translation import translate_unit

    cu = os.path.join(work, "sample.cu")
    Path(cu).write_text(text)
    nvcc = toolchain.path("nvcc")
    obj = os.path.join(work, "cuda.o")
    _run([nvcc, *NVCC_FLAGS, f"-I{folder}", "-c", cu, "-o", obj], "nvcc failed", timeout, cwd=work)
    units = units_from_file(obj, offload_arch)
    for unit in units:
        translate_unit(unit)   # a refusal marks the kernel failed: recorded, the sample stays

    # the source and the headers of its folder it includes, hipified as the source route does
    mirror = Mirror(os.path.join(work, "hip"))
    hip = mirror.translate_tree(cu, [folder])
    if mirror.diagnostics:
        d = mirror.diagnostics[0]
        where = "sample.cu" if d.file == cu else os.path.relpath(d.file, folder)
        raise Dropped("hipify failed", f"{where}:{d.line}: {d.severity}: {d.message}")
    include = [a for h in mirror.compat_headers for a in ("-include", h)]
    hipcc = [toolchain.path("hipcc"), f"--offload-arch={offload_arch}",
             f"--rocm-device-lib-path={toolchain.rocm_device_lib_path(offload_arch)}", *HIPCC_FLAGS,
             f"-I{mirror.include_dir(folder)}", *include, "-x", "hip", hip]
    env = toolchain.hip_environment(temp_dir=work)
    device_s = os.path.join(work, "hip-device.s")
    host_o = os.path.join(work, "hip-host.o")
    _run([*hipcc, "--cuda-device-only", "-S", "-o", device_s], "hipcc failed", timeout, env, work)
    _run([*hipcc, "--cuda-host-only", "-c", "-o", host_o], "hipcc failed", timeout, env, work)
    amd = amd_kernels(Path(device_s).read_text())

    record = {
        "id": digest(text), "path": path, "cuda_source": text, "hip_source": Path(hip).read_text(),
        "cuda_host_asm": _host_assembly(obj, timeout), "hip_host_asm": _host_assembly(host_o, timeout),
        "kernels": [{"name": u.name, "demangled": u.demangled, "sass": u.sass_text,
                     "hip_device_asm": amd.get(u.name, ""), "lifted_rdna3": u.asm,
                     "lift_status": u.status, "lift_reasons": list(u.reasons)} for u in units],
        "ran": False, "exit_status": None, "stdout": None,
    }
    if _MAIN.search(text):
        record.update(_run_both(cu, folder, hipcc, env, offload_arch, timeout, work))
    return record


def _run_both(cu: str, folder: str, hipcc: list[str], env: dict, offload_arch: str, timeout: float,
              work: str) -> dict:
    """Build the program both ways and run both on the emulator; their exit status and output
    must agree."""
    from ..bench.runner import tool_command
    nv_exe, hip_exe = os.path.join(work, "cuda.out"), os.path.join(work, "hip.out")
    _run([*tool_command("cass-nvcc"), "--cass-route=binary", f"--cass-offload-arch={offload_arch}",
          *NVCC_FLAGS, f"-I{folder}", cu, "-o", nv_exe], "nvcc failed", timeout, cwd=work)
    _run([*hipcc, "-o", hip_exe], "hipcc failed", timeout, env, work)
    runs = [_run([*tool_command("cass-run"), exe], "", timeout, cwd=work) for exe in (nv_exe, hip_exe)]
    if (runs[0].exit, runs[0].stdout) != (runs[1].exit, runs[1].stdout):
        raise Dropped("outputs differ", f"exit {runs[0].exit} vs {runs[1].exit}, "
                      f"{len(runs[0].stdout)} vs {len(runs[1].stdout)} bytes of output")
    return {"ran": True, "exit_status": runs[0].exit, "stdout": runs[0].stdout}
