"""The real nvcc's command line for one translation unit, as the binary route runs it: the SASS
the lifter reads (and PTX beside it) whatever -arch/-gencode the user gave, with the build's
preprocessor, language and device options. `cass-cc warp-waits` asks nvcc for the same SASS."""

from __future__ import annotations

from .. import toolchain
from .plan import language_of
from .settings import Settings

# What cass-nvcc asks nvcc for, whatever -arch/-gencode the user gave (recorded in the report):
# the SASS the lifter reads, and PTX beside it.
SASS_TARGET = ["-gencode", "arch=compute_80,code=[sm_80,compute_80]"]
# clang HIP device options (Settings.device_flags) back to the nvcc options they came from.
NVCC_DEVICE_OPTIONS = {
    "-fgpu-flush-denormals-to-zero": ["-ftz=true"],
    "-fno-hip-fp32-correctly-rounded-divide-sqrt": ["-prec-div=false", "-prec-sqrt=false"],
    "-ffp-contract=off": ["-fmad=false"],
    "-ffp-contract=fast": ["-fmad=true"],
}


def library_header_dirs() -> list[str]:
    """cuBLAS's and cuRAND's header folders where they are not CUDA's own include folder (NVIDIA's
    wheels): nvcc finds them in a toolkit, so programs compiled here find them too."""
    from ..runtime import cudalibs
    from ..runtime.cassrt.build import cuda_include_dir
    return [d for d in cudalibs.header_dirs() if d != cuda_include_dir()]


def nvcc_command(source: str, language: str, output: str, settings: Settings,
                 deps_file: str | None = None, deps_targets: list[str] | None = None) -> list[str]:
    """The real nvcc's command line for one translation unit."""
    cmd = [toolchain.path("nvcc"), "-c", source, "-o", output]
    if language != language_of(source):  # -x cu on a .cpp file, say: nvcc must be told as well
        cmd += ["-x", language]
    cmd += SASS_TARGET + settings.nvcc_front_end
    cmd += [f"-I{d}" for d in settings.include_dirs] + [f"-isystem={d}" for d in settings.system_dirs]
    cmd += [f"-isystem={d}" for d in library_header_dirs()]
    cmd += [f"-include={h}" for h in settings.pre_includes]
    cmd += [f"-D{d}" for d in settings.defines] + [f"-U{u}" for u in settings.undefines]
    if settings.std:
        cmd.append(f"-std={settings.std}")
    if settings.opt_level is not None:
        cmd.append(f"-O{settings.opt_level}")
    if settings.rdc:
        cmd.append("-rdc=true")
    if settings.debug:
        cmd.append("-g")
    if settings.lineinfo:
        cmd.append("-lineinfo")
    if settings.no_warnings:
        cmd.append("-w")
    for flag in settings.device_flags:
        cmd += NVCC_DEVICE_OPTIONS.get(flag, [])
    if settings.per_thread_default_stream:
        cmd.append("-default-stream=per-thread")
    host = settings.warning_flags + settings.host_options
    if host:
        cmd.append("-Xcompiler=" + ",".join(host))
    if settings.ccbin:
        cmd.append(f"-ccbin={settings.ccbin}")
    if deps_file:
        cmd += ["-MD", "-MF", deps_file] + [f"-MT={t}" for t in deps_targets or []]
    return cmd
