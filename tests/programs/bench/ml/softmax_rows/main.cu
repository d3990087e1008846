// Row softmax: one warp per row, max and sum by __shfl_xor_sync, expf; rows of 100 floats.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void softmax(const float *x, float *y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const float *xr = x + row * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32)
        m = fmaxf(m, xr[c]);
    for (int o = 16; o; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0;
    for (int c = lane; c < cols; c += 32)
        s += expf(xr[c] - m);
    for (int o = 16; o; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    for (int c = lane; c < cols; c += 32)
        y[row * cols + c] = expf(xr[c] - m) / s;
}

int main()
{
    const int rows = 32, cols = 100;
    float *x = (float *)malloc(rows * cols * 4), *y = (float *)malloc(rows * cols * 4);
    for (int i = 0; i < rows * cols; i++)
        x[i] = 3.0f * sinf(i * 0.37f) + (i % cols) * 0.02f;
    float *dx, *dy;
    cudaMalloc(&dx, rows * cols * 4);
    cudaMalloc(&dy, rows * cols * 4);
    cudaMemcpy(dx, x, rows * cols * 4, cudaMemcpyHostToDevice);
    softmax<<<rows / 4, 128>>>(dx, dy, rows, cols);
    cudaError_t e = cudaMemcpy(y, dy, rows * cols * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int r = 0; r < rows; r++) {
        double m = -1e30, s = 0;
        for (int c = 0; c < cols; c++)
            m = fmax(m, x[r * cols + c]);
        for (int c = 0; c < cols; c++)
            s += exp(x[r * cols + c] - m);
        for (int c = 0; c < cols; c++) {
            double want = exp(x[r * cols + c] - m) / s;
            ok = ok && fabs(y[r * cols + c] - want) <= 1e-4 * want + 1e-9;
            cs += y[r * cols + c] * (c + 1);
        }
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
