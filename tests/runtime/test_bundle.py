"""Picking the gfx1100 code object out of what a program hands the runtime (a bundle or a bare
code object, in memory that comes without its size)."""

from __future__ import annotations

import struct

import pytest

from cass_cc.rdna3.bundle import HOST_ID, device_id, write_bundle
from cass_cc.runtime.emulated import errors
from cass_cc.runtime.emulated.kernels import ELF_MAGIC, pick_code_object


def _reader(data: bytes):
    return lambda offset, size: data[offset:offset + size]


def _elf(payload: bytes) -> bytes:
    """A minimal ELF64 header with no sections, followed by payload bytes it does not cover."""
    header = bytearray(64)
    header[:4] = ELF_MAGIC
    struct.pack_into("<HHHH", header, 0x36, 56, 0, 64, 0)
    return bytes(header) + payload


def test_picks_the_gfx1100_entry():
    co = _elf(b"")
    data = write_bundle([(HOST_ID, b""), (device_id("gfx90a"), b"other"), (device_id("gfx1100"), co)])
    assert pick_code_object(_reader(data)) == co


def test_no_gfx1100_entry_names_what_is_there():
    data = write_bundle([(device_id("gfx90a"), b"x"), (device_id("gfx1030"), b"y")])
    with pytest.raises(errors.HipFailure) as e:
        pick_code_object(_reader(data))
    assert e.value.code == errors.NO_BINARY_FOR_GPU
    assert "(it has: gfx1030, gfx90a)" in str(e.value)


def test_bare_elf_is_cut_at_its_end():
    elf = _elf(b"")
    assert pick_code_object(_reader(elf + b"trailing bytes")) == elf


def test_compressed_and_garbage_images_are_refused():
    for data in (b"CCOB" + bytes(60), b"not an image at all, not at all....."):
        with pytest.raises(errors.HipFailure) as e:
            pick_code_object(_reader(data))
        assert e.value.code == errors.INVALID_IMAGE


def test_real_hipcc_bundle(hip_program):
    data = (hip_program("module_api") / "kernels.hsaco").read_bytes()
    code_object = pick_code_object(_reader(data))
    assert code_object[:4] == ELF_MAGIC
