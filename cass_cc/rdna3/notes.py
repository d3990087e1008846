"""Replacing the AMDGPU metadata notes of kernel objects for the translation unit's link.

Each kernel's relocatable object carries its own NT_AMDGPU_METADATA note; ld.lld keeps them all,
and loaders (ROCm's, and the emulated runtime) read the first note only, so every kernel after
the first would be missing. The per-kernel notes are taken out of the objects and one note that
lists every kernel (metadata.merged of them all) is linked in instead.
"""

from __future__ import annotations

import os
import subprocess

from .. import toolchain
from ..errors import CassError
from .code_object import CodeObject
from .tools import assemble


def note_object(note: bytes, offload_arch: str, like: bytes) -> bytes:
    """An object holding `note`, for the code object version of the object `like`."""
    version = CodeObject(like, "kernel object").code_object_version
    lines = [f".amdhsa_code_object_version {version}", f'.amdgcn_target "amdgcn-amd-amdhsa--{offload_arch}"',
             '.section .note,"a",@note', ".p2align 2"]
    lines += [".byte " + ",".join(str(b) for b in note[i:i + 32]) for i in range(0, len(note), 32)]
    return assemble("\n".join(lines) + "\n", offload_arch)


def without_notes(obj: bytes, sections: list[str], work: str, n: int) -> bytes:
    """`obj` less its `sections`, by llvm-objcopy; `work` is a private directory, `n` names the files."""
    src, out = os.path.join(work, f"in{n}.o"), os.path.join(work, f"out{n}.o")
    with open(src, "wb") as f:
        f.write(obj)
    cmd = [toolchain.path("llvm-objcopy"), *[f"--remove-section={s}" for s in sections], src, out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"cannot take the metadata out of a kernel object: {proc.stderr.strip()}")
    with open(out, "rb") as f:
        return f.read()
