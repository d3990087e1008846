#include "nbody.h"

__global__ void integrate(float4 *pos, float3 *vel, const float3 *acc, SimParams prm)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= prm.n)
        return;
    float3 v = vel[i];
    v.x += acc[i].x * prm.G * prm.dt;
    v.y += acc[i].y * prm.G * prm.dt;
    v.z += acc[i].z * prm.G * prm.dt;
    vel[i] = v;
    float4 p = pos[i];
    p.x += v.x * prm.dt;
    p.y += v.y * prm.dt;
    p.z += v.z * prm.dt;
    pos[i] = p;
}

void launch_integrate(float4 *pos, float3 *vel, const float3 *acc, SimParams prm)
{
    integrate<<<(prm.n + 127) / 128, 128>>>(pos, vel, acc, prm);
}
