// 2D texture objects: pitched linear memory and CUDA arrays, point and linear filtering, clamp,
// border, wrap and mirror addressing, normalised coordinates, uchar4 read as normalised floats,
// and tex1D on a 1D array. A CPU model of CUDA's texture fetching rules checks every value.
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 16, H = 8;              // texture size
const int GX = 24, GY = 12;           // sample grid, reaching past every edge
const int N = GX * GY;
// mirror samples sit 1/64 texel right of the grid: at a texel's edge, mirroring the coordinate and
// mirroring the texel index differ, and the texture units mirror the index
const float MIRROR_SHIFT = 0.015625f;
enum { PITCHED_POINT, ARRAY_LINEAR, WRAP_LINEAR, MIRROR_POINT, LINE_1D, OUTPUTS };

__device__ __host__ float coord_x(int i) { return (i - 4) * 0.75f; }
__device__ __host__ float coord_y(int j) { return (j - 2) * 0.5f + 0.25f; }

__global__ void sample(cudaTextureObject_t pitched, cudaTextureObject_t array, cudaTextureObject_t wrap,
                       cudaTextureObject_t mirror, cudaTextureObject_t line, cudaTextureObject_t bytes,
                       float *out, float4 *colours)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = j * GX + i;
    float x = coord_x(i), y = coord_y(j);
    out[PITCHED_POINT * N + k] = tex2D<float>(pitched, x, y);
    out[ARRAY_LINEAR * N + k] = tex2D<float>(array, x, y);
    out[WRAP_LINEAR * N + k] = tex2D<float>(wrap, x / W, y / H);
    out[MIRROR_POINT * N + k] = tex2D<float>(mirror, (x + MIRROR_SHIFT) / W, y / H);
    out[LINE_1D * N + k] = tex1D<float>(line, x + y);
    colours[k] = tex2D<float4>(bytes, x / W, y / H);
}

static float texel(int x, int y) { return (float)((x * 3 + y * 5) % 17 - 8); }

static unsigned char byte_texel(int x, int y, int c) { return (unsigned char)(x * 13 + y * 29 + c * 61); }

// CUDA's addressing of texel index i along n texels; false when it reads the border
static bool address(int &i, int n, cudaTextureAddressMode mode, bool normalized)
{
    if (normalized && mode == cudaAddressModeWrap) { i %= n; if (i < 0) i += n; return true; }
    if (normalized && mode == cudaAddressModeMirror) {
        int p = i % (2 * n); if (p < 0) p += 2 * n; i = p < n ? p : 2 * n - 1 - p; return true;
    }
    if (mode == cudaAddressModeBorder) return i >= 0 && i < n;
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    return true;
}

static float fetch(int x, int y, int h, cudaTextureAddressMode mode, bool normalized)
{
    if (!address(x, W, mode, normalized) || !address(y, h, mode, normalized)) return 0.0f;
    return texel(x, y);
}

// tex2D on a float texture of W x h texels (h = 1: a 1D texture, y ignored)
static float model(float x, float y, int h, bool linear, cudaTextureAddressMode mode, bool normalized)
{
    if (normalized) { x *= W; y *= h; }
    if (h == 1) y = 0.5f;
    if (!linear) return fetch((int)floorf(x), (int)floorf(y), h, mode, normalized);
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = roundf((xb - i) * 256) / 256, b = roundf((yb - j) * 256) / 256;
    if (h == 1) b = 0.0f;
    return (1 - a) * (1 - b) * fetch(i, j, h, mode, normalized) + a * (1 - b) * fetch(i + 1, j, h, mode, normalized)
         + (1 - a) * b * fetch(i, j + 1, h, mode, normalized) + a * b * fetch(i + 1, j + 1, h, mode, normalized);
}

static cudaTextureObject_t make(const cudaResourceDesc &rd, cudaTextureFilterMode filter,
                                cudaTextureAddressMode mode, bool normalized,
                                cudaTextureReadMode read = cudaReadModeElementType, const float *border = nullptr)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = mode;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    if (border) for (int c = 0; c < 4; ++c) td.borderColor[c] = border[c];
    cudaTextureObject_t t = 0;
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main()
{
    float host[H][W], line[W];
    unsigned char host_bytes[H][W][4];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            host[y][x] = texel(x, y);
            for (int c = 0; c < 4; ++c) host_bytes[y][x][c] = byte_texel(x, y, c);
        }
    for (int x = 0; x < W; ++x) line[x] = texel(x, 0);

    float *pitched; size_t pitch;
    CHECK(cudaMallocPitch(&pitched, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(pitched, pitch, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    // uchar4 in the explicit form: HIP 5.2's hipCreateChannelDesc<uchar4>() says signed (a header bug)
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(),
                          u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t array, line_array, byte_array;
    CHECK(cudaMallocArray(&array, &f1, W, H));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&line_array, &f1, W));
    CHECK(cudaMemcpyToArray(line_array, 0, 0, line, sizeof line, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&byte_array, &u4, W, H));
    CHECK(cudaMemcpy2DToArray(byte_array, 0, 0, host_bytes, W * 4, W * 4, H, cudaMemcpyHostToDevice));

    cudaResourceDesc rp = {}, ra = {}, rl = {}, rb = {};
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pitched; rp.res.pitch2D.desc = f1;
    rp.res.pitch2D.width = W; rp.res.pitch2D.height = H; rp.res.pitch2D.pitchInBytes = pitch;
    ra.resType = rl.resType = rb.resType = cudaResourceTypeArray;
    ra.res.array.array = array; rl.res.array.array = line_array; rb.res.array.array = byte_array;
    const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    cudaTextureObject_t tp = make(rp, cudaFilterModePoint, cudaAddressModeClamp, false);
    cudaTextureObject_t ta = make(ra, cudaFilterModeLinear, cudaAddressModeClamp, false);
    cudaTextureObject_t tw = make(ra, cudaFilterModeLinear, cudaAddressModeWrap, true);
    cudaTextureObject_t tm = make(ra, cudaFilterModePoint, cudaAddressModeMirror, true);
    cudaTextureObject_t tl = make(rl, cudaFilterModeLinear, cudaAddressModeClamp, false);
    cudaTextureObject_t tb = make(rb, cudaFilterModePoint, cudaAddressModeBorder, true,
                                  cudaReadModeNormalizedFloat, border);
    if (!tp || !ta || !tw || !tm || !tl || !tb) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }

    float *out; float4 *colours;
    CHECK(cudaMalloc(&out, OUTPUTS * N * sizeof(float)));
    CHECK(cudaMalloc(&colours, N * sizeof(float4)));
    sample<<<dim3(GX / 8, GY / 4), dim3(8, 4)>>>(tp, ta, tw, tm, tl, tb, out, colours);
    CHECK(cudaGetLastError());
    static float got[OUTPUTS * N];
    static float4 got_colours[N];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_colours, colours, sizeof got_colours, cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int j = 0; j < GY; ++j)
        for (int i = 0; i < GX; ++i) {
            int k = j * GX + i;
            float x = coord_x(i), y = coord_y(j);
            float want[OUTPUTS] = {
                model(x, y, H, false, cudaAddressModeClamp, false),
                model(x, y, H, true, cudaAddressModeClamp, false),
                model(x / W, y / H, H, true, cudaAddressModeWrap, true),
                model((x + MIRROR_SHIFT) / W, y / H, H, false, cudaAddressModeMirror, true),
                model(x + y, 0.0f, 1, true, cudaAddressModeClamp, false)};
            for (int o = 0; o < OUTPUTS; ++o) {
                float g = got[o * N + k];
                if (fabsf(g - want[o]) > 1e-5f) {
                    if (bad++ < 5) printf("output %d at (%g, %g): got %g, want %g\n", o, x, y, g, want[o]);
                }
                checksum += lroundf(g * 256.0f) * (o + 1);
            }
            int bx = (int)floorf(x), by = (int)floorf(y);
            float gc[4] = {got_colours[k].x, got_colours[k].y, got_colours[k].z, got_colours[k].w};
            for (int c = 0; c < 4; ++c) {
                float wc = bx >= 0 && bx < W && by >= 0 && by < H ? byte_texel(bx, by, c) / 255.0f : border[c];
                if (fabsf(gc[c] - wc) > 1e-6f) {
                    if (bad++ < 5) printf("colour %d at (%g, %g): got %g, want %g\n", c, x, y, gc[c], wc);
                }
                checksum += lroundf(gc[c] * 255.0f);
            }
        }
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(ta); cudaDestroyTextureObject(tw);
    cudaDestroyTextureObject(tm); cudaDestroyTextureObject(tl); cudaDestroyTextureObject(tb);
    cudaFreeArray(array); cudaFreeArray(line_array); cudaFreeArray(byte_array);
    cudaFree(pitched); cudaFree(out); cudaFree(colours);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
