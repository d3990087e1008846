// cooperative_groups::memcpy_async as a two-stage pipeline: the block copies the next tile while
// it reads the current one, cg::wait_prior<1> waits for all but the newest copy, cg::wait for all;
// a warp tile (thread_block_tile<32>) copies its own slice with cg::memcpy_async and cg::wait.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int THREADS = 64, TILE = 192;

__global__ void staged_kernel(const int *in, long long *out, int tiles)
{
    __shared__ __align__(16) int buf[2][TILE];
    cg::thread_block block = cg::this_thread_block();
    const int *base = in + (size_t)blockIdx.x * tiles * TILE;
    long long acc = 0;
    cg::memcpy_async(block, buf[0], base, sizeof(int) * TILE);
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles) {
            cg::memcpy_async(block, buf[(t + 1) & 1], base + (t + 1) * TILE, sizeof(int) * TILE);
            cg::wait_prior<1>(block);
        } else {
            cg::wait(block);
        }
        const int *v = buf[t & 1];
        for (int k = 0; k < 3; k++) acc += (long long)v[(threadIdx.x * 3 + k * 64 + t) % TILE] * (t + 1);
        block.sync();                            // everyone read buf[t & 1] before it is refilled
    }
    out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

__global__ void warp_kernel(const int *in, int *out)
{
    __shared__ __align__(16) int buf[THREADS * 2];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int w = threadIdx.x / 32;
    cg::memcpy_async(warp, buf + w * 64, in + blockIdx.x * THREADS * 2 + w * 64, sizeof(int) * 64);
    cg::wait(warp);
    int l = warp.thread_rank();
    out[blockIdx.x * THREADS + threadIdx.x] = buf[w * 64 + 63 - l] - 2 * buf[w * 64 + l];
}

int main()
{
    constexpr int BLOCKS = 2, TILES = 5;
    static int in[BLOCKS * TILES * TILE];
    static long long out[BLOCKS * THREADS];
    static int wout[BLOCKS * THREADS];
    for (int i = 0; i < BLOCKS * TILES * TILE; i++) in[i] = (i * 7127 + 5) % 3001 - 1500;
    int *d_in, *d_wout;
    long long *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMalloc(&d_wout, sizeof wout));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    staged_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, TILES);
    CUDA_CHECK(cudaGetLastError());
    warp_kernel<<<BLOCKS, THREADS>>>(d_in, d_wout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(wout, d_wout, sizeof wout, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < THREADS; x++) {
            long long want = 0;
            for (int t = 0; t < TILES; t++)
                for (int k = 0; k < 3; k++) want += (long long)in[(b * TILES + t) * TILE + (x * 3 + k * 64 + t) % TILE] * (t + 1);
            if (out[b * THREADS + x] != want && bad++ < 5)
                fprintf(stderr, "staged block %d thread %d: %lld want %lld\n", b, x, out[b * THREADS + x], want);
            checksum += out[b * THREADS + x];
            int w = x / 32, l = x % 32;
            const int *s = in + b * THREADS * 2 + w * 64;
            int wwant = s[63 - l] - 2 * s[l];
            if (wout[b * THREADS + x] != wwant && bad++ < 5)
                fprintf(stderr, "warp block %d thread %d: %d want %d\n", b, x, wout[b * THREADS + x], wwant);
            checksum += wout[b * THREADS + x];
        }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
