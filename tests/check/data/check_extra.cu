// The second translation unit of check_main.cu: one kernel, built with or without a reference.
#include <cuda_runtime.h>

__global__ void scale(int *data, int n, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

void scaleOnDevice(int *data, int n, int factor)
{
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, data, n * sizeof(int), cudaMemcpyHostToDevice);
    scale<<<1, 64>>>(d, n, factor);
    cudaMemcpy(data, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
}
