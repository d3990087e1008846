"""An instruction (or a form of one) the emulator lacks is a clean EmuFault "unimplemented"; an
exception out of the emulator's own code (a KeyError, TypeError, IndexError ...) is a bug: an
EmuInternalError naming kernel, pc and instruction, which cass-run reports with exit status 70
instead of the fault status 134."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cass_cc.emu import EmuFault, program
from cass_cc.emu.decode import Instr, Operand
from cass_cc.emu.fault import EmuInternalError, Unimplemented
from cass_cc.emu.valu import Valu

from .emu_build import asm_device


def test_unimplemented_branch_condition_is_a_clean_report():
    dev = asm_device("  s_cbranch_cdbgsys .Lnext\n.Lnext:\n")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(1, np.uint32))
    f = info.value
    assert f.kind == "unimplemented" and f.instruction.startswith("s_cbranch_cdbgsys")
    assert "is not implemented" in str(f) and "internal error" not in str(f)


@pytest.mark.parametrize("instr", [
    Instr(0, 8, "global_atomic_frob_u32 v0, v1, s[0:1]", "global_atomic_frob_u32",
          [Operand("v", 0), Operand("v", 1), Operand("s", 0, 2)]),
    Instr(0, 8, "ds_swizzle_b32 v1, v0 offset:swizzle(FFT,1)", "ds_swizzle_b32",
          [Operand("v", 1), Operand("v", 0)], {"offset": Operand("call", value=["FFT", 1])}),
    Instr(0, 8, "v_add_f32_e64 s1, v0, v1", "v_add_f32_e64",
          [Operand("s", 1), Operand("v", 0), Operand("v", 1)]),
], ids=["atomic-op", "swizzle-mode", "sgpr-destination"])
def test_unimplemented_forms_raise_unimplemented(instr):
    """Forms the builders find they lack raise Unimplemented themselves, so that nothing else
    has to be taken for a missing instruction."""
    with pytest.raises(Unimplemented):
        program.build(instr)


def _break_v_add(monkeypatch, executor):
    """program.build_valu, except for v_add_f32, whose executor `executor(instr, op)` makes."""
    real = program.build_valu
    monkeypatch.setattr(program, "build_valu",
                        lambda instr, op: executor(instr, op) if instr.mnemonic.startswith("v_add_f32")
                        else real(instr, op))


def test_a_bug_while_building_is_an_internal_error(monkeypatch):
    def broken(instr, op):
        return {}["missing"]            # what a bug in a builder looks like
    _break_v_add(monkeypatch, broken)
    dev = asm_device("  v_add_f32 v2, v1, v1\n")
    with pytest.raises(EmuInternalError) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    e = info.value
    assert not isinstance(e, EmuFault)
    assert (e.kernel, e.instruction) == ("k", "v_add_f32_e32 v2, v1, v1") and e.pc is not None
    assert str(e).startswith(f"kernel 'k' pc {e.pc:#x} 'v_add_f32_e32 v2, v1, v1': internal error of the emulator")
    assert "KeyError: 'missing'" in str(e) and "not implemented" not in str(e)
    assert isinstance(e.__cause__, KeyError)


def test_a_bug_while_running_is_an_internal_error(monkeypatch):
    def broken(instr, op):
        def run(st, w):
            raise TypeError("an emulator bug")
        return Valu(run, None)
    _break_v_add(monkeypatch, broken)
    dev = asm_device("  v_add_f32 v2, v1, v1\n")
    with pytest.raises(EmuInternalError) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    e = info.value
    assert e.instruction == "v_add_f32_e32 v2, v1, v1" and f"pc {e.pc:#x}" in str(e)
    assert "TypeError: an emulator bug" in str(e)


def test_an_unimplemented_operand_at_run_time_is_a_clean_report(monkeypatch):
    def lacking(instr, op):
        def run(st, w):
            raise Unimplemented("an operand kind")
        return Valu(run, None)
    _break_v_add(monkeypatch, lacking)
    dev = asm_device("  v_add_f32 v2, v1, v1\n")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    assert info.value.kind == "unimplemented" and "an operand kind" in str(info.value)


RUNTIME_EXIT = """
import sys
from cass_cc.emu.fault import EmuFault, EmuInternalError
from cass_cc.runtime.emulated.registry import fault_exit
if sys.argv[1] == "bug":
    fault_exit(EmuInternalError("building the executor of 'v_foo'", KeyError("x"), kernel="k", pc=0x10,
                                instruction="v_foo v1"))
fault_exit(EmuFault("unimplemented", "instruction 'v_foo' is not implemented", kernel="k", pc=0x10,
                    instruction="v_foo v1"))
"""


@pytest.mark.parametrize("which,status,text", [
    ("bug", 70, "cass-run: kernel 'k' pc 0x10 'v_foo v1': internal error of the emulator building the "
                "executor of 'v_foo': KeyError: 'x'; set CASS_DEBUG=1 for the traceback"),
    ("unimplemented", 134, "cass-run: kernel 'k' pc 0x10 'v_foo v1': instruction 'v_foo' is not implemented"),
])
def test_cass_run_exit_status_tells_a_bug_from_a_missing_instruction(which, status, text):
    proc = subprocess.run([sys.executable, "-c", RUNTIME_EXIT, which], capture_output=True, text=True)
    assert proc.returncode == status, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == text
