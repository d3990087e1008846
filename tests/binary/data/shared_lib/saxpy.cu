// A shared library with a kernel, called from a plain C++ host program (host.cpp).
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" int saxpy_host(float a, const float *x, float *y, int n)
{
    float *dx, *dy;
    size_t bytes = n * sizeof(float);
    if (cudaMalloc(&dx, bytes) != cudaSuccess || cudaMalloc(&dy, bytes) != cudaSuccess)
        return 1;
    cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
    saxpy<<<(n + 63) / 64, 64>>>(a, dx, dy, n);
    cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    return cudaGetLastError() != cudaSuccess;
}
