// 2D texture objects, the common cases: pitched linear memory with point sampling, a CUDA array
// with linear filtering, tex1D with linear filtering on a 1D array (cudaMemcpyToArray), and a
// uchar4 array read as normalised floats through normalised coordinates; clamp addressing. A CPU
// model of CUDA's texture fetching rules checks every value; each case reports its mismatches.
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 16, H = 8;              // texture size
const int GX = 24, GY = 12;           // sample grid, reaching past every edge
const int N = GX * GY;
enum { PITCHED_POINT, ARRAY_LINEAR, LINE_LINEAR, FLOATS };
const char *const NAMES[] = {"pitched point", "array linear", "1D array linear", "uchar4 point"};

__device__ __host__ float coord_x(int i) { return (i - 4) * 0.75f; }
__device__ __host__ float coord_y(int j) { return (j - 2) * 0.5f + 0.25f; }

__global__ void sample(cudaTextureObject_t pitched, cudaTextureObject_t array, cudaTextureObject_t line,
                       cudaTextureObject_t bytes, float *out, float4 *colours)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = j * GX + i;
    float x = coord_x(i), y = coord_y(j);
    out[PITCHED_POINT * N + k] = tex2D<float>(pitched, x, y);
    out[ARRAY_LINEAR * N + k] = tex2D<float>(array, x, y);
    out[LINE_LINEAR * N + k] = tex1D<float>(line, x + y);
    colours[k] = tex2D<float4>(bytes, x / W, y / H);
}

static float texel(int x, int y) { return (float)((x * 3 + y * 5) % 17 - 8); }
static unsigned char byte_texel(int x, int y, int c) { return (unsigned char)(x * 13 + y * 29 + c * 61); }
static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

// tex2D on the float texture (h = 1: the 1D array's row), clamp addressing
static float model(float x, float y, int h, bool linear)
{
    if (!linear) return texel(clampi((int)floorf(x), W), clampi((int)floorf(y), h));
    float xb = x - 0.5f, yb = h > 1 ? y - 0.5f : 0.0f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - i, b = yb - j;
    return (1 - a) * (1 - b) * texel(clampi(i, W), clampi(j, h)) + a * (1 - b) * texel(clampi(i + 1, W), clampi(j, h))
         + (1 - a) * b * texel(clampi(i, W), clampi(j + 1, h)) + a * b * texel(clampi(i + 1, W), clampi(j + 1, h));
}

static cudaTextureObject_t make(const cudaResourceDesc &rd, cudaTextureFilterMode filter, bool normalized,
                                cudaTextureReadMode read = cudaReadModeElementType)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
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
    cudaTextureObject_t tp = make(rp, cudaFilterModePoint, false);
    cudaTextureObject_t ta = make(ra, cudaFilterModeLinear, false);
    cudaTextureObject_t tl = make(rl, cudaFilterModeLinear, false);
    cudaTextureObject_t tb = make(rb, cudaFilterModePoint, true, cudaReadModeNormalizedFloat);
    if (!tp || !ta || !tl || !tb) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }

    float *out; float4 *colours;
    CHECK(cudaMalloc(&out, FLOATS * N * sizeof(float)));
    CHECK(cudaMalloc(&colours, N * sizeof(float4)));
    sample<<<dim3(GX / 8, GY / 4), dim3(8, 4)>>>(tp, ta, tl, tb, out, colours);
    CHECK(cudaGetLastError());
    static float got[FLOATS * N];
    static float4 got_colours[N];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_colours, colours, sizeof got_colours, cudaMemcpyDeviceToHost));

    int bad[FLOATS + 1] = {};
    long long checksum = 0;
    for (int j = 0; j < GY; ++j)
        for (int i = 0; i < GX; ++i) {
            int k = j * GX + i;
            float x = coord_x(i), y = coord_y(j);
            float want[FLOATS] = {model(x, y, H, false), model(x, y, H, true), model(x + y, 0.0f, 1, true)};
            for (int o = 0; o < FLOATS; ++o) {
                float g = got[o * N + k];
                if (fabsf(g - want[o]) > 1e-5f && bad[o]++ < 3)
                    printf("%s at (%g, %g): got %.9g, want %.9g\n", NAMES[o], x, y, g, want[o]);
                checksum += lroundf(g * 256.0f) * (o + 1);
            }
            int bx = clampi((int)floorf(x), W), by = clampi((int)floorf(y), H);
            float gc[4] = {got_colours[k].x, got_colours[k].y, got_colours[k].z, got_colours[k].w};
            for (int c = 0; c < 4; ++c) {
                float wc = byte_texel(bx, by, c) / 255.0f;
                if (fabsf(gc[c] - wc) > 1e-6f && bad[FLOATS]++ < 3)
                    printf("%s %d at (%g, %g): got %.9g, want %.9g\n", NAMES[FLOATS], c, x, y, gc[c], wc);
                checksum += lroundf(gc[c] * 255.0f);
            }
        }
    int total = 0;
    for (int o = 0; o <= FLOATS; ++o) {
        printf("%s: %d mismatches\n", NAMES[o], bad[o]);
        total += bad[o];
    }
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(ta); cudaDestroyTextureObject(tl);
    cudaDestroyTextureObject(tb);
    cudaFreeArray(array); cudaFreeArray(line_array); cudaFreeArray(byte_array);
    cudaFree(pitched); cudaFree(out); cudaFree(colours);
    printf("checksum: %lld\n%s\n", checksum, total ? "FAIL" : "PASS");
    return total != 0;
}
