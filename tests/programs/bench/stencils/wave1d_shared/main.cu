// 1D wave equation, leapfrog steps; each block stages its tile plus a one-cell halo in shared memory.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define BS 128

__global__ void wave_step(const float *prev, const float *cur, float *next, int n, float c2)
{
    __shared__ float s[BS + 2];
    int i = blockIdx.x * BS + threadIdx.x;
    s[threadIdx.x + 1] = i < n ? cur[i] : 0;
    if (threadIdx.x == 0)
        s[0] = i > 0 ? cur[i - 1] : 0;
    if (threadIdx.x == BS - 1)
        s[BS + 1] = i + 1 < n ? cur[i + 1] : 0;
    __syncthreads();
    if (i > 0 && i < n - 1) {
        float l = s[threadIdx.x], m = s[threadIdx.x + 1], r = s[threadIdx.x + 2];
        next[i] = 2 * m - prev[i] + c2 * (l - 2 * m + r);
    } else if (i < n)
        next[i] = 0;
}

int main()
{
    const int n = 512, steps = 30;
    const float c2 = 0.25f;
    float *h[3];
    for (int k = 0; k < 3; k++)
        h[k] = (float *)calloc(n, 4);
    for (int i = 0; i < n; i++)
        h[0][i] = h[1][i] = expf(-0.01f * (i - 200) * (i - 200));
    float *d[3];
    for (int k = 0; k < 3; k++) {
        cudaMalloc(&d[k], n * 4);
        cudaMemcpy(d[k], h[k], n * 4, cudaMemcpyHostToDevice);
    }
    for (int s = 0; s < steps; s++) {
        wave_step<<<n / BS, BS>>>(d[s % 3], d[(s + 1) % 3], d[(s + 2) % 3], n, c2);
        for (int i = 0; i < n; i++) {
            float *p = h[s % 3], *c = h[(s + 1) % 3], *x = h[(s + 2) % 3];
            x[i] = (i > 0 && i < n - 1) ? 2 * c[i] - p[i] + c2 * (c[i - 1] - 2 * c[i] + c[i + 1]) : 0;
        }
    }
    float *r = (float *)malloc(n * 4);
    cudaError_t e = cudaMemcpy(r, d[(steps + 1) % 3], n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && fabsf(r[i] - h[(steps + 1) % 3][i]) <= 1e-4f;
        cs += r[i] * r[i];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
