"""--help, --version and --list-gpu-* texts, made from the option table."""

from __future__ import annotations

import functools
import re
import subprocess
import textwrap

from .. import __version__, toolchain
from ..errors import ToolMissing
from . import options as O

# Used when no nvcc is installed: the CUDA release whose command line cass-nvcc follows.
FALLBACK_CUDA_VERSION = (12, 0, 140)

NVIDIA_ARCHS = ("50", "52", "53", "60", "61", "62", "70", "72", "75", "80", "86", "87", "88", "89",
                "90", "90a", "100", "100a", "101", "103", "110", "120", "121")

STATUS_NOTE = {O.RECORDED: "accepted and recorded", O.UNSUPPORTED: "not supported"}


@functools.lru_cache(maxsize=None)
def cuda_version() -> tuple[int, int, int]:
    """The CUDA release of the installed nvcc (the binary route uses it), else the fallback."""
    try:
        nvcc = toolchain.find("nvcc").path
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (ToolMissing, OSError, subprocess.TimeoutExpired):
        return FALLBACK_CUDA_VERSION
    m = re.search(r"V(\d+)\.(\d+)\.(\d+)", out)
    return (int(m[1]), int(m[2]), int(m[3])) if m else FALLBACK_CUDA_VERSION


def version_text() -> str:
    major, minor, build = cuda_version()
    # CMake recognises an nvcc by the second line and reads the toolkit version from the third.
    return (f"cass-nvcc {__version__}: builds CUDA programs for AMD GPUs; command line of\n"
            f"nvcc: NVIDIA (R) Cuda compiler driver\n"
            f"compatible with Cuda compilation tools, release {major}.{minor}, V{major}.{minor}.{build}\n")


def _spellings(opt: O.Option) -> str:
    meta = f" {opt.metavar}" if opt.metavar else ""
    text = f"--{opt.long}{meta}"
    if opt.short:
        text += f"  (-{opt.short})"
    return text


def help_text() -> str:
    lines = [
        "Usage: cass-nvcc [options] <inputfile>...",
        "",
        "A drop-in nvcc that builds CUDA programs for AMD GPUs (gfx1100 by default).",
        "Inputs: .cu (CUDA), .c, .cc, .cpp, .cxx (host code), .o, .a, .so (linked as they are).",
        "Without -c, -E, -M or -lib, all inputs are compiled and linked into a program (a.out).",
        "Values follow an option after '=' or as the next argument; list options take",
        "comma-separated values and may be repeated; @file reads options from a file.",
        "Options marked 'accepted and recorded' have no effect on the AMD program and are listed in",
        "the --cass-report; options marked 'not supported' stop the build with the reason.",
    ]
    for title, table in O.GROUPS:
        lines += ["", title, "=" * len(title), ""]
        for opt in table:
            lines.append(_spellings(opt))
            body = opt.help
            if opt.status in STATUS_NOTE:
                body += f" [{STATUS_NOTE[opt.status]}: {opt.reason}]"
            if opt.env:
                body += f" (environment: {opt.env})"
            lines += textwrap.wrap(body, 96, initial_indent="        ", subsequent_indent="        ")
    lines += ["", "Environment: CASS_REPORT_DIR=<dir> writes a report for every compile into <dir>.", ""]
    return "\n".join(lines)


def gpu_list(kind: str) -> str:
    """--list-gpu-arch (compute_NN) or --list-gpu-code (sm_NN): the NVIDIA names accepted."""
    prefix = "compute_" if kind == "arch" else "sm_"
    return "".join(f"{prefix}{a}\n" for a in NVIDIA_ARCHS)
