// Level-synchronous BFS on a CSR graph: one kernel per level, a global "changed" flag;
// thread 0 prints the final frontier size with device printf.
#include <cstdio>
#include <cstdlib>

__global__ void bfs_level(const int *rowptr, const int *cols, int *level, int depth, int n, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != depth)
        return;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++) {
        int u = cols[k];
        if (level[u] < 0) {
            level[u] = depth + 1;
            *changed = 1;
        }
    }
}

__global__ void report(const int *level, int n, int depth)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int count = 0;
        for (int v = 0; v < n; v++)
            count += level[v] == depth;
        printf("device: %d vertices at depth %d\n", count, depth);
    }
}

int main()
{
    const int n = 1000, deg = 3;
    int *rowptr = (int *)malloc((n + 1) * 4), *cols = (int *)malloc(n * deg * 4);
    for (int v = 0; v < n; v++) {
        rowptr[v] = v * deg;
        cols[v * deg] = (v + 1) % n;
        cols[v * deg + 1] = (v * 7 + 3) % n;
        cols[v * deg + 2] = (v * v + 11) % n;
    }
    rowptr[n] = n * deg;
    int *drp, *dc, *dl, *dch;
    cudaMalloc(&drp, (n + 1) * 4);
    cudaMalloc(&dc, n * deg * 4);
    cudaMalloc(&dl, n * 4);
    cudaMalloc(&dch, 4);
    cudaMemcpy(drp, rowptr, (n + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, cols, n * deg * 4, cudaMemcpyHostToDevice);
    int *lv = (int *)malloc(n * 4);
    for (int v = 0; v < n; v++)
        lv[v] = v == 0 ? 0 : -1;
    cudaMemcpy(dl, lv, n * 4, cudaMemcpyHostToDevice);
    int depth = 0;
    for (;; depth++) {
        int changed = 0;
        cudaMemcpy(dch, &changed, 4, cudaMemcpyHostToDevice);
        bfs_level<<<(n + 127) / 128, 128>>>(drp, dc, dl, depth, n, dch);
        cudaMemcpy(&changed, dch, 4, cudaMemcpyDeviceToHost);
        if (!changed)
            break;
    }
    report<<<1, 32>>>(dl, n, depth);
    cudaDeviceSynchronize();
    int *got = (int *)malloc(n * 4), *queue = (int *)malloc(n * 4);
    cudaError_t e = cudaMemcpy(got, dl, n * 4, cudaMemcpyDeviceToHost);
    int head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
            if (lv[cols[k]] < 0) {
                lv[cols[k]] = lv[v] + 1;
                queue[tail++] = cols[k];
            }
    }
    bool ok = e == cudaSuccess;
    long long cs = 0;
    for (int v = 0; v < n; v++) {
        ok = ok && got[v] == lv[v];
        cs += (long long)(got[v] + 1) * (v % 97 + 1);
    }
    printf("checksum: %lld\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
