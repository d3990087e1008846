// y = A*x with one warp per row: lanes stride over columns, __shfl_xor_sync butterfly sum.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void gemv(const float *A, const float *x, float *y, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
    if (warp >= rows)
        return;
    float s = 0;
    for (int c = lane; c < cols; c += 32)
        s += A[warp * cols + c] * x[c];
    for (int m = 16; m > 0; m >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    if (lane == 0)
        y[warp] = s;
}

int main()
{
    const int rows = 64, cols = 200;
    float *A = (float *)malloc(rows * cols * 4), x[cols], y[rows];
    for (int i = 0; i < rows * cols; i++)
        A[i] = (float)((i * 29) % 23 - 11) / 8.0f;
    for (int i = 0; i < cols; i++)
        x[i] = (float)(i % 9) * 0.5f - 2.0f;
    float *dA, *dx, *dy;
    cudaMalloc(&dA, rows * cols * 4);
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(dA, A, rows * cols * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    gemv<<<rows * 32 / 128, 128>>>(dA, dx, dy, rows, cols);
    cudaError_t e = cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int c = 0; c < cols; c++)
            s += (double)A[r * cols + c] * x[c];
        ok = ok && fabs(y[r] - s) <= 1e-3 * (1 + fabs(s));
        cs += y[r] * (r + 1);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
