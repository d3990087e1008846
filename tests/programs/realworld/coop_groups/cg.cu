// cooperative_groups basics: this_thread_block, tiled_partition (static 32 and 8 tiles),
// a tile of a tile, tile shuffles, thread_rank/size/meta_group_rank/meta_group_size, block.sync(),
// cg::reduce with cg::plus.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__device__ int warpSumShfl(cg::thread_block_tile<32> tile, int v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    return v;
}

__global__ void blockSums(const int *in, int *blockOut, int *tile8Out, int *subMeta, int n)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int warpSums[32];
    int i = blockIdx.x * blockDim.x + block.thread_rank();
    int v = i < n ? in[i] : 0;

    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int ws = warpSumShfl(warp, v);
    if (warp.thread_rank() == 0)
        warpSums[warp.meta_group_rank()] = ws;

    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    int s8 = cg::reduce(t8, v, cg::plus<int>());
    if (t8.thread_rank() == 0)
        tile8Out[i / 8] = s8;

    // A tile of a tile: its meta group is the parent warp.
    cg::thread_block_tile<8> sub = cg::tiled_partition<8>(warp);
    if (sub.thread_rank() == 0)
        subMeta[i / 8] = sub.meta_group_rank() * 100 + sub.meta_group_size() * 10 + (int)warp.meta_group_size();

    block.sync();
    if (warp.meta_group_rank() == 0) {
        int w = warp.thread_rank() < (int)warp.meta_group_size() ? warpSums[warp.thread_rank()] : 0;
        w = cg::reduce(warp, w, cg::plus<int>());
        if (warp.thread_rank() == 0)
            blockOut[blockIdx.x] = w;
    }
}

int main()
{
    const int threads = 128, blocks = 3, n = threads * blocks - 17;
    std::vector<int> h(threads * blocks, 0);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 31) % 17 - 8;
    int *dIn, *dBlock, *dTile, *dSub;
    CUDA_CHECK(cudaMalloc(&dIn, h.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dBlock, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dTile, h.size() / 8 * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSub, h.size() / 8 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    blockSums<<<blocks, threads>>>(dIn, dBlock, dTile, dSub, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> hb(blocks), ht(h.size() / 8), hs(h.size() / 8);
    CUDA_CHECK(cudaMemcpy(hs.data(), dSub, hs.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hb.data(), dBlock, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ht.data(), dTile, ht.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int b = 0; b < blocks; ++b) {
        int ref = 0;
        for (int i = b * threads; i < (b + 1) * threads; ++i)
            ref += h[i];
        if (hb[b] != ref)
            bad++;
        checksum += (long long)hb[b] * (b + 1);
    }
    for (size_t t = 0; t < ht.size(); ++t) {
        int ref = 0;
        for (int i = 0; i < 8; ++i)
            ref += h[t * 8 + i];
        if (ht[t] != ref)
            bad++;
        if (hs[t] != (int)(t % 4) * 100 + 4 * 10 + threads / 32)
            bad++;
        checksum += ht[t];
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
