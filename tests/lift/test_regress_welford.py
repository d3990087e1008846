"""Regression: a CALL.REL subroutine (the double-division slow path) called from inside a loop and
from after it. One shared lifted body made the CFG irreducible and the waves spun forever on the
emulator (bench/stats/welford_double); each call site now gets its own copy of the subroutine."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SOURCE = r"""
__global__ void running_mean(const double *x, int len, double *out)
{
    double m = 0, n = 0;
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
        n += 1;
        m += (x[i] - m) / n;
    }
    if (threadIdx.x < 16)
        m = m / x[threadIdx.x + 1];
    out[threadIdx.x] = m;
}
"""


def test_division_subroutine_called_in_and_after_a_loop(tmp_path, monkeypatch):
    from cass_cc.emu import CodeObject, Memory, launch
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    (tmp_path / "k.cu").write_text(SOURCE)
    cubin = tmp_path / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(tmp_path / "k.cu")], check=True)
    [unit] = [run_pipeline(u, LIFT_PIPELINE) for u in units_from_file(str(cubin))]
    assert unit.status == "ok", unit.reasons
    mem = Memory()
    co = CodeObject.load(unit.code_object, mem)
    n, threads = 100, 64
    x = np.linspace(1.0, 3.0, n)
    px, po = mem.allocate(x.nbytes), mem.allocate(threads * 8)
    ctypes.memmove(px, x.ctypes.data, x.nbytes)
    monkeypatch.setenv("CASS_EMU_MAX_INSTRUCTIONS", "200000")   # a spinning wave fails fast
    launch(co, unit.name, grid=(1, 1, 1), block=(threads, 1, 1), kernarg=struct.pack("<QiiQ", px, n, 0, po),
           memory=mem)
    out = np.empty(threads)
    ctypes.memmove(out.ctypes.data, po, out.nbytes)
    want = []
    for t in range(threads):
        m = c = 0.0
        for i in range(t, n, threads):
            c += 1
            m += (x[i] - m) / c
        want.append(m / x[t + 1] if t < 16 else m)
    assert out.tolist() == want
