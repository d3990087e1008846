"""sm_90's DPX instructions on the emulator: VIMNMX/VIMNMX3/VIADDMNMX on 32-bit and 16-bit lanes,
with .RELU, and the lanes-kept predicates of __vibmax_s16x2, from sm_90 SASS compared with the
CUDA Math API definitions of the intrinsics (computed here in Python)."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

OUTS = 12
KERNEL = r"""
extern "C" __global__ void dpx(const int *a, const int *b, const int *c, int *out)
{
    int i = threadIdx.x, x = a[i], y = b[i], z = c[i];
    int *r = out + i * %d;
    bool hi, lo;
    r[0] = __vimax3_s32(x, y, z);
    r[1] = (int)__vimin3_u32(x, y, z);
    r[2] = __viaddmax_s32(x, y, z);
    r[3] = __viaddmin_s32_relu(x, y, z);
    r[4] = (int)__vimax3_s16x2_relu(x, y, z);
    r[5] = (int)__vimin_s16x2_relu(x, y);
    r[6] = (int)__viaddmax_s16x2(x, y, z);
    r[7] = (int)__viaddmin_u16x2(x, y, z);
    r[8] = (int)__vimin3_s16x2(x, y, z);
    r[9] = (int)__vibmax_s16x2(x, y, &hi, &lo);
    r[10] = hi * 2 + lo;
    r[11] = __vimax_s32_relu(x, y);
}
""" % OUTS


def _lanes(v: int, signed: bool) -> list[int]:
    out = []
    for shift in (0, 16):
        h = (v >> shift) & 0xFFFF
        out.append(h - 0x10000 if signed and h & 0x8000 else h)
    return out


def _pack(lanes: list[int]) -> int:
    return (lanes[0] & 0xFFFF) | (lanes[1] & 0xFFFF) << 16


def _s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _model(x: int, y: int, z: int) -> list[int]:
    u = lambda v: v & 0xFFFFFFFF
    relu = lambda v: max(v, 0)
    sx, sy, sz = _lanes(x, True), _lanes(y, True), _lanes(z, True)
    ux, uy, uz = _lanes(x, False), _lanes(y, False), _lanes(z, False)
    wrap16 = lambda v: (v + 0x8000) % 0x10000 - 0x8000
    return [
        max(x, y, z),
        _s32(min(u(x), u(y), u(z))),
        max(_s32(x + y), z),
        relu(min(_s32(x + y), z)),
        _s32(_pack([relu(max(sx[k], sy[k], sz[k])) for k in range(2)])),
        _s32(_pack([relu(min(sx[k], sy[k])) for k in range(2)])),
        _s32(_pack([max(wrap16(sx[k] + sy[k]), sz[k]) for k in range(2)])),
        _s32(_pack([min((ux[k] + uy[k]) & 0xFFFF, uz[k]) for k in range(2)])),
        _s32(_pack([min(sx[k], sy[k], sz[k]) for k in range(2)])),
        _s32(_pack([max(sx[k], sy[k]) for k in range(2)])),
        int(sx[1] >= sy[1]) * 2 + int(sx[0] >= sy[0]),
        relu(max(x, y)),
    ]


@pytest.fixture(scope="module")
def code_object(tmp_path_factory):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("dpx")
    (folder / "k.cu").write_text(KERNEL)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    unit = run_pipeline(units_from_file(str(cubin))[0], LIFT_PIPELINE)
    assert unit.status == "ok", unit.reasons
    forms = {i.full_opcode for i in unit.instructions}
    assert {"VIADDMNMX.S16x2", "VIMNMX3.S16x2.RELU", "VIMNMX.S16x2"} <= forms, forms
    return unit.code_object


def test_dpx_intrinsics(code_object):
    from cass_cc.emu import CodeObject, Memory, launch
    rng = np.random.default_rng(7)
    n = 64
    a, b, c = (rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32) for _ in range(3))
    b[:8] = a[:8]                                   # ties: the predicates keep a
    c[8:16] = rng.integers(-300, 300, 8).astype(np.int32)
    mem = Memory()
    co = CodeObject.load(code_object, mem)
    addrs = []
    for array in (a, b, c, np.zeros(n * OUTS, np.int32)):
        addr = mem.allocate(array.nbytes)
        ctypes.memmove(addr, array.ctypes.data, array.nbytes)
        addrs.append(addr)
    launch(co, "dpx", grid=(1, 1, 1), block=(n, 1, 1), kernarg=struct.pack("<4Q", *addrs), memory=mem)
    out = np.empty(n * OUTS, np.int32)
    ctypes.memmove(out.ctypes.data, addrs[3], out.nbytes)
    got = out.reshape(n, OUTS).tolist()
    for i in range(n):
        assert got[i] == _model(int(a[i]), int(b[i]), int(c[i])), i
