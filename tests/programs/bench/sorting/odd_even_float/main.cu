// Odd-even transposition sort of floats across several blocks: one kernel launch per phase,
// events time the whole sort (time not printed: it is not deterministic).
#include <cstdio>
#include <cstdlib>
#include <algorithm>

__global__ void phase(float *a, int n, int parity)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + parity;
    if (i + 1 < n) {
        float x = a[i], y = a[i + 1];
        a[i] = fminf(x, y);
        a[i + 1] = fmaxf(x, y);
    }
}

int main()
{
    const int n = 128;
    float h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = sinf(i * 1.37f) * 100.0f;
    float *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int p = 0; p < n; p++)
        phase<<<(n / 2 + 63) / 64, 64>>>(d, n, p & 1);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = -1;
    cudaEventElapsedTime(&ms, start, stop);
    cudaError_t e = cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    std::sort(h, h + n);
    bool ok = e == cudaSuccess && ms >= 0;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && r[i] == h[i];
        cs += (double)r[i] * (i + 1);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
