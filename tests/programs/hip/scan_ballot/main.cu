// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// Stream compaction inside each wave: __ballot gives the mask of kept lanes, popcount of the
// lanes below gives each kept element's slot; an atomic reserves the wave's output range.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void compact(const int* in, int* out, int* count, int* wave_counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    bool keep = in[i] % 3 == 0;
    unsigned long long mask = __ballot_sync(0xffffffffu, keep);
    int below = __popcll(mask & ((1ull << lane) - 1));
    int total = __popcll(mask);
    int base = 0;
    if (lane == 0) base = atomicAdd(count, total);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + below] = in[i];
    if (lane == 0) wave_counts[i / warpSize] = total;
}

int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 11 + 5) % 97;
    int *in, *out, *count, *waves;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMalloc(&count, sizeof(int)));
    CHECK(cudaMalloc(&waves, n / 32 * sizeof(int)));
    CHECK(cudaMemset(count, 0, sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    compact<<<n / 128, 128>>>(in, out, count, waves);
    CHECK(cudaGetLastError());
    int got = 0, ho[n], hw[n / 32];
    CHECK(cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hw, waves, sizeof hw, cudaMemcpyDeviceToHost));
    int expect = 0, bad = 0;
    long sum_in = 0, sum_out = 0;
    for (int w = 0; w < n / 32; w++) {
        int c = 0;
        for (int l = 0; l < 32; l++) c += h[w * 32 + l] % 3 == 0;
        bad += hw[w] != c;
        expect += c;
    }
    for (int i = 0; i < n; i++) if (h[i] % 3 == 0) sum_in += h[i];
    for (int i = 0; i < got && i < n; i++) { sum_out += ho[i]; bad += ho[i] % 3 != 0; }
    bad += got != expect || sum_in != sum_out;
    printf("checksum: %ld\n", sum_out);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
