// The kernel, in a header as CUDA projects often keep them.
#pragma once

__global__ void saxpy_kernel(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
