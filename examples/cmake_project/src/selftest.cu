// A CUDA program of its own (linked as a CUDA executable): launches the kernel directly and
// checks it against the CPU; prints the checksum and PASS/FAIL.
#include <cstdio>

#include "saxpy_kernel.cuh"

int main()
{
    const int n = 256;
    float x[n], y[n], expect[n];
    for (int i = 0; i < n; ++i) {
        x[i] = 1.0f * i;
        y[i] = 2.0f;
        expect[i] = 0.5f * x[i] + y[i];
    }
    float *dx, *dy;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    saxpy_kernel<<<(n + 63) / 64, 64>>>(n, 0.5f, dx, dy);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; ++i) {
        bad += y[i] != expect[i];
        checksum += y[i];
    }
    std::printf("checksum: %.6e\n", checksum);
    std::printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
