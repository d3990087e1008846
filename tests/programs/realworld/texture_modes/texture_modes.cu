// Texture addressing modes and filtering of 8-bit data: wrap (linear filtering) and mirror (point)
// on normalised coordinates, border with a border colour (uchar4 read as normalised floats) and
// with the default colour (float, linear filtering), and linear filtering of uchar4 read as
// normalised floats. A CPU model of CUDA's rules checks every value; each case reports its
// mismatches, so a difference shows which rule it is. A probe line (not checked) shows how the
// linear filter quantises weights: two texels 0 and 256, sampled between them (the H200: to the
// nearest 1/256, ties up). The border colour of 8-bit unorm data is a texel value: the nearest
// 1/255 step, ties toward zero (the H200: 0.5 -> 127/255). Border probe lines (not checked) show
// the colour other formats return: 8-bit unorm between steps, 16-bit unorm, 8-bit snorm, float,
// and 8-bit integers read as integers.
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 16, H = 8;
const int GX = 24, GY = 12;
const int N = GX * GY;
// mirror samples sit 1/64 texel right of the grid: exactly at a texel's edge, mirroring the
// coordinate and mirroring the texel index differ
const float MIRROR_SHIFT = 0.015625f;
enum { WRAP_LINEAR, MIRROR_POINT, BORDER_LINEAR, FLOATS };
enum { BORDER_COLOUR, BYTES_LINEAR, COLOURS };
const char *const NAMES[] = {"wrap linear", "mirror point", "border linear", "border colour", "uchar4 linear"};

__device__ __host__ float coord_x(int i) { return (i - 4) * 0.75f; }
__device__ __host__ float coord_y(int j) { return (j - 2) * 0.5f + 0.25f; }

__global__ void sample(cudaTextureObject_t wrap, cudaTextureObject_t mirror, cudaTextureObject_t border,
                       cudaTextureObject_t coloured, cudaTextureObject_t bytes, float *out, float4 *colours)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = j * GX + i;
    float x = coord_x(i), y = coord_y(j);
    out[WRAP_LINEAR * N + k] = tex2D<float>(wrap, x / W, y / H);
    out[MIRROR_POINT * N + k] = tex2D<float>(mirror, (x + MIRROR_SHIFT) / W, y / H);
    out[BORDER_LINEAR * N + k] = tex2D<float>(border, x, y);
    colours[BORDER_COLOUR * N + k] = tex2D<float4>(coloured, x / W, y / H);
    colours[BYTES_LINEAR * N + k] = tex2D<float4>(bytes, x, y);
}

const int PROBES = 8;
__device__ __host__ float probe_x(int i)
{
    const float fractions[PROBES] = {1.0f / 1024, 1.0f / 512, 3.0f / 1024, 1.0f / 256 - 1.0f / 4096,
                                     0.1f, 1.0f / 3, 0.5f + 1.0f / 512, 1.0f - 1.0f / 1024};
    return 0.5f + fractions[i];
}

__global__ void probe(cudaTextureObject_t ramp, float *out)
{
    int i = threadIdx.x;
    if (i < PROBES) out[i] = tex1D<float>(ramp, probe_x(i));
}

// the border colour of one-texel textures: the formats read as floats, then one read as integers
const int BORDER_PROBES = 4;
__global__ void probe_border(cudaTextureObject_t t0, cudaTextureObject_t t1, cudaTextureObject_t t2,
                             cudaTextureObject_t t3, cudaTextureObject_t integers, float4 *out, uchar4 *bytes)
{
    out[0] = tex1D<float4>(t0, -1.0f);
    out[1] = tex1D<float4>(t1, -1.0f);
    out[2] = tex1D<float4>(t2, -1.0f);
    out[3] = tex1D<float4>(t3, -1.0f);
    *bytes = tex1D<uchar4>(integers, -1.0f);
}

// nearest 8-bit unorm step, ties toward zero
static float quantised(float c) { return ceilf(c * 255.0f - 0.5f) / 255.0f; }

static float texel(int x, int y) { return (float)((x * 3 + y * 5) % 17 - 8); }
static unsigned char byte_texel(int x, int y, int c) { return (unsigned char)(x * 13 + y * 29 + c * 61); }

// texel index i along n texels under an address mode; false when it reads the border
static bool address(int &i, int n, cudaTextureAddressMode mode)
{
    if (mode == cudaAddressModeWrap) { i %= n; if (i < 0) i += n; return true; }
    if (mode == cudaAddressModeMirror) {
        int p = i % (2 * n); if (p < 0) p += 2 * n; i = p < n ? p : 2 * n - 1 - p; return true;
    }
    if (mode == cudaAddressModeBorder) return i >= 0 && i < n;
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    return true;
}

// channel c of the texel (x, y): the float texture (c < 0) or the uchar4 one, or the border
static float fetch(int x, int y, cudaTextureAddressMode mode, int c, const float *border)
{
    if (!address(x, W, mode) || !address(y, H, mode)) return c < 0 ? 0.0f : border[c];
    return c < 0 ? texel(x, y) : byte_texel(x, y, c) / 255.0f;
}

static float model(float x, float y, bool linear, cudaTextureAddressMode mode, int c = -1,
                   const float *border = nullptr)
{
    if (!linear) return fetch((int)floorf(x), (int)floorf(y), mode, c, border);
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - i, b = yb - j;
    return (1 - a) * (1 - b) * fetch(i, j, mode, c, border) + a * (1 - b) * fetch(i + 1, j, mode, c, border)
         + (1 - a) * b * fetch(i, j + 1, mode, c, border) + a * b * fetch(i + 1, j + 1, mode, c, border);
}

static cudaTextureObject_t make(cudaArray_t a, cudaTextureFilterMode filter, cudaTextureAddressMode mode,
                                bool normalized, cudaTextureReadMode read = cudaReadModeElementType,
                                const float *border = nullptr)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
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
    float host[H][W];
    unsigned char host_bytes[H][W][4];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            host[y][x] = texel(x, y);
            for (int c = 0; c < 4; ++c) host_bytes[y][x][c] = byte_texel(x, y, c);
        }
    // uchar4 in the explicit form: HIP 5.2's hipCreateChannelDesc<uchar4>() says signed (a header bug)
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(),
                          u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t array, byte_array;
    CHECK(cudaMallocArray(&array, &f1, W, H));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&byte_array, &u4, W, H));
    CHECK(cudaMemcpy2DToArray(byte_array, 0, 0, host_bytes, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    float border_texels[4];
    for (int c = 0; c < 4; ++c) border_texels[c] = quantised(border[c]);
    cudaTextureObject_t tw = make(array, cudaFilterModeLinear, cudaAddressModeWrap, true);
    cudaTextureObject_t tm = make(array, cudaFilterModePoint, cudaAddressModeMirror, true);
    cudaTextureObject_t tz = make(array, cudaFilterModeLinear, cudaAddressModeBorder, false);
    cudaTextureObject_t tc = make(byte_array, cudaFilterModePoint, cudaAddressModeBorder, true,
                                  cudaReadModeNormalizedFloat, border);
    cudaTextureObject_t tb = make(byte_array, cudaFilterModeLinear, cudaAddressModeClamp, false,
                                  cudaReadModeNormalizedFloat);
    if (!tw || !tm || !tz || !tc || !tb) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }
    const float ramp_texels[2] = {0.0f, 256.0f};
    cudaArray_t ramp_array;
    CHECK(cudaMallocArray(&ramp_array, &f1, 2));
    CHECK(cudaMemcpy2DToArray(ramp_array, 0, 0, ramp_texels, sizeof ramp_texels, sizeof ramp_texels, 1,
                              cudaMemcpyHostToDevice));
    cudaTextureObject_t ramp = make(ramp_array, cudaFilterModeLinear, cudaAddressModeClamp, false);
    float *probe_out, probes[PROBES];
    CHECK(cudaMalloc(&probe_out, sizeof probes));
    probe<<<1, 32>>>(ramp, probe_out);
    CHECK(cudaMemcpy(probes, probe_out, sizeof probes, cudaMemcpyDeviceToHost));
    printf("probe (256 x the weight at x - 0.5 =");
    for (int i = 0; i < PROBES; ++i) printf(" %.6g", probe_x(i) - 0.5f);
    printf("):");
    for (int i = 0; i < PROBES; ++i) printf(" %.6g", probes[i]);
    printf("\n");
    const char *const border_names[BORDER_PROBES + 1] = {"uchar4 norm", "ushort4 norm", "char4 norm", "float4",
                                                         "uchar4 element"};
    const float border_probes[BORDER_PROBES + 1][4] = {
        {100.1f / 255, 100.4f / 255, 100.6f / 255, 100.9f / 255},
        {0.25f, 0.5f, 0.75f, 100.6f / 65535},
        {0.25f, -0.25f, 0.5f, -0.5f},
        {0.1f, -2.5f, 1e6f, 0.3f},
        {0.25f, 2.7f, 300.5f, -1.5f}};
    const cudaChannelFormatDesc border_formats[BORDER_PROBES + 1] = {
        u4, cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindUnsigned),
        cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned), cudaCreateChannelDesc<float4>(), u4};
    cudaArray_t border_arrays[BORDER_PROBES + 1];
    cudaTextureObject_t border_textures[BORDER_PROBES + 1];
    for (int p = 0; p <= BORDER_PROBES; ++p) {
        CHECK(cudaMallocArray(&border_arrays[p], &border_formats[p], 1));
        border_textures[p] = make(border_arrays[p], cudaFilterModePoint, cudaAddressModeBorder, false,
                                  p < BORDER_PROBES && p != 3 ? cudaReadModeNormalizedFloat : cudaReadModeElementType,
                                  border_probes[p]);
        if (!border_textures[p]) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }
    }
    float4 *border_out, border_got[BORDER_PROBES];
    uchar4 *border_bytes, border_bytes_got;
    CHECK(cudaMalloc(&border_out, sizeof border_got));
    CHECK(cudaMalloc(&border_bytes, sizeof border_bytes_got));
    probe_border<<<1, 1>>>(border_textures[0], border_textures[1], border_textures[2], border_textures[3],
                           border_textures[4], border_out, border_bytes);
    CHECK(cudaMemcpy(border_got, border_out, sizeof border_got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&border_bytes_got, border_bytes, sizeof border_bytes_got, cudaMemcpyDeviceToHost));
    for (int p = 0; p < BORDER_PROBES; ++p) {
        const float *want = border_probes[p];
        printf("border probe %s (%.9g %.9g %.9g %.9g): %.9g %.9g %.9g %.9g\n", border_names[p], want[0], want[1],
               want[2], want[3], border_got[p].x, border_got[p].y, border_got[p].z, border_got[p].w);
    }
    printf("border probe %s (%g %g %g %g): %d %d %d %d\n", border_names[BORDER_PROBES],
           border_probes[BORDER_PROBES][0], border_probes[BORDER_PROBES][1], border_probes[BORDER_PROBES][2],
           border_probes[BORDER_PROBES][3], border_bytes_got.x, border_bytes_got.y, border_bytes_got.z,
           border_bytes_got.w);
    for (int p = 0; p <= BORDER_PROBES; ++p) {
        cudaDestroyTextureObject(border_textures[p]);
        cudaFreeArray(border_arrays[p]);
    }
    cudaFree(border_out); cudaFree(border_bytes);

    float *out; float4 *colours;
    CHECK(cudaMalloc(&out, FLOATS * N * sizeof(float)));
    CHECK(cudaMalloc(&colours, COLOURS * N * sizeof(float4)));
    sample<<<dim3(GX / 8, GY / 4), dim3(8, 4)>>>(tw, tm, tz, tc, tb, out, colours);
    CHECK(cudaGetLastError());
    static float got[FLOATS * N];
    static float4 got_colours[COLOURS * N];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_colours, colours, sizeof got_colours, cudaMemcpyDeviceToHost));

    int bad[FLOATS + COLOURS] = {};
    long long checksum = 0;
    for (int j = 0; j < GY; ++j)
        for (int i = 0; i < GX; ++i) {
            int k = j * GX + i;
            float x = coord_x(i), y = coord_y(j);
            float want[FLOATS] = {model(x / W * W, y / H * H, true, cudaAddressModeWrap),
                                  model(x + MIRROR_SHIFT, y, false, cudaAddressModeMirror),
                                  model(x, y, true, cudaAddressModeBorder)};
            for (int o = 0; o < FLOATS; ++o) {
                float g = got[o * N + k];
                if (fabsf(g - want[o]) > 1e-5f && bad[o]++ < 3)
                    printf("%s at (%g, %g): got %.9g, want %.9g\n", NAMES[o], x, y, g, want[o]);
                checksum += lroundf(g * 256.0f) * (o + 1);
            }
            for (int o = 0; o < COLOURS; ++o) {
                float4 g4 = got_colours[o * N + k];
                float gc[4] = {g4.x, g4.y, g4.z, g4.w};
                for (int c = 0; c < 4; ++c) {
                    // 8-bit data filters within a step of the data
                    float wc = o == BORDER_COLOUR ? model(x, y, false, cudaAddressModeBorder, c, border_texels)
                                                  : model(x, y, true, cudaAddressModeClamp, c);
                    float tolerance = o == BORDER_COLOUR ? 1e-6f : 1.0f / 255;
                    if (fabsf(gc[c] - wc) > tolerance && bad[FLOATS + o]++ < 3)
                        printf("%s %d at (%g, %g): got %.9g, want %.9g\n", NAMES[FLOATS + o], c, x, y, gc[c], wc);
                    if (o == BORDER_COLOUR)       // filtered 8-bit values may round either way
                        checksum += lroundf(gc[c] * 255.0f);
                }
            }
        }
    int total = 0;
    for (int o = 0; o < FLOATS + COLOURS; ++o) {
        printf("%s: %d mismatches\n", NAMES[o], bad[o]);
        total += bad[o];
    }
    cudaDestroyTextureObject(tw); cudaDestroyTextureObject(tm); cudaDestroyTextureObject(tz);
    cudaDestroyTextureObject(tc); cudaDestroyTextureObject(tb);
    cudaDestroyTextureObject(ramp);
    cudaFreeArray(array); cudaFreeArray(byte_array); cudaFreeArray(ramp_array);
    cudaFree(out); cudaFree(colours); cudaFree(probe_out);
    printf("checksum: %lld\n%s\n", checksum, total ? "FAIL" : "PASS");
    return total != 0;
}
