// Four host threads, each with its own stream, launch kernels and copy concurrently; the
// runtime must serve HIP calls from any thread.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void fill(int* v, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = value * 1000 + i;
}

static void worker(int id, int* errors, long* sums) {
    const int n = 64;
    hipStream_t s;
    int *d, h[n];
    if (hipStreamCreate(&s) != hipSuccess || hipMalloc(&d, n * sizeof(int)) != hipSuccess) { errors[id]++; return; }
    for (int round = 0; round < 3; round++) {
        fill<<<1, n, 0, s>>>(d, id * 10 + round, n);
        if (hipMemcpyAsync(h, d, sizeof h, hipMemcpyDeviceToHost, s) != hipSuccess) errors[id]++;
        if (hipStreamSynchronize(s) != hipSuccess) errors[id]++;
        for (int i = 0; i < n; i++) { errors[id] += h[i] != (id * 10 + round) * 1000 + i; sums[id] += h[i]; }
    }
    hipFree(d);
    hipStreamDestroy(s);
}

int main() {
    const int threads = 4;
    int errors[threads] = {0};
    long sums[threads] = {0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) pool.emplace_back(worker, t, errors, sums);
    for (auto& t : pool) t.join();
    int bad = 0;
    long sum = 0;
    for (int t = 0; t < threads; t++) { bad += errors[t]; sum += sums[t]; }
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
