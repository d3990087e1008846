"""Relocatable (-rdc) code before the device link reads a jump table through a relocated constant
word, `c[R0+`((k.const_opt.0.12 + -0x8000))]`; the device link turns it into c[0x2][R0+-0x8000]."""

from __future__ import annotations

import pytest

from cass_cc.sass.model import ConstRef, Reg
from cass_cc.sass.parser import parse_sass


def _operand(text: str):
    return parse_sass(f"        /*00a0*/ LDC R8, {text} ;\n").instructions[0].operands[1]


def test_relocated_constant_word():
    got = _operand("c[R0+`((_Z8apply_opiii.const_opt.0.12 + -0x8000))]")
    assert got == ConstRef(None, -0x8000, Reg("R", 0, "R0"), symbol="_Z8apply_opiii.const_opt.0.12")


def test_linked_form_is_a_bank_2_read():
    assert _operand("c[0x2][R0+-0x8000]") == ConstRef(2, -0x8000, Reg("R", 0, "R0"))


@pytest.mark.parametrize("text", ["c[R0+`((sym + -0x8000)]", "c[0x2+`((sym + 0x10))]"])
def test_malformed_relocations_are_syntax_errors(text):
    from cass_cc.sass.parser import SassSyntaxError
    with pytest.raises(SassSyntaxError):
        _operand(text)


def test_relocatable_brx_offset():
    """BRX's immediate in relocatable code: the kernel section's start minus this address, minus 0x10."""
    from cass_cc.sass.model import SectionOffset
    ins = parse_sass('        /*00c0*/ BRX R8 `(((.text._Z8apply_opiii - .) - 0x10))   '
                     '(*"BRANCH_TARGETS .L_x_1"*);\n.L_x_1:\n        /*00d0*/ EXIT ;\n').instructions[0]
    assert ins.operands[1] == SectionOffset(".text._Z8apply_opiii", -0x10)
