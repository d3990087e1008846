"""CUDA constructs whose HIP 5.2 spelling computed something else, built through the source route
by both HIP compilers (hipcc for gfx1100, clang-22 for gfx1201) and run on the emulator: every
value is checked bit for bit against CUDA's semantics, computed here.
- __half2's x and y are __half (HIP 5.2: unsigned short);
- __sad(x, y, z) is |x - y| + z mod 2^32 even when x - y overflows an int;
- packed 16-bit arithmetic with an inline constant (clang-22's v_pk_lshlrev_b16 v, 4, v)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_tool

pytestmark = pytest.mark.slow
ARCHS = ["gfx1100", "gfx1201"]


def _run(tmp_path: Path, arch: str, source: str) -> list[str]:
    (tmp_path / "t.cu").write_text(source)
    built = run_tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", f"--cass-offload-arch={arch}",
                     "t.cu", "-o", "t", cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    ran = run_tool("cass-run", "./t", cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    return ran.stdout.split()


@pytest.mark.parametrize("arch", ARCHS)
def test_half2_members_are_halves(arch, tmp_path):
    out = _run(tmp_path, arch, r"""
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k(const __half2 *in, __half2 *out, float *f) {
    __half2 v = in[threadIdx.x];      // a lane's value: vector code (gfx12's scalar f16 is not emulated)
    f[0] = __half2float(v.x) + 2.0f * __half2float(v.y);
    __half2 w;
    w.x = __hadd(v.x, v.y);
    w.y = v.x;
    out[0] = w;
    atomicAdd(out + 1, v);
}
int main() {
    __half2 h[2];
    h[0].x = __float2half(91.5f); h[0].y = __float2half(-2.25f);
    h[1].x = __float2half(1.0f); h[1].y = __float2half(0.5f);
    __half2 *d; float *f;
    cudaMalloc(&d, sizeof h); cudaMalloc(&f, sizeof(float));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(d, d, f);
    float r; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); cudaMemcpy(&r, f, sizeof r, cudaMemcpyDeviceToHost);
    printf("%g %g %g %g %g\n", r, __half2float(h[0].x), __half2float(h[0].y), __half2float(h[1].x), __half2float(h[1].y));
}
""")
    assert out == ["87", "89.25", "91.5", "92.5", "-1.75"]


SAD_PAIRS = [(2147483647, -2147483648, 7), (-2147483648, 2147483647, 11), (1000000000, -1500000000, 0),
             (-5, 3, 0xFFFFFFFF), (123, 123, 5)]


@pytest.mark.parametrize("arch", ARCHS)
def test_sad_of_a_difference_past_int(arch, tmp_path):
    inputs = ", ".join(f"{{{x}, {y}, {z}u}}" for x, y, z in SAD_PAIRS).replace("-2147483648", "(-2147483647 - 1)")
    out = _run(tmp_path, arch, r"""
#include <cstdio>
struct In { int x, y; unsigned z; };
__global__ void k(const In *in, unsigned *out) { In v = in[threadIdx.x]; out[threadIdx.x] = __sad(v.x, v.y, v.z); }
int main() {
    const In h[] = {""" + inputs + r"""};
    const int n = sizeof h / sizeof h[0];
    In *d; unsigned *o, r[n];
    cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, n>>>(d, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%u\n", r[i]);
}
""")
    assert out == [str((abs(x - y) + z) % 2**32) for x, y, z in SAD_PAIRS]


BYTES = [(-50, 3, 0, -20), (-13, 14, -29, -13), (24, 25, -58, -6), (61, 36, -87, 1), (127, -128, 127, -128)]


@pytest.mark.parametrize("arch", ARCHS)
def test_packed_16_bit_arithmetic_with_constants(arch, tmp_path):
    inputs = ", ".join(f"make_char4({x}, {y}, {z}, {w})" for x, y, z, w in BYTES)
    out = _run(tmp_path, arch, r"""
#include <cstdio>
__global__ void k(const char4 *in, ushort4 *u4, short2 *s2) {
    char4 v = in[threadIdx.x];
    u4[threadIdx.x] = make_ushort4((unsigned short)(v.x + 128), (unsigned short)(v.y & 0x7f),
                                   (unsigned short)(v.z << 4), (unsigned short)(unsigned char)v.w);
    s2[threadIdx.x] = make_short2((short)(v.x * v.y), (short)(v.z - v.w));
}
int main() {
    const char4 h[] = {""" + inputs + r"""};
    const int n = sizeof h / sizeof h[0];
    char4 *d; ushort4 *u, ru[n]; short2 *s, rs[n];
    cudaMalloc(&d, sizeof h); cudaMalloc(&u, sizeof ru); cudaMalloc(&s, sizeof rs);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, n>>>(d, u, s);
    cudaMemcpy(ru, u, sizeof ru, cudaMemcpyDeviceToHost); cudaMemcpy(rs, s, sizeof rs, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%u %u %u %u %d %d\n", ru[i].x, ru[i].y, ru[i].z, ru[i].w, rs[i].x, rs[i].y);
}
""")
    short = lambda v: (v + 2**15) % 2**16 - 2**15
    want = []
    for x, y, z, w in BYTES:
        want += [str((x + 128) % 2**16), str(y & 0x7F), str((z << 4) % 2**16), str(w % 256),
                 str(short(x * y)), str(short(z - w))]
    assert out == want
