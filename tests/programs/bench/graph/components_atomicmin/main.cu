// Connected components by label propagation over an edge list: atomicMin on labels until no change.
#include <cstdio>
#include <cstdlib>

__global__ void propagate(const int2 *edges, int m, int *label, int *changed)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= m)
        return;
    int a = edges[e].x, b = edges[e].y;
    int la = label[a], lb = label[b];
    if (la < lb) {
        if (atomicMin(&label[b], la) > la)
            *changed = 1;
    } else if (lb < la) {
        if (atomicMin(&label[a], lb) > lb)
            *changed = 1;
    }
}

static int find(int *p, int x)
{
    while (p[x] != x)
        x = p[x] = p[p[x]];
    return x;
}

int main()
{
    const int n = 600, m = 500;
    int2 *edges = (int2 *)malloc(m * sizeof(int2));
    for (int e = 0; e < m; e++) {
        int a = (e * 37) % n, b = (e * 37 + 1 + (e % 4) * 13) % n;
        edges[e] = make_int2(a, b);
    }
    int *label = (int *)malloc(n * 4);
    for (int v = 0; v < n; v++)
        label[v] = v;
    int2 *de;
    int *dl, *dch;
    cudaMalloc(&de, m * sizeof(int2));
    cudaMalloc(&dl, n * 4);
    cudaMalloc(&dch, 4);
    cudaMemcpy(de, edges, m * sizeof(int2), cudaMemcpyHostToDevice);
    cudaMemcpy(dl, label, n * 4, cudaMemcpyHostToDevice);
    int rounds = 0;
    for (int changed = 1; changed && rounds < 1000; rounds++) {
        changed = 0;
        cudaMemcpy(dch, &changed, 4, cudaMemcpyHostToDevice);
        propagate<<<(m + 127) / 128, 128>>>(de, m, dl, dch);
        cudaMemcpy(&changed, dch, 4, cudaMemcpyDeviceToHost);
    }
    cudaError_t e = cudaMemcpy(label, dl, n * 4, cudaMemcpyDeviceToHost);
    int *parent = (int *)malloc(n * 4), *minl = (int *)malloc(n * 4);
    for (int v = 0; v < n; v++)
        parent[v] = v;
    for (int k = 0; k < m; k++) {
        int a = find(parent, edges[k].x), b = find(parent, edges[k].y);
        if (a != b)
            parent[a < b ? b : a] = a < b ? a : b;
    }
    for (int v = 0; v < n; v++)
        minl[v] = n;
    for (int v = 0; v < n; v++) {
        int r = find(parent, v);
        if (v < minl[r])
            minl[r] = v;
    }
    bool ok = e == cudaSuccess;
    long long cs = 0;
    int comps = 0;
    for (int v = 0; v < n; v++) {
        ok = ok && label[v] == minl[find(parent, v)];
        comps += label[v] == v;
        cs += label[v];
    }
    printf("checksum: %lld\n", cs * 1000 + comps);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
