// PageRank power iterations: a contribution kernel and an update kernel in pagerank_kernels.cu,
// the driver here.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include "pagerank.h"

int main()
{
    const int n = 400, iters = 20;
    const float d = 0.85f;
    int *outdeg = (int *)malloc(n * 4), *rowptr = (int *)malloc((n + 1) * 4), *src = (int *)malloc(n * 4 * 4);
    // in-edges of v in CSR: v <- (v*3+1)%n, (v+n-1)%n, (v*v)%n, (v/2)
    int nnz = 0;
    for (int v = 0; v < n; v++)
        outdeg[v] = 0;
    for (int v = 0; v < n; v++) {
        rowptr[v] = nnz;
        int cand[4] = {(v * 3 + 1) % n, (v + n - 1) % n, (v * v) % n, v / 2};
        for (int k = 0; k < 4; k++) {
            src[nnz++] = cand[k];
            outdeg[cand[k]]++;
        }
    }
    rowptr[n] = nnz;
    float *rank = (float *)malloc(n * 4), *contrib = (float *)malloc(n * 4), *next = (float *)malloc(n * 4);
    for (int v = 0; v < n; v++)
        rank[v] = 1.0f / n;
    int *dod, *drp, *dsrc;
    float *dr, *dcon;
    cudaMalloc(&dod, n * 4);
    cudaMalloc(&drp, (n + 1) * 4);
    cudaMalloc(&dsrc, nnz * 4);
    cudaMalloc(&dr, n * 4);
    cudaMalloc(&dcon, n * 4);
    cudaMemcpy(dod, outdeg, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(drp, rowptr, (n + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dsrc, src, nnz * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dr, rank, n * 4, cudaMemcpyHostToDevice);
    for (int it = 0; it < iters; it++) {
        pagerank_iteration(dr, dcon, dod, drp, dsrc, n, d);
        for (int v = 0; v < n; v++)
            contrib[v] = outdeg[v] ? rank[v] / outdeg[v] : 0;
        for (int v = 0; v < n; v++) {
            float s = 0;
            for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
                s += contrib[src[k]];
            next[v] = (1 - d) / n + d * s;
        }
        float *t = rank; rank = next; next = t;
    }
    float *got = (float *)malloc(n * 4);
    cudaError_t e = cudaMemcpy(got, dr, n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int v = 0; v < n; v++) {
        ok = ok && fabsf(got[v] - rank[v]) <= 1e-4f * rank[v] + 1e-7f;
        cs += got[v] * got[v];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
