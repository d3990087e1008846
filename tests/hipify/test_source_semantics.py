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


CHANNEL_KINDS = r"""
#include <cstdio>
__global__ void rd(float *out, float4 *out4, cudaTextureObject_t s8, cudaTextureObject_t u8x4) {
    int i = threadIdx.x;
    out[i] = tex1Dfetch<float>(s8, i);
    out4[i] = tex1Dfetch<float4>(u8x4, i);
}
template <class T> cudaTextureObject_t normalized(T *data, int n) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = data;
    r.res.linear.desc = cudaCreateChannelDesc<T>();
    r.res.linear.sizeInBytes = n * sizeof(T);
    cudaTextureDesc t = {};
    t.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &r, &t, nullptr);
    return tex;
}
int main() {
    const int n = 256;
    signed char s[n]; uchar4 u[n];
    for (int i = 0; i < n; i++) { s[i] = (signed char)i; u[i] = make_uchar4(i, 255 - i, i / 2, 7); }
    signed char *ds; uchar4 *du; float *o; float4 *o4;
    cudaMalloc(&ds, sizeof s); cudaMalloc(&du, sizeof u); cudaMalloc(&o, n * sizeof(float)); cudaMalloc(&o4, n * sizeof(float4));
    cudaMemcpy(ds, s, sizeof s, cudaMemcpyHostToDevice); cudaMemcpy(du, u, sizeof u, cudaMemcpyHostToDevice);
    rd<<<1, n>>>(o, o4, normalized(ds, n), normalized(du, n));
    static float h[n]; static float4 h4[n];
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost); cudaMemcpy(h4, o4, sizeof h4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%a %a %a %a %a\n", h[i], h4[i].x, h4[i].y, h4[i].z, h4[i].w);
}
"""


@pytest.mark.parametrize("arch", ["gfx1100", "gfx942"])
def test_channel_descriptors_have_cudas_kinds(arch, tmp_path):
    """HIP 5.2's cudaCreateChannelDesc<signed char> is unsigned and <uchar4> signed: normalised
    reads scaled signed bytes by 1/255 (the CUDA Handbook's tex1dfetch_int2float asserted).
    CUDA: a signed byte c reads c / 127 (-128: -1), an unsigned one u / 255, on the hardware
    sampler (gfx1100) and the software one (gfx942); the H200 printed these 256 rows (2026-12-04)."""
    import numpy as np

    got = _run(tmp_path, arch, CHANNEL_KINDS)
    rows = [got[k:k + 5] for k in range(0, len(got), 5)]
    assert len(rows) == 256
    for i, row in enumerate(rows):
        c = np.int8(np.uint8(i))
        want = [np.float32(-1.0) if c == -128 else np.float32(c) / np.float32(127)]
        want += [np.float32(v) / np.float32(255) for v in (i, 255 - i, i // 2, 7)]   # IEEE float division
        assert [np.float32(float.fromhex(x)) for x in row] == want, (i, row)
