"""Clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`): how HIP programs carry code objects, one
entry per target (`host-x86_64-unknown-linux-gnu`, `hipv4-amdgcn-amd-amdhsa--gfx1100`).

Layout: the magic, a 64-bit entry count, then per entry its 64-bit offset, 64-bit size, 64-bit id
length and id; the entries' bytes follow at their offsets."""

from __future__ import annotations

import struct

from ..errors import CassError

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
HOST_ID = "host-x86_64-unknown-linux-gnu"
ALIGNMENT = 4096  # clang aligns device code objects so they can be mapped in place


def device_id(offload_arch: str = "gfx1100", kind: str = "hipv4") -> str:
    return f"{kind}-amdgcn-amd-amdhsa--{offload_arch}"


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


def read_bundle(data: bytes, origin: str = "bundle") -> list[tuple[str, bytes]]:
    if data.startswith(COMPRESSED_MAGIC):
        raise CassError(f"{origin}: compressed offload bundles (CCOB) are not supported")
    if not data.startswith(MAGIC):
        raise CassError(f"{origin}: not a clang offload bundle")
    try:
        (count,) = struct.unpack_from("<Q", data, len(MAGIC))
        pos = len(MAGIC) + 8
        entries = []
        for _ in range(count):
            off, size, id_len = struct.unpack_from("<QQQ", data, pos)
            pos += 24
            ident = data[pos:pos + id_len].decode()
            pos += id_len
            if off + size > len(data):
                raise CassError(f"{origin}: entry '{ident}' runs past the end of the bundle")
            entries.append((ident, data[off:off + size]))
        return entries
    except (struct.error, UnicodeDecodeError):
        raise CassError(f"{origin}: corrupt offload bundle") from None
