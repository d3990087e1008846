// cuda::barrier<cuda::thread_scope_block> as the completion mechanism of asynchronous copies,
// one barrier phase per tile: cuda::memcpy_async(block, dst, src, cuda::aligned_size_t<16>, bar)
// (the group form), the per-thread form cuda::memcpy_async(dst, src, size, bar), and a warp's
// tile form; bar.arrive_and_wait() completes each phase, a token wait guards the buffer's reuse.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda/barrier>

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

constexpr int THREADS = 64, TILE = 256;
using barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void group_copy_kernel(const int *in, int *out, int tiles)
{
    __shared__ __align__(16) int buf[TILE];
    __shared__ barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    const int *base = in + (size_t)blockIdx.x * tiles * TILE;
    int acc = 0;
    for (int t = 0; t < tiles; t++) {
        cuda::memcpy_async(block, buf, base + t * TILE, cuda::aligned_size_t<16>(sizeof(int) * TILE), bar);
        bar.arrive_and_wait();                   // the copy has landed for every thread
        for (int k = 0; k < 4; k++) acc ^= buf[(threadIdx.x * 7 + k * 61 + t) % TILE] * (k + 1);
        barrier::arrival_token done = bar.arrive();
        bar.wait(std::move(done));               // everybody read: the next copy may overwrite
    }
    out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

__global__ void thread_copy_kernel(const int2 *in, int *out, int tiles)
{
    __shared__ __align__(16) int2 buf[2][THREADS];
    __shared__ barrier bar[2];
    if (threadIdx.x < 2) init(&bar[threadIdx.x], blockDim.x);
    __syncthreads();
    const int2 *base = in + (size_t)blockIdx.x * tiles * THREADS;
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned acc = 0;
    for (int t = 0; t < tiles; t++) {
        int s = t & 1;
        if (t & 2)      // a warp copies its 32 elements as a group
            cuda::memcpy_async(warp, &buf[s][threadIdx.x & ~31], &base[t * THREADS + (threadIdx.x & ~31)],
                               sizeof(int2) * 32, bar[s]);
        else
            cuda::memcpy_async(&buf[s][threadIdx.x], &base[t * THREADS + threadIdx.x], sizeof(int2), bar[s]);
        bar[s].arrive_and_wait();
        int2 v = buf[s][THREADS - 1 - threadIdx.x];
        acc = acc * 5 + (unsigned)(v.x - v.y);
    }
    out[blockIdx.x * THREADS + threadIdx.x] = (int)acc;
}

int main()
{
    constexpr int BLOCKS = 2, TILES = 3;
    static int in[BLOCKS * TILES * TILE];
    static int out[BLOCKS * THREADS];
    for (int i = 0; i < BLOCKS * TILES * TILE; i++) in[i] = (i * 40503 + 7) % 4093 - 2000;
    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    int bad = 0;
    long long checksum = 0;
    group_copy_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, TILES);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < THREADS; x++) {
            int want = 0;
            for (int t = 0; t < TILES; t++)
                for (int k = 0; k < 4; k++) want ^= in[(b * TILES + t) * TILE + (x * 7 + k * 61 + t) % TILE] * (k + 1);
            if (out[b * THREADS + x] != want && bad++ < 5)
                fprintf(stderr, "group copy block %d thread %d: %d want %d\n", b, x, out[b * THREADS + x], want);
            checksum += out[b * THREADS + x];
        }
    const int ttiles = TILES * TILE / (2 * THREADS) / BLOCKS;
    thread_copy_kernel<<<BLOCKS, THREADS>>>(reinterpret_cast<const int2 *>(d_in), d_out, ttiles);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < THREADS; x++) {
            unsigned want = 0;
            for (int t = 0; t < ttiles; t++) {
                const int *v = in + 2 * ((size_t)b * ttiles * THREADS + t * THREADS + THREADS - 1 - x);
                want = want * 5 + (unsigned)(v[0] - v[1]);
            }
            if ((unsigned)out[b * THREADS + x] != want && bad++ < 5)
                fprintf(stderr, "thread copy block %d thread %d: %d want %d\n", b, x, out[b * THREADS + x], (int)want);
            checksum += out[b * THREADS + x] % 10007;
        }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
