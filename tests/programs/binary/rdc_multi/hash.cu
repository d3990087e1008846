#include "common.h"

__constant__ unsigned c_salt[2] = {0x12345678u, 0x0badf00du};

__device__ __noinline__ unsigned salted(const unsigned *salt, unsigned x)
{
    return mix(x ^ salt[x & 1]);
}

__global__ void hash_all(unsigned *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    h[i] = salted(c_salt, (unsigned)i);
    atomicAdd(&g_hits, 1u);
}
