// cub::BlockReduce and cub::BlockScan in one kernel (the CUB headers that ship with the CUDA toolkit).
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
__global__ void k(const int *in, int *sums, int *scan) {
    typedef cub::BlockReduce<int, 128> BR;
    typedef cub::BlockScan<int, 128> BS;
    __shared__ typename BR::TempStorage tr;
    __shared__ typename BS::TempStorage ts;
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int s = BR(tr).Sum(v);
    if (threadIdx.x == 0) sums[blockIdx.x] = s;
    int e;
    BS(ts).ExclusiveSum(v, e);
    scan[blockIdx.x * 128 + threadIdx.x] = e;
}
int main() {
    const int n = 256; int h[n], hs[2], hsc[n];
    for (int i = 0; i < n; ++i) h[i] = i % 13 - 6;
    int *d, *ds, *dsc; cudaMalloc(&d, sizeof h); cudaMalloc(&ds, 8); cudaMalloc(&dsc, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<2, 128>>>(d, ds, dsc);
    cudaMemcpy(hs, ds, 8, cudaMemcpyDeviceToHost); cudaMemcpy(hsc, dsc, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < 2; ++b) { int r = 0; for (int i = 0; i < 128; ++i) { if (hsc[b*128+i] != r) bad++; r += h[b*128+i]; } if (hs[b] != r) bad++; }
    printf("checksum: %d\n%s\n", hs[0] * 1000 + hs[1], bad ? "FAIL" : "PASS");
    return bad != 0;
}
