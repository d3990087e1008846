// Linear texture filtering, bit for bit: samples of 1D and 2D float textures whose results an
// NVIDIA H200 gave in a probe of 2048 random samples each (the texels, coordinates and results
// below are that probe's). The 1D weights are 1/256 steps and the weighted texels are summed
// exactly, then rounded once; in 2D each corner's weight (the product of two steps) is itself
// rounded to 1/256, ties alternating by corner (the last three 2D samples are such ties). A
// float sum of float products gets the 1D ones wrong; unrounded 2D weights get most 2D ones wrong.
// AMD's image sampler weighs otherwise; both routes compute NVIDIA's rule (the lifter, and on
// the source route hipify/cass_texture_compat.h or cass_texture_software.h).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static const unsigned texels[128] = {0x42f54662, 0x453e7996, 0x40cf0712, 0x44889b25, 0x45482fa1, 0x444539a8, 0x464d4a85, 0xc3a96805,
    0xc37519da, 0x44793cdc, 0x4451c181, 0xc4f83a7f, 0x44c3ee75, 0xc44f8593, 0x43c373ef, 0xc4d1eec5,
    0xc4a0a488, 0xc50bd0f2, 0xc2897370, 0x448af94e, 0x46502d91, 0xc463d9bd, 0xc2ac5484, 0xc430cdab,
    0xc4ae4834, 0x43d748b6, 0x441548df, 0xc44528c8, 0xc47e5eaa, 0x448c9cf9, 0x4406e8f4, 0x45344db1,
    0xc4767333, 0x444d61b3, 0xc43f0c7b, 0xc6463c80, 0x453380a5, 0xc2e29646, 0x448ce4da, 0xc4529d92,
    0xc7d02672, 0xc682a2c7, 0x458d8669, 0xc693b48d, 0x443127e4, 0x44a3d13f, 0x43e1f627, 0x443c116f,
    0x44b9c4a8, 0x43fcb756, 0xc493e2e6, 0xc4fb79d3, 0x43e76249, 0xc49ffce9, 0xc40ae1f6, 0x45e78ceb,
    0xc5d95992, 0x438c46c8, 0xc602cc94, 0xc4032847, 0x44ea6abe, 0x43d63de5, 0xc6b44f41, 0x4499bd99,
    0x438dbc38, 0x444eb29e, 0xc529dd60, 0xc68cf8ab, 0xc415e130, 0xc4a1e1de, 0x439cb09e, 0xc42b0cbc,
    0x4423f42a, 0xc50dbe57, 0x463f31a6, 0xc6fc83ec, 0x457ba8d5, 0x4597716b, 0xc2f4c0e4, 0xc486091c,
    0x4723b8af, 0xc47315ea, 0xc524c5a3, 0x45fbe327, 0x4495cc1d, 0xc3bb80b7, 0x44c52819, 0xc49efd9d,
    0xc472d042, 0xc4a15643, 0xc5504bbc, 0x43d493df, 0xc63f8289, 0xc4802a15, 0xc4d3881a, 0xc47cb060,
    0x44850283, 0xc43c9b63, 0x462c3a5e, 0x45bfbdc3, 0x450d0bbc, 0x4565d089, 0xc41cf58d, 0x445a2355,
    0x447c8c91, 0xc41291e8, 0x45d1159a, 0x435cbab8, 0xc4884144, 0x4402ae62, 0xc29891cf, 0xc401495e,
    0x438756a5, 0x440749d9, 0xc6584dd1, 0xc49e7f91, 0x445391ae, 0x45a7f6fc, 0x45d6c3ec, 0xc552a01d,
    0xc4c465df, 0xc47abd0a, 0xc5857dce, 0x44a32792, 0x449ef726, 0x43a56ca7, 0x441de6c4, 0xc468382a};
static const unsigned one_x[] = {0x41076b7c, 0x404f2985, 0x40f0c204, 0x4111e33d, 0x40b162c8, 0x413ce107}, one_expected[] = {0xc3786542, 0x444a2172, 0xc3a84ee2, 0x44025e96, 0x44a4f1b5, 0xc461cc09};
static const unsigned two_x[] = {0x41076b7c, 0x404f2985, 0x40e085ec, 0x407e36ea, 0x40d3ff76, 0x41485c83, 0x4098a706, 0x3fff3d8f}, two_y[] = {0x4097c4d9, 0x400bd4de, 0x40ddaf58, 0x4096a19a, 0x402eda47, 0x3fdfc770, 0x409ff8ee, 0x3fe0210e}, two_expected[] = {0x435ec4ee, 0xc5c41bff, 0x4440a2c9, 0xc5d38138, 0x443f330f, 0xc408f1af, 0xc100eb82, 0xc45a9c58};
enum { W = 16, H = 8, N1 = sizeof one_x / 4, N2 = sizeof two_x / 4 };

__global__ void sample(cudaTextureObject_t t1, cudaTextureObject_t t2, const float *x1, const float *x2,
                       const float *y2, float *out)
{
    int i = threadIdx.x;
    if (i < N1) out[i] = tex1D<float>(t1, x1[i]);
    if (i < N2) out[N1 + i] = tex2D<float>(t2, x2[i], y2[i]);
}

static float as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned as_bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

static cudaTextureObject_t linear_texture(cudaArray_t a)
{
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc d = {};
    d.filterMode = cudaFilterModeLinear;
    d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &r, &d, NULL);
    return t;
}

static float *upload(const unsigned *bits, int n)
{
    float values[16], *d;
    for (int i = 0; i < n; i++) values[i] = as_float(bits[i]);
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, values, n * sizeof(float), cudaMemcpyHostToDevice);
    return d;
}

int main()
{
    float values[W * H];
    for (int i = 0; i < W * H; i++) values[i] = as_float(texels[i]);
    cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
    cudaArray_t a1, a2;
    cudaMallocArray(&a1, &c, W);
    cudaMallocArray(&a2, &c, W, H);
    cudaMemcpy2DToArray(a1, 0, 0, values, W * 4, W * 4, 1, cudaMemcpyHostToDevice);
    cudaMemcpy2DToArray(a2, 0, 0, values, W * 4, W * 4, H, cudaMemcpyHostToDevice);
    float *out, results[N1 + N2];
    cudaMalloc(&out, sizeof results);
    sample<<<1, 32>>>(linear_texture(a1), linear_texture(a2), upload(one_x, N1), upload(two_x, N2),
                      upload(two_y, N2), out);
    cudaMemcpy(results, out, sizeof results, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < N1 + N2; i++) {
        unsigned want = i < N1 ? one_expected[i] : two_expected[i - N1], got = as_bits(results[i]);
        printf("%s %d: %08x%s\n", i < N1 ? "1D" : "2D", i < N1 ? i : i - N1, got, got == want ? "" : " MISMATCH");
        wrong += got != want;
    }
    printf("%s\n", wrong ? "FAIL" : "PASS");
    return wrong != 0;
}
