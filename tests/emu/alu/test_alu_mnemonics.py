"""Every mnemonic in the ALU tables is a real gfx1100 instruction, spelled the way LLVM 22
prints it: each gets a line with operands made from its Op (types and flags), llvm-mc-22
assembles them all, and the mnemonic it prints back must be the key itself. The few that gfx1100
lacks (gfx12's SALU float and 64-bit arithmetic, v_min_num/v_max_num) must be gfx1201's, and
what neither has (CDNA's v_pk_*_f32, v_mov_b64, v_lshl_add_u64, v_fmac_f64, GFX9's v_mad_f32 and signed dots)
gfx942's or gfx90a's."""
from __future__ import annotations

import re
import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.emu.alu import SCALAR_OPS, VECTOR_OPS, Op

_WIDE = {"f64", "i64", "u64", "b64", "pk_f32"}
# Ops whose assembly syntax has an immediate where the tables have a source.
_LITERAL_LAST = {"v_fmaak_f32", "v_fmaak_f16", "s_fmaak_f32", "v_madak_f32"}
_LITERAL_MIDDLE = {"v_fmamk_f32", "v_fmamk_f16", "s_fmamk_f32", "v_madmk_f32"}
# Ops that gfx11 has only as a VOPD half: assembled as one, paired with a v_dual_mov_b32.
_VOPD_ONLY = {"v_dot2acc_f32_bf16"}
# The VOPD halves of gfx11; the core looks each up as v_<op>.
VOPD_HALVES = ["v_dual_add_f32", "v_dual_add_nc_u32", "v_dual_and_b32", "v_dual_cndmask_b32",
               "v_dual_dot2acc_f32_bf16", "v_dual_dot2acc_f32_f16", "v_dual_fmaak_f32", "v_dual_fmac_f32",
               "v_dual_fmamk_f32", "v_dual_lshlrev_b32", "v_dual_max_f32", "v_dual_min_f32", "v_dual_mov_b32",
               "v_dual_mul_dx9_zero_f32", "v_dual_mul_f32", "v_dual_sub_f32", "v_dual_subrev_f32"]
_VOPD_Y_ONLY = {"v_dual_add_nc_u32", "v_dual_and_b32", "v_dual_lshlrev_b32"}
# Ops that LLVM 22 only accepts with true16 register halves.
_TRUE16_ONLY = {"v_mov_b16"}


def _reg(prefix: str, index: int, typ: str | None) -> str:
    return f"{prefix}[{index}:{index + 1}]" if typ in _WIDE else f"{prefix}{index}"


def asm_line(name: str, o: Op) -> str:
    """One assemblable line for the op, with dummy registers."""
    r = "s" if name.startswith("s_") else "v"
    srcs = list(o.srcs[:-1] if "dst_in" in o.flags else o.srcs)
    if r == "s" and any(t in ("i16", "u16") for t in srcs):  # SOPK: register, 16-bit immediate
        if "cmp" not in o.flags:
            return f"{name} {_reg(r, 2, o.dst)}, 0x1234"
        return f"{name} s4, 0x1234"
    ops = [_reg(r, 4 + 2 * i, t) for i, t in enumerate(srcs)]
    literal = "0x4800" if name.endswith("f16") else "0x41000000"
    if name in _LITERAL_LAST:
        ops[-1] = literal
    if name in _LITERAL_MIDDLE:
        ops[1] = literal
    if name in _TRUE16_ONLY:
        ops = [f"{x}.l" for x in ops]
    if "cmpx" in o.flags:
        return f"{name} {', '.join(ops)}"
    if "cmp" in o.flags:
        return f"{name} {'vcc_lo, ' if r == 'v' else ''}{', '.join(ops)}"
    dst = [_reg(r, 2, o.dst) + (".l" if name in _TRUE16_ONLY else "")]
    if name in _VOPD_ONLY:
        return f"v_dual_{name[2:]} {', '.join(dst + ops)} :: v_dual_mov_b32 v21, v23"
    if "carry_out" in o.flags:
        dst.append("vcc_lo")
    if "carry_in" in o.flags or "mask_in" in o.flags:
        ops.append("vcc_lo")
    return f"{name} {', '.join(dst + ops)}"


@pytest.fixture(scope="module")
def assembled() -> dict[str, str]:
    return assemble_for("gfx1100", sorted({**VECTOR_OPS, **SCALAR_OPS}.items()))


def assemble_for(cpu: str, names: list[tuple[str, Op]]) -> dict[str, str]:
    """Mnemonic -> the mnemonic llvm-mc-22 printed for its line (or the error it gave)."""
    lines = [asm_line(n, o) for n, o in names]
    proc = subprocess.run([toolchain.path("llvm-mc"), "--triple=amdgcn-amd-amdhsa", f"--mcpu={cpu}",
                           "-show-encoding"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120)
    errors = {int(m.group(1)): m.group(2)
              for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", proc.stderr)}
    printed = [ln.split()[0] for ln in proc.stdout.splitlines()
               if ln.startswith("\t") and not ln.startswith("\t.")]
    result, out = {}, iter(printed)
    for i, (name, _) in enumerate(names, start=1):
        result[name] = f"error: {errors[i]} in '{lines[i - 1]}'" if i in errors else next(out)
        if name in _VOPD_ONLY:
            result[name] = result[name].replace("v_dual_", "v_")
    return result


def _wrong(assembled: dict[str, str]) -> dict[str, str]:
    return {name: got for name, got in assembled.items() if re.sub(r"_(e32|e64|dpp|sdwa)$", "", got) != name}


def test_every_mnemonic_is_gfx1100_gfx12_or_cdna_and_canonical(assembled):
    not_gfx11 = _wrong(assembled)
    ops = {**VECTOR_OPS, **SCALAR_OPS}
    not_gfx12 = _wrong(assemble_for("gfx1201", [(n, ops[n]) for n in sorted(not_gfx11)]))
    not_gfx942 = _wrong(assemble_for("gfx942", [(n, ops[n]) for n in sorted(not_gfx12)]))
    wrong = _wrong(assemble_for("gfx90a", [(n, ops[n]) for n in sorted(not_gfx942)]))
    assert not wrong, f"{len(wrong)} mnemonics not accepted or printed differently: {wrong}"
    assert len(not_gfx11) < 100  # gfx12's (SALU float: 56) and CDNA's additions, not a broken gfx1100 table
    assert len(not_gfx12) < 24


def vopd_line(half: str) -> str:
    """A VOPD pair with `half` in the slot it may take, and a v_dual_mov_b32 in the other."""
    operands = {"v_dual_fmamk_f32": "v1, v2, 0x41000000, v3", "v_dual_fmaak_f32": "v1, v2, v3, 0x41000000",
                "v_dual_mov_b32": "v1, v2"}.get(half, "v1, v2, v3")
    if half in _VOPD_Y_ONLY:
        return f"v_dual_mov_b32 v0, v1 :: {half} v3, v6, v7"
    return f"{half} {operands} :: v_dual_mov_b32 v4, v5"


def test_every_vopd_half_has_an_op():
    """The VOPD halves are real gfx11 syntax, and each maps to a table entry."""
    lines = [vopd_line(h) for h in VOPD_HALVES]
    proc = subprocess.run([toolchain.path("llvm-mc"), "--triple=amdgcn-amd-amdhsa", "--mcpu=gfx1100",
                           "-show-encoding"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and "error" not in proc.stderr, proc.stderr
    assert [h for h in VOPD_HALVES if "v_" + h[len("v_dual_"):] not in VECTOR_OPS] == []


def test_tables_cover_the_core_families():
    for name in ("v_add_f32", "v_fma_f64", "v_pk_add_f16", "v_cmp_lt_f32", "v_cmpx_eq_u32", "s_add_u32",
                 "s_lshl_b64", "v_cvt_f32_i32", "v_mad_u64_u32", "v_add_co_u32", "v_add_co_ci_u32",
                 "v_div_scale_f32", "v_div_fmas_f64", "v_div_fixup_f32", "s_cselect_b32", "v_mbcnt_lo_u32_b32"):
        assert name in VECTOR_OPS or name in SCALAR_OPS, name
