"""Each fault class stops the kernel with a one-line report: out-of-bounds access (kernel, pc,
instruction, lane, address), instruction budget (the pc where waves are), unimplemented
instruction (named), undecodable code object, s_trap."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import CodeObject, EmuFault, Memory, launch

from .emu_build import asm_device


def test_out_of_bounds_store_names_lane_and_address():
    """Lanes 0..4 store inside the allocation, 5..9 in its page's padding, 10 past the page: a fault
    at lane 10, before anything is written."""
    dev = asm_device("  global_store_b32 v1, v0, s[4:5] offset:4056\n")
    out = dev.zeros(1019, np.uint32)              # 4076 bytes: room for lanes 0..4 at 4056
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, out)
    f = info.value
    assert (f.kind, f.kernel, f.lane, f.address) == ("memory", "k", 10, out + 4096)
    assert f.instruction == "global_store_b32 v1, v0, s[4:5] offset:4056"
    assert str(f).startswith(f"kernel 'k' pc {f.pc:#x} 'global_store_b32 v1, v0, s[4:5] offset:4056': "
                             f"lane 10 write of 4 bytes at {out + 4096:#x}")
    assert "outside every allocation" in str(f)
    assert not dev.download(out, 1019, np.uint32).any()   # the faulting store wrote nothing


def test_out_of_bounds_lds_read():
    dev = asm_device("  v_mov_b32 v2, 0x100\n  ds_load_b32 v3, v2 offset:4\n", lds=256)
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    assert info.value.kind == "memory" and info.value.lane == 0 and "LDS" in str(info.value)


def test_instruction_budget_reports_spinning_pc(monkeypatch):
    """The budget is an option (off by default): set, it stops even a kernel that makes progress."""
    monkeypatch.setenv("CASS_EMU_MAX_INSTRUCTIONS", "500")
    dev = asm_device(".Lspin:\n  s_add_u32 s8, s8, 1\n  s_cmp_lg_u32 s9, 0\n  s_cbranch_scc0 .Lspin\n")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(1, np.uint32))
    f = info.value
    assert f.kind == "budget" and f.instruction.split()[0] in ("s_add_u32", "s_cmp_lg_u32", "s_cbranch_scc0")
    assert "CASS_EMU_MAX_INSTRUCTIONS" in str(f) and f"pc {f.pc:#x}" in str(f)


def test_unimplemented_instruction_is_named():
    dev = asm_device("  ds_append v2 gds\n")          # GDS is not emulated
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(1, np.uint32))
    assert info.value.kind == "unimplemented" and "ds_append" in str(info.value) and "GDS" in str(info.value)


def test_trap_stops_the_kernel():
    dev = asm_device("  s_trap 2\n")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(1, np.uint32))
    assert info.value.kind == "trap"


def test_not_a_code_object():
    with pytest.raises(EmuFault) as info:
        CodeObject.load(b"\x7fELF garbage", Memory())
    assert info.value.kind == "decode"


def test_unknown_kernel_name():
    dev = asm_device("")
    with pytest.raises(EmuFault, match="no kernel named 'nope'"):
        launch(dev.co, "nope", 1, 32, b"", memory=dev.mem)


def test_jump_outside_the_code_is_reported():
    dev = asm_device("  s_mov_b64 s[10:11], 0x40\n  s_setpc_b64 s[10:11]\n")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(1, np.uint32))
    assert info.value.kind == "decode" and "holds no instruction" in str(info.value)
