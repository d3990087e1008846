"""AMDGPU metadata notes of kernel objects: reading, merging, and taking them out.

Each kernel's relocatable object carries its own NT_AMDGPU_METADATA note; ld.lld keeps them all,
and loaders (ROCm's, and the emulated runtime) read the first note only, so every kernel after
the first would be missing. The per-kernel notes are taken out of the objects and one note that
lists every kernel (amdhsa.kernels of all of them) is linked in instead.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import tempfile

import msgpack
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from .. import toolchain
from ..errors import CassError

NT_AMDGPU_METADATA = 32
NOTE_OWNER = b"AMDGPU\0"


def metadata_notes(obj: bytes) -> tuple[list[str], list[dict]]:
    """The note sections of a relocatable object and the AMDGPU metadata maps in them."""
    try:
        elf = ELFFile(io.BytesIO(obj))
    except ELFError as e:
        raise CassError(f"unreadable kernel object: {e}") from None
    sections, maps = [], []
    for sec in elf.iter_sections():
        if sec["sh_type"] != "SHT_NOTE":
            continue
        sections.append(sec.name)
        for note in sec.iter_notes():
            if note["n_name"] == "AMDGPU" and note["n_type"] == NT_AMDGPU_METADATA:
                desc = note["n_descdata"]
                maps.append(msgpack.unpackb(desc if isinstance(desc, bytes) else desc.encode("latin-1"),
                                            raw=False))
    return sections, maps


def merged_note(maps: list[dict]) -> bytes:
    """One NT_AMDGPU_METADATA note whose amdhsa.kernels lists the kernels of all `maps`."""
    merged = dict(next((m for m in maps if m.get("amdhsa.kernels")), maps[0]))
    merged["amdhsa.kernels"] = [k for m in maps for k in m.get("amdhsa.kernels", [])]
    desc = msgpack.packb(merged, use_bin_type=True)
    pad = lambda b: b + b"\0" * (-len(b) % 4)  # noqa: E731
    return struct.pack("<III", len(NOTE_OWNER), len(desc), NT_AMDGPU_METADATA) + pad(NOTE_OWNER) + pad(desc)


def note_object(note: bytes, offload_arch: str, like: bytes) -> bytes:
    """An object holding `note`, for the code object version of the object `like`."""
    from .tools import assemble

    version = like[8] + 2  # e_ident[EI_ABIVERSION]: 2 for code object v4, 3 for v5
    lines = [f".amdhsa_code_object_version {version}", f'.amdgcn_target "amdgcn-amd-amdhsa--{offload_arch}"',
             '.section .note,"a",@note', ".p2align 2"]
    lines += [".byte " + ",".join(str(b) for b in note[i:i + 32]) for i in range(0, len(note), 32)]
    return assemble("\n".join(lines) + "\n", offload_arch)


def without_notes(obj: bytes, sections: list[str], work: str, n: int) -> bytes:
    src, out = os.path.join(work, f"in{n}.o"), os.path.join(work, f"out{n}.o")
    with open(src, "wb") as f:
        f.write(obj)
    cmd = [toolchain.path("llvm-objcopy"), *[f"--remove-section={s}" for s in sections], src, out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"cannot take the metadata out of a kernel object: {proc.stderr.strip()}")
    with open(out, "rb") as f:
        return f.read()
