"""Loads nvcc marks read-only (LDG.E.CONSTANT, PTX's ld.global.nc: `const __restrict__` and
__ldg) are invariant in the lifted IR: at a uniform address LLVM loads them on the scalar unit
(s_load), as hipcc does for the same source, even after a store LLVM cannot tell apart from them,
and their uniform users stay scalar (a vector load of a uniform value feeding scalar users needs
v_readfirstlane copies, whose fixing costs LLVM time growing with kernel size). A
read-only load at a per-thread address stays a vector load. Values checked on the emulator."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

from .lifted import run_one_block

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNELS = r"""
extern "C" __global__ void uniform_table(const int* __restrict__ table, const float* __restrict__ x,
                                         float* __restrict__ y)
{
    // every thread reads the same table words (a uniform address), after a store that LLVM
    // cannot tell apart from them but for their being read-only
    y[threadIdx.x] = 0.0f;
    #pragma unroll 1
    for (int i = 0; i < table[0]; ++i) {
        int a = table[2 * i + 1], b = table[2 * i + 2];
        y[threadIdx.x] += x[(threadIdx.x + a) & 63] * b;
    }
}
extern "C" __global__ void per_thread_table(const int* __restrict__ table, int* __restrict__ out)
{
    out[threadIdx.x] = __ldg(&table[threadIdx.x]) * 3;
}
"""


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    from cass_cc.pipeline import run_pipeline
    folder = tmp_path_factory.mktemp("readonly_loads")
    (folder / "k.cu").write_text(KERNELS)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    out = {}
    for unit in units_from_file(str(cubin)):
        unit = run_pipeline(unit, LIFT_PIPELINE)
        assert unit.status == "ok", unit.reasons
        out[unit.name] = (unit.sass_text, unit.asm, unit.code_object)
    return out


def _count(pattern: str, asm: str) -> int:
    return len(re.findall(pattern, asm, re.M))


def test_uniform_read_only_loads_are_scalar(lifted):
    sass, asm, code = lifted["uniform_table"]
    assert "LDG.E.CONSTANT" in sass
    # the loop's table pair: one s_load_b64 at offset 4 from the table, no vector load
    assert _count(r"^\s+s_load_b64 s\[\d+:\d+\], s\[\d+:\d+\], 0x4$", asm) == 1
    assert _count(r"^\s+global_load_b(?:64|128)\b", asm) == 0
    assert _count(r"^\s+global_load_b32\b", asm) == 1          # x[...], per thread
    table = np.array([3, 5, 3, 7, 11, 1, -2], np.int32)
    x = np.arange(64, dtype=np.float32) * 0.5
    y = np.full(64, np.nan, np.float32)
    _, _, got = run_one_block(code, "uniform_table", 64, [table, x, y])
    t = np.arange(64)
    want = np.zeros(64, np.float32)
    for a, b in table[1:].reshape(3, 2):
        want += x[(t + a) & 63] * np.float32(b)
    assert np.array_equal(got, want)


def test_per_thread_read_only_loads_stay_vector_loads(lifted):
    sass, asm, code = lifted["per_thread_table"]
    assert "LDG.E.CONSTANT" in sass
    assert _count(r"^\s+global_load_b32\b", asm) == 1
    table = np.arange(32, dtype=np.int32) - 9
    out = np.zeros(32, np.int32)
    _, got = run_one_block(code, "per_thread_table", 32, [table, out])
    assert np.array_equal(got, table * 3)
