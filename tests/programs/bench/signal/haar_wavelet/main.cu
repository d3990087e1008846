// Multi-level Haar wavelet transform in dynamic shared memory, then the inverse; round trip check.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void haar_forward(float *data, int n)
{
    extern __shared__ float s[];
    float *tmp = s + n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = data[blockIdx.x * n + i];
    __syncthreads();
    for (int len = n; len > 1; len >>= 1) {
        int half = len >> 1;
        for (int i = threadIdx.x; i < half; i += blockDim.x) {
            tmp[i] = (s[2 * i] + s[2 * i + 1]) * 0.70710678f;
            tmp[half + i] = (s[2 * i] - s[2 * i + 1]) * 0.70710678f;
        }
        __syncthreads();
        for (int i = threadIdx.x; i < len; i += blockDim.x)
            s[i] = tmp[i];
        __syncthreads();
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[blockIdx.x * n + i] = s[i];
}

__global__ void haar_inverse(float *data, int n)
{
    extern __shared__ float s[];
    float *tmp = s + n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = data[blockIdx.x * n + i];
    __syncthreads();
    for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1;
        for (int i = threadIdx.x; i < half; i += blockDim.x) {
            tmp[2 * i] = (s[i] + s[half + i]) * 0.70710678f;
            tmp[2 * i + 1] = (s[i] - s[half + i]) * 0.70710678f;
        }
        __syncthreads();
        for (int i = threadIdx.x; i < len; i += blockDim.x)
            s[i] = tmp[i];
        __syncthreads();
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[blockIdx.x * n + i] = s[i];
}

int main()
{
    const int n = 256, rows = 4;
    float x[n * rows], c[n * rows], r[n * rows];
    for (int i = 0; i < n * rows; i++)
        x[i] = (float)((i * 37) % 19) - 9.0f + 0.5f * (i / n);
    float *d;
    cudaMalloc(&d, sizeof x);
    cudaMemcpy(d, x, sizeof x, cudaMemcpyHostToDevice);
    haar_forward<<<rows, 64, 2 * n * sizeof(float)>>>(d, n);
    cudaMemcpy(c, d, sizeof c, cudaMemcpyDeviceToHost);
    haar_inverse<<<rows, 64, 2 * n * sizeof(float)>>>(d, n);
    cudaError_t e = cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double energy_x = 0, energy_c = 0;
    for (int i = 0; i < n * rows; i++) {
        ok = ok && fabsf(r[i] - x[i]) < 1e-3f;
        energy_x += x[i] * x[i];
        energy_c += c[i] * c[i];
    }
    for (int b = 0; b < rows; b++) {
        double mean = 0;
        for (int i = 0; i < n; i++)
            mean += x[b * n + i];
        ok = ok && fabs(c[b * n] - mean / sqrt((double)n)) < 1e-2;
    }
    ok = ok && fabs(energy_x - energy_c) < 1e-4 * energy_x;
    printf("checksum: %.6e\n", energy_c);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
