// Thread-block tiles larger than a warp: thread_block_tile<64> and <128> from
// tiled_partition<N>(this_thread_block(block_tile_memory)), and a warp tile of a 128-thread tile:
// thread_rank, num_threads, meta_group_rank/size, sync() ordering shared-memory writes across
// the tile's warps, shfl from one source rank, any/all, cg::reduce (plus, greater) and
// cg::inclusive_scan / exclusive_scan across warps. Every value is checked against the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
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

constexpr int THREADS = 256, BLOCKS = 1, N_ALL = THREADS * BLOCKS, K = 14;

template <unsigned N>
__global__ void bigTiles(const int *in, int *out)
{
    __shared__ cg::block_tile_memory<THREADS> tileMemory;
    __shared__ int exchange[THREADS];
    cg::thread_block block = cg::this_thread_block(tileMemory);
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    const unsigned r = tile.thread_rank();
    int *o = out + i * K;
    o[0] = r;
    o[1] = tile.num_threads();
    o[2] = tile.meta_group_rank();
    o[3] = tile.meta_group_size();
    exchange[threadIdx.x] = v * 5;
    tile.sync();                                 // the other warps' writes are visible now
    o[4] = exchange[threadIdx.x - r + (r + 37) % N];
    o[5] = tile.shfl(v, 37 % N);
    o[6] = tile.shfl(v * 3, N - 1);
    o[7] = tile.any(v > 46);
    o[8] = tile.all(v > -49);
    o[9] = cg::reduce(tile, v, cg::plus<int>());
    o[10] = cg::reduce(tile, v, cg::greater<int>());
    o[11] = cg::inclusive_scan(tile, v);
    o[12] = cg::exclusive_scan(tile, v);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tile);
    o[13] = warp.meta_group_rank() * 1000 + warp.meta_group_size() * 100 + cg::reduce(warp, v & 7, cg::plus<int>());
}

template <unsigned N>
static bool run(const int *dIn, int *dOut, const std::vector<int> &in, long long &checksum)
{
    CUDA_CHECK(cudaMemset(dOut, 0x7f, N_ALL * K * sizeof(int)));
    bigTiles<N><<<BLOCKS, THREADS>>>(dIn, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> got(N_ALL * K);
    CUDA_CHECK(cudaMemcpy(got.data(), dOut, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N_ALL; ++i) {
        const int tr = i % THREADS, r = tr % N, base = i - r;
        int e[K];
        int any = 0, all = 1, sum = 0, mx = in[base], incl = 0, excl = 0;
        for (unsigned k = 0; k < N; ++k) {
            int x = in[base + k];
            any |= x > 46;
            all &= x > -49;
            sum += x;
            mx = x > mx ? x : mx;
            if ((int)k <= r) incl += x;
            if ((int)k < r) excl += x;
        }
        int lane = tr % 32, warpBase = i - lane, warpSum = 0;
        for (int k = 0; k < 32; ++k)
            warpSum += in[warpBase + k] & 7;
        e[0] = r;
        e[1] = N;
        e[2] = tr / N;
        e[3] = THREADS / N;
        e[4] = in[base + (r + 37) % N] * 5;
        e[5] = in[base + 37 % N];
        e[6] = in[base + N - 1] * 3;
        e[7] = any;
        e[8] = all;
        e[9] = sum;
        e[10] = mx;
        e[11] = incl;
        e[12] = excl;
        e[13] = (r / 32) * 1000 + (N / 32) * 100 + warpSum;
        for (int k = 0; k < K; ++k) {
            int g = got[i * K + k];
            checksum += (long long)g * (k + 1) * (N / 32);
            if (g != e[k]) {
                if (bad < 8)
                    printf("tile<%u> thread %d value %d: got %d, expected %d\n", N, i, k, g, e[k]);
                bad++;
            }
        }
    }
    return bad == 0;
}

int main()
{
    std::vector<int> in(N_ALL);
    for (int i = 0; i < N_ALL; ++i)
        in[i] = (i * 53 + 7) % 99 - 49;
    in[70] = 48;                                 // one tile<64> of block 0 has a value > 46
    int *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, N_ALL * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, N_ALL * K * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), N_ALL * sizeof(int), cudaMemcpyHostToDevice));
    long long checksum = 0;
    bool ok = run<64>(dIn, dOut, in, checksum);
    ok &= run<128>(dIn, dOut, in, checksum);
    printf("checksum: %lld\n", checksum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
