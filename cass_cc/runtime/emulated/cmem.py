"""Reading and writing the C program's memory at the addresses HIP calls pass (out-parameters,
argument arrays, strings)."""

from __future__ import annotations

import ctypes
import itertools

from . import errors

_strings: dict[str, ctypes.Array] = {}
_handles = itertools.count(1)
HANDLE_BASE = 0xCA55_0000_0000  # opaque handles (streams, events, modules): never dereferenced


def new_handle() -> int:
    return HANDLE_BASE + 16 * next(_handles)


def _out(addr: int, ctype, value) -> None:
    if not addr:
        raise errors.HipFailure(errors.INVALID_VALUE, "null output pointer")
    ctype.from_address(addr).value = value


def put_int(addr: int, value: int) -> None:
    _out(addr, ctypes.c_int, value)


def put_uint(addr: int, value: int) -> None:
    _out(addr, ctypes.c_uint, value)


def put_size(addr: int, value: int) -> None:
    _out(addr, ctypes.c_size_t, value)


def put_ptr(addr: int, value: int) -> None:
    _out(addr, ctypes.c_uint64, value)


def put_float(addr: int, value: float) -> None:
    _out(addr, ctypes.c_float, value)


def get_u64(addr: int) -> int:
    return ctypes.c_uint64.from_address(addr).value


def get_u32(addr: int) -> int:
    return ctypes.c_uint32.from_address(addr).value


def get_bytes(addr: int, size: int) -> bytes:
    return ctypes.string_at(addr, size) if size else b""


def get_str(addr: int) -> str:
    if not addr:
        raise errors.HipFailure(errors.INVALID_VALUE, "null string")
    return ctypes.string_at(addr).decode(errors="replace")


def c_string(text: str) -> int:
    """Address of a NUL-terminated copy of text that lives as long as the process."""
    buf = _strings.get(text)
    if buf is None:
        buf = _strings[text] = ctypes.create_string_buffer(text.encode())
    return ctypes.addressof(buf)


def put_dims(addr: int, dims: tuple[int, int, int]) -> None:
    if not addr:
        raise errors.HipFailure(errors.INVALID_VALUE, "null dim3 pointer")
    (ctypes.c_uint32 * 3).from_address(addr)[:] = dims
