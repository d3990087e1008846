// LSD radix sort, 4 bits per pass, 512 keys in one block: shared-memory atomics count digits,
// a warp-shuffle scan builds offsets, a stable scatter by rank.
#include <cstdio>
#include <cstdlib>
#include <algorithm>

#define N 256
#define T 256

__global__ void radix_pass(const unsigned *in, unsigned *out, int shift)
{
    __shared__ unsigned hist[16];
    __shared__ unsigned offs[16];
    __shared__ unsigned digits[N];
    if (threadIdx.x < 16)
        hist[threadIdx.x] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += T) {
        unsigned d = (in[i] >> shift) & 15u;
        digits[i] = d;
        atomicAdd(&hist[d], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        unsigned v = threadIdx.x < 16 ? hist[threadIdx.x] : 0;
        unsigned incl = v;
        for (int off = 1; off < 32; off <<= 1) {
            unsigned o = __shfl_up_sync(0xffffffffu, incl, off);
            if ((int)threadIdx.x >= off)
                incl += o;
        }
        if (threadIdx.x < 16)
            offs[threadIdx.x] = incl - v;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += T) {
        unsigned d = digits[i], rank = 0;
        for (int j = 0; j < i; j++)
            rank += digits[j] == d;
        out[offs[d] + rank] = in[i];
    }
}

int main()
{
    unsigned h[N], r[N];
    unsigned x = 777;
    for (int i = 0; i < N; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        h[i] = x & 0xffffu;
    }
    unsigned *a, *b;
    cudaMalloc(&a, sizeof h);
    cudaMalloc(&b, sizeof h);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    for (int shift = 0; shift < 16; shift += 4) {
        radix_pass<<<1, T>>>(a, b, shift);
        unsigned *t = a; a = b; b = t;
    }
    cudaError_t e = cudaMemcpy(r, a, sizeof r, cudaMemcpyDeviceToHost);
    std::sort(h, h + N);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int i = 0; i < N; i++) {
        ok = ok && r[i] == h[i];
        cs = cs * 131u + r[i];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
