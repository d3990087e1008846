"""__syncthreads_count/_and/_or (BAR.RED.POPC/AND/OR) reduce each warp with a ballot and one
atomic per warp, not an atomic per lane (which LLVM lowered to a v_readlane loop over the lanes):
the codegen is counted and the emulator checks the block's results."""

from __future__ import annotations

import ctypes
import re
import shutil
import struct

import numpy as np
import pytest

from .lifted import lifted_unit

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNEL = r"""
extern "C" __global__ void votes(const int *in, int *o)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int c = __syncthreads_count(v > 5);
    int a = __syncthreads_and(v >= 0);
    int r = __syncthreads_or(v == 7);
    o[(blockIdx.x * blockDim.x + threadIdx.x) * 3] = c;
    o[(blockIdx.x * blockDim.x + threadIdx.x) * 3 + 1] = a;
    o[(blockIdx.x * blockDim.x + threadIdx.x) * 3 + 2] = r;
}
"""


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return lifted_unit(KERNEL, tmp_path_factory.mktemp("barrier_reductions"))


def test_one_atomic_per_warp_and_no_lane_loop(lifted):
    for op in ("POPC", "AND", "OR"):
        assert f"BAR.RED.{op}" in lifted.sass_text
    assert not re.findall(r"^\s+v_readlane_b32", lifted.asm, re.M), "a loop over the lanes"
    for atomic in ("ds_add_u32", "ds_and_b32", "ds_or_b32"):
        assert len(re.findall(rf"^\s+{atomic}\b", lifted.asm, re.M)) == 1, atomic


@pytest.mark.parametrize("threads", [64, 96])
def test_block_results_are_exact(lifted, threads):
    from cass_cc.emu import CodeObject, Memory, launch
    blocks = 2
    n = blocks * threads
    values = np.array([(i * 5) % 11 - (i == 100) for i in range(n)], np.int32)
    mem = Memory()
    co = CodeObject.load(lifted.code_object, mem)
    pi, po = mem.allocate(values.nbytes), mem.allocate(3 * n * 4)
    ctypes.memmove(pi, values.ctypes.data, values.nbytes)
    launch(co, "votes", grid=(blocks, 1, 1), block=(threads, 1, 1), kernarg=struct.pack("<QQ", pi, po), memory=mem)
    out = np.empty(3 * n, np.int32)
    ctypes.memmove(out.ctypes.data, po, out.nbytes)
    for b in range(blocks):
        v = values[b * threads:(b + 1) * threads]
        want = [int((v > 5).sum()), int((v >= 0).all()), int((v == 7).any())]
        got = out[3 * b * threads:3 * (b + 1) * threads].reshape(threads, 3)
        assert (got[:, 0] == want[0]).all(), (b, got[:, 0], want)
        assert ((got[:, 1] != 0) == bool(want[1])).all(), b
        assert ((got[:, 2] != 0) == bool(want[2])).all(), b
