// A kernel whose assert() fails in a few threads, the way debugging code and teaching samples use
// it: the launch itself succeeds, the next synchronization returns cudaErrorAssert, and from then
// on the context is unusable, so every later call (a copy, another launch's check, a second
// synchronize) returns the same error; cudaGetLastError reports it once and then, as on NVIDIA's
// runtime, returns cudaSuccess until another call fails. A first launch in
// which no assert fails completes normally and its results are checked. The assertion messages
// go to the device's printf stream (not compared here).
#include <cassert>
#include <cstdio>
#include <cstdlib>

__global__ void checked_double(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(in[i] >= 0);
        out[i] = 2 * in[i];
    }
}

int main()
{
    const int n = 256;
    static int host_in[n], host_out[n];
    for (int i = 0; i < n; i++)
        host_in[i] = i;
    int *in, *out;
    int bad = 0;
    if (cudaMalloc(&in, sizeof host_in) != cudaSuccess || cudaMalloc(&out, sizeof host_out) != cudaSuccess) {
        printf("FAIL\n");
        return 1;
    }
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    checked_double<<<n / 64, 64>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("first launch: %s\n", cudaGetErrorName(e));
    bad += e != cudaSuccess;
    e = cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += host_out[i];
        bad += host_out[i] != 2 * i;
    }
    printf("first results: %s, sum %ld\n", cudaGetErrorName(e), sum);

    host_in[77] = -1;                            // one thread of the second block fails its assert
    host_in[200] = -5;                           // and one of the fourth
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    checked_double<<<n / 64, 64>>>(in, out, n);
    cudaError_t launch = cudaGetLastError();     // the launch itself was fine
    printf("second launch: %s\n", cudaGetErrorName(launch));
    bad += launch != cudaSuccess;
    e = cudaDeviceSynchronize();
    printf("second synchronize: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    bad += e != cudaErrorAssert;
    e = cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    printf("copy after the assert: %s\n", cudaGetErrorName(e));
    bad += e != cudaErrorAssert;
    e = cudaDeviceSynchronize();
    printf("synchronize again: %s\n", cudaGetErrorName(e));
    bad += e != cudaErrorAssert;
    e = cudaGetLastError();
    cudaError_t again = cudaGetLastError();
    printf("last error, twice: %s %s\n", cudaGetErrorName(e), cudaGetErrorName(again));
    bad += e != cudaErrorAssert || again != cudaSuccess;
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
