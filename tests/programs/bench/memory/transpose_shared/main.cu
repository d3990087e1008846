// Matrix transpose through a padded 32x33 shared tile (no bank conflicts), 2D grid, non-square.
#include <cstdio>
#include <cstdlib>

#define TD 32

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
    for (int k = 0; k < TD; k += blockDim.y)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int k = 0; k < TD; k += blockDim.y)
        if (x < rows && y + k < cols)
            out[(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

int main()
{
    const int rows = 70, cols = 100;
    float *a = (float *)malloc(rows * cols * 4), *t = (float *)malloc(rows * cols * 4);
    for (int i = 0; i < rows * cols; i++)
        a[i] = (float)i;
    float *da, *dt;
    cudaMalloc(&da, rows * cols * 4);
    cudaMalloc(&dt, rows * cols * 4);
    cudaMemcpy(da, a, rows * cols * 4, cudaMemcpyHostToDevice);
    transpose<<<dim3((cols + TD - 1) / TD, (rows + TD - 1) / TD), dim3(TD, 8)>>>(da, dt, rows, cols);
    cudaError_t e = cudaMemcpy(t, dt, rows * cols * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            ok = ok && t[c * rows + r] == a[r * cols + c];
            cs += t[c * rows + r] * ((c * rows + r) % 7);
        }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
