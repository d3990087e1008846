// The double-precision CUDA math library as physics and finance code calls it: pow, exp, exp10,
// expm1, log, log1p, cbrt, rsqrt, sqrt, fmod, remquo, frexp/ldexp, nextafter, erf/erfc, tgamma,
// lgamma, sin/cos/sincospi, atan2, sinh/tanh, hypot, fma, trunc/round/rint, and 1/x. Checked
// against the host's libm with the CUDA Math API error bounds (plus headroom).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int N = 64, OUTS = 28;

__global__ void math_kernel(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = in[i];                    // in (-4, 4)
    double p = fabs(x) + 0.25;
    double *o = out + i * OUTS;
    o[0] = pow(p, x * 1.5);
    o[1] = exp(x);
    o[2] = exp10(x * 0.5);
    o[3] = expm1(x * 0.01);
    o[4] = log(p);
    o[5] = log1p(x * 0.2);
    o[6] = cbrt(x * 11.0);
    o[7] = rsqrt(p);
    o[8] = sqrt(p * 3.0);
    o[9] = fmod(x * 17.0, 2.5);
    int q;
    o[10] = remquo(x * 17.0, 1.5, &q);
    o[11] = (double)(q & 7);
    int e;
    double fr = frexp(x * 12345.0, &e);
    o[12] = fr + e;
    o[13] = ldexp(x, i % 21 - 10);
    o[14] = (nextafter(x, 10.0) - x) * 1e16;
    o[15] = erf(x);
    o[16] = erfc(x);
    o[17] = tgamma(p + 0.5);
    o[18] = lgamma(p * 3.0);
    double s, c;
    sincospi(x * 0.3, &s, &c);
    o[19] = s + 2.0 * c;
    o[20] = sin(x * 5.0) + cos(x * 3.0);
    o[21] = atan2(x, p - 1.0);
    o[22] = sinh(x) + tanh(x);
    o[23] = hypot(x, p);
    o[24] = fma(x, p, -1.0 / 3.0);
    o[25] = trunc(x * 3.3) + round(x * 2.5) * 10.0 + rint(x * 1.5) * 100.0;
    o[26] = 1.0 / x;
    o[27] = x / (p * p);
}

struct Check { const char *name; double abs, rel; };
static const Check CHECKS[OUTS] = {
    {"pow", 0, 1e-14}, {"exp", 0, 1e-15}, {"exp10", 0, 1e-15}, {"expm1", 0, 1e-15}, {"log", 1e-16, 1e-15},
    {"log1p", 1e-17, 1e-15}, {"cbrt", 0, 1e-15}, {"rsqrt", 0, 1e-15}, {"sqrt", 0, 0}, {"fmod", 0, 0},
    {"remquo", 0, 0}, {"quo", 0, 0}, {"frexp", 0, 0}, {"ldexp", 0, 0}, {"nextafter", 0, 0},
    {"erf", 1e-16, 1e-15}, {"erfc", 1e-17, 1e-14}, {"tgamma", 0, 1e-14}, {"lgamma", 1e-15, 1e-14},
    {"sincospi", 1e-15, 1e-15}, {"sin+cos", 1e-15, 1e-15}, {"atan2", 1e-16, 1e-15}, {"sinh+tanh", 1e-16, 1e-15},
    {"hypot", 0, 1e-15}, {"fma", 0, 0}, {"trunc/round/rint", 0, 0}, {"1/x", 0, 0}, {"div", 0, 0},
};

static void reference(int i, double x, double *w)
{
    double p = fabs(x) + 0.25;
    w[0] = pow(p, x * 1.5); w[1] = exp(x); w[2] = pow(10.0, x * 0.5); w[3] = expm1(x * 0.01);
    w[4] = log(p); w[5] = log1p(x * 0.2); w[6] = cbrt(x * 11.0); w[7] = 1.0 / sqrt(p);
    w[8] = sqrt(p * 3.0); w[9] = fmod(x * 17.0, 2.5);
    int q; w[10] = remquo(x * 17.0, 1.5, &q); w[11] = (double)(q & 7);
    int e; double fr = frexp(x * 12345.0, &e); w[12] = fr + e;
    w[13] = ldexp(x, i % 21 - 10); w[14] = (nextafter(x, 10.0) - x) * 1e16;
    w[15] = erf(x); w[16] = erfc(x); w[17] = tgamma(p + 0.5); w[18] = lgamma(p * 3.0);
    w[19] = sin(M_PI * (x * 0.3)) + 2.0 * cos(M_PI * (x * 0.3));
    w[20] = sin(x * 5.0) + cos(x * 3.0); w[21] = atan2(x, p - 1.0); w[22] = sinh(x) + tanh(x);
    w[23] = hypot(x, p); w[24] = fma(x, p, -1.0 / 3.0);
    w[25] = trunc(x * 3.3) + round(x * 2.5) * 10.0 + rint(x * 1.5) * 100.0;
    w[26] = 1.0 / x; w[27] = x / (p * p);
}

int main()
{
    static double in[N], out[N * OUTS];
    unsigned long long s = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < N; i++) {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        in[i] = (double)((s * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0) * 7.9 - 3.95;
    }
    in[0] = 0.5; in[1] = -1.0; in[2] = 2.0; in[3] = 1e-3;
    double *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    math_kernel<<<(N + 31) / 32, 32>>>(d_in, d_out, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        double want[OUTS];
        reference(i, in[i], want);
        for (int k = 0; k < OUTS; k++) {
            double got = out[i * OUTS + k], err = fabs(got - want[k]);
            checksum += got * (1 + (k & 3));
            if (!(err <= CHECKS[k].abs + CHECKS[k].rel * fabs(want[k])) && bad++ < 12)
                fprintf(stderr, "%s(x=%.17g): got %.17g want %.17g\n", CHECKS[k].name, in[i], got, want[k]);
        }
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
