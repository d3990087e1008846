// 7-point Laplacian in double precision on a 3D grid of blocks (blockIdx.z used).
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void laplace(const double *u, double *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < 1 || y < 1 || z < 1 || x >= n - 1 || y >= n - 1 || z >= n - 1)
        return;
    int i = (z * n + y) * n + x;
    out[i] = u[i - 1] + u[i + 1] + u[i - n] + u[i + n] + u[i - n * n] + u[i + n * n] - 6.0 * u[i];
}

int main()
{
    const int n = 16, total = n * n * n;
    double *u = (double *)malloc(total * 8), *r = (double *)calloc(total, 8);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                u[(z * n + y) * n + x] = sin(0.3 * x) * cos(0.2 * y) + 0.01 * z * z;
    double *du, *dout;
    cudaMalloc(&du, total * 8);
    cudaMalloc(&dout, total * 8);
    cudaMemset(dout, 0, total * 8);
    cudaMemcpy(du, u, total * 8, cudaMemcpyHostToDevice);
    dim3 block(8, 4, 4), grid(n / 8, n / 4, n / 4);
    laplace<<<grid, block>>>(du, dout, n);
    cudaError_t e = cudaMemcpy(r, dout, total * 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int z = 1; z < n - 1; z++)
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++) {
                int i = (z * n + y) * n + x;
                double w = u[i - 1] + u[i + 1] + u[i - n] + u[i + n] + u[i - n * n] + u[i + n * n] - 6.0 * u[i];
                ok = ok && fabs(r[i] - w) <= 1e-12;
                cs += fabs(r[i]);
            }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
