#include "pagerank.h"

__global__ void contributions(const float *rank, const int *outdeg, float *contrib, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        contrib[v] = outdeg[v] ? rank[v] / outdeg[v] : 0;
}

__global__ void gather(float *rank, const float *contrib, const int *rowptr, const int *src, int n, float d)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    float s = 0;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
        s += contrib[src[k]];
    rank[v] = (1 - d) / n + d * s;
}

void pagerank_iteration(float *rank, float *contrib, const int *outdeg, const int *rowptr,
                        const int *src, int n, float d)
{
    int blocks = (n + 127) / 128;
    contributions<<<blocks, 128>>>(rank, outdeg, contrib, n);
    gather<<<blocks, 128>>>(rank, contrib, rowptr, src, n, d);
}
