"""Atomics real code uses, from sm_90 SASS on the emulator: atomicAdd on float2/float4 (REDG/ATOMG
.F32x2/.F32x4, one atomic per element, old values returned), on __half2 and __nv_bfloat162
(a compare-and-swap loop), and generic atomics whose "done" predicate skips nvcc's slow path."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from .lifted import run_one_block

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNELS = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void vector_adds(float2 *f2, float4 *f4, float4 *olds, const float *in)
{
    float v = in[threadIdx.x];
    atomicAdd(f2, make_float2(v, 2.0f * v));
    olds[threadIdx.x] = atomicAdd(f4, make_float4(v, 1.0f, -v, 0.5f));
}
extern "C" __global__ void pair_adds(__half2 *h, __nv_bfloat162 *b, const float *in)
{
    float v = in[threadIdx.x];
    atomicAdd(h, __floats2half2_rn(v, 1.0f));
    atomicAdd(b, __floats2bfloat162_rn(2.0f * v, -1.0f));
}
"""


@pytest.fixture(scope="module")
def code_objects(tmp_path_factory):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("atomics")
    (folder / "k.cu").write_text(KERNELS)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    objects = {}
    for unit in units_from_file(str(cubin)):
        unit = run_pipeline(unit, LIFT_PIPELINE)
        assert unit.status == "ok", unit.reasons
        objects[unit.name] = unit.code_object
    return objects




def test_float2_float4_adds(code_objects):
    threads = 64
    values = (np.arange(threads, dtype=np.float32) - 20) * 0.25      # every partial sum exact
    f2, f4, olds, _ = run_one_block(code_objects["vector_adds"], "vector_adds", threads,
                           [np.zeros(2, np.float32), np.zeros(4, np.float32), np.zeros((threads, 4), np.float32), values])
    total = values.sum()
    assert f2.tolist() == [total, 2 * total]
    assert f4.tolist() == [total, threads, -total, 0.5 * threads]
    # each thread saw the sums of the threads before it, in some order: the old values of the
    # constant element are exactly 0, 1, ..., threads - 1
    assert sorted(olds[:, 1].tolist()) == list(range(threads))


def test_half2_bf162_adds(code_objects):
    threads = 32
    values = (np.arange(threads) % 4 * 0.5).astype(np.float32)     # bf16 partial sums stay exact
    h, b, _ = run_one_block(code_objects["pair_adds"], "pair_adds", threads,
                   [np.zeros(2, np.float16), np.zeros(2, np.uint16), values])
    assert h.tolist() == [values.sum(), threads]
    as_float = (b.astype(np.uint32) << 16).view(np.float32)
    assert as_float.tolist() == [2 * values.sum(), -threads]
