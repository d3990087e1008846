// tex1Dfetch of the less common channel formats: half floats (read as float), char4 and short2
// read as normalised floats (signed: the most negative value reads -1) and ushort as is (and zero
// before the start). Channel formats in the explicit form: HIP 5.2's templates get some kinds wrong.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void formats(cudaTextureObject_t th, cudaTextureObject_t tc, cudaTextureObject_t ts,
                        cudaTextureObject_t tu, float *oh, float4 *oc, float2 *os, int *ou)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    oh[i] = tex1Dfetch<float>(th, i);
    oc[i] = tex1Dfetch<float4>(tc, i);
    os[i] = tex1Dfetch<float2>(ts, i);
    ou[i] = tex1Dfetch<unsigned short>(tu, i - 3);
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
    return cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess ? t : 0;
}

int main()
{
    const int n = 64;
    __half hh[n]; char4 hc4[n]; short2 hs[n]; unsigned short hu[n];
    for (int i = 0; i < n; ++i) {
        hh[i] = __float2half(i * 0.375f - 5.0f);
        hc4[i] = make_char4(i * 4 - 128, 127 - i, -i, i);
        hs[i] = make_short2(i * 1000 - 32768, 32767 - i * 999);
        hu[i] = (unsigned short)(65535 - i * 1021);
    }
    __half *dh; char4 *dc4; short2 *ds; unsigned short *du;
    float *oh; float4 *oc4; float2 *os; int *ou;
    CHECK(cudaMalloc(&dh, sizeof hh)); CHECK(cudaMalloc(&dc4, sizeof hc4));
    CHECK(cudaMalloc(&ds, sizeof hs)); CHECK(cudaMalloc(&du, sizeof hu));
    CHECK(cudaMalloc(&oh, n * sizeof(float))); CHECK(cudaMalloc(&oc4, n * sizeof(float4)));
    CHECK(cudaMalloc(&os, n * sizeof(float2))); CHECK(cudaMalloc(&ou, n * sizeof(int)));
    CHECK(cudaMemcpy(dh, hh, sizeof hh, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc4, hc4, sizeof hc4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, hs, sizeof hs, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(du, hu, sizeof hu, cudaMemcpyHostToDevice));
    cudaTextureObject_t th = make(dh, sizeof hh, cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat),
                                  cudaReadModeElementType);
    cudaTextureObject_t tc4 = make(dc4, sizeof hc4, cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned),
                                   cudaReadModeNormalizedFloat);
    cudaTextureObject_t ts = make(ds, sizeof hs, cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned),
                                  cudaReadModeNormalizedFloat);
    cudaTextureObject_t tu = make(du, sizeof hu, cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned),
                                  cudaReadModeElementType);
    if (!th || !tc4 || !ts || !tu) { printf("cudaCreateTextureObject failed\nFAIL\n"); return 1; }
    formats<<<n / 32, 32>>>(th, tc4, ts, tu, oh, oc4, os, ou);
    CHECK(cudaGetLastError());
    float rh[n]; float4 rc4[n]; float2 rs[n]; int ru[n];
    CHECK(cudaMemcpy(rh, oh, sizeof rh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rc4, oc4, sizeof rc4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rs, os, sizeof rs, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ru, ou, sizeof ru, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int i = 0; i < n; ++i) {
        float want_c[4] = {fmaxf(hc4[i].x / 127.0f, -1.0f), fmaxf(hc4[i].y / 127.0f, -1.0f),
                           fmaxf(hc4[i].z / 127.0f, -1.0f), fmaxf(hc4[i].w / 127.0f, -1.0f)};
        float got_c[4] = {rc4[i].x, rc4[i].y, rc4[i].z, rc4[i].w};
        float want_s[2] = {fmaxf(hs[i].x / 32767.0f, -1.0f), fmaxf(hs[i].y / 32767.0f, -1.0f)};
        int want_u = i >= 3 ? hu[i - 3] : 0;
        if (rh[i] != __half2float(hh[i])) { if (bad++ < 5) printf("half %d: %g\n", i, rh[i]); }
        for (int c = 0; c < 4; ++c)
            if (fabsf(got_c[c] - want_c[c]) > 1e-6f) { if (bad++ < 5) printf("char4 %d.%d: %.9g, want %.9g\n", i, c, got_c[c], want_c[c]); }
        if (fabsf(rs[i].x - want_s[0]) > 1e-6f || fabsf(rs[i].y - want_s[1]) > 1e-6f) {
            if (bad++ < 5) printf("short2 %d: %.9g %.9g\n", i, rs[i].x, rs[i].y);
        }
        if (ru[i] != want_u) { if (bad++ < 5) printf("ushort %d: %d, want %d\n", i, ru[i], want_u); }
        checksum += lroundf(rh[i] * 8) + ru[i] + lroundf(rs[i].x * 32767) + lroundf(rs[i].y * 32767);
        for (int c = 0; c < 4; ++c) checksum += lroundf(got_c[c] * 127);
    }
    cudaDestroyTextureObject(th); cudaDestroyTextureObject(tc4); cudaDestroyTextureObject(ts);
    cudaDestroyTextureObject(tu);
    cudaFree(dh); cudaFree(dc4); cudaFree(ds); cudaFree(du);
    cudaFree(oh); cudaFree(oc4); cudaFree(os); cudaFree(ou);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
