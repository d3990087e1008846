// cuda::pipeline at block scope, as a multi-stage (double/triple-buffered) tiled reduction:
// cuda::pipeline_shared_state<thread_scope_block, STAGES>, cuda::make_pipeline(block, &state),
// producer_acquire / cuda::memcpy_async(group, ...) / producer_commit, consumer_wait /
// consumer_release, the pipeline kept STAGES tiles ahead of the consumer. A second kernel splits
// the block into producer and consumer roles (cuda::pipeline_role) with aligned_size_t copies.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda/pipeline>

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

constexpr int THREADS = 64, TILE = 128;

// every thread sums tile[(t * 5 + k) % TILE] weighted by the tile's index: it reads words other
// threads copied, so a stage consumed before its copies land gives a wrong sum
template <int STAGES>
__global__ void tiles_kernel(const int *in, long long *out, int tiles)
{
    __shared__ __align__(16) int buf[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int *base = in + (size_t)blockIdx.x * tiles * TILE;
    long long acc = 0;
    int fetch = 0;
    for (int t = 0; t < tiles; ++t) {
        for (; fetch < tiles && fetch < t + STAGES; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], base + fetch * TILE, sizeof(int) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        int s = t % STAGES;
        for (int k = 0; k < 4; ++k) acc += (long long)buf[s][(threadIdx.x * 5 + k * 37) % TILE] * (t + 1);
        pipe.consumer_release();
    }
    out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

// warp 0 produces, warp 1 consumes: the roles synchronise only through the pipeline's barriers
__global__ void roles_kernel(const int4 *in, long long *out, int tiles)
{
    constexpr int STAGES = 2;
    __shared__ __align__(16) int4 buf[STAGES][32];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    const bool producer = threadIdx.x < 32;
    auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer
                                                            : cuda::pipeline_role::consumer);
    const int4 *base = in + (size_t)blockIdx.x * tiles * 32;
    long long acc = 0;
    for (int t = 0; t < tiles; ++t) {
        int s = t % STAGES;
        if (producer) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[s][threadIdx.x], &base[t * 32 + threadIdx.x],
                               cuda::aligned_size_t<16>(sizeof(int4)), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            int4 v = buf[s][31 - (threadIdx.x - 32)];
            acc += (long long)(v.x - v.y + 3 * v.z + 7 * v.w) * (t + 2);
            pipe.consumer_release();
        }
    }
    if (!producer) out[blockIdx.x * 32 + threadIdx.x - 32] = acc;
}

int main()
{
    constexpr int BLOCKS = 2, TILES = 4;
    static int in[BLOCKS * TILES * TILE];
    for (int i = 0; i < BLOCKS * TILES * TILE; i++) in[i] = (i * 7919 + 13) % 1999 - 1000;
    int *d_in;
    long long *d_out;
    static long long out[BLOCKS * THREADS];
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    int bad = 0;
    long long checksum = 0;
    for (int stages = 2; stages <= 3; stages++) {
        CUDA_CHECK(cudaMemset(d_out, 0, sizeof out));
        if (stages == 2) tiles_kernel<2><<<BLOCKS, THREADS>>>(d_in, d_out, TILES);
        else tiles_kernel<3><<<BLOCKS, THREADS>>>(d_in, d_out, TILES);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        for (int b = 0; b < BLOCKS; b++)
            for (int x = 0; x < THREADS; x++) {
                long long want = 0;
                for (int t = 0; t < TILES; t++)
                    for (int k = 0; k < 4; k++)
                        want += (long long)in[(b * TILES + t) * TILE + (x * 5 + k * 37) % TILE] * (t + 1);
                if (out[b * THREADS + x] != want && bad++ < 5)
                    fprintf(stderr, "tiles<%d> block %d thread %d: %lld want %lld\n", stages, b, x, out[b * THREADS + x], want);
                checksum += out[b * THREADS + x] * stages;
            }
    }
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof out));
    roles_kernel<<<BLOCKS, 64>>>(reinterpret_cast<const int4 *>(d_in), d_out, TILES * TILE / 128);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    const int rtiles = TILES * TILE / 128;
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < 32; x++) {
            long long want = 0;
            for (int t = 0; t < rtiles; t++) {
                const int *v = in + ((size_t)b * rtiles * 32 + t * 32 + (31 - x)) * 4;
                want += (long long)(v[0] - v[1] + 3 * v[2] + 7 * v[3]) * (t + 2);
            }
            if (out[b * 32 + x] != want && bad++ < 5)
                fprintf(stderr, "roles block %d thread %d: %lld want %lld\n", b, x, out[b * 32 + x], want);
            checksum += out[b * 32 + x];
        }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
