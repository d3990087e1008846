"""Finding the AMD code objects embedded in a HIP object or program (cass_cc.rdna3 reads them).

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
from ..rdna3.bundle import MAGIC, processor, read_bundle

SECTION = ".hip_fatbin"


@dataclass
class BundleEntry:
    id: str
    data: bytes

    @property
    def target(self) -> str:
        """The processor of the entry: 'gfx1100' for 'hipv4-amdgcn-amd-amdhsa--gfx1100'."""
        return processor(self.id)


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
