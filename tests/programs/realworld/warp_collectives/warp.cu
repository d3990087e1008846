// Warp collectives as CUB-style code writes them: shuffles of double and 64-bit values (two SHFLs),
// __shfl_sync with sub-warp widths, __reduce_add/min/max/and/or/xor_sync, __match_any_sync /
// __match_all_sync, __ballot_sync/__activemask under divergence, and cooperative-groups reduce
// on coalesced, labeled and binary partitions.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\nFAIL\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int WARPS = 4, T = 32 * WARPS, OUTS = 16;

__global__ void collectives(const int *in, long long *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[t];
    long long *o = out + t * OUTS;
    double d = v * 0.5;
    for (int off = 16; off > 0; off /= 2) d += __shfl_xor_sync(~0u, d, off);
    o[0] = (long long)(d * 2);
    long long w = (long long)v << 33 | (unsigned)lane;
    o[1] = __shfl_down_sync(~0u, w, 5);
    o[2] = __shfl_sync(~0u, v, (lane * 7) & 7, 8);          // width 8
    o[3] = __shfl_up_sync(~0u, v, 3, 16);                   // width 16
    o[4] = __reduce_add_sync(~0u, v);
    o[5] = __reduce_min_sync(~0u, v);
    o[6] = __reduce_max_sync(~0u, (unsigned)v);
    o[7] = __reduce_and_sync(~0u, (unsigned)v | 0xf0000000u) ^ __reduce_or_sync(~0u, (unsigned)v) ^
           __reduce_xor_sync(~0u, (unsigned)v);
    o[8] = __match_any_sync(~0u, v & 3);
    int pred;
    unsigned all = __match_all_sync(~0u, v & 0x40000000, &pred);
    o[9] = all + pred * 7;
    unsigned active = 0, ball = 0;
    if (v & 1) {
        active = __activemask();
        ball = __ballot_sync(active, v & 2);
    }
    o[10] = (long long)active << 32 | ball;
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int s = 0;
    if (v % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        s = cg::reduce(g, v, cg::plus<int>()) * 100 + (int)g.thread_rank();
    }
    o[11] = s;
    auto part = cg::labeled_partition(tile, v & 3);
    o[12] = cg::reduce(part, v, cg::greater<int>()) * 64 + part.size();
    auto halves = cg::binary_partition(tile, v > 0);
    o[13] = cg::reduce(halves, v, cg::plus<int>()) * 64 + halves.thread_rank();
    o[14] = tile.shfl(v, 31 - lane) + tile.any(v == 7) * 1000 + tile.all(v > -100000) * 2000;
    o[15] = cg::exclusive_scan(tile, v);
}

int main()
{
    static int in[T];
    static long long out[T * OUTS];
    uint32_t s = 99991u;
    for (int i = 0; i < T; i++) { s = s * 1664525u + 1013904223u; in[i] = (int)(s >> 20) - 2048; }
    in[5] = 7;
    int *d_in; long long *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    collectives<<<1, T>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int wbase = 0; wbase < T; wbase += 32) {
        const int *v = in + wbase;
        long long sum = 0; int mn = v[0]; unsigned mx = (unsigned)v[0], an = ~0u, orr = 0, xr = 0; int allbit = 1;
        for (int l = 0; l < 32; l++) {
            sum += v[l]; mn = v[l] < mn ? v[l] : mn; mx = (unsigned)v[l] > mx ? (unsigned)v[l] : mx;
            an &= (unsigned)v[l] | 0xf0000000u; orr |= (unsigned)v[l]; xr ^= (unsigned)v[l];
            allbit &= (v[l] & 0x40000000) == (v[0] & 0x40000000);
        }
        unsigned odd = 0, oddball = 0;
        for (int l = 0; l < 32; l++) if (v[l] & 1) { odd |= 1u << l; if (v[l] & 2) oddball |= 1u << l; }
        long long div3sum = 0;
        for (int l = 0; l < 32; l++) if (v[l] % 3 == 0) div3sum += v[l];
        int running = 0;
        for (int l = 0; l < 32; l++) {
            long long want[OUTS];
            want[0] = sum;
            int src = l + 5 < 32 ? l + 5 : l;
            want[1] = (long long)v[src] << 33 | (unsigned)src;
            want[2] = v[(l & ~7) + ((l * 7) & 7)];
            want[3] = (l & 15) >= 3 ? v[l - 3] : v[l];
            want[4] = sum; want[5] = mn; want[6] = mx; want[7] = (long long)(unsigned)(an ^ orr ^ xr);
            unsigned m = 0;
            for (int k = 0; k < 32; k++) if ((v[k] & 3) == (v[l] & 3)) m |= 1u << k;
            want[8] = m;
            want[9] = allbit ? (long long)0xffffffffu + 7 : 0;
            want[10] = (v[l] & 1) ? ((long long)odd << 32 | oddball) : 0;
            int rank = 0;
            for (int k = 0; k < l; k++) if (v[k] % 3 == 0) rank++;
            want[11] = v[l] % 3 == 0 ? div3sum * 100 + rank : 0;
            int best = -100000, size = 0;
            for (int k = 0; k < 32; k++) if ((v[k] & 3) == (v[l] & 3)) { best = v[k] > best ? v[k] : best; size++; }
            want[12] = (unsigned)(best * 64 + size);     // size() and thread_rank() are unsigned
            long long hs = 0; int hr = 0;
            for (int k = 0; k < 32; k++) if ((v[k] > 0) == (v[l] > 0)) { hs += v[k]; if (k < l) hr++; }
            want[13] = (unsigned)((int)hs * 64 + hr);
            int any7 = 0; for (int k = 0; k < 32; k++) any7 |= v[k] == 7;
            want[14] = v[31 - l] + any7 * 1000 + 2000;
            want[15] = running;
            running += v[l];
            for (int k = 0; k < OUTS; k++) {
                long long got = out[(wbase + l) * OUTS + k];
                checksum = checksum * 31 + got;
                if (got != want[k] && bad++ < 10) printf("warp %d lane %d output %d: %lld want %lld\n", wbase / 32, l, k, got, want[k]);
            }
        }
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
