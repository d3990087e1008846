// Corner cases of CUDA's texture and surface semantics, one result per line as the hex bits of
// its four components: linear filtering's 9-bit weights (ties included), address modes with
// normalized coordinates, border colours of float, normalised-integer and integer textures,
// tex1Dfetch out of range, layer clamping, gather, surface boundary modes.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));      \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

__device__ unsigned bits(float f) { return __float_as_uint(f); }

// float 5x4 texture, linear filtering, unnormalized coordinates, clamp / border
__global__ void linear2d(cudaTextureObject_t clamp, cudaTextureObject_t border, const float2* at, uint4* out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        out[2 * i] = make_uint4(bits(tex2D<float>(clamp, at[i].x, at[i].y)), 0, 0, 0);
        out[2 * i + 1] = make_uint4(bits(tex2D<float>(border, at[i].x, at[i].y)), 0, 0, 0);
    }
}

// uchar4 4x3 texture read as normalised floats, linear, normalized coordinates, border 0.5 0.25 1 0
__global__ void unorm2d(cudaTextureObject_t t, const float2* at, uint4* out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, at[i].x, at[i].y);
        out[i] = make_uint4(bits(v.x), bits(v.y), bits(v.z), bits(v.w));
    }
}

// 1D float texture of 6, point filtering, normalized coordinates: wrap, mirror; int element reads, border
__global__ void modes1d(cudaTextureObject_t wrap, cudaTextureObject_t mirror, cudaTextureObject_t ints,
                        const float* at, uint4* out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        int4 k = tex1D<int4>(ints, at[i] * 6.0f);
        out[3 * i] = make_uint4(bits(tex1D<float>(wrap, at[i])), 0, 0, 0);
        out[3 * i + 1] = make_uint4(bits(tex1D<float>(mirror, at[i])), 0, 0, 0);
        out[3 * i + 2] = make_uint4(k.x, k.y, k.z, k.w);
    }
}

__global__ void fetch1d(cudaTextureObject_t t, uint4* out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        short2 v = tex1Dfetch<short2>(t, i - 2);
        out[i] = make_uint4(v.x, v.y, bits(tex1Dfetch<float2>(t, i - 2).x), 0);
    }
}

__global__ void layers(cudaTextureObject_t t, uint4* out) {
    int i = threadIdx.x;
    if (i < 6) {
        float v = tex2DLayered<float>(t, 1.25f + 0.3f * i, 0.75f, i - 2);
        out[i] = make_uint4(bits(v), 0, 0, 0);
    }
}

__global__ void gather(cudaTextureObject_t t, uint4* out) {
    int i = threadIdx.x;
    if (i < 4) {
        float4 v = tex2Dgather<float4>(t, 0.3f + 1.1f * i, 1.9f - 0.4f * i, i);
        out[i] = make_uint4(bits(v.x), bits(v.y), bits(v.z), bits(v.w));
    }
}

__global__ void surfaces(cudaSurfaceObject_t s, uint4* out) {
    int i = threadIdx.x;
    if (i < 8) surf2Dwrite(make_uchar2(10 * i, 200 - i), s, 2 * (i - 1), i % 3, cudaBoundaryModeZero);
    __syncthreads();
    if (i < 8) {
        uchar2 zero = surf2Dread<uchar2>(s, 2 * (i - 2), 1, cudaBoundaryModeZero);
        uchar2 clamp = surf2Dread<uchar2>(s, 2 * (i - 2), i - 3, cudaBoundaryModeClamp);
        out[i] = make_uint4(zero.x, zero.y, clamp.x, clamp.y);
    }
}

static cudaTextureObject_t texture_of(cudaResourceDesc* r, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                      cudaTextureReadMode read, int normalized, float4 border) {
    cudaTextureDesc d;
    std::memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
    d.filterMode = filter;
    d.readMode = read;
    d.normalizedCoords = normalized;
    d.borderColor[0] = border.x, d.borderColor[1] = border.y, d.borderColor[2] = border.z, d.borderColor[3] = border.w;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, r, &d, nullptr) != cudaSuccess) std::printf("texture refused\n");
    return t;
}

static cudaResourceDesc array_resource(cudaArray_t a) {
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

static void print(const char* name, const uint4* v, int n) {
    for (int i = 0; i < n; ++i) std::printf("%s %d: %08x %08x %08x %08x\n", name, i, v[i].x, v[i].y, v[i].z, v[i].w);
}

int main() {
    uint4* out;
    CHECK(cudaMallocManaged(&out, 64 * sizeof(uint4)));
    const float4 none = {0, 0, 0, 0};

    // linear2d: texels (x * 7 + y * 13) % 11 / 4 + 1/8; samples on ties (odd 1/256 steps on both axes)
    float texels[4][5];
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 5; ++x) texels[y][x] = ((x * 7 + y * 13) % 11) / 4.0f + 0.125f;
    cudaArray_t a2;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&a2, &f1, 5, 4));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, texels, 5 * sizeof(float), 5 * sizeof(float), 4, cudaMemcpyHostToDevice));
    cudaResourceDesc r2 = array_resource(a2);
    cudaTextureObject_t clamp2 = texture_of(&r2, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0, none);
    cudaTextureObject_t border2 = texture_of(&r2, cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, 0,
                                             make_float4(0.75f, 0, 0, 0));
    const int nl = 12;
    float2* at;
    CHECK(cudaMallocManaged(&at, 16 * sizeof(float2)));
    const float2 points[nl] = {{0.5f, 0.5f},       {1.0f, 1.0f},          {1.5f + 1 / 256.0f, 2.5f + 3 / 256.0f},
                               {2.0f + 1 / 512.0f, 1.7f}, {3.3f, 0.2f},       {-0.4f, 2.2f},
                               {4.9f, 3.9f},       {5.6f, -0.7f},         {2.5f + 5 / 256.0f, 1.5f + 7 / 256.0f},
                               {0.9f, 3.1f},       {2.25f, 2.75f},        {1.0f + 1 / 1024.0f, 2.0f - 1 / 1024.0f}};
    std::memcpy(at, points, sizeof points);
    linear2d<<<1, 32>>>(clamp2, border2, at, out, nl);
    CHECK(cudaDeviceSynchronize());
    print("linear2d", out, 2 * nl);

    // unorm2d
    unsigned char rgba[3][4][4];
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 4; ++c) rgba[y][x][c] = (unsigned char)(37 * x + 91 * y + 53 * c + 11 * x * y);
    cudaArray_t a4;
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<uchar4>();
    CHECK(cudaMallocArray(&a4, &f4, 4, 3, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(a4, 0, 0, rgba, 16, 16, 3, cudaMemcpyHostToDevice));
    cudaResourceDesc r4 = array_resource(a4);
    cudaTextureObject_t unorm = texture_of(&r4, cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1,
                                           make_float4(0.5f, 0.25f, 1.0f, 0.0f));
    const float2 npoints[8] = {{0.1f, 0.2f}, {0.5f, 0.5f}, {0.99f, 0.01f}, {-0.05f, 0.4f},
                               {1.1f, 0.9f}, {0.37f, 0.83f}, {0.125f + 1 / 2048.0f, 0.5f}, {0.0f, 0.0f}};
    std::memcpy(at, npoints, sizeof npoints);
    unorm2d<<<1, 32>>>(unorm, at, out, 8);
    CHECK(cudaDeviceSynchronize());
    print("unorm2d", out, 8);

    // modes1d
    float line[6] = {1.5f, -2.0f, 3.25f, 0.5f, 8.0f, -0.125f};
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &f1, 6, 0));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, line, sizeof line, sizeof line, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r1 = array_resource(a1);
    cudaTextureObject_t wrap = texture_of(&r1, cudaAddressModeWrap, cudaFilterModePoint, cudaReadModeElementType, 1, none);
    cudaTextureObject_t mirror = texture_of(&r1, cudaAddressModeMirror, cudaFilterModePoint, cudaReadModeElementType, 1, none);
    int quads[6][4];
    for (int x = 0; x < 6; ++x)
        for (int c = 0; c < 4; ++c) quads[x][c] = (x - 3) * 1000 + c;
    cudaArray_t ai;
    cudaChannelFormatDesc fi = cudaCreateChannelDesc<int4>();
    CHECK(cudaMallocArray(&ai, &fi, 6, 0));
    CHECK(cudaMemcpy2DToArray(ai, 0, 0, quads, sizeof quads, sizeof quads, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc ri = array_resource(ai);
    cudaTextureObject_t ints = texture_of(&ri, cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0,
                                          make_float4(2.7f, -1.0f, 0.0f, 100.0f));
    float* xs;
    CHECK(cudaMallocManaged(&xs, 16 * sizeof(float)));
    const float coords[10] = {-0.01f, 0.0f, 0.16f, 0.5f, 0.999f, 1.0f, 1.2f, -1.3f, 2.55f, -0.6f};
    std::memcpy(xs, coords, sizeof coords);
    modes1d<<<1, 32>>>(wrap, mirror, ints, xs, out, 10);
    CHECK(cudaDeviceSynchronize());
    print("modes1d", out, 30);

    // fetch1d: short2 and float2 views of one linear buffer of 5 elements (20 bytes)
    short pairs[10] = {-7, 7, 300, -300, 32767, -32768, 1, 2, -1, -2};
    void* linear;
    CHECK(cudaMalloc(&linear, sizeof pairs));
    CHECK(cudaMemcpy(linear, pairs, sizeof pairs, cudaMemcpyHostToDevice));
    cudaResourceDesc rl;
    std::memset(&rl, 0, sizeof rl);
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = linear;
    rl.res.linear.desc = cudaCreateChannelDesc<short2>();
    rl.res.linear.sizeInBytes = sizeof pairs;
    cudaTextureObject_t shorts = texture_of(&rl, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0, none);
    fetch1d<<<1, 32>>>(shorts, out, 9);
    CHECK(cudaDeviceSynchronize());
    print("fetch1d", out, 9);

    // layers: a 2D layered array of 3 layers of 4x2 (layers -2..3 clamp to 0..2)
    float slab[3][2][4];
    for (int l = 0; l < 3; ++l)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 4; ++x) slab[l][y][x] = 100.0f * l + 10.0f * y + x;
    cudaArray_t al;
    CHECK(cudaMalloc3DArray(&al, &f1, make_cudaExtent(4, 2, 3), cudaArrayLayered));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(slab, 4 * sizeof(float), 4, 2);
    p.dstArray = al;
    p.extent = make_cudaExtent(4, 2, 3);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rla = array_resource(al);
    cudaTextureObject_t layered = texture_of(&rla, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0, none);
    layers<<<1, 32>>>(layered, out);
    CHECK(cudaDeviceSynchronize());
    print("layers", out, 6);

    // gather: components 0..3 of the uchar4 texture as element reads
    cudaTextureObject_t gathered = texture_of(&r4, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0, none);
    gather<<<1, 32>>>(gathered, out);
    CHECK(cudaDeviceSynchronize());
    print("gather", out, 4);

    // surfaces: a 5x3 uchar2 surface
    cudaArray_t as;
    cudaChannelFormatDesc f2 = cudaCreateChannelDesc<uchar2>();
    CHECK(cudaMallocArray(&as, &f2, 5, 3, cudaArraySurfaceLoadStore));
    unsigned char zeros[3][5][2];
    std::memset(zeros, 1, sizeof zeros);
    CHECK(cudaMemcpy2DToArray(as, 0, 0, zeros, 10, 10, 3, cudaMemcpyHostToDevice));
    cudaResourceDesc rs = array_resource(as);
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rs));
    surfaces<<<1, 32>>>(s, out);
    CHECK(cudaDeviceSynchronize());
    print("surfaces", out, 8);

    CHECK(cudaDestroySurfaceObject(s));
    for (cudaTextureObject_t t : {clamp2, border2, unorm, wrap, mirror, ints, shorts, layered, gathered})
        CHECK(cudaDestroyTextureObject(t));
    return 0;
}
