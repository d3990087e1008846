// Cooperative groups: thread_block, tiled_partition into 32-, 16- and 8-thread tiles, tile
// shuffles and cg::reduce with plus/less/greater, block-wide sync, ranks and sizes.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

constexpr int BLOCKS = 2, THREADS = 128, N = BLOCKS * THREADS;

__global__ void tiles(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> sixteen = cg::tiled_partition<16>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    __shared__ int staged[THREADS];
    int r = block.thread_rank();
    int v = in[blockIdx.x * THREADS + r];
    staged[r] = v;
    block.sync();
    int mirrored = staged[THREADS - 1 - r];        // needs the block-wide barrier
    int warp_sum = cg::reduce(warp, v, cg::plus<int>());
    int min16 = cg::reduce(sixteen, v, cg::less<int>());
    int max8 = cg::reduce(eight, v, cg::greater<int>());
    int down = v;
    for (int off = eight.size() / 2; off > 0; off /= 2) down += eight.shfl_down(down, off);
    int first8 = eight.shfl(down, 0);              // lane 0 holds the tile's sum
    int neighbour = sixteen.shfl_xor(v, 1);
    int *o = out + 8 * (blockIdx.x * THREADS + r);
    o[0] = mirrored;
    o[1] = warp_sum;
    o[2] = min16;
    o[3] = max8;
    o[4] = first8;
    o[5] = neighbour;
    o[6] = warp.thread_rank() + 100 * sixteen.thread_rank() + 10000 * eight.thread_rank();
    o[7] = (int)(warp.size() + sixteen.size() + eight.size() + block.size());
}

int main()
{
    int h_in[N], h_out[8 * N];
    for (int i = 0; i < N; i++) h_in[i] = (i * 29 + 3) % 101 - 50;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    tiles<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaError_t err = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int bad = err != cudaSuccess;
    long long checksum = 0;
    for (int i = 0; i < N; i++) {
        int b = i / THREADS, r = i % THREADS;
        const int *blk = h_in + b * THREADS;
        int want[8];
        want[0] = blk[THREADS - 1 - r];
        int w0 = r / 32 * 32, s0 = r / 16 * 16, e0 = r / 8 * 8;
        want[1] = 0;
        for (int k = 0; k < 32; k++) want[1] += blk[w0 + k];
        want[2] = blk[s0];
        for (int k = 1; k < 16; k++) want[2] = blk[s0 + k] < want[2] ? blk[s0 + k] : want[2];
        want[3] = blk[e0];
        for (int k = 1; k < 8; k++) want[3] = blk[e0 + k] > want[3] ? blk[e0 + k] : want[3];
        want[4] = 0;
        for (int k = 0; k < 8; k++) want[4] += blk[e0 + k];
        want[5] = blk[r ^ 1];
        want[6] = r % 32 + 100 * (r % 16) + 10000 * (r % 8);
        want[7] = 32 + 16 + 8 + THREADS;
        for (int k = 0; k < 8; k++) {
            if (h_out[8 * i + k] != want[k]) {
                if (bad < 5) printf("mismatch thread %d item %d: %d != %d\n", i, k, h_out[8 * i + k], want[k]);
                bad++;
            }
            checksum += h_out[8 * i + k];
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
