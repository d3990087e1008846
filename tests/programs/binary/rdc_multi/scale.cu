#include "common.h"

__global__ void scale_rows(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    out[r] = weighted(in + r * cols, cols);
    atomicAdd(&g_hits, 1u);
}
