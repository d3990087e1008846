"""Tensor-core forms on the emulator with inputs whose sums are not exact in f32: mma.sync
m16n8k16 (f16 and bf16 inputs, f32 and f16 accumulators) and m16n8k32 s8, nvcc's SASS lifted and
run, each D element compared with the documented model (the exact sum of C and the products,
rounded once to nearest even), from sm_80 and sm_90 SASS. The realworld/wmma_gemm and sass/mma_shapes programs check the
layouts against the H200 with exactly representable data."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess

import numpy as np
import pytest

from .lifted import BUILDS

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNELS = r"""
#include <cuda_fp16.h>
// A 16x16 row-major, B 16x8 (B[k][n] at b[k*8+n]), C and D 16x8 row-major, one warp.
__device__ unsigned pair(const unsigned short *p, int stride)
{ return (unsigned)p[0] | (unsigned)p[stride] << 16; }

template <bool BF16>
__device__ void mma16816(const unsigned short *a, const unsigned short *b, const float *c, float *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned ar[4] = {pair(a + g * 16 + 2 * t, 1), pair(a + (g + 8) * 16 + 2 * t, 1),
                      pair(a + g * 16 + 2 * t + 8, 1), pair(a + (g + 8) * 16 + 2 * t + 8, 1)};
    unsigned br[2] = {pair(b + (2 * t) * 8 + g, 8), pair(b + (2 * t + 8) * 8 + g, 8)};
    float acc[4];
    for (int i = 0; i < 4; i++) acc[i] = c[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)];
    if (BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)] = acc[i];
}

extern "C" __global__ void mma_f16(const unsigned short *a, const unsigned short *b, const float *c, float *d)
{ mma16816<false>(a, b, c, d); }
extern "C" __global__ void mma_bf16(const unsigned short *a, const unsigned short *b, const float *c, float *d)
{ mma16816<true>(a, b, c, d); }

extern "C" __global__ void mma_f16_acc(const unsigned short *a, const unsigned short *b, const unsigned short *c,
                                       unsigned short *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned ar[4] = {pair(a + g * 16 + 2 * t, 1), pair(a + (g + 8) * 16 + 2 * t, 1),
                      pair(a + g * 16 + 2 * t + 8, 1), pair(a + (g + 8) * 16 + 2 * t + 8, 1)};
    unsigned br[2] = {pair(b + (2 * t) * 8 + g, 8), pair(b + (2 * t + 8) * 8 + g, 8)};
    unsigned cr[2] = {pair(c + g * 8 + 2 * t, 1), pair(c + (g + 8) * 8 + 2 * t, 1)};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(cr[0]), "+r"(cr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    d[g * 8 + 2 * t] = cr[0] & 0xffff; d[g * 8 + 2 * t + 1] = cr[0] >> 16;
    d[(g + 8) * 8 + 2 * t] = cr[1] & 0xffff; d[(g + 8) * 8 + 2 * t + 1] = cr[1] >> 16;
}
"""


@pytest.fixture(scope="module", params=BUILDS)
def code_object(request, tmp_path_factory):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    sm, offload_arch = request.param
    folder = tmp_path_factory.mktemp(f"mma_{sm}")
    (folder / "k.cu").write_text(KERNELS)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", f"-arch={sm}", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    objects = {}
    for unit in units_from_file(str(cubin), offload_arch):
        unit = run_pipeline(unit, LIFT_PIPELINE)
        assert unit.status == "ok", unit.reasons
        objects[unit.name] = unit.code_object
    return objects


def _run(code: bytes, name: str, inputs: list[np.ndarray], out: np.ndarray) -> np.ndarray:
    from cass_cc.emu import CodeObject, Memory, launch
    mem = Memory()
    co = CodeObject.load(code, mem)
    addrs = []
    for array in inputs + [out]:
        array = np.ascontiguousarray(array)
        addr = mem.allocate(max(array.nbytes, 4))
        ctypes.memmove(addr, array.ctypes.data, array.nbytes)
        addrs.append(addr)
    launch(co, name, grid=(1, 1, 1), block=(32, 1, 1), kernarg=struct.pack("<" + "Q" * len(addrs), *addrs), memory=mem)
    result = np.empty_like(out)
    ctypes.memmove(result.ctypes.data, addrs[-1], result.nbytes)
    return result


def _exact_product(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """C + A @ B summed exactly (16-bit products and these sums fit a double), as float64."""
    return c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)


def _bf16(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bf16 bits, their values) of float32 x, truncated (any bf16 value will do as input)."""
    bits = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def test_f16_inputs_f32_accumulators(code_object):
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 8)).astype(np.float16)
    c = rng.uniform(-1, 1, (16, 8)).astype(np.float32)
    got = _run(code_object["mma_f16"], "mma_f16", [a.view(np.uint16), b.view(np.uint16), c], np.zeros((16, 8), np.float32))
    assert np.array_equal(got, _exact_product(a, b, c).astype(np.float32))


def test_bf16_inputs(code_object):
    rng = np.random.default_rng(2)
    abits, a = _bf16(rng.uniform(-4, 4, (16, 16)))
    bbits, b = _bf16(rng.uniform(-4, 4, (16, 8)))
    c = rng.uniform(-1, 1, (16, 8)).astype(np.float32)
    got = _run(code_object["mma_bf16"], "mma_bf16", [abits, bbits, c], np.zeros((16, 8), np.float32))
    assert np.array_equal(got, _exact_product(a, b, c).astype(np.float32))


def test_f16_accumulators_round_once(code_object):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 8)).astype(np.float16)
    c = rng.uniform(-1, 1, (16, 8)).astype(np.float16)
    got = _run(code_object["mma_f16_acc"], "mma_f16_acc", [a.view(np.uint16), b.view(np.uint16), c.view(np.uint16)],
               np.zeros((16, 8), np.uint16))
    # float64 -> float16 in numpy rounds once to nearest even
    assert np.array_equal(got.view(np.float16), _exact_product(a, b, c).astype(np.float16))
