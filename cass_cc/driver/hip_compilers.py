"""Which HIP compiler builds which AMD target on the source route (and the hipify fallback).

One table, best first: hipcc where its clang knows the target, else Debian's clang-22 driven
directly as a HIP compiler. Debian's hipcc 5.2 drives clang 15, which knows gfx1030, gfx90a and
gfx110x but no gfx12 processor and not gfx942; clang-22 knows them all. A compiler's own list of
processors (`--print-supported-cpus`) decides, so a build for a target no compiler knows stops
with each compiler's reason instead of clang's 'invalid target ID'.

clang-22 builds against ROCm 5.2's HIP headers and device libraries (what Debian ships, bridged
by rocm_compat.py): it is given the ROCm prefix, code object v5 (clang-22 defaults to v6, whose device library ABI ROCm 5.2
lacks), and __AMDGCN_WAVEFRONT_SIZE per target, which HIP 5.2's headers read (warpSize) and
clang-22 no longer predefines. A build with several targets uses one compiler for all of them,
so that one offload bundle carries a code object per target.
"""

from __future__ import annotations

import functools
import re
import subprocess
from dataclasses import dataclass
from typing import Callable

from .. import rocm_compat, toolchain
from ..errors import CassError, ToolMissing
from ..targets import TARGETS, target

TRIPLE = "amdgcn-amd-amdhsa"
CODE_OBJECT_VERSION = 5  # cass-cc's code objects, the emulator's and libamdhip64 5.2's


@dataclass(frozen=True)
class HipCompiler:
    name: str                               # as messages and `cass-cc doctor` name it
    tool: str                               # toolchain.find's name of its driver
    clang: Callable[[], str | None]         # the clang whose processor list decides
    # compile flags that select the targets, and the link flags for them (-fgpu-rdc's device
    # link); both take the targets and whether the build flushes f32 denormals
    target_flags: Callable[[list[str], bool], list[str]]
    link_flags: Callable[[list[str], bool], list[str]]

    def path(self) -> str:
        return toolchain.find(self.tool).path


def _device_libs(offload_archs: list[str]) -> list[str]:
    # The folder links every installed device library and adds the generated ISA version files
    # the installed ones lack (gfx11's, gfx12's and gfx942's are missing from Debian's ROCm 5.2).
    return [f"--rocm-device-lib-path={toolchain.rocm_device_lib_path(*offload_archs)}"]


def _software_textures(offload_archs: list[str]) -> list[str]:
    # Device code for a target whose facts say so fetches textures in software
    # (hipify/cass_texture_software.h); the host side makes software objects on a device that is
    # one of those processors (the list, for every pass) or has no images at all.
    software = [t.name for t in TARGETS.values() if t.software_textures]
    return [flag for arch in offload_archs if target(arch).software_textures
            for flag in (f"-Xarch_{arch}", "-DCASS_SOFTWARE_TEXTURES=1")] + \
        [f"-DCASS_SOFTWARE_TEXTURE_PROCESSORS={','.join(software)}"]


def _without_gws(offload_archs: list[str]) -> list[str]:
    # HIP's grid barrier is GWS's; device code for a target without it gets cass_grid_sync.h's
    return [flag for arch in offload_archs if not target(arch).gws
            for flag in (f"-Xarch_{arch}", "-DCASS_NO_GWS=1")]


def _hipcc_flags(offload_archs: list[str], flush_denormals: bool) -> list[str]:
    # hipcc's clang 15 links the oclc_daz_opt library of the denormal mode itself; the overlay
    # gives HIP 5.2's headers CUDA's meaning where they differ (rocm_compat.FOR_EVERY_COMPILER)
    return [f"--offload-arch={a}" for a in offload_archs] + _device_libs(offload_archs) + \
        ["-isystem", rocm_compat.hip_header_overlay(clang22=False)] + \
        _software_textures(offload_archs) + _without_gws(offload_archs)


def _clang_link_flags(offload_archs: list[str], flush_denormals: bool) -> list[str]:
    # -O3 first, as hipcc puts it: the build's own -O, later on the line, overrides it.
    return ["-O3", f"--rocm-path={toolchain.rocm_root()}", f"-mcode-object-version={CODE_OBJECT_VERSION}",
            *[f"--offload-arch={a}" for a in offload_archs],
            f"--rocm-device-lib-path={rocm_compat.clang22_device_lib_path(*offload_archs, flush_denormals=flush_denormals)}"]


def _clang_flags(offload_archs: list[str], flush_denormals: bool) -> list[str]:
    flags = _clang_link_flags(offload_archs, flush_denormals) + ["-isystem", rocm_compat.hip_header_overlay(clang22=True)]
    for arch in offload_archs:
        flags += [f"-Xarch_{arch}", f"-D__AMDGCN_WAVEFRONT_SIZE={target(arch).wave_size}"]
    flags += _software_textures(offload_archs) + _without_gws(offload_archs)
    # The host pass reads the headers too; clang 15 (hipcc's) defines 64 there.
    return flags + ["-Xarch_host", "-D__AMDGCN_WAVEFRONT_SIZE=64"]


def _hipcc_clang() -> str | None:
    """The clang hipcc drives, when hipcc itself is installed."""
    try:
        toolchain.find("hipcc")
    except ToolMissing:
        return None
    return toolchain.hipcc_clang()


def _clang22() -> str | None:
    try:
        return toolchain.find("clang++-22").path
    except ToolMissing:
        return None


COMPILERS = (
    HipCompiler("hipcc", "hipcc", _hipcc_clang, _hipcc_flags, _hipcc_flags),
    HipCompiler("clang-22", "clang++-22", _clang22, _clang_flags, _clang_link_flags),
)


@functools.lru_cache(maxsize=None)
def processors(compiler: HipCompiler) -> tuple[str, frozenset[str]]:
    """(the compiler's clang, as its version line names it; the AMD processors it knows).
    A compiler that is not installed knows none."""
    clang = compiler.clang()
    if clang is None:
        return f"{compiler.name}, not installed: {toolchain.HOW_TO_GET[compiler.tool]}", frozenset()
    proc = subprocess.run([clang, f"--target={TRIPLE}", "-nogpulib", "--print-supported-cpus"],
                          capture_output=True, text=True, timeout=60)
    text = proc.stdout + proc.stderr
    version = next((line.strip() for line in text.splitlines() if "clang version" in line), clang)
    return version, frozenset(re.findall(r"^\s+(gfx\w+)\s*$", text, re.M))


def knows(compiler: HipCompiler, offload_arch: str) -> bool:
    return offload_arch in processors(compiler)[1]


def serving(offload_arch: str) -> HipCompiler | None:
    """The compiler that builds `offload_arch` alone (None: no compiler knows it)."""
    return next((c for c in COMPILERS if knows(c, offload_arch)), None)


def missing_reason(offload_arch: str) -> str:
    """Why no HIP compiler can build for `offload_arch` ('' when one can)."""
    if serving(offload_arch):
        return ""
    return "; ".join(f"{c.name}'s compiler ({processors(c)[0]}) does not know {offload_arch}"
                     for c in COMPILERS)


def compiler_for(offload_archs: list[str]) -> HipCompiler:
    """The first compiler of the table that knows every target of the build; CassError naming
    each target no compiler knows, or saying that none knows them all."""
    found = next((c for c in COMPILERS if all(knows(c, a) for a in offload_archs)), None)
    if found:
        return found
    unknown = [a for a in offload_archs if missing_reason(a)]
    if unknown:
        raise CassError("\n".join(f"cannot build for {a} on the source route: {missing_reason(a)}"
                                  for a in unknown))
    raise CassError(f"cannot build for {','.join(offload_archs)} on the source route: no HIP compiler "
                    f"knows all of them ({'; '.join(f'{a}: {serving(a).name}' for a in offload_archs)})")
