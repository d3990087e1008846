// Warp-level primitives as libraries write them: an inclusive block scan from __shfl_up_sync and
// a shared array of warp totals (dynamic shared memory), stream compaction with __ballot_sync and
// __popc, __activemask, __any_sync/__all_sync, __shfl_xor_sync butterfly max.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

constexpr unsigned FULL = 0xffffffffu;
constexpr int WARP = 32;

__device__ int warpInclusiveScan(int v)
{
    int lane = threadIdx.x & (WARP - 1);
#pragma unroll
    for (int d = 1; d < WARP; d <<= 1) {
        int t = __shfl_up_sync(FULL, v, d);
        if (lane >= d)
            v += t;
    }
    return v;
}

__global__ void blockScan(const int *in, int *out, int *flags, int n)
{
    extern __shared__ int warpTotals[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    int v = i < n ? in[i] : 0;
    int s = warpInclusiveScan(v);
    if (lane == WARP - 1)
        warpTotals[warp] = s;
    __syncthreads();
    if (warp == 0) {
        int t = lane < blockDim.x / WARP ? warpTotals[lane] : 0;
        t = warpInclusiveScan(t);
        if (lane < blockDim.x / WARP)
            warpTotals[lane] = t;
    }
    __syncthreads();
    if (warp > 0)
        s += warpTotals[warp - 1];
    if (i < n)
        out[i] = s;
    // warp votes
    bool neg = v < 0;
    int anyNeg = __any_sync(FULL, neg), allSmall = __all_sync(FULL, v < 100);
    int m = v;
    for (int o = 16; o > 0; o >>= 1)
        m = max(m, __shfl_xor_sync(FULL, m, o));
    if (lane == 0)
        flags[blockIdx.x * (blockDim.x / WARP) + warp] = (anyNeg << 20) | (allSmall << 21) | (m & 0xfffff);
}

__global__ void compactPositive(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    bool keep = v > 0;
    unsigned mask = __ballot_sync(FULL, keep);
    int lane = threadIdx.x & 31;
    int warpCount = __popc(mask);
    int base = 0;
    if (lane == 0)
        base = atomicAdd(count, warpCount);
    base = __shfl_sync(FULL, base, 0);
    if (keep) {
        unsigned active = __activemask();
        (void)active;
        out[base + __popc(mask & ((1u << lane) - 1))] = v;
    }
}

int main()
{
    const int threads = 128, blocks = 3, n = threads * blocks - 5;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 73) % 41 - 15;
    int *dIn, *dOut, *dFlags, *dCompact, *dCount;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dFlags, blocks * threads / WARP * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCompact, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCount, sizeof(int)));
    CUDA_CHECK(cudaMemset(dCount, 0, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    blockScan<<<blocks, threads, threads / WARP * sizeof(int)>>>(dIn, dOut, dFlags, n);
    CUDA_CHECK(cudaGetLastError());
    compactPositive<<<blocks, threads>>>(dIn, dCompact, dCount, n);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> out(n), flags(blocks * threads / WARP), compact(n);
    int count = 0;
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(flags.data(), dFlags, flags.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(compact.data(), dCompact, n * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int b = 0; b < blocks; ++b) {
        int run = 0;
        for (int t = 0; t < threads && b * threads + t < n; ++t) {
            int i = b * threads + t;
            run += h[i];
            if (out[i] != run)
                bad++;
            checksum += out[i];
        }
        for (int w = 0; w < threads / WARP; ++w) {
            int anyNeg = 0, allSmall = 1, m = -1 << 30;
            for (int l = 0; l < WARP; ++l) {
                int i = b * threads + w * WARP + l;
                int v = i < n ? h[i] : 0;
                anyNeg |= v < 0;
                allSmall &= v < 100;
                m = v > m ? v : m;
            }
            if (flags[b * threads / WARP + w] != ((anyNeg << 20) | (allSmall << 21) | (m & 0xfffff)))
                bad++;
        }
    }
    // compaction order between warps is not fixed: compare the sums and counts
    int refCount = 0;
    long long refSum = 0, gotSum = 0;
    for (int i = 0; i < n; ++i)
        if (h[i] > 0) {
            refCount++;
            refSum += h[i];
        }
    for (int i = 0; i < count && i < n; ++i)
        gotSum += compact[i];
    if (count != refCount || gotSum != refSum)
        bad++;
    checksum += refCount * 1000 + gotSum;
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
