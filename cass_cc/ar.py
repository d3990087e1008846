"""Static libraries (`ar` archives as GNU and BSD ar write them): each member's name and bytes, in
archive order, read in one pass without extracting anything."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CassError

MAGIC = b"!<arch>\n"
THIN_MAGIC = b"!<thin>\n"
HEADER_SIZE = 60
HEADER_END = b"`\n"
# GNU ar's index members: the symbol table ("/", "/SYM64/") and the long-name table ("//").
SYMBOL_TABLES = ("/", "/SYM64/")
LONG_NAMES = "//"


@dataclass(frozen=True)
class Member:
    name: str
    data: bytes


def is_archive(data: bytes) -> bool:
    return data.startswith((MAGIC, THIN_MAGIC))


def read_members(path: str) -> list[Member]:
    """The members of the static library at `path` (CassError when it is not one)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CassError(f"cannot read '{path}': {e.strerror}") from None
    if data.startswith(THIN_MAGIC):
        raise CassError(f"'{path}' is a thin archive (its members live in other files): "
                        "rebuild it with `ar rcs` (without T)")
    if not data.startswith(MAGIC):
        raise CassError(f"'{path}' is not a static library (no '!<arch>' header)")
    return parse_members(data, path)


def parse_members(data: bytes, origin: str) -> list[Member]:
    members: list[Member] = []
    long_names = b""
    pos = len(MAGIC)
    while pos < len(data):
        header = data[pos:pos + HEADER_SIZE]
        if len(header) < HEADER_SIZE or header[58:60] != HEADER_END:
            raise CassError(f"'{origin}': damaged static library (bad member header at byte {pos})")
        raw_name = header[:16].decode("latin-1").rstrip()
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError:
            raise CassError(f"'{origin}': damaged static library (bad member size at byte {pos})") from None
        body = data[pos + HEADER_SIZE:pos + HEADER_SIZE + size]
        if len(body) < size:
            raise CassError(f"'{origin}': damaged static library (member at byte {pos} is cut short)")
        pos += HEADER_SIZE + size + (size & 1)    # members start at even offsets
        if raw_name in SYMBOL_TABLES or raw_name == "__.SYMDEF" or raw_name.startswith("__.SYMDEF "):
            continue
        if raw_name == LONG_NAMES:
            long_names = body
            continue
        if raw_name.startswith("#1/"):            # BSD: the name leads the member's data
            length = int(raw_name[3:])
            name, body = body[:length].rstrip(b"\0").decode(), body[length:]
        elif raw_name.startswith("/") and raw_name[1:].isdigit():   # GNU: an offset into "//"
            offset = int(raw_name[1:])
            end = long_names.find(b"/\n", offset)
            name = long_names[offset:end if end >= 0 else len(long_names)].decode()
        else:
            name = raw_name[:-1] if raw_name.endswith("/") else raw_name
        members.append(Member(name, body))
    return members
