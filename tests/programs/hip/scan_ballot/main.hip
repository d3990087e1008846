// Stream compaction inside each wave: __ballot gives the mask of kept lanes, popcount of the
// lanes below gives each kept element's slot; an atomic reserves the wave's output range.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void compact(const int* in, int* out, int* count, int* wave_counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    bool keep = in[i] % 3 == 0;
    unsigned long long mask = __ballot(keep);
    int below = __popcll(mask & ((1ull << lane) - 1));
    int total = __popcll(mask);
    int base = 0;
    if (lane == 0) base = atomicAdd(count, total);
    base = __shfl(base, 0);
    if (keep) out[base + below] = in[i];
    if (lane == 0) wave_counts[i / warpSize] = total;
}

int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 11 + 5) % 97;
    int *in, *out, *count, *waves;
    CHECK(hipMalloc(&in, sizeof h));
    CHECK(hipMalloc(&out, sizeof h));
    CHECK(hipMalloc(&count, sizeof(int)));
    CHECK(hipMalloc(&waves, n / 32 * sizeof(int)));
    CHECK(hipMemset(count, 0, sizeof(int)));
    CHECK(hipMemcpy(in, h, sizeof h, hipMemcpyHostToDevice));
    compact<<<n / 128, 128>>>(in, out, count, waves);
    CHECK(hipGetLastError());
    int got = 0, ho[n], hw[n / 32];
    CHECK(hipMemcpy(&got, count, sizeof got, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(ho, out, sizeof ho, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(hw, waves, sizeof hw, hipMemcpyDeviceToHost));
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
