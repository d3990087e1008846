// Bitonic sort of 1024 keys in one block's shared memory.
#include <cstdio>
#include <cstdlib>
#include <algorithm>

#define N 1024

__device__ void compare_swap(unsigned *s, int i, int j, bool up)
{
    unsigned a = s[i], b = s[j];
    if ((a > b) == up) {
        s[i] = b;
        s[j] = a;
    }
}

__global__ void bitonic(unsigned *data)
{
    __shared__ unsigned s[N];
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        s[i] = data[i];
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < N; i += blockDim.x) {
                int p = i ^ j;
                if (p > i)
                    compare_swap(s, i, p, (i & k) == 0);
            }
            __syncthreads();
        }
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        data[i] = s[i];
}

int main()
{
    unsigned h[N], r[N];
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        h[i] = x >> 8;
    }
    unsigned *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    bitonic<<<1, 256>>>(d);
    cudaError_t e = cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    std::sort(h, h + N);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int i = 0; i < N; i++) {
        if (r[i] != h[i])
            ok = false;
        cs = cs * 33u ^ r[i];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
