// The cuda_fp16 / cuda_bf16 math functions inference kernels call: hexp, hexp2, hexp10, hlog,
// hlog2, hlog10, hsqrt, hrsqrt, hrcp, hsin, hcos, hceil, hfloor, htrunc, hrint, their half2
// versions (h2exp, h2sqrt, h2log, h2rcp, h2floor ...), __hmax_nan/__hmin_nan, __habs2, __hneg2,
// and the bf16 ones (hexp, hsqrt, hsin, hrcp, hfloor on __nv_bfloat16). Checked against the
// host's double math to within one unit in the last place of the 16-bit result.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int N = 64, HOUTS = 16, H2OUTS = 8, BOUTS = 6;

__global__ void half_kernel(const __half *in, __half *o, __half2 *o2, const __nv_bfloat16 *bin, __nv_bfloat16 *ob)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half x = in[i];                           // in (0.25, 4)
    __half s = __hsub(x, __float2half(2.0f));   // signed, in (-1.75, 2)
    __half *r = o + i * HOUTS;
    r[0] = hexp(s); r[1] = hexp2(s); r[2] = hexp10(s); r[3] = hlog(x); r[4] = hlog2(x); r[5] = hlog10(x);
    r[6] = hsqrt(x); r[7] = hrsqrt(x); r[8] = hrcp(s); r[9] = hsin(s); r[10] = hcos(s);
    r[11] = hceil(s); r[12] = hfloor(s); r[13] = htrunc(s); r[14] = hrint(__hmul(s, __float2half(2.5f)));
    r[15] = __hmax_nan(s, __hneg(s));
    __half2 x2 = __halves2half2(x, s);
    __half2 *r2 = o2 + i * H2OUTS;
    r2[0] = h2exp(x2); r2[1] = h2sqrt(__habs2(x2)); r2[2] = h2log(__habs2(x2)); r2[3] = h2rcp(x2);
    r2[4] = h2floor(x2); r2[5] = h2cos(x2); r2[6] = __hmin2_nan(x2, __hneg2(x2)); r2[7] = h2rint(__hmul2(x2, x2));
    __nv_bfloat16 b = bin[i];
    __nv_bfloat16 *rb = ob + i * BOUTS;
    rb[0] = hexp(b); rb[1] = hsqrt(__habs(b)); rb[2] = hsin(b); rb[3] = hrcp(b); rb[4] = hfloor(b); rb[5] = __hmax(b, __hneg(b));
}

static bool close_half(double got, double want, double ulps)
{
    if (std::isnan(want)) return std::isnan(got);
    double mag = fabs(want) < 6.1e-5 ? 6.1e-5 : fabs(want);
    double ulp = ldexp(1.0, (int)floor(log2(mag)) - 10);
    return fabs(got - want) <= ulps * ulp;
}

int main()
{
    static __half in[N], o[N * HOUTS];
    static __half2 o2[N * H2OUTS];
    static __nv_bfloat16 bin[N], ob[N * BOUTS];
    for (int i = 0; i < N; i++) {
        in[i] = __float2half(0.25f + 3.75f * (float)((i * 37) % N) / N);
        bin[i] = __float2bfloat16(-3.0f + 6.0f * (float)((i * 29) % N) / N + 0.0625f);
    }
    __half *d_in, *d_o; __half2 *d_o2; __nv_bfloat16 *d_bin, *d_ob;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_o, sizeof o)); CUDA_CHECK(cudaMalloc(&d_o2, sizeof o2));
    CUDA_CHECK(cudaMalloc(&d_bin, sizeof bin)); CUDA_CHECK(cudaMalloc(&d_ob, sizeof ob));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bin, bin, sizeof bin, cudaMemcpyHostToDevice));
    half_kernel<<<N / 32, 32>>>(d_in, d_o, d_o2, d_bin, d_ob);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(o2, d_o2, sizeof o2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ob, d_ob, sizeof ob, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        double x = __half2float(in[i]), s = __half2float(__float2half(__half2float(in[i]) - 2.0f));
        double hr = __half2float(__float2half((float)(s * 2.5)));
        double want[HOUTS] = {exp(s), exp2(s), pow(10.0, s), log(x), log2(x), log10(x), sqrt(x), 1 / sqrt(x),
                              1 / s, sin(s), cos(s), ceil(s), floor(s), trunc(s), nearbyint(hr), fabs(s)};
        for (int k = 0; k < HOUTS; k++) {
            double got = __half2float(o[i * HOUTS + k]);
            checksum += got;
            if (!close_half(got, want[k], 1.0) && bad++ < 8) fprintf(stderr, "half %d x=%g: %.6g want %.6g\n", k, x, got, want[k]);
        }
        double sq = __half2float(__float2half((float)(x * x))), sq2 = __half2float(__float2half((float)(s * s)));
        double want2[H2OUTS][2] = {{exp(x), exp(s)}, {sqrt(x), sqrt(fabs(s))}, {log(x), log(fabs(s))}, {1 / x, 1 / s},
                                   {floor(x), floor(s)}, {cos(x), cos(s)}, {-x, -fabs(s)}, {nearbyint(sq), nearbyint(sq2)}};
        for (int k = 0; k < H2OUTS; k++) {
            double lo = __low2float(o2[i * H2OUTS + k]), hi = __high2float(o2[i * H2OUTS + k]);
            checksum += lo + 2 * hi;
            if ((!close_half(lo, want2[k][0], 1.0) || !close_half(hi, want2[k][1], 1.0)) && bad++ < 8)
                fprintf(stderr, "half2 %d x=%g s=%g: (%.6g, %.6g) want (%.6g, %.6g)\n", k, x, s, lo, hi, want2[k][0], want2[k][1]);
        }
        double b = __bfloat162float(bin[i]);
        double wantb[BOUTS] = {exp(b), sqrt(fabs(b)), sin(b), 1 / b, floor(b), fabs(b)};
        for (int k = 0; k < BOUTS; k++) {
            double got = __bfloat162float(ob[i * BOUTS + k]);
            checksum += got;
            double ulp = ldexp(1.0, (int)floor(log2(fabs(wantb[k]) < 1e-30 ? 1e-30 : fabs(wantb[k]))) - 7);
            if (!(fabs(got - wantb[k]) <= ulp) && bad++ < 8) fprintf(stderr, "bf16 %d b=%g: %.6g want %.6g\n", k, b, got, wantb[k]);
        }
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
