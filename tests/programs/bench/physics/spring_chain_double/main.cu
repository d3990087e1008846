// A chain of masses and springs integrated with velocity Verlet in double precision;
// total energy must stay (nearly) constant.
#include <cstdio>
#include <cstdlib>
#include <cmath>

struct Chain {
    double k, m, dt, rest;
    int n;
};

__device__ __host__ double spring_force(const double *x, int i, Chain c)
{
    double f = 0;
    if (i > 0)
        f -= c.k * (x[i] - x[i - 1] - c.rest);
    if (i < c.n - 1)
        f += c.k * (x[i + 1] - x[i] - c.rest);
    return f;
}

__global__ void half_kick_drift(double *x, double *v, const double *f, Chain c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c.n) {
        v[i] += 0.5 * c.dt * f[i] / c.m;
        x[i] += c.dt * v[i];
    }
}

__global__ void compute_force(const double *x, double *f, Chain c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c.n)
        f[i] = spring_force(x, i, c);
}

__global__ void half_kick(double *v, const double *f, Chain c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c.n)
        v[i] += 0.5 * c.dt * f[i] / c.m;
}

static double energy(const double *x, const double *v, Chain c)
{
    double e = 0;
    for (int i = 0; i < c.n; i++)
        e += 0.5 * c.m * v[i] * v[i];
    for (int i = 0; i + 1 < c.n; i++) {
        double s = x[i + 1] - x[i] - c.rest;
        e += 0.5 * c.k * s * s;
    }
    return e;
}

int main()
{
    Chain c = {4.0, 1.0, 0.01, 1.0, 256};
    double *x = (double *)malloc(c.n * 8), *v = (double *)calloc(c.n, 8), *f = (double *)malloc(c.n * 8);
    for (int i = 0; i < c.n; i++)
        x[i] = i * c.rest + 0.1 * sin(i * 0.5);
    double e0 = energy(x, v, c);
    double *dx, *dv, *df;
    cudaMalloc(&dx, c.n * 8);
    cudaMalloc(&dv, c.n * 8);
    cudaMalloc(&df, c.n * 8);
    cudaMemcpy(dx, x, c.n * 8, cudaMemcpyHostToDevice);
    cudaMemset(dv, 0, c.n * 8);
    int blocks = (c.n + 127) / 128;
    compute_force<<<blocks, 128>>>(dx, df, c);
    for (int s = 0; s < 40; s++) {
        half_kick_drift<<<blocks, 128>>>(dx, dv, df, c);
        compute_force<<<blocks, 128>>>(dx, df, c);
        half_kick<<<blocks, 128>>>(dv, df, c);
    }
    for (int i = 0; i < c.n; i++)
        f[i] = spring_force(x, i, c);
    for (int s = 0; s < 40; s++) {
        for (int i = 0; i < c.n; i++) {
            v[i] += 0.5 * c.dt * f[i] / c.m;
            x[i] += c.dt * v[i];
        }
        for (int i = 0; i < c.n; i++)
            f[i] = spring_force(x, i, c);
        for (int i = 0; i < c.n; i++)
            v[i] += 0.5 * c.dt * f[i] / c.m;
    }
    double *rx = (double *)malloc(c.n * 8), *rv = (double *)malloc(c.n * 8);
    cudaMemcpy(rx, dx, c.n * 8, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(rv, dv, c.n * 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    for (int i = 0; i < c.n; i++)
        ok = ok && fabs(rx[i] - x[i]) < 1e-9 && fabs(rv[i] - v[i]) < 1e-9;
    double e1 = energy(rx, rv, c);
    ok = ok && fabs(e1 - e0) < 1e-3 * e0;
    printf("checksum: %.6e\n", e1);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
