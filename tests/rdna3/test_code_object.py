"""The one reader of AMD formats (cass_cc.rdna3): code objects and relocatable objects built by
llvm-mc and ld.lld, hipcc's code objects and bundles, and the ELF size of an image in memory."""

from __future__ import annotations

import pytest

from cass_cc.errors import CassError
from cass_cc.rdna3 import CodeObject, assemble, link
from cass_cc.rdna3.bundle import HOST_ID, bundle_entries, device_id, processor, write_bundle
from cass_cc.rdna3.code_object import elf_size

from tests.emu.emu_build import KERNELS, asm_kernel, compile_hip

ARGS = [("out", 0, 8, "global_buffer"), ("n", 8, 4, "by_value"), ("hidden_block_count_x", 16, 4, "hidden_block_count_x")]
VARIABLES = """
\t.data
\t.globl table
\t.p2align 3
table:
\t.long 1, 2
\t.size table, 8
\t.type table,@object
\t.globl pointer
\t.p2align 3
pointer:
\t.quad table+4
\t.size pointer, 8
\t.type pointer,@object
"""


@pytest.fixture(scope="module")
def objects() -> tuple[bytes, bytes]:
    """(relocatable object, code object) of one hand-written kernel with two variables, one of
    them a pointer to the other (a dynamic relocation)."""
    source = asm_kernel("scale", "  s_nop 0\n", ARGS, lds=256, scratch=16) + VARIABLES
    obj = assemble(source)
    return obj, link([obj])


def test_code_object_kernels_descriptor_and_symbols(objects):
    code = CodeObject(objects[1])
    assert code.processor == "gfx1100" and code.code_object_version == 5 and code.version == (1, 2)
    assert len(code.notes) == 1 and code.note_sections
    kernel = code.kernels["scale"]
    assert [(a.name, a.offset, a.size, a.hidden) for a in kernel.args] == \
        [("out", 0, 8, False), ("n", 8, 4, False), ("hidden_block_count_x", 16, 4, True)]
    assert [a.name for a in kernel.explicit_args] == ["out", "n"]
    assert (kernel.kernarg_size, kernel.group_segment_size, kernel.private_segment_size) == (20, 256, 16)
    kd = kernel.descriptor
    assert (kd.kernarg_size, kd.group_segment_size, kd.private_segment_size) == (20, 256, 16)
    assert kd.address == code.symbols["scale.kd"].value and code.functions["scale"] == kd.entry
    assert dict(kd.user_sgprs()) == {"kernarg_segment_ptr": 2}
    assert code.file_offset(kd.entry) is not None and code.file_offset(kd.address) is None
    assert set(code.globals) == {"table", "pointer"} and code.globals["table"][1] == 8
    [rel] = code.relocations
    assert (rel.offset, rel.symbol.name, rel.addend) == (code.globals["pointer"][0], "table", 4)
    assert code.image_size >= max(addr + size for addr, size in code.globals.values())
    assert elf_size(lambda offset, size: code.data[offset:offset + size]) == len(code.data)


def test_relocatable_object_notes(objects):
    obj = CodeObject(objects[0], "kernel object")
    assert obj.notes[0]["amdhsa.kernels"][0][".name"] == "scale"
    assert obj.note_sections == [".note"] and obj.segments == [] and obj.relocations == []


@pytest.mark.parametrize("offload_arch", ["gfx1100", "gfx1101", "gfx1102", "gfx1030", "gfx90a", "gfx942"])
def test_processor_from_the_elf_header(offload_arch):
    assert CodeObject(assemble("", offload_arch)).processor == offload_arch


def test_not_code_objects():
    with pytest.raises(CassError, match="k.o: not an ELF file"):
        CodeObject(b"\x7fELF garbage", "k.o")
    with pytest.raises(CassError, match="no AMDGPU metadata note"):
        CodeObject(assemble("", "gfx1100")).kernels


def test_hipcc_code_object_and_bundle():
    code = CodeObject(compile_hip(KERNELS / "programs.hip"))
    assert code.target.startswith("amdgcn-amd-amdhsa--gfx1100") and code.code_object_version == 4
    assert code.kernels["matmul"].descriptor is not None and code.kernels["matmul"].wavefront_size == 32
    data = write_bundle([(HOST_ID, b""), (device_id("gfx1100"), code.data)])
    entries = bundle_entries(lambda offset, size: data[offset:offset + size])
    assert [(e.id, processor(e.id)) for e in entries] == [(HOST_ID, ""), (device_id("gfx1100"), "gfx1100")]
    assert data[entries[1].offset:entries[1].offset + entries[1].size] == code.data


def test_bundle_entry_processor_drops_target_features():
    assert processor("hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-") == "gfx1100"
    with pytest.raises(CassError, match="compressed offload bundles"):
        bundle_entries(lambda offset, size: b"CCOB" + bytes(60)[offset:offset + size])
