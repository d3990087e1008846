// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// A kernel with a non-inlined recursive device function (real calls, a stack in scratch) and
// a per-thread array indexed dynamically (private memory).
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ int mix(int a, int b, int c, int d) { return (a * 31 + b) ^ (c * 7 - d); }

__global__ void work(const int* in, int* out) {
    int t = threadIdx.x;
    int local[24];
    for (int i = 0; i < 24; i++) local[i] = in[(t + i) % 64] * (i + 1);
    int acc = 0;
    for (int i = 0; i < 24; i++) acc += local[(i * 5 + t) % 24];
    out[t] = mix(acc, fib(t % 10), local[t % 24], t);
}

static int fib_host(int n) { return n < 2 ? n : fib_host(n - 1) + fib_host(n - 2); }

int main() {
    int h[64], got[64];
    for (int i = 0; i < 64; i++) h[i] = i * 5 - 7;
    int *in, *out;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    work<<<1, 64>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0;
    long sum = 0;
    for (int t = 0; t < 64; t++) {
        int local[24], acc = 0;
        for (int i = 0; i < 24; i++) local[i] = h[(t + i) % 64] * (i + 1);
        for (int i = 0; i < 24; i++) acc += local[(i * 5 + t) % 24];
        int expect = (acc * 31 + fib_host(t % 10)) ^ (local[t % 24] * 7 - t);
        bad += got[t] != expect;
        sum += got[t];
    }
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
