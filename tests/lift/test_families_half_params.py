"""Packed half and bfloat16 arithmetic whose operand is a kernel parameter read with a lane
selection: nvcc broadcasts a `__half` parameter as `c[0x0][0x160].H0_H0` (the word's high half is
padding) and picks a `__half2` parameter's halves with `.H1_H1`/`.H0_H0` on the constant word. The
lifter used to drop the selection on constant operands, so the high lane of NVIDIA's blog sample
haxpy (`__hfma2(__halves2half2(a, a), x, y)`) computed `0 * x + y`. Run on the emulator and compared
with the exact results (the inputs are small multiples of 1/4, so every result is exact in half)."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

N = 32
KERNEL = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void hparams(__half a, __half2 p, __nv_bfloat16 c, const __half2 *x, const __half2 *y,
                                   const __nv_bfloat162 *u, __half2 *out, __nv_bfloat162 *bout)
{
    int i = threadIdx.x;
    out[4 * i + 0] = __hfma2(__halves2half2(a, a), x[i], y[i]);
    out[4 * i + 1] = __hmul2(x[i], __high2half2(p));
    out[4 * i + 2] = __hadd2(__low2half2(p), y[i]);
    out[4 * i + 3] = __hsub2(x[i], __lowhigh2highlow(p));
    bout[i] = __hfma2(__bfloat162bfloat162(c), u[i], u[i]);
}
extern "C" __global__ void hconvert(__half2 p, __half q, double *out, long long *iout)
{
    out[0] = (double)__high2float(p) + threadIdx.x;
    out[1] = (double)(float)q;
    out[2] = -(double)(float)p.y;
    iout[0] = __half2ll_rn(p.y);
    iout[1] = __half2int_rz(q);
}
"""


@pytest.fixture(scope="module")
def code_object(tmp_path_factory):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("half_params")
    (folder / "k.cu").write_text(KERNEL)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    units = {u.name: run_pipeline(u, LIFT_PIPELINE) for u in units_from_file(str(cubin))}
    assert all(u.status == "ok" for u in units.values()), {n: u.reasons for n, u in units.items()}
    # the forms this test is about: lane selections on constant words, halves converted from them
    text = units["hparams"].sass_text
    assert "c[0x0] [0x160].H0_H0" in text and ".H1_H1" in text, text
    assert "F2I.F16" in units["hconvert"].sass_text, units["hconvert"].sass_text
    return {n: u.code_object for n, u in units.items()}


def _bf16(values: np.ndarray) -> np.ndarray:
    """float32 values that bf16 holds exactly -> their bf16 bits."""
    return (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def test_half_parameter_lanes(code_object):
    from cass_cc.emu import CodeObject, Memory, launch
    rng = np.random.default_rng(11)
    x = (rng.integers(-40, 40, 2 * N) / 4).astype(np.float16)
    y = (rng.integers(-40, 40, 2 * N) / 4).astype(np.float16)
    u = (rng.integers(-40, 40, 2 * N) / 4).astype(np.float32)
    a, p_lo, p_hi, c = np.float16(2.0), np.float16(-0.75), np.float16(3.0), np.float32(-1.5)
    mem = Memory()
    co = CodeObject.load(code_object["hparams"], mem)
    addrs = []
    for array in (x, y, _bf16(u), np.zeros(8 * N, np.float16), np.zeros(2 * N, np.uint16)):
        addr = mem.allocate(array.nbytes)
        ctypes.memmove(addr, array.ctypes.data, array.nbytes)
        addrs.append(addr)
    bits = lambda h: int(np.float16(h).view(np.uint16))
    # a in 0x160 (half, padded to 4), p at 0x164, c at 0x168 (bf16, padded), pointers from 0x170
    kernarg = struct.pack("<HHHHHH", bits(a), 0, bits(p_lo), bits(p_hi), int(_bf16(np.array([c]))[0]), 0)
    kernarg += b"\0" * 4 + struct.pack("<5Q", *addrs)
    launch(co, "hparams", grid=(1, 1, 1), block=(N, 1, 1), kernarg=kernarg, memory=mem)
    out = np.empty(8 * N, np.float16)
    ctypes.memmove(out.ctypes.data, addrs[3], out.nbytes)
    bout = np.empty(2 * N, np.uint16)
    ctypes.memmove(bout.ctypes.data, addrs[4], bout.nbytes)
    got = out.reshape(N, 4, 2).astype(np.float64)
    xs, ys = x.reshape(N, 2).astype(np.float64), y.reshape(N, 2).astype(np.float64)
    np.testing.assert_array_equal(got[:, 0], float(a) * xs + ys)
    np.testing.assert_array_equal(got[:, 1], xs * float(p_hi))
    np.testing.assert_array_equal(got[:, 2], float(p_lo) + ys)
    np.testing.assert_array_equal(got[:, 3], xs - np.array([float(p_hi), float(p_lo)]))
    want_b = _bf16((float(c) * u.astype(np.float64) + u).astype(np.float32))
    np.testing.assert_array_equal(bout, want_b)


def test_half_parameter_conversions(code_object):
    """F2I.F16 and HADD2.F32 straight from a parameter's constant word (low and high halves)."""
    from cass_cc.emu import CodeObject, Memory, launch
    mem = Memory()
    co = CodeObject.load(code_object["hconvert"], mem)
    out, iout = mem.allocate(3 * 8), mem.allocate(2 * 8)
    bits = lambda h: int(np.float16(h).view(np.uint16))
    # p = (lo, hi) at 0x160, q at 0x164 (padded), pointers from 0x168
    kernarg = struct.pack("<HHHH2Q", bits(-7.25), bits(5.5), bits(-9.75), 0, out, iout)
    launch(co, "hconvert", grid=(1, 1, 1), block=(1, 1, 1), kernarg=kernarg, memory=mem)
    got = np.empty(3, np.float64)
    ctypes.memmove(got.ctypes.data, out, got.nbytes)
    ints = np.empty(2, np.int64)
    ctypes.memmove(ints.ctypes.data, iout, ints.nbytes)
    assert got.tolist() == [5.5, -9.75, -5.5]
    assert ints.tolist() == [6, -9]     # 5.5 to nearest even; -9.75 toward zero
