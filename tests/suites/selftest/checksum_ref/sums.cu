// The selftest suite's compared program: integer and float sums of a deterministic sequence
// (exact in float: every partial sum is a multiple of 0.5 below 2^22), printed and written to sums.txt,
// so a run elsewhere is compared with the H200's lines and file. The host check is the same sum.
#include <cstdio>
#include "selftest_check.h"

__global__ void fill(int n, unsigned* u, float* f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        u[i] = (unsigned(i) * 2654435761u) % 1000u;
        f[i] = float(u[i]) * 0.5f;
    }
}

__global__ void block_sums(int n, const unsigned* u, const float* f, unsigned long long* total, float* ftotal) {
    __shared__ unsigned s[256];
    __shared__ float t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? u[i] : 0u;
    t[threadIdx.x] = i < n ? f[i] : 0.0f;
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) {
            s[threadIdx.x] += s[threadIdx.x + step];
            t[threadIdx.x] += t[threadIdx.x + step];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(total, (unsigned long long)s[0]);
        atomicAdd(ftotal, t[0]);
    }
}

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    unsigned* u;
    float *f, *ftotal;
    unsigned long long* total;
    CHECK(cudaMallocManaged(&u, n * sizeof(unsigned)));
    CHECK(cudaMallocManaged(&f, n * sizeof(float)));
    CHECK(cudaMallocManaged(&total, sizeof(unsigned long long)));
    CHECK(cudaMallocManaged(&ftotal, sizeof(float)));
    *total = 0;
    *ftotal = 0.0f;
    fill<<<(n + 255) / 256, 256>>>(n, u, f);
    block_sums<<<(n + 255) / 256, 256>>>(n, u, f, total, ftotal);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned long long want = 0;
    for (int i = 0; i < n; ++i) want += (unsigned(i) * 2654435761u) % 1000u;
    std::printf("n: %d\nsum: %llu\nhalf sum: %.6e\n", n, *total, double(*ftotal));
    std::FILE* out = std::fopen("sums.txt", "w");
    if (!out) { std::perror("sums.txt"); return 3; }
    for (int i = 0; i < 8; ++i) std::fprintf(out, "u[%d] = %u, f[%d] = %.2f\n", i, u[i], i, double(f[i]));
    std::fclose(out);
    bool ok = *total == want && double(*ftotal) == 0.5 * double(want);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
