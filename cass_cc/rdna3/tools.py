"""llvm-mc and ld.lld: assembly text -> relocatable object -> code object (.hsaco).

Each invocation is an argument list that can be printed (clang -### style); temporaries live in a
private directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from .. import toolchain
from ..errors import CassError
from .target import TRIPLE, features


def assemble_command(source: str, output: str, offload_arch: str) -> list[str]:
    cmd = [toolchain.path("llvm-mc"), f"-triple={TRIPLE}", f"-mcpu={offload_arch}"]
    if features(offload_arch):
        cmd.append(f"-mattr={features(offload_arch)}")
    return cmd + ["-filetype=obj", source, "-o", output]


def link_command(objects: list[str], output: str) -> list[str]:
    return [toolchain.path("ld.lld"), "-shared", "--no-undefined", *objects, "-o", output]


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        lines = [l for l in (proc.stderr or proc.stdout).splitlines() if l.strip()]
        detail = next((l for l in lines if "error" in l), lines[0] if lines else f"exit {proc.returncode}")
        raise CassError(f"{what} failed: {detail.strip()}")


def assemble(asm: str, offload_arch: str = "gfx1100") -> bytes:
    """RDNA3 assembly text -> ELF relocatable object, with llvm-mc."""
    tmp = tempfile.mkdtemp(prefix="cass-mc-")
    try:
        src, obj = os.path.join(tmp, "kernel.s"), os.path.join(tmp, "kernel.o")
        with open(src, "w") as f:
            f.write(asm)
        _run(assemble_command(src, obj, offload_arch), "llvm-mc")
        with open(obj, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def link(objects: list[bytes]) -> bytes:
    """Relocatable objects -> one code object (a shared ELF), with ld.lld."""
    tmp = tempfile.mkdtemp(prefix="cass-lld-")
    try:
        paths = []
        for i, data in enumerate(objects):
            p = os.path.join(tmp, f"part{i}.o")
            with open(p, "wb") as f:
                f.write(data)
            paths.append(p)
        out = os.path.join(tmp, "code.hsaco")
        _run(link_command(paths, out), "ld.lld")
        with open(out, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
