"""The AMD code of one translation unit on the binary route: every kernel of nvcc's object
translated from SASS (the passes' pipelines), and, for kernels the translators refuse, the
hipify fallback (the TU hipified and compiled by hipcc for the device only). The result is the
list of code objects for the bundle and the report's kernel entries."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from .. import toolchain
from ..errors import CassError
from ..pipeline import run_pipeline
from ..unit import KernelUnit
from .binary_embed import CodeObject
from .mirror import Mirror, is_user_dir
from .settings import Settings


class NoRoute(CassError):
    """A kernel that neither the translators nor the hipify fallback produced."""


@dataclass
class TranslatedTU:
    code_objects: list[CodeObject] = field(default_factory=list)
    kernels: list[dict] = field(default_factory=list)      # report entries
    diagnostics: list[str] = field(default_factory=list)


def translate_units(units: list[KernelUnit], settings: Settings) -> list[KernelUnit]:
    """Each unit through the pipeline of the first translator that takes it."""
    from cass_cc import passes  # the passes import llvmlite; only the binary route needs them

    done = []
    for unit in units:
        reasons: list[str] = []
        for translator in settings.translators:
            trial = KernelUnit(name=unit.name, sm_arch=unit.sm_arch, offload_arch=unit.offload_arch,
                               demangled=unit.demangled, kernel=unit.kernel, tier=translator)
            trial = run_pipeline(trial, passes.pipeline(translator), settings.dump_after)
            if trial.status == "ok":
                trial.reasons = reasons + trial.reasons
                unit = trial
                break
            reasons += trial.reasons
        else:
            unit.status, unit.reasons = "failed", reasons or ["no translator was allowed (--cass-translators)"]
        done.append(unit)
    return done


def link_code_object(units: list[KernelUnit], output: str) -> bytes:
    """One code object for all translated kernels of the TU (ld.lld over their objects)."""
    objs = []
    for n, unit in enumerate(units):
        path = f"{output}.{n}.o"
        with open(path, "wb") as f:
            f.write(unit.obj)
        objs.append(path)
    cmd = [toolchain.path("ld.lld"), "-shared", "--no-undefined", "-o", output, *objs]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"linking the translated kernels failed: {proc.stderr.strip()}")
    with open(output, "rb") as f:
        return f.read()


def defined_kernels(code_object: bytes) -> set[str]:
    """Names of the kernels a code object defines (their `<name>.kd` descriptors)."""
    import io
    try:
        elf = ELFFile(io.BytesIO(code_object))
        syms = elf.get_section_by_name(".dynsym") or elf.get_section_by_name(".symtab")
        return {s.name[:-3] for s in syms.iter_symbols() if s.name.endswith(".kd")}
    except (ELFError, AttributeError) as e:
        raise CassError(f"unreadable code object from the fallback compile: {e}") from None


def hipify_code_object(source: str, settings: Settings, work: str, offload_arch: str) -> tuple[bytes, str]:
    """The TU hipified and compiled by hipcc for the device only: (code object, hipcc's messages)."""
    mirror = Mirror(os.path.join(work, "hipify"))
    user_dirs = [d for d in settings.include_dirs if is_user_dir(d)]
    hip_source = mirror.translate_tree(source, user_dirs)
    out = os.path.join(work, f"fallback-{offload_arch}.hsaco")
    cmd = [toolchain.path("hipcc"), "--cuda-device-only", "--no-gpu-bundle-output", "-c", "-x", "hip",
           f"--offload-arch={offload_arch}",
           f"--rocm-device-lib-path={toolchain.rocm_device_lib_path(offload_arch)}", "-w"]
    cmd += [f"-I{mirror.include_dir(d) if is_user_dir(d) else d}" for d in settings.include_dirs]
    cmd += [f"-isystem{d}" for d in settings.system_dirs]
    cmd += [f"-D{d}" for d in settings.defines] + [f"-U{u}" for u in settings.undefines]
    # nvcc includes cuda_runtime.h in every .cu implicitly; hipcc needs its counterpart named.
    cmd += ["-include", "hip/hip_runtime.h"] + [f"-include{h}" for h in mirror.compat_headers]
    if settings.std:
        cmd.append(f"-std={settings.std}")
    cmd += [f"-O{settings.opt_level or '3'}", *settings.device_flags, hip_source, "-o", out]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=toolchain.hip_environment())
    messages = mirror.unmirror_text(proc.stderr)
    if proc.returncode != 0:
        errors = [line for line in messages.splitlines() if "error:" in line]
        return b"", errors[0] if errors else "hipcc failed"
    with open(out, "rb") as f:
        return f.read(), messages


def code_for_tu(source: str, units: list[KernelUnit], settings: Settings, work: str,
                no_fallback: str | None) -> TranslatedTU:
    """Translate `units` (the kernels of nvcc's object for `source`) for every offload arch; fall
    back to hipify for refused kernels unless `no_fallback` says why not; NoRoute when a kernel
    gets no code."""
    result = TranslatedTU()
    for arch in settings.offload_archs:
        for u in units:
            u.offload_arch = arch
        translated = translate_units(units, settings)
        ok = [u for u in translated if u.status == "ok"]
        refused = [u for u in translated if u.status != "ok"]
        if ok:
            data = link_code_object(ok, os.path.join(work, f"lifted-{arch}.hsaco"))
            result.code_objects.append(CodeObject("hip", arch, data))
        if refused:
            _fall_back(source, refused, settings, work, arch, result, no_fallback)
        if arch == settings.offload_arch:
            result.kernels = [u.report_entry() for u in translated]
    return result


def _fall_back(source: str, refused: list[KernelUnit], settings: Settings, work: str, arch: str,
               result: TranslatedTU, no_fallback: str | None) -> None:
    if no_fallback:
        problem = refused[0]
        raise NoRoute(f"kernel '{problem.demangled or problem.name}' cannot be translated: "
                      f"{'; '.join(problem.reasons)} ({no_fallback})")
    data, messages = hipify_code_object(source, settings, work, arch)
    have = defined_kernels(data) if data else set()
    for u in refused:
        if u.name not in have:
            why = messages if not data else "the hipified translation unit does not define it"
            raise NoRoute(f"kernel '{u.demangled or u.name}' has no route: {'; '.join(u.reasons)}; "
                          f"hipify fallback: {why}")
        u.tier, u.status = "hipify", "fallback"
    result.code_objects.append(CodeObject("hipv4", arch, data))
