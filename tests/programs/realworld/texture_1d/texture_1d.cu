// tex1Dfetch through texture objects on linear memory: float, int, float2, uchar4 read as
// normalised floats, and indices past the end (which read zero).
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fetch(cudaTextureObject_t tf, cudaTextureObject_t ti, cudaTextureObject_t t2,
                      cudaTextureObject_t tc, float *of, int *oi, float2 *o2, float4 *oc, int shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    oi[i] = tex1Dfetch<int>(ti, i + shift);
    of[i] = tex1Dfetch<float>(tf, i) * 2.0f + 1.0f;
    o2[i] = tex1Dfetch<float2>(t2, i);
    oc[i] = tex1Dfetch<float4>(tc, i);
}

static cudaTextureObject_t make(void *data, size_t bytes, cudaChannelFormatDesc desc, cudaTextureReadMode mode)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = data;
    rd.res.linear.desc = desc;
    rd.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td = {};
    td.readMode = mode;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &rd, &td, nullptr) != cudaSuccess)
        return 0;
    return t;
}

int main()
{
    const int n = 64, shift = 5;          // two blocks of 32; the int fetch runs 5 past the end
    float hf[n]; int hi[n]; float2 h2[n]; uchar4 hc[n];
    for (int i = 0; i < n; ++i) {
        hf[i] = i * 0.75f - 7.0f;
        hi[i] = (i * 37) % 101 - 50;
        h2[i] = make_float2(i * 0.5f, -i * 0.25f);
        hc[i] = make_uchar4(i * 4, 255 - i, (i * 7) & 255, 128);
    }
    float *df; int *di; float2 *d2; uchar4 *dc;
    float *of; int *oi; float2 *o2; float4 *oc;
    CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&di, sizeof hi));
    CHECK(cudaMalloc(&d2, sizeof h2)); CHECK(cudaMalloc(&dc, sizeof hc));
    CHECK(cudaMalloc(&of, n * sizeof(float))); CHECK(cudaMalloc(&oi, n * sizeof(int)));
    CHECK(cudaMalloc(&o2, n * sizeof(float2))); CHECK(cudaMalloc(&oc, n * sizeof(float4)));
    CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d2, h2, sizeof h2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    cudaTextureObject_t tf = make(df, sizeof hf, cudaCreateChannelDesc<float>(), cudaReadModeElementType);
    cudaTextureObject_t ti = make(di, sizeof hi, cudaCreateChannelDesc<int>(), cudaReadModeElementType);
    cudaTextureObject_t t2 = make(d2, sizeof h2, cudaCreateChannelDesc<float2>(), cudaReadModeElementType);
    // the explicit form: HIP 5.2's hipCreateChannelDesc<uchar4>() says signed (a header bug)
    cudaTextureObject_t tc = make(dc, sizeof hc, cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned),
                                  cudaReadModeNormalizedFloat);
    if (!tf || !ti || !t2 || !tc) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }

    fetch<<<n / 32, 32>>>(tf, ti, t2, tc, of, oi, o2, oc, shift);
    CHECK(cudaGetLastError());
    float rf[n]; int ri[n]; float2 r2[n]; float4 rc[n];
    CHECK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ri, oi, sizeof ri, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r2, o2, sizeof r2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rc, oc, sizeof rc, cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int i = 0; i < n; ++i) {
        int want_i = i + shift < n ? hi[i + shift] : 0;
        float want_c[4] = {hc[i].x / 255.0f, hc[i].y / 255.0f, hc[i].z / 255.0f, hc[i].w / 255.0f};
        float got_c[4] = {rc[i].x, rc[i].y, rc[i].z, rc[i].w};
        if (rf[i] != hf[i] * 2.0f + 1.0f) bad++;
        if (ri[i] != want_i) bad++;
        if (r2[i].x != h2[i].x || r2[i].y != h2[i].y) bad++;
        for (int c = 0; c < 4; ++c)
            if (fabsf(got_c[c] - want_c[c]) > 1e-6f) bad++;
        if (bad && bad < 4) printf("mismatch at %d\n", i);
        checksum += (long long)lroundf(rf[i] * 4) + ri[i] + (long long)lroundf(r2[i].x * 4 - r2[i].y * 4);
        for (int c = 0; c < 4; ++c) checksum += lroundf(got_c[c] * 255.0f);
    }
    cudaDestroyTextureObject(tf); cudaDestroyTextureObject(ti);
    cudaDestroyTextureObject(t2); cudaDestroyTextureObject(tc);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
