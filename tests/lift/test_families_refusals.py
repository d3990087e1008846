"""The forms added for real-world code either lift or are refused with the exact reason: tensor-core
shapes and types outside the documented fragment layouts, byte-SIMD merge inputs, address-window
queries other than shared, mbarrier arrives of other kinds than sm_80's two. Hand-written SASS lines, as nvdisasm prints them, through the lift pass."""

from __future__ import annotations

import pytest

from cass_cc.errors import Refusal
from cass_cc.sass.parser import parse_sass
from cass_cc.unit import KernelUnit


def _lift(*lines: str) -> KernelUnit:
    import cass_cc.passes.lift as lift
    text = "".join(f"        /*{16 * i:04x}*/                   {line} ;\n" for i, line in enumerate(lines + ("EXIT",)))
    unit = KernelUnit(name="k", sm_arch="sm_80")
    unit.instructions = parse_sass(text).instructions
    return lift.run(unit)


@pytest.mark.parametrize("line, reason", [
    ("HMMA.16816.F32.TF32 R4, R8, R12, R4", r"HMMA\.16816\.F32\.TF32 at 0x0: .*matrix shape or type"),
    ("HMMA.1684.F16.TF32 R4, R8, R12, R4", r"matrix shape or type"),
    ("IMMA.16832.S8.S8.RELU R4, R8.ROW, R12.COL, R4", r"IMMA\.16832\.S8\.S8\.RELU .*matrix shape or type"),
    ("IMMA.8816.S8.S8 R4, R8.ROW, R12.COL, R4", r"matrix shape or type"),
    ("DMMA.16816 R4, R8, R12, R4", r"matrix shape or type"),
    ("LDSM.16.M88.4.X R4, [R2]", r"matrix load form"),
    ("VABSDIFF4.S8 R1, R2, R3, RZ", r"modifier \.S8"),
    ("VABSDIFF4 R1, R2, R3, RZ", r"byte type"),
    ("QSPC.E.L P0, RZ, [R2]", r"modifier \.L"),
    ("QSPC.E P0, RZ, [R2]", r"address window"),
    ("QSPC.E.S P0, R5, [R2]", r"register result"),
    ("ARRIVES.LDGSTSBAR [URZ+0x200]", r"ARRIVES\.LDGSTSBAR at 0x0: .*arrive kind"),
    ("ATOMS.ARRIVE RZ, [URZ+0x200]", r"mbarrier arrive without \.64"),
    ("ATOMS.ARRIVE.64.DROP RZ, [URZ]", r"modifier \.DROP"),
    ("ATOM.E.ADD.F16x2.RN.64 P0, RZ, [R2.64], R5", r"packed 16-bit atomic"),
    ("VIADDMNMX.U16x2.RELU R0, R0, R7, R6, !PT", r"RELU of an unsigned result"),
    ("VIMNMX R8, P2, R0, R5, !PT", r"predicate results"),
])
def test_refused_with_the_reason(line, reason):
    with pytest.raises(Refusal, match=reason):
        _lift(line)


@pytest.mark.parametrize("line", [
    "HMMA.16816.F32.BF16 R4, R8, R12, RZ",
    "HMMA.16816.F16 R4, R8, R12, R16",
    "HMMA.1688.F32.TF32 R4, R8, R12, R16",
    "IMMA.16816.U8.S8 R4, R8.ROW, R12.COL, RZ",
    "DMMA.8x8x4 R4, R8, R10, R4",
    "LDSM.16.MT88.2 R8, [R5+0x400]",
    "LOP3.LUT P0, RZ, R13, 0x7fffffff, RZ, 0xc0, P0",
    "VIMNMX.S16x2 R0, R0, -0x130014, !PT",
    "VIADD.16x2 R2, R3, -R4",
    "IDP.2A.HI.U16.U8 R2, R3, R4, R5",
    "ATOM.E.ADD.BF16x2.RN.STRONG.GPU P0, RZ, [R2.64], R9",
    "ATOM.E.CAST.SPIN PT, R5, [R2+0x64], R4, R5",
    "ATOMS.CAST.SPIN.64 R6, [R15], R4, R6",
    "LDGSTS.E [R15], [R10.64+0xc], !PT",
    "ARRIVES.LDGSTSBAR.64 [URZ+0x200]",
    "ATOMS.ARRIVE.64 R2, [R23+URZ+0x8]",
    "ATOMS.ARRIVE.64 RZ, [UR6]",
    "VIADDMNMX.S16x2.RELU R0, R0, R7, R6, !PT",
    "VIMNMX3.S16x2.RELU R9, R0, R7, R6, !PT",
    "VIMNMX.S16x2 R8, P2, P0, R0, R5, !PT",
    "FRND.F16.FLOOR R2, R5",
    "FRND.F16 R27, R29.H1",
    "FRND.BF16.FLOOR R7, R5",
    "F2FP.BF16.PACK_AB.RZ R2, RZ, R4",
    "F2FP.BF16.PACK_AB.RM R2, R3, R4",
    "VABSDIFF4.U8 R3, R3, R0, R2",
    "S2R R0, SR_LMEMHIOFF",
    "IMMA.16816.S8.S8.SAT R8, R40.ROW, R50.COL, R8",
    "MOVM.16.MT88 R9, R9",
    "QSPC.E.G P0, RZ, [R6]",
    "F2F.BF16.F32.RZ R7, R0",
    "LDC R0, c[0x0][R0]",
])
def test_lifts(line):
    assert "define" in _lift(line).llvm_ir
