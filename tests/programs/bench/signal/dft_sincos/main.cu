// Direct DFT of 256 samples: one thread per frequency, sincosf twiddles, power spectrum.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void dft(const float *x, float *re, float *im, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    float sr = 0, si = 0;
    for (int t = 0; t < n; t++) {
        float s, c;
        sincosf(-2.0f * 3.14159265f * (float)((k * t) % n) / n, &s, &c);
        sr += x[t] * c;
        si += x[t] * s;
    }
    re[k] = sr;
    im[k] = si;
}

__global__ void power(const float *re, const float *im, float *p, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        p[k] = re[k] * re[k] + im[k] * im[k];
}

int main()
{
    const int n = 128;
    float x[n], p[n];
    for (int t = 0; t < n; t++)
        x[t] = cosf(2 * 3.14159265f * 5 * t / n) + 0.5f * sinf(2 * 3.14159265f * 17 * t / n);
    float *dx, *dre, *dim_, *dp;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dre, sizeof x);
    cudaMalloc(&dim_, sizeof x);
    cudaMalloc(&dp, sizeof x);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    dft<<<n / 64, 64>>>(dx, dre, dim_, n);
    power<<<n / 64, 64>>>(dre, dim_, dp, n);
    cudaError_t e = cudaMemcpy(p, dp, sizeof p, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double total = 0;
    for (int k = 0; k < n; k++) {
        double sr = 0, si = 0;
        for (int t = 0; t < n; t++) {
            double a = -2.0 * M_PI * ((k * t) % n) / n;
            sr += x[t] * cos(a);
            si += x[t] * sin(a);
        }
        double want = sr * sr + si * si;
        ok = ok && fabs(p[k] - want) <= 1e-2 + 1e-3 * want;
        total += p[k];
    }
    // Parseval: sum |X|^2 = n * sum x^2 = n*n*(1/2 + 1/8); the two peaks dominate.
    printf("checksum: %.6e\n", p[5] + p[17]);
    ok = ok && fabs(total - n * n * 0.625) < 1.0;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
