// coalesced_threads() after divergence (the lanes of a warp that took a branch): thread_rank,
// size, shfl from the first and last member, shfl_up/shfl_down (to the neighbouring members),
// ballot and match_any (packed by rank), any/all, cg::reduce, inclusive/exclusive scans;
// tiled_partition of such a group into 4-member tiles; labeled_partition of it, and
// binary_partition of a warp tile. Every value is checked against a host model.
#include <cstdio>
#include <cstdlib>
#include <functional>
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

constexpr int THREADS = 64, K = 28;

__device__ bool taken(int v) { return v % 3 != 0; }

__global__ void groups(const int *in, int *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    int *o = out + i * K;
    for (int k = 0; k < K; ++k)
        o[k] = -7;
    if (taken(v)) {
        cg::coalesced_group g = cg::coalesced_threads();
        const unsigned n = g.size();
        o[0] = g.thread_rank();
        o[1] = n;
        o[2] = g.shfl(v, 0);
        o[3] = g.shfl(v, n - 1);
        o[4] = g.shfl_up(v, 1);
        o[5] = g.shfl_down(v, 1);
        o[6] = g.ballot(v > 0);
        o[7] = g.any(v > 45);
        o[8] = g.all(v > -48);
        o[9] = g.match_any(v & 1);
        o[10] = cg::reduce(g, v, cg::plus<int>());
        o[11] = cg::reduce(g, v, cg::greater<int>());
        o[12] = cg::inclusive_scan(g, v);
        o[13] = cg::exclusive_scan(g, v);
        cg::coalesced_group quad = cg::tiled_partition(g, 4);
        o[14] = quad.thread_rank();
        o[15] = quad.size();
        o[16] = quad.meta_group_rank();
        o[17] = quad.meta_group_size();
        o[18] = cg::reduce(quad, v, cg::plus<int>());
        cg::coalesced_group same = cg::labeled_partition(g, (v % 4 + 4) % 4);
        o[19] = same.thread_rank();
        o[20] = same.size();
        o[21] = cg::reduce(same, v, cg::plus<int>());
        o[22] = same.shfl(v, 0);
        o[23] = same.ballot(v > 0);
    }
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group side = cg::binary_partition(warp, v > 0);
    o[24] = side.thread_rank();
    o[25] = side.size();
    o[26] = cg::reduce(side, v, cg::greater<int>());
    o[27] = cg::inclusive_scan(side, v);
}

int main()
{
    std::vector<int> in(THREADS);
    for (int i = 0; i < THREADS; ++i)
        in[i] = (i * 41 + 5) % 97 - 48;
    int *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, THREADS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, THREADS * K * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice));
    groups<<<1, THREADS>>>(dIn, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> got(THREADS * K);
    CUDA_CHECK(cudaMemcpy(got.data(), dOut, got.size() * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int i = 0; i < THREADS; ++i) {
        const int w0 = i - i % 32, v = in[i];
        // members of a group, in lane order: its ranks
        auto members = [&](const std::function<bool(int)> &pick) {
            std::vector<int> m;
            for (int l = 0; l < 32; ++l)
                if (pick(w0 + l)) m.push_back(w0 + l);
            return m;
        };
        auto rankOf = [](const std::vector<int> &m, int lane) {
            for (size_t k = 0; k < m.size(); ++k)
                if (m[k] == lane) return (int)k;
            return -1;
        };
        int e[K];
        for (int k = 0; k < K; ++k)
            e[k] = -7;
        if (in[i] % 3 != 0) {
            std::vector<int> m = members([&](int j) { return in[j] % 3 != 0; });
            const int r = rankOf(m, i), n = (int)m.size();
            unsigned ballot = 0, match = 0;
            int any = 0, all = 1, sum = 0, mx = in[m[0]], incl = 0, excl = 0;
            for (int k = 0; k < n; ++k) {
                int x = in[m[k]];
                ballot |= (unsigned)(x > 0) << k;
                match |= (unsigned)((x & 1) == (v & 1)) << k;
                any |= x > 45;
                all &= x > -48;
                sum += x;
                mx = x > mx ? x : mx;
                if (k <= r) incl += x;
                if (k < r) excl += x;
            }
            e[0] = r;
            e[1] = n;
            e[2] = in[m[0]];
            e[3] = in[m[n - 1]];
            e[4] = r > 0 ? in[m[r - 1]] : v;
            e[5] = r + 1 < n ? in[m[r + 1]] : v;
            e[6] = ballot;
            e[7] = any;
            e[8] = all;
            e[9] = match;
            e[10] = sum;
            e[11] = mx;
            e[12] = incl;
            e[13] = excl;
            int q0 = r / 4 * 4, qn = n - q0 < 4 ? n - q0 : 4, qsum = 0;
            for (int k = q0; k < q0 + qn; ++k) qsum += in[m[k]];
            e[14] = r % 4;
            e[15] = qn;
            e[16] = r / 4;
            e[17] = (n + 3) / 4;
            e[18] = qsum;
            auto label = [&](int j) { return (in[j] % 4 + 4) % 4; };
            std::vector<int> s = members([&](int j) { return in[j] % 3 != 0 && label(j) == label(i); });
            int ssum = 0;
            unsigned sballot = 0;
            for (size_t k = 0; k < s.size(); ++k) {
                ssum += in[s[k]];
                sballot |= (unsigned)(in[s[k]] > 0) << k;
            }
            e[19] = rankOf(s, i);
            e[20] = (int)s.size();
            e[21] = ssum;
            e[22] = in[s[0]];
            e[23] = sballot;
        }
        std::vector<int> b = members([&](int j) { return (in[j] > 0) == (v > 0); });
        int bmax = in[b[0]], bincl = 0;
        const int br = rankOf(b, i);
        for (size_t k = 0; k < b.size(); ++k) {
            bmax = in[b[k]] > bmax ? in[b[k]] : bmax;
            if ((int)k <= br) bincl += in[b[k]];
        }
        e[24] = br;
        e[25] = (int)b.size();
        e[26] = bmax;
        e[27] = bincl;
        for (int k = 0; k < K; ++k) {
            int g = got[i * K + k];
            checksum += (long long)g * (k + 1) * (i + 1);
            if (g != e[k]) {
                if (bad < 10)
                    printf("thread %d value %d: got %d, expected %d\n", i, k, g, e[k]);
                bad++;
            }
        }
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
