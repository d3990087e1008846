// Linear filtering bit for bit in 1D, 2D (float2), layered 2D and 3D under each address mode,
// normalised and not, at coordinates inside, on the edges and far outside. Texels of many
// magnitudes, so that a float sum or other weights than CUDA's show in the low bits.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));            \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

__device__ unsigned bits(float v) { return __float_as_uint(v); }

__global__ void sample3d(cudaTextureObject_t t, const float4* at, uint4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_uint4(bits(tex3D<float>(t, at[i].x, at[i].y, at[i].z)), 0, 0, 0);
}

__global__ void sample1d2d(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t tl,
                           const float4* at, uint4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 v = tex2D<float2>(t2, at[i].x, at[i].y);
        float l = tex2DLayered<float>(tl, at[i].x, at[i].y, i % 3);
        out[i] = make_uint4(bits(tex1D<float>(t1, at[i].z)), bits(v.x), bits(v.y), bits(l));
    }
}

static unsigned state = 12345;
static unsigned next() { return state = state * 1664525u + 1013904223u; }
// a texel of magnitude 2^-6 .. 2^10, either sign
static float texel() {
    unsigned h = next();
    float v = (float)(h >> 12 & 0xFFFF) / 4096.0f * (float)(1 << (h >> 4 & 15)) / 64.0f;
    return h & 1 ? -v : v;
}
// a coordinate in [lo, hi) with a fraction of all 23 bits
static float coordinate(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) / 16777216.0f; }

static cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureAddressMode mode, int normalized) {
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc d;
    std::memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
    d.filterMode = cudaFilterModeLinear;
    d.readMode = cudaReadModeElementType;
    d.normalizedCoords = normalized;
    d.borderColor[0] = 3.5f, d.borderColor[1] = -0.75f;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) std::printf("texture refused\n");
    return t;
}

int main() {
    enum { W = 5, H = 4, D = 3, N = 24 };
    const char* names[4] = {"wrap", "mirror", "clamp", "border"};
    const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeClamp,
                                             cudaAddressModeBorder};
    float cube[D][H][W];
    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) cube[z][y][x] = texel();
    float2 plane[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            plane[y][x].x = texel();            // one call a statement: argument order is the compiler's
            plane[y][x].y = texel();
        }
    float line[W + 2];
    for (int x = 0; x < W + 2; ++x) line[x] = texel();

    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), f2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a3, a2, a1, al;
    CHECK(cudaMalloc3DArray(&a3, &f1, make_cudaExtent(W, H, D), 0));
    cudaMemcpy3DParms copy;
    std::memset(&copy, 0, sizeof copy);
    copy.srcPtr = make_cudaPitchedPtr(cube, W * sizeof(float), W, H);
    copy.dstArray = a3;
    copy.extent = make_cudaExtent(W, H, D);
    copy.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&copy));
    CHECK(cudaMalloc3DArray(&al, &f1, make_cudaExtent(W, H, D), cudaArrayLayered));
    copy.dstArray = al;
    CHECK(cudaMemcpy3D(&copy));
    CHECK(cudaMallocArray(&a2, &f2, W, H));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, plane, W * sizeof(float2), W * sizeof(float2), H, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&a1, &f1, W + 2, 0));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, line, sizeof line, sizeof line, 1, cudaMemcpyHostToDevice));

    float4* at;
    uint4* out;
    CHECK(cudaMallocManaged(&at, N * sizeof(float4)));
    CHECK(cudaMallocManaged(&out, N * sizeof(uint4)));
    for (int m = 0; m < 4; ++m)
        for (int normalized = 0; normalized < 2; ++normalized) {
            if (normalized == 0 && m < 2) continue;     // wrap and mirror are for normalised coordinates
            // normalised: [-1.5, 2.5) of the extent; else two texels either side, and a few far out
            for (int i = 0; i < N; ++i) {
                float far = i % 8 == 7 ? 37.0f : 1.0f;
                const float extents[4] = {W, H, D, W + 2};
                float c[4];
                for (int a = 0; a < 4; ++a)
                    c[a] = normalized ? coordinate(-1.5f, 2.5f) : coordinate(-2.0f, extents[a] + 2.0f);
                at[i] = make_float4(c[0] * far, c[1], c[2], c[3]);
            }
            cudaTextureObject_t t3 = texture_of(a3, modes[m], normalized), t2 = texture_of(a2, modes[m], normalized),
                                t1 = texture_of(a1, modes[m], normalized), tl = texture_of(al, modes[m], normalized);
            sample3d<<<1, 32>>>(t3, at, out, N);
            CHECK(cudaDeviceSynchronize());
            for (int i = 0; i < N; ++i) std::printf("3d %s%s %d: %08x\n", names[m], normalized ? "_n" : "", i, out[i].x);
            sample1d2d<<<1, 32>>>(t1, t2, tl, at, out, N);
            CHECK(cudaDeviceSynchronize());
            for (int i = 0; i < N; ++i)
                std::printf("1d2d %s%s %d: %08x %08x %08x %08x\n", names[m], normalized ? "_n" : "", i, out[i].x,
                            out[i].y, out[i].z, out[i].w);
            CHECK(cudaDestroyTextureObject(t3));
            CHECK(cudaDestroyTextureObject(t2));
            CHECK(cudaDestroyTextureObject(t1));
            CHECK(cudaDestroyTextureObject(tl));
        }
    return 0;
}
