"""Debug builds (nvcc -G) keep forms that optimised code never shows: the stack-limit check
(SR_LMEMHIOFF), movmatrix (MOVM.16.MT88) and .SAT integer MMA in wmma, isspacep.global (QSPC.E.G)
in cooperative_groups::memcpy_async, bf16 conversions with directed rounding, blockDim/gridDim read
through c[0x0][Rx], vabsdiff4's merge operand in a register. Every kernel of these programs,
built with -G, lifts."""

from __future__ import annotations

import shutil

import pytest

from .corpus import ROOT, lift_all

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

PROGRAMS = ["wmma_gemm", "half_math", "simd_intrinsics", "warp_collectives"]


def test_debug_builds_lift(tmp_path):
    import subprocess
    cubins = []
    for name in PROGRAMS:
        folder = ROOT / "tests" / "programs" / "realworld" / name
        out = tmp_path / f"{name}.cubin"
        subprocess.run(["nvcc", "-G", "-arch=sm_80", "-cubin", "-o", str(out), *map(str, sorted(folder.glob("*.cu")))],
                       check=True, capture_output=True)
        cubins.append(str(out))
    forms, lifted, failures = lift_all(cubins)
    assert failures == []
    assert {"MOVM.16.MT88", "IMMA.16816.S8.S8.SAT", "F2F.BF16.F32.RZ"} <= set(forms)
