#pragma once
#include <cuda_runtime.h>

struct SimParams {
    float G, dt, softening2;
    int n;
};

void launch_forces(const float4 *pos, float3 *acc, SimParams prm);
void launch_integrate(float4 *pos, float3 *vel, const float3 *acc, SimParams prm);
