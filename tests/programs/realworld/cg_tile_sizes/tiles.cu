// thread_block_tile<N> for N = 1, 2, 4, 8, 16, 32 (tiled_partition<N> of the block and of a
// 32-tile), and dynamic tiled_partition(block, n) for the same n with the warp intrinsics at a
// width held in a register: ranks, sizes, meta groups, every shuffle mode (in range, out of
// range, source lanes past the width, xor into earlier groups), ballot/any/all, match_any/all,
// cg::reduce with each kind of operator, inclusive/exclusive scans, 64-bit shuffles, tile.sync()
// over shared memory. Every value is checked against a host model of CUDA's rules.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr int THREADS = 64, BLOCKS = 1, N_ALL = THREADS * BLOCKS;
constexpr int K_STATIC = 26, K_DYNAMIC = 14;

template <typename Tile>
__device__ void tileOps(Tile t, const int *in, int *o, int *scratch)
{
    const unsigned N = t.size();
    const unsigned r = t.thread_rank();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    o[0] = r;
    o[1] = N;
    o[2] = t.meta_group_rank();
    o[3] = t.meta_group_size();
    o[4] = t.shfl(v, (r * 3 + 1) % N);
    o[5] = t.shfl(v, r + N + 1);                 // source rank taken modulo the size
    o[6] = t.shfl_up(v, 1);
    o[7] = t.shfl_down(v, 1);
    o[8] = t.shfl_up(v, 3);
    o[9] = t.shfl_down(v, 3);
    o[10] = t.shfl_xor(v, N > 1 ? N / 2 : 0);
    o[11] = t.ballot(v > 0);
    o[12] = t.any(v > 40);
    o[13] = t.all(v > -45);
    o[14] = t.match_any(v % 3);
    int pred = -1;
    o[15] = t.match_all(i / (int)N, pred);
    o[16] = pred;
    o[17] = cg::reduce(t, v, cg::plus<int>());
    o[18] = cg::reduce(t, v, cg::less<int>());
    o[19] = cg::reduce(t, v, cg::greater<int>());
    o[20] = cg::reduce(t, (unsigned)v, cg::bit_xor<unsigned>());
    o[21] = cg::inclusive_scan(t, v);
    o[22] = cg::exclusive_scan(t, v);
    int s = v;                                   // the classic shfl_down reduction
    for (int off = N / 2; off > 0; off /= 2)
        s += t.shfl_down(s, off);
    o[23] = s;
    long long w = (long long)v << 33 | (unsigned)(v * 7);
    for (int off = N / 2; off > 0; off /= 2)
        w += t.shfl_down(w, off);
    o[24] = (int)(w >> 32) ^ (int)w;
    scratch[threadIdx.x] = v * 3;
    t.sync();
    o[25] = scratch[(threadIdx.x & ~(N - 1)) + (r + 1) % N];
}

template <unsigned N>
__global__ void staticTiles(const int *in, int *out, int fromWarp)
{
    __shared__ int scratch[THREADS];
    cg::thread_block block = cg::this_thread_block();
    int *o = out + (blockIdx.x * blockDim.x + threadIdx.x) * K_STATIC;
    if constexpr (N < 32) {                       // a tile of a warp tile (smaller than its parent)
        if (fromWarp) {
            cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
            tileOps(cg::tiled_partition<N>(warp), in, o, scratch);
            return;
        }
    }
    tileOps(cg::tiled_partition<N>(block), in, o, scratch);
}

// A thread_group has no shuffles: the intrinsics take its size as their width, in a register.
__global__ void dynamicTiles(const int *in, int *out, unsigned n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group g = cg::tiled_partition(block, n);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    const int w = (int)g.size();
    const unsigned full = 0xffffffffu;
    int *o = out + i * K_DYNAMIC;
    o[0] = g.thread_rank();
    o[1] = w;
    o[2] = __shfl_sync(full, v, (g.thread_rank() * 5 + 2), w);
    o[3] = __shfl_up_sync(full, v, 1, w);
    o[4] = __shfl_down_sync(full, v, 1, w);
    o[5] = __shfl_up_sync(full, v, 2, w);
    o[6] = __shfl_down_sync(full, v, 2, w);
    o[7] = __shfl_xor_sync(full, v, w / 2, w);
    o[8] = __shfl_xor_sync(full, v, w, w);        // into the earlier group, or the own value
    int s = v;
    for (int off = w / 2; off > 0; off /= 2)
        s += __shfl_down_sync(full, s, off, w);
    o[9] = s;
    int x = v;
    for (int m = 1; m < w; m *= 2)
        x += __shfl_xor_sync(full, x, m, w);
    o[10] = x;
    int up = v;                                   // inclusive scan over shfl_up
    for (int d = 1; d < w; d *= 2) {
        int e = __shfl_up_sync(full, up, d, w);
        if ((int)g.thread_rank() >= d)
            up += e;
    }
    o[11] = up;
    o[12] = __shfl_sync(full, v, 33, w);          // lane 33 is lane 1 of the 32 lanes
    g.sync();
    o[13] = __shfl_down_sync(full, v, w - 1, w);
}

// ---- host model --------------------------------------------------------------------------
static int lanePos(int i) { return i % 32; }

// PTX shfl.sync with c = ((32 - width) << 8) | clamp: the value and whether it came in range.
static int shflModel(const std::vector<int> &v, int i, int mode, unsigned b, int width)
{
    int warp0 = i - lanePos(i), lane = lanePos(i);
    unsigned seg = (32 - width) & 31;
    unsigned clamp = mode == 1 ? 0 : 31;
    int maxLane = (lane & seg) | (clamp & ~seg);
    int minLane = lane & seg;
    int j;
    bool ok;
    b &= 31;
    switch (mode) {
    case 0: j = minLane | (b & ~seg); ok = j <= maxLane; break;       // idx
    case 1: j = lane - (int)b; ok = j >= maxLane; break;               // up
    case 2: j = lane + (int)b; ok = j <= maxLane; break;               // down
    default: j = lane ^ (int)b; ok = j <= maxLane; break;              // bfly
    }
    return v[warp0 + (ok ? j : lane)];
}

static bool expectStatic(int N, bool fromWarp, const std::vector<int> &in, const std::vector<int> &got,
                         long long &checksum)
{
    int bad = 0;
    for (int i = 0; i < N_ALL; ++i) {
        int tr = i % THREADS, r = tr % N, base = i - r;
        int e[K_STATIC];
        auto at = [&](int rank) { return in[base + rank]; };
        int v = in[i];
        e[0] = r;
        e[1] = N;
        e[2] = fromWarp ? (tr % 32) / N : tr / N;
        e[3] = fromWarp ? 32 / N : (THREADS + N - 1) / N;
        e[4] = at((r * 3 + 1) % N);
        e[5] = at((r + N + 1) % N);
        e[6] = r >= 1 ? at(r - 1) : v;
        e[7] = r + 1 < N ? at(r + 1) : v;
        e[8] = r >= 3 ? at(r - 3) : v;
        e[9] = r + 3 < N ? at(r + 3) : v;
        e[10] = at(r ^ (N > 1 ? N / 2 : 0));
        unsigned ballot = 0, match = 0, matchAll = 0;
        int any = 0, all = 1, sum = 0, mn = at(0), mx = at(0), incl = 0, excl = 0;
        unsigned bxor = 0;
        for (int k = 0; k < N; ++k) {
            int x = at(k);
            ballot |= (x > 0) << k;
            any |= x > 40;
            all &= x > -45;
            match |= (x % 3 == v % 3) << k;
            matchAll |= 1u << k;
            sum += x;
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
            bxor ^= x;
            if (k <= r) incl += x;
            if (k < r) excl += x;
        }
        e[11] = ballot;
        e[12] = any;
        e[13] = all;
        e[14] = match;
        e[15] = matchAll;
        e[16] = 1;
        e[17] = sum;
        e[18] = mn;
        e[19] = mx;
        e[20] = bxor;
        e[21] = incl;
        e[22] = excl;
        // the shfl_down reduction: exact in rank 0 only; other ranks mix in their own values
        std::vector<int> s(in.begin() + base, in.begin() + base + N);
        std::vector<long long> ws(N);
        for (int k = 0; k < N; ++k) ws[k] = (long long)s[k] << 33 | (unsigned)(s[k] * 7);
        for (int off = N / 2; off > 0; off /= 2) {
            std::vector<int> ns(s);
            std::vector<long long> nw(ws);
            for (int k = 0; k < N; ++k) {
                ns[k] = s[k] + (k + off < N ? s[k + off] : s[k]);
                nw[k] = ws[k] + (k + off < N ? ws[k + off] : ws[k]);
            }
            s = ns, ws = nw;
        }
        e[23] = s[r];
        e[24] = (int)(ws[r] >> 32) ^ (int)ws[r];
        e[25] = at((r + 1) % N) * 3;
        const int *g = &got[i * K_STATIC];
        for (int k = 0; k < K_STATIC; ++k) {
            checksum += (long long)g[k] * (k + 1) * (N + (fromWarp ? 7 : 0));
            if (g[k] != e[k]) {
                if (bad < 6)
                    printf("tile<%d>%s thread %d value %d: got %d, expected %d\n", N, fromWarp ? " of a warp" : "", i, k,
                           g[k], e[k]);
                bad++;
            }
        }
    }
    return bad == 0;
}

static bool expectDynamic(int w, const std::vector<int> &in, const std::vector<int> &got, long long &checksum)
{
    int bad = 0;
    for (int i = 0; i < N_ALL; ++i) {
        int r = (i % THREADS) % w, base = i - r;
        int e[K_DYNAMIC];
        e[0] = r;
        e[1] = w;
        e[2] = shflModel(in, i, 0, r * 5 + 2, w);
        e[3] = shflModel(in, i, 1, 1, w);
        e[4] = shflModel(in, i, 2, 1, w);
        e[5] = shflModel(in, i, 1, 2, w);
        e[6] = shflModel(in, i, 2, 2, w);
        e[7] = shflModel(in, i, 3, w / 2, w);
        e[8] = shflModel(in, i, 3, w, w);
        std::vector<int> s(in.begin() + base, in.begin() + base + w), x(s), up(s);
        for (int off = w / 2; off > 0; off /= 2) {
            std::vector<int> ns(s);
            for (int k = 0; k < w; ++k) ns[k] = s[k] + (k + off < w ? s[k + off] : s[k]);
            s = ns;
        }
        for (int m = 1; m < w; m *= 2) {
            std::vector<int> nx(x);
            for (int k = 0; k < w; ++k) nx[k] = x[k] + x[k ^ m];
            x = nx;
        }
        for (int d = 1; d < w; d *= 2) {
            std::vector<int> nu(up);
            for (int k = d; k < w; ++k) nu[k] = up[k] + up[k - d];
            up = nu;
        }
        e[9] = s[r];
        e[10] = x[r];
        e[11] = up[r];
        e[12] = shflModel(in, i, 0, 33, w);
        e[13] = shflModel(in, i, 2, w - 1, w);
        const int *g = &got[i * K_DYNAMIC];
        for (int k = 0; k < K_DYNAMIC; ++k) {
            checksum += (long long)g[k] * (k + 3) * (w + 11);
            if (g[k] != e[k]) {
                if (bad < 6)
                    printf("tiled_partition(block, %d) thread %d value %d: got %d, expected %d\n", w, i, k, g[k], e[k]);
                bad++;
            }
        }
    }
    return bad == 0;
}

template <unsigned N>
static bool runStatic(const int *dIn, int *dOut, const std::vector<int> &in, long long &checksum)
{
    bool ok = true;
    // a tile of a warp tile differs in its meta group only: checked for two sizes
    for (int fromWarp = 0; fromWarp < (N == 4 || N == 16 ? 2 : 1); ++fromWarp) {
        CUDA_CHECK(cudaMemset(dOut, 0x7f, N_ALL * K_STATIC * sizeof(int)));
        staticTiles<N><<<BLOCKS, THREADS>>>(dIn, dOut, fromWarp);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<int> got(N_ALL * K_STATIC);
        CUDA_CHECK(cudaMemcpy(got.data(), dOut, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
        ok &= expectStatic(N, fromWarp, in, got, checksum);
    }
    return ok;
}

int main()
{
    std::vector<int> in(N_ALL);
    for (int i = 0; i < N_ALL; ++i)
        in[i] = (i * 37 + 11) % 101 - 50;
    int *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, N_ALL * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, N_ALL * K_STATIC * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), N_ALL * sizeof(int), cudaMemcpyHostToDevice));
    long long checksum = 0;
    bool ok = true;
    ok &= runStatic<1>(dIn, dOut, in, checksum);
    ok &= runStatic<2>(dIn, dOut, in, checksum);
    ok &= runStatic<4>(dIn, dOut, in, checksum);
    ok &= runStatic<8>(dIn, dOut, in, checksum);
    ok &= runStatic<16>(dIn, dOut, in, checksum);
    ok &= runStatic<32>(dIn, dOut, in, checksum);
    for (unsigned n = 1; n <= 32; n *= 2) {
        CUDA_CHECK(cudaMemset(dOut, 0x7f, N_ALL * K_DYNAMIC * sizeof(int)));
        dynamicTiles<<<BLOCKS, THREADS>>>(dIn, dOut, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<int> got(N_ALL * K_DYNAMIC);
        CUDA_CHECK(cudaMemcpy(got.data(), dOut, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
        ok &= expectDynamic((int)n, in, got, checksum);
    }
    printf("checksum: %lld\n", checksum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
