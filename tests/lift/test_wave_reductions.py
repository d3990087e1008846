"""REDUX (__reduce_*_sync, and nvcc's warp-aggregated atomics) becomes a DPP butterfly in
whole-wave mode, not a loop of lane reads: the codegen of an nvcc-built kernel is counted, and the
emulator gives every reduction's exact value over the active lanes of partly active warps."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNEL = r"""
extern "C" __global__ void reductions(unsigned *out, const unsigned *in)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, v = in[t];
    if (v % 3 != 0) {                       // a different set of active lanes in every warp
        unsigned m = __activemask();
        unsigned *o = out + 8 * t;
        o[0] = __reduce_add_sync(m, v);
        o[1] = __reduce_min_sync(m, v);
        o[2] = __reduce_max_sync(m, v);
        o[3] = (unsigned)__reduce_min_sync(m, (int)v);
        o[4] = (unsigned)__reduce_max_sync(m, (int)v);
        o[5] = __reduce_and_sync(m, v);
        o[6] = __reduce_or_sync(m, v);
        o[7] = __reduce_xor_sync(m, v);
    }
}
"""


@pytest.fixture(scope="module", params=["gfx1100", "gfx942"])
def lifted(request, tmp_path_factory):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("wave_reductions")
    (folder / "k.cu").write_text(KERNEL)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    (unit,) = [run_pipeline(u, LIFT_PIPELINE) for u in units_from_file(str(cubin), request.param)]
    assert unit.status == "ok", unit.reasons
    return unit


def test_reductions_are_dpp_butterflies(lifted):
    """wave32: row_xmask steps and a permlanex16 a reduction; wave64 (two warps a wave): quad_perm,
    row_half_mirror and row_mirror steps and a ds_swizzle (xor 16, within each half) a reduction,
    no lane read at all (a readlane would take one lane for both warps)."""
    asm = lifted.asm
    assert "REDUX" in lifted.sass_text
    assert len(re.findall(r"^\s+v_readlane_b32", asm, re.M)) == 0, "a loop of lane reads"
    if lifted.offload_arch == "gfx1100":
        assert len(re.findall(r"^\s+v_permlanex16_b32", asm, re.M)) == 8
        assert 0 < len(re.findall(r"row_xmask:", asm)) <= 8 * 4     # at most 4 steps a reduction
        return
    assert len(re.findall(r"^\s+v_readfirstlane_b32", asm, re.M)) == 0
    assert len(re.findall(r"^\s+ds_swizzle_b32 .*swizzle\(SWAP,16\)", asm, re.M)) == 8
    assert 0 < len(re.findall(r"row_(half_)?mirror|quad_perm:", asm)) <= 8 * 4


def test_reductions_over_the_active_lanes(lifted):
    from cass_cc.emu import CodeObject, Memory, launch
    import ctypes
    threads = 128
    rng = np.random.default_rng(14)
    v = rng.integers(0, 2**32, threads, dtype=np.uint64).astype(np.uint32)
    v[::5] |= 0x80000000                     # negative as int
    mem = Memory()
    co = CodeObject.load(lifted.code_object, mem)
    pin, pout = mem.allocate(v.nbytes), mem.allocate(threads * 8 * 4)
    ctypes.memmove(pin, v.ctypes.data, v.nbytes)
    ctypes.memset(pout, 0, threads * 8 * 4)
    launch(co, "reductions", grid=(2, 1, 1), block=(64, 1, 1), kernarg=struct.pack("<QQ", pout, pin), memory=mem)
    out = np.empty((threads, 8), np.uint32)
    ctypes.memmove(out.ctypes.data, pout, out.nbytes)
    for warp in range(threads // 32):
        lanes = v[32 * warp:32 * warp + 32]
        active = lanes[lanes % 3 != 0]
        signed = active.view(np.int32)
        expect = [int(active.astype(np.uint64).sum() % 2**32), int(active.min()), int(active.max()),
                  int(signed.min()) & 0xFFFFFFFF, int(signed.max()) & 0xFFFFFFFF,
                  int(np.bitwise_and.reduce(active)), int(np.bitwise_or.reduce(active)),
                  int(np.bitwise_xor.reduce(active))]
        for lane in range(32):
            t = 32 * warp + lane
            assert out[t].tolist() == (expect if v[t] % 3 != 0 else [0] * 8), (warp, lane)
