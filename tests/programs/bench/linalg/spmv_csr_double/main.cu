// Sparse matrix-vector product in double precision, CSR, one thread per row.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__global__ void spmv(const int *rowptr, const int *cols, const double *vals, const double *x,
                     double *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            s = fma(vals[k], x[cols[k]], s);
        y[r] = s;
    }
}

int main()
{
    const int n = 500;
    int *rowptr = (int *)malloc((n + 1) * 4), *cols = (int *)malloc(n * 8 * 4);
    double *vals = (double *)malloc(n * 8 * 8), *x = (double *)malloc(n * 8), *y = (double *)malloc(n * 8);
    int nnz = 0;
    for (int r = 0; r < n; r++) {
        rowptr[r] = nnz;
        int cnt = 1 + r % 7;
        for (int k = 0; k < cnt; k++) {
            cols[nnz] = (r * 31 + k * 97) % n;
            vals[nnz] = 1.0 / (1 + k + r % 3);
            nnz++;
        }
    }
    rowptr[n] = nnz;
    for (int i = 0; i < n; i++)
        x[i] = cos(i * 0.01);
    int *drp, *dc;
    double *dv, *dx, *dy;
    cudaMalloc(&drp, (n + 1) * 4);
    cudaMalloc(&dc, nnz * 4);
    cudaMalloc(&dv, nnz * 8);
    cudaMalloc(&dx, n * 8);
    cudaMalloc(&dy, n * 8);
    cudaMemcpy(drp, rowptr, (n + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, cols, nnz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dv, vals, nnz * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, n * 8, cudaMemcpyHostToDevice);
    spmv<<<(n + 127) / 128, 128>>>(drp, dc, dv, dx, dy, n);
    cudaError_t e = cudaMemcpy(y, dy, n * 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            s = fma(vals[k], x[cols[k]], s);
        ok = ok && fabs(y[r] - s) <= 1e-12 * (1 + fabs(s));
        cs += y[r];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
