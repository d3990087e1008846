"""Reading the AMD code objects embedded in a HIP object or program.

hipcc puts a clang offload bundle into the `.hip_fatbin` section (one per translation unit in a
linked program, each aligned). A bundle is: the magic `__CLANG_OFFLOAD_BUNDLE__`, a u64 entry
count, then per entry u64 offset (from the bundle start), u64 size, u64 id length and the id
(`hipv4-amdgcn-amd-amdhsa--gfx1100`, `host-x86_64-unknown-linux-gnu`); the entries' bytes follow.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
SECTION = ".hip_fatbin"
EM_AMDGPU = 224
EF_AMDGPU_MACH = 0xFF
# e_flags machine numbers of the AMD targets cass-cc builds for (LLVM AMDGPUUsage).
MACH = {0x041: "gfx1100", 0x042: "gfx1101", 0x043: "gfx1102", 0x044: "gfx1103",
        0x030: "gfx1030", 0x03F: "gfx90a", 0x04C: "gfx942"}


@dataclass
class BundleEntry:
    id: str
    data: bytes

    @property
    def target(self) -> str:
        """The target part of the id: 'gfx1100' for 'hipv4-amdgcn-amd-amdhsa--gfx1100'."""
        return self.id.rsplit("-", 1)[-1].split(":")[0]


def read_bundles(blob: bytes) -> list[BundleEntry]:
    """All entries of all bundles in `blob` (a .hip_fatbin section's bytes)."""
    entries = []
    start = blob.find(MAGIC)
    while start >= 0:
        pos = start + len(MAGIC)
        (count,) = struct.unpack_from("<Q", blob, pos)
        pos += 8
        if count > 1024:
            raise CassError(f"offload bundle at {start:#x}: implausible entry count {count}")
        end = start + len(MAGIC)
        for _ in range(count):
            offset, size, id_len = struct.unpack_from("<QQQ", blob, pos)
            pos += 24
            ident = blob[pos:pos + id_len].decode("ascii", "replace")
            pos += id_len
            if start + offset + size > len(blob):
                raise CassError(f"offload bundle entry '{ident}' runs past the section")
            entries.append(BundleEntry(ident, blob[start + offset:start + offset + size]))
            end = max(end, start + offset + size)
        start = blob.find(MAGIC, max(end, pos))
    return entries


def section_bytes(path: str) -> bytes:
    """The .hip_fatbin section of an x86-64 ELF file (object, program or shared library)."""
    try:
        with open(path, "rb") as f:
            elf = ELFFile(io.BytesIO(f.read()))
    except OSError as e:
        raise CassError(f"cannot read '{path}': {e.strerror}") from None
    except ELFError as e:
        raise CassError(f"'{path}' is not an ELF file: {e}") from None
    if elf["e_machine"] != "EM_X86_64":
        raise CassError(f"'{path}' is not an x86-64 ELF file ({elf['e_machine']})")
    sec = elf.get_section_by_name(SECTION)
    if sec is None:
        raise CassError(f"'{path}' has no {SECTION} section: not built for an AMD GPU")
    return sec.data()


def has_relocatable_device_code(path: str) -> bool:
    """Whether `path` is an object compiled with -fgpu-rdc: its device code is still bitcode in
    `__CLANG_OFFLOAD_BUNDLE__<target>` sections, to be linked when the program is."""
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            return elf["e_type"] == "ET_REL" and any(
                sec.name.startswith(MAGIC.decode()) for sec in elf.iter_sections())
    except (OSError, ELFError):
        return False


def code_objects(path: str) -> list[BundleEntry]:
    """The AMD GPU code objects (not the host entries) embedded in `path`."""
    return [e for e in read_bundles(section_bytes(path)) if "amdgcn" in e.id and e.data]


def code_object_target(data: bytes) -> str:
    """The gfx target an AMD GPU code object is built for, from its ELF header."""
    elf = ELFFile(io.BytesIO(data))
    if elf.header["e_machine"] not in ("EM_AMDGPU", EM_AMDGPU):
        raise CassError(f"not an AMD GPU code object (e_machine {elf.header['e_machine']})")
    mach = elf.header["e_flags"] & EF_AMDGPU_MACH
    return MACH.get(mach, f"mach {mach:#x}")


def kernel_symbols(data: bytes) -> list[str]:
    """Names of the kernels in a code object (each has a `<name>.kd` descriptor symbol)."""
    elf = ELFFile(io.BytesIO(data))
    symtab = elf.get_section_by_name(".symtab") or elf.get_section_by_name(".dynsym")
    if symtab is None:
        return []
    names = {s.name[:-3] for s in symtab.iter_symbols() if s.name.endswith(".kd")}
    return sorted(names)
