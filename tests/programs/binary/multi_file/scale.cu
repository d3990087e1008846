#include "parts.h"

__global__ void scale(float *x, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= factor;
}

void scale_on_device(float *d_x, float factor, int n)
{
    scale<<<(n + 127) / 128, 128>>>(d_x, factor, n);
}
