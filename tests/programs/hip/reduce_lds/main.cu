// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// Tree reduction in LDS with __syncthreads, one partial sum per block, then a second pass.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <int BLOCK>
__global__ void reduce(const int* in, int* out, int n) {
    __shared__ int partial[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK * 2 + tid;
    int v = 0;
    if (i < n) v += in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    partial[tid] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = partial[0];
}

int main() {
    const int n = 3000, block = 128;
    const int blocks = (n + 2 * block - 1) / (2 * block);
    int h[n];
    long long expect = 0;
    for (int i = 0; i < n; i++) { h[i] = (i * 37) % 101 - 50; expect += h[i]; }
    int *in, *partial, *total;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reduce<block><<<blocks, block>>>(in, partial, n);
    reduce<block><<<1, block>>>(partial, total, blocks);
    CHECK(cudaGetLastError());
    int result = 0;
    CHECK(cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost));
    printf("checksum: %d\n", result);
    printf(result == expect ? "PASS\n" : "FAIL\n");
    return result != expect;
}
