// Black-Scholes European call and put prices in float (expf, logf, sqrtf, erfcf via the normal CDF),
// option parameters as an array of structs.
#include <cstdio>
#include <cstdlib>
#include <cmath>

struct Option {
    float spot, strike, years, rate, vol;
};

__device__ __host__ float norm_cdf(float x) { return 0.5f * erfcf(-x * 0.70710678f); }

__global__ void price(const Option *opt, float *call, float *put, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Option o = opt[i];
    float sq = o.vol * sqrtf(o.years);
    float d1 = (logf(o.spot / o.strike) + (o.rate + 0.5f * o.vol * o.vol) * o.years) / sq, d2 = d1 - sq;
    float disc = o.strike * expf(-o.rate * o.years);
    call[i] = o.spot * norm_cdf(d1) - disc * norm_cdf(d2);
    put[i] = disc * norm_cdf(-d2) - o.spot * norm_cdf(-d1);
}

int main()
{
    const int n = 1024;
    Option *o = (Option *)malloc(n * sizeof(Option));
    float *c = (float *)malloc(n * 4), *p = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++)
        o[i] = Option{50.0f + (i % 50), 40.0f + (i % 37) * 1.5f, 0.25f + (i % 8) * 0.25f, 0.01f + (i % 5) * 0.01f,
                      0.1f + (i % 9) * 0.05f};
    Option *dopt;
    float *dc, *dp;
    cudaMalloc(&dopt, n * sizeof(Option));
    cudaMalloc(&dc, n * 4);
    cudaMalloc(&dp, n * 4);
    cudaMemcpy(dopt, o, n * sizeof(Option), cudaMemcpyHostToDevice);
    price<<<n / 128, 128>>>(dopt, dc, dp, n);
    cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(p, dp, n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        double sq = o[i].vol * sqrt((double)o[i].years);
        double d1 = (log((double)o[i].spot / o[i].strike) + (o[i].rate + 0.5 * o[i].vol * o[i].vol) * o[i].years) / sq;
        double d2 = d1 - sq, disc = o[i].strike * exp(-(double)o[i].rate * o[i].years);
        double wc = o[i].spot * 0.5 * erfc(-d1 / sqrt(2.0)) - disc * 0.5 * erfc(-d2 / sqrt(2.0));
        double wp = disc * 0.5 * erfc(d2 / sqrt(2.0)) - o[i].spot * 0.5 * erfc(d1 / sqrt(2.0));
        ok = ok && fabs(c[i] - wc) < 2e-3 * (1 + wc) && fabs(p[i] - wp) < 2e-3 * (1 + wp);
        // put-call parity on the GPU's own numbers
        ok = ok && fabs((c[i] - p[i]) - (o[i].spot - disc)) < 1e-2;
        cs += c[i] + p[i];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
