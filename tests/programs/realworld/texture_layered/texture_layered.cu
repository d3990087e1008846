// Layered textures: 2D and 1D layered arrays (cudaMalloc3DArray with cudaArrayLayered) filled by
// surf2DLayeredwrite/surf1DLayeredwrite, read back by surf2DLayeredread, and sampled by
// tex2DLayered/tex1DLayered with point and linear filtering (no filtering across layers).
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 16, H = 4, LAYERS = 3, SAMPLES = 64;

__host__ __device__ float texel(int x, int y, int layer) { return (float)((x * 5 + y * 3) % 11 + 20 * layer); }
__host__ __device__ float sx(int i) { return (i % 16) * 1.25f - 1.5f; }
__host__ __device__ float sy(int i) { return (i / 16) * 0.75f + 0.25f; }
__host__ __device__ int layer_of(int i) { return i % 5; }          // 3 and 4 read the last layer

__global__ void fill(cudaSurfaceObject_t plane, cudaSurfaceObject_t line)
{
    int x = threadIdx.x, y = blockIdx.x, layer = blockIdx.y;
    surf2DLayeredwrite(texel(x, y, layer), plane, x * 4, y, layer);
    if (y == 0) surf1DLayeredwrite(texel(x, 0, layer), line, x * 4, layer);
}

__global__ void sample(cudaSurfaceObject_t plane, cudaTextureObject_t point, cudaTextureObject_t linear,
                       cudaTextureObject_t line, float *out)
{
    int i = threadIdx.x;
    out[i] = tex2DLayered<float>(point, sx(i), sy(i), layer_of(i));
    out[SAMPLES + i] = tex2DLayered<float>(linear, sx(i), sy(i), layer_of(i));
    out[2 * SAMPLES + i] = tex1DLayered<float>(line, sx(i), layer_of(i));
    out[3 * SAMPLES + i] = surf2DLayeredread<float>(plane, (i % W) * 4, i / W % H, i % LAYERS);
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static float linear_model(float x, float y, int layer, int h)
{
    float xb = x - 0.5f, yb = h > 1 ? y - 0.5f : 0.0f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - i, b = yb - j, sum = 0.0f;
    for (int corner = 0; corner < 4; ++corner) {
        int dx = corner & 1, dy = corner >> 1;
        float w = (dx ? a : 1 - a) * (dy ? b : 1 - b);
        sum += w * texel(clampi(i + dx, W), clampi(j + dy, h), clampi(layer, LAYERS));
    }
    return sum;
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    return cudaCreateSurfaceObject(&s, &rd) == cudaSuccess ? s : 0;
}

static cudaTextureObject_t texture(cudaArray_t a, cudaTextureFilterMode filter)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = filter;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main()
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t plane, line;
    CHECK(cudaMalloc3DArray(&plane, &f, make_cudaExtent(W, H, LAYERS), cudaArrayLayered | cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&line, &f, make_cudaExtent(W, 0, LAYERS), cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t splane = surface(plane), sline = surface(line);
    cudaTextureObject_t point = texture(plane, cudaFilterModePoint), linear = texture(plane, cudaFilterModeLinear);
    cudaTextureObject_t tline = texture(line, cudaFilterModeLinear);
    if (!splane || !sline || !point || !linear || !tline) { printf("object creation failed\nFAIL\n"); return 1; }
    float *out;
    CHECK(cudaMalloc(&out, 4 * SAMPLES * sizeof(float)));
    fill<<<dim3(H, LAYERS), W>>>(splane, sline);
    CHECK(cudaGetLastError());
    sample<<<1, SAMPLES>>>(splane, point, linear, tline, out);
    CHECK(cudaGetLastError());
    float got[4 * SAMPLES];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int i = 0; i < SAMPLES; ++i) {
        int layer = clampi(layer_of(i), LAYERS);
        float want[4] = {texel(clampi((int)floorf(sx(i)), W), clampi((int)floorf(sy(i)), H), layer),
                         linear_model(sx(i), sy(i), layer, H), linear_model(sx(i), 0.0f, layer, 1),
                         texel(i % W, i / W % H, i % LAYERS)};
        for (int k = 0; k < 4; ++k) {
            float g = got[k * SAMPLES + i];
            if (fabsf(g - want[k]) > 1e-5f) { if (bad++ < 5) printf("output %d sample %d: %g, want %g\n", k, i, g, want[k]); }
            checksum += lroundf(g * 16) * (k + 1);
        }
    }
    cudaDestroySurfaceObject(splane); cudaDestroySurfaceObject(sline);
    cudaDestroyTextureObject(point); cudaDestroyTextureObject(linear); cudaDestroyTextureObject(tline);
    cudaFreeArray(plane); cudaFreeArray(line); cudaFree(out);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
