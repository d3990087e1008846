// Warp (wave32) reduction with __shfl_down and a broadcast with __shfl.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void warp_sums(const int* in, int* sums, int* firsts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
    int first = __shfl(in[i], 0);
    int warp = i / warpSize;
    if (threadIdx.x % warpSize == 0) { sums[warp] = v; firsts[warp] = first; }
}

int main() {
    const int n = 256, warps = n / 32;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 7) % 23 + 1;
    int *in, *sums, *firsts;
    CHECK(hipMalloc(&in, sizeof h));
    CHECK(hipMalloc(&sums, warps * sizeof(int)));
    CHECK(hipMalloc(&firsts, warps * sizeof(int)));
    CHECK(hipMemcpy(in, h, sizeof h, hipMemcpyHostToDevice));
    warp_sums<<<n / 64, 64>>>(in, sums, firsts);
    CHECK(hipGetLastError());
    int hs[warps], hf[warps];
    CHECK(hipMemcpy(hs, sums, sizeof hs, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(hf, firsts, sizeof hf, hipMemcpyDeviceToHost));
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
