// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// Warp (wave32) reduction with __shfl_down and a broadcast with __shfl.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void warp_sums(const int* in, int* sums, int* firsts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    int first = __shfl_sync(0xffffffffu, in[i], 0);
    int warp = i / warpSize;
    if (threadIdx.x % warpSize == 0) { sums[warp] = v; firsts[warp] = first; }
}

int main() {
    const int n = 256, warps = n / 32;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 7) % 23 + 1;
    int *in, *sums, *firsts;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&sums, warps * sizeof(int)));
    CHECK(cudaMalloc(&firsts, warps * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    warp_sums<<<n / 64, 64>>>(in, sums, firsts);
    CHECK(cudaGetLastError());
    int hs[warps], hf[warps];
    CHECK(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, firsts, sizeof hf, cudaMemcpyDeviceToHost));
    int bad = 0;
    long total = 0;
    for (int w = 0; w < warps; w++) {
        int expect = 0;
        for (int l = 0; l < 32; l++) expect += h[w * 32 + l];
        bad += hs[w] != expect || hf[w] != h[w * 32];
        total += hs[w];
    }
    printf("checksum: %ld\n", total);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
