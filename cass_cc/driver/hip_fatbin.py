"""Reading the AMD code objects embedded in a HIP object or program.

hipcc puts a clang offload bundle (cass_cc.rdna3.bundle reads one) into the `.hip_fatbin`
section, one per translation unit of a linked program; entries are named like
`hipv4-amdgcn-amd-amdhsa--gfx1100` and `host-x86_64-unknown-linux-gnu`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError
from ..rdna3.bundle import MAGIC, read_bundle

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
    """All entries of all bundles in `blob` (a .hip_fatbin section: one bundle per translation
    unit of the program, one after the other)."""
    entries = []
    starts = _find_all(blob, MAGIC)
    for start, end in zip(starts, starts[1:] + [len(blob)]):
        entries += [BundleEntry(ident, data)
                    for ident, data in read_bundle(blob[start:end], f"bundle at {start:#x}")]
    return entries


def _find_all(blob: bytes, needle: bytes) -> list[int]:
    found, at = [], blob.find(needle)
    while at >= 0:
        found.append(at)
        at = blob.find(needle, at + len(needle))
    return found


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


def has_code_objects(path: str) -> bool:
    """Whether `path` (a readable x86-64 ELF file) has a .hip_fatbin section."""
    with open(path, "rb") as f:
        return ELFFile(f).get_section_by_name(SECTION) is not None


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
