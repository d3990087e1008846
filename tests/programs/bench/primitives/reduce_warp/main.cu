// Sum reduction: warp shuffles (__shfl_down_sync) inside a templated block reduction.
#include <cstdio>
#include <cstdlib>

template <typename T>
__device__ T warp_sum(T v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

template <typename T, int BLOCK>
__global__ void block_sum(const T *in, T *partial, int n)
{
    __shared__ T warps[BLOCK / 32];
    T v = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        v += in[i];
    v = warp_sum(v);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? warps[threadIdx.x] : 0;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = v;
    }
}

int main()
{
    const int n = 5000, blocks = 8;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 37 + 11) % 1001 - 500;
        want += h[i];
    }
    int *d_in, *d_part;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_part, blocks * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    block_sum<int, 128><<<blocks, 128>>>(d_in, d_part, n);
    block_sum<int, 128><<<1, 128>>>(d_part, d_part, blocks);
    int got = 0;
    cudaError_t e = cudaMemcpy(&got, d_part, sizeof(int), cudaMemcpyDeviceToHost);
    printf("checksum: %d\n", got);
    bool ok = e == cudaSuccess && got == want;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
