"""A device-linked cubin as the lifter meets it: kernels calling device functions in their own
sections (CALL.ABS), the closure of those functions placed after the kernel's code (the callees
pass), and __constant__ memory kept as one block (c[0x0][0x50] + offset reaches a variable)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from binroute import ROOT, program_sources
from elftools.elf.elffile import ELFFile

from cass_cc import toolchain
from cass_cc.fatbin import Variable, read_cubins
from cass_cc.sass.model import Imm, Label

MULTI = ROOT / "tests" / "programs" / "binary" / "rdc_multi"


@pytest.fixture(scope="module")
def linked(tmp_path_factory) -> Path:
    """rdc_multi's objects (nvcc -rdc=true) and their device link, dlink.o."""
    out = tmp_path_factory.mktemp("callees")
    nvcc = toolchain.path("nvcc")
    objects = []
    for source in program_sources(MULTI):
        objects.append(str(out / f"{source.stem}.o"))
        subprocess.run([nvcc, "-O2", "-rdc=true", "-arch=sm_80", "-c", str(source), "-o", objects[-1]], check=True)
    subprocess.run([nvcc, "-dlink", "-arch=sm_80", *objects, "-o", str(out / "dlink.o")], check=True)
    return out


def test_relocatable_and_linked_cubins(linked):
    (unlinked,) = read_cubins(str(linked / "lib.o"))
    (cubin,) = read_cubins(str(linked / "dlink.o"))
    assert unlinked.relocatable and not cubin.relocatable
    assert {"_Z8weightedPKfi", "_Z3mixj", "_Z4rotlji"} <= set(cubin.functions)
    assert cubin.functions["_Z8weightedPKfi"].frame_size == 0x28   # its local array w[8]
    hash_all = cubin.kernel("_Z8hash_allPji")
    assert hash_all.callees == ["_Z6saltedPKjj$3", "_Z3mixj", "_Z4rotlji"]
    assert cubin.kernel("_Z10scale_rowsPKfPfii").callees == ["_Z8weightedPKfi"]
    assert hash_all.min_stack_size == 0x10      # nvlink's stack bound: salted's frame + mix's


def test_callees_pass_places_the_closure_after_the_kernel(linked):
    from cass_cc.passes import FRONT_END, callees, units_from_file
    from cass_cc.pipeline import run_pipeline

    unit = next(u for u in units_from_file(str(linked / "dlink.o")) if u.name == "_Z8hash_allPji")
    run_pipeline(unit, FRONT_END)
    starts = {name: address for name, address in unit.sass_labels.items() if not name.startswith(".")}
    own = [i for i in unit.instructions if i.address < callees.FUNCTION_ALIGN]
    assert len(own) == len(unit.kernel.code) // 16
    for name in unit.kernel.callees:
        assert starts[name] % callees.FUNCTION_ALIGN == 0 and starts[name] > 0
    calls = [i for i in unit.instructions if i.opcode == "CALL"]
    assert {op.name: op.address for i in calls for op in i.operands if isinstance(op, Label)} == \
        {n: starts[n] for n in unit.kernel.callees}
    by_address = {i.address: i for i in unit.instructions}
    for call in calls:   # the return address loaded before each call is the call's successor
        lo = by_address[call.address - 0x20]
        assert lo.opcode == "MOV" and lo.operands[1] == Imm(call.address + 16, text=hex(call.address + 16))


def test_constant_bank_is_one_block_with_sized_aliases(tmp_path):
    from cass_cc.rdna3.globals import CONSTANT_BLOCK, globals_module
    from cass_cc.rdna3.target import emit_assembly
    from cass_cc.rdna3.tools import assemble

    text = globals_module([Variable("c_key", ".nv.constant3", 0, 16, bytes(range(16)), 3),
                           Variable("c_salt", ".nv.constant3", 16, 8, b"\x01" * 8, 3),
                           Variable("g_hits", ".nv.global", 0, 4, bytes(4))])
    (tmp_path / "g.o").write_bytes(assemble(emit_assembly(text, "gfx1100"), "gfx1100"))
    with open(tmp_path / "g.o", "rb") as f:
        symbols = {s.name: s for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols()}
        block = symbols[CONSTANT_BLOCK]
        assert block["st_size"] == 24
        assert (symbols["c_key"]["st_value"] - block["st_value"], symbols["c_key"]["st_size"]) == (0, 16)
        assert (symbols["c_salt"]["st_value"] - block["st_value"], symbols["c_salt"]["st_size"]) == (16, 8)
        assert symbols["g_hits"]["st_size"] == 4


def test_kernels_of_an_unlinked_cubin_are_refused_with_the_reason(linked):
    from cass_cc.passes import units_from_file
    from cass_cc.translation import translate_unit

    (unit,) = units_from_file(str(linked / "scale.o"))
    unit = translate_unit(unit)
    assert unit.status == "failed"
    assert unit.reasons == ["extract: relocatable device code (-rdc): its kernels are translated after the "
                            "device link (nvcc -dlink, or cass-nvcc's link step)"]


def test_address_taken_functions_get_handles(tmp_path):
    """Function pointers and vtables in data hold each function's handle; the kernel's closure
    takes in the functions its variables point to; its CALL.ABS through a register lists them."""
    from cass_cc.fatbin.cubin import FUNCTION_HANDLE_BASE
    from cass_cc.passes import FRONT_END, units_from_file
    from cass_cc.pipeline import run_pipeline

    folder = ROOT / "tests" / "programs" / "binary" / "rdc_virtual"
    nvcc = toolchain.path("nvcc")
    objects = []
    for source in program_sources(folder):
        objects.append(str(tmp_path / f"{source.stem}.o"))
        subprocess.run([nvcc, "-O2", "-rdc=true", "-arch=sm_80", "-c", str(source), "-o", objects[-1]], check=True)
    subprocess.run([nvcc, "-dlink", "-arch=sm_80", *objects, "-o", str(tmp_path / "dlink.o")], check=True)
    (cubin,) = read_cubins(str(tmp_path / "dlink.o"))
    assert {"_Z5twicej", "_Z6squarej", "_Z7collatzj", "_ZNK6Square4areaEv", "_ZNK4Disc4areaEv"} <= cubin.address_taken
    steps = next(v for v in cubin.globals if v.name == "steps")
    words = [int.from_bytes(steps.data[i:i + 8], "little") for i in range(0, 24, 8)]
    assert words == [cubin.function_handles[f] for f in ("_Z5twicej", "_Z6squarej", "_Z7collatzj")]
    assert all(w >= FUNCTION_HANDLE_BASE for w in words)
    (unit,) = units_from_file(str(tmp_path / "dlink.o"))
    assert cubin.address_taken <= set(unit.kernel.callees)
    run_pipeline(unit, FRONT_END)
    indirect = [i for i in unit.instructions if i.opcode == "CALL" and "call_targets" in i.extras]
    assert indirect and all({h for h, _s in i.extras["call_targets"]} ==
                            {cubin.function_handles[f] for f in cubin.address_taken} for i in indirect)
