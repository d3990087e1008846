// Device functions and device variables that the kernels in scale.cu and hash.cu use through
// the device link (-rdc=true).
#include "common.h"

__device__ unsigned g_hits = 0;
__device__ float g_scale[4] = {0.5f, 1.0f, 2.0f, 4.0f};

__device__ __noinline__ unsigned rotl(unsigned x, int r)
{
    return (x << r) | (x >> (32 - r));
}

__device__ unsigned mix(unsigned x)
{
    for (int i = 0; i < 3; i++)
        x = rotl(x * 0x9E3779B1u, 5 + i) ^ (x >> 7);
    return x;
}

__device__ float weighted(const float *v, int n)
{
    float w[8];                      // indexed by a runtime value: stays in local memory
    for (int i = 0; i < 8; i++)
        w[i] = g_scale[i & 3] * (i + 1);
    float s = 0.f;
    for (int i = 0; i < n; i++)
        s += v[i] * w[(i * 5 + n) & 7];
    return s;
}
