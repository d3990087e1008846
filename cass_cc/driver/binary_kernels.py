"""The AMD code of one translation unit on the binary route: every kernel of nvcc's object
translated from SASS (the passes' pipelines), and, for kernels the translators refuse, the
hipify fallback (the TU hipified and compiled by hipcc for the device only). The result is the
list of code objects for the bundle and the report's kernel entries."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from dataclasses import dataclass, field

from .. import toolchain
from ..demangle import base_name
from ..errors import CassError, Refusal
from ..pipeline import run_pipeline
from ..rdna3.code_object import CodeObject
from ..unit import KernelUnit
from . import source_route
from .binary_embed import BundledCode
from .hip_compilers import missing_reason
from .mirror import is_user_dir
from .plan import TranslationUnit
from .settings import Settings
from .warp_waits import warps_wait


class NoRoute(CassError):
    """A kernel that neither the translators nor the hipify fallback produced."""


@dataclass
class TranslatedTU:
    code_objects: list[BundledCode] = field(default_factory=list)
    kernels: list[dict] = field(default_factory=list)      # report entries
    units: list[KernelUnit] = field(default_factory=list)  # the kernels, for the first offload arch
    diagnostics: list[str] = field(default_factory=list)

    def fallback_warnings(self) -> list[str]:
        """One line per kernel that the hipify fallback built, with the reasons the translators
        gave: a refusal is reported, never silent."""
        return [f"kernel '{u.demangled or u.name}' comes from the hipify fallback: {'; '.join(u.reasons)}"
                for u in self.units if u.status == "fallback"]


def _lift(unit: KernelUnit, settings: Settings) -> KernelUnit:
    """The lifter's kernel stages over one kernel, through the translation cache (unless a pass's
    output is to be dumped, which needs the passes to run)."""
    from cass_cc.cache import TranslationCache

    if settings.dump_after:
        from cass_cc.passes import KERNEL_STAGES
        return run_pipeline(unit, KERNEL_STAGES, settings.dump_after)
    cache = TranslationCache()
    if cache.lookup(unit):  # a hit needs neither the passes nor click
        return unit
    from cass_cc.translation import translate_unit
    return translate_unit(unit, cache)


def _model(unit: KernelUnit, settings: Settings) -> KernelUnit:
    """A CASS model's translation (CASS_MODEL_URL); trusted only after cass_cc/passes/differential.py's check,
    which its pipeline runs on the kernel linked alone."""
    from cass_cc.passes.model import PIPELINE
    return run_pipeline(unit, PIPELINE, settings.dump_after)


# The translators (--cass-translators) this cass-cc has.
TRANSLATORS = {"lift": _lift, "model": _model}


def translate_units(units: list[KernelUnit], settings: Settings) -> list[KernelUnit]:
    """Each unit through the first translator that takes it."""
    done = []
    for unit in units:
        reasons: list[str] = []
        for translator in settings.translators:
            if translator not in TRANSLATORS:
                reasons.append(f"{translator}: not available in this cass-cc")
                continue
            trial = KernelUnit(name=unit.name, sm_arch=unit.sm_arch, offload_arch=unit.offload_arch,
                               demangled=unit.demangled, kernel=unit.kernel, tier=translator)
            try:
                trial = TRANSLATORS[translator](trial, settings)
            except Refusal as e:  # declined outside its passes (which record their refusals)
                trial.refuse(translator, e)
            if trial.status == "ok":
                trial.reasons = reasons + trial.reasons
                unit = trial
                break
            reasons += trial.reasons
        else:
            unit.status, unit.reasons = "failed", reasons or ["no translator was allowed (--cass-translators)"]
        done.append(unit)
    return done


def defined_kernels(code_object: bytes) -> set[str]:
    """Names of the kernels a code object defines."""
    return set(CodeObject(code_object, "the hipify fallback's code object").kernels)


@dataclass
class FallbackCode:
    code_object: bytes     # empty when hipcc failed
    error: str             # hipcc's first error, when it failed
    diagnostics: list[str]  # what hipify could not translate


def hipify_code_object(tu: TranslationUnit, settings: Settings, work: str, offload_arch: str) -> FallbackCode:
    """The TU hipified and compiled for the device only by the target's HIP compiler, as the source
    route compiles it."""
    fe = source_route.frontend(tu, settings, os.path.join(work, f"fallback-{offload_arch}"), [offload_arch])
    fe.mirror.translate_tree(tu.source, fe.user_dirs())
    for inc in settings.pre_includes:
        if is_user_dir(inc):
            fe.mirror.translate_tree(inc, fe.user_dirs())
    diagnostics = [f"{fe.to_original(str(d.file))}:{d.line}: {d.severity}: {d.message}" for d in fe.mirror.diagnostics]
    out = os.path.join(fe.work, f"{tu.stem}.hsaco")
    argv = [a for a in fe.base if not a.startswith("--offload-arch=")]
    argv += [f"--offload-arch={offload_arch}", "--cuda-device-only", "--no-gpu-bundle-output", "-w"]
    argv += [a for h in fe.mirror.compat_headers for a in ("-include", h)]
    argv += ["-c", fe.mirrored, "-o", out]
    proc = subprocess.run(argv, capture_output=True, text=True, env=toolchain.hip_environment(temp_dir=fe.work))
    if proc.returncode != 0:
        errors = [line for line in fe.shape(proc.stderr, closing=False).splitlines() if "error" in line]
        return FallbackCode(b"", errors[0] if errors else "hipcc failed", diagnostics)
    with open(out, "rb") as f:
        return FallbackCode(f.read(), "", diagnostics)


def code_for_tu(tu: TranslationUnit, units: list[KernelUnit], settings: Settings, work: str,
                no_fallback: str | None) -> TranslatedTU:
    """Translate `units` (the kernels of nvcc's object for `tu`) for every offload arch: each
    kernel's stages, then the translation unit's (the link, verify on the code object that is
    embedded); fall back to hipify for refused kernels unless `no_fallback` says why not;
    NoRoute when a kernel gets no code."""
    result = TranslatedTU()
    _prepare_cold(units)
    for arch in settings.offload_archs:
        for u in units:
            u.offload_arch = arch
        translated = translate_units(units, settings)
        linked = _link(translated, settings)  # verify may refuse kernels in it: they are left out
        ok = [u for u in translated if u.status == "ok"]
        refused = [u for u in translated if u.status != "ok"]
        if ok and refused and _has_device_variables(units):
            # Two code objects would hold two copies of the TU's __device__ variables, and kernels
            # that share them through memory would each see their own: all go to the fallback.
            for u in ok:
                u.status = "failed"
                u.reasons.append(f"moved to the hipify fallback with '{refused[0].demangled or refused[0].name}': "
                                 "they share the translation unit's device variables")
            ok, refused = [], translated
        if ok:
            result.code_objects.append(BundledCode("hip", arch, linked))
        if refused:
            _fall_back(tu, refused, settings, work, arch, result, no_fallback)
        if arch == settings.offload_arch:
            result.units = translated
            result.kernels = [u.report_entry() for u in translated]
    return result


def _prepare_cold(units: list[KernelUnit]) -> None:
    """When kernels miss the translation cache, they need nvdisasm's text (one run per cubin),
    the passes, whose import (llvmlite, lark) is slow, and the SASS parser, which lark builds
    from the grammar: nvdisasm runs in a thread meanwhile, and the passes find its output in
    cass_cc.sass.disasm's memo. A failure there is left for the disasm pass to meet and report."""
    from cass_cc.cache import TranslationCache

    cache = TranslationCache()
    cubins = {id(c): c for u in units if (c := getattr(u.kernel, "cubin", None)) is not None
              and not cache.holds(u)}
    if not cubins:
        return
    from cass_cc.sass.disasm import disassemble

    def run() -> None:
        for cubin in cubins.values():
            try:
                disassemble(cubin.data)
            except Exception:  # noqa: BLE001 -- the disasm pass meets it again and reports it
                pass
    thread = threading.Thread(target=run, name="nvdisasm")
    thread.start()
    try:
        from cass_cc.passes import LIFT_PIPELINE, parse  # noqa: F401 -- imports every pass
        parse.prepare()
    finally:
        thread.join()


def _link(units: list[KernelUnit], settings: Settings) -> bytes | None:
    """The translated kernels linked into the translation unit's code object and verified in it,
    through the cache (not when a pass's output is to be dumped: then the link runs)."""
    from cass_cc.cache import TranslationCache
    from cass_cc.translation import link_units

    return link_units(units, None if settings.dump_after else TranslationCache(), settings.dump_after)


def _has_device_variables(units: list[KernelUnit]) -> bool:
    return any(getattr(getattr(u.kernel, "cubin", None), "globals", None) for u in units)


def kernel_location(source: str, demangled: str) -> str:
    """'file:line: ' of the kernel's __global__ definition in `source`, or '' when it is not there
    (a kernel from a header, or a name the source spells through macros)."""
    base = base_name(demangled)
    try:
        with open(source, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    if not base:
        return ""
    call = re.compile(rf"\b{re.escape(base)}\s*[(<]")
    for n, line in enumerate(lines):
        if call.search(line) and any("__global__" in l for l in lines[max(0, n - 2):n + 1]):
            return f"{source}:{n + 1}: "
    return ""


def _no_route(tu: TranslationUnit | None, unit: KernelUnit, why: str) -> NoRoute:
    where = kernel_location(tu.source, unit.demangled or unit.name) if tu else ""
    return NoRoute(f"{where}kernel '{unit.demangled or unit.name}' {why}")


def _fall_back(tu: TranslationUnit | None, refused: list[KernelUnit], settings: Settings, work: str, arch: str,
               result: TranslatedTU, no_fallback: str | None) -> None:
    if no_fallback:
        problem = refused[0]
        raise _no_route(tu, problem, f"cannot be translated: {'; '.join(problem.reasons)} ({no_fallback})")
    hipcc_lacks = missing_reason(arch)
    if not hipcc_lacks and tu:
        # HIP's legacy warp functions span a whole wave64: no warp-exact fallback with them
        try:
            source_route.warp_check(tu, [arch])
        except CassError as e:
            hipcc_lacks = e.message.splitlines()[0]
    if hipcc_lacks:
        lines = [f"{kernel_location(tu.source, u.demangled or u.name) if tu else ''}kernel "
                 f"'{u.demangled or u.name}' has no route for {arch}: {'; '.join(u.reasons)}; "
                 f"hipify fallback: {hipcc_lacks}" for u in refused]
        raise NoRoute("\n".join(lines))
    waiting = [(u, why) for u in refused if (why := warps_wait(u, arch))]
    if waiting:
        raise NoRoute("\n".join(
            f"{kernel_location(tu.source, u.demangled or u.name) if tu else ''}kernel '{u.demangled or u.name}' "
            f"has no route for {arch}: {'; '.join(u.reasons)}; hipify fallback: {why}, and the hipify "
            f"fallback runs two CUDA warps in each 64-lane wave of {arch}, where such warps would wait "
            f"forever" for u, why in waiting))
    fallback = hipify_code_object(tu, settings, work, arch)
    data = fallback.code_object
    have = defined_kernels(data) if data else set()
    for u in refused:
        if u.name not in have:
            why = fallback.error or "the hipified translation unit does not define it"
            raise _no_route(tu, u, f"has no route: {'; '.join(u.reasons)}; hipify fallback: {why}")
        u.tier, u.status = "hipify", "fallback"
    result.code_objects.append(BundledCode("hipv4", arch, data))
    result.diagnostics += [d for d in fallback.diagnostics if d not in result.diagnostics]
