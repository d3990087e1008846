"""One bench program through one translator at one level, as CASS scores a translation: by
building what the translator answered and running it. Nothing it answers is trusted; it passes
only when the program prints what the H200 printed (cass_cc.bench.programs.judge).

- source: every CUDA file of the program (sources and headers) translated to HIP, compiled and
  linked by hipcc for the offload arch;
- assembly: nvcc's objects (sm_80 SASS, as the binary route compiles), every kernel's SASS
  translated to RDNA3 assembly, completed into a code-object source when it is a body only,
  assembled by llvm-mc, linked per translation unit by ld.lld, its layout checked, embedded in
  nvcc's object; with -rdc, nvcc's device link first and its product translated. cass-nvcc links
  the objects with libcassrt (they hold no NVIDIA code left to translate).

The program then runs on the emulator (cass-run) in its own folder."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from .. import toolchain
from ..errors import CassError, Refusal
from ..unit import KernelUnit
from .programs import Program, checksum_of, judge
from .runner import BUILD_TIMEOUT_S, RUN_TIMEOUT_S, _environment, _timed, tool_command
from .translators import SOURCE, Translator

# The files of a program a source translator gets (its headers too: they hold CUDA code).
CUDA_FILES = (".cu", ".cuh", ".h", ".hpp", ".cpp")
# The nvcc options of the programs' flags.txt, as hipcc spells them. With -fgpu-rdc, HIP 5.2's
# cooperative-groups header gives every translation unit a copy of one non-inline device
# function, so the device link must allow that (as the source route's link does).
RDC = ["-fgpu-rdc", "-Xoffload-linker", "--allow-multiple-definition"]
HIPCC_FLAGS = {"-rdc=true": RDC, "--relocatable-device-code=true": RDC}
SM_ARCH = "sm_80"


class StageFailure(CassError):
    """A build step that failed: the stage (nvcc, translate, assemble, link, layout, compile)
    and the tool's or translator's message."""

    def __init__(self, stage: str, message: str):
        super().__init__(message)
        self.stage = stage


def score(program: Program, translator: Translator, level: str, offload_arch: str) -> dict:
    """The result of one program, translator and level (plain data: it crosses processes)."""
    result = {"program": program.name, "domain": program.domain, "translator": translator.spec,
              "level": level, "passed": False, "kernels": []}
    work = tempfile.mkdtemp(prefix="cass-tbench-")
    try:
        start = time.perf_counter()
        try:
            if level == SOURCE:
                exe = _build_source(program, translator, work, offload_arch)
            else:
                exe = _build_assembly(program, translator, work, offload_arch, result["kernels"])
        except StageFailure as e:
            result.update(stage=e.stage, error=e.message)
            return result
        finally:
            result["build_seconds"] = time.perf_counter() - start
        run = _timed([*tool_command("cass-run"), exe, *program.args], _environment(), RUN_TIMEOUT_S,
                     cwd=str(program.directory))
        result["run_seconds"] = run["seconds"]
        passed, why = judge(run["exit"] if run["exit"] is not None else -1, run["stdout"], program.reference)
        result.update(passed=passed, checksum=checksum_of(run["stdout"]))
        if not passed:
            detail = run.get("error", "")
            result.update(stage="run", error=f"{why}: {detail}" if detail and detail != "FAIL" else why)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tool(argv: list[str], stage: str, env: dict[str, str] | None = None, folder: str | None = None) -> None:
    """Run a build tool; its first error line is the failure (file names relative to `folder`,
    a private folder that is gone when the reader sees the message)."""
    done = _timed(argv, env or _environment(), BUILD_TIMEOUT_S)
    if not done["ok"]:
        raise StageFailure(stage, done["error"].replace(folder + os.sep, "") if folder else done["error"])


# --- source level -------------------------------------------------------------------------------

def _build_source(program: Program, translator: Translator, work: str, offload_arch: str) -> str:
    folder = os.path.join(work, "hip")
    os.makedirs(folder)
    for path in sorted(p for p in program.directory.iterdir() if p.suffix in CUDA_FILES):
        try:
            text = translator.source(path, offload_arch)
        except Refusal as e:
            raise StageFailure("translate", f"{path.name}: {e.message}") from None
        Path(folder, path.name).write_text(text)
    flags = []
    for flag in program.flags:
        if flag not in HIPCC_FLAGS:
            raise StageFailure("compile", f"nvcc option '{flag}' has no hipcc spelling here (HIPCC_FLAGS)")
        flags += HIPCC_FLAGS[flag]
    exe = os.path.join(work, "prog")
    sources = [os.path.join(folder, Path(s).name) for s in program.sources]
    argv = [toolchain.find("hipcc").path, f"--offload-arch={offload_arch}",
            f"--rocm-device-lib-path={toolchain.rocm_device_lib_path(offload_arch)}", "-O2", "-std=c++17",
            "-w", *flags, "-x", "hip", *sources, "-o", exe]
    _tool(argv, "compile", toolchain.hip_environment(), folder)
    return exe


# --- assembly level -----------------------------------------------------------------------------

def _build_assembly(program: Program, translator: Translator, work: str, offload_arch: str,
                    kernels: list[dict]) -> str:
    from ..driver.nvcc_command import SASS_TARGET
    from ..driver.nvidia_objects import file_code

    nvcc = toolchain.find("nvcc").path
    objects = []
    for n, source in enumerate(program.sources):
        obj = os.path.join(work, f"{n}-{Path(source).stem}.o")
        _tool([nvcc, "-c", "-O2", *SASS_TARGET, *program.flags, source, "-o", obj], "nvcc")
        objects.append(obj)
    codes = {obj: file_code(obj) for obj in objects}
    relocatable = [obj for obj in objects if any(c.relocatable for c in codes[obj])]
    inputs = list(objects)
    if relocatable:
        linked = os.path.join(work, "dlink.o")
        _tool([nvcc, "-dlink", f"-arch={SM_ARCH}", *relocatable, "-o", linked], "nvcc")
        to_translate = [linked]
        inputs.append(linked)
    else:
        to_translate = [obj for obj in objects if any(c.nvidia for c in codes[obj])]
    for obj in to_translate:
        translate_object(obj, translator, offload_arch, kernels)
    exe = os.path.join(work, "prog")
    _tool([*tool_command("cass-nvcc"), "--cass-route=binary", "-o", exe, *inputs], "link")
    return exe


def translate_object(obj: str, translator: Translator, offload_arch: str, kernels: list[dict]) -> None:
    """Replace the NVIDIA device code of nvcc's object `obj` by the translator's, in place; one
    entry per kernel is added to `kernels`. StageFailure names the first kernel that failed."""
    from ..driver.binary_embed import BundledCode, bundle, embed
    from ..model import complete_source
    from ..passes import FRONT_END, PASSES, units_from_file
    from ..pipeline import run_pipeline, run_units

    units = units_from_file(obj, offload_arch)
    for unit in units:
        run_pipeline(unit, FRONT_END)
        if unit.status == "ok":
            try:
                unit.asm = complete_source(translator.assembly(unit), unit)
            except Refusal as e:
                unit.status, unit.reasons = "failed", [f"translate: {e.message}"]
    run_units([u for u in units if u.status == "ok"], [PASSES["assemble"], PASSES["link"]])
    linked = [u for u in units if u.status == "ok"]
    if linked:
        _check_layout(linked)
    kernels += [{"name": u.name, "demangled": u.demangled, "status": u.status, "reasons": u.reasons}
                for u in units]
    failed = [u for u in units if u.status != "ok"]
    if failed:
        first = failed[0]
        stage = first.reasons[0].split(":", 1)[0] if first.reasons else "translate"
        raise StageFailure(stage, f"kernel '{first.demangled or first.name}': {'; '.join(first.reasons)}")
    # an object without kernels gets a bundle without code objects, as on the binary route
    code = [BundledCode("hip", offload_arch, linked[0].code_object)] if linked else []
    embed(obj, bundle(code), obj)


def _check_layout(units: list[KernelUnit]) -> None:
    """Each kernel in the code object declares the CUDA parameter layout (the launch passes
    CUDA's arguments as they are); a kernel that does not is failed with what is wrong."""
    from ..passes.verify import check_layout
    from ..rdna3.code_object import CodeObject

    try:
        info = CodeObject(units[0].code_object, "the translated code object")
    except CassError as e:
        for u in units:
            u.status, u.reasons = "failed", [f"link: {e.message}"]
        return
    for u in units:
        problems = check_layout(u, info)
        if problems:
            u.status, u.reasons = "failed", [f"layout: {'; '.join(problems)}"]
