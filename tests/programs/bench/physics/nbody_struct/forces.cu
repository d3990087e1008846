#include "nbody.h"

#define TILE 64

__device__ float3 pair_accel(float4 bi, float4 bj, float3 a, float soft2)
{
    float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz + soft2);
    float s = bj.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
    return a;
}

__global__ void forces(const float4 *pos, float3 *acc, SimParams prm)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    float4 me = pos[i];
    float3 a = make_float3(0, 0, 0);
    for (int base = 0; base < prm.n; base += TILE) {
        tile[threadIdx.x] = pos[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            a = pair_accel(me, tile[j], a, prm.softening2);
        __syncthreads();
    }
    acc[i] = a;
}

void launch_forces(const float4 *pos, float3 *acc, SimParams prm)
{
    forces<<<prm.n / TILE, TILE>>>(pos, acc, prm);
}
