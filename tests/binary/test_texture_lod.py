"""Mipmapped and cubemap textures on the binary route: a program samples a mipmapped array (8x6,
so levels halve with floor to 4x3, 2x1, 1x1) with tex2DLod and tex2D under four filter/clamp
settings, and a cubemap with texCubemap along off-axis directions; every value is checked
against a model of CUDA's documented rules written here (level extents, the LOD clamps, nearest
or two blended levels, the 1/256 filter weights, the Programming Guide's cubemap face table).

The query points keep every weight a multiple of 1/8 and every coordinate away from a texel
edge, so the expected values are exact whatever order the hardware adds in."""

from __future__ import annotations

import math

import pytest

from binroute import cass_nvcc, cass_run

BASE_W, BASE_H, LEVELS, FACE = 8, 6, 4, 4

# (filterMode linear, mipmapFilterMode linear, minMipmapLevelClamp, maxMipmapLevelClamp)
SETTINGS = [(1, 1, 0.0, 3.0), (0, 0, 0.0, 3.0), (1, 0, 1.0, 2.0), (0, 1, 0.5, 3.0)]
# (u, v, lod); lod None is tex2D, which ptxas gives LOD -32. No clamped LOD is a half: which level
# point mipmap filtering takes there is not measured on the H200.
QUERIES = [(0.5, 0.5, 0.0), (0.3125, 0.6875, 0.625), (0.3125, 0.6875, 1.25), (0.8125, 0.1875, 1.75),
           (0.6875, 0.4375, 2.375), (0.5625, 0.9375, 3.0), (0.1875, 0.3125, 7.0), (0.4375, 0.5625, -1.0),
           (0.3125, 0.6875, None), (0.5625, 0.4375, 0.75)]
# directions off the axes (largest magnitudes 1, 2 or 4: the face coordinates stay exact)
DIRECTIONS = [(1.0, 0.3, -0.6), (-2.0, 1.1, 0.4), (0.2, 4.0, -3.0), (-0.7, -1.0, 0.1), (0.45, -0.3, 1.0),
              (-1.3, 0.9, -2.0), (1.0, -0.95, 0.2)]

PROGRAM = r"""
#include <cstdio>
__global__ void lod2d(cudaTextureObject_t t, const float4 *q, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = q[i].w != 0.0f ? tex2DLod<float>(t, q[i].x, q[i].y, q[i].z) : tex2D<float>(t, q[i].x, q[i].y);
}
__global__ void cube(cudaTextureObject_t t, const float4 *d, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = texCubemap<float>(t, d[i].x, d[i].y, d[i].z);
}
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("%s: %s\n", #call, cudaGetErrorName(e)); return 1; } } while (0)
static const float4 queries[] = { QUERIES };
static const float4 directions[] = { DIRECTIONS };
static const float settings[][4] = { SETTINGS };
int main()
{
    const int nq = sizeof queries / sizeof queries[0], nd = sizeof directions / sizeof directions[0];
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mip;
    CHECK(cudaMallocMipmappedArray(&mip, &f, make_cudaExtent(BASE_W, BASE_H, 0), LEVELS, 0));
    float host[BASE_W * BASE_H * 6];
    for (int l = 0; l < LEVELS; l++) {
        int w = BASE_W >> l ? BASE_W >> l : 1, h = BASE_H >> l ? BASE_H >> l : 1;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                host[y * w + x] = 100.0f * l + 10.0f * y + x;
        cudaArray_t level;
        CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
        CHECK(cudaMemcpy2DToArray(level, 0, 0, host, w * sizeof(float), w * sizeof(float), h,
                                  cudaMemcpyHostToDevice));
    }
    float4 *dq;
    float *dout, out[64];
    CHECK(cudaMalloc(&dq, sizeof queries > sizeof directions ? sizeof queries : sizeof directions));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(dq, queries, sizeof queries, cudaMemcpyHostToDevice));
    for (unsigned s = 0; s < sizeof settings / sizeof settings[0]; s++) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = mip;
        cudaTextureDesc td = {};
        td.normalizedCoords = 1;
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = settings[s][0] != 0.0f ? cudaFilterModeLinear : cudaFilterModePoint;
        td.mipmapFilterMode = settings[s][1] != 0.0f ? cudaFilterModeLinear : cudaFilterModePoint;
        td.minMipmapLevelClamp = settings[s][2];
        td.maxMipmapLevelClamp = settings[s][3];
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        lod2d<<<1, nq>>>(t, dq, dout, nq);
        CHECK(cudaMemcpy(out, dout, nq * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < nq; i++)
            printf("mip %u %d %.9g\n", s, i, out[i]);
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeMipmappedArray(mip));

    cudaArray_t faces;
    CHECK(cudaMalloc3DArray(&faces, &f, make_cudaExtent(FACE, FACE, 6), cudaArrayCubemap));
    for (int face = 0; face < 6; face++)
        for (int y = 0; y < FACE; y++)
            for (int x = 0; x < FACE; x++)
                host[(face * FACE + y) * FACE + x] = 100.0f * face + 10.0f * y + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, FACE * sizeof(float), FACE, FACE);
    p.dstArray = faces;
    p.extent = make_cudaExtent(FACE, FACE, 6);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = faces;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;     // faces clamp regardless
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    CHECK(cudaMemcpy(dq, directions, sizeof directions, cudaMemcpyHostToDevice));
    cube<<<1, nd>>>(t, dq, dout, nd);
    CHECK(cudaMemcpy(out, dout, nd * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nd; i++)
        printf("cube %d %.9g\n", i, out[i]);
    return 0;
}
"""


def _source() -> str:
    queries = ", ".join(f"{{{u}f, {v}f, {0.0 if lod is None else lod}f, {0 if lod is None else 1}.0f}}"
                        for u, v, lod in QUERIES)
    directions = ", ".join(f"{{{x}f, {y}f, {z}f, 0.0f}}" for x, y, z in DIRECTIONS)
    settings = ", ".join("{%s}" % ", ".join(f"{float(v)}f" for v in s) for s in SETTINGS)
    text = PROGRAM.replace("{ QUERIES }", f"{{ {queries} }}").replace("{ DIRECTIONS }", f"{{ {directions} }}")
    text = text.replace("{ SETTINGS }", f"{{ {settings} }}")
    return f"#define BASE_W {BASE_W}\n#define BASE_H {BASE_H}\n#define LEVELS {LEVELS}\n#define FACE {FACE}\n" + text


# ---- the model --------------------------------------------------------------------------------

def _extent(level: int) -> tuple[int, int]:
    return max(BASE_W >> level, 1), max(BASE_H >> level, 1)


def _texel(level: int, x: int, y: int) -> float:
    w, h = _extent(level)
    return 100.0 * level + 10.0 * min(max(y, 0), h - 1) + min(max(x, 0), w - 1)


def _weight(frac: float) -> float:
    return math.floor(frac * 256 + 0.5) / 256


def _in_level(level: int, u: float, v: float, linear: bool) -> float:
    w, h = _extent(level)
    if not linear:
        return _texel(level, math.floor(u * w), math.floor(v * h))
    xs, ys = u * w - 0.5, v * h - 0.5
    x0, y0 = math.floor(xs), math.floor(ys)
    a, b = _weight(xs - x0), _weight(ys - y0)
    return ((1 - a) * (1 - b) * _texel(level, x0, y0) + a * (1 - b) * _texel(level, x0 + 1, y0)
            + (1 - a) * b * _texel(level, x0, y0 + 1) + a * b * _texel(level, x0 + 1, y0 + 1))


def _mip_expected(setting, query) -> float:
    linear, mip_linear, lo, hi = setting
    u, v, lod = query
    lod = -32.0 if lod is None else lod
    lod = min(max(min(max(lod, lo), hi), 0.0), LEVELS - 1.0)
    if not mip_linear:
        return _in_level(math.floor(lod + 0.5), u, v, linear)
    near = math.floor(lod)
    w = math.floor((lod - near) * 256) / 256           # the level weight is truncated to 1/256
    if w == 0:
        return _in_level(near, u, v, linear)
    return (1 - w) * _in_level(near, u, v, linear) + w * _in_level(min(near + 1, LEVELS - 1), u, v, linear)


def _cube_expected(direction) -> float:
    """The CUDA Programming Guide's table: face, major axis m, and (s, t) on the face."""
    x, y, z = direction
    if abs(x) >= abs(y) and abs(x) >= abs(z):
        face, m, s, t = (0, x, -z, -y) if x >= 0 else (1, -x, z, -y)
    elif abs(y) >= abs(z):
        face, m, s, t = (2, y, x, z) if y >= 0 else (3, -y, x, -z)
    else:
        face, m, s, t = (4, z, x, -y) if z >= 0 else (5, -z, -x, -y)
    u, v = (s / m + 1) / 2, (t / m + 1) / 2
    col, row = (min(max(math.floor(c * FACE), 0), FACE - 1) for c in (u, v))
    return 100.0 * face + 10.0 * row + col


def test_the_model_exercises_every_path():
    """Each setting meets a blend of two levels or a single level, and the cube directions reach
    all six faces: the program checks what it claims to."""
    assert {_cube_expected(d) // 100 for d in DIRECTIONS} == set(range(6))
    assert _mip_expected(SETTINGS[0], QUERIES[1]) not in {_in_level(l, 0.3125, 0.6875, True) for l in range(4)}


def _run(tmp_path, route: str) -> dict[tuple[str, ...], float]:
    source = tmp_path / "lod.cu"
    source.write_text(_source())
    built = cass_nvcc("-O2", f"--cass-route={route}", "-o", tmp_path / "lod", source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(tmp_path / "lod")
    assert run.returncode == 0, run.stdout + run.stderr
    return {tuple(line.split()[:-1]): float(line.split()[-1]) for line in run.stdout.splitlines()}


def _check_mipmaps(got: dict) -> None:
    for s, setting in enumerate(SETTINGS):
        for i, query in enumerate(QUERIES):
            want = _mip_expected(setting, query)
            assert got[("mip", str(s), str(i))] == pytest.approx(want, abs=1e-4), (setting, query)


@pytest.mark.slow
def test_mipmap_levels_and_cube_faces_sample_as_cuda_documents(tmp_path):
    got = _run(tmp_path, "binary")
    _check_mipmaps(got)
    for i, direction in enumerate(DIRECTIONS):
        assert got[("cube", str(i))] == _cube_expected(direction), direction


def _mirrored(value: float) -> float:
    """A texel of a 4x4 face at the position mirrored through the face's centre."""
    face, row, col = int(value) // 100, int(value) // 10 % 10, int(value) % 10
    return 100.0 * face + 10.0 * (FACE - 1 - row) + (FACE - 1 - col)


@pytest.mark.slow
def test_the_source_route_agrees_on_mipmaps_and_mirrors_negative_cube_faces(tmp_path):
    """hipcc's build runs on the emulated HIP runtime: mip chains as CUDA documents them; cube
    positions on -X, -Y, -Z mirrored, because ROCm 5.2's __ockl_image_sample_CM divides the face
    coordinates by the signed v_cubema (README Limits)."""
    got = _run(tmp_path, "source")
    _check_mipmaps(got)
    for i, direction in enumerate(DIRECTIONS):
        want = _cube_expected(direction)
        assert got[("cube", str(i))] == (_mirrored(want) if int(want) // 100 % 2 else want), direction


CHAINS = r"""
#include <cstdio>
__global__ void k(cudaTextureObject_t t1, cudaTextureObject_t t3, float *o)
{
    int i = threadIdx.x;
    float lod = i * 0.5f;
    o[i] = tex1DLod<float>(t1, 0.7f, lod);
    o[8 + i] = tex3DLod<float>(t3, 0.3f, 0.6f, 0.9f, lod);
}
int main()
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m[2];
    cudaMallocMipmappedArray(&m[0], &f, make_cudaExtent(8, 0, 0), 4, 0);       // 8, 4, 2, 1
    cudaMallocMipmappedArray(&m[1], &f, make_cudaExtent(4, 4, 4), 3, 0);       // 4^3, 2^3, 1
    float h[64];
    for (int l = 0; l < 4; l++) {
        cudaArray_t a;
        cudaGetMipmappedArrayLevel(&a, m[0], l);
        int w = 8 >> l;
        for (int x = 0; x < w; x++)
            h[x] = 100 * l + x;
        cudaMemcpy2DToArray(a, 0, 0, h, w * 4, w * 4, 1, cudaMemcpyHostToDevice);
    }
    for (int l = 0; l < 3; l++) {
        cudaArray_t a;
        cudaGetMipmappedArrayLevel(&a, m[1], l);
        int w = 4 >> l;
        for (int i = 0; i < w * w * w; i++)
            h[i] = 100 * l + 16 * (i / (w * w)) + 4 * (i / w % w) + i % w;
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(h, w * 4, w, w);
        p.dstArray = a;
        p.extent = make_cudaExtent(w, w, w);
        p.kind = cudaMemcpyHostToDevice;
        cudaMemcpy3D(&p);
    }
    cudaTextureObject_t t[2];
    for (int i = 0; i < 2; i++) {
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeMipmappedArray;
        r.res.mipmap.mipmap = m[i];
        cudaTextureDesc d = {};
        d.normalizedCoords = 1;
        d.mipmapFilterMode = cudaFilterModeLinear;
        d.maxMipmapLevelClamp = 8;
        cudaCreateTextureObject(&t[i], &r, &d, nullptr);
    }
    float *o, out[16];
    cudaMalloc(&o, sizeof out);
    k<<<1, 8>>>(t[0], t[1], o);
    if (cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    for (int i = 0; i < 16; i++)
        printf("%.9g\n", out[i]);
    return 0;
}
"""


@pytest.mark.slow
def test_one_and_three_dimensional_chains_halve_every_extent(tmp_path):
    """tex1DLod over 8, 4, 2, 1 texels and tex3DLod over 4^3, 2^3, 1^3 at LODs 0, 0.5, ... 3.5."""
    source = tmp_path / "chains.cu"
    source.write_text(CHAINS)
    built = cass_nvcc("-O2", "--cass-route=binary", "-o", tmp_path / "chains", source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(tmp_path / "chains")
    assert run.returncode == 0, run.stdout + run.stderr

    def in_1d(level):
        w = max(8 >> level, 1)
        return 100 * level + math.floor(0.7 * w)

    def in_3d(level):
        w = max(4 >> level, 1)
        x, y, z = (math.floor(c * w) for c in (0.3, 0.6, 0.9))
        return 100 * level + 16 * z + 4 * y + x

    want = []
    for texel, top in ((in_1d, 3), (in_3d, 2)):
        for i in range(8):
            c = min(i * 0.5, top)
            near, w = math.floor(c), c - math.floor(c)
            want.append(texel(near) if w == 0 else (1 - w) * texel(near) + w * texel(near + 1))
    assert [float(v) for v in run.stdout.split()] == want
