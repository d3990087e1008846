"""The source route: hipify the CUDA translation unit (and the user's headers it includes), then
compile it for the AMD targets with the HIP compiler that knows them (hip_compilers.py: hipcc,
else clang-22); link with the same compiler, so libamdhip64 comes along.

Its jobs are asked for through routes.py, which chooses the route.
"""

from __future__ import annotations

import os
import time

from .. import toolchain
from ..errors import CassError
from ..report import Report
from ..targets import target
from . import hip_fatbin, host, warp_waits
from .hip_compilers import compiler_for
from .frontend import Frontend, place_job
from .help import cuda_version
from .jobs import Job
from .parse import UsageError
from .plan import Compile, Link, TranslationUnit
from .settings import Settings

NAME = "source"
# -l names of NVIDIA's libraries -> those the hipified code calls (None: the HIP runtime, which
# every link has, takes its place). hipify renames the calls the same way.
LINK_LIBRARIES = {
    "cudart": None, "cudart_static": None, "cudadevrt": None, "cuda": None,
    "cublas": "hipblas", "cublas_static": "hipblas", "curand": "hiprand", "curand_static": "hiprand",
    "cufft": "hipfft", "cufft_static": "hipfft", "cusparse": "hipsparse",
    "cusparse_static": "hipsparse", "nvrtc": "hiprtc",
}


def link_library(name: str) -> str | None:
    """The library to link for `-l<name>` on this route (None: nothing to link)."""
    return LINK_LIBRARIES.get(name, name)
PRELUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cass_nvcc_prelude.h")


def hipcc_env() -> dict[str, str]:
    return toolchain.hip_environment()


def compiler_argv(settings: Settings, offload_archs: list[str], link: bool = False) -> list[str]:
    """The HIP compiler that builds every one of `offload_archs` (hip_compilers.py's table), with
    the flags that select them: one invocation, one code object per target in its bundle."""
    compiler = compiler_for(offload_archs)
    flags = compiler.link_flags if link else compiler.target_flags
    return [compiler.path(), *flags(offload_archs, settings.flushes_denormals())]


def warp_check(tu: TranslationUnit, archs: list[str]) -> None:
    """CUDA's warps are 32 lanes on every target (cass_wave64.h runs two in each 64-lane wave);
    only the legacy warp functions, which HIP defines over the whole wave, cannot be: CassError
    naming each use (file:line) when an arch runs 64-lane waves."""
    wave64 = next((a for a in archs if target(a).wave_size == 64), None)
    if wave64 is None:
        return
    # imported here: the lexer's package brings lark, which a warm wave32 build never needs
    from .warp_uses import legacy_warp_uses
    uses = legacy_warp_uses(tu.source)
    if not uses:
        return
    (path, line, what), *more = uses
    lines = [f"{path}:{line}: '{what}' is a legacy warp function (CUDA 8, without _sync), which HIP "
             f"defines over the whole 64-lane wave of {wave64}, not a 32-lane CUDA warp: use "
             f"'{what}_sync' (the binary route, the default, runs it)"]
    lines += [f"{p}:{n}: '{w}' is a legacy warp function too" for p, n, w in more]
    raise CassError("\n".join(lines))


NVCC_DEFAULT_DIALECT = "c++17"


def version_macros() -> list[str]:
    major, minor, build = cuda_version()
    return [f"-D__CUDACC_VER_MAJOR__={major}", f"-D__CUDACC_VER_MINOR__={minor}",
            f"-D__CUDACC_VER_BUILD__={build}", f"-D__CUDA_API_VER_MAJOR__={major}",
            f"-D__CUDA_API_VER_MINOR__={minor}"]


def frontend(tu: TranslationUnit, settings: Settings, work: str, archs: list[str] | None = None) -> Frontend:
    """hipcc's command for `tu`, building for `archs` (default: every offload arch)."""
    fe = Frontend(tu, settings, work, env=hipcc_env())
    rdc = ["-fgpu-rdc"] if settings.rdc else []
    # nvcc 12 and 13 compile CUDA as C++17 unless -std says otherwise; hipcc 5.2's clang 15 would
    # take C++14 (lambdas with auto parameters, if constexpr and structured bindings then fail).
    dialect = [] if settings.std else [f"-std={NVCC_DEFAULT_DIALECT}"]
    compiler, *target_flags = compiler_argv(settings, archs or settings.offload_archs)
    fe.base = [compiler, "-x", "hip", *rdc, *target_flags,
               "-include", PRELUDE, *fe.preprocessor_flags(), *version_macros(), *dialect,
               *settings.language_flags(), *settings.device_flags]
    return fe


def compile_jobs(action: Compile, settings: Settings, work: str) -> list[Job]:
    """One translation unit -> one x86-64 object with the AMD code in its .hip_fatbin."""
    if action.tu.language != "cu":
        return host.compile_jobs(action, settings, work)
    warp_check(action.tu, settings.offload_archs)
    fe = frontend(action.tu, settings, work)
    after = [_report_job(fe, work)] if _wants_report(settings) else []
    if not any(target(a).wave_size == 64 for a in settings.offload_archs):
        return fe.compile_jobs(action.output, action.deps_file, action.deps_targets or [action.output],
                               after=after, product_dir=action.product_dir)
    waits, header, obj = _warp_waits_job(fe, work)
    fe.base[fe.base.index(PRELUDE) + 1:fe.base.index(PRELUDE) + 1] = ["-include", header]
    hipify, *jobs = fe.compile_jobs(action.output, action.deps_file, action.deps_targets or [action.output],
                                    after=_wave_per_warp_jobs(obj, work) + after, product_dir=action.product_dir)
    return [hipify, waits, *jobs]


# --- one warp per wave (cass_wave_per_warp.h and .c) --------------------------------------------

WAVE_PER_WARP_HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hipify",
                                  "cass_wave_per_warp.c")


def _warp_waits_job(fe: Frontend, work: str) -> tuple[Job, str, str]:
    """`cass-cc warp-waits`, after hipify: whether the unit's warps wait for each other on the
    wave64 targets (nvcc's SASS), into a header the compile includes and the symbol map for its
    object. Returns the job, the header and the compiler's object (what the compile job writes)."""
    stem = os.path.join(work, fe.tu.stem)
    header, symbols = stem + ".warp-waits.h", stem + ".warp-waits.syms"
    argv = ["cass-cc", "warp-waits", fe.tu.source, "--language", fe.tu.language, "--mirror", fe.mirror.root,
            "--header", header, "--symbols", symbols, "--", *fe.settings.step_options]
    return Job(argv, lambda: warp_waits.step(argv[2:]), label="warp-waits"), header, stem + ".o"


def _wave_per_warp_jobs(obj: str, work: str) -> list[Job]:
    """The object's launches and kernel registrations renamed to cass_wave_per_warp.c's forms
    (llvm-objcopy, the map `cass-cc warp-waits` wrote), and that file's code merged in (ld -r)."""
    host = os.path.join(work, "cass_wave_per_warp.o")
    renamed = obj + ".renamed.o"
    symbols = obj[:-len(".o")] + ".warp-waits.syms"
    return [Job([toolchain.path("cc"), "-c", "-O2", "-fPIC", "-D__HIP_PLATFORM_AMD__",
                 "-I" + toolchain.hip_include_dir(), WAVE_PER_WARP_HOST, "-o", host], label="cc"),
            Job([toolchain.path("llvm-objcopy"), f"--redefine-syms={symbols}", obj, renamed], label="llvm-objcopy"),
            Job([toolchain.path("ld.lld"), "-r", renamed, host, "-o", obj], label="ld.lld")]


def preprocess(tu: TranslationUnit, settings: Settings, output: str | None, work: str) -> list[Job]:
    return frontend(tu, settings, work).preprocess_jobs(output, ["--cuda-host-only"])


def dependencies(tu: TranslationUnit, settings: Settings, output: str | None, targets: list[str],
                 work: str) -> list[Job]:
    return frontend(tu, settings, work).deps_jobs(output, targets, ["--cuda-host-only"])


def link_jobs(action: Link, settings: Settings, work: str) -> list[Job]:
    """Objects and libraries -> a program or shared library, linked by hipcc (libamdhip64)."""
    tmp = os.path.join(work, "link.out")
    argv = compiler_argv(settings, settings.offload_archs, link=True)
    if settings.rdc or any(hip_fatbin.has_relocatable_device_code(i) for i in action.inputs):
        # The device code of -rdc objects is linked here. HIP 5.2's cooperative-groups header
        # defines a device function that is not inline, so every unit including it has a copy;
        # the object clang wraps the linked device code in lacks a .note.GNU-stack.
        argv += ["-fgpu-rdc", "--hip-link", "-Xoffload-linker", "--allow-multiple-definition",
                 "-Wno-unused-command-line-argument", "-Wl,-z,noexecstack"]
    argv += (["-shared"] if action.shared else []) + (["-pg"] if settings.profile else [])
    argv += settings.host_link_options
    argv += ["-o", tmp, *action.inputs, *implicit_link_args()]
    argv += ["-L" + d for d in settings.library_dirs]
    argv += ["-l" + lib for lib in map(link_library, settings.libraries) if lib]
    argv += [a for opt in settings.linker_options for a in ("-Xlinker", opt)]
    argv += settings.link_flags
    if settings.verbose:
        # The host linker's own command line (CMake reads the libraries C++ targets need to link
        # objects with AMD code from it, as it does from g++'s for nvcc).
        argv.append("-v")
    return [Job(argv, env=hipcc_env(), label="link"), place_job(tmp, action.output)]


def implicit_link_args() -> list[str]:
    """The HIP runtime, named on every link line: CMake reads it from `-v` as nvcc's LIBRARIES
    and adds it when C++ targets link objects cass-nvcc compiled."""
    return ["-L" + os.path.dirname(toolchain.libamdhip64()), "-lamdhip64"]


def implicit_include_dirs() -> list[str]:
    """The runtime headers every compile sees (`-v` prints them as nvcc's INCLUDES)."""
    return [toolchain.hip_include_dir()]


# --- the translation report -------------------------------------------------------------------

def _wants_report(settings: Settings) -> bool:
    return bool(settings.report_path or os.environ.get("CASS_REPORT_DIR"))


def _report_job(fe: Frontend, work: str) -> Job:
    argv = ["cass-cc", "report", os.path.join(work, fe.tu.stem + ".o"), "--mirror", fe.mirror.root,
            "--", *fe.settings.step_options]
    return Job(argv, lambda: report(argv[2:]), label="report")


def report(argv: list[str]) -> None:
    """`cass-cc report OBJECT --mirror DIR -- [NVCC_OPTIONS]`: the translation report of an object
    hipcc compiled from the mirror, written to --cass-report's file and into $CASS_REPORT_DIR."""
    from ..demangle import demangle_all
    from ..rdna3.code_object import CodeObject
    from .mirror import Mirror
    from .step_arguments import read_arguments, settings_of

    values, inputs, options = read_arguments(argv, "report", {"--mirror": "mirror"}, ("OBJECT", 1, 1), ("mirror",))
    settings = settings_of(options)
    if not (settings.report_path or os.environ.get("CASS_REPORT_DIR")):
        raise UsageError("report: nowhere to write the report: give --cass-report=FILE after '--' "
                         "or set CASS_REPORT_DIR (see cass-cc report --help)")
    mirror = Mirror.load(values["mirror"])
    obj = inputs[0]
    start = time.perf_counter()
    # A translation unit without kernels (a host-only main.cu), or with relocatable device
    # code still in bitcode (-rdc), has no code object in its object to read kernels from.
    from elftools.common.exceptions import ELFError
    try:
        objects = hip_fatbin.code_objects(obj) if hip_fatbin.has_code_objects(obj) else []
        names = sorted({n for co in objects for n in CodeObject(co.data, obj).kernels})
    except ELFError as e:
        raise CassError(f"'{obj}' is not an object file hipcc made: {e}") from None
    except OSError as e:
        raise CassError(f"cannot read '{obj}': {e.strerror}") from None
    demangled = demangle_all(names)
    result = Report(source=mirror.source or obj, route=NAME, offload_arch=settings.offload_arch,
                    nvidia_targets=settings.nvidia_targets)
    result.diagnostics = [f"{d.file}:{d.line}: {d.severity}: {d.message}" for d in mirror.diagnostics]
    result.diagnostics += [f"recorded: {r}" for r in settings.recorded]
    read_seconds = time.perf_counter() - start
    for name in names:
        result.kernels.append({
            "name": name, "demangled": demangled.get(name, name), "tier": "hipify",
            "status": "ok", "sass_instructions": None, "rdna3_instructions": None,
            "reasons": [], "seconds": {"hipify": round(mirror.seconds, 6),
                                       "read_back": round(read_seconds, 6)}})
    result.write(settings.report_path)
