"""A representative subset of the benchmark programs on every target besides gfx1100, built by
cass-nvcc's default route for that target alone and run under cass-run (which emulates the
target of the program's code object): each prints exactly what it printed on the H200. The
whole set runs per target through `cass-cc bench --offload-arch` (docs/targets.md)."""

from __future__ import annotations

import re
import subprocess

import pytest
from binroute import ROOT, cass_nvcc, cass_run, program_flags, program_sources

from cass_cc import toolchain

pytestmark = pytest.mark.slow  # builds and emulates whole programs

TARGETS = ["gfx942", "gfx90a", "gfx1201", "gfx1030"]
# warp votes and atomics, warp shuffles, half math (gfx12: scalar f16), doubles
PROGRAMS = ["primitives/compact_ballot", "linalg/gemv_warp", "ml/layernorm_gelu_half", "stats/welford_double"]


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize("arch", TARGETS)
def test_program_prints_the_h200s_output(arch, program, build_root):
    folder = ROOT / "tests" / "programs" / "bench" / program
    out = build_root / f"default-{arch}" / program
    out.mkdir(parents=True)
    exe = out / "prog"
    built = cass_nvcc(f"--cass-offload-arch={arch}", "-O2", *program_flags(folder), *program_sources(folder),
                      "-o", exe, cwd=out)
    assert built.returncode == 0, built.stderr
    listing = subprocess.run([toolchain.path("llvm-objdump"), "--offloading", str(exe)], cwd=out,
                             capture_output=True, text=True, check=True).stdout
    assert re.findall(r"amdgcn-amd-amdhsa--(gfx\w+)", listing) == [arch]
    run = cass_run(exe)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == (folder / "reference.txt").read_text()
