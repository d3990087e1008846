// Built with -default-stream per-thread: the default-stream forms of the runtime calls are the
// per-thread ones (cudaMemcpy_ptds, cudaLaunchKernel_ptsz, ...). Self-checking.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ int offset;

__global__ void iota_plus(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + i + offset;
}

int main()
{
    const int n = 500;
    int h[n], *d, seven = 7;
    bool ok = cudaMalloc(&d, n * sizeof(int)) == cudaSuccess;
    ok &= cudaMemset(d, 0, n * sizeof(int)) == cudaSuccess;
    ok &= cudaMemcpyToSymbol(offset, &seven, sizeof seven) == cudaSuccess;
    cudaEvent_t done;
    ok &= cudaEventCreate(&done) == cudaSuccess;
    iota_plus<<<(n + 127) / 128, 128>>>(d, n);
    iota_plus<<<(n + 127) / 128, 128, 0, cudaStreamPerThread>>>(d, n);
    ok &= cudaEventRecord(done, 0) == cudaSuccess;
    ok &= cudaEventSynchronize(done) == cudaSuccess;
    ok &= cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        ok &= h[i] == 2 * (i + 7);
        sum += h[i];
    }
    cudaFree(d);
    printf("checksum: %lld\n", sum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
