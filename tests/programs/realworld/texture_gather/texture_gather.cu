// tex2Dgather: one component of the four texels that bilinear filtering at (x, y) would read, in
// the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i = floor(x - 0.5), j = floor(y - 0.5);
// a float4 array (clamp addressing, each component) and a float array (wrap, normalised
// coordinates). A CPU model checks every value.
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 8, H = 4, SAMPLES = 64;

__host__ __device__ float sx(int i) { return (i % 16) * 0.625f - 1.0f; }
__host__ __device__ float sy(int i) { return (i / 16) * 1.375f - 0.5f; }
static float value(int x, int y, int c) { return (float)(x + 10 * y + 100 * c); }

__global__ void gather(cudaTextureObject_t quad, cudaTextureObject_t wrapped, float4 *out)
{
    int i = threadIdx.x;
    out[i] = tex2Dgather<float4>(quad, sx(i), sy(i), 0);
    out[SAMPLES + i] = tex2Dgather<float4>(quad, sx(i), sy(i), 1);
    out[2 * SAMPLES + i] = tex2Dgather<float4>(quad, sx(i), sy(i), 2);
    out[3 * SAMPLES + i] = tex2Dgather<float4>(quad, sx(i), sy(i), 3);
    out[4 * SAMPLES + i] = tex2Dgather<float4>(wrapped, sx(i) / W, sy(i) / H, 0);
}

static int address(int i, int n, bool wrap)
{
    if (wrap) { i %= n; return i < 0 ? i + n : i; }
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

int main()
{
    float4 quad[H][W];
    float plain[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            quad[y][x] = make_float4(value(x, y, 0), value(x, y, 1), value(x, y, 2), value(x, y, 3));
            plain[y][x] = value(x, y, 0);
        }
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>(), f1 = cudaCreateChannelDesc<float>();
    cudaArray_t qa, pa;
    CHECK(cudaMallocArray(&qa, &f4, W, H, cudaArrayTextureGather));
    CHECK(cudaMallocArray(&pa, &f1, W, H, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(qa, 0, 0, quad, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(pa, 0, 0, plain, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc rq = {}, rp = {};
    rq.resType = rp.resType = cudaResourceTypeArray;
    rq.res.array.array = qa; rp.res.array.array = pa;
    cudaTextureDesc tq = {}, tw = {};
    tq.addressMode[0] = tq.addressMode[1] = cudaAddressModeClamp;
    tw.addressMode[0] = tw.addressMode[1] = cudaAddressModeWrap;
    tw.normalizedCoords = 1;
    cudaTextureObject_t quad_tex = 0, wrap_tex = 0;
    CHECK(cudaCreateTextureObject(&quad_tex, &rq, &tq, nullptr));
    CHECK(cudaCreateTextureObject(&wrap_tex, &rp, &tw, nullptr));
    float4 *out;
    CHECK(cudaMalloc(&out, 5 * SAMPLES * sizeof(float4)));
    gather<<<1, SAMPLES>>>(quad_tex, wrap_tex, out);
    CHECK(cudaGetLastError());
    float4 got[5 * SAMPLES];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int k = 0; k < 5; ++k)
        for (int s = 0; s < SAMPLES; ++s) {
            bool wrap = k == 4;
            int c = wrap ? 0 : k;
            int i = (int)floorf(sx(s) - 0.5f), j = (int)floorf(sy(s) - 0.5f);
            const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
            float g[4] = {got[k * SAMPLES + s].x, got[k * SAMPLES + s].y, got[k * SAMPLES + s].z, got[k * SAMPLES + s].w};
            for (int t = 0; t < 4; ++t) {
                float want = value(address(i + dx[t], W, wrap), address(j + dy[t], H, wrap), c);
                if (g[t] != want && bad++ < 5) printf("gather %d sample %d texel %d: %g, want %g\n", k, s, t, g[t], want);
                checksum += (long long)g[t] * (t + 1) * (k + 1);
            }
        }
    cudaDestroyTextureObject(quad_tex); cudaDestroyTextureObject(wrap_tex);
    cudaFreeArray(qa); cudaFreeArray(pa); cudaFree(out);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
