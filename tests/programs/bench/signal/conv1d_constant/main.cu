// 1D convolution with a 15-tap filter held in __constant__ memory (cudaMemcpyToSymbol).
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define TAPS 15
__constant__ float c_filter[TAPS];

__global__ void conv(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0;
    for (int k = 0; k < TAPS; k++) {
        int j = i + k - TAPS / 2;
        if (j >= 0 && j < n)
            s += c_filter[k] * in[j];
    }
    out[i] = s;
}

int main()
{
    const int n = 1024;
    float f[TAPS], *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4);
    float fs = 0;
    for (int k = 0; k < TAPS; k++)
        fs += f[k] = expf(-0.1f * (k - 7) * (k - 7));
    for (int k = 0; k < TAPS; k++)
        f[k] /= fs;
    for (int i = 0; i < n; i++)
        x[i] = (i % 64 < 32 ? 1.0f : -1.0f) + 0.1f * sinf(0.7f * i);
    cudaMemcpyToSymbol(c_filter, f, sizeof f);
    float *dx, *dy;
    cudaMalloc(&dx, n * 4);
    cudaMalloc(&dy, n * 4);
    cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice);
    conv<<<n / 128, 128>>>(dx, dy, n);
    cudaError_t e = cudaMemcpy(y, dy, n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        float s = 0;
        for (int k = 0; k < TAPS; k++) {
            int j = i + k - TAPS / 2;
            if (j >= 0 && j < n)
                s += f[k] * x[j];
        }
        ok = ok && fabsf(y[i] - s) <= 1e-5f;
        cs += fabsf(y[i]);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
