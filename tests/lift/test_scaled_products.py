"""FMUL with a result scale (.D2/.D4/.D8, .M4/.M8): ptxas folds a float product times 0.5f, 0.25f,
0.125f, 4.0f or 8.0f into one instruction (found in the book "CUDA Programming" by Fan Zheyong,
whose molecular dynamics computes `(vx*vx + vy*vy + vz*vz) * mass * 0.5`). The H200 rounds the
exact scaled product once (a probe of 2550 products, 2026-12-02): a denormal result is rounded once,
a product that overflows float before a /2..8 scale comes out finite, and .FTZ flushes denormal
inputs and results around that rounding; a NaN result is the canonical 0x7fffffff. The reference
is that model in numpy, and some of the H200's own results are carried as bits (H200_ROWS)."""

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
    and NaN, infinities and signed zeros (the H200's rows go at the end)."""
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


# a, b, then the H200's (a * b) * 0.5f, 0.25f, 0.125f, 4.0f, 8.0f (probe of 2026-12-02, sm_90): denormal
# products and results, products past the largest float, denormals times tiny scales
H200_ROWS = {
    False: ["00800002 3eaaaaab 00155556 000aaaab 00055555 00aaaaae 012aaaae",
            "00800007 3f400000 00300003 00180001 000c0001 0140000a 01c0000a",
            "0080000a 3f400000 00300004 00180002 000c0001 0140000f 01c0000f",
            "7f61b1e6 3e19999a 7d876abe 7d076abe 7c876abe 7f076abe 7f800000",
            "7f61b1e6 3faccccd 7f185815 7e985815 7e185815 7f800000 7f800000",
            "71800000 4d040000 7e840000 7e040000 7d840000 7f800000 7f800000",
            "1a000020 1ca66666 0000000a 00000005 00000003 00000053 000000a6",
            "1a000070 1ba66666 00000003 00000001 00000001 00000015 0000002a",
            "00000200 3a800000 00000000 00000000 00000000 00000002 00000004"],
    True: ["00800002 3eaaaaab 00000000 00000000 00000000 00aaaaae 012aaaae",
           "0080000a 3f400000 00000000 00000000 00000000 0140000f 01c0000f",
           "71800000 4d040000 7e840000 7e040000 7d840000 7f800000 7f800000",
           "1a000020 1ca66666 00000000 00000000 00000000 00000000 00000000",
           "00000200 3a800000 00000000 00000000 00000000 00000000 00000000"],
}


def _h200(ftz: bool, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [[int(word, 16) for word in row.split()] for row in H200_ROWS[ftz]]
    column = 2 + list(SCALES).index(name)
    a, b, r = (np.array([row[i] for row in rows], np.uint32).view(np.float32) for i in (0, 1, column))
    return a, b, r


def _flush(x: np.ndarray) -> np.ndarray:
    bits = x.view(np.uint32)
    return np.where(bits & 0x7F800000 == 0, bits & 0x80000000, bits).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("ftz", [False, True], ids=["ieee", "ftz"])
@pytest.mark.parametrize("name", list(SCALES))
def test_scaled_product(lifted, name, ftz):
    dev = Device(lifted[f"scale_{'ftz_' if ftz else ''}{name}"])
    a, b = _operands()
    ha, hb, h200 = _h200(ftz, name)
    k = len(ha)
    a[-k:], b[-k:] = ha, hb
    out = np.zeros_like(a)
    pointers = [dev.put(x) for x in (a, b, out)]
    dev.run((len(a) // 128, 1, 1), (128, 1, 1), *pointers)
    got = dev.get(pointers[-1], out)
    with np.errstate(all="ignore"):
        if ftz:
            exact = _flush(a).astype(np.float64) * _flush(b).astype(np.float64) * SCALES[name]
            want = _flush(exact.astype(np.float32))
        else:
            want = (a.astype(np.float64) * b.astype(np.float64) * SCALES[name]).astype(np.float32)
    assert (want[-k:].view(np.uint32) == h200.view(np.uint32)).all()     # the model is the H200's
    want = np.where(np.isnan(want), np.uint32(0x7FFFFFFF).view(np.float32), want)  # NVIDIA's NaN
    same = got.view(np.uint32) == want.view(np.uint32)
    assert same.all(), [(float(x), float(y), hex(g), hex(w)) for x, y, g, w, s in
                        zip(a, b, got.view(np.uint32), want.view(np.uint32), same) if not s][:5]
