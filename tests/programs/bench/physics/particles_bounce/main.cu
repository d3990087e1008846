// Particles under gravity bouncing in a box; a templated step count, a device function for the
// wall reflection, and a block reduction of kinetic energy with atomicAdd on a float.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__device__ __host__ void reflect(float &p, float &v, float lo, float hi)
{
    if (p < lo) {
        p = 2 * lo - p;
        v = -v;
    } else if (p > hi) {
        p = 2 * hi - p;
        v = -v;
    }
}

template <int STEPS>
__global__ void simulate(float2 *pos, float2 *vel, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 p = pos[i], v = vel[i];
#pragma unroll 1
    for (int s = 0; s < STEPS; s++) {
        v.y -= 9.81f * dt;
        p.x += v.x * dt;
        p.y += v.y * dt;
        reflect(p.x, v.x, 0.0f, 10.0f);
        reflect(p.y, v.y, 0.0f, 10.0f);
    }
    pos[i] = p;
    vel[i] = v;
}

__global__ void kinetic(const float2 *vel, int n, float *total)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? 0.5f * (vel[i].x * vel[i].x + vel[i].y * vel[i].y) : 0;
    __syncthreads();
    for (int h = 64; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, s[0]);
}

int main()
{
    const int n = 512;
    const float dt = 0.01f;
    float2 *p = (float2 *)malloc(n * sizeof(float2)), *v = (float2 *)malloc(n * sizeof(float2));
    float2 *rp = (float2 *)malloc(n * sizeof(float2));
    for (int i = 0; i < n; i++) {
        p[i] = make_float2(0.5f + (i % 19) * 0.5f, 1.0f + (i % 13) * 0.6f);
        v[i] = make_float2(((i * 7) % 9) - 4.0f, ((i * 5) % 7) - 3.0f);
    }
    float2 *dp, *dv;
    float *dk;
    cudaMalloc(&dp, n * sizeof(float2));
    cudaMalloc(&dv, n * sizeof(float2));
    cudaMalloc(&dk, 4);
    cudaMemset(dk, 0, 4);
    cudaMemcpy(dp, p, n * sizeof(float2), cudaMemcpyHostToDevice);
    cudaMemcpy(dv, v, n * sizeof(float2), cudaMemcpyHostToDevice);
    simulate<50><<<n / 128, 128>>>(dp, dv, n, dt);
    kinetic<<<n / 128, 128>>>(dv, n, dk);
    float ke = 0;
    cudaMemcpy(&ke, dk, 4, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(rp, dp, n * sizeof(float2), cudaMemcpyDeviceToHost);
    double want_ke = 0;
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; i++) {
        for (int s = 0; s < 50; s++) {
            v[i].y -= 9.81f * dt;
            p[i].x += v[i].x * dt;
            p[i].y += v[i].y * dt;
            reflect(p[i].x, v[i].x, 0.0f, 10.0f);
            reflect(p[i].y, v[i].y, 0.0f, 10.0f);
        }
        want_ke += 0.5 * (v[i].x * v[i].x + v[i].y * v[i].y);
        ok = ok && fabsf(rp[i].x - p[i].x) < 1e-3f && fabsf(rp[i].y - p[i].y) < 1e-3f;
    }
    ok = ok && fabs(ke - want_ke) < 1e-4 * want_ke;
    printf("checksum: %.6e\n", ke);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
