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
