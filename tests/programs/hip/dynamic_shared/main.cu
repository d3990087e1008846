// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// extern __shared__ sized at launch: each block reverses its slice through LDS.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void reverse_blocks(const int* in, int* out) {
    extern __shared__ int slice[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    slice[t] = in[base + t];
    __syncthreads();
    out[base + t] = slice[blockDim.x - 1 - t];
}

int main() {
    const int block = 96, blocks = 3, n = block * blocks;
    int h[n], got[n];
    for (int i = 0; i < n; i++) h[i] = i * 3 + 1;
    int *in, *out;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reverse_blocks<<<dim3(blocks), dim3(block), block * sizeof(int)>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0;
    long sum = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < block; t++) {
            bad += got[b * block + t] != h[b * block + block - 1 - t];
            sum += (long)got[b * block + t] * (t + 1);
        }
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
