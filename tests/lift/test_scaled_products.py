"""FMUL with a result scale (.D2/.D4/.D8, .M4/.M8): ptxas folds a float product times 0.5f, 0.25f,
0.125f, 4.0f or 8.0f into one instruction (found in the book "CUDA Programming" by Fan Zheyong,
whose molecular dynamics computes `(vx*vx + vy*vy + vz*vz) * mass * 0.5`). PTX rounds the product,
then multiplies by the power of two, which rounds again only for denormal or overflowing results:
the inputs below reach both, and the reference is numpy's two float32 multiplies (flushed for .FTZ)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests.lift.lifted import code_objects
from tests.lift.test_loose_ends import Device

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SCALES = {"D2": 0.5, "D4": 0.25, "D8": 0.125, "M4": 4.0, "M8": 8.0}

SOURCE = "".join(
    f"""
extern "C" __global__ void scale_{name}(const float *a, const float *b, float *o)
{{ int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = (a[i] * b[i]) * {value!r}f; }}
extern "C" __global__ void scale_ftz_{name}(const float *a, const float *b, float *o)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float p, r;
    asm("mul.ftz.f32 %0, %1, %2;" : "=f"(p) : "f"(a[i]), "f"(b[i]));
    asm("mul.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(p), "f"({value!r}f));
    o[i] = r;
}}
""" for name, value in SCALES.items())


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def lifted(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("scaled_products")
    source = folder / "scaled_products.cu"
    source.write_text(SOURCE)
    # each kernel must really hold the folded form (the edit is the identity; it asserts a match)
    edits = {f"scale_{n}": [(rf"FMUL\.{n} ", f"FMUL.{n} ")] for n in SCALES}
    edits |= {f"scale_ftz_{n}": [(rf"FMUL\.FTZ\.{n} ", f"FMUL.FTZ.{n} ")] for n in SCALES}
    return code_objects(source, request.param, folder, edits)


def _operands() -> tuple[np.ndarray, np.ndarray]:
    """Random products of every magnitude, then products whose scaled value is denormal (ties
    included: a normal product with its last bit set, halved), overflows before or after scaling,
    and NaN, infinities and signed zeros."""
    rng = np.random.default_rng(11)
    n = 512
    a = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-70, 70, n)).astype(np.float32)
    b = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-70, 70, n)).astype(np.float32)
    a *= np.where(rng.integers(0, 2, n) == 1, -1, 1).astype(np.float32)
    tiny = np.float32(2.0 ** -126)
    special_a = [np.float32(1 + 2.0 ** -23) * tiny, np.float32(1 + 3 * 2.0 ** -23) * tiny, tiny,
                 np.float32(3.0) * tiny, np.float32(1.75), np.float32(3e38), np.float32(3e38), np.nan,
                 np.inf, -np.inf, 0.0, -0.0, np.float32(1.0000001), np.float32(5e-39)]
    special_b = [np.float32(1.0), np.float32(1.0), np.float32(0.75), np.float32(1.0 / 3.0),
                 np.float32(1e-38), np.float32(2.0), np.float32(0.9), np.float32(1.0),
                 np.float32(0.0), np.float32(2.0), np.float32(-3.0), np.float32(5.0),
                 np.float32(1.0000001) * tiny, np.float32(1.0)]
    k = len(special_a)
    a[:k], b[:k] = special_a, special_b
    return a, b


def _flush(x: np.ndarray) -> np.ndarray:
    bits = x.view(np.uint32)
    return np.where(bits & 0x7F800000 == 0, bits & 0x80000000, bits).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("ftz", [False, True], ids=["ieee", "ftz"])
@pytest.mark.parametrize("name", list(SCALES))
def test_scaled_product(lifted, name, ftz):
    dev = Device(lifted[f"scale_{'ftz_' if ftz else ''}{name}"])
    a, b = _operands()
    out = np.zeros_like(a)
    pointers = [dev.put(x) for x in (a, b, out)]
    dev.run((len(a) // 128, 1, 1), (128, 1, 1), *pointers)
    got = dev.get(pointers[-1], out)
    with np.errstate(all="ignore"):
        if ftz:
            want = _flush(_flush(_flush(a) * _flush(b)) * np.float32(SCALES[name]))
        else:
            want = (a * b) * np.float32(SCALES[name])
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), [(float(x), float(y), hex(g), hex(w)) for x, y, g, w, s in
                        zip(a, b, got.view(np.uint32), want.view(np.uint32), same) if not s][:5]
