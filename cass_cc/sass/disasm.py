"""nvdisasm -> one SASS text per kernel.

nvdisasm runs once per cubin (`-c`: code sections only, one instruction per line with its
address); the output is split at each `.text.<name>` section, so a kernel's text also holds the
subroutines ptxas placed in its section (division, sqrt slow paths)."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from .. import toolchain
from ..errors import ToolVerdict

NVDISASM_FLAGS = ("-c",)
_BANNER = re.compile(r"^//-+ .*-+[ \t]*$", re.M)
_SECTION = re.compile(r"^\s*\.section\s+\.text\.([^,\s]+)\s*,", re.M)


def nvdisasm_command(cubin_path: str) -> list[str]:
    return [toolchain.path("nvdisasm"), *NVDISASM_FLAGS, cubin_path]


def disassemble(cubin: bytes) -> dict[str, str]:
    """{kernel (section) name: its disassembly}, for every `.text.<name>` section of `cubin`;
    ToolVerdict when nvdisasm rejects the cubin (a damaged one)."""
    return dict(_disassemble(hashlib.sha256(cubin).hexdigest(), cubin))


@functools.lru_cache(maxsize=16)
def _disassemble(_digest: str, cubin: bytes) -> tuple[tuple[str, str], ...]:
    tmp = tempfile.mkdtemp(prefix="cass-disasm-")
    try:
        path = os.path.join(tmp, "kernel.cubin")
        with open(path, "wb") as f:
            f.write(cubin)
        proc = subprocess.run(nvdisasm_command(path), capture_output=True, timeout=600)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    stderr = proc.stderr.decode(errors="replace").strip()
    if proc.returncode != 0:
        raise ToolVerdict(f"nvdisasm failed: {stderr.splitlines()[-1] if stderr else proc.returncode}")
    try:
        text = proc.stdout.decode()
    except UnicodeDecodeError as e:
        # nvdisasm copies names from the cubin's string tables as they are: bytes that are no
        # text come from a damaged cubin.
        raise ToolVerdict(f"nvdisasm printed bytes that are not text (byte {e.start} of its output): "
                        "the cubin is damaged") from None
    return tuple(split_sections(text).items())


def split_sections(text: str) -> dict[str, str]:
    """Cut nvdisasm's output into its `.text.<name>` sections, each from its banner comment."""
    banners = [m.start() for m in _BANNER.finditer(text)] + [len(text)]
    out = {}
    for start, end in zip(banners, banners[1:]):
        chunk = text[start:end]
        m = _SECTION.search(chunk)
        if m:
            out[m.group(1)] = chunk
    return out
