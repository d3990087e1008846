"""What a link input that nvcc made holds, read from its bytes: NVIDIA device code to translate
(`.nv_fatbin` with a fatbin, not yet cass-nvcc's bundle), relocatable device code for the device
link (`-rdc`: cubins in `__nv_relfatbin`), or a device-link product (it defines
`__cudaRegisterLinkedBinary_*`). A static library is read once, member by member (cass_cc.ar)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..ar import is_archive, read_members
from ..errors import CassError
from ..fatbin import Cubin, parse_fatbins
from ..rdna3.bundle import MAGIC as BUNDLE_MAGIC

FATBIN_SECTION = ".nv_fatbin"
RELOCATABLE_FATBIN = "__nv_relfatbin"
REGISTER_LINKED = "__cudaRegisterLinkedBinary_"


@dataclass(frozen=True)
class DeviceCode:
    """The device code of one object file."""
    nvidia: bool = False                            # an executable fatbin still to translate
    relocatable_archs: frozenset[str] = frozenset()  # SASS archs of its -rdc cubins
    device_link_product: bool = False                # made by nvcc -dlink

    @property
    def relocatable(self) -> bool:
        return bool(self.relocatable_archs)


NONE = DeviceCode()


def object_code(data: bytes, origin: str) -> DeviceCode:
    """The device code of an object's bytes (NONE for anything that is not a relocatable ELF
    object: the linker says what it is; shared libraries keep their NVIDIA code, as they are
    loaded as they are)."""
    try:
        elf = ELFFile(io.BytesIO(data))
        if elf["e_type"] != "ET_REL":
            return NONE
        fatbin = elf.get_section_by_name(FATBIN_SECTION)
        nvidia = fatbin is not None and not fatbin.data().startswith(BUNDLE_MAGIC)
        relocatable = elf.get_section_by_name(RELOCATABLE_FATBIN)
        archs = frozenset()
        if relocatable is not None and relocatable["sh_type"] != "SHT_NOBITS":
            archs = frozenset(c.arch for fb in parse_fatbins(relocatable.data(), origin)
                              for entry in fb.cubins() if (c := Cubin(entry.payload(), origin)).relocatable)
        symtab = elf.get_section_by_name(".symtab")
        product = symtab is not None and any(
            s.name.startswith(REGISTER_LINKED) and s["st_shndx"] != "SHN_UNDEF" for s in symtab.iter_symbols())
    except ELFError:
        return NONE
    except CassError as e:
        raise CassError(f"'{origin}': damaged device code: {e.message}") from None
    return DeviceCode(nvidia and not archs, archs, product)


def file_code(path: str) -> list[DeviceCode]:
    """The device code of each object in a link input: one entry for an object, one per member
    for a static library, none for anything else (a shared library, a linker script)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CassError(f"cannot read '{path}': {e.strerror}") from None
    if is_archive(data):
        return [object_code(m.data, f"{path}({m.name})") for m in read_members(path)]
    return [object_code(data, path)] if data.startswith(b"\x7fELF") else []
