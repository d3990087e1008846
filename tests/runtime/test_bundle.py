"""Picking the gfx1100 code object out of what a program hands the runtime."""

from __future__ import annotations

import struct

import pytest

from cass_cc.runtime.emulated import bundle, errors


def _bundle(entries: list[tuple[str, bytes]]) -> bytes:
    """A clang offload bundle holding the given (triple, payload) entries."""
    header = bytearray(bundle.BUNDLE_MAGIC + struct.pack("<Q", len(entries)))
    table_size = sum(24 + len(t) for t, _ in entries)
    offset = len(header) + table_size
    payloads = b""
    for triple, payload in entries:
        header += struct.pack("<QQQ", offset + len(payloads), len(payload), len(triple)) + triple.encode()
        payloads += payload
    return bytes(header) + payloads


def _reader(data: bytes):
    return lambda offset, size: data[offset:offset + size]


def _elf(payload: bytes) -> bytes:
    """A minimal ELF64 header with no sections, followed by payload bytes it does not cover."""
    header = bytearray(64)
    header[:4] = bundle.ELF_MAGIC
    struct.pack_into("<HHHH", header, 0x36, 56, 0, 64, 0)
    return bytes(header) + payload


def test_picks_the_gfx1100_entry():
    co = _elf(b"")
    data = _bundle([("host-x86_64-unknown-linux", b""),
                    ("hipv4-amdgcn-amd-amdhsa--gfx90a", b"other"),
                    ("hipv4-amdgcn-amd-amdhsa--gfx1100", co)])
    assert bundle.pick_code_object(_reader(data)) == co


def test_target_id_features_are_ignored():
    assert bundle.target_processor("hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-") == "gfx1100"
    assert bundle.target_processor("host-x86_64-unknown-linux") == ""


def test_no_gfx1100_entry_names_what_is_there():
    data = _bundle([("hipv4-amdgcn-amd-amdhsa--gfx90a", b"x"), ("hipv4-amdgcn-amd-amdhsa--gfx1030", b"y")])
    with pytest.raises(errors.HipFailure) as e:
        bundle.pick_code_object(_reader(data))
    assert e.value.code == errors.NO_BINARY_FOR_GPU
    assert "(it has: gfx1030, gfx90a)" in str(e.value)


def test_bare_elf_is_cut_at_its_end():
    elf = _elf(b"")
    assert bundle.pick_code_object(_reader(elf + b"trailing bytes")) == elf


def test_compressed_and_garbage_images_are_refused():
    for data in (b"CCOB" + bytes(60), b"not an image at all, not at all....."):
        with pytest.raises(errors.HipFailure) as e:
            bundle.pick_code_object(_reader(data))
        assert e.value.code == errors.INVALID_IMAGE


def test_real_hipcc_bundle(hip_program):
    data = (hip_program("module_api") / "kernels.hsaco").read_bytes()
    triples = [t for t, _, _ in bundle.bundle_entries(_reader(data))]
    assert any(t.endswith("--gfx1100") for t in triples)
    code_object = bundle.pick_code_object(_reader(data))
    assert code_object[:4] == bundle.ELF_MAGIC
    assert bundle.elf_size(_reader(code_object)) == len(code_object)
