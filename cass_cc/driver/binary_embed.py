"""Putting AMD code into nvcc's host objects: the code objects of a translation unit become a
clang offload bundle, and the bundle replaces the content of the object's `.nv_fatbin` section.

The fatbin wrapper that nvcc's host code hands __cudaRegisterFatBinary points at the start of
`.nv_fatbin` (one relocation, offset 0), so after the swap libcassrt finds the bundle there and
loads the code objects for the device's processor.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError, ToolMissing
from ..fsutil import atomic_copy

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
HOST_ENTRY = "host-x86_64-unknown-linux-gnu-"
FATBIN_SECTION = ".nv_fatbin"
# Code objects start page-aligned inside the bundle and the section, as clang lays them out.
ALIGNMENT = 4096


@dataclass(frozen=True)
class CodeObject:
    """One gfx code object for the bundle. `kind` is the bundle entry kind: "hip" for code object
    v5 (translated kernels), "hipv4" for v4 (hipcc 5.2's, the fallback)."""
    kind: str
    offload_arch: str
    data: bytes

    @property
    def bundle_id(self) -> str:
        return f"{self.kind}-amdgcn-amd-amdhsa--{self.offload_arch}"


def bundle(code_objects: list[CodeObject]) -> bytes:
    """A clang offload bundle (uncompressed format) with an empty host entry first, then the code
    objects in the given order: libcassrt looks kernels up in that order."""
    ids = [HOST_ENTRY.encode()] + [c.bundle_id.encode() for c in code_objects]
    if len(set(ids)) != len(ids):
        raise CassError("two code objects for one bundle entry: " + ", ".join(i.decode() for i in ids))
    blobs = [b""] + [c.data for c in code_objects]
    header_size = len(BUNDLE_MAGIC) + 8 + sum(24 + len(i) for i in ids)
    offsets, pos = [], header_size
    for blob in blobs:
        if blob:
            pos = -(-pos // ALIGNMENT) * ALIGNMENT
        offsets.append(pos)
        pos += len(blob)
    out = bytearray(BUNDLE_MAGIC + struct.pack("<Q", len(ids)))
    for ident, off, blob in zip(ids, offsets, blobs):
        out += struct.pack("<QQQ", off, len(blob), len(ident)) + ident
    for off, blob in zip(offsets, blobs):
        out += b"\0" * (off - len(out)) + blob
    return bytes(out)


def fatbin_section(path: str) -> bytes:
    """The `.nv_fatbin` content of a host object (CassError if it has none or is not ELF)."""
    try:
        with open(path, "rb") as f:
            sec = ELFFile(f).get_section_by_name(FATBIN_SECTION)
            if sec is None:
                raise CassError(f"'{path}' has no {FATBIN_SECTION} section: it holds no CUDA device code")
            return sec.data()
    except (ELFError, OSError) as e:
        raise CassError(f"cannot read '{path}' as an ELF object: {e}") from None


def _objcopy() -> str:
    """GNU objcopy, which comes with the host toolchain that links the program. (llvm-objcopy 22
    breaks the section index of symbols in some of gcc's objects when it resizes a section.)"""
    path = shutil.which("objcopy")
    if not path:
        raise ToolMissing("objcopy not found: apt-get install binutils")
    return path


def embed(host_object: str, bundle_bytes: bytes, output: str) -> None:
    """Write `host_object` with its `.nv_fatbin` content replaced by `bundle_bytes` to `output`
    (atomically)."""
    work = tempfile.mkdtemp(prefix="cass-embed-")
    try:
        blob = os.path.join(work, "bundle.bin")
        with open(blob, "wb") as f:
            f.write(bundle_bytes)
        rewritten = os.path.join(work, "out.o")
        cmd = [_objcopy(), f"--update-section={FATBIN_SECTION}={blob}",
               f"--set-section-alignment={FATBIN_SECTION}={ALIGNMENT}", host_object, rewritten]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CassError(f"cannot embed AMD code into '{host_object}': {proc.stderr.strip()}")
        atomic_copy(rewritten, output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
