"""Regression: `1.0f / sqrtf(d2)` in a loop nvcc unrolls by 4 (the nbody kernel of
realworld/vector_math). Each unrolled step calls the sqrt and rcp slow-path subroutines, and nvcc
leaves the unrolled loop with `@!P0 CALL.REL.NOINC `(.L_x_1)`: a "call" to a block label of the
kernel that never returns. One shared lifted subroutine body made the CFG irreducible and only the
first unrolled trip counted; copying the subroutines per call site then took the loop exit for a
subroutine call (a copy of kernel code that was never lifted). The loop exit is a branch."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SOURCE = r"""
__global__ void accel(const float4 *__restrict__ pos, float4 *__restrict__ out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    float4 bi = __ldg(&pos[i]);
    float4 a = make_float4(0, 0, 0, 0);
    for (int j = 0; j < n; ++j) {
        float4 bj = __ldg(&pos[j]);
        float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
        float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
        float inv = 1.0f / sqrtf(d2);
        float s = bj.w * inv * inv * inv;
        a.x += s * dx; a.y += s * dy; a.z += s * dz; a.w += bj.w;
    }
    out[i] = a;
}
"""


def test_unrolled_loop_calling_sqrt_and_rcp_subroutines(tmp_path, monkeypatch):
    from cass_cc.emu import CodeObject, Memory, launch
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    (tmp_path / "k.cu").write_text(SOURCE)
    cubin = tmp_path / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-O2", "-cubin", "-o", str(cubin), str(tmp_path / "k.cu")], check=True)
    [unit] = [run_pipeline(u, LIFT_PIPELINE) for u in units_from_file(str(cubin))]
    assert unit.status == "ok", unit.reasons
    assert "CALL.REL.NOINC `(.L_x_" in unit.sass_text      # the loop exit this test is about
    mem = Memory()
    co = CodeObject.load(unit.code_object, mem)
    n = 11                                          # two unrolled trips and a remainder of 3
    i = np.arange(n, dtype=np.float32)
    pos = np.stack([i * 0.5, i % 3, (i % 2) * 0.25, 1 + i], axis=1).astype(np.float32)
    pp, po = mem.allocate(pos.nbytes), mem.allocate(pos.nbytes)
    ctypes.memmove(pp, pos.ctypes.data, pos.nbytes)
    monkeypatch.setenv("CASS_EMU_MAX_INSTRUCTIONS", "400000")   # a spinning wave fails fast
    launch(co, unit.name, grid=(1, 1, 1), block=(32, 1, 1), kernarg=struct.pack("<QQi", pp, po, n), memory=mem)
    out = np.empty_like(pos)
    ctypes.memmove(out.ctypes.data, po, out.nbytes)
    d = (pos[None, :, :3] - pos[:, None, :3]).astype(np.float64)
    inv = 1 / np.sqrt((d * d).sum(axis=2) + 0.01)
    s = pos[None, :, 3] * inv ** 3
    want = np.concatenate([(s[:, :, None] * d).sum(axis=1), np.broadcast_to(pos[:, 3].sum(), (n, 1))], axis=1)
    assert out[:, 3].tolist() == want[:, 3].tolist()
    assert np.allclose(out[:, :3], want[:, :3], rtol=1e-4, atol=1e-4)
