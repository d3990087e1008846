#include "saxpy.h"
#include "saxpy_kernel.cuh"

#include <cuda_runtime.h>

int saxpy_on_gpu(int n, float a, const float* x, float* y)
{
    size_t bytes = n * sizeof(float);
    float *dx = nullptr, *dy = nullptr;
    cudaError_t err = cudaMalloc(&dx, bytes);
    if (err == cudaSuccess) err = cudaMalloc(&dy, bytes);
    if (err == cudaSuccess) err = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
    if (err == cudaSuccess) err = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
    if (err == cudaSuccess) {
        int threads = 64;
        saxpy_kernel<<<(n + threads - 1) / threads, threads>>>(n, a, dx, dy);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    return (int)err;
}
