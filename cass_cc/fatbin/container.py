"""The fatbin container: a header (magic 0xBA55ED50) and entries, each a PTX text (kind 1) or a
cubin ELF (kind 2) for one architecture, optionally compressed (LZ4 or zstd)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from ..errors import CassError
from .lz4 import lz4_block_decompress
from .zstd import zstd_decompress

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX = 1
KIND_ELF = 2
FLAG_64BIT = 0x1
FLAG_DEBUG = 0x2
FLAG_LZ4 = 0x2000
FLAG_ZSTD = 0x8000

_HEADER = struct.Struct("<IHHQ")                 # magic, version, header size, payload size
_ENTRY = struct.Struct("<HHIQIIHHIIIQQQ")        # see FatbinEntry fields


@dataclass
class FatbinEntry:
    kind: int               # 1 PTX, 2 ELF
    version: int
    header_size: int
    payload_size: int       # bytes after the entry header (padded)
    compressed_size: int    # 0 when stored as is
    options_offset: int     # PTX entries: where the ptxas options start in the header (0: none)
    minor: int
    major: int
    arch: int               # 80 for sm_80
    name_offset: int
    name_size: int
    flags: int
    uncompressed_size: int
    raw: bytes = field(repr=False, default=b"")   # the payload as stored
    header: bytes = field(repr=False, default=b"")

    @property
    def kind_name(self) -> str:
        return {KIND_PTX: "ptx", KIND_ELF: "elf"}.get(self.kind, f"kind{self.kind}")

    @property
    def sm_arch(self) -> str:
        return f"sm_{self.arch}"

    @property
    def compression(self) -> str | None:
        if self.flags & FLAG_ZSTD:
            return "zstd"
        if self.flags & FLAG_LZ4:
            return "lz4"
        return None

    @property
    def identifier(self) -> str:
        if not self.name_size:
            return ""
        return self.header[self.name_offset:self.name_offset + self.name_size].split(b"\0")[0].decode(errors="replace")

    def payload(self) -> bytes:
        """The entry's contents, decompressed. PTX keeps nvcc's trailing NUL stripped."""
        if self.compression == "zstd":
            data = zstd_decompress(self.raw[:self.compressed_size], self.uncompressed_size or (1 << 30))
        elif self.compression == "lz4":
            data = lz4_block_decompress(self.raw[:self.compressed_size], self.uncompressed_size)
        else:
            data = self.raw
        if self.compression and self.uncompressed_size and len(data) != self.uncompressed_size:
            raise CassError(f"corrupt fatbin: {self.kind_name} entry for {self.sm_arch} decompressed to "
                            f"{len(data)} bytes, header says {self.uncompressed_size}")
        if self.kind == KIND_PTX:
            data = data.split(b"\0", 1)[0]
        return data


@dataclass
class Fatbin:
    version: int
    entries: list[FatbinEntry]

    def cubins(self) -> list[FatbinEntry]:
        return [e for e in self.entries if e.kind == KIND_ELF]

    def ptx(self) -> list[FatbinEntry]:
        return [e for e in self.entries if e.kind == KIND_PTX]


def fatbin_length(data: bytes, pos: int = 0, origin: str = "fatbin") -> int:
    """Bytes of the fatbin that starts at `pos` (its header's size plus the entries' size it
    announces): what the CUDA driver reads of a fatbin given without a length."""
    if pos + _HEADER.size > len(data):
        raise CassError(f"{origin}: corrupt fatbin: truncated header ({len(data) - pos} of {_HEADER.size} bytes)")
    magic, _version, header_size, size = _HEADER.unpack_from(data, pos)
    if magic != FATBIN_MAGIC:
        raise CassError(f"{origin}: corrupt fatbin: bad magic 0x{magic:08x} at offset {pos}")
    if header_size < _HEADER.size or pos + header_size + size > len(data):
        raise CassError(f"{origin}: corrupt fatbin: truncated ({size} bytes of entries announced, "
                        f"{max(0, len(data) - pos - header_size)} present)")
    return header_size + size


def parse_fatbins(data: bytes, origin: str = "fatbin") -> list[Fatbin]:
    """All fatbins stored back to back in `data` (a .nv_fatbin section or a .fatbin file)."""
    out = []
    pos = 0
    while pos + _HEADER.size <= len(data):
        magic, version, header_size, _size = _HEADER.unpack_from(data, pos)
        if magic != FATBIN_MAGIC and out and not any(data[pos:pos + 16]):  # alignment padding between fatbins
            pos += 8
            continue
        length = fatbin_length(data, pos, origin)
        out.append(Fatbin(version, _parse_entries(data[pos + header_size:pos + length], origin)))
        pos += length
    if not out:
        raise CassError(f"{origin}: corrupt fatbin: no fatbin header")
    return out


def _parse_entries(data: bytes, origin: str) -> list[FatbinEntry]:
    entries = []
    pos = 0
    while pos < len(data):
        if pos + _ENTRY.size > len(data):
            raise CassError(f"{origin}: corrupt fatbin: truncated entry header at offset {pos}")
        fields = _ENTRY.unpack_from(data, pos)
        (kind, version, header_size, payload_size, compressed_size, options_offset, minor, major,
         arch, name_offset, name_size, flags, _zero, uncompressed_size) = fields
        if kind not in (KIND_PTX, KIND_ELF) or header_size < _ENTRY.size:
            raise CassError(f"{origin}: corrupt fatbin: entry of unknown kind {kind} at offset {pos}")
        end = pos + header_size + payload_size
        if end > len(data):
            raise CassError(f"{origin}: corrupt fatbin: {kind_label(kind)} entry for sm_{arch} is truncated")
        entry = FatbinEntry(kind, version, header_size, payload_size, compressed_size, options_offset,
                            minor, major, arch, name_offset, name_size, flags, uncompressed_size,
                            raw=bytes(data[pos + header_size:end]), header=bytes(data[pos:pos + header_size]))
        if entry.compression and not compressed_size:
            raise CassError(f"{origin}: corrupt fatbin: compressed entry without a size")
        entries.append(entry)
        pos = end
    return entries


def kind_label(kind: int) -> str:
    return {KIND_PTX: "PTX", KIND_ELF: "ELF"}.get(kind, f"kind {kind}")
