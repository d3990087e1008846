"""Every kernel of the SASS family programs (tests/programs/sass) and the examples lifts, from
sm_80 and sm_90 SASS, and the LLVM IR it gives compiles for gfx1100. (The whole corpus with its
coverage table: `python -m tests.lift.corpus`, which writes cass_cc/passes/lift/COVERAGE.md's text.)"""

from __future__ import annotations

import shutil

import pytest

from .corpus import ROOT, compile_cubin, lift_all

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SOURCES = sorted((ROOT / "tests" / "programs" / "sass").rglob("*.cu")) + sorted((ROOT / "examples").rglob("*.cu"))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_family_programs_lift(arch, tmp_path):
    cubins = [c for c in (compile_cubin(p, arch, str(tmp_path)) for p in SOURCES) if c]
    assert len(cubins) >= 12
    forms, lifted, failures = lift_all(cubins)
    assert failures == []
    assert len(forms) > 150 and lifted == set(forms)


def test_refusal_names_the_instruction():
    """An opcode the lifter does not know refuses the kernel with the exact instruction."""
    from cass_cc.errors import Refusal
    from cass_cc.sass.parser import parse_sass
    from cass_cc.unit import KernelUnit
    import cass_cc.passes.lift as lift
    sass = """        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   TEX.SCR.LL R4, R4, R6, 0x0, 0x58, 2D, 0x1 ;
        /*0020*/                   EXIT ;
"""
    unit = KernelUnit(name="k", sm_arch="sm_80")
    try:
        unit.instructions = parse_sass(sass).instructions
    except Exception:               # the grammar may not know TEX yet: a made-up opcode does as well
        unit.instructions = parse_sass(sass.replace("TEX.SCR.LL R4, R4, R6, 0x0, 0x58, 2D, 0x1", "FOO.BAR R4, R6")).instructions
    with pytest.raises(Refusal, match=r"unsupported SASS: (TEX\.SCR\.LL|FOO\.BAR) at 0x10: "):
        lift.run(unit)


def test_unknown_modifier_is_refused():
    from cass_cc.errors import Refusal
    from cass_cc.sass.parser import parse_sass
    from cass_cc.unit import KernelUnit
    import cass_cc.passes.lift as lift
    unit = KernelUnit(name="k", sm_arch="sm_80")
    unit.instructions = parse_sass("""        /*0000*/                   HSETP2.GT.H_XOR P0, PT, R1, R2, PT ;
        /*0010*/                   BAR.ARV R4 ;
        /*0020*/                   EXIT ;
""").instructions
    with pytest.raises(Refusal, match=r"unsupported SASS: HSETP2\.GT\.H_XOR at 0x0: HSETP2\.GT\.H_XOR P0, PT, R1, R2, PT ;.*modifier \.H_XOR"):
        lift.run(unit)
    unit.instructions = unit.instructions[1:]
    with pytest.raises(Refusal, match=r"BAR\.ARV at 0x10: .*arrive without a thread count"):
        lift.run(unit)


@pytest.mark.parametrize("params", [
    [(0, 0, 4), (1, 4, 4), (2, 8, 8), (3, 16, 8)],                 # int n, float a, two pointers
    [(0, 0, 1), (1, 2, 2), (2, 4, 12), (3, 16, 8), (4, 24, 3)],      # char, short, struct{3 ints}, ...
    [(0, 0, 8), (1, 16, 16), (2, 32, 4)],                            # a 16-aligned struct after a gap
])
def test_kernel_arguments_keep_cuda_offsets(params):
    """The code object's metadata puts every explicit argument at its CUDA offset and size."""
    import re
    import types
    from cass_cc.rdna3.target import emit_assembly
    from cass_cc.unit import KernelUnit
    from cass_cc.sass.parser import parse_sass
    import cass_cc.passes.lift as lift
    kernel = types.SimpleNamespace(params=params, param_base=0x160, static_shared_size=0, frame_size=0,
                                   max_stack_size=0, reqntid=None, max_threads=(256, 1, 1),
                                   indirect_branches={}, constant_banks={}, cubin=None)
    unit = KernelUnit(name="k", sm_arch="sm_80", kernel=kernel)
    unit.instructions = parse_sass("        /*0000*/                   EXIT ;\n").instructions
    asm = emit_assembly(lift.run(unit).llvm_ir)
    args = re.findall(r"\.offset:\s+(\d+)\s+\.size:\s+(\d+)\s+\.value_kind:\s+by_value", asm)
    got = [(int(o), int(s)) for o, s in args]
    for _index, offset, size in params:
        assert (offset, size) in got
    assert ".max_flat_workgroup_size: 256" in asm
