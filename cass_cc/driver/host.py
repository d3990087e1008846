""".c/.cpp inputs: host code, compiled by the host compiler (-ccbin, else cc/c++) as nvcc does.

Host files of CUDA projects call the CUDA runtime (cudaMalloc, cudaMemcpy), so they are
hipified like .cu files and compiled against the HIP headers for the AMD platform.
"""

from __future__ import annotations

import os
import shutil

from .. import toolchain
from ..errors import ToolMissing
from .frontend import DEFAULT_INCLUDE_DIRS, Frontend
from .jobs import Job
from .plan import Compile, TranslationUnit
from .settings import Settings


def host_compiler(settings: Settings, language: str) -> str:
    if settings.ccbin:
        ccbin = settings.ccbin
        if os.path.isdir(ccbin):  # nvcc accepts the folder holding the compiler
            ccbin = os.path.join(ccbin, "gcc" if language == "c" else "g++")
        found = shutil.which(ccbin)
        if not found:
            raise ToolMissing(f"host compiler '{settings.ccbin}' (-ccbin) not found")
        return found
    name = "cc" if language == "c" else "c++"
    found = shutil.which(name) or shutil.which("gcc" if language == "c" else "g++")
    if not found:
        raise ToolMissing(f"no host compiler ({name}) found: {toolchain.HOW_TO_GET['cc']}")
    return found


def frontend(tu: TranslationUnit, settings: Settings, work: str) -> Frontend:
    fe = Frontend(tu, settings, work)
    flags = settings.language_flags()
    if tu.language == "c":  # -std names a C++ dialect
        flags = [f for f in flags if not f.startswith("-std=")]
    hip_include = toolchain.hip_include_dir()
    # gcc must not see its own default folders as -isystem (it breaks #include_next).
    hip_flags = [] if hip_include in DEFAULT_INCLUDE_DIRS else ["-isystem", hip_include]
    fe.base = [host_compiler(settings, tu.language), "-x", tu.language, "-D__HIP_PLATFORM_AMD__",
               *hip_flags, *fe.preprocessor_flags(), *flags]
    return fe


def compile_jobs(action: Compile, settings: Settings, work: str) -> list[Job]:
    return frontend(action.tu, settings, work).compile_jobs(
        action.output, action.deps_file, action.deps_targets or [action.output],
        product_dir=action.product_dir)


def preprocess(tu: TranslationUnit, settings: Settings, output: str | None, work: str) -> list[Job]:
    return frontend(tu, settings, work).preprocess_jobs(output, [])


def dependencies(tu: TranslationUnit, settings: Settings, output: str | None, targets: list[str],
                 work: str) -> list[Job]:
    return frontend(tu, settings, work).deps_jobs(output, targets, [])
