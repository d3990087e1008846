"""The decoder's fallback for words llvm-objdump-22 prints as `.long`: hipcc 5.2 (LLVM 15) encodes
v_permlane16/x16_b32 with ABS/NEG bits next to op_sel, fields the RDNA2 and RDNA3 ISA guides say
are zero for these instructions. Cleared, the words are llvm-mc-22's own encoding of the
instruction, for gfx1100 and for gfx1030 (whose VOP3 opcodes differ)."""

from __future__ import annotations

import re
import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.emu.decode import decode, without_stray_modifiers
from cass_cc.errors import ToolMissing

# As hipcc 5.2 emits `v_permlanex16_b32 v3, v2, 0, 0 op_sel:[0,1]` (tests/programs/realworld/block_votes).
HIPCC_52_WORDS = (0xD65C1203, 0x42010102)
# The same program's source-route build for gfx1030: `v_permlanex16_b32 v4, v3, 0, 0 op_sel:[0,1]`.
HIPCC_52_GFX1030_WORDS = (0xD7781204, 0x42010103)


def llvm_mc(*args: str, text: str, mcpu: str = "gfx1100") -> str:
    try:
        tool = toolchain.path("llvm-mc")
    except ToolMissing as e:
        pytest.skip(str(e))
    return subprocess.run([tool, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *args], input=text,
                          capture_output=True, text=True, check=True).stdout


def encoding(instruction: str, mcpu: str = "gfx1100") -> tuple[int, int]:
    out = llvm_mc("-show-encoding", text=instruction + "\n", mcpu=mcpu)
    data = bytes(int(b, 16) for b in re.search(r"encoding: \[([^\]]*)\]", out).group(1).split(","))
    return int.from_bytes(data[:4], "little"), int.from_bytes(data[4:8], "little")


def test_cleared_words_are_llvm_mc_encoding_of_the_instruction():
    assert without_stray_modifiers(*HIPCC_52_WORDS) == encoding("v_permlanex16_b32 v3, v2, 0, 0 op_sel:[0,1]")


def test_gfx1030_words_are_cleared_by_its_own_opcodes():
    """gfx1030's emulator stopped on block_votes' source-route build ('unknown instruction
    encoding'): its permlane opcodes are 0x377/0x378, and the gfx11 ones must not match there."""
    want = encoding("v_permlanex16_b32 v4, v3, 0, 0 op_sel:[0,1]", mcpu="gfx1030")
    assert without_stray_modifiers(*HIPCC_52_GFX1030_WORDS, "gfx10.3") == want
    assert without_stray_modifiers(*HIPCC_52_GFX1030_WORDS) is None
    assert without_stray_modifiers(*HIPCC_52_WORDS, "gfx10.3") is None


@pytest.mark.parametrize("instruction", ["v_permlane16_b32 v0, v1, s2, s3 op_sel:[1,1]",
                                         "v_permlanex16_b32 v5, v6, s7, 0 op_sel:[1,0]"])
def test_stray_bits_are_cleared_and_nothing_else(instruction):
    first, second = encoding(instruction)
    dirty = (first | 0x700, second | 0xF800_0000)      # every ABS, NEG and OMOD bit set
    assert without_stray_modifiers(*dirty) == (first, second)


@pytest.mark.parametrize("words", [
    (0xD6100002, 0x02291500),          # v_bfe_u32: not a permlane
    (0x7E0402FA, 0xFF095002),          # a VOP1 DPP word
])
def test_other_words_are_not_touched(words):
    assert without_stray_modifiers(*words) is None


def test_decode_reads_the_permlane_and_stays_aligned(tmp_path):
    """An object whose text holds hipcc 5.2's words between two ordinary instructions decodes to
    the permlane (8 bytes) and the instruction after it."""
    source = ("\t.text\n\tv_mov_b32 v2, 7\n"
              f"\t.long 0x{HIPCC_52_WORDS[0]:08x}, 0x{HIPCC_52_WORDS[1]:08x}\n"
              "\tv_add_nc_u32 v4, v3, v2\n\ts_endpgm\n")
    obj = tmp_path / "permlane.o"
    llvm_mc("-filetype=obj", "-o", str(obj), text=source)
    table = decode(obj.read_bytes(), 0)
    assert [(pc, table[pc].mnemonic, table[pc].size) for pc in sorted(table)] == [
        (0, "v_mov_b32_e32", 4), (4, "v_permlanex16_b32", 8), (12, "v_add_nc_u32_e32", 4), (16, "s_endpgm", 4)]
    assert table[4].mods.get("op_sel") == [0, 1] and not table[4].error
