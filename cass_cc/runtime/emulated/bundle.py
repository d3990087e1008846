"""Finding the gfx1100 code object in what a program hands the runtime: a clang offload bundle
(`__CLANG_OFFLOAD_BUNDLE__`, from __hipRegisterFatBinary or hipModuleLoadData) or a bare
code object ELF."""

from __future__ import annotations

import struct
from typing import Callable

from . import errors

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
ELF_MAGIC = b"\x7fELF"
FATBIN_WRAPPER_MAGIC = 0x48495046  # "HIPF"
OFFLOAD_ARCH = "gfx1100"

Reader = Callable[[int, int], bytes]  # (offset, size) -> bytes of the image at offset


def bundle_entries(read: Reader) -> list[tuple[str, int, int]]:
    """(triple, offset, size) of each entry of the bundle at offset 0."""
    if read(0, len(BUNDLE_MAGIC)) != BUNDLE_MAGIC:
        raise errors.HipFailure(errors.INVALID_IMAGE, "not a clang offload bundle")
    (count,) = struct.unpack("<Q", read(24, 8))
    entries, pos = [], 32
    for _ in range(count):
        offset, size, triple_size = struct.unpack("<QQQ", read(pos, 24))
        triple = read(pos + 24, triple_size).decode(errors="replace")
        entries.append((triple, offset, size))
        pos += 24 + triple_size
    return entries


def target_processor(triple: str) -> str:
    """'hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-' -> 'gfx1100'."""
    return triple.split("--", 1)[1].split(":", 1)[0] if "--" in triple else ""


def pick_code_object(read: Reader) -> bytes:
    """The gfx1100 code object of the bundle or ELF image at offset 0."""
    magic = read(0, 4)
    if magic == ELF_MAGIC:
        return read(0, elf_size(read))
    if magic == COMPRESSED_MAGIC:
        raise errors.HipFailure(errors.INVALID_IMAGE, "compressed offload bundles (--offload-compress) "
                                "are not supported; rebuild without it", report=True)
    entries = bundle_entries(read)
    for triple, offset, size in entries:
        if triple.startswith("hip") and "amdgcn" in triple and target_processor(triple) == OFFLOAD_ARCH:
            return read(offset, size)
    found = sorted({target_processor(t) for t, _, _ in entries if "amdgcn" in t}) or ["none"]
    raise errors.HipFailure(errors.NO_BINARY_FOR_GPU,
                            f"no {OFFLOAD_ARCH} code object in the program (it has: {', '.join(found)}); "
                            f"build with --offload-arch={OFFLOAD_ARCH}", report=True)


def elf_size(read: Reader) -> int:
    """Size of an ELF64 image from its header: the section header table comes last in what
    lld writes; program headers and sections are covered too, whichever ends later."""
    header = read(0, 64)
    phoff, shoff = struct.unpack_from("<QQ", header, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", header, 0x36)
    end = max(64, shoff + shentsize * shnum, phoff + phentsize * phnum)
    for i in range(shnum):
        sh = read(shoff + i * shentsize, shentsize)
        sh_type, = struct.unpack_from("<I", sh, 4)
        offset, size = struct.unpack_from("<QQ", sh, 0x18)
        if sh_type != 8:  # SHT_NOBITS occupies no file space
            end = max(end, offset + size)
    return end
