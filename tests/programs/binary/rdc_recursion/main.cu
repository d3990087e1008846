// Kernels calling recursive device functions of another translation unit (-rdc=true): a
// Fibonacci number per thread and the depth of a binary tree below each node.
#include <cstdio>
#include "tree.h"

__global__ void fibs(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fib(i % 13);
}

__global__ void depths(const int *left, const int *right, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = depth(left, right, i);
}

static int host_depth(const int *left, const int *right, int node)
{
    if (node < 0)
        return 0;
    int l = host_depth(left, right, left[node]), r = host_depth(left, right, right[node]);
    return 1 + (l > r ? l : r);
}

int main()
{
    const int n = 64, nodes = 40;
    int left[nodes], right[nodes];
    for (int i = 0; i < nodes; i++) {      // a lopsided tree: node i's children are 2i+1, 3i+2
        left[i] = 2 * i + 1 < nodes ? 2 * i + 1 : -1;
        right[i] = 3 * i + 2 < nodes && i % 3 != 1 ? 3 * i + 2 : -1;
    }
    unsigned *dfib, fibs_h[n];
    int *dl, *dr, *dd, depth_h[nodes];
    cudaMalloc(&dfib, sizeof fibs_h);
    cudaMalloc(&dl, sizeof left);
    cudaMalloc(&dr, sizeof right);
    cudaMalloc(&dd, sizeof depth_h);
    cudaMemcpy(dl, left, sizeof left, cudaMemcpyHostToDevice);
    cudaMemcpy(dr, right, sizeof right, cudaMemcpyHostToDevice);
    fibs<<<2, 32>>>(dfib, n);
    depths<<<1, nodes>>>(dl, dr, dd, nodes);
    cudaMemcpy(fibs_h, dfib, sizeof fibs_h, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(depth_h, dd, sizeof depth_h, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned long long cs = 0;
    for (int i = 0; i < n; i++) {
        unsigned a = 0, b = 1;
        for (int j = 0; j < i % 13; j++) {
            unsigned t = a + b;
            a = b;
            b = t;
        }
        ok = ok && fibs_h[i] == a;
        cs += fibs_h[i];
    }
    for (int i = 0; i < nodes; i++) {
        ok = ok && depth_h[i] == host_depth(left, right, i);
        cs = cs * 31 + depth_h[i];
    }
    printf("checksum: %llu\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
