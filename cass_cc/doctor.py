"""`cass-cc doctor`: every tool the routes need, found or missing, its version and how to get it.

Exit status 1 when a required tool is missing: everything either route uses to build an AMD
program (cuobjdump, which only tests and inspection use, is optional).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Callable

import click

from . import toolchain
from .errors import CassError


@dataclass(frozen=True)
class Check:
    name: str
    needed_by: str            # "source", "binary" or "both"
    required: bool
    probe: Callable[[], tuple[str, str]]   # -> (path, version); raises CassError when missing
    how_to_get: str


def _tool(name: str) -> Callable[[], tuple[str, str]]:
    def probe() -> tuple[str, str]:
        tool = toolchain.find(name)
        origin = ", NVIDIA's PyPI wheel" if toolchain.from_wheel(tool.path) else ""
        return tool.path, tool.version() + origin
    return probe


def _compiler(name: str) -> Callable[[], tuple[str, str]]:
    def probe() -> tuple[str, str]:
        path = shutil.which(os.environ.get("CC", name)) or shutil.which("gcc")
        if not path:
            raise CassError(f"{name} not found")
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout
        return path, (out.splitlines() or ["unknown"])[0]
    return probe


def _device_libs() -> tuple[str, str]:
    folder = toolchain.rocm_device_lib_path("gfx1100")
    installed = toolchain.rocm_bitcode_dirs()[0]
    note = "gfx1100 library generated into the cache" if folder != installed else "installed"
    return folder, f"ockl.bc, ocml.bc, oclc_isa_version_1100.bc ({note})"


def _libamdhip64() -> tuple[str, str]:
    path = toolchain.libamdhip64()
    real = os.path.realpath(path)
    return path, os.path.basename(real)


def _hip_headers() -> tuple[str, str]:
    folder = toolchain.hip_include_dir()
    version_h = os.path.join(folder, "hip", "hip_version.h")
    parts = {}
    if os.path.isfile(version_h):
        with open(version_h) as f:
            for line in f:
                words = line.split()
                if len(words) == 3 and words[0] == "#define" and words[1] in VERSION_MACROS:
                    parts[words[1]] = words[2]
    version = ".".join(parts.get(m, "?") for m in VERSION_MACROS) if parts else "unknown"
    return folder, f"HIP {version}"


VERSION_MACROS = ("HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH")


ROUTE_NOTE = {"source": "source route", "binary": "binary route", "both": "both routes"}
HOW = toolchain.HOW_TO_GET
CHECKS = [
    Check("hipcc", "source", True, _tool("hipcc"), HOW["hipcc"]),
    Check("clang++-22", "source", False, _tool("clang++-22"), HOW["clang++-22"]),
    Check("ROCm device libraries (gfx1100)", "both", True, _device_libs,
          "apt-get install rocm-device-libs (cass-cc generates the gfx1100 file itself)"),
    Check("HIP headers", "both", True, _hip_headers, "apt-get install libamdhip64-dev"),
    Check("libamdhip64", "both", True, _libamdhip64, "apt-get install libamdhip64-dev"),
    Check("C/C++ compiler", "both", True, _compiler("cc"), HOW["cc"]),
    Check("clang-offload-bundler", "binary", True, _tool("clang-offload-bundler"),
          HOW["clang-offload-bundler"]),
    Check("nvcc", "binary", True, _tool("nvcc"), HOW["nvcc"]),
    Check("nvdisasm", "binary", True, _tool("nvdisasm"), HOW["nvdisasm"]),
    Check("cuobjdump", "binary", False, _tool("cuobjdump"), HOW["cuobjdump"]),
    Check("llvm-mc", "binary", True, _tool("llvm-mc"), HOW["llvm-mc"]),
    Check("ld.lld", "binary", True, _tool("ld.lld"), HOW["ld.lld"]),
    Check("llvm-objdump", "binary", True, _tool("llvm-objdump"), HOW["llvm-objdump"]),
    Check("llvm-objcopy", "binary", True, _tool("llvm-objcopy"), HOW["llvm-objcopy"]),
]


def source_compilers() -> list[tuple[str, str]]:
    """(target, the HIP compiler that builds it on the source route, or why none does)."""
    from .driver.hip_compilers import missing_reason, processors, serving
    from .targets import TARGETS

    rows = []
    for name in TARGETS:
        try:
            compiler = serving(name)
            rows.append((name, f"{compiler.name} ({processors(compiler)[0]})" if compiler
                         else f"NONE: {missing_reason(name)}"))
        except (CassError, OSError, subprocess.TimeoutExpired) as e:
            rows.append((name, f"NONE: {getattr(e, 'message', str(e))}"))
    return rows


def run_checks() -> list[tuple[Check, bool, str]]:
    """Each check with whether it passed and what to show (path and version, or the problem)."""
    results = []
    for check in CHECKS:
        try:
            path, version = check.probe()
            results.append((check, True, f"{path}  ({version})"))
        except (CassError, OSError, subprocess.TimeoutExpired) as e:
            results.append((check, False, getattr(e, "message", str(e))))
    return results


@click.command("doctor")
def doctor() -> None:
    """Check the tools cass-nvcc and cass-run need: found or missing, version, how to get them.

    Exits with status 1 when a required tool is missing.
    """
    missing = 0
    for check, ok, detail in run_checks():
        status = "ok" if ok else ("MISSING" if check.required else "missing")
        click.echo(f"{status:8} {check.name:34} [{ROUTE_NOTE[check.needed_by]}] {detail}")
        if not ok:
            click.echo(f"{'':8} how to get it: {check.how_to_get}")
            missing += check.required
    click.echo("source route (and hipify fallback) compiler per target:")
    for name, compiler in source_compilers():
        click.echo(f"{'':8} {name:10} {compiler}")
    if missing:
        click.echo(f"{missing} required tool(s) missing")
        raise click.exceptions.Exit(1)
    click.echo("all required tools found")
