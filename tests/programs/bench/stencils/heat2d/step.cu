#include "heat.h"

__global__ void step_kernel(const float *in, float *out, int nx, int ny, float alpha)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
        return;
    int i = y * nx + x;
    out[i] = in[i] + alpha * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] - 4 * in[i]);
}

void heat_step(const float *in, float *out, int nx, int ny, float alpha)
{
    dim3 block(16, 8), grid((nx + 15) / 16, (ny + 7) / 8);
    step_kernel<<<grid, block>>>(in, out, nx, ny, alpha);
}
