// The device half of a project whose host code is plain C++ (main.cpp, compiled by the host
// compiler against cuda_runtime.h): kernels behind a C-callable launcher, as many code bases do.
#include <cuda_runtime.h>
#include "launch.h"

__global__ void addScaled(const double *__restrict__ a, const double *__restrict__ b, double *c,
                          double s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + s * b[i];
}

__global__ void dotPartial(const double *a, const double *b, double *partial, int n)
{
    __shared__ double cache[128];
    double t = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        t += a[i] * b[i];
    cache[threadIdx.x] = t;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = cache[0];
}

extern "C" cudaError_t launchAddScaled(const double *a, const double *b, double *c, double s, int n,
                                       cudaStream_t stream)
{
    addScaled<<<4, 128, 0, stream>>>(a, b, c, s, n);
    return cudaGetLastError();
}

extern "C" cudaError_t launchDotPartial(const double *a, const double *b, double *partial, int blocks,
                                        int n, cudaStream_t stream)
{
    dotPartial<<<blocks, 128, 0, stream>>>(a, b, partial, n);
    return cudaGetLastError();
}
