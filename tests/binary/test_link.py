"""The code object of a translation unit: every translated kernel in one ELF with one metadata
note listing them all (loaders read the first note only)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.passes.link import link_translation_unit
from cass_cc.rdna3 import CodeObject

SOURCE = """
namespace { __global__ void first(int *x) { x[threadIdx.x] = threadIdx.x; } }
__device__ int bias;
__global__ void second(int *x) { x[threadIdx.x] += bias; }
template <typename T> __global__ void third(T *x) { x[threadIdx.x] *= 2; }
template __global__ void third<float>(float *);
"""


@pytest.fixture(scope="module")
def units(tmp_path_factory):
    from cass_cc.passes import units_from_file
    from cass_cc.translation import translate_unit

    out = tmp_path_factory.mktemp("tu")
    (out / "k.cu").write_text(SOURCE)
    subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", str(out / "k.cu"), "-o", str(out / "k.o")], check=True)
    translated = [translate_unit(u) for u in units_from_file(str(out / "k.o"))]
    assert all(u.status == "ok" for u in translated), [u.reasons for u in translated]
    return translated


def test_one_note_lists_every_kernel(units):
    code = CodeObject(link_translation_unit(units))
    assert len(code.notes) == 1
    assert sorted(code.kernels) == sorted(u.name for u in units)
    assert all(k.descriptor is not None for k in code.kernels.values()) and "bias" in code.globals
