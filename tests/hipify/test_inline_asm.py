"""Inline PTX: asm statements in device code become HIP C++ (tests/programs/hipify/inline_ptx
checks the semantics on the emulator); what the translator does not know is refused with the
instruction and the line, and the statement is left as it was."""

from __future__ import annotations

import pytest

from cass_cc.hipify import translate
from cass_cc.hipify.ptx_parse import Address, Imm, Instruction, Label, Pair, Reg, RegDecl, parse


def device(body: str) -> str:
    return "__device__ void f(unsigned a, unsigned b, unsigned c, unsigned *p, float x) {\n" + body + "\n}\n"


def translated(body: str):
    res = translate(device(body), "k.cu")
    return res.text, [str(d) for d in res.diagnostics]


# Every instruction family the brief lists, as real CUDA code writes it: each must translate.
STATEMENTS = [
    'asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm("bfe.s32 %0, %1, 8, 4;" : "=r"(a) : "r"(b));',
    'asm("bfi.b32 %0, %1, %2, 4, 8;" : "=r"(a) : "r"(b), "r"(c));',
    'asm("brev.b64 %0, %0;" : "+l"(p));',
    'asm("popc.b64 %0, %1;" : "=r"(a) : "l"(p));',
    'asm("clz.b32 %0, %1;" : "=r"(a) : "r"(b));',
    'asm("mul.hi.u64 %0, %1, %1;" : "=l"(p) : "l"(p));',
    'asm("mul.wide.s32 %0, %1, %2;" : "=l"(p) : "r"(a), "r"(b));',
    'asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm("add.cc.u64 %0, %0, %2; addc.u64 %1, %1, 0;" : "+l"(p), "+l"(p) : "l"(p));',
    'asm("mad.lo.cc.u32 %0, %1, %2, %0; madc.hi.cc.u32 %1, %1, %2, 0; subc.u32 %0, %0, 1;" : "+r"(a), "+r"(b) : "r"(c));',
    'asm("vote.ballot.b32 %0, 1;" : "=r"(a));',
    'asm("shfl.sync.down.b32 %0, %1, 1, 0x1f, -1;" : "=r"(a) : "r"(b));',
    'asm("mov.u32 %0, %%warpid; mov.u32 %1, %%smid;" : "=r"(a), "=r"(b));',
    'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(p));',
    'asm("mov.u32 %0, %%lanemask_ge;" : "=r"(a));',
    'asm("ld.global.nc.v2.f32 {%0, %1}, [%2+8];" : "=f"(x), "=f"(x) : "l"(p));',
    'asm("ld.global.L1::no_allocate.b32 %0, [%1];" : "=r"(a) : "l"(p));',
    'asm volatile("st.global.wt.b16 [%0], %1;" :: "l"(p), "h"((unsigned short)a) : "memory");',
    'asm volatile("prefetchu.L1 [%0];" :: "l"(p));',
    'asm volatile("fence.sc.sys;" ::: "memory");',
    'asm volatile("red.relaxed.gpu.global.add.f32 [%0], %1;" :: "l"(p), "f"(x) : "memory");',
    'asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(p) : "r"(a), "l"(p) : "memory");',
    'asm volatile("atom.acq_rel.sys.cas.b64 %0, [%1], %2, %3;" : "=l"(p) : "l"(p), "l"(p), "l"(p));',
    'asm("cvt.rn.f16.f32 %0, %1;" : "=h"(*(unsigned short *)p) : "f"(x));',
    'asm("cvt.rpi.s64.f64 %0, %1;" : "=l"(p) : "d"((double)x));',
    'asm("cvt.u16.u32 %0, %1;" : "=h"(*(unsigned short *)p) : "r"(a));',
    'asm("fma.rz.ftz.sat.f32 %0, %1, %1, %1;" : "=f"(x) : "f"(x));',
    'asm("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));',
    'asm("rcp.rn.f64 %0, %1;" : "=d"(*(double *)p) : "d"((double)x));',
    'asm("sqrt.approx.f32 %0, %0;" : "+f"(x));',
    'asm("{\\n\\t.reg .pred %%p<2>;\\n\\tsetp.geu.f32 %%p0|%%p1, %1, 0f00000000;\\n\\tselp.f32 %0, %1, 0f3F800000, %%p1;\\n\\t}" : "=f"(x) : "f"(x));',
    'asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
    'asm volatile("nanosleep.u32 %0;" :: "r"(a));',
    'asm volatile("bar.warp.sync %0;" :: "r"(0xffffffffu));',
    'asm("match.any.sync.b32 %0, %1, %2;" : "=r"(a) : "r"(b), "r"(0xffffffffu));',
    'asm("cvta.to.global.u64 %0, %1;" : "=l"(p) : "l"(p));',
    'asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(a) : "r"(b), "r"(c));',
    'asm("add.sat.s32 %0, %1, %2; sub.sat.s32 %0, %0, %2;" : "=r"(a) : "r"(b), "r"(c));',
    'asm("bfind.shiftamt.u64 %0, %1; bfi.b64 %1, %1, %1, 3, 9;" : "=r"(a), "+l"(p));',
    'asm("szext.clamp.s32 %0, %1, %2;" : "=r"(a) : "r"(b), "r"(c));',
    'asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 50; bar.red.popc.u32 %0, 0, p; }" : "=r"(a) : "r"(b));',
    'asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.or.pred p, 0, p; selp.u32 %0, 1, 0, p; }" : "=r"(a) : "r"(b));',
    'asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" :: "r"((unsigned)__cvta_generic_to_shared(p)), "l"(p), "r"(c));',
    'asm("cvt.rn.f16x2.f32 %0, %1, %1;" : "=r"(a) : "f"(x));',
    'asm("fma.rn.f16x2 %0, %1, %2, %0;" : "+r"(a) : "r"(b), "r"(c));',
    'asm("{ .reg .f16 h; mov.b32 {h, _}, %1; sub.f16 h, h, h; mov.b32 %0, {h, h}; }" : "=r"(a) : "r"(b));',
    'asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(x), "+f"(x), "+f"(x), "+f"(x) : "r"(a), "r"(a), "r"(b), "r"(b), "r"(c), "r"(c));',
    'asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};" : "+r"(a), "+r"(b) : "r"(c), "r"(c), "r"(a));',
    'asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4+16];" : "=r"(a), "=r"(b), "=r"(c), "=r"(a) : "r"(c));',
    'asm volatile("cp.async.commit_group;\\n\\tcp.async.wait_group 0;\\n\\tcp.async.wait_all;" ::: "memory");',
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_instruction_families_translate(statement):
    text, diagnostics = translated(statement)
    assert diagnostics == []
    assert "asm" not in text.split("{", 1)[1] and "do {" in text


def test_translations_compile_for_gfx1100(hip_compiler):
    """Every statement above, translated, is C++ that hipcc accepts for gfx1100."""
    functions = "".join(f"__device__ void f{n}(unsigned a, unsigned b, unsigned c, unsigned *p, "
                        f"float x) {{\n  {statement}\n}}\n" for n, statement in enumerate(STATEMENTS))
    result, proc = hip_compiler.compile_cuda("inline_asm_families", functions)
    assert result.diagnostics == [] and proc.returncode == 0, proc.stderr[-3000:]


def test_operands_are_bound_and_written_back():
    text, _ = translated('asm volatile("add.u32 %0, %1, %2;" : "=r"(a) : "r"(b), "n"(5) : "memory");')
    assert ("do { unsigned int cass_a0{}; const unsigned int cass_a1 = cass_ptx::arg<unsigned int>((b)); "
            "const long long cass_a2 = cass_ptx::arg<long long>((5)); "
            "__atomic_signal_fence(__ATOMIC_SEQ_CST); ") in text
    assert "cass_ptx::put((a), cass_a0); } while (0);" in text


def test_read_write_operand_starts_from_its_value():
    text, _ = translated('asm("add.u32 %0, %0, 1;" : "+r"(a));')
    assert "unsigned int cass_a0 = cass_ptx::arg<unsigned int>((a));" in text


def test_tied_input_initialises_the_output():
    text, _ = translated('asm("add.u32 %0, %1, 1;" : "=r"(a) : "0"(b));')
    assert "cass_a0 = cass_ptx::arg<unsigned int>((b));" in text


def test_labels_are_local_to_the_statement():
    text, diagnostics = translated('asm("L: @%1 bra L;" :: "r"(a), "r"(b));')
    assert diagnostics == [] and "__label__ cass_L_L;" in text and "goto cass_L_L;" in text


def test_line_numbers_after_a_multiline_statement_are_kept():
    source = device('asm("add.u32 %0, %0, 1;"\n    : "+r"(a));\n  a += 1;')
    res = translate(source, "k.cu")
    assert res.text.count("\n") == source.count("\n")


# (asm statement, the reason in the warning)
REFUSALS = [
    ('asm("pmevent 1;");', "PTX instruction 'pmevent' is not supported"),
    ('asm("tex.1d.v4.f32.s32 {%0,%1,%2,%3}, [t, {%4}];" : "=f"(x), "=f"(x), "=f"(x), "=f"(x) : "r"(a));',
     "the PTX text cannot be read"),
    ('asm("mov.u32 %0, %%nsmid;" : "=r"(a));', "register '%nsmid' is not declared"),
    ('asm("mov.u32 %0, 1;" : "=x"(a));', 'operand constraint "=x" is not supported'),
    ('asm("mov.u32 %[r], 1;" : [r] "=r"(a));', "symbolic operand names"),
    ('asm(TEMPLATE : "=r"(a));', "the asm template is not a string literal"),
    ('asm("add.u32 %0, %0, %3;" : "+r"(a));', "operand %3 does not exist"),
    ('asm("bra DONE;");', "label 'DONE' is not in the asm statement"),
    ('asm("add.rz.f64 %0, %0, %0;" : "+d"(*(double *)p));', "directed rounding of .f64"),
    ('asm("ld.local.u32 %0, [%1];" : "=r"(a) : "l"(p));', "the .local state space is not supported"),
    ('asm("bar.sync 1, 64;");', "only barrier 0"),
    ('asm("bar.red.popc.u32 %0, 5, 64, 1;" : "=r"(a));', "only barrier 0"),
    ('asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(*(double *)p), "+d"(*(double *)p) : "d"(1.0), "d"(1.0));',
     "only mma.sync.aligned.m16n8k*.row.col"),
    ('asm("atom.global.and.f32 %0, [%1], %2;" : "=f"(x) : "l"(p), "f"(x));', ".and is not defined for .f32"),
]


@pytest.mark.parametrize("statement, why", REFUSALS)
def test_refusal_names_the_instruction_and_line(statement, why):
    res = translate(device("  int pad;\n  " + statement), "k.cu")
    assert statement in res.text      # left unchanged
    [d] = [str(d) for d in res.diagnostics]
    assert d.startswith("k.cu:3: warning: inline PTX is not translated: ") and why in d, d


def test_host_assembly_is_left_alone():
    source = "unsigned long long ticks() { unsigned lo, hi; asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));" \
             " return lo; }\n"
    res = translate(source, "h.cu")
    assert 'asm volatile("rdtsc"' in res.text and res.diagnostics == []


def test_parse_gives_small_objects():
    block = parse("{ .reg .pred p<2>; L1: @!p1 setp.lt.u32 p0|p1, %1, -4; ld.shared.u32 %0, [%2+-8]; }")
    decl, label, setp, ld = block.items[0].items
    assert decl == RegDecl("pred", ["p0", "p1"]) and label == Label("L1")
    assert setp == Instruction("setp.lt.u32", [Pair(Reg("p0"), Reg("p1")), Reg("%1", 1), Imm(-4)],
                               (Reg("p1"), True))
    assert ld.operands[1] == Address(Reg("%2", 2), -8)


def test_asm_in_a_macro_keeps_the_macro_whole():
    source = ('#define ROTL(x, r) ({ unsigned y_; \\\n'
              '  asm("shf.l.wrap.b32 %0, %1, %1, %2;" \\\n'
              '      : "=r"(y_) : "r"(x), "r"(r)); y_; })\n'
              '__device__ unsigned f(unsigned a) { return ROTL(a, 7); }\n')
    res = translate(source, "k.cu")
    assert res.diagnostics == []
    lines = res.text.split("\n")
    assert len(lines) == len(source.split("\n")) and "cass_ptx::shf_l" in lines[1]
    assert all(line.endswith("\\") for line in lines[:2]) and lines[3].startswith("__device__")


def test_macro_asm_compiles(hip_compiler):
    source = ('#define ROTL(x, r) ({ unsigned y_; \\\n'
              '  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(y_) : "r"(x), "r"(r)); y_; })\n'
              '__global__ void k(unsigned *p) { p[0] = ROTL(p[0], 7); }\n')
    result, proc = hip_compiler.compile_cuda("macro_asm", source)
    assert result.diagnostics == [] and proc.returncode == 0, proc.stderr[-3000:]
