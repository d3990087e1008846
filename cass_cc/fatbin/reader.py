"""Finding device code in files: host objects, executables and shared libraries (their
`.nv_fatbin` section), `.fatbin` files and `.cubin` files."""

from __future__ import annotations

import io
import struct

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError
from .container import FATBIN_MAGIC, Fatbin, parse_fatbins
from .cubin import EM_CUDA, Cubin

FATBIN_SECTIONS = (".nv_fatbin", "__nv_relfatbin")


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CassError(f"cannot read '{path}': {e.strerror}") from None


def _file_kind(data: bytes) -> str:
    if len(data) >= 4 and struct.unpack_from("<I", data)[0] == FATBIN_MAGIC:
        return "fatbin"
    if data[:4] == b"\x7fELF" and len(data) >= 20:
        return "cubin" if struct.unpack_from("<H", data, 18)[0] == EM_CUDA else "host"
    return "other"


def read_fatbins(path: str) -> list[Fatbin]:
    """The fatbins in a host ELF or a .fatbin file (empty for a file without device code)."""
    data = _read(path)
    kind = _file_kind(data)
    if kind == "fatbin":
        return parse_fatbins(data, path)
    if kind == "cubin":
        return []
    if kind != "host":
        raise CassError(f"'{path}': not an ELF object, executable, fatbin or cubin")
    fatbins = []
    for name, contents in _sections(data, path, FATBIN_SECTIONS):
        fatbins += parse_fatbins(contents, f"{path}({name})")
    return fatbins


def host_section(path: str, name: str) -> bytes | None:
    """The contents of section `name` (".nv_fatbin") of a host object, executable or shared
    library; None for any other file and for one without that section, or with it empty."""
    data = _read(path)
    if _file_kind(data) != "host":
        return None
    return next((contents for _name, contents in _sections(data, path, (name,))), None)


def _sections(data: bytes, path: str, names: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """(name, contents) of the sections of host ELF `data` named in `names` that hold bytes."""
    try:
        elf = ELFFile(io.BytesIO(data))
        return [(sec.name, sec.data()) for sec in elf.iter_sections()
                if sec.name in names and sec["sh_type"] != "SHT_NOBITS" and sec["sh_size"]]
    except (ELFError, struct.error, ValueError, IndexError, KeyError, AttributeError, TypeError,
            UnicodeDecodeError, AssertionError, OverflowError) as e:
        raise CassError(f"'{path}': corrupt ELF file ({type(e).__name__}: {e})") from None


def read_cubins(path: str) -> list[Cubin]:
    """Every cubin in a file, in file order (a .cubin file is its own single cubin)."""
    data = _read(path)
    if _file_kind(data) == "cubin":
        return [Cubin(data, path)]
    cubins = []
    for fb in read_fatbins(path):
        for i, entry in enumerate(fb.cubins()):
            cubins.append(Cubin(entry.payload(), f"{path}[{entry.sm_arch} #{i}]"))
    return cubins
