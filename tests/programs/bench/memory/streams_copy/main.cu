// Pinned host memory, two streams each copying a half in, scaling it, copying it out;
// events mark completion; cudaMemcpy2D for a strided sub-block and cudaMemsetAsync.
#include <cstdio>
#include <cstdlib>

__global__ void scale_add(float *x, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

int main()
{
    const int n = 4096, half = n / 2;
    float *h, *d;
    cudaMallocHost(&h, n * 4);
    cudaMalloc(&d, n * 4);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 100);
    cudaStream_t s[2];
    cudaEvent_t ev[2];
    for (int k = 0; k < 2; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&ev[k], cudaEventDisableTiming);
        float *hp = h + k * half, *dp = d + k * half;
        cudaMemcpyAsync(dp, hp, half * 4, cudaMemcpyHostToDevice, s[k]);
        scale_add<<<half / 256, 256, 0, s[k]>>>(dp, half, k ? 3.0f : 2.0f, (float)k);
        cudaMemcpyAsync(hp, dp, half * 4, cudaMemcpyDeviceToHost, s[k]);
        cudaEventRecord(ev[k], s[k]);
    }
    cudaStreamWaitEvent(s[0], ev[1], 0);
    cudaStreamSynchronize(s[0]);
    bool ok = cudaEventQuery(ev[0]) == cudaSuccess && cudaEventQuery(ev[1]) == cudaSuccess;
    for (int i = 0; i < n; i++) {
        float want = i < half ? 2.0f * (i % 100) : 3.0f * (i % 100) + 1;
        ok = ok && h[i] == want;
    }
    // a 2D copy of an 8x16 window out of a 64-wide matrix
    float win[8 * 16];
    cudaMemcpy2D(win, 16 * 4, d + 5 * 64 + 3, 64 * 4, 16 * 4, 8, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 16; c++) {
            int i = (5 + r) * 64 + 3 + c;
            ok = ok && win[r * 16 + c] == h[i];
        }
    cudaMemsetAsync(d, 0, n * 4, s[1]);
    cudaStreamSynchronize(s[1]);
    float probe = 1;
    cudaError_t e = cudaMemcpy(&probe, d + n - 1, 4, cudaMemcpyDeviceToHost);
    ok = ok && e == cudaSuccess && probe == 0;
    double cs = 0;
    for (int i = 0; i < n; i++)
        cs += h[i];
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
