"""Which AMD targets the HIP compiler can build for. hipcc drives a clang that may be older than
the targets cass-cc knows (Debian's hipcc 5.2 drives clang 15, which knows gfx1030, gfx90a and
gfx110x but no gfx12 processor): the clang's own list of processors decides, so a build for a
target it lacks stops with that reason instead of clang's 'invalid target ID'."""

from __future__ import annotations

import functools
import re
import subprocess

from .. import toolchain
from ..errors import CassError, ToolMissing

TRIPLE = "amdgcn-amd-amdhsa"


@functools.lru_cache(maxsize=None)
def hipcc_processors() -> tuple[str, frozenset[str]]:
    """(the clang hipcc drives, as its version line names it; the AMD processors it knows)."""
    clang = toolchain.hipcc_clang()
    if clang is None:
        raise ToolMissing("the clang that hipcc drives was not found: apt-get install hipcc, or set ROCM_PATH")
    proc = subprocess.run([clang, f"--target={TRIPLE}", "-nogpulib", "--print-supported-cpus"],
                          capture_output=True, text=True, timeout=60)
    text = proc.stdout + proc.stderr
    version = next((line.strip() for line in text.splitlines() if "clang version" in line), clang)
    return version, frozenset(re.findall(r"^\s+(gfx\w+)\s*$", text, re.M))


def missing_reason(offload_arch: str) -> str:
    """Why hipcc cannot build for `offload_arch` ('' when it can)."""
    version, known = hipcc_processors()
    if offload_arch in known:
        return ""
    return f"hipcc's compiler ({version}) does not know {offload_arch}"


def check_hipcc_targets(offload_archs: list[str]) -> None:
    """CassError naming the first target hipcc cannot build for."""
    for arch in offload_archs:
        why = missing_reason(arch)
        if why:
            raise CassError(f"cannot build for {arch} on the source route: {why}")
