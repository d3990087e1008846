"""cass_cc/emu/isa_names.py against llvm-mc-22: each gfx12 name the decoder maps to a gfx11 one is
what LLVM prints for gfx1201 when given the gfx11 spelling with the same operands."""

from __future__ import annotations

import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.emu.isa_names import RENAMED

OPERANDS = {"s_addk": "s0, 0x7f", "s_": "s0, s1, s2", "v_mad": "v[0:1], null, v2, v3, v[4:5]"}
SEMANTIC = {"s_barrier_wait"}  # not a new spelling: gfx12 has no s_barrier (see isa_names.py)


@pytest.mark.parametrize("gfx12,gfx11", [(k, v) for k, v in RENAMED["gfx12"].items() if k not in SEMANTIC])
def test_gfx12_spelling_is_llvms(gfx12, gfx11):
    operands = next(ops for prefix, ops in OPERANDS.items() if gfx11.startswith(prefix))
    proc = subprocess.run([toolchain.path("llvm-mc"), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1201",
                           "-show-encoding"], input=f"{gfx11} {operands}\n", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    printed = [l.split()[0] for l in proc.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    assert printed == [gfx12]


# GFX9/GFX10.3 names: each is an instruction llvm-mc-22 knows for the processor (assembled from
# its operands there, printed back under the same name), and its gfx11 name is one the
# emulator's tables or builders run; that they compute the same is what the family and
# program tests on gfx90a, gfx942 and gfx1030 show against the host.
OLD_OPERANDS = {"s_": "s0, s1, s2", "v_add_u32": "v0, v1, v2", "v_sub": "v0, v1, v2",
                "v_addc_co_u32": "v0, vcc, v1, v2, vcc", "v_subb": "v0, vcc, v1, v2, vcc",
                "v_mad_legacy": "v0, v1, v2, v3", "v_fma_legacy": "v0, v1, v2, v3",
                "v_div_fixup_legacy": "v0, v1, v2, v3", "v_": "v0, v1"}
WIDE_SCALAR = {"s_andn2_b64", "s_orn2_b64"}


def _operands_for(name: str) -> str:
    if name in WIDE_SCALAR:
        return "s[0:1], s[2:3], s[4:5]"
    if name.startswith("s_") and ("ff1" in name or "flbit" in name):
        return "s0, s[2:3]" if name.endswith(("_b64", "_i64")) else "s0, s1"
    if name.startswith(("v_add_i", "v_sub_i", "v_add_u16", "v_sub_u16")):
        return "v0, v1, v2"
    if name.startswith(("v_subrev_u32", "v_cvt_pkrtz", "v_dot2c")):
        return "v0, v1, v2"
    if name.startswith(("v_subb", "v_addc")):
        return "v0, vcc, v1, v2, vcc"
    return next(ops for prefix, ops in OLD_OPERANDS.items() if name.startswith(prefix))


@pytest.mark.parametrize("isa,cpu", [("gfx9", "gfx90a"), ("gfx10.3", "gfx1030")])
def test_gfx9_and_gfx10_names_are_llvms_and_map_to_run_instructions(isa, cpu):
    from cass_cc.emu.alu import SCALAR_OPS, VECTOR_OPS
    names = sorted(RENAMED[isa])
    lines = [f"{n} {_operands_for(n)}" for n in names]
    proc = subprocess.run([toolchain.path("llvm-mc"), "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    assert "error" not in proc.stderr, proc.stderr
    printed = [l.split()[0] for l in proc.stdout.splitlines() if l.startswith("\t") and not l.startswith("\t.")]
    assert [p.removesuffix("_e32").removesuffix("_e64") for p in printed] == names
    assert [RENAMED[isa][n] for n in names if RENAMED[isa][n] not in {**VECTOR_OPS, **SCALAR_OPS}] == []


@pytest.mark.parametrize("old,new", [
    ("global_load_dword", "global_load_b32"), ("global_load_dwordx4", "global_load_b128"),
    ("flat_load_sshort", "flat_load_i16"), ("global_load_short_d16_hi", "global_load_d16_hi_b16"),
    ("global_load_ubyte_d16", "global_load_d16_u8"), ("global_store_byte", "global_store_b8"),
    ("global_store_short_d16_hi", "global_store_d16_hi_b16"), ("buffer_store_dwordx2", "buffer_store_b64"),
    ("flat_store_byte_d16_hi", "flat_store_d16_hi_b8"),
    ("scratch_load_dword", "scratch_load_b32"), ("global_atomic_smin_x2", "global_atomic_min_i64"),
    ("global_atomic_cmpswap", "global_atomic_cmpswap_b32"), ("flat_atomic_umax", "flat_atomic_max_u32"),
    ("ds_read2st64_b32", "ds_load_2addr_stride64_b32"), ("ds_write_b16_d16_hi", "ds_store_b16_d16_hi"),
    ("ds_read_u8_d16", "ds_load_u8_d16"), ("ds_wrxchg_rtn_b32", "ds_storexchg_rtn_b32"),
    ("ds_cmpst_rtn_b32", "ds_cmpstore_rtn_b32"),
])
def test_gfx9_memory_names(old, new):
    from cass_cc.emu.isa_names import gfx11_mnemonic
    assert gfx11_mnemonic(old, "gfx9") == new
    assert gfx11_mnemonic(old, "gfx10.3") == new
    assert gfx11_mnemonic(old, "gfx11") == old
