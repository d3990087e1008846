// Reproducer of issue 10's silently wrong tile reductions: each thread_block_tile<16> /
// thread_block_tile<8> of a block sums its values with tile.shfl_down and counts them with
// tile.ballot / tile.any / tile.all / tile.match_any; tile.thread_rank() picks the writer. A
// tile's ballot holds its own lanes only (bit k = rank k), whatever the other tiles of the warp
// vote; checked against the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
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

constexpr int THREADS = 64, FIELDS = 6;

template <unsigned N>
__global__ void tileStats(const int *in, int *out)
{
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int sum = v;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        sum += tile.shfl_down(sum, offset);
    int positives = __popc(tile.ballot(v > 0));
    int anyBig = tile.any(v > 40);
    int allAbove = tile.all(v > -45);
    int sameRest = __popc(tile.match_any(v & 1));
    if (tile.thread_rank() == 0) {
        int *o = out + (i / N) * FIELDS;
        o[0] = sum;
        o[1] = positives;
        o[2] = anyBig;
        o[3] = allAbove;
        o[4] = sameRest;
        o[5] = tile.meta_group_rank();
    }
}

template <unsigned N>
static int check(const int *dIn, int *dOut, const std::vector<int> &h, int blocks, long long &checksum)
{
    const int tiles = blocks * THREADS / N;
    CUDA_CHECK(cudaMemset(dOut, 0xff, tiles * FIELDS * sizeof(int)));
    tileStats<N><<<blocks, THREADS>>>(dIn, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> got(tiles * FIELDS);
    CUDA_CHECK(cudaMemcpy(got.data(), dOut, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < tiles; ++t) {
        int want[FIELDS] = {0, 0, 0, 1, 0, (int)((t * N) % THREADS / N)};
        int first = h[t * N];
        for (unsigned k = 0; k < N; ++k) {
            int x = h[t * N + k];
            want[0] += x;
            want[1] += x > 0;
            want[2] |= x > 40;
            want[3] &= x > -45;
            want[4] += (x & 1) == (first & 1);
        }
        for (int f = 0; f < FIELDS; ++f) {
            checksum += (long long)got[t * FIELDS + f] * (f + 1) * (t + 1) * N;
            if (got[t * FIELDS + f] != want[f]) {
                if (bad < 8)
                    printf("tile<%u> %d field %d: got %d, expected %d\n", N, t, f, got[t * FIELDS + f], want[f]);
                bad++;
            }
        }
    }
    return bad;
}

int main()
{
    const int blocks = 2, n = blocks * THREADS;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 37 + 11) % 101 - 50;
    int *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * FIELDS * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    long long checksum = 0;
    int bad = check<16>(dIn, dOut, h, blocks, checksum) + check<8>(dIn, dOut, h, blocks, checksum);
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
