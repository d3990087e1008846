// Asynchronous copies and cooperative-groups collectives as modern CUDA code writes them:
// cooperative_groups::memcpy_async + cg::wait into shared memory, the __pipeline_memcpy_async
// primitives (LDGSTS of 16, 8 and 4 bytes, a zero-filled tail), and cg::reduce /
// cg::inclusive_scan / cg::exclusive_scan on thread_block_tile<32> and <8>, tile.shfl_down,
// tile.any/all/ballot. (cuda::pipeline and cuda::barrier have their own programs, pipeline_* and
// barrier_*.)
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_pipeline.h>

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

constexpr int THREADS = 64;

// block-wide copy with cg::memcpy_async, then a tile reduce and scans
__global__ void cg_kernel(const int *in, int *sums, int *incl, int *excl, int *votes)
{
    __shared__ int buf[THREADS];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, buf, in + blockIdx.x * THREADS, sizeof(int) * THREADS);
    cg::wait(block);
    auto tile = cg::tiled_partition<32>(block);
    int v = buf[block.thread_rank()];
    int total = cg::reduce(tile, v, cg::plus<int>());
    int biggest = cg::reduce(tile, v, cg::greater<int>());
    auto tile8 = cg::tiled_partition<8>(block);
    int small_total = cg::reduce(tile8, v & 0xff, cg::plus<int>());
    int i = blockIdx.x * THREADS + block.thread_rank();
    incl[i] = cg::inclusive_scan(tile, v);
    excl[i] = cg::exclusive_scan(tile8, v, cg::bit_xor<int>());
    int down = tile.shfl_down(v, 3);
    unsigned ballot = tile.ballot(v > 0);
    votes[i] = (tile.any(v > 900) ? 1 : 0) | (tile.all(v > -1000) ? 2 : 0) | (__popc(ballot) << 2) +
               (down & 0x7) * 1024;
    if (tile.thread_rank() == 0) {
        sums[(blockIdx.x * 2 + tile.meta_group_rank()) * 2] = total;
        sums[(blockIdx.x * 2 + tile.meta_group_rank()) * 2 + 1] = biggest;
    }
    if (tile8.thread_rank() == 0) atomicAdd(&sums[64 + blockIdx.x], small_total);
}

// the low-level primitives: 16-, 8- and 4-byte copies, and a zero-filled tail
__global__ void primitives_kernel(const int4 *in, int *out, int valid_words)
{
    __shared__ int4 a[THREADS];
    __shared__ int2 b[THREADS];
    __shared__ int c[THREADS];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&a[t], &in[t], sizeof(int4));
    __pipeline_memcpy_async(&b[t], reinterpret_cast<const int2 *>(in) + t + 1, sizeof(int2));
    int bytes = t < valid_words ? 4 : 0;        // threads past the end copy nothing and zero-fill
    __pipeline_memcpy_async(&c[t], reinterpret_cast<const int *>(in) + t + 3, sizeof(int), sizeof(int) - bytes);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int r = (THREADS - 1) - t;
    out[t] = a[r].x + a[r].y * 3 + a[r].z * 5 + a[r].w * 7 + b[r].x * 11 + b[r].y * 13 + c[r] * 17;
}

int main()
{
    constexpr int BLOCKS = 3, N = BLOCKS * THREADS;
    static int in[N], sums[64 + BLOCKS], incl[N], excl[N], votes[N];
    for (int i = 0; i < N; i++) in[i] = (i * 7919) % 2001 - 1000;
    int *d_in, *d_sums, *d_incl, *d_excl, *d_votes;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_sums, sizeof sums));
    CUDA_CHECK(cudaMalloc(&d_incl, sizeof incl)); CUDA_CHECK(cudaMalloc(&d_excl, sizeof excl));
    CUDA_CHECK(cudaMalloc(&d_votes, sizeof votes));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_sums, 0, sizeof sums));
    cg_kernel<<<BLOCKS, THREADS>>>(d_in, d_sums, d_incl, d_excl, d_votes);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(incl, d_incl, sizeof incl, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(excl, d_excl, sizeof excl, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(votes, d_votes, sizeof votes, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int w = 0; w < N / 32; w++) {
        int total = 0, biggest = -100000, run = 0, any = 0, all = 1, pos = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[w * 32 + l];
            total += v; biggest = v > biggest ? v : biggest; run += v;
            any |= v > 900; all &= v > -1000; pos += v > 0;
            if (incl[w * 32 + l] != run && bad++ < 5) fprintf(stderr, "inclusive scan %d\n", w * 32 + l);
        }
        for (int l = 0; l < 32; l++) {
            int v = l + 3 < 32 ? in[w * 32 + l + 3] : in[w * 32 + l];
            int want = (any ? 1 : 0) | (all ? 2 : 0) | (pos << 2) + (v & 7) * 1024;
            if (votes[w * 32 + l] != want && bad++ < 5) fprintf(stderr, "votes %d: %d want %d\n", w * 32 + l, votes[w * 32 + l], want);
        }
        if ((sums[2 * w] != total || sums[2 * w + 1] != biggest) && bad++ < 5) fprintf(stderr, "reduce %d\n", w);
        checksum += total * 3 + biggest;
    }
    for (int g = 0; g < N / 8; g++) {
        int x = 0;
        for (int l = 0; l < 8; l++) {
            if (excl[g * 8 + l] != x && bad++ < 5) fprintf(stderr, "exclusive scan %d\n", g * 8 + l);
            x ^= in[g * 8 + l];
        }
    }
    for (int b = 0; b < BLOCKS; b++) {
        int want = 0;
        for (int t = 0; t < THREADS; t++) want += in[b * THREADS + t] & 0xff;
        if (sums[64 + b] != want && bad++ < 5) fprintf(stderr, "tile8 reduce %d\n", b);
        checksum += sums[64 + b];
    }
    for (int i = 0; i < N; i++) checksum += (long long)incl[i] * (i % 5) + excl[i] + votes[i];

    static int4 words[THREADS + 1];
    static int out[THREADS];
    for (int i = 0; i < THREADS + 1; i++) words[i] = make_int4(i, -i, 2 * i + 1, i * i);
    int4 *d_words; int *d_out;
    CUDA_CHECK(cudaMalloc(&d_words, sizeof words)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_words, words, sizeof words, cudaMemcpyHostToDevice));
    primitives_kernel<<<1, THREADS>>>(d_words, d_out, 40);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    const int *flat = reinterpret_cast<const int *>(words);
    for (int t = 0; t < THREADS; t++) {
        int r = THREADS - 1 - t;
        int4 a = words[r];
        int c = r < 40 ? flat[r + 3] : 0;
        int want = a.x + a.y * 3 + a.z * 5 + a.w * 7 + flat[2 * r + 2] * 11 + flat[2 * r + 3] * 13 + c * 17;
        if (out[t] != want && bad++ < 5) fprintf(stderr, "primitives %d: %d want %d\n", t, out[t], want);
        checksum += out[t];
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
