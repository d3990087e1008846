#include "parts.h"

// Block sums in shared memory, then the host adds the blocks' partial sums.
__global__ void block_sum(const float *x, float *partial, int n)
{
    __shared__ float s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

float sum_on_device(const float *d_x, int n)
{
    int blocks = (n + 127) / 128;
    float *d_partial, h_partial[64];
    cudaMalloc(&d_partial, blocks * sizeof(float));
    block_sum<<<blocks, 128>>>(d_x, d_partial, n);
    cudaMemcpy(h_partial, d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_partial);
    float total = 0;
    for (int b = 0; b < blocks; b++)
        total += h_partial[b];
    return total;
}
