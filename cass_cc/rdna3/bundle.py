"""Clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`): how HIP programs carry code objects, one
entry per target (`host-x86_64-unknown-linux-gnu`, `hipv4-amdgcn-amd-amdhsa--gfx1100`).

Layout: the magic, a 64-bit entry count, then per entry its 64-bit offset, 64-bit size, 64-bit id
length and id; the entries' bytes follow at their offsets."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import CassError
from .code_object import Reader

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
HOST_ID = "host-x86_64-unknown-linux-gnu"
ALIGNMENT = 4096  # clang aligns device code objects so they can be mapped in place


@dataclass(frozen=True)
class BundleEntry:
    id: str
    offset: int
    size: int


def device_id(offload_arch: str = "gfx1100", kind: str = "hipv4") -> str:
    return f"{kind}-amdgcn-amd-amdhsa--{offload_arch}"


def processor(entry_id: str) -> str:
    """The processor of an entry id, without target features: 'gfx1100' for
    'hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-'; '' for the host entry."""
    return entry_id.split("--", 1)[1].split(":", 1)[0] if "--" in entry_id else ""


def write_bundle(entries: list[tuple[str, bytes]]) -> bytes:
    """A bundle of (id, bytes) entries, in the given order."""
    header_size = len(MAGIC) + 8 + sum(24 + len(i.encode()) for i, _ in entries)
    offsets, pos = [], header_size
    for _id, data in entries:
        pos = (pos + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT if data else pos
        offsets.append(pos)
        pos += len(data)
    out = bytearray(MAGIC + struct.pack("<Q", len(entries)))
    for (ident, data), off in zip(entries, offsets):
        ident_b = ident.encode()
        out += struct.pack("<QQQ", off, len(data), len(ident_b)) + ident_b
    for (_id, data), off in zip(entries, offsets):
        out += bytes(off - len(out)) + data
    return bytes(out)


def bundle_entries(read: Reader, origin: str = "bundle") -> list[BundleEntry]:
    """The entry table of the bundle at offset 0 of what `read` reads: a bundle handed over as
    an address in memory comes without its size, so only the header is read."""
    magic = read(0, len(MAGIC))
    if magic.startswith(COMPRESSED_MAGIC):
        raise CassError(f"{origin}: compressed offload bundles (--offload-compress) are not supported; "
                        "rebuild without it")
    if magic != MAGIC:
        raise CassError(f"{origin}: not a clang offload bundle")
    try:
        (count,) = struct.unpack("<Q", read(len(MAGIC), 8))
        entries, pos = [], len(MAGIC) + 8
        for _ in range(count):
            offset, size, id_len = struct.unpack("<QQQ", read(pos, 24))
            entries.append(BundleEntry(read(pos + 24, id_len).decode(), offset, size))
            pos += 24 + id_len
        return entries
    except (struct.error, UnicodeDecodeError):
        raise CassError(f"{origin}: corrupt offload bundle") from None


def read_bundle(data: bytes, origin: str = "bundle") -> list[tuple[str, bytes]]:
    """The (id, bytes) entries of a bundle held whole in `data`."""
    entries = []
    for e in bundle_entries(lambda offset, size: data[offset:offset + size], origin):
        if e.offset + e.size > len(data):
            raise CassError(f"{origin}: entry '{e.id}' runs past the end of the bundle")
        entries.append((e.id, data[e.offset:e.offset + e.size]))
    return entries
