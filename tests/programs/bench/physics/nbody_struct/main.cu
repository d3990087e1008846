// All-pairs gravitational n-body, one step: parameters passed as a struct by value, bodies as
// float4 tiles in shared memory, rsqrtf for the softened inverse distance; the force kernel and
// the integrator are in separate .cu files.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include "nbody.h"

static void cpu_step(float4 *p, float3 *v, int n, SimParams prm)
{
    float3 *acc = (float3 *)calloc(n, sizeof(float3));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
            float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + prm.softening2);
            float s = p[j].w * inv * inv * inv;
            acc[i].x += dx * s;
            acc[i].y += dy * s;
            acc[i].z += dz * s;
        }
    for (int i = 0; i < n; i++) {
        v[i].x += acc[i].x * prm.G * prm.dt;
        v[i].y += acc[i].y * prm.G * prm.dt;
        v[i].z += acc[i].z * prm.G * prm.dt;
        p[i].x += v[i].x * prm.dt;
        p[i].y += v[i].y * prm.dt;
        p[i].z += v[i].z * prm.dt;
    }
    free(acc);
}

int main()
{
    const int n = 128;
    SimParams prm = {1.0f, 0.01f, 0.05f, n};
    float4 *p = (float4 *)malloc(n * sizeof(float4)), *rp = (float4 *)malloc(n * sizeof(float4));
    float3 *v = (float3 *)calloc(n, sizeof(float3));
    for (int i = 0; i < n; i++)
        p[i] = make_float4(cosf(i * 0.7f) * (1 + i % 5), sinf(i * 1.3f) * 2, (i % 11) * 0.2f - 1, 1.0f / n);
    float4 *dp;
    float3 *dv, *da;
    cudaMalloc(&dp, n * sizeof(float4));
    cudaMalloc(&dv, n * sizeof(float3));
    cudaMalloc(&da, n * sizeof(float3));
    cudaMemcpy(dp, p, n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemset(dv, 0, n * sizeof(float3));
    for (int s = 0; s < 2; s++) {
        launch_forces(dp, da, prm);
        launch_integrate(dp, dv, da, prm);
        cpu_step(p, v, n, prm);
    }
    cudaError_t e = cudaMemcpy(rp, dp, n * sizeof(float4), cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && fabsf(rp[i].x - p[i].x) < 1e-3f && fabsf(rp[i].y - p[i].y) < 1e-3f && fabsf(rp[i].z - p[i].z) < 1e-3f;
        cs += fabs(rp[i].x) + fabs(rp[i].y) + fabs(rp[i].z);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
