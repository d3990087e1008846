"""The grammar parses every instruction nvcc 13 emits for the project's CUDA sources."""

from __future__ import annotations

import re

import pytest

from cass_cc.fatbin import read_cubins
from cass_cc.sass.disasm import disassemble
from cass_cc.sass.model import ConstRef, Imm, Label, Mem, Reg
from cass_cc.sass.parser import SassSyntaxError, parse_sass

from concurrent.futures import ThreadPoolExecutor

from .compiled import ARCHS, KERNELS, compile_all, compile_cu, corpus_sources, disassembled, gencode

_INSTRUCTION_LINE = re.compile(r"^\s*/\*[0-9a-f]+\*/", re.M)


@pytest.fixture(scope="session")
def corpus():
    """{(source, arch): {kernel: sass text}} for every corpus source at sm_80/86/89/90."""
    built = compile_all(corpus_sources(), *gencode(), output="-fatbin")
    out, failures, cubins = {}, [], []
    for src, fatbin in built.items():
        if isinstance(fatbin, Exception):
            failures.append(f"{src}: {fatbin}")
            continue
        cubins += [(src, c) for c in read_cubins(str(fatbin))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = pool.map(lambda sc: disassembled(sc[1].data), cubins)
        for (src, cubin), text in zip(cubins, texts):
            out[(src, cubin.arch)] = text
    return out, failures


def test_corpus_compiles_for_every_arch(corpus):
    out, failures = corpus
    assert not failures, "\n".join(failures)
    assert {arch for _src, arch in out} == set(ARCHS)


def test_every_line_parses(corpus):
    out, _ = corpus
    problems = []
    total = 0
    for (src, arch), kernels in out.items():
        for name, text in kernels.items():
            try:
                parsed = parse_sass(text, f"{src.name}:{arch}:{name}")
            except SassSyntaxError as e:
                problems.append(e.message)
                continue
            lines = len(_INSTRUCTION_LINE.findall(text))
            if lines != len(parsed.instructions):
                problems.append(f"{src.name}:{arch}:{name}: {lines} instruction lines, "
                                f"{len(parsed.instructions)} parsed")
            for ins in parsed.instructions:
                total += 1
                for op in ins.operands:
                    if isinstance(op, Label) and op.address is None and op.name.startswith(".L"):
                        problems.append(f"{src.name}:{arch}:{name}: unresolved label in '{ins.text}'")
                for t in ins.extras.get("branch_targets", []):
                    if t.address is None:
                        problems.append(f"{src.name}:{arch}:{name}: unresolved BRX target in '{ins.text}'")
    assert not problems, "\n".join(problems[:40])
    assert total > 1000


def _one(line: str):
    return parse_sass(f"        /*0040*/ {line}\n").instructions[0]


def test_operand_forms():
    i = _one("@!P1 IMAD.WIDE.U32 R2, R9.reuse, 0x4, c[0x0][0x160] ;")
    assert (i.address, i.opcode, i.modifiers) == (0x40, "IMAD", ("WIDE", "U32"))
    assert i.guard == Reg("P", 1, "P1", invert=True)
    assert i.operands[1] == Reg("R", 9, "R9", reuse=True)
    assert i.operands[2] == Imm(4, False, "0x4")
    assert i.operands[3] == ConstRef(0, 0x160)

    i = _one("LDG.E.128.CONSTANT R4, desc[UR6][R2.64+0x10] ;")
    assert i.operands[1] == Mem(Reg("R", 2, "R2", ("64",)), 0x10, None, Reg("UR", 6, "UR6"))
    i = _one("STS.64 [R5.X8+UR4+-0x8], R2 ;")
    assert i.operands[0] == Mem(Reg("R", 5, "R5", ("X8",)), -8, Reg("UR", 4, "UR4"))
    i = _one("FSETP.NEU.AND P0, PT, -|R2|, +INF , PT ;")
    assert i.operands[2] == Reg("R", 2, "R2", negate=True, absolute=True)
    assert i.operands[3].value == float("inf") and i.operands[3].is_float
    i = _one("MUFU.RSQ R5, -QNAN ;")
    assert i.operands[1].negate and i.operands[1].value != i.operands[1].value
    i = _one("FFMA R3, -R2, -1.5, |R4|.reuse ;")
    assert i.operands[2] == Imm(-1.5, True, "-1.5", True)
    assert i.operands[3] == Reg("R", 4, "R4", absolute=True, reuse=True)
    i = _one("LDC.64 R2, c[0x3][R0+0x8] ;")
    assert i.operands[1] == ConstRef(3, 8, Reg("R", 0, "R0"))
    i = _one("ULDC UR4, cx[UR5][0x10] ;")
    assert i.operands[1] == ConstRef(None, 0x10, None, Reg("UR", 5, "UR5"))
    i = _one("S2R R0, SR_TID.X ;")
    assert i.operands[1] == Reg("SR", None, "SR_TID.X")
    i = _one("HADD2 R0, R2.H0_H0, -R3.H1_H1 ;")
    assert i.operands[1].suffixes == ("H0_H0",) and i.operands[2].negate
    i = _one("LOP3.LUT P0, RZ, R2, 0x7, RZ, 0xc0, !PT ;")
    assert i.operands[-1] == Reg("P", None, "PT", invert=True)
    i = _one("@!UPT UIADD3 UR4, -UR4, URZ, URZ ;")
    assert i.guard.name == "UPT" and i.operands[1].negate
    i = _one("DEPBAR.LE SB0, 0x0, {2,1} ;")
    assert i.operands[0].kind == "SB" and i.operands[2] == (2, 1)
    i = _one("NOP;")
    assert i.opcode == "NOP" and i.operands == ()
    # UPR is all uniform predicates at once: ptxas packs them with UP2UR (secp256k1's
    # single-thread field arithmetic); the line did not parse, and the kernel fell back to hipify
    i = _one("UP2UR UR30, UPR, URZ, 0x1 ;")
    assert i.operands[1] == Reg("PR", None, "UPR") and i.operands[2] == Reg("UR", None, "URZ")


def test_labels_and_branch_targets():
    text = """
.text.k:
        /*0000*/                   BRX R4 -0x20          (*"BRANCH_TARGETS .L_x_1,.L_x_2"*);
.L_x_1:
        /*0010*/                   CALL.REL.NOINC `($__internal_0_$f) ;
.L_x_2:
        /*0020*/              @P0 BRA `(.L_x_1) ;
$__internal_0_$f:
        /*0030*/                   RET.REL.NODEC R2 `(k) ;
"""
    p = parse_sass(text)
    brx, call, bra, ret = p.instructions
    assert brx.operands == (Reg("R", 4, "R4"), Imm(-0x20, False, "-0x20", True))
    assert [t.address for t in brx.extras["branch_targets"]] == [0x10, 0x20]
    assert call.operands == (Label(0x30, "$__internal_0_$f"),)
    assert bra.operands == (Label(0x10, ".L_x_1"),) and bra.guard.name == "P0"
    assert ret.operands[0] == Reg("R", 2, "R2") and ret.operands[1].name == "k"


def test_unparsable_line_is_reported_with_its_text():
    with pytest.raises(SassSyntaxError, match=re.escape("FOO R1, ?#")):
        parse_sass("        /*0000*/ MOV R1, R2 ;\n        /*0010*/ FOO R1, ?# ;\n")


def test_hex_encodings_are_ignored():
    cubin = compile_cu(KERNELS / "math.cu", "-arch=sm_80", output="-cubin")
    plain = disassemble(cubin.read_bytes())
    assert plain
    from cass_cc import toolchain
    import subprocess
    hexed = subprocess.run([toolchain.path("nvdisasm"), "-c", "-hex", str(cubin)], capture_output=True,
                           text=True, check=True).stdout
    from cass_cc.sass.disasm import split_sections
    for name, text in split_sections(hexed).items():
        a = parse_sass(text).instructions
        b = parse_sass(plain[name]).instructions
        assert [repr((x.address, x.opcode, x.modifiers, x.operands)) for x in a] == \
               [repr((x.address, x.opcode, x.modifiers, x.operands)) for x in b]  # repr: NaN != NaN


def test_relocated_immediates_of_debug_builds():
    from cass_cc.sass.model import SymbolRef
    p = parse_sass("""
        /*0000*/                   MOV R20, 32@lo((_Z1fv + .L_x_3@srel)) ;
        /*0010*/                   MOV R21, 32@hi((_Z1fv + .L_x_3@srel)) ;
.L_x_3:
        /*0020*/                   MOV R4, 32@lo($str$9) ;
""")
    lo, hi, s = (i.operands[1] for i in p.instructions)
    assert lo == SymbolRef("lo", 32, "_Z1fv", ".L_x_3", 0x20, "32@lo((_Z1fv + .L_x_3@srel))")
    assert hi.part == "hi" and hi.label_address == 0x20
    assert s == SymbolRef("lo", 32, "$str$9", "", None, "32@lo($str$9)")


def test_debug_build_parses(tmp_path):
    src = tmp_path / "debug.cu"
    src.write_text("#include <cstdio>\n__device__ __noinline__ int twice(int x) { return 2 * x; }\n"
                   "__global__ void k(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); printf(\"%d\\n\", p[0]); }\n")
    cubin = compile_cu(src, "-arch=sm_90", "-G", output="-cubin")
    from cass_cc.fatbin import Cubin
    from cass_cc.sass.model import SymbolRef
    refs = 0
    for name, text in disassemble(Cubin(cubin.read_bytes()).data).items():
        refs += sum(isinstance(op, SymbolRef) for i in parse_sass(text, name).instructions for op in i.operands)
    assert refs >= 2
